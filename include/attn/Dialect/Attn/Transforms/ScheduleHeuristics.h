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

/// `s`, a schedule `op` carries already (hand-written or tuned), as `target` runs it: an error on
/// `op` for a parameter beyond what the target has (naming the values that work); the parameters a
/// CPU fused kernel takes as other values (kernel/KernelSpec.h: tiles of whole vectors of rows, a
/// key block no larger than the keys, a P.V block no taller than the tile) rewritten to them, each
/// with a remark (ScheduleLimits.cpp).
mlir::FailureOr<ScheduleAttr> honourSchedule(mlir::Operation *op, ScheduleAttr s,
                                             const TargetTraits &target);

} // namespace attn

#endif // ATTN_DIALECT_ATTN_TRANSFORMS_SCHEDULEHEURISTICS_H
