//===- AttachTarget.cpp - the module's attn.target ------------------------===//

#include "attn/CodeGen/Halide/Pipeline.h"
#include "attn/CodeGen/Halide/Target.h"

namespace attn {
#define GEN_PASS_DEF_ATTNATTACHTARGET
#include "attn/CodeGen/Halide/Passes.h.inc"
} // namespace attn

using namespace mlir;

namespace attn {

static FailureOr<TargetAttr> resolveTargetAttr(MLIRContext *context, const std::string &target,
                                               int64_t l2KiB, std::string &error) {
  if (l2KiB < 0) {
    error = "l2-kib must be a size in KiB (0: the host's), not " + std::to_string(l2KiB);
    return failure();
  }
  backend::TargetInfo info;
  if (!backend::resolveTarget(target, info, error))
    return failure();
  kernel::TargetTraits traits;
  traits.name = info.halideTarget;
  traits.lanes = info.f32Lanes;
  traits.registers = kernel::TargetTraits::registersFor(info.f32Lanes);
  traits.gpu = info.gpu;
  traits.l2Bytes = l2KiB > 0 ? l2KiB * 1024 : info.l2Bytes;
  return TargetAttr::get(context, traits);
}

bool attachTarget(ModuleOp module, const std::string &target, int64_t l2KiB, std::string &error) {
  FailureOr<TargetAttr> attr = resolveTargetAttr(module.getContext(), target, l2KiB, error);
  if (failed(attr))
    return false;
  module->setAttr(TargetAttr::kAttrName, *attr);
  return true;
}

namespace {
struct AttnAttachTargetPass : impl::AttnAttachTargetBase<AttnAttachTargetPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (keep && module->hasAttr(TargetAttr::kAttrName))
      return;
    std::string error;
    if (!attachTarget(module, target, l2KiB, error)) {
      module.emitError() << "--attn-attach-target: " << error;
      return signalPassFailure();
    }
  }
};
} // namespace

} // namespace attn
