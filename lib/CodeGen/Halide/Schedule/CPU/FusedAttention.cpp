//===- FusedAttention.cpp - CPU schedules of the fused attention kernel ---===//
//
// Prefill (tiles of tile_q rows): every per-block stage is vectorized over the tile's query rows,
// so the row max and sum are elementwise across key columns (no horizontal reductions):
//   - Q.K^T: a register block of (tile_q / lanes) vectors of rows x reg_k keys, K staged per kv
//   head
//     with a fixed row stride (the broadcasts then use immediate offsets);
//   - P.V: reg_q rows x reg_v vectors of the value dim, keys in chunks of chunk_k so a V chunk
//   stays
//     in L1 across the row blocks;
//   - the block's row max per Q.K^T register block and its row sum per 8 keys are computed in the
//     loops of the scores and of the probabilities (compute_with), when the algorithm has them (not
//     in a cut diagonal block), so that no pass of their own reads the block again;
//   - per-tile and per-block buffers are allocated once per task and reused (store_at + fold);
//   - with group_q, groups of tiles take each key block in turn, so that a block of K and V read
//     from memory serves the group's tiles from L2 (long keys: K and V beyond the caches).
// Decode (split_k = 1): the key blocks of a tile are computed in parallel and merged afterwards.
//
//===----------------------------------------------------------------------===//

#include "attn/CodeGen/Halide/Schedule.h"
#include "attn/CodeGen/Halide/Schedule/CPU.h"

#include <sstream>

using namespace Halide;
using namespace attn::lowering;

namespace attn::schedule {

namespace {
/// Independent partial results of the block's row max and row sum (see partialReductions).
constexpr int kPartials = 4;

/// The CPU schedule of one fused kernel, applied step by step (the file comment's items) by
/// scheduleFusedAttentionCpu; Halide's directives keep the order of the steps (specialize copies
/// what was scheduled before it). The parameters and the loops the steps share are members.
class CpuFusedSchedule {
public:
  CpuFusedSchedule(FusedAttentionStage f, const FusedRoot &root, const kernel::ScheduleSpec &spec,
                   const CpuParams &defaults, const std::string &owner);
  void placeResult();
  void placeTile();
  void placeBlockLoop();
  void prefillScores();
  void prefillSoftmax();
  void decodeBlock();
  void productsPV();
  void hoistBuffers();
  std::string log() const { return msg.str(); }
  bool isDecode() const { return decode; }

private:
  void stageK(Func reader);
  void stageV(LoopLevel at);
  void specializeTanh(Stage scores);
  void tanhRangeChecks();
  void computeGroupsWith(Func groups, Func with, Var groupLoop, bool perRowBlock);
  void partialReductions(Func g);

  FusedAttentionStage f;
  const kernel::ScheduleSpec &spec;
  const int L, R, KB, regK, regQ, chunk;
  const bool staticDv;
  const int regV;
  // The value dim the P.V register blocks cover: Dv rounded up to whole blocks of regV vectors
  // (Dv = 40 on AVX2 is 5 vectors: blocks of 4 cover 64; bounding V and P.V to 40 failed).
  const int dvBlock, dvBlocks;
  const bool splitK, tiles, decode; // decode: fewer rows than a vector
  std::ostringstream msg;
  Func res;
  Var resultE; // the result's value dim
  ResultTiles resultTiles;
  Var rt, rtg; // the tile's loop, and that of the tile's (or the group's) state
  bool grouped = false, hasBatch;
  LoopLevel task;  // one task: a kv batch (or the root)
  LoopLevel block; // the loop of one (tile, block): a block's stages are computed there
  Func qs;         // the query tile
  int qkRows = 0;  // rows of the Q.K^T register block (prefill)
  bool rowBlocks = false;
  Var qkRowBlock; // the loop over the Q.K^T row blocks (prefill, with rowBlocks)
  Var qkKeyGroup; // the loop over the Q.K^T register blocks' groups of regK keys (prefill)
};

CpuFusedSchedule::CpuFusedSchedule(FusedAttentionStage f_, const FusedRoot &root,
                                   const kernel::ScheduleSpec &spec, const CpuParams &defaults,
                                   const std::string &owner)
    : f(std::move(f_)), spec(spec), L(spec.lanes(defaults.lanes)), R(f.tileRows), KB(f.blockKeys),
      regK(param(spec.regK, L == 16 ? 12 : 6)),
      regQ(std::min(R, param(spec.regQ, L == 16 ? 4 : 2))), chunk(param(spec.chunkK, 128)),
      staticDv(f.staticDv != kernel::kDynamic && f.staticDv % L == 0),
      regV(param(spec.regV, staticDv ? static_cast<int>(std::min<int64_t>(4, f.staticDv / L)) : 1)),
      dvBlock(regV * L),
      dvBlocks(staticDv ? static_cast<int>((f.staticDv + dvBlock - 1) / dvBlock * dvBlock) : 0),
      splitK(spec.splitK == 1), tiles(spec.parallel == "tiles" || f.bk.empty()), decode(R < L),
      res(root.f), resultE(root.e), resultTiles(tileFusedResult(f, root)), rt(resultTiles.rt),
      rtg(resultTiles.rt), hasBatch(!f.bk.empty()),
      task(hasBatch ? LoopLevel(res, resultTiles.hb) : LoopLevel::root()),
      qs(f.additive ? f.qpT : f.qs), qkRowBlock(f.s.name() + "_io"),
      qkKeyGroup(f.s.name() + "_jo") {
  msg << f.res.name() << " [" << owner << ", " << f.label << "]: tiles of " << R
      << " query rows, key blocks of " << KB;
}

/// The result: tasks per kv batch (and per tile, or group of tiles, with parallel = "tiles").
/// Groups of group_q tiles take each key block in turn (the block loop outside the group's tiles):
/// a block of K and V that comes from memory is then read from L2 by the group's other tiles.
/// Prefill with more than one block only (a decode tile reads K and V once; one block has no block
/// loop).
void CpuFusedSchedule::placeResult() {
  const int groupQ = param(spec.groupQ, 1);
  grouped = groupQ > 1 && !f.oneBlock && !splitK && R >= L;
  if (grouped) {
    Var tg(res.name() + "_tg"), rti(res.name() + "_rti");
    res.split(rt, tg, rti, groupQ, TailStrategy::GuardWithIf);
    rt = rti;
    rtg = tg;
    msg << "; groups of " << groupQ << " tiles take each key block in turn";
  }
  if (hasBatch)
    res.parallel(resultTiles.hb);
  if (tiles)
    res.parallel(rtg);
  res.vectorize(resultE, L, TailStrategy::GuardWithIf);
  if (res.name() != f.res.name())
    msg << "; computed into " << res.name();
  msg << "; parallel over " << (hasBatch ? "(batch, kv head)" : "")
      << (hasBatch && tiles ? " and " : "") << (tiles ? "query tiles" : "");
  // Decode reads every K and V row once: staging would only add a copy. Prefill re-reads them for
  // every tile.
  if (!decode) {
    stageV(task);
    msg << "; K and V staged per task";
  }
}

/// K staged once per task with row strides Halide knows (broadcasts with immediate offsets), for
/// `reader` (sacc, or its rfactor intermediate in decode). Not the additive key projections
/// without batch dims: they are computed whole at the root already, and a copy there failed in
/// Halide 14's compiler ("Name not in Scope: ..._range": the copy's bounds read the range check
/// that picks the score's form before it is computed).
void CpuFusedSchedule::stageK(Func reader) {
  if (!f.additive) {
    Func ks = f.kRead.in(reader);
    ks.compute_at(task).vectorize(f.d, L, TailStrategy::RoundUp);
    if (f.staticDk != kernel::kDynamic) // rows padded to whole vectors; reads past Dk are clamped
      ks.bound_extent(f.d, static_cast<int>((f.staticDk + L - 1) / L * L));
  } else if (hasBatch) {
    for (Func kp : {f.kp, f.kpE}) {
      if (!kp.defined())
        continue;
      Func kps = kp.in(reader);
      kps.compute_at(task).vectorize(kps.args()[0], L, TailStrategy::RoundUp);
      if (f.staticDa != kernel::kDynamic)
        kps.bound_extent(kps.args()[0], static_cast<int>((f.staticDa + L - 1) / L * L));
    }
  }
}

/// V copied at `at` for P.V, its rows padded to whole value blocks.
void CpuFusedSchedule::stageV(LoopLevel at) {
  Func vs = f.vRead.in(f.oc);
  vs.compute_at(at).vectorize(f.e, L, TailStrategy::RoundUp);
  if (staticDv)
    vs.bound_extent(f.e, dvBlocks);
}

/// The additive score's two forms (tanhSplit): a branch per register block, each branch the score
/// stage's whole schedule (specialize copies what was scheduled before it: call it last).
void CpuFusedSchedule::specializeTanh(Stage scores) {
  if (!f.tanhSplit.defined())
    return;
  scores.specialize(f.tanhSplit);
  msg << "; additive tanh(a + b) from e^{2a} e^{2b} where the projections allow it (else the "
         "rational)";
}

/// The tile: queries transposed (rows innermost), the online-softmax state per tile (per group of
/// tiles with group_q), one division per tile row.
void CpuFusedSchedule::placeTile() {
  const int64_t width = f.additive ? f.staticDa : f.staticDk;
  const bool transposeBlocks = width != kernel::kDynamic && width % L == 0;
  for (Func t : {qs, f.qpE}) {
    if (!t.defined())
      continue;
    t.compute_at(res, rtg);
    if (decode) {
      // Fewer rows than a vector: the features stay innermost, where the dot products' vectors
      // along them read the query densely (rows innermost, the query was read at a stride of L).
      t.vectorize(f.d, L, TailStrategy::GuardWithIf);
      continue;
    }
    std::vector<Var> storage = t.args();
    std::swap(storage[0], storage[1]); // (ii, d, ...): rows contiguous
    t.reorder_storage(storage);
    if (transposeBlocks) {
      // Blocks of L rows x L features, read along the features (dense loads), written transposed
      // in registers (TransposedStores.cpp): one row vectorized alone reads each lane on its own.
      Var dv(t.name() + "_dv");
      t.split(f.d, f.d, dv, L, TailStrategy::RoundUp)
          .reorder(dv, f.ii, f.d)
          .vectorize(dv)
          .vectorize(f.ii, L, TailStrategy::RoundUp);
    } else {
      t.vectorize(f.ii, L, TailStrategy::RoundUp);
    }
  }
  if (!decode && transposeBlocks)
    msg << "; query tile transposed in " << L << " x " << L << " blocks";
  tanhRangeChecks();
  // One block's state is the block's own (inlined): the block's stages are then computed per tile.
  if (!f.oneBlock) {
    f.combine.compute_at(res, rtg).vectorize(f.e, L, TailStrategy::RoundUp);
    Stage merge = f.combine.update();
    if (grouped)
      merge.reorder(f.e, f.ii, f.it, f.rc.x); // per block, every tile of the group
    else
      merge.reorder(f.e, f.ii, f.rc.x);
    merge.vectorize(f.e, L, TailStrategy::RoundUp);
  } else {
    msg << "; one key block: the result reads its P.V and row sum";
  }
  // Decode tiles have fewer rows than a vector: left scalar, so that rounding up does not widen
  // the state it reads.
  f.rowScale.compute_at(res, rt);
  if (!decode)
    f.rowScale.vectorize(f.ii, L, TailStrategy::RoundUp);
}

/// The additive score's range check and sum of v_a, once (vectorized: interleaved partial maxima
/// along d_a).
void CpuFusedSchedule::tanhRangeChecks() {
  if (!f.tanhSplit.defined())
    return;
  for (Func g : {f.wSum, f.wInv, f.mRange})
    g.compute_root();
  f.tanhRange.compute_root();
  for (int u = 0; u < 2; ++u) {
    RVar dao(f.tanhRange.name() + "_dao"), dai(f.tanhRange.name() + "_dai");
    Var lane(f.tanhRange.name() + "_lane" + std::to_string(u));
    Func part = f.tanhRange.update(u)
                    .split(f.rangeDoms[u].x, dao, dai, L, TailStrategy::GuardWithIf)
                    .rfactor(dai, lane);
    part.compute_root().vectorize(lane);
    part.update().vectorize(lane);
  }
}

/// The loop of one (tile, block), where a block's stages are computed; decode (split_k) computes
/// all blocks of a tile in parallel, then merges them.
void CpuFusedSchedule::placeBlockLoop() {
  block = f.oneBlock ? LoopLevel(res, rt)
          : grouped  ? LoopLevel(f.combine, f.it)
                     : LoopLevel(f.combine, f.rc.x);
  if (splitK) {
    f.blk.compute_at(res, rt).parallel(f.c).vectorize(f.e, L, TailStrategy::RoundUp);
    block = LoopLevel(f.blk, f.c);
    msg << "; split-K: key blocks in parallel, merged by the online softmax";
  }
}

/// Q.K^T (prefill): a register block of up to two vectors of rows x regK keys, stored to the
/// block's scores. A tile of more rows loops over row blocks inside each group of regK keys: its
/// rows unrolled whole in one block would need more accumulators and query vectors than the
/// registers hold.
void CpuFusedSchedule::prefillScores() {
  qkRows = static_cast<int>(cpu::scoreBlockRows(R, L));
  rowBlocks = qkRows < R;
  Var ji(f.s.name() + "_ji");
  f.s.compute_at(block).bound_extent(f.ii, R).split(f.jj, qkKeyGroup, ji, regK,
                                                    TailStrategy::RoundUp);
  Var rows = f.ii;
  if (rowBlocks) {
    rows = Var(f.s.name() + "_iv");
    f.s.split(f.ii, qkRowBlock, rows, qkRows).reorder(rows, ji, qkRowBlock, qkKeyGroup);
  } else {
    f.s.reorder(rows, ji, qkKeyGroup);
  }
  f.s.vectorize(rows, L).unroll(rows).unroll(ji);
  f.sacc.compute_at(f.s, rowBlocks ? qkRowBlock : qkKeyGroup)
      .bound_extent(f.ii, qkRows)
      .bound_extent(f.jj, regK)
      .vectorize(f.ii, L)
      .unroll(f.ii)
      .unroll(f.jj);
  f.sacc.update().reorder(f.ii, f.jj, f.rd.x).vectorize(f.ii, L).unroll(f.ii).unroll(f.jj);
  stageK(f.sacc);
  specializeTanh(f.sacc.update());
  msg << "; Q.K^T register block " << qkRows / L << " x " << L << " rows x " << regK << " keys"
      << (rowBlocks ? " (" + std::to_string(R / qkRows) + " per tile)" : "");
}

/// A group Func of the block's max or sum (the algorithm's sb and pb) computed in the loop of the
/// Func it reads the entries of (compute_with at the group's loop, whose name it takes:
/// compute_with pairs loops by name). The max's groups follow the scores' row blocks: computed
/// with them per row block, they read the block's accumulators in registers.
void CpuFusedSchedule::computeGroupsWith(Func groups, Func with, Var groupLoop, bool perRowBlock) {
  Var one(groups.name() + "_one");
  groups.compute_at(block).bound_extent(f.ii, R).split(f.jj, groupLoop, one, 1);
  if (perRowBlock) {
    Var iv(groups.name() + "_iv");
    groups.split(f.ii, qkRowBlock, iv, qkRows)
        .reorder(iv, one, qkRowBlock, groupLoop)
        .vectorize(iv, L)
        .unroll(iv);
    groups.compute_with(with, qkRowBlock);
    return;
  }
  groups.reorder(f.ii, one, groupLoop).vectorize(f.ii, L).unroll(f.ii);
  groups.compute_with(with, groupLoop);
}

/// Softmax of the block (prefill), elementwise across key columns (vectorized over rows); the max
/// and sum in groups where the algorithm has them.
void CpuFusedSchedule::prefillSoftmax() {
  f.p.compute_at(block).vectorize(f.ii, L, TailStrategy::RoundUp);
  if (f.sb.defined()) {
    if (f.maxGroup != regK)
      throw CompileError("internal: the block max's groups (" + std::to_string(f.maxGroup) +
                         " keys) are not the Q.K^T register block's " + std::to_string(regK));
    computeGroupsWith(f.sb, f.s, qkKeyGroup, rowBlocks);
    msg << "; the block's row max per register block, with Q.K^T";
  }
  if (f.pb.defined()) {
    Var gq(f.p.name() + "_gq"), gi(f.p.name() + "_gi");
    f.p.bound_extent(f.ii, R)
        .split(f.jj, gq, gi, f.sumGroup)
        .reorder(f.ii, gi, gq)
        .unroll(f.ii)
        .unroll(gi);
    computeGroupsWith(f.pb, f.p, gq, false);
    msg << "; the row sum per " << f.sumGroup << " keys, with the probabilities";
  }
  for (Func g : {f.mc, f.lc})
    partialReductions(g);
}

/// The block's row max or sum `g`, over its entries (or one value per group of them), in
/// interleaved partial results (rfactor) that the unrolled loop keeps in registers: one
/// accumulator per row vector made each a chain of dependent vmaxps / vaddps, latency-bound. As
/// many partial results as divide the entries (kPartials, else 2).
void CpuFusedSchedule::partialReductions(Func g) {
  g.compute_at(block).vectorize(f.ii, L, TailStrategy::RoundUp);
  const Internal::ReductionVariable over = g.update().get_schedule().rvars()[0];
  const int64_t *entries = Internal::as_const_int(over.extent);
  const int parts = !entries                    ? 1
                    : *entries % kPartials == 0 ? kPartials
                    : *entries % 2 == 0         ? 2
                                                : 1;
  if (parts == 1) {
    g.update().vectorize(f.ii, L);
    return;
  }
  RVar jo(g.name() + "_jo"), ji(g.name() + "_ji");
  Var u(g.name() + "_u");
  Func part = g.update().split(RVar(over.var), jo, ji, parts).rfactor(ji, u);
  part.compute_at(block).bound_extent(f.ii, R).bound_extent(u, parts);
  part.vectorize(f.ii, L).unroll(f.ii).unroll(u);
  part.update().reorder(f.ii, u, jo).vectorize(f.ii, L).unroll(f.ii).unroll(u);
  g.update().vectorize(f.ii, L).unroll(ji);
}

/// Fewer rows than lanes (decode): keys in the lanes. Each score is a dot product over the feature
/// dim, vectorized along it (rfactor) and reduced across lanes; the block's probabilities are
/// vectors of keys.
void CpuFusedSchedule::decodeBlock() {
  Var jo(f.s.name() + "_jo"), ji(f.s.name() + "_ji"), u(f.sacc.name() + "_u");
  f.s.compute_at(block).bound_extent(f.ii, R);
  std::vector<Var> keysFirst = f.s.args();
  std::swap(keysFirst[0], keysFirst[1]);
  f.s.reorder_storage(keysFirst)
      .split(f.jj, jo, ji, L, TailStrategy::RoundUp)
      .reorder(ji, f.ii, jo)
      .vectorize(ji);
  f.sacc.compute_at(f.s, jo).bound_extent(f.jj, L).bound_extent(f.ii, R);
  RVar rdo(f.sacc.name() + "_rdo"), rdi(f.sacc.name() + "_rdi");
  Func partial =
      f.sacc.update().split(f.rd.x, rdo, rdi, L, TailStrategy::GuardWithIf).rfactor(rdi, u);
  std::vector<Var> lanesFirst = partial.args(); // rfactor puts the new dim last: store it first
  lanesFirst.insert(lanesFirst.begin(), lanesFirst.back());
  lanesFirst.pop_back();
  partial.compute_at(f.s, jo).reorder_storage(lanesFirst).vectorize(u, L);
  // Four keys at a time, each with its own accumulator, each key's row read whole before the
  // next's: K streams from memory in address order, which the hardware prefetchers follow better
  // than four interleaved streams.
  Var k4(f.sacc.name() + "_k4"), ki(f.sacc.name() + "_ki");
  partial.update().split(f.jj, k4, ki, 4).reorder(u, rdo, ki, k4).vectorize(u, L).unroll(ki);
  specializeTanh(partial.update());
  if (f.kpE.defined()) // read once per kv batch: computed there, like the projection it reads
    f.kpE.compute_at(task).vectorize(f.d, L, TailStrategy::GuardWithIf);
  f.sacc.update().atomic().vectorize(rdi, L); // one horizontal add per score
  f.p.compute_at(block)
      .reorder_storage(keysFirst)
      .reorder(f.jj, f.ii)
      .vectorize(f.jj, L, TailStrategy::RoundUp);
  f.mc.compute_at(block);
  f.lc.compute_at(block);
  msg << "; decode: keys in " << L << " lanes, dot products vectorized along the feature dim";

  // Where the P.V register blocks run past Dv (a dynamic Dv, or one not a multiple of them), P.V
  // reading V directly in its unrolled block clamps the value index per lane: a gather per vector.
  // Copied per block with a loop over the value vectors, Halide splits off the vectors that need
  // no clamp and loads them whole. Where the blocks cover Dv exactly, V is read in place: decode
  // reads it once, and the copy only added a pass over the block.
  if (!staticDv || f.staticDv != dvBlocks) {
    stageV(block);
    msg << "; V copied per key block (its value blocks run past Dv)";
    return;
  }
  msg << "; V read in place";
  if (f.vSizeAsDeclared.defined()) {
    // Halide clamps each vector of V to the buffer's Dv (the input's boundary condition) unless it
    // knows Dv: a gather per vector. The requirements have checked Dv already.
    res.specialize(f.vSizeAsDeclared);
    res.specialize_fail("internal: V's value dim is not the size its type declares");
    msg << " (specialized on the declared Dv)";
  }
}

/// P.V: regQ rows x regV vectors, keys in chunks of chunk_k so a V chunk stays in L1 across the row
/// blocks. (A reg_q that does not divide the tile's rows gets a guarded last row block.)
void CpuFusedSchedule::productsPV() {
  Var io(f.oc.name() + "_io"), iq(f.oc.name() + "_iq"), eo(f.oc.name() + "_eo"),
      ev(f.oc.name() + "_ev");
  RVar jc(f.oc.name() + "_jc"), jk(f.oc.name() + "_jk");
  f.oc.compute_at(block).bound_extent(f.ii, R);
  if (staticDv)
    f.oc.bound_extent(f.e, dvBlocks);
  f.oc.vectorize(f.e, L, TailStrategy::RoundUp);
  Stage pv = f.oc.update();
  pv.split(f.ii, io, iq, regQ, R % regQ == 0 ? TailStrategy::RoundUp : TailStrategy::GuardWithIf)
      .split(f.rj.x, jc, jk, chunk, TailStrategy::GuardWithIf)
      .split(f.e, eo, ev, regV * L, TailStrategy::RoundUp)
      .reorder(ev, iq, jk, io, eo, jc)
      .vectorize(ev, L)
      .unroll(ev)
      .unroll(iq);
  msg << "; P.V register block " << regQ << " rows x " << regV << " x " << L
      << " values, keys in chunks of " << chunk;
}

/// Buffers of a tile and of a block: allocated once per task, reused for every tile and block.
/// Not decode tiles: with one row per tile Halide 14's sliding window over the tile loop computed
/// the hoisted queries and scores only for tiles after the first, which then read them
/// uninitialized (fused-schedules.mlir decode_heads_one_block). Nor grouped tiles (their states
/// are a group's), nor a task of one tile (hoisting saves nothing there, and with folded block
/// buffers Halide's bounds for the first block spanned two blocks: "fold factor too small").
void CpuFusedSchedule::hoistBuffers() {
  const bool oneTilePerTask = f.staticRows != kernel::kDynamic && f.staticRows <= R;
  const bool hoistTileBuffers =
      hasBatch && !tiles && !splitK && !decode && !grouped && !oneTilePerTask;
  const bool hoistBlockBuffers = hoistTileBuffers && !f.firstBlockVaries && !f.lastBlockIsSelect;
  // With one block, the block's stages are computed in the result's tile loop, whose rows Halide
  // bounds by two tiles (a row's tile is a division); they are one tile, so their loops and the
  // buffers stored there have constant extents. The hoisted ones are folded instead.
  if (f.oneBlock) {
    std::vector<Func> perTile = {f.sacc, f.mc, f.lc, f.oc};
    if (splitK)
      perTile.push_back(f.blk);
    if (!hoistBlockBuffers)
      perTile.insert(perTile.end(), {f.s, f.sb, f.p, f.pb});
    for (Func g : perTile)
      if (g.defined())
        g.bound_extent(f.it, 1);
  }
  if (!hoistTileBuffers)
    return;
  if (hoistBlockBuffers)
    for (Func g : {f.s, f.p, f.sb, f.pb})
      if (g.defined())
        g.store_at(task).fold_storage(f.c, 1).fold_storage(f.it, 1);
  // (Not the additive query tile with two score forms: one branch does not read it, and Halide then
  // bounded it by the result's rows, two tiles where a dynamic row count shifts the last tile
  // inward, which a fold of one tile failed at run time: "accessed out of order".)
  for (Func g : {qs, f.combine, f.rowScale}) {
    if (f.oneBlock && g.name() == f.combine.name())
      continue; // inlined
    if (!f.tanhSplit.defined() || g.name() != qs.name())
      g.store_at(task).fold_storage(f.it, 1);
  }
  msg << "; tile buffers hoisted out of the tile loop"
      << (f.firstBlockVaries    ? " (block buffers not: the first block varies with the tile)"
          : f.lastBlockIsSelect ? " (block buffers not: the last block is a select)"
                                : "");
}

} // namespace

void scheduleFusedAttentionCpu(FusedAttentionStage f, const FusedRoot &root,
                               const kernel::ScheduleSpec &spec, const CpuParams &defaults,
                               const std::string &owner, ScheduleLog &log) {
  CpuFusedSchedule s(std::move(f), root, spec, defaults, owner);
  s.placeResult();
  s.placeTile();
  s.placeBlockLoop();
  if (!s.isDecode()) {
    s.prefillScores();
    s.prefillSoftmax();
  } else {
    s.decodeBlock();
  }
  s.productsPV();
  s.hoistBuffers();
  log.add(s.log());
}

} // namespace attn::schedule
