//===- Passes.h - attn transformation passes --------------------*- C++ -*-===//

#ifndef ATTN_DIALECT_ATTN_TRANSFORMS_PASSES_H
#define ATTN_DIALECT_ATTN_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace attn {

class AttnDialect;

#define GEN_PASS_DECL
#include "attn/Dialect/Attn/Transforms/Passes.h.inc"

/// Whether `op` may appear in a function that is lowered to a kernel (attn ops, the supported
/// arith/tensor ops, func.return).
bool isLowerableOp(mlir::Operation *op);

/// Emits an error for every op of `module`'s public functions (only `entry`, when given) that the
/// lowering cannot take.
mlir::LogicalResult checkLowerable(mlir::ModuleOp module, llvm::StringRef entry = {});

#define GEN_PASS_REGISTRATION
#include "attn/Dialect/Attn/Transforms/Passes.h.inc"

} // namespace attn

#endif // ATTN_DIALECT_ATTN_TRANSFORMS_PASSES_H
