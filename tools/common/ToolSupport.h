//===- ToolSupport.h - what every attn tool does the same way ---*- C++ -*-===//

#ifndef ATTN_TOOLS_COMMON_TOOLSUPPORT_H
#define ATTN_TOOLS_COMMON_TOOLSUPPORT_H

#include "attn/CodeGen/Halide/Pipeline.h"
#include "attn/CodeGen/Halide/Target.h"
#include "attn/Dialect/Attn/Transforms/Passes.h"
#include "attn/Kernel/KernelSpec.h"
#include "attn/Runtime/HostTensor.h"
#include "attn/Runtime/KernelInputs.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <optional>
#include <string>
#include <vector>

namespace attn::tools {

/// Prints "<tool>: error: <message>" to stderr and returns exit code 1.
int fail(const std::string &message);

/// The most threads a kernel runs on: Halide 14's thread pool never starts more.
constexpr int kMaxThreads = 256;
/// Why `threads` cannot be a --threads value (empty when it can): 1 to kMaxThreads.
std::string threadCountProblem(long long threads);

/// Why a --NAME value in seconds cannot be used (empty when it can): a finite number, at least 0
/// (`positive`: above 0).
std::string secondsProblem(const std::string &name, double seconds, bool positive);
/// A number of seconds as the messages show it (%g).
std::string formatSeconds(double seconds);

/// The tool's name, for messages (set from argv[0]).
void setToolName(const char *argv0);

/// Prints an error at the place where `buffer` nests deeper than the tools parse (TextLimits.h) and
/// returns true; false when it does not.
bool refuseDeepNesting(const llvm::MemoryBuffer &buffer);

/// Parses `path` (`-` for stdin) and verifies it, with diagnostics (file:line:col) on stderr.
mlir::OwningOpRef<mlir::ModuleOp> loadModule(const std::string &path, mlir::MLIRContext &ctx);

/// Writes `module` as text to `path`, whole or not at all (writeFileAtomically). Returns false with
/// `error` when it cannot.
bool writeModule(mlir::ModuleOp module, const std::string &path, std::string &error);

/// What the tools do to a module before lowering it: attn::kernelPipeline, or a pipeline of the
/// user's (attn-compile --pass-pipeline), under MLIR's pass-manager flags where the tool takes
/// them.
struct PipelineOptions : KernelPipelineOptions {
  PipelineOptions(bool fuse = true, std::string target = "", std::string passPipeline = "",
                  bool mlirFlags = false)
      : KernelPipelineOptions{fuse, std::move(target)}, passPipeline(std::move(passPipeline)),
        mlirFlags(mlirFlags) {}
  std::string passPipeline; // MLIR's textual form, `builtin.module(...)`; empty: kernelPipeline
  bool mlirFlags;           // apply --mlir-print-ir-*, --mlir-timing, ... (registerMlirFlags)
};

/// Registers MLIR's pass-manager, timing, printing and context flags (--mlir-print-ir-after-all,
/// --mlir-timing, ...) and shows them in `category`, as mlir-opt and iree-compile take them.
void registerMlirFlags(llvm::cl::OptionCategory &category);

/// The module as text after one pass of the pipeline (`pass` empty: the input).
struct PipelineSnapshot {
  std::string pass, ir;
};

/// Attaches options.target to `module` (its attn.target) and runs the attn pass pipeline on it.
/// Diagnostics go to the context's handler. With `snapshots`, records the input (with its target)
/// and the IR after every pass.
mlir::LogicalResult runPipeline(mlir::ModuleOp module, const PipelineOptions &options,
                                std::vector<PipelineSnapshot> *snapshots = nullptr);

/// Parses, verifies, optimizes (runPipeline) and describes the kernels of `path` (only `entry` if
/// not empty). `optimized`, when given, receives the module after the pipeline.
std::optional<kernel::ModuleSpec> loadKernels(const std::string &path, const std::string &entry,
                                              mlir::MLIRContext &ctx,
                                              const PipelineOptions &options,
                                              std::string *optimized = nullptr);

/// Like loadKernels, from MLIR text (`name` labels its diagnostics).
std::optional<kernel::ModuleSpec> loadKernelsFromString(const std::string &text,
                                                        const std::string &name,
                                                        mlir::MLIRContext &ctx,
                                                        const PipelineOptions &options);

/// Parses MLIR text and verifies it.
mlir::OwningOpRef<mlir::ModuleOp>
parseModuleString(const std::string &text, const std::string &name, mlir::MLIRContext &ctx);

/// Resolves --target (empty: the default). A tool that runs the kernels on this machine passes
/// `runsHere`: a target whose CPU code this machine cannot execute (backend::hostCanRun) is then
/// refused too. Prints the error and returns nullopt on failure.
std::optional<backend::TargetInfo> targetFromFlag(const std::string &spec, bool runsHere);

/// Unregisters a command-line option that libLLVM.so declares under a name an attn tool uses for
/// its own flag (LLVM's `threads`, for one); call before declaring the tool's option.
void releaseLlvmOption(const char *name);

/// While alive, says on stderr every `everySeconds` that `what` is still going ("attn-compile:
/// still compiling @f (20 s)"): a long compile shows it is alive, a short one prints nothing.
class StillWorking {
public:
  StillWorking(std::string what, int everySeconds = 10);
  ~StillWorking();
  StillWorking(const StillWorking &) = delete;
  StillWorking &operator=(const StillWorking &) = delete;

private:
  struct State;
  std::unique_ptr<State> state;
};

/// Creates a directory (and its parents). Returns an error message, or "" on success.
std::string makeDirectories(const std::string &path);

} // namespace attn::tools

#endif // ATTN_TOOLS_COMMON_TOOLSUPPORT_H
