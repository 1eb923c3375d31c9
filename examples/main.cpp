// Calls the kernel attn-compile emitted for examples/seed_demo.mlir on the lesson's data and prints
// what `attn-run examples/seed_demo.mlir --input=... --print` prints. From the repository root:
//   build/bin/attn-compile examples/seed_demo.mlir -o out
//   c++ -I out examples/main.cpp out/seed_demo.a out/attn_runtime.a -ldl -lpthread -o seed_demo
#include "HalideBuffer.h"   // Halide::Runtime::Buffer, copied into out/ by attn-compile
#include "seed_demo.h"      // the kernel: int seed_demo(halide_buffer_t *q, ..., *result3)
#include "seed_demo_data.h" // the lesson's q, h, W_a, v_a (examples/data/make_seed_demo.py)
#include <cstdio>
using Halide::Runtime::Buffer;
namespace data = seed_demo_data;

static void print(const char *name, const Buffer<float> &row) {
  std::printf("%-16s", name);
  for (int i = 0; i < row.dim(0).extent(); ++i)
    std::printf(" %.6f", row(i, 0));
  std::printf("\n");
}

int main() {
  // Buffers list sizes innermost first: tensor<3x8xf32> is Buffer<float>(data, 8, 3).
  Buffer<float> q(data::q, 8, 1), h(data::h, 8, 3), wa(data::w_a, 16, 4), va(data::v_a, 4);
  Buffer<float> wAdd(3, 1), cAdd(8, 1), wDot(3, 1), cDot(8, 1);
  if (int err = seed_demo(q, h, wa, va, wAdd, cAdd, wDot, cDot))
    return err;
  print("additive weights", wAdd);
  print("additive context", cAdd);
  print("dot weights", wDot);
  print("dot context", cDot);
}
