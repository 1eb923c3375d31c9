//===- Softmax.cpp - attn.softmax -----------------------------------------===//

#include "attn/CodeGen/Halide/Ops.h"

using namespace Halide;

namespace attn::lowering {

HTensor softmaxOf(const std::string &name, const HTensor &x, int axis, bool avx512Math,
                  OpStages &st) {
  int rank = x.rank();
  std::vector<Var> vars = makeVars(rank, name + "_d");
  // The reduction's Funcs are defined over every dimension but the axis.
  std::vector<Var> others;
  for (int d = 0; d < rank; ++d)
    if (d != axis)
      others.push_back(vars[d]);
  auto along = [&](Expr r) {
    std::vector<Expr> idx = asExprs(vars);
    idx[axis] = r;
    return idx;
  };
  Expr negInf = Float(32).min();

  SoftmaxStage s;
  s.label = "softmax";
  s.mx = Func(name + "_max");
  s.e = Func(name + "_exp");
  s.sum = Func(name + "_sum");
  s.out = Func(name);
  s.rMax = RDom(0, x.extent(axis), name + "_rmax");
  s.rSum = RDom(0, x.extent(axis), name + "_rsum");

  // Stable: subtract the maximum. An all -inf slice has max -inf: every exp term is then 0 (never
  // exp(-inf - -inf) = NaN) and the sum 0, so the slice gives zeros. A NaN entry, or a +inf one
  // (inf - inf), makes its exp term NaN (expNonPositive keeps NaN), so the whole slice is NaN, as
  // IEEE arithmetic and numpy have it.
  def(s.mx, others) = negInf;
  def(s.mx, others) = max(s.mx(toHalideOrder(asExprs(others))), x.at(along(s.rMax.x)));
  Expr m = s.mx(toHalideOrder(asExprs(others)));
  Expr xv = x.at(asExprs(vars));
  // exp(-inf - m) = 0
  def(s.e, vars) = expNonPositive(xv - select(isNegInf(m), 0.0f, m), avx512Math);
  def(s.sum, others) = 0.0f;
  std::vector<Expr> eAlong = along(s.rSum.x);
  def(s.sum, others) += s.e(toHalideOrder(eAlong));
  Expr sum = s.sum(toHalideOrder(asExprs(others)));
  def(s.out, vars) = select(isZero(sum), 0.0f, s.e(toHalideOrder(asExprs(vars))) / sum);

  s.vars = toHalideOrder(vars);
  s.axis = halideDim(rank, axis);
  st.softmaxes.push_back(s);
  HTensor t;
  t.func = s.out;
  t.extents = x.extents;
  return t;
}

HTensor lowerSoftmax(const OpContext &ctx, OpStages &st) {
  return softmaxOf(ctx.name, ctx.value(ctx.op.input), static_cast<int>(ctx.op.axis),
                   ctx.options.avx512Math, st);
}

} // namespace attn::lowering
