//===- Attention.cpp - attn.attention -------------------------------------===//
//
// attn.attention lowers to the fused kernel (FusedAttention.cpp); bilinear scores arrive folded
// (--attn-fold-bilinear: q W, then dot). Under a Halide autoscheduler it lowers to the composition
// score -> mask -> softmax -> weighted_sum instead.
//
//===----------------------------------------------------------------------===//

#include "attn/CodeGen/Halide/Ops.h"
#include "attn/CodeGen/Halide/Schedule/CPU.h"
#include "attn/CodeGen/Halide/Schedule/GPU.h"

using namespace Halide;
namespace k = attn::kernel;

namespace attn::lowering {

namespace {

/// k or v seen with the query's head count: query head h reads kv head h / (Hq / Hkv). A view (an
/// index mapping), not a copy.
HTensor groupedView(const std::string &name, const HTensor &t, const HTensor &q) {
  if (t.rank() < 3)
    return t;
  int heads = t.rank() - 3;
  Expr group = q.extent(heads) / t.extent(heads);
  std::vector<Var> vars = makeVars(t.rank(), name + "_d");
  std::vector<Expr> idx = asExprs(vars);
  idx[heads] = idx[heads] / group;
  HTensor view;
  view.func = Func(name);
  def(view.func, vars) = t.at(idx);
  view.extents = t.extents;
  view.extents[heads] = q.extent(heads);
  view.elem = t.elem;
  return view;
}

} // namespace

HTensor composedAttentionOf(const std::string &name, const k::OpSpec &op, const HTensor &q,
                            const HTensor &k, const HTensor &v, const HTensor *weight,
                            const HTensor *vec, const HTensor *keyLengths,
                            const HTensor *maskOperand, bool avx512Math, OpStages &st) {
  HTensor kq = groupedView(name + "_kview", k, q), vq = groupedView(name + "_vview", v, q);
  HTensor s = scoreOf(name + "_score", op.score, op.scale, q, kq, weight, vec, st);
  if (op.mask.any())
    s = maskOf(name + "_mask", op.mask, s, keyLengths, maskOperand, st);
  HTensor p = softmaxOf(name + "_softmax", s, s.rank() - 1, avx512Math, st);
  return weightedSumOf(name, p, vq, st);
}

HTensor attentionOf(const std::string &name, const k::OpSpec &op, const HTensor &q,
                    const HTensor &k, const HTensor &v, const HTensor *weight, const HTensor *vec,
                    const HTensor *keyLengths, const HTensor *maskOperand,
                    const LoweringOptions &options, OpStages &st) {
  // Halide's autoschedulers get the plain composition: the blocked formulation is written for
  // attn's own schedule (Adams2019 on it ran for 12 minutes and 20 GB without finishing).
  if (op.schedule.usesAutoscheduler())
    return composedAttentionOf(name, op, q, k, v, weight, vec, keyLengths, maskOperand,
                               options.avx512Math, st);
  // The tiles and key blocks as each target's kernel takes them, its defaults where the schedule
  // leaves them unset (CPU.h and GPU.h: the shape rules apply to hand-written schedules too).
  const int lanes = op.schedule.lanes(options.lanes);
  const schedule::FusedTiles tiles =
      options.gpu ? schedule::gpu::fusedTiles(op.schedule)
                  : schedule::cpu::fusedTiles(op.schedule, k.staticExtent(-2), lanes);
  FusedBlocking blocking;
  blocking.tileRows = static_cast<int>(tiles.tileRows);
  blocking.blockKeys = static_cast<int>(tiles.blockKeys);
  blocking.skipBlocks = !options.gpu;
  blocking.foldDeclaredSizes = !options.gpu;
  // (The GPU schedule places its threads on the merge's loop, which a pure state does not have.)
  blocking.pureOneBlockState = !options.gpu;
  blocking.avx512Math = options.avx512Math;
  // The GPU schedule reads the queries from global memory where the scores use them when shared
  // memory has no room for a Q tile (D = 64 with 32-row tiles): a scale folded into the queries was
  // then a multiply per query element read, one per two FMAs of a 4 x 2 score block; per score it
  // is one per Dk FMAs.
  blocking.scaleScores = options.gpu;
  // One reciprocal per row, a multiply per element (the CPU schedule computes it per tile); the GPU
  // schedules divide each element by its own copy of the row sum (see FusedAttention.cpp).
  blocking.rowScale = !options.gpu;
  // The CPU schedule's register-blocked tiles (at least a vector of rows, scores that are dot
  // products, reg_k keys per Q.K^T register block) take the block's row max per register block as
  // they compute it, and the row sum per 8 keys as they compute the probabilities (per 4 where 8
  // do not divide the block: groups of 8 leave half as many sums for the reduction after them).
  // Additive scores by tanhOfSumTerm with vectors of 8 lanes (the heuristic's width for them on
  // every x86 target) or 16 (a hand-written or tuned schedule on AVX-512: Halide 14 builds the
  // 16-lane reciprocal from two 8-lane rcpps). Not on GPUs (their schedule does not compute the
  // range check on the device) nor at other widths (not measured). The measurements:
  // docs/SCHEDULES.md, "Measurements behind the code".
  blocking.tanhSplit = !options.gpu && (lanes == 8 || lanes == 16);
  if (!options.gpu && op.score != k::ScoreKind::Additive && op.schedule.regK > 0 &&
      blocking.tileRows >= lanes) {
    blocking.maxGroup = static_cast<int>(op.schedule.regK);
    blocking.sumGroup = blocking.blockKeys % 8 == 0 ? 8 : blocking.blockKeys % 4 == 0 ? 4 : 0;
  }
  return fusedAttentionOf(name, op, q, k, v, weight, vec, keyLengths, maskOperand, blocking, st);
}

HTensor lowerAttention(const OpContext &ctx, OpStages &st) {
  const k::OpSpec &op = ctx.op;
  return attentionOf(ctx.name, op, ctx.value(op.query), ctx.value(op.key), ctx.value(op.value),
                     ctx.optional(op.weight), ctx.optional(op.vec),
                     ctx.optional(op.mask.keyLengths), ctx.optional(op.mask.mask), ctx.options, st);
}

} // namespace attn::lowering
