//===- Heuristics.h - the default #attn.schedule of each target -*- C++ -*-===//
//
// The entry to each target family's schedule knowledge (CPU.h, GPU.h): the schedule
// --attn-select-schedule gives an op from its static shapes, and what becomes of a schedule an op
// carries already. Plain C++ (no MLIR, no Halide): the dialect's pass, the tuner and the lowering
// all ask here, and the documented rules (docs/SCHEDULES.md) live in one place per target.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_CODEGEN_HALIDE_SCHEDULE_HEURISTICS_H
#define ATTN_CODEGEN_HALIDE_SCHEDULE_HEURISTICS_H

#include "attn/Kernel/KernelSpec.h"
#include "attn/Kernel/TargetTraits.h"

#include <string>
#include <vector>

namespace attn::schedule {

/// Whether a size of an OpShape is static (kernel::kDynamic is not).
inline bool isStatic(int64_t size) { return size >= 0; }

/// An op as the heuristics see it. Sizes are kernel::kDynamic where not static.
struct OpShape {
  bool attention = false;   // the fused attention kernel (attn.attention)
  int64_t resultWidth = -1; // other ops: the last dim of the first result (-1: none, unknown)
  int64_t tq = -1, tk = -1, dk = -1, dv = -1;
  int64_t group = 1;            // query heads per kv head (GQA); 1 where not known
  std::vector<int64_t> kvBatch; // the key's batch dims (batch, kv heads)
  bool additive = false, causal = false, window = false;
  /// Query rows per kv head: the rows the fused kernel's tiles cover.
  int64_t rows() const { return isStatic(tq) ? group * tq : kernel::kDynamic; }
};

/// The fused kernel's query rows per tile and keys per block, as a target's kernel takes a schedule
/// (cpu::fusedTiles, gpu::fusedTiles).
struct FusedTiles {
  int64_t tileRows, blockKeys;
};

/// A schedule a heuristic chose: these parameters (0: the target's default), scheduler "hand",
/// source "heuristic".
kernel::ScheduleSpec heuristicSchedule(int64_t tileQ, int64_t blockK, int64_t vector, int64_t regQ,
                                       int64_t regK, int64_t regV, int64_t chunkK, int64_t splitK,
                                       const std::string &parallel, int64_t groupQ = 0);

/// The heuristic schedule of an op.
kernel::ScheduleSpec defaultSchedule(const OpShape &op, const kernel::TargetTraits &target);

/// A parameter of a given schedule that the target's kernel takes as another value, with why.
struct ScheduleRewrite {
  std::string name; // the parameter, as #attn.schedule writes it
  int64_t from, to;
  std::string why;
};

/// A schedule an op carries already (hand-written or tuned), as the target runs it.
struct HonouredSchedule {
  std::string error; // a parameter beyond what the target has, naming the values that work
  std::vector<ScheduleRewrite> rewrites;
  kernel::ScheduleSpec runs; // `given` with the rewrites applied
};
HonouredSchedule honourSchedule(const kernel::ScheduleSpec &given, const OpShape &op,
                                const kernel::TargetTraits &target);

} // namespace attn::schedule

#endif // ATTN_CODEGEN_HALIDE_SCHEDULE_HEURISTICS_H
