//===- Ops.h - the algorithm of each op, as Halide Funcs --------*- C++ -*-===//
//
// What each op computes. These files name no tile size, vector width or loop order: that is the
// schedules' business (lib/CodeGen/Halide/Schedule). Each builder returns the op's result and
// records its stages.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_LIB_CONVERSION_ATTNTOHALIDE_OPS_H
#define ATTN_LIB_CONVERSION_ATTNTOHALIDE_OPS_H

#include "attn/CodeGen/Halide/HalideTensor.h"
#include "attn/CodeGen/Halide/Lowering.h"
#include "attn/CodeGen/Halide/Stages.h"

#include <functional>
#include <optional>

namespace attn::lowering {

/// What an op's builder gets: the op, every value built so far, the result's extents (from the
/// shape rules), a unique name prefix for its Funcs, and the lowering's options.
struct OpContext {
  const kernel::OpSpec &op;
  const std::vector<HTensor> &values;
  std::vector<Halide::Expr> resultExtents;
  std::string name;
  const LoweringOptions &options;
  const HTensor &value(int id) const { return values[id]; }
  const HTensor *optional(int id) const { return id >= 0 ? &values[id] : nullptr; }
};

HTensor lowerScore(const OpContext &ctx, OpStages &st);
HTensor lowerMask(const OpContext &ctx, OpStages &st);
HTensor lowerSoftmax(const OpContext &ctx, OpStages &st);
HTensor lowerWeightedSum(const OpContext &ctx, OpStages &st);
HTensor lowerAttention(const OpContext &ctx, OpStages &st);
HTensor lowerMultiHead(const OpContext &ctx, OpStages &st);
HTensor lowerLinear(const OpContext &ctx, OpStages &st);
HTensor lowerSplitHeads(const OpContext &ctx, OpStages &st);
HTensor lowerMergeHeads(const OpContext &ctx, OpStages &st);
HTensor lowerElementwise(const OpContext &ctx, OpStages &st); // add, sub, mul
HTensor lowerCast(const OpContext &ctx, OpStages &st);

//===--- Building blocks shared by the op builders ---===//

/// A contraction (see Stages.h): out[B..., y, x] = epilogue(Σ_r term(B, y, x, r)), with
/// `extents` = B..., Y, X in tensor order. Records the stage and returns out.
using TermFn = std::function<Halide::Expr(const std::vector<Halide::Expr> &batch, Halide::Expr y,
                                          Halide::Expr x, Halide::Expr r)>;
using EpilogueFn = std::function<Halide::Expr(
    Halide::Expr acc, const std::vector<Halide::Expr> &batch, Halide::Expr y, Halide::Expr x)>;
struct ContractionSpec {
  std::string name, label;
  std::vector<Halide::Expr> extents;
  Halide::Expr reduceExtent;
  TermFn term;
  EpilogueFn epilogue; // may be empty: out = acc
  Halide::Func rhs;    // the operand read along x (may be undefined)
  int rhsXDim = 0, rhsRDim = 1;
  bool expensiveBody = false;
  int64_t staticWidth = kernel::kDynamic; // the extent along x, when the types declare it
};
HTensor contraction(const ContractionSpec &spec, OpStages &st);

/// Scores of q [..., Tq, Dq] against k [..., Tk, Dk] (k may be a grouped-query view).
HTensor scoreOf(const std::string &name, kernel::ScoreKind kind, std::optional<float> scale,
                const HTensor &q, const HTensor &k, const HTensor *weight, const HTensor *vec,
                OpStages &st);
/// The mask options applied to scores [..., Tq, Tk].
HTensor maskOf(const std::string &name, const kernel::MaskSpec &mask, const HTensor &scores,
               const HTensor *keyLengths, const HTensor *maskOperand, OpStages &st);
/// The mask rule (Masking.cpp), for query i and key j of [Tq, Tk] scores: the diagonal key d(i) of
/// the mask's alignment; the window width as compared (at most max(Tq, Tk), which keeps every key
/// any wider window keeps); whether the options keep key j (`keyLength` undefined: no key lengths;
/// the mask operand apart); and the mask operand's entry for the scores' tensor-order index, with
/// numpy broadcasting.
Halide::Expr diagonalOf(const kernel::MaskSpec &mask, Halide::Expr i, Halide::Expr tq,
                        Halide::Expr tk);
Halide::Expr windowWidth(const kernel::MaskSpec &mask, Halide::Expr tq, Halide::Expr tk);
Halide::Expr maskKeeps(const kernel::MaskSpec &mask, Halide::Expr i, Halide::Expr j,
                       Halide::Expr tq, Halide::Expr tk, Halide::Expr keyLength);
Halide::Expr maskOperandAt(const HTensor &m, const std::vector<Halide::Expr> &scoreIndex);
/// Softmax of x along tensor dimension `axis`.
HTensor softmaxOf(const std::string &name, const HTensor &x, int axis, bool avx512Math,
                  OpStages &st);
/// c[..., i, :] = Σ_j p[..., i, j] v[..., j, :].
HTensor weightedSumOf(const std::string &name, const HTensor &p, const HTensor &v, OpStages &st);
/// Attention of q over k, v, where k and v may have fewer heads (last batch dim) than q (GQA).
HTensor attentionOf(const std::string &name, const kernel::OpSpec &op, const HTensor &q,
                    const HTensor &k, const HTensor &v, const HTensor *weight, const HTensor *vec,
                    const HTensor *keyLengths, const HTensor *maskOperand,
                    const LoweringOptions &options, OpStages &st);

/// The composition score -> mask -> softmax -> weighted_sum (GQA through views of k and v).
HTensor composedAttentionOf(const std::string &name, const kernel::OpSpec &op, const HTensor &q,
                            const HTensor &k, const HTensor &v, const HTensor *weight,
                            const HTensor *vec, const HTensor *keyLengths,
                            const HTensor *maskOperand, bool avx512Math, OpStages &st);

/// The blocking of the fused attention kernel: query tiles of `tileRows` rows, key blocks of
/// `blockKeys` keys; `skipBlocks`: key blocks that the masks leave empty for a whole tile are not
/// visited; `foldDeclaredSizes`: the row and key counts the types declare are constants to the
/// kernel (HTensor::declaredExtent); `maxGroup` > 0: the block's row max is taken per group of that
/// many keys as the scores are computed (the CPU schedule's Q.K^T register block), `sumGroup` > 0:
/// the row sum per group of that many keys as the probabilities are (0: passes of their own over
/// the block; see FusedAttention.cpp); `tanhSplit`: additive scores by tanhOfSumTerm when every
/// projected value and every v_a is within its bound (the CPU schedule specializes the score on
/// it); `pureOneBlockState`: with Tk known and at most one block, the softmax state is that
/// block's own, a pure Func (FusedAttentionStage::oneBlock), instead of a merge over a one-block
/// loop; `scaleScores`: the score scale multiplies each score instead of each query element (for
/// schedules that read the queries where they use them, as the GPU's do when shared memory has no
/// room for a Q tile); `rowScale`: the result is normalized by one reciprocal of the row sum per
/// row (FusedAttentionStage::rowScale), else by a division per element.
struct FusedBlocking {
  int tileRows = 32, blockKeys = 1024;
  bool skipBlocks = true;
  bool foldDeclaredSizes = true;
  bool pureOneBlockState = false;
  bool scaleScores = false;
  bool rowScale = true;
  int maxGroup = 0, sumGroup = 0;
  bool tanhSplit = false;  // additive scores by tanhOfSumTerm where the values allow it
  bool avx512Math = false; // LoweringOptions::avx512Math
};

/// The fused attention kernel (FusedAttention.cpp). Bilinear scores arrive folded into dot
/// (--attn-fold-bilinear).
HTensor fusedAttentionOf(const std::string &name, const kernel::OpSpec &op, const HTensor &q,
                         const HTensor &k, const HTensor &v, const HTensor *weight,
                         const HTensor *vec, const HTensor *keyLengths, const HTensor *maskOperand,
                         const FusedBlocking &blocking, OpStages &st);

/// log2(e): exp(x) = 2^(x log2(e)).
inline constexpr float kLog2e = 1.44269504088896341f;

/// exp(x) for x <= 0: a degree-5 polynomial for 2^f scaled by 2^n; relative error below 1e-6 for
/// x >= -8, growing with |x| to 3.8e-6 near -87 (the rounding of x log2(e)); NaN gives NaN, -inf
/// gives 0 (test/Integration/exp-accuracy.test). Results below 2^-126 are flushed to 0, never
/// subnormal (a subnormal result costs a microcode assist per instruction on Intel cores): below
/// 2^-126.5 by the portable form, below 2^-125 by the AVX-512 one. `avx512`: by AVX-512's
/// vreduceps and vscalefps (TargetMath.h; avx512::applies says which targets have them).
Halide::Expr expNonPositive(Halide::Expr x, bool avx512);
/// 2^t for t <= 0, the same way (relative error below 2.2e-7 plus t's own rounding).
Halide::Expr exp2NonPositive(Halide::Expr t, bool avx512);

/// x == -inf, reliably: Halide compiles float code with LLVM's no-infs/no-NaNs flags, under which a
/// float comparison with the constant -inf may be folded to false (it was: the fused kernel's
/// guards were compiled away, unnoticed while exp(NaN) gave ~0; strict_float did not keep them).
/// This compares the bits.
Halide::Expr isNegInf(Halide::Expr x);
/// x == +0 or -0, reliably, for the same reason: a scalar float comparison with 0 became ucomiss
/// and a jump on its zero flag, which NaN sets too (a softmax row sum of NaN was taken as 0, and
/// the row's NaN results as zeros).
Halide::Expr isZero(Halide::Expr x);

/// x [..., E] . W [E, N] (+ bias [N]).
HTensor linearOf(const std::string &name, const std::string &label, const HTensor &x,
                 const HTensor &w, const HTensor *bias, OpStages &st);
/// Views: [..., T, H*d] as [..., H, T, d], and back.
HTensor splitHeadsOf(const std::string &name, const HTensor &x, Halide::Expr heads);
HTensor mergeHeadsOf(const std::string &name, const HTensor &x);

/// scale * tanh(x), by a rational x P(x^2) / Q(x^2) on x clamped to [-8, 8] (one division, no libm
/// call: vectorizes; Halide's tanh is a scalar call). Absolute error below 5e-7 over all floats for
/// scale 1 (test/Integration/tanh-accuracy.test); NaN stays NaN.
Halide::Expr tanhApprox(Halide::Expr x, Halide::Expr scale = 1.0f);

/// tanh(a + b) from factors of a and b alone, for the fused additive kernel's inner loop:
///   tanh(a + b) = 1 - 2 / (1 + e^{2a} e^{2b}),
/// so a score's term w tanh(a + b) is w + m / (1 + e^{2a} e^{2b}) with m = -2 w, and
///   m / (1 + e^{2a} e^{2b}) = 1 / (e^{2a} (e^{2b} / m) + 1 / m) = tanhOfSumTerm(ea, ebm, mInv)
/// with ea = e^{2a} per query row, ebm = e^{2b} / m per key and feature, mInv = 1 / m per feature,
/// each computed once: a multiply-add, a reciprocal with a Newton step and the accumulation,
/// against the rational's nine operations and a division. Exact in infinite precision; in float32
/// every intermediate must be a normal float: |a|, |b| <= kTanhSplitBound = 15 and |m|, |1 / m|
/// <= kTanhSplitWeightBound = 2^32 keep ea ebm and d within 2e-36 and 5e35 (float's normal range
/// is 1.2e-38 to 3.4e38; an infinite d made the Newton step inf * 0 = NaN). tanhExpFactor clamps
/// beyond the bound, which would change tanh(a + b) where a and b are both large and of opposite
/// signs, so kernels use the split form only when every a, b and m is within its bound, and
/// tanhApprox otherwise (tanh itself is 1 to within 2e-13 past 15). Error of w tanh(a + b) below
/// 5e-7 |w| (test/Integration/tanh-split-error.test; the kernel: tanh-split-accuracy.test).
inline constexpr float kTanhSplitBound = 15.0f;
inline constexpr float kTanhSplitWeightBound = 4294967296.0f; // 2^32
/// e^y for |y| <= 87 (about 1.5 ulp).
Halide::Expr expOfBounded(Halide::Expr y);
/// e^{2 x} for x clamped to [-kTanhSplitBound, kTanhSplitBound]; NaN stays NaN.
Halide::Expr tanhExpFactor(Halide::Expr x);
/// 1 / (ea ebm + mInv), the term above.
Halide::Expr tanhOfSumTerm(Halide::Expr ea, Halide::Expr ebm, Halide::Expr mInv);
/// |x|'s bits as an unsigned integer: ordered like |x| for non-NaN x, above every finite value's
/// (and inf's) for NaN. Integer comparisons of these survive LLVM's no-NaNs flags.
Halide::Expr floatMagnitudeBits(Halide::Expr x);

} // namespace attn::lowering

#endif // ATTN_LIB_CONVERSION_ATTNTOHALIDE_OPS_H
