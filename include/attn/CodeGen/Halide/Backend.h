//===- Backend.h - compile kernels ahead of time or just in time --*- C++ -*-===//
//
// The public face of the Halide side: lowering (lib/CodeGen/Halide/Algorithm), scheduling
// (lib/CodeGen/Halide/Schedule) and code generation, behind a header that includes neither Halide
// nor MLIR. Errors come back as messages, never as exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_BACKEND_BACKEND_H
#define ATTN_BACKEND_BACKEND_H

#include "attn/CodeGen/Halide/Target.h"
#include "attn/Kernel/KernelSpec.h"
#include "attn/Runtime/HostTensor.h"

#include <memory>
#include <string>
#include <vector>

namespace attn::backend {

/// Optional outputs of attn-compile, beside NAME.a and NAME.h. Ptx (CUDA targets) and OpenCL
/// (OpenCL targets) are the device code of the kernel's GPU stages.
enum class Emit { Stmt, StmtHtml, Assembly, LlvmAssembly, Schedule, Ptx, OpenCL };
/// One kind of extra output: its --emit name, the file suffix after the kernel's name, what it
/// holds.
struct EmitKind {
  Emit emit;
  const char *name, *suffix, *help;
};
/// Every kind, in the order the tools list them.
const std::vector<EmitKind> &emitKinds();
/// Parses an --emit item (a name of emitKinds()).
bool parseEmit(const std::string &name, Emit &out);
const char *emitName(Emit e);
/// The file an emitted output goes to, inside the output directory.
std::string emitFileName(const std::string &kernel, Emit e);

/// Why `name` cannot name a kernel (empty when it can): not a C identifier, a C or C++ keyword, a
/// reserved name (leading '_', Halide's runtime prefix halide_, a symbol attn's runtime or kernels
/// define, a file attn-compile writes), or a symbol of the C and C++ runtime libraries a program
/// links (malloc, memcpy) or main.
std::string kernelNameProblem(const std::string &name);

/// Writes DIR/NAME.a and DIR/NAME.h (Halide's AOT calling convention: one halide_buffer_t * per
/// argument, then one per result; returns 0 on success), plus the `extra` outputs. The kernel is
/// built without a Halide runtime: link one runtime (compileRuntime) into the program. DIR is a
/// staging directory (attn-compile publishes it whole: AtomicFile.h's StagedDirectory).
bool compileKernel(const kernel::FunctionSpec &fn, const TargetInfo &target, const std::string &dir,
                   const std::vector<Emit> &extra, std::string &error);

/// Lowers `fn` to Halide and schedules it for `target` without generating code: every check but
/// code generation's, in milliseconds (the lowering fuzzer's target).
bool lowerAndSchedule(const kernel::FunctionSpec &fn, const TargetInfo &target, std::string &error);

/// Writes DIR/attn_runtime.a: the one Halide runtime all kernels of a program share. On x86-64
/// Linux (the targets the pool is built for) it holds attn's scratch pool ahead of Halide's
/// runtime, and DIR/attn_runtime.h declares what the pool adds
/// (lib/CodeGen/Halide/Backend/KernelRuntime); `withPool` says whether it does.
bool compileRuntime(const TargetInfo &target, const std::string &dir, bool &withPool,
                    std::string &error);
inline const char *runtimeFileName() { return "attn_runtime.a"; }

/// A kernel compiled in memory.
class JitKernel {
public:
  virtual ~JitKernel() = default;
  /// Runs the kernel. `outputs` must already have the result shapes and types.
  virtual bool run(const std::vector<const HostTensor *> &inputs, std::vector<HostTensor> &outputs,
                   std::string &error) = 0;
  /// The readable schedule description (as --emit=schedule writes it).
  virtual std::string scheduleText() const = 0;
};

/// Lowers, schedules and JIT-compiles `fn`. Returns null and sets `error` on failure.
std::unique_ptr<JitKernel> compileJit(const kernel::FunctionSpec &fn, const TargetInfo &target,
                                      std::string &error);

/// The number of threads the kernels' thread pool uses (Halide's HL_NUM_THREADS); call before the
/// first run.
void setThreadCount(int threads);

} // namespace attn::backend

#endif // ATTN_BACKEND_BACKEND_H
