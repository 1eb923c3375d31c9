//===- driver.cpp - times two AOT builds of one kernel, alternated --------===//
//
// bench/ab/run.sh links this with two kernels of the same signature, ab_a and ab_b (attn-compile
// output of two graphs, or of one graph by two builds of attn-compile), and one Halide runtime.
//
//   driver ROUNDS ARG_SHAPE... -- RESULT_SHAPE        (shapes AxBxC, outermost first)
//
// Both kernels read the same inputs (uniform in [-1, 1), fixed seed). After a warm-up call of each,
// round i calls A then B (i even) or B then A (i odd), so that a drift of the machine's speed over
// the run, or the first call of a pair running on a colder cache, weighs on both alike. Prints each
// kernel's median time, the median and range of the per-round ratios B/A, and how far the two
// results are apart (largest |a - b| over the largest |a|); exits 3 when that is above 1e-4.
// A file linked in with run.sh --link may define ab_before_call, called with 'A' or 'B' before each
// call of that kernel (bench/ab/two_pools.c switches scratch pools with it).
//
//===----------------------------------------------------------------------===//

#include "HalideBuffer.h"
#include "HalideRuntime.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

extern "C" int ab_a_argv(void **args);
extern "C" int ab_b_argv(void **args);
extern "C" __attribute__((weak)) void ab_before_call(char side);

namespace {

using Buffer = Halide::Runtime::Buffer<float>;

Buffer makeBuffer(const std::string &shape) {
  std::vector<int> dims; // Halide order: innermost first
  if (shape != "scalar")
    for (size_t pos = 0; pos <= shape.size();) {
      size_t x = shape.find('x', pos);
      if (x == std::string::npos)
        x = shape.size();
      dims.insert(dims.begin(), std::atoi(shape.substr(pos, x - pos).c_str()));
      pos = x + 1;
    }
  return Buffer(dims);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: driver ROUNDS ARG_SHAPE... -- RESULT_SHAPE\n");
    return 2;
  }
  int rounds = std::atoi(argv[1]);
  std::vector<Buffer> inputs;
  int i = 2;
  for (; i < argc && std::string(argv[i]) != "--"; ++i)
    inputs.push_back(makeBuffer(argv[i]));
  if (i + 2 != argc || rounds < 1) {
    std::fprintf(stderr,
                 "driver: expected ROUNDS >= 1, the argument shapes, --, one result shape\n");
    return 2;
  }
  Buffer outA = makeBuffer(argv[i + 1]), outB = makeBuffer(argv[i + 1]);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (Buffer &b : inputs)
    b.for_each_value([&](float &x) { x = uniform(rng); });

  auto argsFor = [&](Buffer &out) {
    std::vector<void *> args;
    for (Buffer &b : inputs)
      args.push_back(b.raw_buffer());
    args.push_back(out.raw_buffer());
    return args;
  };
  std::vector<void *> argsA = argsFor(outA), argsB = argsFor(outB);
  auto call = [](int (*kernel)(void **), std::vector<void *> &args, const char *which) {
    if (ab_before_call)
      ab_before_call(which[0]);
    auto start = std::chrono::steady_clock::now();
    if (int rc = kernel(args.data())) {
      std::fprintf(stderr, "driver: kernel %s failed (Halide error %d)\n", which, rc);
      std::exit(1);
    }
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
  };
  call(ab_a_argv, argsA, "A"); // warm-up: first-call allocations, thread pool start
  call(ab_b_argv, argsB, "B");

  std::vector<double> msA, msB, ratio;
  for (int r = 0; r < rounds; ++r) {
    double a, b;
    if (r % 2 == 0) {
      a = call(ab_a_argv, argsA, "A");
      b = call(ab_b_argv, argsB, "B");
    } else {
      b = call(ab_b_argv, argsB, "B");
      a = call(ab_a_argv, argsA, "A");
    }
    msA.push_back(a);
    msB.push_back(b);
    ratio.push_back(b / a);
  }

  double largest = 0, diff = 0;
  bool nan = false;
  for (int64_t k = 0; k < static_cast<int64_t>(outA.number_of_elements()); ++k) {
    float a = outA.data()[k], b = outB.data()[k];
    nan = nan || std::isnan(a) != std::isnan(b);
    largest = std::max(largest, static_cast<double>(std::fabs(a)));
    diff = std::max(diff, static_cast<double>(std::fabs(a - b)));
  }
  double relative = largest > 0 ? diff / largest : diff;
  std::printf("A %.4f ms  B %.4f ms  (medians of %d rounds)\n", median(msA), median(msB), rounds);
  auto [lowest, highest] = std::minmax_element(ratio.begin(), ratio.end());
  std::printf("B/A %.3f  (median of the rounds' ratios; range %.3f-%.3f)\n", median(ratio), *lowest,
              *highest);
  std::printf("results: largest |A - B| / largest |A| = %.2g%s\n", relative,
              nan ? " (NaN in one result only)" : "");
  // Beyond the project's f32 tolerance the two kernels do not compute the same thing, and their
  // times are not a comparison.
  if (nan || relative > 1e-4) {
    std::fprintf(stderr,
                 "driver: A and B disagree beyond 1e-4 of the result's largest magnitude\n");
    return 3;
  }
  return 0;
}
