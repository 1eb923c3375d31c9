//===- Pipeline.h - what the kernel tools run before lowering ---*- C++ -*-===//
//
// The target a module's kernels are compiled for (--attn-attach-target) and the one list of passes
// the kernel tools (attn-compile, attn-run, attn-tune, attn-bench) and the fuzz targets run before
// lowering; attn-opt offers it as --attn-kernel-pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_CODEGEN_HALIDE_PIPELINE_H
#define ATTN_CODEGEN_HALIDE_PIPELINE_H

#include "attn/Dialect/Attn/IR/AttnDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <functional>
#include <string>
#include <vector>

namespace attn {

#define GEN_PASS_DECL
#include "attn/CodeGen/Halide/Passes.h.inc"

/// Sets `module`'s attn.target to `target` (a Halide target string, "" for the host; `l2KiB` > 0
/// replaces the host's L2); false with `error` naming the problem when Halide does not know the
/// target.
bool attachTarget(mlir::ModuleOp module, const std::string &target, int64_t l2KiB,
                  std::string &error);

struct KernelPipelineOptions {
  bool fuse = true;   // --attn-decompose-multi-head, --attn-fuse (--attn-fold-bilinear always runs)
  std::string target; // the target attached before the passes ("" is the host)
};
/// One pass of the pipeline, named as attn-opt names it.
struct KernelPipelineStep {
  std::string name;
  std::function<std::unique_ptr<mlir::Pass>()> create;
};
/// The passes on each function, after the target is attached (--attn-select-schedule always runs:
/// it fills missing schedules).
std::vector<KernelPipelineStep> kernelPipeline(const KernelPipelineOptions &options);
/// Adds the pipeline to a pass manager on the module: --attn-attach-target, then the passes on
/// each function. `keepTarget`: a target the module carries wins over options.target.
void addKernelPipeline(mlir::OpPassManager &modulePm, const KernelPipelineOptions &options,
                       bool keepTarget = false);
/// Registers --attn-attach-target, and the pipeline as --attn-kernel-pipeline (the module's target,
/// else the host).
void registerCodeGenPasses();

} // namespace attn

#endif // ATTN_CODEGEN_HALIDE_PIPELINE_H
