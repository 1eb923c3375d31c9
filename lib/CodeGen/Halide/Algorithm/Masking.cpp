//===- Masking.cpp - the mask rule, for attn.mask and the fused kernel ----===//
//
// The one statement of which entries the mask options keep (README, "attn.mask"), read by the
// unfused attn.mask (Mask.cpp) and by the fused kernel (FusedAttention.cpp), which also derives
// from it the keys a tile can see.
//
// Every comparison is written so that no 32-bit index overflows, whatever the options hold: a
// window is an int64 (any width at least max(Tq, Tk) keeps every key of the band, so wider ones are
// taken as that), key lengths are any int32 (taken within [0, Tk]: negative ones keep no key), and
// the offsets compared are differences of in-range indices.
//
//===----------------------------------------------------------------------===//

#include "attn/CodeGen/Halide/Ops.h"

using namespace Halide;
namespace k = attn::kernel;

namespace attn::lowering {

Expr diagonalOf(const k::MaskSpec &mask, Expr i, Expr tq, Expr tk) {
  return mask.align == k::Align::BottomRight ? i + (tk - tq) : i;
}

Expr windowWidth(const k::MaskSpec &mask, Expr tq, Expr tk) {
  // |d(i) - j| < max(Tq, Tk) for every query and key: a wider window keeps what that one keeps.
  const int64_t w = std::min<int64_t>(*mask.window, INT32_MAX);
  return min(static_cast<int>(w), max(tq, tk));
}

Expr maskKeeps(const k::MaskSpec &mask, Expr i, Expr j, Expr tq, Expr tk, Expr keyLength) {
  Expr keep = Halide::Internal::const_true();
  Expr offset = j - diagonalOf(mask, i, tq, tk); // in (-Tq - Tk, Tq + Tk)
  if (mask.causal)
    keep = keep && offset <= 0;
  if (mask.window) {
    Expr w = windowWidth(mask, tq, tk);
    keep = keep && offset > -w;
    if (!mask.causal)
      keep = keep && offset < w;
  }
  // Clamped to [0, Tk], which keeps the same keys: Halide's simplifier assumes int32 arithmetic
  // does not overflow, and rewrote j < len && j <= d(i) as j <= min(len - 1, d(i)), which a length
  // of INT32_MIN turned into "every key" (bottom-right causal GQA rows read v where no key was
  // kept).
  if (keyLength.defined())
    keep = keep && j < min(max(keyLength, 0), tk);
  return keep;
}

Expr maskOperandAt(const HTensor &m, const std::vector<Expr> &scoreIndex) {
  // numpy broadcasting: the mask's dims align with the scores' last ones. A broadcast dim (extent
  // 1) reads index 0, any other its own index: min(i, extent - 1) is both, for the extents the
  // verifier allows. (The form select(extent == 1, 0, i) crashed Halide 14's compiler, SIGFPE, in
  // the fused kernel for two query rows and a [Tq, Tk] mask; schedule-sweep.py.)
  std::vector<Expr> idx;
  const size_t lead = scoreIndex.size() - m.rank();
  for (int d = 0; d < m.rank(); ++d)
    idx.push_back(min(scoreIndex[lead + d], m.extent(d) - 1));
  return m.at(idx);
}

} // namespace attn::lowering
