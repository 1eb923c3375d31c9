//===- KernelPipeline.cpp - the passes run before lowering ----------------===//

#include "attn/CodeGen/Halide/Pipeline.h"
#include "attn/Dialect/Attn/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace attn {

namespace {
#define GEN_PASS_REGISTRATION
#include "attn/CodeGen/Halide/Passes.h.inc"
} // namespace

std::vector<KernelPipelineStep> kernelPipeline(const KernelPipelineOptions &options) {
  std::vector<KernelPipelineStep> steps;
  if (options.fuse) {
    steps.push_back({"attn-decompose-multi-head", [] { return createAttnDecomposeMultiHead(); }});
    steps.push_back({"attn-fuse", [] { return createAttnFuse(); }});
  }
  // Always: the lowering takes bilinear scores folded (q W, then dot).
  steps.push_back({"attn-fold-bilinear", [] { return createAttnFoldBilinear(); }});
  steps.push_back({"canonicalize", [] { return mlir::createCanonicalizerPass(); }});
  steps.push_back({"attn-select-schedule", [] { return createAttnSelectSchedule(); }});
  return steps;
}

void addKernelPipeline(mlir::OpPassManager &modulePm, const KernelPipelineOptions &options,
                       bool keepTarget) {
  AttnAttachTargetOptions attach;
  attach.target = options.target;
  attach.keep = keepTarget;
  modulePm.addPass(createAttnAttachTarget(attach));
  mlir::OpPassManager &functionPm = modulePm.nest<mlir::func::FuncOp>();
  for (KernelPipelineStep &step : kernelPipeline(options))
    functionPm.addPass(step.create());
}

void registerCodeGenPasses() {
  registerAttnAttachTarget();
  mlir::PassPipelineRegistration<>(
      "attn-kernel-pipeline",
      "The passes the kernel tools run before lowering: attach-target (the module's, else the "
      "host), decompose-multi-head, fuse, fold-bilinear, canonicalize, select-schedule",
      [](mlir::OpPassManager &pm) { addKernelPipeline(pm, {}, /*keepTarget=*/true); });
}

} // namespace attn
