//===- Passes.h - attn transformation passes --------------------*- C++ -*-===//

#ifndef ATTN_DIALECT_ATTN_TRANSFORMS_PASSES_H
#define ATTN_DIALECT_ATTN_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <functional>
#include <string>
#include <vector>

namespace attn {

class AttnDialect;

/// What the schedule heuristics need to know about a target.
struct TargetTraits {
  int lanes = 16;     // f32 vector lanes
  bool avx512 = true; // 32 vector registers (16 otherwise)
  bool gpu = false;
  int64_t l2Bytes = 0; // per-core L2 of the machine the kernels run on; 0: not known
  int registers() const { return avx512 ? 32 : 16; }
};

/// Resolves a target string into traits. lib/CodeGen/Halide/Backend knows Halide's targets; the
/// passes do not link it, so each tool installs the resolver (tools/common). Without one, "host"
/// means AVX-512.
using TargetResolver =
    std::function<bool(const std::string &target, TargetTraits &traits, std::string &error)>;
void setTargetResolver(TargetResolver resolver);
bool resolveTargetTraits(const std::string &target, TargetTraits &traits, std::string &error);

#define GEN_PASS_DECL
#include "attn/Dialect/Attn/Transforms/Passes.h.inc"

/// Whether `op` may appear in a function that is lowered to a kernel (attn ops, the supported
/// arith/tensor ops, func.return).
bool isLowerableOp(mlir::Operation *op);

/// Emits an error for every op of `module`'s public functions (only `entry`, when given) that the
/// lowering cannot take.
mlir::LogicalResult checkLowerable(mlir::ModuleOp module, llvm::StringRef entry = {});

/// The pipeline the kernel tools run before lowering (KernelPipeline.cpp).
struct KernelPipelineOptions {
  bool fuse = true;   // --attn-decompose-multi-head, --attn-fuse, --attn-fold-bilinear
  std::string target; // for --attn-select-schedule (which always runs: it fills missing schedules)
};
/// One pass of it, named as attn-opt names it.
struct KernelPipelineStep {
  std::string name;
  std::function<std::unique_ptr<mlir::Pass>()> create;
};
std::vector<KernelPipelineStep> kernelPipeline(const KernelPipelineOptions &options);
/// Adds the pipeline to a pass manager nested on func.func.
void addKernelPipeline(mlir::OpPassManager &functionPm, const KernelPipelineOptions &options);
/// Registers it with attn-opt as --attn-kernel-pipeline.
void registerKernelPipeline();

#define GEN_PASS_REGISTRATION
#include "attn/Dialect/Attn/Transforms/Passes.h.inc"

} // namespace attn

#endif // ATTN_DIALECT_ATTN_TRANSFORMS_PASSES_H
