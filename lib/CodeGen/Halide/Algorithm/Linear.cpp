//===- Linear.cpp - attn.linear -------------------------------------------===//

#include "attn/CodeGen/Halide/Ops.h"

using namespace Halide;

namespace attn::lowering {

HTensor linearOf(const std::string &name, const std::string &label, const HTensor &x,
                 const HTensor &w, const HTensor *bias, OpStages &st) {
  // A contraction over the input's last dim; the leading dims of x fold into the contraction's
  // batch dims (the row dim is the second to last, or a unit dim for rank-1 inputs).
  ContractionSpec c;
  c.name = name;
  c.label = label;
  bool vectorInput = x.rank() == 1;
  c.extents = vectorInput ? std::vector<Expr>{1, w.extent(1)}
                          : concat({x.extents.begin(), x.extents.end() - 1}, {w.extent(1)});
  c.reduceExtent = x.extent(-1);
  c.term = [&x, &w, vectorInput](const std::vector<Expr> &b, Expr t, Expr n, Expr e) {
    return (vectorInput ? x.at({e}) : x.at(concat(b, {t, e}))) * w.at({e, n});
  };
  if (bias)
    c.epilogue = [bias](Expr acc, const std::vector<Expr> &, Expr, Expr n) {
      return acc + bias->at({n});
    };
  c.rhs = w.func; // Halide dims (n, e): x = n is contiguous
  c.rhsXDim = 0;
  c.rhsRDim = 1;
  c.staticWidth = w.staticExtent(1);
  HTensor y = contraction(c, st);
  if (vectorInput) { // drop the unit row
    HTensor v;
    std::vector<Var> n = makeVars(1, name + "_vec_d");
    v.func = Func(name + "_vec");
    def(v.func, n) = y.at({0, n[0]});
    v.extents = {w.extent(1)};
    return v;
  }
  return y;
}

HTensor lowerLinear(const OpContext &ctx, OpStages &st) {
  const kernel::OpSpec &op = ctx.op;
  return linearOf(ctx.name, "x.W", ctx.value(op.input), ctx.value(op.weight), ctx.optional(op.bias),
                  st);
}

} // namespace attn::lowering
