//===- SelectSchedule.cpp - fill in #attn.schedule ------------------------===//
//
// The pass asks the target family's schedule knowledge (lib/CodeGen/Halide/Schedule) for each op,
// described in plain terms; it holds no heuristic of its own.
//
//===----------------------------------------------------------------------===//

#include "attn/CodeGen/Halide/Schedule/Heuristics.h"
#include "attn/Dialect/Attn/IR/AttnDialect.h"
#include "attn/Dialect/Attn/IR/AttnShapes.h"
#include "attn/Dialect/Attn/Transforms/Passes.h"

namespace attn {
#define GEN_PASS_DEF_ATTNSELECTSCHEDULE
#include "attn/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace attn

using namespace mlir;

namespace attn {

namespace {

/// The ops that have a kernel of their own (views have none).
bool hasKernel(Operation *op) {
  return isa<AttentionOp, ScoreOp, MaskOp, SoftmaxOp, WeightedSumOp, MultiHeadOp, LinearOp>(op);
}

/// Query heads that share a kv head (GQA), 1 where not known.
int64_t kvGroup(RankedTensorType q, RankedTensorType k) {
  if (q.getRank() < 3)
    return 1;
  int64_t hq = q.getDimSize(q.getRank() - 3), hk = k.getDimSize(k.getRank() - 3);
  return !ShapedType::isDynamic(hq) && !ShapedType::isDynamic(hk) ? hq / hk : 1;
}

/// `op` as the schedule heuristics see it.
schedule::OpShape shapeOf(Operation *op) {
  schedule::OpShape s;
  if (auto a = dyn_cast<AttentionOp>(op)) {
    auto q = cast<RankedTensorType>(a.getQuery().getType());
    auto k = cast<RankedTensorType>(a.getKey().getType());
    auto v = cast<RankedTensorType>(a.getValue().getType());
    AttentionSizes sizes = getAttentionSizes(q, k, v);
    s.attention = true;
    s.tq = kernelSize(sizes.tq);
    s.tk = kernelSize(sizes.tk);
    s.dk = kernelSize(sizes.dk);
    s.dv = kernelSize(sizes.dv);
    s.group = kvGroup(q, k);
    for (int64_t d : batchDims(k))
      s.kvBatch.push_back(kernelSize(d));
    s.additive = a.getKind() == ScoreKind::additive;
    s.causal = a.getCausal();
    s.window = a.getWindow().has_value();
    return s;
  }
  if (op->getNumResults() > 0)
    if (auto t = dyn_cast<RankedTensorType>(op->getResult(0).getType()); t && t.getRank() > 0)
      s.resultWidth = kernelSize(t.getShape().back());
  return s;
}

/// A schedule `op` carries, as the target runs it: an error, or the remarks of its rewrites.
FailureOr<ScheduleAttr> honour(Operation *op, ScheduleAttr given,
                               const kernel::TargetTraits &target) {
  schedule::HonouredSchedule h = schedule::honourSchedule(given.toSpec(), shapeOf(op), target);
  if (!h.error.empty())
    return op->emitError() << h.error;
  if (h.rewrites.empty())
    return given;
  for (const schedule::ScheduleRewrite &r : h.rewrites)
    op->emitRemark() << "schedule parameter '" << r.name << "' = " << r.from << " runs as " << r.to
                     << " (" << r.why << ")";
  return ScheduleAttr::get(op->getContext(), h.runs);
}

struct AttnSelectSchedulePass : impl::AttnSelectScheduleBase<AttnSelectSchedulePass> {
  using Base::Base;
  void runOnOperation() override {
    auto module = getOperation()->getParentOfType<ModuleOp>();
    auto target = module ? module->getAttrOfType<TargetAttr>(TargetAttr::kAttrName) : nullptr;
    if (!target) {
      getOperation().emitError()
          << "--attn-select-schedule: the module names no target: attach one with "
             "--attn-attach-target=\"target=...\" (the kernel tools attach their --target), or "
             "write 'module attributes {attn.target = #attn.target<...>}'";
      return signalPassFailure();
    }
    const kernel::TargetTraits traits = target.traits();
    bool refused = false;
    getOperation().walk([&](Operation *op) {
      if (!isa<AttnDialect>(op->getDialect()))
        return;
      auto given = op->getAttrOfType<ScheduleAttr>("schedule");
      if (given && !overwrite) {
        FailureOr<ScheduleAttr> runs = honour(op, given, traits);
        if (failed(runs))
          refused = true;
        else if (*runs != given)
          op->setAttr("schedule", *runs);
        return;
      }
      if (hasKernel(op))
        op->setAttr("schedule", ScheduleAttr::get(op->getContext(),
                                                  schedule::defaultSchedule(shapeOf(op), traits)));
    });
    if (refused)
      signalPassFailure();
  }
};

} // namespace

} // namespace attn
