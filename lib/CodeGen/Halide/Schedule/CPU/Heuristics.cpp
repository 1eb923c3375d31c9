//===- Heuristics.cpp - the default CPU schedules -------------------------===//
//
// The rules of docs/SCHEDULES.md ("CPU"), which gives the measurements behind each.
//
//===----------------------------------------------------------------------===//

#include "attn/CodeGen/Halide/Schedule/CPU.h"

#include <algorithm>

namespace attn::schedule::cpu {

using kernel::ScheduleSpec;
using kernel::TargetTraits;

namespace {

/// Key blocks of tiles of fewer rows than two vectors: `cap` keys, or all the keys when there are
/// fewer (a block is computed whole).
int64_t shortTileBlockKeys(int64_t cap, int64_t tk) {
  return isStatic(tk) ? blockKeys(cap, tk) : 1024;
}

/// Decode (fewer than 4 query rows per kv head: keys in the lanes). With fewer (batch, kv head)
/// tasks than threads, a query's key blocks run in parallel (split-K) and merge their states;
/// else one block of up to 2048 keys per task.
ScheduleSpec fusedDecode(int64_t rows, int64_t tk, int64_t tasks, int lanes, int64_t regV) {
  if (tasks < 4)
    return heuristicSchedule(rows, shortTileBlockKeys(1024, tk), lanes, rows, lanes, regV, 256, 1,
                             "tiles");
  return heuristicSchedule(rows, shortTileBlockKeys(2048, tk), lanes, rows, lanes, regV, 256, 0,
                           "tiles");
}

/// Prefill key blocks: 1024 keys keep a tile's scores and probabilities in L2, and a causal mask's
/// diagonal block is cut at the tile's last row; masks whose visited blocks are not cut (a window,
/// causal GQA) take 256, so that more blocks are skipped.
int64_t prefillBlockKeys(const OpShape &op) {
  int64_t blockK = 1024;
  if (op.window || (op.causal && op.group > 1))
    blockK = 256;
  return blockKeys(blockK, op.tk);
}

/// The Q.K^T register block's keys: 12 on AVX-512, 6 on AVX2, 3 for additive scores (a score costs
/// several operations per feature: no reuse needed); 8 on AVX-512 where 12 would pad the block by
/// more than 2%.
int64_t prefillRegK(bool additive, const TargetTraits &t, int64_t blockK) {
  int64_t regK = additive ? 3 : (t.avx512() ? 12 : 6);
  if (t.avx512() && (blockK + regK - 1) / regK * regK > blockK * 102 / 100)
    regK = 8;
  return regK;
}

/// K and V that stream from beyond the caches: more than 4 MB together, or above half the L2 of a
/// core with 2 MB or more (a feature-named target's L2 is unknown: --attn-attach-target's l2-kib
/// tells it).
bool kvStreams(const OpShape &op, const TargetTraits &t, bool *beyondCaches) {
  const bool kvKnown = isStatic(op.tk) && isStatic(op.dk) && isStatic(op.dv);
  const int64_t kvBytes = kvKnown ? op.tk * (op.dk + op.dv) * 4 : 0;
  *beyondCaches = kvBytes > (int64_t(4) << 20);
  const bool bigL2 = t.l2Bytes >= (int64_t(2) << 20);
  return *beyondCaches || (bigL2 && kvBytes > t.l2Bytes / 2);
}

/// Prefill: tiles of two vectors of query rows, a Q.K^T register block of 2 vectors x reg_k keys,
/// a P.V block of reg_q rows x reg_v vectors (AVX2's 16 registers: 6 x 2 where Dv is a whole number
/// of 2-vector blocks). Where K and V stream from memory, AVX2 takes tiles of 16 vectors of rows
/// and 256-key blocks; AVX-512 parallelizes over the tiles of a head as well, so that the threads
/// share one head's K and V, and groups tiles to take each key block in turn (as many as keep the
/// group's accumulators within 128 KB).
ScheduleSpec fusedPrefill(const OpShape &op, const TargetTraits &t, int64_t regV,
                          std::string parallel) {
  const int lanes = t.lanes;
  const int64_t rows = op.rows();
  int64_t blockK = prefillBlockKeys(op);
  int64_t regK = prefillRegK(op.additive, t, blockK);
  int64_t regQ = t.avx512() ? 4 : 2;
  if (!t.avx512() && isStatic(op.dv) && op.dv % (2 * lanes) == 0) {
    regQ = 6;
    regV = 2;
  }
  int64_t tileQ = 2 * lanes;
  bool beyondCaches = false;
  const bool streams = kvStreams(op, t, &beyondCaches);
  if (!t.avx512() && !op.additive && beyondCaches && (!isStatic(rows) || rows >= 16 * lanes)) {
    tileQ = 16 * lanes;
    blockK = std::min<int64_t>(blockK, 256);
  }
  if (t.avx512() && streams)
    parallel = "tiles";
  const bool groupTiles = t.avx512() && streams && !op.additive;
  int64_t groupQ = groupTiles ? 8 : 0;
  if (groupTiles && isStatic(op.dv) && op.dv > 0)
    groupQ = std::clamp<int64_t>((int64_t(128) << 10) / (tileQ * op.dv * 4), 8, 16);
  return heuristicSchedule(tileQ, blockK, lanes, regQ, regK, regV, 128, 0, parallel, groupQ);
}

} // namespace

ScheduleSpec fusedAttention(const OpShape &op, const TargetTraits &t) {
  // Additive scores on AVX-512 take AVX2's schedule, 8 lanes: their terms each have a reciprocal,
  // and Halide 14 has no 16-lane one (docs/SCHEDULES.md, "Additive scores").
  if (op.additive && t.avx512()) {
    TargetTraits eightLanes = t;
    eightLanes.lanes = 8;
    eightLanes.registers = TargetTraits::registersFor(8);
    return fusedAttention(op, eightLanes);
  }
  const int lanes = t.lanes;
  const int64_t rows = op.rows();
  int64_t regV = isStatic(op.dv) && op.dv % lanes == 0 ? std::min<int64_t>(4, op.dv / lanes) : 1;
  // Tasks: one per (batch, kv head) when there are enough of them, else one per query tile.
  int64_t tasks = 1;
  for (int64_t d : op.kvBatch)
    tasks = isStatic(d) ? tasks * d : 64;
  const std::string parallel = tasks >= 4 ? "heads" : "tiles";
  if (isStatic(rows) && rows < 4)
    return fusedDecode(rows, op.tk, tasks, lanes, regV);
  if (isStatic(rows) && rows < 2 * lanes) {
    // A few query rows per kv head (GQA decode, short prefill): one vector of rows per tile.
    return heuristicSchedule(lanes, shortTileBlockKeys(1024, op.tk), lanes, t.avx512() ? 4 : 2,
                             t.avx512() ? 12 : 6, regV, 128, 0, parallel);
  }
  return fusedPrefill(op, t, regV, parallel);
}

/// Every other op with a kernel: matmul-shaped stages get register blocks of reg_q rows x reg_v
/// vectors; tasks of tile_q rows. reg_v is 3, unless the result's width (x.W's N, the scores' Tk,
/// the weighted sum's Dv) is static, below kPackedOperandWidth and a multiple of the vector but
/// not of 3 vectors: then the largest of 2 and 1 vectors that divides it, so that no register
/// block is partial (a partial block reads its operand with a clamp per lane).
ScheduleSpec perOp(const OpShape &op, const TargetTraits &t) {
  const int64_t width = op.resultWidth;
  int64_t regV = 3;
  if (isStatic(width) && width < kPackedOperandWidth && width % t.lanes == 0 &&
      width % (3 * t.lanes) != 0)
    regV = width % (2 * t.lanes) == 0 ? 2 : 1;
  return heuristicSchedule(64, 0, t.lanes, t.avx512() ? 8 : 4, 0, regV, 0, 0, "tiles");
}

} // namespace attn::schedule::cpu
