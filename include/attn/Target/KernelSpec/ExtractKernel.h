//===- ExtractKernel.h - MLIR functions to kernel descriptions --*- C++ -*-===//
//
// The MLIR half of the lowering: each public func.func becomes a kernel::FunctionSpec, which the
// Halide half (Lowering.h) turns into a Halide Pipeline. Everything the lowering cannot take is
// reported here, as MLIR diagnostics with locations.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_CONVERSION_ATTNTOHALIDE_EXTRACTKERNEL_H
#define ATTN_CONVERSION_ATTNTOHALIDE_EXTRACTKERNEL_H

#include "attn/Kernel/KernelSpec.h"

#include "mlir/IR/BuiltinOps.h"

namespace attn {

/// Describes every public function of `module` (or only `entry`, when not empty) as a kernel. Emits
/// an error for each unsupported construct and returns failure if there was any.
mlir::FailureOr<kernel::ModuleSpec> extractKernels(mlir::ModuleOp module,
                                                   llvm::StringRef entry = "");

} // namespace attn

#endif // ATTN_CONVERSION_ATTNTOHALIDE_EXTRACTKERNEL_H
