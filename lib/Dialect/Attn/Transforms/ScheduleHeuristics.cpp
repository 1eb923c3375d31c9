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

/// The fused attention kernel.
ScheduleAttr fusedAttention(AttentionOp op, const TargetTraits &t) {
  auto q = cast<RankedTensorType>(op.getQuery().getType());
  auto k = cast<RankedTensorType>(op.getKey().getType());
  auto v = cast<RankedTensorType>(op.getValue().getType());
  AttentionSizes s = getAttentionSizes(q, k, v);
  int lanes = t.lanes;
  // Query heads that share a kv head are processed together: rows = group * Tq per kv head.
  int64_t group = 1;
  if (q.getRank() >= 3) {
    int64_t hq = q.getDimSize(q.getRank() - 3), hk = k.getDimSize(k.getRank() - 3);
    if (known(hq) && known(hk))
      group = hq / hk;
  }
  int64_t rows = known(s.tq) ? group * s.tq : ShapedType::kDynamic;
  if (t.gpu) {
    int64_t tasks = 1; // batch x kv heads: the thread blocks per query tile
    for (int64_t d : k.getShape().drop_back(2))
      tasks = known(tasks) && known(d) ? tasks * d : ShapedType::kDynamic;
    return fusedAttentionGpu(op.getContext(), rows, s.dv, tasks,
                             op.getKind() == ScoreKind::additive);
  }
  // Additive scores on AVX-512 are scheduled as on AVX2, in vectors of 8 lanes: their terms are
  // tanhOfSumTerm's, each with a reciprocal, and Halide 14 has no 16-lane one (it splits
  // fast_inverse into two 8-lane rcpps, with a vextract and a vinsert each). On Zen 4 (whose
  // 512-bit operations take two 256-bit passes) the 8-lane kernel took 0.79 / 0.83 of the 16-lane
  // split form's time on one / two threads, and 0.50 of the 16-lane rational's (additive-S512,
  // bench/ab, 2026-12-01); 4 or 6 keys, 24- or 32-row tiles and 4 x 4 P.V blocks were within 3%
  // of AVX2's layout. (Not measured on Zen 5, whose 16-lane rational ran 7.5-8.2 G tanh/s.)
  if (op.getKind() == ScoreKind::additive && t.avx512) {
    TargetTraits eightLanes = t;
    eightLanes.avx512 = false;
    eightLanes.lanes = 8;
    return fusedAttention(op, eightLanes);
  }
  int64_t regV = known(s.dv) && s.dv % lanes == 0 ? std::min<int64_t>(4, s.dv / lanes) : 1;
  // Tasks: one per (batch, kv head) when there are enough of them, else one per query tile.
  int64_t tasks = 1;
  for (int64_t d : batchDims(k))
    tasks = known(d) ? tasks * d : 64;
  StringRef parallel = tasks >= 4 ? "heads" : "tiles";

  // Tiles of fewer rows than two vectors take blocks of `cap` keys, or all the keys when there are
  // fewer (a block is computed whole: 1024-key blocks made a Tk = 128 decode cost 8x its work).
  auto shortTileBlockK = [&](int64_t cap) {
    return known(s.tk) ? kernel::cpuBlockKeys(cap, s.tk) : 1024;
  };
  if (known(rows) && rows < 4) {
    // Decode: too few query rows for a vector of rows. Keys go in the lanes (scores are dot
    // products vectorized along the feature dim). With fewer (batch, kv head) tasks than threads,
    // the key blocks of a query run in parallel (split-K) and merge their softmax states.
    if (tasks < 4)
      return make(op.getContext(), rows, shortTileBlockK(1024), lanes, rows, lanes, regV, 256, 1,
                  "tiles");
    // With a task per (batch, kv head), up to 2048 keys in one block (no merge of block states) and
    // tasks per tile, whose buffers are not hoisted: B = 8 H = 8 Tk = 2048 ran 1.09-1.15x faster
    // than with blocks of 1024 and tasks per head (attn-bench pairs, JIT, one and two threads,
    // 2026-11-30; the tuner's pick there), with neither change alone 1.01-1.03x; AOT builds of the
    // two alternated in one program ran within 1.5% of each other.
    return make(op.getContext(), rows, shortTileBlockK(2048), lanes, rows, lanes, regV, 256, 0,
                "tiles");
  }
  if (known(rows) && rows < 2 * lanes) {
    // A few query rows per kv head (GQA decode, short prefill): one vector of rows per tile.
    return make(op.getContext(), lanes, shortTileBlockK(1024), lanes, t.avx512 ? 4 : 2,
                t.avx512 ? 12 : 6, regV, 128, 0, parallel);
  }
  // Prefill: tiles of two vectors of query rows; a Q.K^T register block of 2 vectors x reg_k keys
  // (24 of 32 registers on AVX-512), a P.V block of reg_q rows x reg_v vectors. Key blocks of 1024
  // keep the tile's scores and probabilities (2 x 32 x 1024 x 4 bytes) in L2. A causal mask with
  // one query head per kv head keeps them: its diagonal block is cut at the tile's last row, so a
  // larger block wastes nothing there and costs fewer per-block softmax steps (S = 2048 causal: 512
  // ran 2-3% faster than 256, and 1024 0-2% faster than 512, median 1.01x; AOT builds alternated,
  // 2026-11-29 and -30).
  // Masks whose visited blocks are not cut use smaller ones, so that more are skipped: 256 for a
  // window (its first visited block is not cut) and for causal GQA.
  int64_t blockK = 1024;
  if (op.getWindow().has_value() || (op.getCausal() && group > 1))
    blockK = 256;
  blockK = kernel::cpuBlockKeys(blockK, s.tk);
  // Additive scores (on AVX2's schedule here, AVX-512 included: above): 2 vectors x 3 keys. A
  // score costs a few operations per feature (tanhOfSumTerm's four and a reciprocal, each with its
  // temporaries), so the block needs no reuse: 4 keys took 1.09x the time of 3 (Zen 3, one
  // thread, bench/ab, 2026-12-01).
  bool additive = op.getKind() == ScoreKind::additive;
  int64_t regK = additive ? 3 : (t.avx512 ? 12 : 6);
  // The block's keys are computed in whole register blocks: 12 keys pad a block of 256 to 264 (3%
  // more work; B = 4 H = 12 S = 256 ran 1.015-1.02x faster with 8, AOT builds alternated, one and
  // two threads, 2026-11-30). 8 divides every block the rules above pick; at 512 and 1024 keys
  // (0.8% padding with 12) the two were within 1% of each other.
  if (t.avx512 && (blockK + regK - 1) / regK * regK > blockK * 102 / 100)
    regK = 8;
  // P.V: 4 rows x 4 vectors on AVX-512 (16 of 32 registers). AVX2 has 16 registers: 6 rows x 2
  // vectors, 12 accumulators beside 2 vectors of V and a broadcast (the tile's 16 rows in blocks of
  // 6, 6 and 4), when Dv is a whole number of 2-vector blocks. Its 2 x 4 blocks (8 accumulators, as
  // many as 4-cycle FMAs on 2 pipes need, no slack) ran the P.V loop at 0.7 of the Q.K^T loop's
  // speed per flop; 6 x 2: S = 512 / 1024 / 2048 0.906 / 0.877 / 0.848 of the time, D = 128
  // 0.912 (Zen 3, one thread, bench/ab, 2026-11-30; docs/SCHEDULES.md).
  int64_t regQ = t.avx512 ? 4 : 2;
  if (!t.avx512 && known(s.dv) && s.dv % (2 * lanes) == 0) {
    regQ = 6;
    regV = 2;
  }
  // Every tile streams its kv head's K and V once: a tile of R rows does R / 2 flops per byte of
  // them. When they outgrow the caches (more than 4 MB together) AVX2's 16-row tiles wait on
  // memory (Zen 3, S = 16384, D = 64: 36% of peak, the first P.V row block 5x the time of the
  // next); tiles of 16 vectors (128 rows, in Q.K^T register blocks of 2 vectors) and key blocks of
  // 256 (the tile's scores and probabilities stay at 256 KB) took ~0.67 of the time on one thread
  // (pairs: 64 rows against 16 0.717, 128 against 64 0.928), 32 rows 0.79 (bench/ab, 2026-11-30).
  // Not measured on AVX-512, whose 32-row tiles reached 80% of peak there (Zen 5).
  int64_t tileQ = 2 * lanes;
  const bool kvKnown = known(s.tk) && known(s.dk) && known(s.dv);
  const int64_t kvBytes = kvKnown ? s.tk * (s.dk + s.dv) * 4 : 0;
  const bool kvOutgrowsCaches = kvBytes > (int64_t(4) << 20);
  if (!t.avx512 && !additive && kvOutgrowsCaches && (!known(rows) || rows >= 16 * lanes)) {
    tileQ = 16 * lanes;
    blockK = std::min<int64_t>(blockK, 256);
  }
  // On AVX-512 such K and V are shared by the threads instead: parallel over the tiles of a kv head
  // as well as over heads, the threads take tiles of the same head (Halide's pool runs the newest
  // job first), so one head's K and V are in L3 at a time rather than one per thread. S = 16384,
  // D = 64 on Zen 4 (8 MB per head, 32 MB of L3), two threads: 0.889 of the time of tasks per
  // head (bench/ab, 2026-12-01); at S = 4096 (2 MB) 1.017, no gain.
  // Where each core has an L2 of 2 MB or more (the Intel Xeon guest: AMX-capable cores, 2 MB of L2
  // each), K and V already stream too slowly from beyond L2 once they are above
  // half of it: tiles in groups (below) took 0.876-0.939 of the time at 2 MB (S = 4096 at D = 64,
  // S = 2048 at D = 128 and its GQA4; one and two threads) and 0.895 at 4 MB (S = 4096, D = 128),
  // but 1.001 at 1 MB (S = 2048, D = 64); with groups, the tiles of a head in parallel too ran as
  // fast as tasks per head (S = 4096, two threads: 0.893 and 0.895 of the time of neither;
  // bench/ab, 2026-12-02). AMD's cores have 1 MB (Zen 4, Zen 5) and keep the 4 MB rule; so does a
  // target named by its features (its machine's L2 is not known:
  // `--attn-select-schedule="l2-kib=..."` tells it).
  const bool bigL2 = t.l2Bytes >= (int64_t(2) << 20);
  const bool kvBeyondL2 = bigL2 && kvBytes > t.l2Bytes / 2;
  if (t.avx512 && (kvOutgrowsCaches || kvBeyondL2))
    parallel = "tiles";
  // And groups of tiles take each key block in turn, so that a block of K and V that comes from
  // memory serves the group's tiles from L2 while each tile keeps its 32 rows' working set (larger
  // tiles cut the stream as well, but cost 1.03-1.22x where K and V are in cache). S = 16384, D =
  // 64 on Zen 4 in a phase where this guest's share of L3 held less than a head's 8 MB, groups of
  // 8: 0.759 of the time with one head on one thread, 0.776 with 8 heads on two (groups of 4:
  // 0.819); S = 8192 (4 MB, not grouped here) 1.02 (bench/ab, 2026-12-02).
  const bool groupTiles = t.avx512 && (kvOutgrowsCaches || kvBeyondL2) && !additive;
  int64_t groupQ = groupTiles ? 8 : 0;
  // As many tiles (8 to 16) as keep the group's output accumulators (tile_q x Dv floats per tile)
  // within 128 KB: 16 at D = 64, 8 at D = 128. On the Intel guest (2 MB of L2), groups of 16
  // against 8 at D = 64 took 0.921 (twice) and 0.924 of the time on two threads (S = 4096,
  // S = 16384), 0.976 and 1.009 on one; at D = 128 (twice the state) 0.995 and 1.009 on two
  // threads, 0.982 on one, and its GQA4 1.042 (bench/ab, 2026-12-02). On Zen 5 (1 MB of L2),
  // S = 16384 at D = 64, 8 heads: 0.952 on two threads, 0.964 on one (one head, one thread: 0.969;
  // groups of 32: 0.960 / 0.990 / 0.951; bench/ab, 2026-12-05).
  if (groupTiles && known(s.dv) && s.dv > 0)
    groupQ = std::clamp<int64_t>((int64_t(128) << 10) / (tileQ * s.dv * 4), 8, 16);
  // (Additive scores on AVX2 had tiles of one vector of rows while each term was the rational
  // tanh, whose constants left too few registers for two. With tanhOfSumTerm, 2 vectors x 3 keys
  // and P.V's 6 x 2 blocks over 16 rows took 0.90 of the time of 1 vector x 4 keys and 4 x 2
  // blocks over 8 rows; 32 rows: 0.98-0.99 of 16's, within the noise. Zen 3, one thread, bench/ab,
  // 2026-12-01.)
  return make(op.getContext(), tileQ, blockK, lanes, regQ, regK, regV, 128, 0, parallel, groupQ);
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
