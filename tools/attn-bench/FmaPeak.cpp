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

__attribute__((target("avx512f"))) double avx512Flops(double seconds) {
  __m512 a[kChains512];
  __m512 x = _mm512_set1_ps(0.9999f), y = _mm512_set1_ps(1e-4f);
  for (int i = 0; i < kChains512; ++i)
    a[i] = _mm512_set1_ps(float(i));
  long iters = 0;
  auto t0 = std::chrono::steady_clock::now();
  double elapsed = 0;
  while (elapsed < seconds) {
    for (int n = 0; n < 100000; ++n) {
#pragma GCC unroll 16
      for (int i = 0; i < kChains512; ++i)
        a[i] = _mm512_fmadd_ps(a[i], x, y);
    }
    iters += 100000;
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  float sink = 0;
  for (int i = 0; i < kChains512; ++i)
    sink += _mm512_reduce_add_ps(a[i]);
  volatile float keep = sink;
  (void)keep;
  return iters * double(kChains512) * 32 / elapsed;
}

__attribute__((target("avx2,fma"))) double avx2Flops(double seconds) {
  __m256 a[kChains256];
  __m256 x = _mm256_set1_ps(0.9999f), y = _mm256_set1_ps(1e-4f);
  for (int i = 0; i < kChains256; ++i)
    a[i] = _mm256_set1_ps(float(i));
  long iters = 0;
  auto t0 = std::chrono::steady_clock::now();
  double elapsed = 0;
  while (elapsed < seconds) {
    for (int n = 0; n < 100000; ++n) {
#pragma GCC unroll 16
      for (int i = 0; i < kChains256; ++i)
        a[i] = _mm256_fmadd_ps(a[i], x, y);
    }
    iters += 100000;
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  float out[8], sink = 0;
  for (int i = 0; i < kChains256; ++i) {
    _mm256_storeu_ps(out, a[i]);
    for (float f : out)
      sink += f;
  }
  volatile float keep = sink;
  (void)keep;
  return iters * double(kChains256) * 16 / elapsed;
}

} // namespace

double fmaPeakGflops(int threads, double seconds) {
  bool avx512 = __builtin_cpu_supports("avx512f");
  std::vector<double> rates(threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] { rates[t] = avx512 ? avx512Flops(seconds) : avx2Flops(seconds); });
  for (std::thread &th : pool)
    th.join();
  double total = 0;
  for (double r : rates)
    total += r;
  return total / 1e9;
}

} // namespace attn::bench
