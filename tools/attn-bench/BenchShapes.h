//===- BenchShapes.h - the problems attn-bench measures ---------*- C++ -*-===//

#ifndef ATTN_TOOLS_ATTN_BENCH_BENCHSHAPES_H
#define ATTN_TOOLS_ATTN_BENCH_BENCHSHAPES_H

#include "llvm/Support/JSON.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attn::bench {

/// One attention problem: q [B, H, Tq, D], k and v [B, Hkv, Tk, D] (additive: q [B, Tq, D], k and v
/// [B, Tk, D], W_a [Da, 2D], v_a [Da]).
struct BenchShape {
  std::string name;  // e.g. "S1024"
  std::string group; // "prefill", "decode", "additive", "kinds"
  std::string kind;  // scaled_dot | dot | bilinear | additive
  int64_t B = 1, H = 8, Hkv = 8, Tq = 512, Tk = 512, D = 64, Da = 0;
  bool causal = false;

  /// The two matmuls' flops, 4 B H Tq Tk D (causal rows count every (query, key) pair).
  double flops() const;
  /// Bytes of q, k, v and the output (f32).
  double bytes() const;
  /// tanh evaluations of an additive score, B Tq Tk Da.
  double tanhs() const;
  /// Whether the shape's work is counted in flops (GFLOP/s, % of peak); additive rows count tanh
  /// evaluations instead.
  bool countedInFlops() const { return group != "additive"; }
  /// The shapes of the MLIR function's arguments.
  std::vector<std::vector<int64_t>> argShapes() const;
  /// The attention graph as MLIR: the fused op, or the chain score -> [mask] -> softmax ->
  /// weighted_sum; `schedule` (an #attn.schedule, may be empty) is attached to every op.
  std::string mlir(bool fused, const std::string &schedule) const;
  std::string describe() const; // "B=1 H=8 S=1024 D=64"
  /// The C identifier of the shape's emitted kernel (bench/gpu): "attn_S2048_causal".
  std::string kernelName() const;
  /// The shape as JSON fields (name, kernel, kind, sizes, argument shapes, flops, bytes).
  llvm::json::Object json() const;
};

/// The shapes of the benchmark set (docs/benchmarks-history.md) and head dim 128 at S =
/// 2048 with and without GQA, or a small set for tests.
std::vector<BenchShape> benchShapes(bool quick);

/// The GPU measurement's shapes (bench/gpu/run.sh): the benchmark set plus head dim 128 at
/// S = 1024 and 4096 (the GPU goal names D = 64 and 128).
std::vector<BenchShape> gpuShapes(bool quick);

} // namespace attn::bench

#endif // ATTN_TOOLS_ATTN_BENCH_BENCHSHAPES_H
