//===- SpotCheck.h - each measured result against the reference -*- C++ -*-===//
//
// A row whose kernel computes something else compares nothing, so every measurement's result
// (attn's kernels and the library baselines alike) is checked after its first call against the
// double-precision reference evaluator (attn::reference), on three windows of kSpotRows query rows
// (the first, the middle and the last of every batch and head). The reference evaluates the shape's
// graph of those rows alone: a few rows of work in double loops, not the whole problem (S = 16384
// would take minutes). A window of a causal shape keeps the keys up to its last row's diagonal, so
// the sliced mask is the original's (the shapes' masks are bottom-right aligned, Tq <= Tk).
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_TOOLS_ATTN_BENCH_SPOTCHECK_H
#define ATTN_TOOLS_ATTN_BENCH_SPOTCHECK_H

#include "BenchShapes.h"

#include "attn/Runtime/HostTensor.h"

#include <string>
#include <vector>

namespace attn::bench {

/// The query rows per window.
inline constexpr int64_t kSpotRows = 4;

struct SpotCheck {
  /// The worst window's max |got - want| over its max |want|, and the tolerance it is held to
  /// (reference::toleranceFor: 1e-4 for f32).
  double error = 0, tolerance = 0;
  /// Empty when every window passes; else which window failed, and how.
  std::string failure;
  bool pass() const { return failure.empty(); }
};

/// Checks `out`, the shape's result ([B, H, Tq, D]; additive [B, Tq, D]), computed from `inputs`,
/// the shape's arguments in order (BenchShape::argShapes, f32).
SpotCheck spotCheck(const BenchShape &s, const std::vector<const HostTensor *> &inputs,
                    const HostTensor &out);

} // namespace attn::bench

#endif // ATTN_TOOLS_ATTN_BENCH_SPOTCHECK_H
