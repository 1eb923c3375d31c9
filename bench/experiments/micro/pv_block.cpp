//===- pv_block.cpp - the P.V register block alone, V in L2 or streamed ---===//
//
// The fused kernel's P.V inner loop as lib/CodeGen/Halide/Schedule/CPU/FusedAttention.cpp schedules
// it on AVX-512 (D = 64): a tile of 32 query rows, probabilities p[key][32] (rows innermost, as the
// kernel stores them), V[key][64]; register blocks of 4 rows x 4 value vectors (16 accumulators: 4
// vectors of V and 4 broadcasts of p per key), keys in chunks of 128, the tile's 8 row blocks
// inside each chunk (so a chunk of V, 32 KB, is read from beyond L1 by the first row block and from
// L1 by the other seven). One call is one key block of 1024 keys (V: 256 KB).
//
// It times the loop with V in L2 (the same block every call) and with V streamed (a new block per
// call from 16 MB: from L3 or memory, as a kernel's V is when a kv head's K and V outgrow L2), and
// three software prefetches of the next chunk's V:
//   pf-row:   each key's whole row of the next chunk (4 lines) in every row block: what Halide 14's
//             `prefetch` directive emits at the key loop (it prefetches the footprint of the
//             iteration `offset` ahead, every time the loop runs);
//   pf-line:  one line of that row per key, a different quarter of the row in each pair of row
//             blocks (every line of the next chunk prefetched twice, spread over the chunk);
//   pf-first: the whole row, in the first row block only.
// And the same products in the transposed form (accumulators over 2 vectors of 16 rows x 8 values,
// V broadcast, p loaded as vectors), the Q.K^T loop's shape.
// GFLOP/s beside the peak of 16 independent FMA chains (attn-bench's probe);
// docs/benchmarks-history.md, 2026-12-05. Not part of the build. Compile it with clang, whose
// register allocation matches the kernel's (4 loads of V and 4 broadcasts per 16 FMAs; g++ folds
// every V load into its FMA):
//
//   clang++-14 -O3 -march=native -std=c++17 bench/experiments/micro/pv_block.cpp -o /tmp/pv_block
//   && taskset -c 0 /tmp/pv_block
//
//===----------------------------------------------------------------------===//

#include "common.h"

#include <immintrin.h>

#include <cstdio>
#include <cstdlib>

namespace {

constexpr int kKeys = 1024, kRows = 32, kD = 64, kChunk = 128;
constexpr int kStreamBlocks = 64; // V blocks of 256 KB: 16 MB

enum Prefetch { None, Row, Line, First };

/// out[row][64] += sum over the block's keys of p[key][row] * v[key][:], the kernel's loop order.
/// The prefetches read one chunk ahead, and past the block's end into the next block (as the
/// kernel's would into the next block of V).
template <Prefetch PF>
__attribute__((noinline)) void pv(const float *p, const float *v, float *out) {
  for (int jc = 0; jc < kKeys; jc += kChunk)
    for (int io = 0; io < kRows; io += 4) {
      __m512 acc[4][4];
      for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b)
          acc[a][b] = _mm512_load_ps(out + (io + a) * kD + 16 * b);
      for (int j = jc; j < jc + kChunk; ++j) {
        const float *ahead = v + (j + kChunk) * kD;
        if (PF == Row || (PF == First && io == 0))
          for (int q = 0; q < 4; ++q)
            _mm_prefetch(reinterpret_cast<const char *>(ahead + 16 * q), _MM_HINT_T0);
        if (PF == Line)
          _mm_prefetch(reinterpret_cast<const char *>(ahead + 16 * (io / 4 % 4)), _MM_HINT_T0);
        const __m512 v0 = _mm512_load_ps(v + j * kD), v1 = _mm512_load_ps(v + j * kD + 16),
                     v2 = _mm512_load_ps(v + j * kD + 32), v3 = _mm512_load_ps(v + j * kD + 48);
        for (int a = 0; a < 4; ++a) {
          const __m512 pa = _mm512_set1_ps(p[j * kRows + io + a]);
          acc[a][0] = _mm512_fmadd_ps(pa, v0, acc[a][0]);
          acc[a][1] = _mm512_fmadd_ps(pa, v1, acc[a][1]);
          acc[a][2] = _mm512_fmadd_ps(pa, v2, acc[a][2]);
          acc[a][3] = _mm512_fmadd_ps(pa, v3, acc[a][3]);
        }
      }
      for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b)
          _mm512_store_ps(out + (io + a) * kD + 16 * b, acc[a][b]);
    }
}

/// The transposed form: outT[value][row], 2 vectors of rows x 8 values per register block.
__attribute__((noinline)) void pvTransposed(const float *p, const float *v, float *outT) {
  for (int e0 = 0; e0 < kD; e0 += 8) {
    __m512 acc[8][2];
    for (auto &a : acc)
      a[0] = a[1] = _mm512_setzero_ps();
    for (int j = 0; j < kKeys; ++j) {
      const __m512 p0 = _mm512_load_ps(p + j * kRows), p1 = _mm512_load_ps(p + j * kRows + 16);
      for (int a = 0; a < 8; ++a) {
        const __m512 ve = _mm512_set1_ps(v[j * kD + e0 + a]);
        acc[a][0] = _mm512_fmadd_ps(ve, p0, acc[a][0]);
        acc[a][1] = _mm512_fmadd_ps(ve, p1, acc[a][1]);
      }
    }
    for (int a = 0; a < 8; ++a) {
      _mm512_store_ps(outT + (e0 + a) * kRows, acc[a][0]);
      _mm512_store_ps(outT + (e0 + a) * kRows + 16, acc[a][1]);
    }
  }
}

/// The best of 7 runs of 256 calls, in GFLOP/s; `streamed`: call i reads V block i mod 64.
template <class F> double rate(F call, const float *vAll, bool streamed) {
  constexpr int kCalls = 256;
  const double flops = 2.0 * kKeys * kRows * kD * kCalls;
  return micro::bestGflops(
      [&] {
        for (int i = 0; i < kCalls; ++i)
          call(vAll + size_t(streamed ? i % kStreamBlocks : 0) * kKeys * kD);
      },
      flops, 7);
}

} // namespace

int main() {
  std::printf("FMA peak (16 chains): %.1f GFLOP/s\n", micro::fmaPeakGflops(5));
  // One block more than streamed, for the prefetches past the last block's end.
  float *vAll = micro::filled(size_t(kStreamBlocks + 1) * kKeys * kD, 0.01f);
  float *p = micro::filled(size_t(kKeys) * kRows, 0.5f), *out = micro::filled(kRows * kD, 0.0f);
  for (bool streamed : {false, true}) {
    std::printf(
        "V %s: P.V %.1f, pf-row %.1f, pf-line %.1f, pf-first %.1f, transposed %.1f GFLOP/s\n",
        streamed ? "streamed (16 MB)" : "in L2 (256 KB)",
        rate([&](const float *v) { pv<None>(p, v, out); }, vAll, streamed),
        rate([&](const float *v) { pv<Row>(p, v, out); }, vAll, streamed),
        rate([&](const float *v) { pv<Line>(p, v, out); }, vAll, streamed),
        rate([&](const float *v) { pv<First>(p, v, out); }, vAll, streamed),
        rate([&](const float *v) { pvTransposed(p, v, out); }, vAll, streamed));
  }
  std::printf("(out[0] = %g)\n", out[0]);
  std::free(vAll), std::free(p), std::free(out);
}
