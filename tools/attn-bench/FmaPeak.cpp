//===- FmaPeak.cpp - the machine's own FMA peak ---------------------------===//
//
// Independent chains of fused multiply-adds (more chains than FMA latency x pipes), on every
// thread at once; flops = 2 x lanes per FMA. The chains and the two constant operands must all
// stay in registers: with 16 chains the AVX2 probe needed 18 of the 16 ymm registers, and the
// spilled chain's store and reload capped it at 52 GFLOP/s on a Zen 3 core that runs 12 chains at
// 91 (every % of peak measured on an AVX2 machine read 1.75x too high).
//
//===----------------------------------------------------------------------===//

#include "Baselines.h"
#include "Cpus.h"

#include <immintrin.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace attn::bench {

namespace {

/// Enough chains to cover 4-cycle FMAs on 2 pipes (8), few enough for the register file: 16 of
/// the 32 zmm registers, 12 of the 16 ymm registers (plus the two operands).
constexpr int kChains512 = 16;
constexpr int kChains256 = 12;
/// FMAs per chain in one block: the chains live in registers for a block, in memory between.
constexpr int kBlock = 100000;

__attribute__((target("avx512f"))) void avx512Block(float *chains) {
  __m512 a[kChains512];
  __m512 x = _mm512_set1_ps(0.9999f), y = _mm512_set1_ps(1e-4f);
  for (int i = 0; i < kChains512; ++i)
    a[i] = _mm512_loadu_ps(chains + 16 * i);
  for (int n = 0; n < kBlock; ++n) {
#pragma GCC unroll 16
    for (int i = 0; i < kChains512; ++i)
      a[i] = _mm512_fmadd_ps(a[i], x, y);
  }
  for (int i = 0; i < kChains512; ++i)
    _mm512_storeu_ps(chains + 16 * i, a[i]);
}

__attribute__((target("avx2,fma"))) void avx2Block(float *chains) {
  __m256 a[kChains256];
  __m256 x = _mm256_set1_ps(0.9999f), y = _mm256_set1_ps(1e-4f);
  for (int i = 0; i < kChains256; ++i)
    a[i] = _mm256_loadu_ps(chains + 8 * i);
  for (int n = 0; n < kBlock; ++n) {
#pragma GCC unroll 16
    for (int i = 0; i < kChains256; ++i)
      a[i] = _mm256_fmadd_ps(a[i], x, y);
  }
  for (int i = 0; i < kChains256; ++i)
    _mm256_storeu_ps(chains + 8 * i, a[i]);
}

/// One thread's rate: blocks until `seconds` have passed, flops = 2 x lanes per FMA.
double flopsPerSecond(double seconds, bool avx512) {
  const int chains = avx512 ? kChains512 : kChains256, lanes = avx512 ? 16 : 8;
  std::vector<float> state(chains * lanes);
  for (size_t i = 0; i < state.size(); ++i)
    state[i] = float(i / lanes);
  long blocks = 0;
  auto t0 = std::chrono::steady_clock::now();
  double elapsed = 0;
  while (elapsed < seconds) {
    (avx512 ? avx512Block : avx2Block)(state.data());
    ++blocks;
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  float sink = 0;
  for (float f : state)
    sink += f;
  volatile float keep = sink; // the chains' results are used
  (void)keep;
  return blocks * double(kBlock) * chains * lanes * 2 / elapsed;
}

} // namespace

double fmaPeakGflops(int threads, double seconds, const std::vector<int> &cpus) {
  bool avx512 = __builtin_cpu_supports("avx512f");
  std::vector<double> rates(threads);
  std::vector<std::thread> pool;
  // Each thread on a CPU of its own: a probe of a few ms is over before the scheduler would move
  // two threads that started on one CPU apart (two unpinned threads of 20 ms measured one core's
  // rate between calls of a two-thread kernel).
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      if (!cpus.empty())
        pinTo({cpus[t % cpus.size()]});
      rates[t] = flopsPerSecond(seconds, avx512);
    });
  for (std::thread &th : pool)
    th.join();
  double total = 0;
  for (double r : rates)
    total += r;
  return total / 1e9;
}

} // namespace attn::bench
