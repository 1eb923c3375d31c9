//===- ScheduleHeuristics.cpp - the default #attn.schedule ----------------===//
//
// Numbers here were measured on AMD Zen 5 (AVX-512, 1 MB L2 per core) unless they name Zen 3 (AVX2,
// 512 KB L2 per core), Zen 4 (AVX-512 in two 256-bit passes) or the Intel Xeon guest (AVX-512, 2 MB
// L2 per core); see docs/SCHEDULES.md.
//
//===----------------------------------------------------------------------===//

#include "attn/Dialect/Attn/Transforms/ScheduleHeuristics.h"
#include "attn/Dialect/Attn/IR/AttnShapes.h"
#include "attn/Kernel/KernelSpec.h"

#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>

using namespace mlir;

namespace attn {

namespace {

bool known(int64_t size) { return !ShapedType::isDynamic(size); }

ScheduleAttr make(MLIRContext *ctx, int64_t tileQ, int64_t blockK, int64_t vector, int64_t regQ,
                  int64_t regK, int64_t regV, int64_t chunkK, int64_t splitK, StringRef parallel,
                  int64_t groupQ = 0) {
  return ScheduleAttr::get(ctx, tileQ, blockK, vector, regQ, regK, regV, chunkK, splitK, groupQ,
                           parallel, "hand", "heuristic");
}

/// The fused attention kernel on a GPU (lib/CodeGen/Halide/Schedule/GPU/FusedAttention.cpp), from
/// the sweeps of bench/gpu/gen_sweep.py on an H200 (docs/benchmarks-history.md, 2026-11-30 and
/// 2026-12-04, the latter with the JIT's register cap lifted). Each thread computes a 4 x 2
/// register block of scores and a 4 x 4 block of P.V (4 x 8 at Dv >= 128) over key blocks of 32
/// keys (a thread block of Dv / reg_v x tile_q / 4 threads). tile_q is the largest of 32, 16, 8, 4
/// whose softmax state (3 x tile_q x Dv floats, in shared memory) takes at most half of the 48 KiB
/// a thread block may use, so that the K tile fits beside it: 32 at D = 64, 16 at D = 128. Against
/// the previous default (16 rows, 2 x 2 and 2 x 4 blocks) this was 1.2-1.8x faster at D = 64
/// and 1.06-1.12x at D = 128; P.V blocks of 4 x 8 were 1.07-1.15x faster than 4 x 4 at D = 128
/// and 1.35-1.5x slower at D = 64. At Dv <= 64 with fewer than 256 thread blocks (`tasks`: batch x
/// kv heads, when known) the score and P.V blocks take 2 rows, which doubles the threads of
/// each: 1.12x at S = 512 (128 thread blocks); 0.94x at S = 1024 (256) and 0.8x at B = 4, H = 12, S
/// = 256 (384). Decode (fewer than 4 query rows per kv head): split-K, a thread block per 256 keys
/// (1.23-1.28x faster than 128 at Tk = 2048, 2026-12-04; 512 the same as 256, 64 slower). Additive
/// scores (a tanh per score and feature) keep tiles of 16 rows and 2 x 2 score blocks: 32-row tiles
/// made additive-S512 1.6x slower.
ScheduleAttr fusedAttentionGpu(MLIRContext *ctx, int64_t rows, int64_t dv, int64_t tasks,
                               bool additive) {
  if (known(rows) && rows < 4)
    return ScheduleAttr::get(ctx, rows, 256, 0, 1, 1, 1, 0, 1, 0, "", "hand", "heuristic");
  if (additive)
    return ScheduleAttr::get(ctx, 16, 32, 0, 2, 2, 4, 0, 0, 0, "", "hand", "heuristic");
  int64_t tileQ = 16;
  if (known(dv)) {
    tileQ = 32;
    while (tileQ > 4 && 3 * tileQ * dv * 4 > 24 * 1024)
      tileQ /= 2;
  }
  if (known(rows)) // a short prefill: no tile larger than its rows (in whole register blocks)
    tileQ = std::min(tileQ, std::max<int64_t>(4, (rows + 3) / 4 * 4));
  int64_t regQ = 4;
  if (known(rows) && known(tasks) && known(dv) && dv <= 64 &&
      (rows + tileQ - 1) / tileQ * tasks < 256)
    regQ = 2;
  int64_t regV = !known(dv) ? 4 : dv >= 128 ? 8 : std::min<int64_t>(4, dv);
  return ScheduleAttr::get(ctx, tileQ, 32, 0, regQ, 2, regV, 0, 0, 0, "", "hand", "heuristic");
}

/// Query heads that share a kv head (GQA): processed together, rows = group * Tq per kv head.
int64_t kvGroup(RankedTensorType q, RankedTensorType k) {
  if (q.getRank() < 3)
    return 1;
  int64_t hq = q.getDimSize(q.getRank() - 3), hk = k.getDimSize(k.getRank() - 3);
  return known(hq) && known(hk) ? hq / hk : 1;
}

/// Key blocks of tiles of fewer rows than two vectors: `cap` keys, or all the keys when there are
/// fewer (a block is computed whole: 1024-key blocks made a Tk = 128 decode cost 8x its work).
int64_t shortTileBlockKeys(int64_t cap, int64_t tk) {
  return known(tk) ? kernel::cpuBlockKeys(cap, tk) : 1024;
}

/// Decode (fewer than 4 query rows per kv head: keys in the lanes). With fewer (batch, kv head)
/// tasks than threads, a query's key blocks run in parallel (split-K) and merge their states;
/// else one block of up to 2048 keys per task (docs/SCHEDULES.md, "Decode").
ScheduleAttr fusedDecodeCpu(MLIRContext *ctx, int64_t rows, int64_t tk, int64_t tasks, int lanes,
                            int64_t regV) {
  auto blockK = [&](int64_t cap) { return shortTileBlockKeys(cap, tk); };
  if (tasks < 4)
    return make(ctx, rows, blockK(1024), lanes, rows, lanes, regV, 256, 1, "tiles");
  return make(ctx, rows, blockK(2048), lanes, rows, lanes, regV, 256, 0, "tiles");
}

/// Prefill key blocks: 1024 keys keep a tile's scores and probabilities in L2, and a causal mask's
/// diagonal block is cut at the tile's last row; masks whose visited blocks are not cut (a window,
/// causal GQA) take 256, so that more blocks are skipped.
int64_t prefillBlockKeys(AttentionOp op, int64_t group, int64_t tk) {
  int64_t blockK = 1024;
  if (op.getWindow().has_value() || (op.getCausal() && group > 1))
    blockK = 256;
  return kernel::cpuBlockKeys(blockK, tk);
}

/// The Q.K^T register block's keys: 12 on AVX-512, 6 on AVX2, 3 for additive scores (a score costs
/// several operations per feature: no reuse needed); 8 on AVX-512 where 12 would pad the block by
/// more than 2%.
int64_t prefillRegK(bool additive, const TargetTraits &t, int64_t blockK) {
  int64_t regK = additive ? 3 : (t.avx512 ? 12 : 6);
  if (t.avx512 && (blockK + regK - 1) / regK * regK > blockK * 102 / 100)
    regK = 8;
  return regK;
}

/// K and V that stream from beyond the caches (docs/SCHEDULES.md, "Long keys"): more than 4 MB
/// together, or above half the L2 of a core with 2 MB or more (a feature-named target's L2 is
/// unknown: `l2-kib` tells it).
bool kvStreams(const AttentionSizes &s, const TargetTraits &t, bool *beyondCaches) {
  const bool kvKnown = known(s.tk) && known(s.dk) && known(s.dv);
  const int64_t kvBytes = kvKnown ? s.tk * (s.dk + s.dv) * 4 : 0;
  *beyondCaches = kvBytes > (int64_t(4) << 20);
  const bool bigL2 = t.l2Bytes >= (int64_t(2) << 20);
  return *beyondCaches || (bigL2 && kvBytes > t.l2Bytes / 2);
}

/// Prefill on a CPU: tiles of two vectors of query rows, a Q.K^T register block of 2 vectors x
/// reg_k keys, a P.V block of reg_q rows x reg_v vectors (AVX2's 16 registers: 6 x 2 where Dv is
/// a whole number of 2-vector blocks). Where K and V stream from memory, AVX2 takes tiles of 16
/// vectors of rows and 256-key blocks; AVX-512 parallelizes over the tiles of a head as well, so
/// that the threads share one head's K and V, and groups tiles to take each key block in turn
/// (as many as keep the group's accumulators within 128 KB).
ScheduleAttr fusedPrefillCpu(AttentionOp op, const TargetTraits &t, const AttentionSizes &s,
                             int64_t rows, int64_t group, int64_t regV, StringRef parallel) {
  const int lanes = t.lanes;
  const bool additive = op.getKind() == ScoreKind::additive;
  int64_t blockK = prefillBlockKeys(op, group, s.tk);
  int64_t regK = prefillRegK(additive, t, blockK);
  int64_t regQ = t.avx512 ? 4 : 2;
  if (!t.avx512 && known(s.dv) && s.dv % (2 * lanes) == 0) {
    regQ = 6;
    regV = 2;
  }
  int64_t tileQ = 2 * lanes;
  bool beyondCaches = false;
  const bool streams = kvStreams(s, t, &beyondCaches);
  if (!t.avx512 && !additive && beyondCaches && (!known(rows) || rows >= 16 * lanes)) {
    tileQ = 16 * lanes;
    blockK = std::min<int64_t>(blockK, 256);
  }
  if (t.avx512 && streams)
    parallel = "tiles";
  const bool groupTiles = t.avx512 && streams && !additive;
  int64_t groupQ = groupTiles ? 8 : 0;
  if (groupTiles && known(s.dv) && s.dv > 0)
    groupQ = std::clamp<int64_t>((int64_t(128) << 10) / (tileQ * s.dv * 4), 8, 16);
  return make(op.getContext(), tileQ, blockK, lanes, regQ, regK, regV, 128, 0, parallel, groupQ);
}

/// The fused attention kernel.
ScheduleAttr fusedAttention(AttentionOp op, const TargetTraits &t) {
  auto q = cast<RankedTensorType>(op.getQuery().getType());
  auto k = cast<RankedTensorType>(op.getKey().getType());
  auto v = cast<RankedTensorType>(op.getValue().getType());
  AttentionSizes s = getAttentionSizes(q, k, v);
  const int64_t group = kvGroup(q, k);
  const int64_t rows = known(s.tq) ? group * s.tq : ShapedType::kDynamic;
  if (t.gpu) {
    int64_t tasks = 1; // batch x kv heads: the thread blocks per query tile
    for (int64_t d : k.getShape().drop_back(2))
      tasks = known(tasks) && known(d) ? tasks * d : ShapedType::kDynamic;
    return fusedAttentionGpu(op.getContext(), rows, s.dv, tasks,
                             op.getKind() == ScoreKind::additive);
  }
  // Additive scores on AVX-512 take AVX2's schedule, 8 lanes: their terms each have a reciprocal,
  // and Halide 14 has no 16-lane one (docs/SCHEDULES.md, "Additive scores").
  if (op.getKind() == ScoreKind::additive && t.avx512) {
    TargetTraits eightLanes = t;
    eightLanes.avx512 = false;
    eightLanes.lanes = 8;
    return fusedAttention(op, eightLanes);
  }
  const int lanes = t.lanes;
  int64_t regV = known(s.dv) && s.dv % lanes == 0 ? std::min<int64_t>(4, s.dv / lanes) : 1;
  // Tasks: one per (batch, kv head) when there are enough of them, else one per query tile.
  int64_t tasks = 1;
  for (int64_t d : batchDims(k))
    tasks = known(d) ? tasks * d : 64;
  StringRef parallel = tasks >= 4 ? "heads" : "tiles";
  if (known(rows) && rows < 4)
    return fusedDecodeCpu(op.getContext(), rows, s.tk, tasks, lanes, regV);
  if (known(rows) && rows < 2 * lanes) {
    // A few query rows per kv head (GQA decode, short prefill): one vector of rows per tile.
    return make(op.getContext(), lanes, shortTileBlockKeys(1024, s.tk), lanes, t.avx512 ? 4 : 2,
                t.avx512 ? 12 : 6, regV, 128, 0, parallel);
  }
  return fusedPrefillCpu(op, t, s, rows, group, regV, parallel);
}

/// Every other op with a kernel: matmul-shaped stages get register blocks of reg_q rows x reg_v
/// vectors; tasks of tile_q rows. reg_v is 3, unless the result's width (its last dim: x.W's N, the
/// scores' Tk, the weighted sum's Dv) is static, below kernel::kPackedOperandWidth (768) and a
/// multiple of the vector but not of 3 vectors: then the largest of 2 and 1 vectors that divides
/// it. A partial last register block reads its operand with a clamp per lane (a gather): with
/// blocks of 3 vectors, x.W of 512 rows took 1.29x the time of 2-vector blocks at N = 512 and 3.5x
/// that of 1-vector blocks at N = 80. From 768 on the partial block is at most one in 16 (N = 1024:
/// 3 vectors took 0.86 of 2's time), and lib/CodeGen/Halide/Schedule packs such wide operands,
/// which moves the clamps into the packing copy.
int64_t perOpRegV(Operation *op, const TargetTraits &t) {
  if (op->getNumResults() == 0)
    return 3;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || type.getRank() == 0)
    return 3;
  int64_t width = type.getShape().back();
  if (!known(width) || width >= kernel::kPackedOperandWidth || width % t.lanes != 0 ||
      width % (3 * t.lanes) == 0)
    return 3;
  return width % (2 * t.lanes) == 0 ? 2 : 1;
}

ScheduleAttr perOp(Operation *op, const TargetTraits &t) {
  if (t.gpu) // GPU kernels of the other ops take their thread blocks from
             // lib/CodeGen/Halide/Schedule/GPU
    return ScheduleAttr::get(op->getContext(), 0, 0, 0, 0, 0, 0, 0, 0, 0, "", "hand", "heuristic");
  return make(op->getContext(), 64, 0, t.lanes, t.avx512 ? 8 : 4, 0, perOpRegV(op, t), 0, 0,
              "tiles");
}

} // namespace

ScheduleAttr chooseSchedule(Operation *op, const TargetTraits &target) {
  return llvm::TypeSwitch<Operation *, ScheduleAttr>(op)
      .Case([&](AttentionOp a) { return fusedAttention(a, target); })
      .Case<ScoreOp, MaskOp, SoftmaxOp, WeightedSumOp, MultiHeadOp, LinearOp>(
          [&](Operation *o) { return perOp(o, target); })
      .Default([](Operation *) { return ScheduleAttr(); });
}

} // namespace attn
