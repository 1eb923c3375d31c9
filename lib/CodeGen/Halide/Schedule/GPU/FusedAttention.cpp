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
/// waited at the barrier (the PTX of a prefill kernel, 2026-12-04; 1.01-1.06x on an H200).
/// `threads` schedules the wrapper's stage and returns its innermost thread loop's Var.
void reduceInRegister(Func red, LoopLevel block, const std::function<Var(Func)> &threads) {
  Func shared = red.in();
  shared.compute_at(block).store_in(MemoryType::GPUShared);
  red.compute_at(shared, threads(shared)).store_in(MemoryType::Register);
}

/// The update of a register block (a x b, both unrolled) over the reduction r: r innermost,
/// unrolled by 4 (on an H200 the scores' and P.V's loops ran 5-10% faster so).
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

} // namespace

void scheduleFusedAttentionGpu(FusedAttentionStage f, const kernel::ScheduleSpec &spec,
                               const GpuParams &defaults, const std::string &owner,
                               ScheduleLog &log) {
  const int R = f.tileRows, KB = f.blockKeys;
  const int regQ = divisorAtMost(R, param(spec.regQ, 2));
  const int regK = divisorAtMost(KB, param(spec.regK, 2));
  const int regV = std::max(1, param(spec.regV, 4));
  const int64_t dk = sizeOr(f.additive ? f.staticDa : f.staticDk, 64), dv = sizeOr(f.staticDv, 64);
  const int tx = defaults.threadsX, ty = defaults.threadsY;
  std::ostringstream msg;
  msg << f.res.name() << " [" << owner << ", " << f.label << "]: GPU; tiles of " << R
      << " query rows, key blocks of " << KB;

  // The result: a thread block per (tile, batch x kv head).
  Func res = f.res;
  auto [rt, rr, hb] = tileFusedResult(f, resRoot(f));
  Func qs = f.additive ? f.qpT : f.qs;

  if (spec.splitK == 1) {
    // Decode, split-K. Kernel 1: every (key block, tile, batch x kv head) in its own thread block.
    Func blk = f.blk;
    blk.compute_root();
    VarOrRVar bhb = fuseBatchDims(blk, f.bk, blk.name());
    blk.gpu_blocks(f.c, f.it);
    if (!f.bk.empty())
      blk.gpu_blocks(bhb);
    // Every stage's threads: at most 128 along x and rowThreads (8) rows along y, so a launch
    // stays within 1024 threads whatever the tile (a 128-row tile had 128 x 128; the rows past
    // them are looped).
    const int rowThreads = std::max(1, std::min(R, 8));
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
    // Kernel 2: the merge, a thread per (value column, row) for up to 32 x 32 of them (the tile's
    // rows past 32 looped), its softmax state in registers.
    Var eo(res.name() + "_eo"), ei(res.name() + "_ei"), ro(res.name() + "_ro"),
        ri(res.name() + "_ri");
    res.split(f.e, eo, ei, 32, TailStrategy::GuardWithIf);
    Var rowsT = rr;
    if (R > 32) {
      res.split(rr, ro, ri, 32, TailStrategy::GuardWithIf).reorder(ei, ri, ro, eo, rt);
      rowsT = ri;
    } else {
      res.reorder(ei, rr, eo, rt);
    }
    res.gpu_blocks(eo, rt);
    if (!f.bk.empty())
      res.gpu_blocks(hb);
    res.gpu_threads(ei, rowsT);
    f.combine.compute_at(res, ei);
    msg << "; split-K decode: a thread block per key block (scores, max, sum and P.V in shared "
           "memory), then a merge kernel with the softmax state of each output in registers";
    log.add(msg.str());
    return;
  }

  // Prefill. Threads of the tile: (Dv / reg_v) x (R / reg_q), each owning a register block. Every
  // other stage of the block uses at most these threads (looping over what is left): a launch is as
  // large as its largest stage, and threads idle in the P.V stage hold registers and warp slots (on
  // an H200, 512-thread blocks whose P.V used 128 ran at 1.1 TFLOP/s).
  const int TX = static_cast<int>((dv + regV - 1) / regV), TY = (R + regQ - 1) / regQ;
  checkThreads(int64_t(TX) * TY, defaults, owner,
               "Dv / reg_v x tile_q / reg_q = " + std::to_string(TX) + " x " + std::to_string(TY));
  Var eo(res.name() + "_eo"), ei(res.name() + "_ei"), ro(res.name() + "_ro"),
      ri(res.name() + "_ri");
  res.split(f.e, eo, ei, regV, TailStrategy::GuardWithIf)
      .split(rr, ro, ri, regQ, TailStrategy::GuardWithIf)
      .reorder(ei, ri, eo, ro, rt)
      .gpu_blocks(rt);
  if (!f.bk.empty())
    res.gpu_blocks(hb);
  res.gpu_threads(eo, ro).unroll(ei).unroll(ri);
  LoopLevel tile(res, rt);

  // Shared memory per thread block, in floats: the state is always there.
  int64_t budget = defaults.sharedBytes / 4;
  int64_t shared = 3 * R * dv + 2 * R * KB + 2 * R; // combine; s and p; mc and lc
  bool stageK = true, stageV = true, stageQ = true;
  shared += KB * dk;
  if (shared + KB * dv > budget)
    stageV = false;
  else
    shared += KB * dv;
  if (shared + R * dk > budget)
    stageQ = false;
  else
    shared += R * dk;
  if (shared > budget) {
    stageK = false;
    shared -= KB * dk;
  }

  // The online-softmax state; its update's key-block loop at block level, threads inside.
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
  LoopLevel block(comb, f.rc.x);

  // The Q tile is staged again for every key block: Halide 14 lays shared buffers out by the order
  // of the stages that use them, ignoring the key-block loop, and gives a buffer staged once per
  // tile (last read by the scores) to a later stage of the loop body, which overwrites it before
  // the next key block reads it. Staged inside the loop, its lifetime is what Halide assumes.
  if (stageQ) {
    qs.compute_at(block).store_in(MemoryType::GPUShared);
    blockThreads(qs, qs.args()[0], qs.args()[1], TX, TY, qs.name());
  }

  // K and V tiles of the key block, filled by all threads.
  if (stageK) {
    Func ks = f.additive ? f.kp.in(f.sacc) : f.kRead.in(f.sacc);
    ks.compute_at(block).store_in(MemoryType::GPUShared);
    blockThreads(ks, ks.args()[0], ks.args()[1], TX, TY, ks.name());
    // Stored key-major: the score threads read different keys at one feature, which in the natural
    // layout (a row of Dk floats per key) all fall in one shared-memory bank.
    ks.reorder_storage(ks.args()[1], ks.args()[0]);
  }
  if (stageV) {
    Func vs = f.vRead.in(f.oc);
    vs.compute_at(block).store_in(MemoryType::GPUShared);
    blockThreads(vs, vs.args()[0], vs.args()[1], TX, TY, vs.name());
  }

  // Scores: threads over (KB / reg_k) x (R / reg_q), at most TX of the first (the key groups past
  // that are looped); a reg_q x reg_k register block each.
  f.s.compute_at(block).store_in(MemoryType::GPUShared).bound_extent(f.ii, R);
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

  // The block's row max and sum (a thread per row, in a register) and probabilities (a thread per
  // entry).
  auto rowThread = [&](Func w) { return blockThreadsFlat(w, f.ii, TX, TY, w.name()); };
  reduceInRegister(f.mc, block, rowThread);
  f.p.compute_at(block).store_in(MemoryType::GPUShared);
  // Threads along the rows, the scores' innermost storage dim (along the keys they would all read
  // one bank).
  blockThreads(f.p, f.ii, f.jj, std::min(R, TX), std::min(KB, TY), f.p.name());
  reduceInRegister(f.lc, block, rowThread);

  // P.V of the block: computed inside the merge's thread loop, so each thread accumulates its
  // reg_q x reg_v block in registers over the block's keys.
  f.oc.compute_at(comb, ceo)
      .store_in(MemoryType::Register)
      .bound_extent(f.e, regV)
      .bound_extent(f.ii, regQ)
      .unroll(f.e)
      .unroll(f.ii);
  registerBlockUpdate(f.oc.update(), f.e, f.ii, f.rj.x);

  msg << "; thread blocks per (tile, batch x kv head), " << TX << " x " << TY
      << " threads; Q.K^T register block " << regQ << " x " << regK << ", P.V register block "
      << regQ << " x " << regV << "; shared memory: " << (stageQ ? "Q tile, " : "")
      << (stageK ? "K tile, " : "") << (stageV ? "V tile, " : "")
      << "scores, probabilities, softmax state (" << shared * 4 << " bytes for the static sizes)";
  log.add(msg.str());
}

} // namespace attn::schedule
