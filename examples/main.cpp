// Calls the kernel that `attn-compile examples/seed_demo.mlir -o out` emitted. From the directory
// holding out/: c++ main.cpp out/seed_demo.a out/attn_runtime.a -ldl -lpthread && ./a.out
#include "out/HalideBuffer.h" // Halide::Runtime::Buffer, copied into out/ by attn-compile
#include "out/seed_demo.h"
#include <cmath>
#include <cstdio>
using Halide::Runtime::Buffer;
int main() {
  // Buffers list sizes innermost first: tensor<3x8xf32> is Buffer<float>(8, 3).
  Buffer<float> q(8, 1), h(8, 3), wa(16, 4), va(4), wAdd(3, 1), cAdd(8, 1), wDot(3, 1), cDot(8, 1);
  h.for_each_element([&](int d, int t) { h(d, t) = std::sin(1.0f + d + 8 * t); });
  q.for_each_element([&](int d, int) { q(d, 0) = (h(d, 0) + h(d, 1) + h(d, 2)) / 3; });
  wa.for_each_element([&](int c, int a) { wa(c, a) = 0.5f * std::cos(1.0f + c + 16 * a); });
  va.for_each_element([&](int a) { va(a) = 0.5f * (a - 1.5f); });
  if (int err = seed_demo(q, h, wa, va, wAdd, cAdd, wDot, cDot)) return err;
  std::printf("additive weights %.6f %.6f %.6f\n", wAdd(0, 0), wAdd(1, 0), wAdd(2, 0));
  std::printf("dot weights      %.6f %.6f %.6f\n", wDot(0, 0), wDot(1, 0), wDot(2, 0));
}
