//===- Schedule.h - how the kernels run -------------------------*- C++ -*-===//
//
// Schedules decide tiling, vectorization, parallelism and placement of the Funcs the algorithm
// built (lib/CodeGen/Halide/Algorithm), reading only the stage records (Stages.h). They never
// change what is computed. Each decision is written to a ScheduleLog, which `attn-compile
// --emit=schedule` saves.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_LIB_SCHEDULE_SCHEDULE_H
#define ATTN_LIB_SCHEDULE_SCHEDULE_H

#include "attn/CodeGen/Halide/Lowering.h"

#include <string>
#include <vector>

namespace attn::schedule {

/// A readable account of the schedule chosen for each op.
struct ScheduleLog {
  std::vector<std::string> lines;
  void add(std::string line) { lines.push_back(std::move(line)); }
  std::string text() const;
};

/// An #attn.schedule parameter, or the schedule's default when it is unset (0).
inline int param(int64_t value, int fallback) {
  return value > 0 ? static_cast<int>(value) : fallback;
}

/// The Func whose loops carry the fused kernel's tiles: its `res`, or a Func that reads res index
/// for index (a result's conversion, when the rows are one head's queries), which then computes the
/// kernel directly into its buffer. `e` is its contiguous dim, `r` its rows, `bk` the kv batch
/// dims.
struct FusedRoot {
  Halide::Func f;
  Halide::Var e, r;
  std::vector<Halide::Var> bk;
};
inline FusedRoot resRoot(const lowering::FusedAttentionStage &f) { return {f.res, f.e, f.r, f.bk}; }

/// The fused kernel's root, computed at root in tiles of the formulation's rows: `rt` the tile,
/// `rr` the row in it, `hb` the kv batch dims fused into one loop (undefined when there are none).
/// Shared by the CPU and the GPU schedules, which then parallelize or map these loops.
struct ResultTiles {
  Halide::Var rt, rr;
  Halide::VarOrRVar hb;
};
ResultTiles tileFusedResult(const lowering::FusedAttentionStage &f, const FusedRoot &root);

/// Fuses `bk` (innermost first) of a stage into one loop named after `prefix`; returns it
/// (undefined if `bk` is empty).
Halide::VarOrRVar fuseBatchDims(Halide::Stage s, const std::vector<Halide::Var> &bk,
                                const std::string &prefix);

/// CPU schedule parameters.
struct CpuParams {
  int lanes = 16;    // f32 vector lanes (16 on AVX-512, 8 on AVX2)
  int blockRows = 8; // rows of a register block
  int blockVecs = 3; // vectors of a register block along the contiguous dim
  int taskRows = 64; // rows per parallel task
};

/// Defaults for a target: register blocks sized to its vector register file.
CpuParams defaultCpuParams(const Halide::Target &target);

/// The fused attention kernel's CPU schedule (CPU/FusedAttention.cpp), its tiles in `root`'s loops.
void scheduleFusedAttentionCpu(lowering::FusedAttentionStage f, const FusedRoot &root,
                               const kernel::ScheduleSpec &spec, const CpuParams &defaults,
                               const std::string &owner, ScheduleLog &log);

/// Adds the CPU pipelines' lowering pass that writes a square block stored transposed (two dims
/// vectorized against the storage order) as a transpose in registers and dense stores
/// (CPU/TransposedStores.cpp) instead of a scatter.
void addTransposedStoresPass(Halide::Pipeline &pipeline);

/// Schedules every stage of `lf` for the CPU.
void scheduleCpu(lowering::LoweredFunction &lf, const CpuParams &params, ScheduleLog &log);

/// GPU schedule parameters (CUDA and OpenCL alike).
struct GpuParams {
  int threadsX = 16, threadsY = 16; // thread blocks of the per-op kernels
  int regRows = 4;                  // rows per thread of a per-op contraction (its register block)
  int sharedBytes = 48 * 1024;      // shared memory a fused kernel's thread block may use
  int maxThreads = 1024;            // threads a thread block may have (CUDA's limit, OpenCL GPUs')
};

/// Defaults for a GPU target.
GpuParams defaultGpuParams(const Halide::Target &target);

/// The fused attention kernel's GPU schedule (GPU/FusedAttention.cpp).
void scheduleFusedAttentionGpu(lowering::FusedAttentionStage f, const kernel::ScheduleSpec &spec,
                               const GpuParams &defaults, const std::string &owner,
                               ScheduleLog &log);

/// Schedules every stage of `lf` for a GPU target (GPU/GpuSchedule.cpp).
void scheduleGpu(lowering::LoweredFunction &lf, const GpuParams &params, ScheduleLog &log);

} // namespace attn::schedule

#endif // ATTN_LIB_SCHEDULE_SCHEDULE_H
