//===- Elementwise.cpp - arith.addf/subf/mulf and tensor.cast -------------===//

#include "attn/CodeGen/Halide/Ops.h"

using namespace Halide;
namespace k = attn::kernel;

namespace attn::lowering {

HTensor lowerElementwise(const OpContext &ctx, OpStages &st) {
  const HTensor &a = ctx.value(ctx.op.input), &b = ctx.value(ctx.op.other);
  std::vector<Var> vars = makeVars(a.rank(), ctx.name + "_d");
  std::vector<Expr> idx = asExprs(vars);
  Expr x = a.at(idx), y = b.at(idx);
  Func out(ctx.name);
  switch (ctx.op.kind) {
  case k::OpKind::Add: def(out, vars) = x + y; break;
  case k::OpKind::Sub: def(out, vars) = x - y; break;
  case k::OpKind::Mul: def(out, vars) = x * y; break;
  default: throw CompileError("not an elementwise op: " + ctx.op.describe());
  }
  st.pointwise.push_back({kernel::opKindName(ctx.op.kind), out, toHalideOrder(vars)});
  HTensor t;
  t.func = out;
  t.extents = ctx.resultExtents;
  return t;
}

HTensor lowerCast(const OpContext &ctx, OpStages &) {
  // tensor.cast only changes what is known statically; the shape rules check the sizes it declares.
  HTensor t = ctx.value(ctx.op.input);
  t.extents = ctx.resultExtents;
  return t;
}

} // namespace attn::lowering
