//===- common.h - what the micro-benchmarks share -------------------------===//
//
// The FMA peak of one core (16 independent chains of 512-bit FMAs, as attn-bench's probe), the
// best-of-N timer every loop is measured with, and aligned filled buffers. Header-only: each
// micro-benchmark is one file compiled alone.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_BENCH_MICRO_COMMON_H
#define ATTN_BENCH_MICRO_COMMON_H

#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdlib>

namespace micro {

/// The best of `runs` runs of `run`, which does `flops` floating-point operations, in GFLOP/s.
template <class F> double bestGflops(F run, double flops, int runs) {
  double best = 0;
  for (int r = 0; r < runs; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    run();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    best = std::max(best, flops / s / 1e9);
  }
  return best;
}

/// `count` floats set to `value`, 64-byte aligned (free with std::free).
inline float *filled(std::size_t count, float value) {
  auto *p = static_cast<float *>(std::aligned_alloc(64, (count * 4 + 63) / 64 * 64));
  std::fill(p, p + count, value);
  return p;
}

__attribute__((noinline)) inline void fmaChains(float *state, long steps) {
  __m512 a[16];
  const __m512 x = _mm512_set1_ps(0.9999f), y = _mm512_set1_ps(1e-4f);
  for (int i = 0; i < 16; ++i)
    a[i] = _mm512_loadu_ps(state + 16 * i);
  for (long n = 0; n < steps; ++n) {
#pragma GCC unroll 16
    for (int i = 0; i < 16; ++i)
      a[i] = _mm512_fmadd_ps(a[i], x, y);
  }
  for (int i = 0; i < 16; ++i)
    _mm512_storeu_ps(state + 16 * i, a[i]);
}

/// The FMA peak of the calling thread's core: the best of `runs` runs of the chains, in GFLOP/s.
inline double fmaPeakGflops(int runs) {
  float state[256];
  std::fill(state, state + 256, 1.0f);
  const long steps = 1000000;
  return bestGflops([&] { fmaChains(state, steps); }, steps * 16.0 * 32, runs);
}

} // namespace micro

#endif // ATTN_BENCH_MICRO_COMMON_H
