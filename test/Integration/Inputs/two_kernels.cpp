// Links three kernels from two attn-compile runs and one runtime into one program.
#include "out/HalideBuffer.h"
#include "out/seed_demo.h"
#include "out2/kernel_a.h"
#include "out2/kernel_b.h"
#include <cstdio>
using Halide::Runtime::Buffer;
int main() {
  Buffer<float> q(8, 4), k(8, 6), v(8, 6), o(8, 4), s(6, 4), p(6, 4);
  q.fill(0.5f), k.fill(0.25f), v.fill(1.0f), s.fill(0.0f);
  Buffer<float> h(8, 3), wa(16, 4), va(4), w1(3, 1), c1(8, 1), w2(3, 1), c2(8, 1);
  h.fill(0.1f), wa.fill(0.1f), va.fill(0.1f);
  int a = kernel_a(q, k, v, o), b = kernel_b(s, p),
      c = seed_demo(q.cropped(1, 0, 1), h, wa, va, w1, c1, w2, c2);
  std::printf("kernel_a %d, kernel_b %d, seed_demo %d\n", a, b, c);
  return a || b || c;
}
