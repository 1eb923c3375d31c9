//===- driver.cpp - runs attn's AOT kernels and times them ----------------===//
//
// bench/gpu/run.sh builds this against the kernels attn-compile emitted (CUDA kernels for the GPU
// measurement, host kernels for the dry run) and carries it to the machine that runs it, which has
// neither Halide nor LLVM: the kernels and the Halide runtime are linked in statically.
//
//   driver OUT_DIR [--reps=N] [--save-max-mb=M]
//
// For every kernel of kernels.inc (generated from shapes.json): random inputs (uniform in [-1, 1),
// fixed seed), copied to the device once; device allocations reused across calls; a warm-up run,
// then N timed runs, each waited for (halide_device_sync); the result copied back. Writes
// OUT_DIR/driver.json, and the inputs and the result as .npy under OUT_DIR/data when they are at
// most M MB (for the correctness check).
//
//===----------------------------------------------------------------------===//

#include "HalideBuffer.h"
#include "HalideRuntime.h"

#include "attn/Runtime/Npy.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

using Shape = std::vector<int64_t>;
struct KernelEntry {
  const char *name;
  std::vector<Shape> args;
  Shape out;
  int (*call)(halide_buffer_t **buffers);
};

#include "kernels.inc" // the kernels' headers and kKernels (gen_table.py)

namespace {

std::string lastError;
void recordError(void *, const char *msg) { lastError = msg; }

Halide::Runtime::Buffer<float> makeBuffer(const Shape &shape) {
  std::vector<int> dims(shape.rbegin(), shape.rend()); // Halide: innermost first
  return Halide::Runtime::Buffer<float>(dims);
}

attn::HostTensor toHost(const Halide::Runtime::Buffer<float> &b, const Shape &shape) {
  attn::HostTensor t(attn::kernel::ElemType::F32, shape);
  std::memcpy(t.data.data(), b.data(), t.data.size());
  return t;
}

std::string jsonString(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: driver OUT_DIR [--reps=N] [--save-max-mb=M]\n");
    return 2;
  }
  std::string outDir = argv[1];
  int reps = 20;
  double saveMaxMb = 64;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--reps=", 0) == 0)
      reps = std::max(1, std::atoi(a.c_str() + 7));
    else if (a.rfind("--save-max-mb=", 0) == 0)
      saveMaxMb = std::atof(a.c_str() + 14);
    else {
      std::fprintf(stderr, "driver: unknown argument '%s'\n", a.c_str());
      return 2;
    }
  }
  halide_set_error_handler(recordError); // the default handler aborts
  // Device buffers of intermediates (the split-K states, a result computed before it is copied out)
  // come from Halide's allocation cache instead of cuMemAlloc/cuMemFree on every call, as PyTorch's
  // caching allocator serves SDPA's: the timings compare kernels, not allocators.
  halide_reuse_device_allocations(nullptr, true);

  std::string json = "[\n";
  bool first = true;
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (const KernelEntry &k : kKernels) {
    std::fprintf(stderr, "driver: %s\n", k.name);
    std::vector<Halide::Runtime::Buffer<float>> bufs;
    double bytes = 0;
    for (const Shape &s : k.args) {
      bufs.push_back(makeBuffer(s));
      for (float &x : bufs.back())
        x = uniform(rng);
      bufs.back().set_host_dirty();
      bytes += 4.0 * bufs.back().number_of_elements();
    }
    bufs.push_back(makeBuffer(k.out));
    bytes += 4.0 * bufs.back().number_of_elements();
    std::vector<halide_buffer_t *> raw;
    for (auto &b : bufs)
      raw.push_back(b.raw_buffer());
    halide_buffer_t *out = raw.back();

    std::vector<double> ms;
    int rc = 0;
    lastError.clear();
    for (int r = 0; r <= reps && rc == 0; ++r) { // run 0 is the warm-up (module load, uploads)
      auto t0 = std::chrono::steady_clock::now();
      rc = k.call(raw.data());
      if (rc == 0 && out->device_interface)
        rc = halide_device_sync(nullptr, out);
      auto t1 = std::chrono::steady_clock::now();
      if (r > 0)
        ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    if (rc == 0)
      rc = bufs.back().copy_to_host();

    json += std::string(first ? "" : ",\n") + "  {\"kernel\": " + jsonString(k.name);
    first = false;
    if (rc != 0) {
      json += ", \"ok\": false, \"error\": " +
              jsonString(lastError.empty() ? "kernel failed" : lastError) + "}";
      std::fprintf(stderr, "driver: %s failed: %s\n", k.name, lastError.c_str());
      continue;
    }
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    bool save = bytes <= saveMaxMb * (1 << 20);
    if (save) {
      std::string error;
      for (size_t i = 0; i < bufs.size() && save; ++i) {
        const Shape &s = i + 1 < bufs.size() ? k.args[i] : k.out;
        std::string path = outDir + "/data/" + k.name +
                           (i + 1 < bufs.size() ? "_arg" + std::to_string(i) : "_out") + ".npy";
        if (!attn::writeNpy(path, toHost(bufs[i], s), error)) {
          std::fprintf(stderr, "driver: %s\n", error.c_str());
          return 1;
        }
      }
    }
    char line[512];
    std::snprintf(line, sizeof line,
                  ", \"ok\": true, \"reps\": %d, \"median_ms\": %.6f, \"min_ms\": %.6f, "
                  "\"max_ms\": %.6f, \"saved\": %s}",
                  reps, sorted[sorted.size() / 2], sorted.front(), sorted.back(),
                  save ? "true" : "false");
    json += line;
  }
  json += "\n]\n";
  std::string error;
  if (!attn::writeFileAtomically(outDir + "/driver.json", json, error)) {
    std::fprintf(stderr, "driver: %s\n", error.c_str());
    return 1;
  }
  return 0;
}
