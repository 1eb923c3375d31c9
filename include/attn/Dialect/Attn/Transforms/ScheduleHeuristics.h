//===- ScheduleHeuristics.h - the default #attn.schedule --------*- C++ -*-===//
//
// The documented heuristics of --attn-select-schedule (docs/SCHEDULES.md): a schedule from an op's
// static shapes and the target. The autotuner searches around what these return.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_DIALECT_ATTN_TRANSFORMS_SCHEDULEHEURISTICS_H
#define ATTN_DIALECT_ATTN_TRANSFORMS_SCHEDULEHEURISTICS_H

#include "attn/Dialect/Attn/IR/AttnDialect.h"
#include "attn/Dialect/Attn/Transforms/Passes.h"

namespace attn {

/// The heuristic schedule of an attn op, or null for ops without a kernel of their own (views).
ScheduleAttr chooseSchedule(mlir::Operation *op, const TargetTraits &target);

} // namespace attn

#endif // ATTN_DIALECT_ATTN_TRANSFORMS_SCHEDULEHEURISTICS_H
