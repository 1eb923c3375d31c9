//===- AttnDialect.cpp - the attn dialect ---------------------------------===//

#include "attn/Dialect/Attn/IR/AttnDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace attn;

#include "attn/Dialect/Attn/IR/AttnDialect.cpp.inc"
#include "attn/Dialect/Attn/IR/AttnEnums.cpp.inc"
#include "attn/Dialect/Attn/IR/AttnInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "attn/Dialect/Attn/IR/AttnAttrs.cpp.inc"

void AttnDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "attn/Dialect/Attn/IR/AttnAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "attn/Dialect/Attn/IR/AttnOps.cpp.inc"
      >();
}

LogicalResult AttnDialect::verifyOperationAttribute(Operation *op, NamedAttribute attr) {
  if (attr.getName() != TargetAttr::kAttrName)
    return op->emitError() << "unknown attn attribute '" << attr.getName().getValue()
                           << "' (the dialect's discardable attribute is attn.target)";
  if (!isa<ModuleOp>(op))
    return op->emitError() << "attn.target belongs on a module, not on '" << op->getName() << "'";
  if (!isa<TargetAttr>(attr.getValue()))
    return op->emitError() << "attn.target must be an #attn.target<...>, got " << attr.getValue();
  return success();
}

//===----------------------------------------------------------------------===//
// #attn.schedule and #attn.target in the kernel description's terms
//===----------------------------------------------------------------------===//

ScheduleAttr ScheduleAttr::get(MLIRContext *context, const kernel::ScheduleSpec &s) {
  return get(context, s.tileQ, s.blockK, s.vector, s.regQ, s.regK, s.regV, s.chunkK, s.splitK,
             s.groupQ, s.parallel, s.scheduler, s.source);
}

kernel::ScheduleSpec ScheduleAttr::toSpec() const {
  kernel::ScheduleSpec s;
  s.tileQ = getTileQ();
  s.blockK = getBlockK();
  s.vector = getVector();
  s.regQ = getRegQ();
  s.regK = getRegK();
  s.regV = getRegV();
  s.chunkK = getChunkK();
  s.splitK = getSplitK();
  s.groupQ = getGroupQ();
  s.parallel = getParallel().str();
  s.scheduler = getScheduler().str();
  s.source = getSource().str();
  return s;
}

TargetAttr TargetAttr::get(MLIRContext *context, const kernel::TargetTraits &t) {
  return get(context, t.name, t.gpu ? "gpu" : "cpu", t.lanes, t.registers, t.l2Bytes / 1024);
}

kernel::TargetTraits TargetAttr::traits() const {
  kernel::TargetTraits t;
  t.name = getName().str();
  t.gpu = getKind() == "gpu";
  t.lanes = static_cast<int>(getLanes());
  t.registers = static_cast<int>(getRegisters());
  t.l2Bytes = getL2Kib() * 1024;
  return t;
}

//===----------------------------------------------------------------------===//
// Custom directives: enums printed as bare keywords inside op syntax (`attn.score dot ...`). The
// attributes' own `$value` format would print a leading space after the op's; the generic form
// keeps the attributes' own syntax (`#attn<score_kind dot>`).
//===----------------------------------------------------------------------===//

template <typename AttrT>
static ParseResult parseBareEnum(OpAsmParser &parser, AttrT &attr, StringRef what) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  using EnumT = decltype(std::declval<AttrT>().getValue());
  std::optional<EnumT> value = symbolizeEnum<EnumT>(keyword);
  if (!value)
    return parser.emitError(loc) << "unknown " << what << " '" << keyword << "'";
  attr = AttrT::get(parser.getContext(), *value);
  return success();
}

static ParseResult parseScoreKind(OpAsmParser &parser, ScoreKindAttr &attr) {
  return parseBareEnum(parser, attr, "score kind (expected dot, scaled_dot, bilinear or additive)");
}
static void printScoreKind(OpAsmPrinter &printer, Operation *, ScoreKindAttr attr) {
  printer << stringifyScoreKind(attr.getValue());
}

static ParseResult parseDiagonalAlign(OpAsmParser &parser, DiagonalAlignAttr &attr) {
  return parseBareEnum(parser, attr, "alignment (expected top_left or bottom_right)");
}
static void printDiagonalAlign(OpAsmPrinter &printer, Operation *, DiagonalAlignAttr attr) {
  printer << stringifyDiagonalAlign(attr.getValue());
}

#define GET_OP_CLASSES
#include "attn/Dialect/Attn/IR/AttnOps.cpp.inc"
