//===- Heads.cpp - attn.split_heads and attn.merge_heads: views ----------===//

#include "attn/CodeGen/Halide/Ops.h"

using namespace Halide;

namespace attn::lowering {

HTensor splitHeadsOf(const std::string &name, const HTensor &x, Expr heads) {
  // y[..., h, t, e] = x[..., t, h * d + e]
  int rank = x.rank();
  Expr d = x.declaredExtent(-1) / heads;
  std::vector<Var> v = makeVars(rank + 1, name + "_d");
  std::vector<Expr> src(v.begin(), v.end() - 3);
  src.push_back(v[rank - 1]);
  src.push_back(v[rank - 2] * d + v[rank]);
  HTensor t;
  t.func = Func(name);
  def(t.func, v) = x.at(src);
  t.extents = concat({x.extents.begin(), x.extents.end() - 2}, {heads, x.extent(-2), d});
  return t;
}

HTensor mergeHeadsOf(const std::string &name, const HTensor &x) {
  // y[..., t, h * d + e] = x[..., h, t, e] (with d a constant where the type declares it: the
  // division and remainder of the index are then a shift and a mask, not two idivs per element
  // read, which cost a 512-wide output projection reading a merged attention result ~2x)
  int rank = x.rank();
  Expr d = x.declaredExtent(-1);
  std::vector<Var> v = makeVars(rank - 1, name + "_d");
  std::vector<Expr> src(v.begin(), v.end() - 2);
  src.push_back(v[rank - 2] / d);
  src.push_back(v[rank - 3]);
  src.push_back(v[rank - 2] % d);
  HTensor t;
  t.func = Func(name);
  def(t.func, v) = x.at(src);
  t.extents = concat({x.extents.begin(), x.extents.end() - 3}, {x.extent(-2), x.extent(-3) * d});
  return t;
}

HTensor lowerSplitHeads(const OpContext &ctx, OpStages &) {
  return splitHeadsOf(ctx.name, ctx.value(ctx.op.input), static_cast<int>(ctx.op.heads));
}

HTensor lowerMergeHeads(const OpContext &ctx, OpStages &) {
  return mergeHeadsOf(ctx.name, ctx.value(ctx.op.input));
}

} // namespace attn::lowering
