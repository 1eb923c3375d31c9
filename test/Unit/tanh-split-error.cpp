//===- tanh-split-error.cpp - the split tanh's error over a grid ----------===//
//
// Evaluates attn's split form of w tanh(a + b) (lib/CodeGen/Halide/Algorithm:
// tanhExpFactor, tanhOfSumTerm; the fused additive kernel's inner loop), vectorized over 8 lanes as
// that kernel runs it, for every pair of a grid of a and b over [-kTanhSplitBound, kTanhSplitBound]
// and several w, against std::tanh in double precision. Prints the largest error of w tanh(a + b)
// relative to |w| and exits 1 if it reaches the stated bound (5e-7).
//
//   tanh-split-error [N]     N x N pairs per w (default 2001)
//
//===----------------------------------------------------------------------===//

#include "attn/CodeGen/Halide/Ops.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace Halide;
using namespace attn::lowering;

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 2001;
  if (n < 2) {
    std::fprintf(stderr, "tanh-split-error: N must be at least 2\n");
    return 2;
  }
  const float bound = kTanhSplitBound;
  Buffer<float> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    a(i) = -bound + 2 * bound * i / (n - 1);
    // Offset from a's grid so that a + b takes values other than multiples of its step; the ends
    // stay at the bound.
    b(i) = i == 0 || i == n - 1 ? a(i) : a(i) + 0.0037f;
  }
  double worst = 0;
  for (float w : {1.0f, -0.75f, 1e-3f, 300.0f}) {
    // The kernel's arrangement: m = -2 w, e^{2a} per row, e^{2b} / m per key, 1 / m, the sum w.
    const float m = -2 * w;
    Var i("i"), j("j");
    Func ea("ea"), ebm("ebm"), f("f");
    ea(i) = tanhExpFactor(a(i));
    ebm(j) = tanhExpFactor(b(j)) / m;
    f(i, j) = w + tanhOfSumTerm(ea(i), ebm(j), 1.0f / m);
    ea.compute_root().vectorize(i, 8);
    ebm.compute_root().vectorize(j, 8);
    f.vectorize(i, 8);
    Buffer<float> out = f.realize({n, n});
    double err = 0;
    int wi = 0, wj = 0;
    for (int jj = 0; jj < n; ++jj)
      for (int ii = 0; ii < n; ++ii) {
        double want = w * std::tanh(static_cast<double>(a(ii)) + static_cast<double>(b(jj)));
        double e = std::fabs(out(ii, jj) - want) / std::fabs(w);
        if (e > err) {
          err = e;
          wi = ii;
          wj = jj;
        }
      }
    std::printf("w = %g: largest |error| / |w| %.3g at a = %g, b = %g\n", w, err, a(wi), b(wj));
    worst = std::max(worst, err);
  }
  const bool ok = worst < 5e-7;
  std::printf("%d x %d pairs, 4 w: largest %.3g: %s\n", n, n, worst, ok ? "ok" : "above 5e-7");
  return ok ? 0 : 1;
}
