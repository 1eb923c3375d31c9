//===- Jit.cpp - compile and run kernels in memory ------------------------===//

#include "Build.h"

#include "attn/Backend/Backend.h"

#include <cstdlib>
#include <dlfcn.h>
#include <map>
#include <mutex>
#include <unordered_map>

using namespace Halide;

namespace attn::backend {

namespace {

/// A halide_buffer_t view of a host tensor (no copy). Tensor dim d is Halide dim rank-1-d.
Buffer<> viewOf(const HostTensor &t) {
  int rank = static_cast<int>(t.shape.size());
  std::vector<halide_dimension_t> dims(rank);
  int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    halide_dimension_t &hd = dims[lowering::halideDim(rank, d)];
    hd.min = 0;
    hd.extent = static_cast<int32_t>(t.shape[d]);
    hd.stride = static_cast<int32_t>(stride);
    stride *= t.shape[d];
  }
  Type type = lowering::halideType(t.elem);
  return Buffer<>(type, const_cast<uint8_t *>(t.data.data()), rank, dims.data());
}

/// Halide's allocations, kept for reuse across runs. A fresh malloc of a large intermediate is a fresh
/// mmap, and first-touching its pages costs more than computing it (8k page faults for a 34 MB score
/// buffer measured 80+ ms on this VM); a long-lived process reuses its buffers, and so does this pool.
/// Blocks are 64-byte aligned with 64 bytes of slack on both sides (Halide may read a little past
/// either end). Up to 2 GiB of free blocks are kept.
class BufferPool {
public:
  static void *allocate(JITUserContext *, size_t bytes) { return instance().take(bytes); }
  static void release(JITUserContext *, void *p) { instance().give(p); }

  ~BufferPool() { // at exit: nothing runs any more (and leak checkers see every block freed)
    for (auto &block : blocks)
      std::free(block.second.first);
  }

private:
  static BufferPool &instance() {
    static BufferPool pool;
    return pool;
  }
  void *take(size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = freeBlocks.lower_bound(bytes);
    if (it != freeBlocks.end() && it->first <= bytes + bytes / 8 + 4096) {
      void *p = it->second;
      cachedBytes -= it->first;
      freeBlocks.erase(it);
      return p;
    }
    size_t total = (bytes + 64 + 64 + 63) / 64 * 64;
    auto *base = static_cast<uint8_t *>(std::aligned_alloc(64, total));
    if (!base)
      return nullptr;
    void *p = base + 64;
    blocks[p] = {base, bytes};
    return p;
  }
  void give(void *p) {
    if (!p)
      return;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = blocks.find(p);
    if (it == blocks.end())
      return;
    size_t bytes = it->second.second;
    if (cachedBytes + bytes > (size_t(2) << 30)) {
      std::free(it->second.first);
      blocks.erase(it);
      return;
    }
    cachedBytes += bytes;
    freeBlocks.emplace(bytes, p);
  }
  std::mutex mutex;
  std::unordered_map<void *, std::pair<uint8_t *, size_t>> blocks; // user pointer -> (base, size)
  std::multimap<size_t, void *> freeBlocks;
  size_t cachedBytes = 0;
};

/// PoCL (OpenCL on the CPU) compiles kernels with its own clang/LLVM 15, which binds to LLVM 14's
/// symbols already in this process (Halide) and crashes. Loaded first with RTLD_DEEPBIND, PoCL
/// resolves its symbols in its own dependencies first; the OpenCL ICD loader then finds it loaded.
/// (TOOLCHAIN.md; a no-op when PoCL is not installed or another OpenCL driver is used.)
void isolatePocl() {
  static std::once_flag once;
  std::call_once(once, [] { ::dlopen("libpocl.so.2", RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND); });
}

class JitKernelImpl : public JitKernel {
public:
  JitKernelImpl(BuiltKernel k, std::string name, std::string autoscheduler)
      : k(std::move(k)), name(std::move(name)), autoscheduler(std::move(autoscheduler)) {}

  bool run(const std::vector<const HostTensor *> &inputs, std::vector<HostTensor> &outputs,
           std::string &error) override {
    bool ok = catchHalide("running @" + name, error, [&] {
      bool gpu = k.target.has_gpu_feature();
      for (size_t i = 0; i < inputs.size(); ++i) {
        Buffer<> in = viewOf(*inputs[i]);
        if (gpu) // the data is on the host: Halide copies it to the device before the first use
          in.set_host_dirty();
        k.lowered->inputs[i].set(in);
      }
      std::vector<Buffer<>> outs;
      for (HostTensor &o : outputs)
        outs.push_back(viewOf(o));
      Realization r(outs);
      k.lowered->pipeline.realize(r, k.target);
      if (gpu)
        for (Buffer<> &o : outs) // the results were written on the device
          o.copy_to_host();
    });
    if (!ok)
      noteAutoscheduler(autoscheduler, /*running=*/true, error);
    return ok;
  }

  std::string scheduleText() const override { return k.log.text(); }

  BuiltKernel k;
  std::string name;
  std::string autoscheduler; // "" for attn's own schedules
};

} // namespace

std::unique_ptr<JitKernel> compileJit(const kernel::FunctionSpec &fn, const TargetInfo &target,
                                      std::string &error) {
  std::unique_ptr<JitKernelImpl> kernel;
  std::string cpuError;
  if (!hostCanRun(target.halideTarget, cpuError)) {
    error = "@" + fn.name + ": " + cpuError;
    return nullptr;
  }
  // Without a driver, Halide's runtime would fail at the first run with one line per missing CUDA
  // entry point; say it once, before compiling.
  if (target.cuda && !::dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL)) {
    error = "@" + fn.name + ": target '" + target.halideTarget +
            "' needs the CUDA driver (libcuda.so.1), which this machine does not have; "
            "attn-compile emits CUDA kernels without one";
    return nullptr;
  }
  if (target.opencl)
    isolatePocl(); // before anything loads an OpenCL driver
  if (target.opencl && !::dlopen("libOpenCL.so", RTLD_LAZY | RTLD_LOCAL)) {
    error = "@" + fn.name + ": target '" + target.halideTarget +
            "' needs an OpenCL loader (libOpenCL.so) and driver, which this machine does not have "
            "(Debian: ocl-icd-opencl-dev and pocl-opencl-icd)";
    return nullptr;
  }
  bool ok = catchHalide("@" + fn.name, error, [&] {
    BuiltKernel k = buildKernel(fn, target);
    k.lowered->pipeline.jit_handlers().custom_malloc = BufferPool::allocate;
    k.lowered->pipeline.jit_handlers().custom_free = BufferPool::release;
    k.lowered->pipeline.compile_jit(k.target);
    kernel = std::make_unique<JitKernelImpl>(std::move(k), fn.name, autoschedulerOf(fn));
  });
  if (!ok) {
    noteAutoscheduler(autoschedulerOf(fn), /*running=*/false, error);
    return nullptr;
  }
  return kernel;
}

void setThreadCount(int threads) {
  ::setenv("HL_NUM_THREADS", std::to_string(threads).c_str(), 1);
}

} // namespace attn::backend
