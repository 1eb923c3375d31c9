//===- KernelPipeline.cpp - the passes run before lowering ----------------===//
//
// The one list of what the kernel tools (attn-compile, attn-run, attn-tune, attn-bench) and the
// fuzz targets do to a module before it is lowered; attn-opt offers it as --attn-kernel-pipeline.
//
//===----------------------------------------------------------------------===//

#include "attn/Dialect/Attn/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace attn {

std::vector<KernelPipelineStep> kernelPipeline(const KernelPipelineOptions &options) {
  std::vector<KernelPipelineStep> steps;
  if (options.fuse) {
    steps.push_back({"attn-decompose-multi-head", [] { return createAttnDecomposeMultiHead(); }});
    steps.push_back({"attn-fuse", [] { return createAttnFuse(); }});
    steps.push_back({"attn-fold-bilinear", [] { return createAttnFoldBilinear(); }});
  }
  steps.push_back({"canonicalize", [] { return mlir::createCanonicalizerPass(); }});
  AttnSelectScheduleOptions select;
  select.target = options.target.empty() ? "host" : options.target;
  steps.push_back({"attn-select-schedule{target=" + select.target + "}",
                   [select] { return createAttnSelectSchedule(select); }});
  return steps;
}

void addKernelPipeline(mlir::OpPassManager &functionPm, const KernelPipelineOptions &options) {
  for (KernelPipelineStep &step : kernelPipeline(options))
    functionPm.addPass(step.create());
}

void registerKernelPipeline() {
  mlir::PassPipelineRegistration<>(
      "attn-kernel-pipeline",
      "The passes the kernel tools run before lowering: decompose-multi-head, fuse, fold-bilinear, "
      "canonicalize, select-schedule (for the host)",
      [](mlir::OpPassManager &pm) { addKernelPipeline(pm.nest<mlir::func::FuncOp>(), {}); });
}

} // namespace attn
