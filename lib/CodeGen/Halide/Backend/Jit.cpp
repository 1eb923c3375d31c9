//===- Jit.cpp - compile and run kernels in memory ------------------------===//

#include "Build.h"
#include "KernelRuntime/pool_blocks.h"

#include "attn/CodeGen/Halide/Backend.h"

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

/// Halide's allocations, kept for reuse across runs. A fresh malloc of a large intermediate is a
/// fresh mmap, and first-touching its pages costs more than computing it (8k page faults for a 34
/// MB score buffer measured 80+ ms on this VM); a long-lived process reuses its buffers, and so
/// does this pool. Which kept block serves a request is the AOT pool's rule
/// (KernelRuntime/pool_blocks.h: of the fits, the asking thread's first, then the smallest), found
/// through a map by size: a long-lived process (a tuning run) may keep thousands of blocks. Blocks
/// are 64-byte aligned with 64 bytes of slack on both sides (Halide may read a little past either
/// end). Up to 2 GiB of free blocks are kept.
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
  /// Its address names the calling thread (attn_kept_block::owner).
  static const void *thisThread() {
    thread_local char token;
    return &token;
  }
  void *take(size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex);
    // attn_pick_block's choice, found among the fits only (ordered by size, the oldest of equal
    // sizes first): the first of this thread's, else the first.
    const void *self = thisThread();
    auto pick = kept.end();
    for (auto it = kept.lower_bound(bytes); it != kept.end() && attn_block_fits(it->first, bytes);
         ++it) {
      if (it->second.owner == self) {
        pick = it;
        break;
      }
      if (pick == kept.end())
        pick = it;
    }
    if (pick != kept.end()) {
      void *p = pick->second.p;
      cachedBytes -= pick->first;
      kept.erase(pick);
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
    kept.emplace(bytes, attn_kept_block{p, bytes, thisThread()});
  }
  std::mutex mutex;
  std::unordered_map<void *, std::pair<uint8_t *, size_t>> blocks; // user pointer -> (base, size)
  std::multimap<size_t, attn_kept_block> kept; // free blocks by size, the oldest of a size first
  size_t cachedBytes = 0;
};

/// One call's JIT context: the buffer pool as Halide's allocator, and the runtime's error messages
/// (halide_error may be called from several of the pool's threads).
struct CallContext : JITUserContext {
  CallContext() {
    handlers.custom_malloc = BufferPool::allocate;
    handlers.custom_free = BufferPool::release;
    handlers.custom_error = [](JITUserContext *c, const char *message) {
      auto *self = static_cast<CallContext *>(c);
      std::lock_guard<std::mutex> lock(self->mutex);
      self->errors += message;
    };
  }
  std::mutex mutex;
  std::string errors;
};

/// The kernel compiled in memory. Not through Pipeline::compile_jit and realize, which compile the
/// pipeline's module as it is: the module must link the lowering's external code first
/// (LoweredFunction::externalCode), so this compiles it as the AOT path does and calls its entry
/// point through Halide's argv wrapper, the arguments in the order the lowered function declares
/// them (the user context, the inputs, the results).
class JitKernelImpl : public JitKernel {
public:
  JitKernelImpl(BuiltKernel built, std::string fnName, std::string scheduler)
      : k(std::move(built)), name(std::move(fnName)), autoscheduler(std::move(scheduler)) {
    // JIT (the shared runtime) and a user context argument, as Pipeline::compile_jit does; the
    // context carries the per-call handlers.
    Target jitTarget = k.target.with_feature(Target::JIT).with_feature(Target::UserContext);
    // The entry point under a name of its own, not the function's: a function named after a
    // runtime symbol (@halide_malloc) stopped Halide with an internal error, one named @malloc
    // could replace the allocator the runtime calls. (attn-compile refuses such names for AOT
    // kernels, whose symbols a program links: backend::kernelNameProblem.)
    const std::string entryName = "attn_jit_entry";
    Module module = compileModule(k, entryName, jitTarget);
    module = module.resolve_submodules(); // GPU targets: the device code, compiled beside
    const Internal::LoweredFunc &entry = module.get_function_by_name(entryName);
    args = entry.args;
    jit = Internal::JITModule(module, entry);
  }

  bool run(const std::vector<const HostTensor *> &inputs, std::vector<HostTensor> &outputs,
           std::string &error) override {
    CallContext context;
    bool ok = catchHalide("running @" + name, error, [&] {
      bool gpu = k.target.has_gpu_feature();
      std::vector<Buffer<>> ins, outs;
      for (const HostTensor *t : inputs) {
        ins.push_back(viewOf(*t));
        if (gpu) // the data is on the host: Halide copies it to the device before the first use
          ins.back().set_host_dirty();
      }
      for (HostTensor &t : outputs)
        outs.push_back(viewOf(t));
      // By position: the inputs' and the results' buffers come in the order of the function's
      // arguments and results (Halide may rename a result's buffer: result0$1).
      JITUserContext *contextArg = &context;
      std::vector<const void *> argv;
      size_t nextIn = 0, nextOut = 0;
      for (const Internal::LoweredArgument &a : args) {
        if (a.name == "__user_context")
          argv.push_back(&contextArg);
        else if (a.is_buffer() && a.is_input() && nextIn < ins.size())
          argv.push_back(ins[nextIn++].raw_buffer());
        else if (a.is_buffer() && a.is_output() && nextOut < outs.size())
          argv.push_back(outs[nextOut++].raw_buffer());
        else
          throw InternalError("the JIT kernel @" + name + " takes an argument '" + a.name +
                              "' that attn does not pass");
      }
      if (nextIn != ins.size() || nextOut != outs.size())
        throw InternalError("the JIT kernel @" + name + " takes " + std::to_string(nextIn) +
                            " inputs and " + std::to_string(nextOut) + " results, not " +
                            std::to_string(ins.size()) + " and " + std::to_string(outs.size()));
      int status = jit.argv_function()(argv.data());
      if (status != 0)
        throw RuntimeError(context.errors.empty()
                               ? "the kernel returned " + std::to_string(status) +
                                     " without an error message"
                               : "Error: " + context.errors);
      if (gpu)
        for (Buffer<> &o : outs) // the results were written on the device
          o.copy_to_host();
    });
    if (!ok)
      noteAutoscheduler(autoscheduler, /*running=*/true, error);
    return ok;
  }

  std::string scheduleText() const override { return k.log.text(); }

private:
  BuiltKernel k;
  std::string name;
  std::string autoscheduler;                   // "" for attn's own schedules
  std::vector<Internal::LoweredArgument> args; // the entry point's, in order
  Internal::JITModule jit;
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
  // Halide 14's CUDA runtime caps the JIT's registers per thread at 64 unless this says otherwise;
  // the fused kernels take 80-140 and spill at 64 (KernelRuntime/attn_runtime.h). A value the
  // environment sets is kept. (hostCanRun found the driver, and for OpenCL loaded PoCL first.)
  if (target.cuda)
    ::setenv("HL_CUDA_JIT_MAX_REGISTERS", "255", /*overwrite=*/0);
  bool ok = catchHalide("@" + fn.name, error, [&] {
    kernel = std::make_unique<JitKernelImpl>(buildKernel(fn, target), fn.name, autoschedulerOf(fn));
  });
  if (!ok) {
    noteAutoscheduler(autoschedulerOf(fn), /*running=*/false, error);
    return nullptr;
  }
  return kernel;
}

void setThreadCount(int threads) { ::setenv("HL_NUM_THREADS", std::to_string(threads).c_str(), 1); }

} // namespace attn::backend
