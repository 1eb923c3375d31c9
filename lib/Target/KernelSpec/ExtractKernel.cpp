//===- ExtractKernel.cpp - MLIR functions to kernel descriptions ----------===//

#include "attn/Target/KernelSpec/ExtractKernel.h"
#include "attn/Kernel/Limits.h"

#include "attn/Dialect/Attn/IR/AttnDialect.h"
#include "attn/Dialect/Attn/IR/AttnShapes.h"
#include "attn/Dialect/Attn/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
namespace k = attn::kernel;

namespace attn {
namespace {

std::string locationString(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (file.getFilename().strref() + ":" + Twine(file.getLine()) + ":" +
            Twine(file.getColumn()))
        .str();
  if (auto name = dyn_cast<NameLoc>(loc))
    return locationString(name.getChildLoc());
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (std::string s = locationString(inner); !s.empty())
        return s;
  if (auto call = dyn_cast<CallSiteLoc>(loc))
    return locationString(call.getCallee());
  return "";
}

std::optional<k::ElemType> elemTypeOf(Type t) {
  if (t.isF32())
    return k::ElemType::F32;
  if (t.isF16())
    return k::ElemType::F16;
  if (t.isBF16())
    return k::ElemType::BF16;
  if (t.isSignlessInteger(32))
    return k::ElemType::I32;
  if (t.isSignlessInteger(1))
    return k::ElemType::Bool;
  return std::nullopt;
}

class Extractor {
public:
  explicit Extractor(func::FuncOp fn) : fn(fn) {}

  FailureOr<k::FunctionSpec> run() {
    spec.name = fn.getSymName().str();
    spec.location = locationString(fn.getLoc());
    if (!fn.getBody().hasOneBlock())
      return fn.emitError() << "kernel @" << spec.name
                            << " must have a single block (no control flow)";
    if (fn.getNumResults() == 0)
      return fn.emitError() << "kernel @" << spec.name
                            << " returns nothing; a kernel computes at least one tensor";
    for (unsigned i = 0; i < fn.getNumArguments(); ++i)
      if (failed(addValue(fn.getArgument(i), [&] {
            return fn.emitError() << "argument #" << i << " of @" << spec.name;
          })))
        return failure();
    spec.numArgs = fn.getNumArguments();

    bool ok = true;
    for (Operation &op : fn.getBody().front()) {
      if (!isLowerableOp(&op)) {
        op.emitError() << "'" << op.getName()
                       << "' cannot be lowered to a kernel: functions may hold attn ops, "
                          "arith.addf/subf/mulf on tensors, tensor.cast and func.return";
        ok = false;
        continue;
      }
      if (auto ret = dyn_cast<func::ReturnOp>(op)) {
        for (Value v : ret.getOperands())
          spec.results.push_back(ids.lookup(v));
        continue;
      }
      if (failed(addOp(&op)))
        ok = false;
    }
    if (!ok)
      return failure();
    return spec;
  }

private:
  func::FuncOp fn;
  k::FunctionSpec spec;
  llvm::DenseMap<Value, int> ids;

  template <typename EmitFn> LogicalResult addValue(Value v, EmitFn emit) {
    auto tensor = dyn_cast<RankedTensorType>(v.getType());
    std::optional<k::ElemType> elem = tensor ? elemTypeOf(tensor.getElementType()) : std::nullopt;
    if (!elem)
      return emit() << " has type " << v.getType()
                    << "; kernel values are ranked tensors of f32, f16, bf16, i32 or i1";
    k::TensorType t;
    t.elem = *elem;
    for (int64_t d : tensor.getShape())
      t.shape.push_back(kernelSize(d));
    ids[v] = static_cast<int>(spec.values.size());
    spec.values.push_back(t);
    return success();
  }

  int id(Value v) { return v ? ids.lookup(v) : -1; }

  void readMask(MaskingOpInterface masking, k::OpSpec &o) {
    o.mask.causal = masking.isCausal();
    if (auto w = masking.getWindowSize())
      o.mask.window = static_cast<int64_t>(*w);
    if (auto a = masking.getDiagonalAlign())
      o.mask.align = *a == DiagonalAlign::bottom_right ? k::Align::BottomRight : k::Align::TopLeft;
    o.mask.keyLengths = id(masking.getKeyLengthsOperand());
    o.mask.mask = id(masking.getMaskOperand());
  }

  static k::ScoreKind scoreKind(ScoreKind kind) {
    switch (kind) {
    case ScoreKind::dot: return k::ScoreKind::Dot;
    case ScoreKind::scaled_dot: return k::ScoreKind::ScaledDot;
    case ScoreKind::bilinear: return k::ScoreKind::Bilinear;
    case ScoreKind::additive: return k::ScoreKind::Additive;
    }
    return k::ScoreKind::Dot;
  }

  static std::optional<float> scaleOf(std::optional<APFloat> s) {
    if (!s)
      return std::nullopt;
    return s->convertToFloat();
  }

  LogicalResult addOp(Operation *op) {
    k::OpSpec o;
    o.location = locationString(op->getLoc());
    bool known = true;
    llvm::TypeSwitch<Operation *>(op)
        .Case([&](ScoreOp s) {
          o.kind = k::OpKind::Score;
          o.score = scoreKind(s.getKind());
          o.query = id(s.getQuery());
          o.key = id(s.getKey());
          o.weight = id(s.getWeight());
          o.vec = id(s.getVec());
          o.scale = scaleOf(s.getScale());
        })
        .Case([&](MaskOp m) {
          o.kind = k::OpKind::Mask;
          o.input = id(m.getScores());
          readMask(m, o);
        })
        .Case([&](SoftmaxOp s) {
          o.kind = k::OpKind::Softmax;
          o.input = id(s.getInput());
          o.axis = s.getNormalizedAxis();
        })
        .Case([&](WeightedSumOp w) {
          o.kind = k::OpKind::WeightedSum;
          o.input = id(w.getWeights());
          o.other = id(w.getValues());
        })
        .Case([&](AttentionOp a) {
          o.kind = k::OpKind::Attention;
          o.score = scoreKind(a.getKind());
          o.query = id(a.getQuery());
          o.key = id(a.getKey());
          o.value = id(a.getValue());
          o.weight = id(a.getWeight());
          o.vec = id(a.getVec());
          o.scale = scaleOf(a.getScale());
          readMask(a, o);
        })
        .Case([&](MultiHeadOp m) {
          o.kind = k::OpKind::MultiHead;
          o.score = scoreKind(m.getKind());
          o.scale = scaleOf(m.getScale());
          o.xq = id(m.getXQ());
          o.xkv = id(m.getXKv());
          o.wq = id(m.getWQ());
          o.wk = id(m.getWK());
          o.wv = id(m.getWV());
          o.wo = id(m.getWO());
          o.bq = id(m.getBQ());
          o.bk = id(m.getBK());
          o.bv = id(m.getBV());
          o.bo = id(m.getBO());
          o.heads = m.getNumHeads();
          o.kvHeads = m.getKvHeads();
          readMask(m, o);
        })
        .Case([&](LinearOp l) {
          o.kind = k::OpKind::Linear;
          o.input = id(l.getInput());
          o.weight = id(l.getWeight());
          o.bias = id(l.getBias());
        })
        .Case([&](SplitHeadsOp sp) {
          o.kind = k::OpKind::SplitHeads;
          o.input = id(sp.getInput());
          o.heads = sp.getHeads();
        })
        .Case([&](MergeHeadsOp m) {
          o.kind = k::OpKind::MergeHeads;
          o.input = id(m.getInput());
        })
        .Case([&](arith::AddFOp a) { binary(o, k::OpKind::Add, a.getLhs(), a.getRhs()); })
        .Case([&](arith::SubFOp a) { binary(o, k::OpKind::Sub, a.getLhs(), a.getRhs()); })
        .Case([&](arith::MulFOp a) { binary(o, k::OpKind::Mul, a.getLhs(), a.getRhs()); })
        .Case([&](tensor::CastOp c) {
          o.kind = k::OpKind::Cast;
          o.input = id(c.getSource());
        })
        .Default([&](Operation *) { known = false; });
    if (!known)
      return op->emitError() << "'" << op->getName() << "' has no kernel lowering";
    if (o.score == k::ScoreKind::Bilinear)
      return op->emitError() << "bilinear scores are lowered folded, q^T W k = (q W) . k: run "
                                "--attn-fold-bilinear before lowering (the kernel tools' pipeline "
                                "does)";
    if (auto sched = op->getAttrOfType<ScheduleAttr>("schedule"))
      o.schedule = sched.toSpec();
    if (failed(addValue(op->getResult(0), [&] { return op->emitError() << "the result"; })))
      return failure();
    o.result = ids.lookup(op->getResult(0));
    spec.ops.push_back(std::move(o));
    return success();
  }

  void binary(k::OpSpec &o, k::OpKind kind, Value lhs, Value rhs) {
    o.kind = kind;
    o.input = id(lhs);
    o.other = id(rhs);
  }
};

} // namespace

FailureOr<k::ModuleSpec> extractKernels(ModuleOp module, StringRef entry) {
  k::ModuleSpec spec;
  bool ok = true, found = entry.empty();
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (fn.isPrivate() || fn.isExternal())
      continue;
    if (!entry.empty() && fn.getSymName() != entry)
      continue;
    found = true;
    FailureOr<k::FunctionSpec> f = Extractor(fn).run();
    if (failed(f)) {
      ok = false;
      continue;
    }
    // Static shapes past 32-bit indexing are refused here; dynamic ones when they are known.
    std::vector<std::vector<int64_t>> shapes;
    for (const k::TensorType &t : f->values)
      shapes.push_back(t.shape);
    if (std::string v = k::shapeLimitViolation(*f, shapes); !v.empty()) {
      fn.emitError() << "kernel @" << f->name << " cannot be compiled: " << v;
      ok = false;
      continue;
    }
    spec.functions.push_back(std::move(*f));
  }
  if (!found) {
    std::string names;
    for (auto fn : module.getOps<func::FuncOp>())
      if (!fn.isPrivate() && !fn.isExternal())
        names += (names.empty() ? "@" : ", @") + fn.getSymName().str();
    return module.emitError() << "no public function named @" << entry << " (the module has "
                              << (names.empty() ? std::string("none") : names) << ")";
  }
  if (ok && spec.functions.empty())
    return module.emitError() << "the module has no public function to compile";
  if (!ok)
    return failure();
  return spec;
}

} // namespace attn
