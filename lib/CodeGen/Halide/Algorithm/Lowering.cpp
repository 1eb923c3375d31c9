//===- Lowering.cpp - a kernel description to a Halide pipeline -----------===//

#include "attn/CodeGen/Halide/Lowering.h"

#include "attn/CodeGen/Halide/Ops.h"

#include "attn/Kernel/Limits.h"
#include "attn/Kernel/ShapeRules.h"

#include <algorithm>
#include <map>

using namespace Halide;
namespace k = attn::kernel;

namespace attn::lowering {

std::string argumentName(int i) { return "arg" + std::to_string(i); }
std::string resultName(int i) { return "result" + std::to_string(i); }

namespace {

/// A tensor read in f32 (float types) from `clamped`, which clamps its indices to `extents`:
/// schedules may round loops up past a tensor's edge (vector tails), and the clamped reads keep
/// that legal.
HTensor readAsTensor(const std::string &name, Func clamped, const k::TensorType &type,
                     std::vector<Expr> extents) {
  HTensor t;
  t.elem = type.elem;
  t.staticShape = type.shape;
  t.extents = std::move(extents);
  std::vector<Var> vars = makeVars(type.rank(), name + "_d");
  Expr v = clamped(toHalideOrder(asExprs(vars)));
  if (k::isFloat(type.elem))
    v = cast<float>(v);
  t.func = Func(name + "_in");
  def(t.func, vars) = v;
  return t;
}

/// `f` clamped to the static sizes of `type` (Halide order).
Func clampedToDeclared(Func f, const k::TensorType &type) {
  Region bounds;
  for (int d = type.rank() - 1; d >= 0; --d)
    bounds.push_back({0, static_cast<int>(type.shape[d])});
  return BoundaryConditions::repeat_edge(f, bounds);
}

/// An argument's buffer, clamped to the buffer's own extents, or (`toDeclared`: a previous
/// segment's value, LoweringOptions::segmentInput) to the static sizes its type declares.
HTensor inputTensor(const ImageParam &p, const k::TensorType &type, bool toDeclared) {
  std::vector<Expr> extents;
  for (int d = 0; d < type.rank(); ++d)
    extents.push_back(toDeclared ? Expr(static_cast<int>(type.shape[d]))
                                 : p.dim(halideDim(type.rank(), d)).extent());
  Func clamped = toDeclared ? clampedToDeclared(Func(p), type) : BoundaryConditions::repeat_edge(p);
  return readAsTensor(p.name(), clamped, type, extents);
}

/// The value a segment computes (kernel/Segments.h), as an extern stage calling the segment's own
/// pipeline with the arguments it reads and the previous segment's value. Its type is static.
HTensor segmentValue(const k::Segment &seg, const k::FunctionSpec &fn, const LoweredFunction &lf,
                     std::map<int, Func> &externs) {
  std::vector<ExternFuncArgument> args;
  for (int v : seg.argValues)
    if (v < fn.numArgs)
      args.push_back(lf.inputs[v]);
    else
      args.push_back(externs.at(v));
  const k::TensorType &type = fn.values[seg.output];
  Func call(seg.spec.name + "_call");
  call.define_extern(seg.spec.name, args, halideType(type.elem), type.rank(), NameMangling::C);
  call.compute_root();
  externs[seg.output] = call;
  std::vector<Expr> extents;
  for (int64_t d : type.shape)
    extents.push_back(static_cast<int>(d));
  return readAsTensor(call.name(), clampedToDeclared(call, type), type, extents);
}

/// a == b, in a form Halide's simplifier cannot learn from. It learns equalities from asserts and
/// would then compute the bounds checks of the inputs with the size a requirement demands, so a
/// wrong size fails a bounds check ("accessed at 7, beyond the max 6 in dimension 0", in Halide's
/// dimension order) before the requirement can name the argument and the rule.
Expr sameSize(Expr a, Expr b) { return (a ^ b) == 0; }

Expr requirementOf(const k::ShapeCheck<Expr> &c) {
  switch (c.kind) {
  case k::ShapeCheck<Expr>::Equal: return sameSize(c.a, c.b);
  case k::ShapeCheck<Expr>::Divides: return c.a > 0 && c.b % c.a == 0;
  case k::ShapeCheck<Expr>::Broadcasts: return c.a == 1 || c.a == c.b;
  }
  return Halide::Internal::const_true();
}

const char *relationOf(const k::ShapeCheck<Expr> &c) {
  switch (c.kind) {
  case k::ShapeCheck<Expr>::Equal: return "must equal ";
  case k::ShapeCheck<Expr>::Divides: return "must divide ";
  case k::ShapeCheck<Expr>::Broadcasts: return "must be 1 or equal ";
  }
  return "";
}

/// One requirement per argument, for all its sizes: each at least 1 and, where the type declares
/// it, the declared one; the message shows them all at once. Halide joins the message's parts with
/// spaces.
std::pair<Expr, std::vector<Expr>> argumentRequirement(int i, const k::TensorType &type,
                                                       const std::vector<Expr> &extents) {
  Expr ok = Halide::Internal::const_true();
  std::vector<Expr> message = {
      Expr("argument #" + std::to_string(i) + " (" + type.str() + ") has sizes")};
  std::string declared;
  for (int d = 0; d < type.rank(); ++d) {
    ok = ok && extents[d] >= 1;
    if (type.shape[d] != k::kDynamic)
      ok = ok && sameSize(extents[d], static_cast<int>(type.shape[d]));
    message.push_back(extents[d]);
    declared += (d ? ", " : "") +
                (type.shape[d] == k::kDynamic ? std::string("?") : std::to_string(type.shape[d]));
  }
  message.push_back(
      Expr("(outermost first), but its type declares [" + declared + "] and " + k::kNonEmptyRule));
  return {ok, message};
}

HTensor lowerOp(const OpContext &ctx, OpStages &st) {
  switch (ctx.op.kind) {
  case k::OpKind::Score: return lowerScore(ctx, st);
  case k::OpKind::Mask: return lowerMask(ctx, st);
  case k::OpKind::Softmax: return lowerSoftmax(ctx, st);
  case k::OpKind::WeightedSum: return lowerWeightedSum(ctx, st);
  case k::OpKind::Attention: return lowerAttention(ctx, st);
  case k::OpKind::MultiHead: return lowerMultiHead(ctx, st);
  case k::OpKind::Linear: return lowerLinear(ctx, st);
  case k::OpKind::SplitHeads: return lowerSplitHeads(ctx, st);
  case k::OpKind::MergeHeads: return lowerMergeHeads(ctx, st);
  case k::OpKind::Add:
  case k::OpKind::Sub:
  case k::OpKind::Mul: return lowerElementwise(ctx, st);
  case k::OpKind::Cast: return lowerCast(ctx, st);
  }
  throw CompileError("no lowering for " + ctx.op.describe());
}

} // namespace

std::unique_ptr<LoweredFunction> lowerFunction(const k::FunctionSpec &fn,
                                               const LoweringOptions &options) {
  auto lf = std::make_unique<LoweredFunction>();
  lf->spec = &fn;
  lf->values.resize(fn.values.size());
  std::vector<std::pair<Expr, std::vector<Expr>>> requirements;

  std::vector<std::vector<Expr>> argShapes;
  for (int i = 0; i < fn.numArgs; ++i) {
    const k::TensorType &type = fn.values[i];
    ImageParam p(halideType(type.elem), type.rank(), argumentName(i));
    for (int d = 0; d < type.rank(); ++d)
      p.dim(d).set_min(0);
    lf->inputs.push_back(p);
    lf->values[i] = inputTensor(p, type, i == options.segmentInput);
    argShapes.push_back(lf->values[i].extents);
    // An argument nothing reads is not checked: checked, every buffer of a function with hundreds
    // of arguments brought its own checks into the kernel, and LLVM took minutes over them (500
    // arguments and one op: 140 s). Its shape cannot change a result.
    if (fn.uses(i) > 0)
      requirements.push_back(argumentRequirement(i, type, lf->values[i].extents));
  }

  k::ShapeInference<Expr> shapes(fn, argShapes);
  for (const k::ShapeCheck<Expr> &c : shapes.checks)
    requirements.push_back({requirementOf(c),
                            {Expr(c.context + ": " + c.aName + " ="), c.a,
                             Expr(std::string(relationOf(c)) + c.bName + " ="), c.b}});

  std::map<int, Func> externs; // the segments' values, by value id
  for (size_t n = 0; n < fn.ops.size(); ++n) {
    const k::OpSpec &op = fn.ops[n];
    auto seg =
        std::find_if(options.segments.begin(), options.segments.end(), [&](const k::Segment &s) {
          return s.firstOp <= int(n) && int(n) <= s.lastOp;
        });
    if (seg != options.segments.end()) { // computed by the segment's own pipeline
      if (int(n) == seg->lastOp)
        lf->values[op.result] = segmentValue(*seg, fn, *lf, externs);
      continue;
    }
    std::string kind = k::opKindName(op.kind);
    OpContext ctx{op, lf->values, shapes.shapes[op.result],
                  "op" + std::to_string(n) + "_" + kind.substr(kind.find('.') + 1), options};
    OpStages st;
    st.op = &op;
    HTensor result = lowerOp(ctx, st);
    result.extents = shapes.shapes[op.result];
    result.staticShape = fn.values[op.result].shape;
    result.elem = fn.values[op.result].elem;
    st.result = result.func;
    lf->values[op.result] = result;
    lf->ops.push_back(std::move(st));
  }

  for (size_t i = 0; i < fn.results.size(); ++i) {
    const k::TensorType &type = fn.resultType(i);
    const HTensor &value = lf->values[fn.results[i]];
    std::vector<Var> vars = makeVars(type.rank(), resultName(i) + "_d");
    Func out(resultName(i));
    def(out, vars) = cast(halideType(type.elem), value.at(asExprs(vars)));
    // The result buffer must have the shape the arguments imply. A requirement says so by name
    // (bounds set on the output buffer would fail first, with Halide's dimension numbers).
    std::string what = "result #" + std::to_string(i) + " (" + type.str() + "): dimension ";
    for (int d = 0; d < type.rank(); ++d) {
      Halide::Internal::Dimension dim = out.output_buffer().dim(halideDim(type.rank(), d));
      dim.set_min(0);
      requirements.push_back({sameSize(dim.extent(), value.extents[d]),
                              {Expr(what + std::to_string(d) + " is"), dim.extent(),
                               Expr(std::string("but the arguments make it")), value.extents[d]}});
    }
    lf->outputs.push_back(out);
    lf->resultStages.push_back({"result", out, toHalideOrder(vars), value.func});
  }

  lf->pipeline = Pipeline(lf->outputs);
  for (auto &[cond, message] : requirements)
    lf->pipeline.add_requirement(cond, message);
  return lf;
}

} // namespace attn::lowering
