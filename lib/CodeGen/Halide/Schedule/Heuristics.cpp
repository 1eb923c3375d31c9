//===- Heuristics.cpp - the default #attn.schedule of each target ---------===//

#include "attn/CodeGen/Halide/Schedule/Heuristics.h"
#include "attn/CodeGen/Halide/Schedule/CPU.h"
#include "attn/CodeGen/Halide/Schedule/GPU.h"

namespace attn::schedule {

kernel::ScheduleSpec heuristicSchedule(int64_t tileQ, int64_t blockK, int64_t vector, int64_t regQ,
                                       int64_t regK, int64_t regV, int64_t chunkK, int64_t splitK,
                                       const std::string &parallel, int64_t groupQ) {
  kernel::ScheduleSpec s;
  s.tileQ = tileQ;
  s.blockK = blockK;
  s.vector = vector;
  s.regQ = regQ;
  s.regK = regK;
  s.regV = regV;
  s.chunkK = chunkK;
  s.splitK = splitK;
  s.groupQ = groupQ;
  s.parallel = parallel;
  s.scheduler = "hand";
  s.source = "heuristic";
  return s;
}

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
