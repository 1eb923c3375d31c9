//===- fma_peak.h - the FMA peak of one core, for the micro-benchmarks ----===//
//
// 16 independent chains of 512-bit FMAs (as attn-bench's probe): the rate the micro-benchmarks'
// loops are compared with. Header-only: each micro-benchmark is one file compiled alone.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_BENCH_MICRO_FMA_PEAK_H
#define ATTN_BENCH_MICRO_FMA_PEAK_H

#include <immintrin.h>

#include <algorithm>
#include <chrono>

namespace micro {

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

/// The best of `runs` runs of the chains, in GFLOP/s.
inline double fmaPeakGflops(int runs = 9) {
  float state[256];
  std::fill(state, state + 256, 1.0f);
  const long steps = 1000000;
  double best = 0;
  for (int r = 0; r < runs; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    fmaChains(state, steps);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    best = std::max(best, steps * 16.0 * 32 / s / 1e9);
  }
  return best;
}

} // namespace micro

#endif // ATTN_BENCH_MICRO_FMA_PEAK_H
