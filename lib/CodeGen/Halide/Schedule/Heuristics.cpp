//===- Heuristics.cpp - the default #attn.schedule of each target ---------===//

#include "attn/CodeGen/Halide/Schedule/Heuristics.h"
#include "attn/CodeGen/Halide/Schedule/CPU.h"
#include "attn/CodeGen/Halide/Schedule/GPU.h"

namespace attn::schedule {

kernel::ScheduleSpec defaultSchedule(const OpShape &op, const kernel::TargetTraits &target) {
  if (target.gpu)
    return op.attention ? gpu::fusedAttention(op) : gpu::perOp();
  return op.attention ? cpu::fusedAttention(op, target) : cpu::perOp(op, target);
}

HonouredSchedule honourSchedule(const kernel::ScheduleSpec &given, const OpShape &op,
                                const kernel::TargetTraits &target) {
  // A Halide autoscheduler schedules the whole pipeline itself; the GPU schedules check their
  // thread blocks when they compile.
  if (given.usesAutoscheduler() || target.gpu)
    return {"", {}, given};
  return cpu::honour(given, op, target);
}

} // namespace attn::schedule
