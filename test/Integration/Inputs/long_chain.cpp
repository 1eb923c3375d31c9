// Calls the long-graphs test's kernel (a chain cut into segments, kernel/Segments.h) and prints
// its result, for long_chain.py to check against numpy.
#include "out/long_chain.h"
#include "out/HalideBuffer.h"
#include <cmath>
#include <cstdio>
using Halide::Runtime::Buffer;
int main() {
  Buffer<float> x(8, 4), y(8, 4);
  x.for_each_element([&](int c, int r) { x(c, r) = std::sin(0.1f * (8 * r + c)); });
  if (int err = long_chain(x, y))
    return err;
  y.for_each_element([&](int c, int r) { std::printf("%.9g\n", y(c, r)); });
}
