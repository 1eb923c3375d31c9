//===- qk_block.cpp - the Q.K^T register block alone, against the FMA peak -===//
//
// The fused kernel's Q.K^T inner loop, written with AVX-512 intrinsics: 2 vectors of 16 query rows
// (the tile's queries stored rows-innermost) times 12 broadcast keys, 24 accumulators, over the
// feature dim; the 24 scores stored after each register block. It times the loop over key blocks of
// growing size (K read from L1, L2 or beyond) and prints GFLOP/s beside the peak of 16 independent
// FMA chains (attn-bench's probe), so that the loop's own ceiling on a machine can be told apart
// from the kernel's (docs/benchmarks-history.md, 2026-12-03). Not part of the build:
//
//   g++ -O3 -march=native -std=c++17 bench/experiments/micro/qk_block.cpp -o /tmp/qk_block &&
//   taskset -c 0 /tmp/qk_block
//
//===----------------------------------------------------------------------===//

#include "common.h"

#include <immintrin.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace {

/// Scores of 32 query rows (qs: [D][32]) against the keys of a block (k: [keys][D]), 12 keys at a
/// time; s: [keys][32].
template <int D>
__attribute__((noinline)) void qkBlock(const float *qs, const float *k, float *s, int keys) {
  for (int j0 = 0; j0 + 12 <= keys; j0 += 12) {
    __m512 acc[2][12];
    for (auto &row : acc)
      for (__m512 &a : row)
        a = _mm512_setzero_ps();
    const float *kb = k + j0 * D;
    for (int d = 0; d < D; ++d) {
      const __m512 q0 = _mm512_load_ps(qs + d * 32), q1 = _mm512_load_ps(qs + d * 32 + 16);
#pragma GCC unroll 12
      for (int j = 0; j < 12; ++j) {
        const __m512 kj = _mm512_set1_ps(kb[j * D + d]);
        acc[0][j] = _mm512_fmadd_ps(q0, kj, acc[0][j]);
        acc[1][j] = _mm512_fmadd_ps(q1, kj, acc[1][j]);
      }
    }
    for (int j = 0; j < 12; ++j) {
      _mm512_store_ps(s + (j0 + j) * 32, acc[0][j]);
      _mm512_store_ps(s + (j0 + j) * 32 + 16, acc[1][j]);
    }
  }
}

template <int D> double qkRate(int keys) {
  float *qs = micro::filled(D * 32, 0.01f), *k = micro::filled(size_t(keys) * D, 0.01f),
        *s = micro::filled(size_t(keys) * 32, 0.01f);
  const int calls = std::max(1, 200000 / keys);
  double rate = micro::bestGflops(
      [&] {
        for (int c = 0; c < calls; ++c)
          qkBlock<D>(qs, k, s, keys);
      },
      2.0 * 32 * (keys / 12 * 12) * D * calls, 9);
  std::free(qs), std::free(k), std::free(s);
  return rate;
}

} // namespace

int main() {
  std::printf("FMA peak (16 chains): %.1f GFLOP/s\n", micro::fmaPeakGflops(9));
  for (int keys : {96, 1020, 4092})
    std::printf("keys %4d: D = 64 (K %4d KB) %.1f GFLOP/s, D = 128 (K %4d KB) %.1f GFLOP/s\n", keys,
                keys * 64 * 4 / 1024, qkRate<64>(keys), keys * 128 * 4 / 1024, qkRate<128>(keys));
}
