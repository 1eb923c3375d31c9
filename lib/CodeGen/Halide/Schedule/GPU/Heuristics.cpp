//===- Heuristics.cpp - the default GPU schedules -------------------------===//
//
// The rules of docs/SCHEDULES.md ("GPU"), from the sweeps of bench/gpu/gen_sweep.py on an H200
// (docs/benchmarks-history.md gives the measurements).
//
//===----------------------------------------------------------------------===//

#include "attn/CodeGen/Halide/Schedule/GPU.h"

#include <algorithm>

namespace attn::schedule::gpu {

using kernel::ScheduleSpec;

namespace {

/// A GPU schedule: no vector width, P.V chunks or parallel dims of its own.
ScheduleSpec make(int64_t tileQ, int64_t blockK, int64_t regQ, int64_t regK, int64_t regV,
                  int64_t splitK) {
  return heuristicSchedule(tileQ, blockK, 0, regQ, regK, regV, 0, splitK, "");
}

/// The thread blocks per query tile: batch x kv heads, kernel::kDynamic where not static.
int64_t tasksOf(const OpShape &op) {
  int64_t tasks = 1;
  for (int64_t d : op.kvBatch)
    tasks = isStatic(tasks) && isStatic(d) ? tasks * d : kernel::kDynamic;
  return tasks;
}

} // namespace

/// Each thread computes a 4 x 2 register block of scores and a 4 x 4 block of P.V (4 x 8 at
/// Dv >= 128) over key blocks of 32 keys (a thread block of Dv / reg_v x tile_q / 4 threads).
/// tile_q is the largest of 32, 16, 8, 4 whose softmax state (3 x tile_q x Dv floats, in shared
/// memory) takes at most half of the 48 KiB a thread block may use, so that the K tile fits beside
/// it. At Dv <= 64 with fewer than 256 thread blocks the score and P.V blocks take 2 rows, which
/// doubles the threads of each. Decode (fewer than 4 query rows per kv head): split-K, a thread
/// block per 256 keys. Additive scores (a tanh per score and feature) keep tiles of 16 rows and
/// 2 x 2 score blocks.
ScheduleSpec fusedAttention(const OpShape &op) {
  const int64_t rows = op.rows(), dv = op.dv;
  if (isStatic(rows) && rows < 4)
    return make(rows, 256, 1, 1, 1, 1);
  if (op.additive)
    return make(16, 32, 2, 2, 4, 0);
  int64_t tileQ = kDefaultTileRows;
  if (isStatic(dv)) {
    tileQ = 32;
    while (tileQ > 4 && 3 * tileQ * dv * 4 > 24 * 1024)
      tileQ /= 2;
  }
  if (isStatic(rows)) // a short prefill: no tile larger than its rows (in whole register blocks)
    tileQ = std::min(tileQ, std::max<int64_t>(4, (rows + 3) / 4 * 4));
  const int64_t tasks = tasksOf(op);
  int64_t regQ = 4;
  if (isStatic(rows) && isStatic(tasks) && isStatic(dv) && dv <= 64 &&
      (rows + tileQ - 1) / tileQ * tasks < 256)
    regQ = 2;
  int64_t regV = !isStatic(dv) ? 4 : dv >= 128 ? 8 : std::min<int64_t>(4, dv);
  return make(tileQ, kDefaultBlockKeys, regQ, 2, regV, 0);
}

ScheduleSpec perOp() { return make(0, 0, 0, 0, 0, 0); }

} // namespace attn::schedule::gpu
