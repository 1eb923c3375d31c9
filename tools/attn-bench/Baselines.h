//===- Baselines.h - what a user could pick instead -------------*- C++ -*-===//
//
// Unfused attention with the best libraries on this machine (docs/TOOLCHAIN.md says what they
// reach):
//   - OpenBLAS sgemm (its AVX-512 kernels: the worker runs with OPENBLAS_CORETYPE=SkylakeX on CPUs
//     with AVX-512, never an inherited Haswell) for Q.K^T and P.V, and an AVX-512 softmax, one
//     (batch, head) per task on `threads` threads, each with its own [Tq, Tk] score buffer;
//   - oneDNN 2.6: matmul (scale fused; the causal mask as a binary post-op), softmax, matmul,
//   batched
//     over (batch, head) while the scores fit in 2 GiB, else one head at a time (OpenMP threads).
// Scratch is allocated once in setup(), as a long-lived process would.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_TOOLS_ATTN_BENCH_BASELINES_H
#define ATTN_TOOLS_ATTN_BENCH_BASELINES_H

#include "BenchShapes.h"

#include <memory>
#include <string>
#include <vector>

namespace attn::bench {

class Baseline {
public:
  virtual ~Baseline() = default;
  /// q [B, H, Tq, D], k and v [B, Hkv, Tk, D], out [B, H, Tq, D], row-major f32.
  virtual void run(const float *q, const float *k, const float *v, float *out) = 0;
};

/// "openblas" or "onednn"; null with `error` set if unknown or unsupported for the shape.
std::unique_ptr<Baseline> makeBaseline(const std::string &name, const BenchShape &shape,
                                       int threads, std::string &error);

/// The measured FMA peak of `threads` threads, in GFLOP/s (AVX-512 when the CPU has it, else AVX2),
/// each thread pinned to one of `cpus` in turn (empty: where the system puts them).
double fmaPeakGflops(int threads, double seconds, const std::vector<int> &cpus);

} // namespace attn::bench

#endif // ATTN_TOOLS_ATTN_BENCH_BASELINES_H
