//===- ToolSupport.h - what every attn tool does the same way ---*- C++ -*-===//

#ifndef ATTN_TOOLS_COMMON_TOOLSUPPORT_H
#define ATTN_TOOLS_COMMON_TOOLSUPPORT_H

#include "attn/Backend/Target.h"
#include "attn/Kernel/KernelSpec.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <optional>
#include <string>

namespace attn::tools {

/// Prints "<tool>: error: <message>" to stderr and returns exit code 1.
int fail(const std::string &message);

/// The tool's name, for messages (set from argv[0]).
void setToolName(const char *argv0);

/// Parses `path` (`-` for stdin) and verifies it, with diagnostics (file:line:col) on stderr.
mlir::OwningOpRef<mlir::ModuleOp> loadModule(const std::string &path, mlir::MLIRContext &ctx);

/// Parses, verifies and describes the kernels of `path` (only `entry` if not empty).
std::optional<kernel::ModuleSpec> loadKernels(const std::string &path, const std::string &entry,
                                              mlir::MLIRContext &ctx);

/// Resolves --target (empty: the default). Prints the error and returns nullopt on failure.
std::optional<backend::TargetInfo> targetFromFlag(const std::string &spec);

/// Unregisters a command-line option that libLLVM.so declares under a name an attn tool uses for its
/// own flag (LLVM's `threads`, for one); call before declaring the tool's option.
void releaseLlvmOption(const char *name);

/// Creates a directory (and its parents). Returns an error message, or "" on success.
std::string makeDirectories(const std::string &path);

} // namespace attn::tools

#endif // ATTN_TOOLS_COMMON_TOOLSUPPORT_H
