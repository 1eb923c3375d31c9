//===- GPU.h - what the GPU schedules know ----------------------*- C++ -*-===//
//
// One home for the GPU kernels' schedule knowledge that more than the schedule code needs: the
// heuristic (lib/CodeGen/Halide/Schedule/GPU/Heuristics.cpp) and the fused kernel's defaults. The
// schedule code is beside it (GpuSchedule.cpp, FusedAttention.cpp); docs/SCHEDULES.md and
// docs/GPU.md give the reasons and measurements.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_CODEGEN_HALIDE_SCHEDULE_GPU_H
#define ATTN_CODEGEN_HALIDE_SCHEDULE_GPU_H

#include "attn/CodeGen/Halide/Schedule/Heuristics.h"

namespace attn::schedule::gpu {

/// The fused kernel's query rows per thread block and keys per shared-memory K/V tile, where a
/// schedule leaves them unset.
constexpr int64_t kDefaultTileRows = 16;
constexpr int64_t kDefaultBlockKeys = 32;

/// The fused kernel's tile rows and key block for `s`.
inline FusedTiles fusedTiles(const kernel::ScheduleSpec &s) {
  return {s.tileQ > 0 ? s.tileQ : kDefaultTileRows, s.blockK > 0 ? s.blockK : kDefaultBlockKeys};
}

/// The heuristics (Heuristics.cpp). The other ops' GPU kernels take their thread blocks from the
/// schedule code: their schedule is empty.
kernel::ScheduleSpec fusedAttention(const OpShape &op);
kernel::ScheduleSpec perOp();

} // namespace attn::schedule::gpu

#endif // ATTN_CODEGEN_HALIDE_SCHEDULE_GPU_H
