//===- Schedule.h - how the kernels run -------------------------*- C++ -*-===//
//
// Schedules decide tiling, vectorization, parallelism and placement of the Funcs the algorithm built
// (lib/Conversion/AttnToHalide), reading only the stage records (Stages.h). They never change what is
// computed. Each decision is written to a ScheduleLog, which `attn-compile --emit=schedule` saves.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_LIB_SCHEDULE_SCHEDULE_H
#define ATTN_LIB_SCHEDULE_SCHEDULE_H

#include "Lowering.h"

#include <string>
#include <vector>

namespace attn::schedule {

/// A readable account of the schedule chosen for each op.
struct ScheduleLog {
  std::vector<std::string> lines;
  void add(std::string line) { lines.push_back(std::move(line)); }
  std::string text() const;
};

/// CPU schedule parameters.
struct CpuParams {
  int lanes = 16;     // f32 vector lanes (16 on AVX-512, 8 on AVX2)
  int blockRows = 8;  // rows of a register block
  int blockVecs = 3;  // vectors of a register block along the contiguous dim
  int taskRows = 64;  // rows per parallel task
};

/// Defaults for a target: register blocks sized to its vector register file.
CpuParams defaultCpuParams(const Halide::Target &target);

/// The fused attention kernel's CPU schedule (CPU/FusedAttention.cpp).
void scheduleFusedAttentionCpu(lowering::FusedAttentionStage f, const kernel::ScheduleSpec &spec,
                               const CpuParams &defaults, const std::string &owner,
                               ScheduleLog &log);

/// Schedules every stage of `lf` for the CPU.
void scheduleCpu(lowering::LoweredFunction &lf, const CpuParams &params, ScheduleLog &log);

} // namespace attn::schedule

#endif // ATTN_LIB_SCHEDULE_SCHEDULE_H
