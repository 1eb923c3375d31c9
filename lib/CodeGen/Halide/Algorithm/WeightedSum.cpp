//===- WeightedSum.cpp - attn.weighted_sum --------------------------------===//

#include "attn/CodeGen/Halide/Ops.h"

using namespace Halide;

namespace attn::lowering {

HTensor weightedSumOf(const std::string &name, const HTensor &p, const HTensor &v, OpStages &st) {
  ContractionSpec c;
  c.name = name;
  c.label = "p.v";
  std::vector<Expr> extents(p.extents.begin(), p.extents.end() - 1);
  extents.push_back(v.extent(-1));
  c.extents = extents;
  c.reduceExtent = p.extent(-1);
  c.term = [&p, &v](const std::vector<Expr> &b, Expr i, Expr e, Expr j) {
    return p.at(concat(b, {i, j})) * v.at(concat(b, {j, e}));
  };
  c.rhs = v.func; // Halide dims (e, j, ...): x = e is contiguous
  c.rhsXDim = 0;
  c.rhsRDim = 1;
  return contraction(c, st);
}

HTensor lowerWeightedSum(const OpContext &ctx, OpStages &st) {
  return weightedSumOf(ctx.name, ctx.value(ctx.op.input), ctx.value(ctx.op.other), st);
}

} // namespace attn::lowering
