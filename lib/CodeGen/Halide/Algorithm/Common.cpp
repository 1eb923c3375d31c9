//===- Common.cpp - shared pieces of the algorithm ------------------------===//

#include "attn/CodeGen/Halide/Ops.h"
#include "attn/CodeGen/Halide/TargetMath.h"

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

namespace {

/// n = nearest(t) and 2^n, for t in [-127, 255]: one add rounds t and places n + 127 in the low
/// bits of y = t + (1.5 * 2^23 + 127): the float spacing there is 1, so y is an integer in
/// [2^23, 2^24). n is y less that constant (exact); 2^n is y's bits shifted into the exponent
/// field: the shift drops the magic's own exponent and mantissa bits (its low 9 bits are zero),
/// leaving (n + 127) << 23 (a normal float for n >= -126; 0 for n = -127). Four operations for
/// the split and 2^n, against six with an integer conversion (and LLVM 14 splits a 16-lane round
/// or floor into two 8-lane halves plus shuffles). strict_float keeps the add and its undoing from
/// being folded away. (Bit arithmetic in uint32, which wraps: constant folding of int32 overflow is
/// an error.)
struct RoundedPow2 {
  Expr n, pow2n;
};
RoundedPow2 roundedPow2(Expr t) {
  constexpr float magic = 12582912.0f + 127.0f;
  Expr y = strict_float(t + magic);
  return {strict_float(y - magic),
          reinterpret(Float(32), reinterpret(UInt(32), y) << cast<uint32_t>(23))};
}

/// x clamped to [-bound, bound] by two selects on one value, which x86 does as max then min.
/// Both keep NaN: a comparison with NaN is false, so the select passes x through, and x86's max and
/// min return their second operand, x, when one is NaN. strict_float keeps the simplifier from
/// rewriting the selects as Halide's min and max, which drop NaN on x86.
Expr clampKeepingNaN(Expr x, float bound) {
  Expr lo = strict_float(select(x < -bound, -bound, x));
  return strict_float(select(lo > bound, bound, lo));
}

} // namespace

Expr exp2NonPositive(Expr t, bool avx512) {
  if (avx512) {
    // 2^t = 2^f 2^floor(t), f = t - floor(t) in [0, 1) by vreduceps; 2^f by a degree-5 polynomial
    // fitted for relative error on [0, 1) (7.5e-8 in exact arithmetic, 1.6e-7 in f32 without
    // fused multiply-adds); 2^floor(t) applied by vscalefps, which also flushes t < -125 to 0 (see
    // TargetMath.h). Eight vector operations per 16 values where the form below takes eleven
    // (docs/SCHEDULES.md, "Measurements behind the code"). No clamp: -inf and NaN come out as they
    // should (0, NaN) by the instructions' own rules. t itself is computed strictly: a masked score
    // is -inf, and under Halide's fast-math flags (no-infs) LLVM folds an operation on a constant
    // -inf (a key the simplifier knows is masked) to poison, which reached the instructions as
    // garbage (whole rows wrong, docs/HARDENING.md).
    t = strict_float(t);
    Expr f = avx512::fracFloor(t);
    Expr p = 0.0018775766948238015f;
    p = p * f + 0.0089893406257033348f;
    p = p * f + 0.055826317518949509f;
    p = p * f + 0.24015361070632935f;
    p = p * f + 0.69315308332443237f;
    p = p * f + 0.99999994039535522f; // p >= 0.99999994: scalePow2Floor's results are normal floats
    return avx512::scalePow2Floor(p, t);
  }
  // 2^t, t = n + f with n = nearest(t), f in [-0.5, 0.5]. 2^f by a degree-5 polynomial fitted for
  // relative error on that interval (max 2.2e-7 in f32 arithmetic); 2^n by building the float's
  // exponent bits. Arguments are clamped at -127, which rounds to n = -127, whose exponent field is
  // 0, so the result is exactly 0 (also for -inf, without a select per element; results below
  // 2^-126.5 flush to 0); above it n + 127 >= 1 (a normal float). The clamp lets NaN through (NaN <
  // -127 is false), so 2^NaN is NaN as IEEE says; strict_float keeps the simplifier from turning it
  // into max(t, -127), which drops NaN on x86.
  t = strict_float(select(t < -127.0f, -127.0f, t));
  RoundedPow2 split = roundedPow2(t); // t >= -127 keeps it in roundedPow2's range
  Expr f = t - split.n;
  Expr p = 0.001326697994954884f;
  p = p * f + 0.009675469249486923f;
  p = p * f + 0.05550742521882057f;
  p = p * f + 0.24022121727466583f;
  p = p * f + 0.6931469440460205f;
  p = p * f + 1.0000001192092896f;
  return p * split.pow2n;
}

Expr expNonPositive(Expr x, bool avx512) {
  // exp(x) = 2^(x log2(e)). The rounding of the product adds up to half an ulp of it to the
  // result's relative error: 3.8e-6 near x = -87. Kernels that can fold log2(e) into a scale they
  // apply anyway call exp2NonPositive instead.
  return exp2NonPositive(x * kLog2e, avx512);
}

Expr isNegInf(Expr x) {
  return reinterpret(UInt(32), x) == Halide::Internal::make_const(UInt(32), int64_t(0xFF800000));
}

Expr isZero(Expr x) { return floatMagnitudeBits(x) == Halide::Internal::make_const(UInt(32), 0); }

Expr tanhApprox(Expr x, Expr scale) {
  // tanh(x) ~ x P(x^2) / Q(x^2) on [-8, 8], P of degree 3 and Q of degree 4 in x^2, a rational
  // fitted for absolute error (1.3e-7 in exact arithmetic, below 5e-7 in f32: test/Integration/
  // tanh-accuracy.test); beyond +-8, tanh(x) is 1 to within 2.3e-7 and x is clamped. The additive
  // score's inner loop is made of this, so every operation counts (measured on the fused additive
  // kernel, one thread, each step side by side with the one before):
  // - Q is divided through by its leading coefficient: its Horner chain starts with an add, which
  //   runs beside the multiply-adds, not with one more of them (8 multiply-adds and one division
  //   per element, against the ~20 operations of an exp-based form).
  // - A scale (v_a's weight in the additive score) multiplies P's coefficients once per register
  //   block instead of every element; strict_float keeps the simplifier from moving it back
  //   onto the element.
  // - The clamp is two selects on one value (clampKeepingNaN), which x86 does as max then min
  //   rather than a compare and a blend (docs/SCHEDULES.md, "Measurements behind the code").
  constexpr double lead = 2.423847433874471e-07; // Q's leading coefficient
  constexpr double pc[] = {1.1310243280604482e-05, 0.002938829595223069, 0.12913642823696136,
                           0.9999993443489075};
  constexpr double qc[] = {0.0002370287402300164, 0.023763835430145264, 0.4624674320220947, 1.0};
  auto coef = [&](double c) { return static_cast<float>(c / lead); };
  Expr c = clampKeepingNaN(x, 8.0f);
  Expr x2 = c * c;
  Expr p = strict_float(scale * coef(pc[0]));
  for (int i = 1; i < 4; ++i)
    p = p * x2 + scale * coef(pc[i]);
  Expr q = x2 + coef(qc[0]);
  for (int i = 1; i < 4; ++i)
    q = q * x2 + coef(qc[i]);
  return c * p / q;
}

Expr expOfBounded(Expr y) {
  // e^y = 2^n e^r, n = nearest(y log2(e)), r = y - n ln 2 in [-0.35, 0.35]. The reduction is
  // Cody and Waite's: ln 2 in two parts, the first (355/512) short enough that n times it is exact
  // for |n| < 2^15, so r loses nothing to the cancellation (against rounding y log2(e) and taking
  // 2^f, which for |y| near 80 costs 2.6e-6 relative: the product's rounding times ln 2). e^r by
  // its Taylor series to degree 7 (remainder below 5.3e-9), 2^n by the exponent bits (roundedPow2;
  // n + 127 in [1, 253] for |y| <= 87). About 1.5 ulp in all. strict_float keeps the order of the
  // reduction, which LLVM's reassociation would undo (y - n c1 - n c2 = y - n (c1 + c2)).
  RoundedPow2 split = roundedPow2(strict_float(y * kLog2e));
  Expr n = split.n;
  Expr r = strict_float((y - n * 0.693359375f) - n * -2.12194440e-4f);
  Expr p = 1.0f / 5040.0f;
  for (float c : {1.0f / 720.0f, 1.0f / 120.0f, 1.0f / 24.0f, 1.0f / 6.0f, 0.5f, 1.0f, 1.0f})
    p = p * r + c;
  return p * split.pow2n;
}

Expr tanhExpFactor(Expr x) { return expOfBounded(2.0f * clampKeepingNaN(x, kTanhSplitBound)); }

Expr tanhOfSumTerm(Expr ea, Expr ebm, Expr mInv) {
  // 1 / d, d = ea ebm + mInv: an approximate reciprocal (rcpps, 12 bits) and one Newton step
  // r (2 - d r), on the FMA pipes, where a division was the inner loop's limit. With m folded into
  // the key's factor and 1 / m, a term is one multiply-add, the reciprocal, a multiply-add for
  // 2 - d r and the product accumulated (errors and times: docs/SCHEDULES.md, "Measurements
  // behind the code").
  Expr d = ea * ebm + mInv;
  Expr r = fast_inverse(d);
  return r * (2.0f - d * r);
}

Expr floatMagnitudeBits(Expr x) {
  return reinterpret(UInt(32), x) & Halide::Internal::make_const(UInt(32), int64_t(0x7FFFFFFF));
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
  c.staticWidth = spec.staticWidth;
  st.contractions.push_back(c);

  HTensor out;
  out.func = c.out;
  out.extents = spec.extents;
  return out;
}

} // namespace attn::lowering
