//===- Stages.h - what the algorithm hands to the schedules -----*- C++ -*-===//
//
// The algorithm files build Funcs and describe, with these records, the loop structure each op's
// computation has: which Func accumulates, over which reduction, which dimension is contiguous. The
// schedules (lib/CodeGen/Halide/Schedule) read only these records: they decide tiling,
// vectorization, parallelism and placement, never what is computed. All Vars are in Halide order
// (innermost first).
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_LIB_CONVERSION_ATTNTOHALIDE_STAGES_H
#define ATTN_LIB_CONVERSION_ATTNTOHALIDE_STAGES_H

#include "attn/Kernel/KernelSpec.h"

#include "Halide.h"

#include <string>
#include <vector>

namespace attn::lowering {

/// A matmul-shaped reduction with an epilogue:
///   acc(x, y, outer...) = 0;  acc(x, y, outer...) += f(lhs(r, y, ...), rhs(x, r, ...))
///   out(x, y, outer...) = epilogue(acc(x, y, outer...))
/// `x` is the output's contiguous dimension (the schedule vectorizes it), `y` its rows. `rhs` is
/// the operand read along x; when its x dimension is not its innermost (`rhsXDim != 0`), a schedule
/// that vectorizes x stages a transposed copy of it.
struct Contraction {
  std::string label; // for the schedule log, e.g. "q.k^T"
  Halide::Func acc, out;
  Halide::Var x, y;
  std::vector<Halide::Var> outer;
  Halide::RDom r;
  Halide::Func rhs;           // may be undefined
  int rhsXDim = 0;            // the Halide dimension of rhs that x runs along
  int rhsRDim = 1;            // the Halide dimension of rhs that r runs along
  bool expensiveBody = false; // true when f is more than a multiply-add (additive scores: tanh)
  int64_t staticWidth = kernel::kDynamic; // the extent along x, when the types declare it
};

/// An elementwise Func over all its Vars (masks, residual adds, casts to the result type).
struct Pointwise {
  std::string label;
  Halide::Func f;
  std::vector<Halide::Var> vars;
  Halide::Func from; // the results' conversions: the op result they read (index for index)
};

/// Softmax along one Halide dimension `axis` of `out`'s Vars:
///   mx(others) = max_r in(..r..);  e(vars) = exp(in - mx);  sum(others) = Σ_r e(..r..);
///   out(vars) = e / sum
struct SoftmaxStage {
  std::string label;
  Halide::Func mx, e, sum, out;
  std::vector<Halide::Var> vars; // out's Vars
  int axis = 0;                  // Halide dimension of the reduction
  Halide::RDom rMax, rSum;
};

/// The fused attention kernel (FusedAttention.cpp): per (kv batch, tile of R query rows), key
/// blocks of KB keys; each block's scores, max, probabilities, sum and P.V, merged by an online
/// softmax. Halide order everywhere; `bk` are the key's batch dims (innermost first: the kv head).
///   qs(d, ii, it, bk)            the tile's queries (scaled), rows r = it * R + ii
///   sacc/s(ii, jj, c, it, bk)    block scores (s masked when the last block is cut, else masked
///                                inline by its readers); mc(ii, c, ...) block max
///   p(ii, jj, c, ...)            exp(s - mc); lc(ii, c, ...) their sum
///   oc(e, ii, c, ...)            P.V of the block; blk: Tuple(oc, lc, mc) (inline unless split-K)
///   combine(e, ii, it, bk)       Tuple(acc, running max, running sum) over the live blocks rc;
///                                with `oneBlock`, the one block's Tuple(oc, mc, lc), pure
///   res(e, r, bk)                the normalized result, rows r = (h % group) * Tq + i
///   out(e, i, h, ...)            the op's result: res in the query's layout
struct FusedAttentionStage {
  std::string label;
  kernel::ScheduleSpec schedule; // the fused kernel's #attn.schedule (empty: the target's defaults)
  int tileRows = 32, blockKeys = 1024;
  Halide::Func qs, sacc, s, mc, p, lc, oc, blk, combine, res, out;
  Halide::Func rowScale; // 1 / the softmax's row sum, per tile row (undefined without
                         // FusedBlocking::rowScale)
  /// The block's row max per group of maxGroup keys (sb) and row sum per group of sumGroup keys
  /// (pb), when the blocking asks for them (undefined otherwise): a schedule computes sb with s and
  /// pb with p (compute_with), and mc and lc reduce the groups.
  Halide::Func sb, pb;
  int maxGroup = 0, sumGroup = 0;
  Halide::Func kRead, vRead; // K(d, j, bk) and V(e, j, bk) as the kernel reads them
  /// V's value dim has the size its type declares (undefined where the type does not declare it,
  /// or the size is a constant anyway). The kernel's requirements refuse any other size before it
  /// runs, so a schedule may specialize on it and fail otherwise: inside, Halide knows Dv, and a
  /// vector of V read in place needs no clamp per lane (without it, a gather of 16 loads).
  Halide::Expr vSizeAsDeclared;
  Halide::Func qpT, kp; // additive scores: projected queries (per tile) and keys
  /// Additive scores by tanhOfSumTerm (when the blocking asks for it; undefined otherwise): with
  /// m = -2 v_a (times the scores' unit), e^{2 qp} per tile (qpE, like qpT), e^{2 kp} / m (kpE,
  /// like kp) and 1 / m (wInv); tanhRange() the largest magnitude of qp and kp and mRange() that
  /// of m and 1 / m (as floatMagnitudeBits), wSum() the sum of v_a (the scores' initial value),
  /// tanhSplit the condition under which the score's update takes the split form. A schedule
  /// computes tanhRange, mRange, wSum and wInv at the root and qpE and kpE where it computes qpT
  /// and kp.
  Halide::Func qpE, kpE, wInv, tanhRange, mRange, wSum;
  std::vector<Halide::RDom> rangeDoms; // tanhRange's updates: over qp, then kp (d_a first)
  Halide::Expr tanhSplit;
  Halide::Var d, e, ii, jj, c, it, r;
  std::vector<Halide::Var> bk;
  Halide::RDom rd, rj, rc; // rd: over Dk (or d_a for additive)
  int64_t staticDk = kernel::kDynamic, staticDv = kernel::kDynamic, staticTk = kernel::kDynamic;
  int64_t staticDa = kernel::kDynamic; // additive: d_a
  /// The rows of one kv head's task (its query heads' queries, group x Tq), where the types declare
  /// them.
  int64_t staticRows = kernel::kDynamic;
  bool additive = false;
  /// One query head per kv head: out(e, i, bk) is res(e, i, bk), so a schedule may compute the
  /// tiles in out's (or its consumer's) loops instead of res's.
  bool rowsAreQueries = false;
  /// The first key block a tile visits depends on the tile (a window mask): a buffer folded over
  /// the blocks failed Halide 14's fold checks at run time ("accessed out of order", "fold factor
  /// too small"), so the schedules must not fold s and p.
  bool firstBlockVaries = false;
  /// The blocks a tile sees end at a key that is a select (rows of one tile from two query heads,
  /// GQA, with a causal or window mask or key lengths): folded over the blocks, s and p failed
  /// Halide 14's fold checks at run time ("fold factor (1) of dimension c ... too small" at the
  /// first block; Tq = 17 with 4 query heads per kv head, schedule-sweep.py), so the schedules must
  /// not fold them.
  bool lastBlockIsSelect = false;
  /// Tk is known and at most one block: combine is the block's own state, a pure Func (no loop
  /// over blocks, no update): a schedule inlines it and computes the block's stages per tile.
  bool oneBlock = false;
};

/// Everything one op lowered to.
struct OpStages {
  const kernel::OpSpec *op = nullptr;
  std::vector<Contraction> contractions;
  std::vector<Pointwise> pointwise;
  std::vector<SoftmaxStage> softmaxes;
  std::vector<FusedAttentionStage> fused;
  Halide::Func result; // the op's result Func (the last stage)
};

} // namespace attn::lowering

#endif // ATTN_LIB_CONVERSION_ATTNTOHALIDE_STAGES_H
