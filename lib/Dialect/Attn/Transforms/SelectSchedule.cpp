//===- SelectSchedule.cpp - fill in #attn.schedule ------------------------===//

#include "attn/Dialect/Attn/IR/AttnDialect.h"
#include "attn/Dialect/Attn/Transforms/Passes.h"
#include "attn/Dialect/Attn/Transforms/ScheduleHeuristics.h"

namespace attn {
#define GEN_PASS_DEF_ATTNSELECTSCHEDULE
#include "attn/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace attn

using namespace mlir;

namespace attn {

static TargetResolver &resolverSlot() {
  static TargetResolver resolver;
  return resolver;
}

void setTargetResolver(TargetResolver resolver) { resolverSlot() = std::move(resolver); }

bool resolveTargetTraits(const std::string &target, TargetTraits &traits, std::string &error) {
  if (resolverSlot())
    return resolverSlot()(target, traits, error);
  // No resolver installed (a pass run outside the tools): read the feature names.
  traits.avx512 = target == "host" || target.find("avx512") != std::string::npos;
  traits.lanes = traits.avx512 ? 16 : target.find("avx") != std::string::npos ? 8 : 4;
  traits.gpu =
      target.find("cuda") != std::string::npos || target.find("opencl") != std::string::npos;
  return true;
}

namespace {
struct AttnSelectSchedulePass : impl::AttnSelectScheduleBase<AttnSelectSchedulePass> {
  using Base::Base;
  void runOnOperation() override {
    TargetTraits traits;
    std::string error;
    if (!resolveTargetTraits(target, traits, error)) {
      getOperation().emitError() << "--attn-select-schedule: " << error;
      return signalPassFailure();
    }
    if (l2KiB < 0) {
      getOperation().emitError() << "--attn-select-schedule: l2-kib must be a size in KiB (0: the "
                                    "host's), not "
                                 << static_cast<int64_t>(l2KiB);
      return signalPassFailure();
    }
    if (l2KiB > 0)
      traits.l2Bytes = static_cast<int64_t>(l2KiB) * 1024;
    bool refused = false;
    getOperation().walk([&](Operation *op) {
      if (!isa<AttnDialect>(op->getDialect()))
        return;
      auto given = op->getAttrOfType<ScheduleAttr>("schedule");
      if (given && !overwrite) {
        FailureOr<ScheduleAttr> runs = honourSchedule(op, given, traits);
        if (failed(runs))
          refused = true;
        else if (*runs != given)
          op->setAttr("schedule", *runs);
        return;
      }
      if (ScheduleAttr s = chooseSchedule(op, traits))
        op->setAttr("schedule", s);
    });
    if (refused)
      signalPassFailure();
  }
};
} // namespace

} // namespace attn
