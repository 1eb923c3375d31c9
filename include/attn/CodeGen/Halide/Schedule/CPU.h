//===- CPU.h - what the CPU schedules know ----------------------*- C++ -*-===//
//
// One home for the CPU kernels' schedule knowledge that more than the schedule code needs: the
// heuristics (lib/CodeGen/Halide/Schedule/CPU/Heuristics.cpp), the limits a schedule must keep
// (Limits.cpp), and the shape rules by which the kernels take a parameter as another value, which
// the algorithm, the pass and the tuner apply alike. The schedule code is beside them
// (CpuSchedule.cpp, FusedAttention.cpp); docs/SCHEDULES.md gives the reasons and measurements.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_CODEGEN_HALIDE_SCHEDULE_CPU_H
#define ATTN_CODEGEN_HALIDE_SCHEDULE_CPU_H

#include "attn/CodeGen/Halide/Schedule/Heuristics.h"

namespace attn::schedule::cpu {

/// The fused kernel's tiles and key blocks without a schedule (an op lowered without
/// --attn-select-schedule).
constexpr int64_t kDefaultTileRows = 32;
constexpr int64_t kDefaultBlockKeys = 1024;

/// From this width on (rows of 3 KB and more), the schedules pack a matmul's contiguous operand per
/// column block, which also takes a partial last register block's clamped reads out of the register
/// block; below it, the heuristic picks register blocks without a partial last block.
constexpr int64_t kPackedOperandWidth = 768;

/// A schedule's bounds on a CPU: a vector spans at most kMaxVectorRegisters registers, a tile at
/// most kMaxTileVectors vectors of rows, a register block's accumulators kMaxRegisterFiles register
/// files.
constexpr int64_t kMaxVectorRegisters = 4;
constexpr int64_t kMaxTileVectors = 64;
constexpr int64_t kMaxRegisterFiles = 4;

/// The keys per block of the fused kernel: `blockK`, except where a static key count `tk` is
/// smaller, which one block of `tk` rounded up to 16 keys covers (`tk` negative: not known). A
/// block past the last key computes scores of keys that do not exist and masks them one by one.
inline int64_t blockKeys(int64_t blockK, int64_t tk) {
  if (tk < 0 || tk >= blockK)
    return blockK;
  int64_t rounded = tk < 16 ? 16 : (tk + 15) / 16 * 16;
  return rounded < blockK ? rounded : blockK;
}

/// The query rows per tile of the fused kernel with vectors of `lanes` floats: `tileQ`, rounded up
/// to whole vectors once it is more than one (a tile of at least a vector of rows is vectorized
/// over its rows, and the scores' register blocks cover whole vectors). Fewer rows than a vector
/// (decode tiles: keys in the lanes) stay as they are.
inline int64_t tileRows(int64_t tileQ, int64_t lanes) {
  if (tileQ <= lanes || lanes <= 0)
    return tileQ;
  return (tileQ + lanes - 1) / lanes * lanes;
}

/// The rows of the fused kernel's Q.K^T register block for tiles of `rows` rows (tileRows) and
/// vectors of `lanes`: two vectors of rows when the tile is a larger multiple of two vectors (the
/// block loops over the tile's row blocks), else the whole tile. Its accumulators are
/// (rows / lanes) x reg_k vectors.
inline int64_t scoreBlockRows(int64_t rows, int64_t lanes) {
  return rows > 2 * lanes && rows % (2 * lanes) == 0 ? 2 * lanes : rows;
}

/// The fused kernel's tile rows and key block for `s` (its defaults where unset), as the kernel
/// runs them.
inline FusedTiles fusedTiles(const kernel::ScheduleSpec &s, int64_t tk, int64_t lanes) {
  return {tileRows(s.tileQ > 0 ? s.tileQ : kDefaultTileRows, lanes),
          blockKeys(s.blockK > 0 ? s.blockK : kDefaultBlockKeys, tk)};
}

/// The heuristics (Heuristics.cpp).
kernel::ScheduleSpec fusedAttention(const OpShape &op, const kernel::TargetTraits &t);
kernel::ScheduleSpec perOp(const OpShape &op, const kernel::TargetTraits &t);

/// A given schedule on a CPU (Limits.cpp): an error beyond the target's registers and vectors, the
/// fused kernel's rewrites.
HonouredSchedule honour(const kernel::ScheduleSpec &given, const OpShape &op,
                        const kernel::TargetTraits &t);

} // namespace attn::schedule::cpu

#endif // ATTN_CODEGEN_HALIDE_SCHEDULE_CPU_H
