//===- FusedAttention.cpp - GPU schedules of the fused attention kernel ---===//
//
// Written once for Halide's GPU API; the CUDA and OpenCL targets share it. fp32 SIMT (Halide 14
// has no tensor-core support).
//
// Prefill: one thread block per (query tile of tile_q rows, batch x kv head):
//   - the online-softmax state (combine: accumulator, running max and sum per row) lives in shared
//     memory for the whole tile; Halide 14 keeps a value in registers only inside a thread loop,
//     and the loop over key blocks has to enclose the thread loops so that the threads can fill the
//     shared K/V tiles together;
//   - per key block of block_k keys, at block level: Q, K and V tiles staged in shared memory by
//   all
//     threads (Q again for every block, see below; K stored key-major so that the score threads,
//     which read different keys at one feature, hit different banks), the scores (each thread a
//     reg_q x reg_k register block, the reduction over the feature dim in registers, unrolled by
//     4), the block's row max and sum (a thread per row, accumulated in a register and stored once:
//     reduceInRegister), the probabilities (threads along the rows),
//     and the P.V partial (each thread a reg_q x reg_v register block, accumulated in registers
//     over the block's keys, unrolled by 4), merged into the shared state;
//   - every stage runs on at most the (Dv / reg_v) x (tile_q / reg_q) threads of the P.V stage;
//   - every key block is visited, masks apply entry by entry: the lowering leaves out the predicate
//     that skips empty blocks for GPU targets (Halide 14 miscompiles it here, docs/SCHEDULES.md).
//   Staging is dropped (V first, then Q) when the shared memory a block needs would pass 48 KiB
//   (what every CUDA device and OpenCL implementation gives a kernel without opting in). These
//   kernels take 80-140 registers per thread; Halide 14's CUDA runtime caps them at 64 unless
//   HL_CUDA_JIT_MAX_REGISTERS is set, which attn's runtime and JIT do
//   (KernelRuntime/attn_runtime.h).
// Decode (split_k = 1): one thread block per (key block, query tile, batch x kv head) computes the
// block's scores, max, sum and P.V in shared memory; a second kernel merges the blocks' softmax
// states, one thread per output element, its state in registers.
//
//===----------------------------------------------------------------------===//

#include "attn/CodeGen/Halide/Schedule.h"

#include <functional>
#include <optional>
#include <sstream>

using namespace Halide;
using namespace attn::lowering;

namespace attn::schedule {

namespace {

/// Threads of a block-level stage over (a, b): tiles of ta x tb threads, the tiles looped serially
/// at block level (so any extent fits in a bounded thread block). These helpers return the
/// innermost loop's Var, where a per-thread producer is computed.
Var blockThreads(Stage s, VarOrRVar a, VarOrRVar b, int ta, int tb, const std::string &prefix) {
  Var ao(prefix + "_ta_o"), ai(prefix + "_ta_i"), bo(prefix + "_tb_o"), bi(prefix + "_tb_i");
  s.split(a, ao, ai, ta, TailStrategy::GuardWithIf)
      .split(b, bo, bi, tb, TailStrategy::GuardWithIf)
      .reorder(ai, bi, ao, bo)
      .gpu_threads(ai, bi);
  return ai;
}

Var blockThreads1(Stage s, VarOrRVar a, int ta, const std::string &prefix) {
  Var ao(prefix + "_ta_o"), ai(prefix + "_ta_i");
  s.split(a, ao, ai, ta, TailStrategy::GuardWithIf).reorder(ai, ao).gpu_threads(ai);
  return ai;
}

/// Threads of a block-level stage over one dim a, laid out on a tx x ty thread block (a thread per
/// entry up to tx * ty, the rest looped serially).
Var blockThreadsFlat(Stage s, VarOrRVar a, int tx, int ty, const std::string &prefix) {
  Var ao(prefix + "_fa_o"), ax(prefix + "_fa_x"), aoo(prefix + "_fa_oo"), ay(prefix + "_fa_y");
  s.split(a, ao, ax, tx, TailStrategy::GuardWithIf)
      .split(ao, aoo, ay, ty, TailStrategy::GuardWithIf)
      .reorder(ax, ay, aoo)
      .gpu_threads(ax, ay);
  return ax;
}

/// A block-level row reduction (the key block's max or sum per row) accumulated in a register and
/// stored to shared memory once: `red` is computed per thread of its shared wrapper (Func::in,
/// which all of its readers then read). Computed in shared memory itself, Halide stored the
/// accumulator after every step and the next step's load waited for that store: a 32-key block's
/// max was 32 dependent shared-memory round trips, on the block's first warp while the others
/// waited at the barrier (the PTX of a prefill kernel; docs/SCHEDULES.md, "Measurements behind the
/// code"). `threads` schedules the wrapper's stage and returns its innermost thread loop's Var.
void reduceInRegister(Func red, LoopLevel block, const std::function<Var(Func)> &threads) {
  Func shared = red.in();
  shared.compute_at(block).store_in(MemoryType::GPUShared);
  red.compute_at(shared, threads(shared)).store_in(MemoryType::Register);
}

/// The update of a register block (a x b, both unrolled) over the reduction r: r innermost,
/// unrolled by 4 (faster on an H200: docs/SCHEDULES.md, "Measurements behind the code").
void registerBlockUpdate(Stage update, Var a, Var b, RVar r) {
  RVar ro(r.name() + "_o"), ri(r.name() + "_i");
  update.split(r, ro, ri, 4, TailStrategy::GuardWithIf)
      .reorder(a, b, ri, ro)
      .unroll(a)
      .unroll(b)
      .unroll(ri);
}

/// The largest divisor of n that is at most want (register blocks must tile a tile exactly: the
/// tile's extent is fixed with bound_extent).
int divisorAtMost(int n, int want) {
  for (int d = std::max(1, std::min(n, want)); d > 1; --d)
    if (n % d == 0)
      return d;
  return 1;
}

/// Static size or a guess (for the shared-memory budget only).
int64_t sizeOr(int64_t size, int64_t guess) { return size != kernel::kDynamic ? size : guess; }

/// A launch is as large as its largest stage in each thread dim; a thread block past the device's
/// limit fails when it is launched (CL_INVALID_WORK_GROUP_SIZE; schedule-sweep.py), so the
/// schedule refuses it with the parameters that make it.
void checkThreads(int64_t threads, const GpuParams &defaults, const std::string &owner,
                  const std::string &what) {
  if (threads <= defaults.maxThreads)
    return;
  throw CompileError(owner + ": its GPU thread blocks would have " + std::to_string(threads) +
                     " threads (" + what + "), more than the " +
                     std::to_string(defaults.maxThreads) +
                     " a thread block may have: raise reg_q or reg_v, or lower tile_q");
}

/// Split-K decode, kernel 1: every (key block, tile, batch x kv head) in its own thread block,
/// computing the block's scores, max, sum and P.V in shared memory. Every stage's threads: at most
/// 128 along x and rowThreads (8) rows along y, so a launch stays within 1024 threads whatever the
/// tile (the rows past them are looped).
void splitKBlocksGpu(FusedAttentionStage &f, Func qs, int64_t dv, const GpuParams &defaults) {
  const int R = f.tileRows, KB = f.blockKeys;
  Func blk = f.blk;
  blk.compute_root();
  VarOrRVar bhb = fuseBatchDims(blk, f.bk, blk.name());
  blk.gpu_blocks(f.c, f.it);
  if (!f.bk.empty())
    blk.gpu_blocks(bhb);
  const int rowThreads = std::max(1, std::min(R, 8));
  const int tx = defaults.threadsX, ty = defaults.threadsY;
  blockThreads(blk, f.e, f.ii, std::min<int>(tx * ty / rowThreads, 128), rowThreads, blk.name());
  LoopLevel block(blk, f.c);
  qs.compute_at(block).store_in(MemoryType::GPUShared);
  blockThreads(qs, qs.args()[0], qs.args()[1], 32, rowThreads, qs.name());
  // Scores: a thread per (key, row); the dot product over the feature dim in a register.
  f.s.compute_at(block).store_in(MemoryType::GPUShared).bound_extent(f.ii, R);
  Var sj = blockThreads(f.s, f.jj, f.ii, std::min(KB, 128), rowThreads, f.s.name());
  f.sacc.compute_at(f.s, sj);
  const int rowsX = std::max(1, std::min(R, 128)); // a thread per row, at most 128
  auto rowThread = [&](Func w) { return blockThreads1(w, f.ii, rowsX, w.name()); };
  reduceInRegister(f.mc, block, rowThread);
  f.p.compute_at(block).store_in(MemoryType::GPUShared);
  blockThreads(f.p, f.jj, f.ii, std::min(KB, 128), rowThreads, f.p.name());
  reduceInRegister(f.lc, block, rowThread);
  f.oc.compute_at(block).store_in(MemoryType::GPUShared);
  blockThreads(f.oc, f.e, f.ii, std::min<int>(dv, 128), rowThreads, f.oc.name());
  blockThreads(f.oc.update(), f.e, f.ii, std::min<int>(dv, 128), rowThreads, f.oc.name() + "_u");
}

/// Split-K decode, kernel 2: the merge, a thread per (value column, row) for up to 32 x 32 of them
/// (the tile's rows past 32 looped), its softmax state in registers.
void splitKMergeGpu(FusedAttentionStage &f, Func res, const ResultTiles &tiles) {
  Var eo(res.name() + "_eo"), ei(res.name() + "_ei"), ro(res.name() + "_ro"),
      ri(res.name() + "_ri");
  res.split(f.e, eo, ei, 32, TailStrategy::GuardWithIf);
  Var rowsT = tiles.rr;
  if (f.tileRows > 32) {
    res.split(tiles.rr, ro, ri, 32, TailStrategy::GuardWithIf).reorder(ei, ri, ro, eo, tiles.rt);
    rowsT = ri;
  } else {
    res.reorder(ei, tiles.rr, eo, tiles.rt);
  }
  res.gpu_blocks(eo, tiles.rt);
  if (!f.bk.empty())
    res.gpu_blocks(tiles.hb);
  res.gpu_threads(ei, rowsT);
  f.combine.compute_at(res, ei);
}

/// What a prefill thread block stages in shared memory, and the floats it then takes: the state,
/// scores and probabilities always; K, V and Q tiles while they fit, dropped in the order V, Q, K.
struct SharedPlan {
  bool stageK = true, stageV = true, stageQ = true;
  int64_t floats = 0;
};
SharedPlan planSharedMemory(int R, int KB, int64_t dk, int64_t dv, const GpuParams &defaults) {
  SharedPlan plan;
  const int64_t budget = defaults.sharedBytes / 4;
  plan.floats = 3 * R * dv + 2 * R * KB + 2 * R; // combine; s and p; mc and lc
  plan.floats += KB * dk;
  if (plan.floats + KB * dv > budget)
    plan.stageV = false;
  else
    plan.floats += KB * dv;
  if (plan.floats + R * dk > budget)
    plan.stageQ = false;
  else
    plan.floats += R * dk;
  if (plan.floats > budget) {
    plan.stageK = false;
    plan.floats -= KB * dk;
  }
  return plan;
}

/// The prefill kernel's thread block: the tile of one (tile, batch x kv head), its stages on the
/// TX x TY threads of the P.V stage. The methods schedule its parts in order.
class GpuPrefill {
public:
  GpuPrefill(FusedAttentionStage &f, const kernel::ScheduleSpec &spec, int64_t dv)
      : f(f), R(f.tileRows), KB(f.blockKeys), regQ(divisorAtMost(R, param(spec.regQ, 2))),
        regK(divisorAtMost(KB, param(spec.regK, 2))), regV(std::max(1, param(spec.regV, 4))),
        TX(static_cast<int>((dv + regV - 1) / regV)), TY((R + regQ - 1) / regQ) {}
  void placeResult(Func res, const ResultTiles &tiles, const GpuParams &defaults,
                   const std::string &owner);
  void placeState(Func res, const ResultTiles &tiles);
  void stageTiles(Func qs, const SharedPlan &plan);
  void scores();
  void blockSoftmax();
  void productsPV();
  std::string describe(const SharedPlan &plan) const;

private:
  FusedAttentionStage &f;
  const int R, KB, regQ, regK, regV;
  const int TX, TY; // the tile's threads: (Dv / reg_v) x (R / reg_q), each a register block
  std::optional<LoopLevel> block;  // the loop over key blocks (the state's update)
  std::optional<Var> stateThreadX; // the state's thread loop along the value dim
};

/// Threads of the tile: (Dv / reg_v) x (R / reg_q), each owning a register block. Every other stage
/// of the block uses at most these threads (looping over what is left): a launch is as large as
/// its largest stage, and threads idle in the P.V stage hold registers and warp slots.
void GpuPrefill::placeResult(Func res, const ResultTiles &tiles, const GpuParams &defaults,
                             const std::string &owner) {
  checkThreads(int64_t(TX) * TY, defaults, owner,
               "Dv / reg_v x tile_q / reg_q = " + std::to_string(TX) + " x " + std::to_string(TY));
  Var eo(res.name() + "_eo"), ei(res.name() + "_ei"), ro(res.name() + "_ro"),
      ri(res.name() + "_ri");
  res.split(f.e, eo, ei, regV, TailStrategy::GuardWithIf)
      .split(tiles.rr, ro, ri, regQ, TailStrategy::GuardWithIf)
      .reorder(ei, ri, eo, ro, tiles.rt)
      .gpu_blocks(tiles.rt);
  if (!f.bk.empty())
    res.gpu_blocks(tiles.hb);
  res.gpu_threads(eo, ro).unroll(ei).unroll(ri);
}

/// The online-softmax state per tile, in shared memory; its update's key-block loop at block
/// level, threads inside.
void GpuPrefill::placeState(Func res, const ResultTiles &tiles) {
  LoopLevel tile(res, tiles.rt);
  Func comb = f.combine;
  comb.compute_at(tile).store_in(MemoryType::GPUShared);
  Var ceo(comb.name() + "_eo"), cei(comb.name() + "_ei"), cio(comb.name() + "_io"),
      cii(comb.name() + "_ii");
  comb.split(f.e, ceo, cei, regV, TailStrategy::GuardWithIf)
      .split(f.ii, cio, cii, regQ, TailStrategy::GuardWithIf)
      .reorder(cei, cii, ceo, cio)
      .gpu_threads(ceo, cio)
      .unroll(cei)
      .unroll(cii);
  comb.update()
      .split(f.e, ceo, cei, regV, TailStrategy::GuardWithIf)
      .split(f.ii, cio, cii, regQ, TailStrategy::GuardWithIf)
      .reorder(cei, cii, ceo, cio, f.rc.x)
      .gpu_threads(ceo, cio)
      .unroll(cei)
      .unroll(cii);
  block.emplace(comb, f.rc.x);
  stateThreadX.emplace(ceo);
}

/// The Q, K and V tiles of a key block, filled by all threads. Q is staged again for every key
/// block: Halide 14 lays shared buffers out by the order of the stages that use them, ignoring the
/// key-block loop, and gave a buffer staged once per tile to a later stage of the loop body, which
/// overwrote it before the next key block read it.
void GpuPrefill::stageTiles(Func qs, const SharedPlan &plan) {
  if (plan.stageQ) {
    qs.compute_at(*block).store_in(MemoryType::GPUShared);
    blockThreads(qs, qs.args()[0], qs.args()[1], TX, TY, qs.name());
  }
  if (plan.stageK) {
    Func ks = f.additive ? f.kp.in(f.sacc) : f.kRead.in(f.sacc);
    ks.compute_at(*block).store_in(MemoryType::GPUShared);
    blockThreads(ks, ks.args()[0], ks.args()[1], TX, TY, ks.name());
    // Stored key-major: the score threads read different keys at one feature, which in the natural
    // layout (a row of Dk floats per key) all fall in one shared-memory bank.
    ks.reorder_storage(ks.args()[1], ks.args()[0]);
  }
  if (plan.stageV) {
    Func vs = f.vRead.in(f.oc);
    vs.compute_at(*block).store_in(MemoryType::GPUShared);
    blockThreads(vs, vs.args()[0], vs.args()[1], TX, TY, vs.name());
  }
}

/// Scores: threads over (KB / reg_k) x (R / reg_q), at most TX of the first (the key groups past
/// that are looped); a reg_q x reg_k register block each.
void GpuPrefill::scores() {
  f.s.compute_at(*block).store_in(MemoryType::GPUShared).bound_extent(f.ii, R);
  Var sjo(f.s.name() + "_jo"), sji(f.s.name() + "_ji"), sio(f.s.name() + "_io"),
      sii(f.s.name() + "_ii"), sjt(f.s.name() + "_jt"), sjl(f.s.name() + "_jl");
  const int keyThreads = std::min((KB + regK - 1) / regK, TX);
  f.s.split(f.jj, sjo, sji, regK, TailStrategy::RoundUp)
      .split(f.ii, sio, sii, regQ, TailStrategy::RoundUp)
      .split(sjo, sjl, sjt, keyThreads, TailStrategy::GuardWithIf)
      .reorder(sji, sii, sjt, sio, sjl)
      .gpu_threads(sjt, sio)
      .unroll(sji)
      .unroll(sii);
  f.sacc.compute_at(f.s, sjt)
      .bound_extent(f.ii, regQ)
      .bound_extent(f.jj, regK)
      .unroll(f.ii)
      .unroll(f.jj);
  registerBlockUpdate(f.sacc.update(), f.ii, f.jj, f.rd.x);
}

/// The block's row max and sum (a thread per row, in a register) and probabilities (a thread per
/// entry, threads along the rows, the scores' innermost storage dim: along the keys they would all
/// read one bank).
void GpuPrefill::blockSoftmax() {
  auto rowThread = [&](Func w) { return blockThreadsFlat(w, f.ii, TX, TY, w.name()); };
  reduceInRegister(f.mc, *block, rowThread);
  f.p.compute_at(*block).store_in(MemoryType::GPUShared);
  blockThreads(f.p, f.ii, f.jj, std::min(R, TX), std::min(KB, TY), f.p.name());
  reduceInRegister(f.lc, *block, rowThread);
}

/// P.V of the block: computed inside the merge's thread loop, so each thread accumulates its
/// reg_q x reg_v block in registers over the block's keys.
void GpuPrefill::productsPV() {
  f.oc.compute_at(f.combine, *stateThreadX)
      .store_in(MemoryType::Register)
      .bound_extent(f.e, regV)
      .bound_extent(f.ii, regQ)
      .unroll(f.e)
      .unroll(f.ii);
  registerBlockUpdate(f.oc.update(), f.e, f.ii, f.rj.x);
}

std::string GpuPrefill::describe(const SharedPlan &plan) const {
  std::ostringstream msg;
  msg << "; thread blocks per (tile, batch x kv head), " << TX << " x " << TY
      << " threads; Q.K^T register block " << regQ << " x " << regK << ", P.V register block "
      << regQ << " x " << regV << "; shared memory: " << (plan.stageQ ? "Q tile, " : "")
      << (plan.stageK ? "K tile, " : "") << (plan.stageV ? "V tile, " : "")
      << "scores, probabilities, softmax state (" << plan.floats * 4
      << " bytes for the static sizes)";
  return msg.str();
}

} // namespace

void scheduleFusedAttentionGpu(FusedAttentionStage f, const kernel::ScheduleSpec &spec,
                               const GpuParams &defaults, const std::string &owner,
                               ScheduleLog &log) {
  const int64_t dk = sizeOr(f.additive ? f.staticDa : f.staticDk, 64), dv = sizeOr(f.staticDv, 64);
  std::ostringstream msg;
  msg << f.res.name() << " [" << owner << ", " << f.label << "]: GPU; tiles of " << f.tileRows
      << " query rows, key blocks of " << f.blockKeys;
  // The result: a thread block per (tile, batch x kv head).
  Func res = f.res;
  ResultTiles tiles = tileFusedResult(f, resRoot(f));
  Func qs = f.additive ? f.qpT : f.qs;
  if (spec.splitK == 1) {
    splitKBlocksGpu(f, qs, dv, defaults);
    splitKMergeGpu(f, res, tiles);
    msg << "; split-K decode: a thread block per key block (scores, max, sum and P.V in shared "
           "memory), then a merge kernel with the softmax state of each output in registers";
    log.add(msg.str());
    return;
  }
  GpuPrefill prefill(f, spec, dv);
  prefill.placeResult(res, tiles, defaults, owner);
  SharedPlan plan = planSharedMemory(f.tileRows, f.blockKeys, dk, dv, defaults);
  prefill.placeState(res, tiles);
  prefill.stageTiles(qs, plan);
  prefill.scores();
  prefill.blockSoftmax();
  prefill.productsPV();
  msg << prefill.describe(plan);
  log.add(msg.str());
}

} // namespace attn::schedule
