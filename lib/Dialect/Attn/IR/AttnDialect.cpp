//===- AttnDialect.cpp - the attn dialect ---------------------------------===//

#include "attn/Dialect/Attn/IR/AttnDialect.h"

#include "mlir/IR/Builders.h"
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
