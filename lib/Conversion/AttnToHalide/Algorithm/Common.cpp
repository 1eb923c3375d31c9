//===- Common.cpp - shared pieces of the algorithm ------------------------===//

#include "Ops.h"

using namespace Halide;

namespace attn::lowering {

Type halideType(kernel::ElemType t) {
  switch (t) {
  case kernel::ElemType::F32: return Float(32);
  case kernel::ElemType::F16: return Float(16);
  case kernel::ElemType::BF16: return BFloat(16);
  case kernel::ElemType::I32: return Int(32);
  case kernel::ElemType::Bool: return Bool();
  }
  return Float(32);
}

std::vector<Var> makeVars(int n, const std::string &prefix) {
  std::vector<Var> vars;
  for (int i = 0; i < n; ++i)
    vars.emplace_back(prefix + std::to_string(i));
  return vars;
}

std::vector<Expr> asExprs(const std::vector<Var> &vars) { return {vars.begin(), vars.end()}; }

std::vector<Expr> concat(std::vector<Expr> a, const std::vector<Expr> &b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

Expr expNonPositive(Expr x) {
  // exp(x) = 2^t, t = x log2(e) = n + f with n = nearest(t), f in [-0.5, 0.5]. 2^f by a degree-5
  // polynomial fitted for relative error on that interval (max 2.2e-7 in f32 arithmetic); 2^n by
  // building the float's exponent bits. Arguments are clamped at -88: t = -126.96 rounds to
  // n = -127, whose exponent field is 0, so the result is exactly 0 (also for -inf, without a
  // select per element); above it n + 127 >= 1 (a normal float). The clamp lets NaN through (NaN <
  // -88 is false), so exp(NaN) is NaN as IEEE says; strict_float keeps the simplifier from turning
  // it into max(x, -88), which drops NaN on x86.
  Expr t = strict_float(select(x < -88.0f, -88.0f, x)) * 1.44269504088896341f;
  // nearest(t) in integer arithmetic: adding 1.5 * 2^23 puts it in the low mantissa bits. (LLVM 14
  // splits a 16-lane round or floor into two 8-lane halves plus shuffles.)
  // (Bit arithmetic in uint32, which wraps: constant folding of int32 overflow is an error.)
  Expr bits = reinterpret(UInt(32), t + 12582912.0f) - cast<uint32_t>(0x4B400000);
  Expr f = t - cast<float>(reinterpret(Int(32), bits));
  Expr p = 0.001326697994954884f;
  p = p * f + 0.009675469249486923f;
  p = p * f + 0.05550742521882057f;
  p = p * f + 0.24022121727466583f;
  p = p * f + 0.6931469440460205f;
  p = p * f + 1.0000001192092896f;
  return p * reinterpret(Float(32), (bits + cast<uint32_t>(127)) << cast<uint32_t>(23));
}

Expr isNegInf(Expr x) { return reinterpret(UInt(32), x) == Halide::Internal::make_const(UInt(32), int64_t(0xFF800000)); }

Expr tanhApprox(Expr x) {
  // tanh(x) ~ x P(x^2) / Q(x^2) on [-8, 8], P of degree 3 and Q of degree 4 in x^2, a rational
  // fitted for absolute error (1.3e-7 in exact arithmetic, < 1e-6 in f32: test/Integration/
  // tanh-accuracy.test); beyond +-8, tanh(x) is 1 to within 2.3e-7 and x is clamped. One division
  // and 9 multiply-adds per element, against the ~20 of an exp-based form (its exp, a division and a
  // sign select): the additive score's inner loop is made of this. The clamp lets NaN through
  // (comparisons with NaN are false) and strict_float keeps the simplifier from turning the selects
  // into min/max, which drop NaN on x86.
  Expr c = strict_float(select(x > 8.0f, 8.0f, select(x < -8.0f, -8.0f, x)));
  Expr x2 = c * c;
  Expr p = 1.1310243280604482e-05f;
  p = p * x2 + 0.002938829595223069f;
  p = p * x2 + 0.12913642823696136f;
  p = p * x2 + 0.9999993443489075f;
  Expr q = 2.423847433874471e-07f;
  q = q * x2 + 0.0002370287402300164f;
  q = q * x2 + 0.023763835430145264f;
  q = q * x2 + 0.4624674320220947f;
  q = q * x2 + 1.0f;
  return c * p / q;
}

HTensor contraction(const ContractionSpec &spec, OpStages &st) {
  int rank = static_cast<int>(spec.extents.size());
  std::vector<Var> vars = makeVars(rank, spec.name + "_d");
  std::vector<Expr> batch(vars.begin(), vars.end() - 2);
  Expr y = vars[rank - 2], x = vars[rank - 1];
  RDom r(0, spec.reduceExtent, spec.name + "_r");

  Contraction c;
  c.label = spec.label;
  c.acc = Func(spec.name + "_acc");
  c.out = Func(spec.name);
  def(c.acc, vars) = 0.0f;
  def(c.acc, vars) += spec.term(batch, y, x, r.x);
  Expr acc = c.acc(toHalideOrder(asExprs(vars)));
  def(c.out, vars) = spec.epilogue ? spec.epilogue(acc, batch, y, x) : acc;

  std::vector<Var> halideVars = toHalideOrder(vars);
  c.x = halideVars[0];
  c.y = halideVars[1];
  c.outer.assign(halideVars.begin() + 2, halideVars.end());
  c.r = r;
  c.rhs = spec.rhs;
  c.rhsXDim = spec.rhsXDim;
  c.rhsRDim = spec.rhsRDim;
  c.expensiveBody = spec.expensiveBody;
  st.contractions.push_back(c);

  HTensor out;
  out.func = c.out;
  out.extents = spec.extents;
  return out;
}

} // namespace attn::lowering
