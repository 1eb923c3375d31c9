//===- FusedAttention.cpp - the fused attention kernel's algorithm --------===//
//
// A blocked formulation of weighted_sum(softmax(mask(score(q, k))), v) that never holds more than a
// tile of R query rows x KB keys of scores:
//   - query heads that share a kv head (GQA/MQA) are the rows of one problem per kv head:
//     r = (h % group) * Tq + i, so K and V are read once per kv head, never copied per query head;
//   - per tile (R rows) and key block c (KB keys): scores s, their row max m_c, p = exp(s - m_c),
//     l_c = sum p, o_c = p . V;
//   - an online softmax merges the blocks: (acc, M, L) <- (acc a + o_c b, max(M, m_c), L a + l_c b)
//     with a = exp(M - M'), b = exp(m_c - M'); the result is acc / L (0 when L = 0: fully masked);
//     with Tk known and at most one block, the state is that block's (o_c, m_c, l_c);
//   - without a float mask the scores are kept in base-2 units (scaled by log2(e), folded into the
//     scale the queries, the scores or v_a get anyway), so every exp above is a 2^x: one multiply
//     less per score;
//   - blocks that a causal mask, a window or the key lengths leave empty for the whole tile are not
//     visited (an RDom predicate Halide turns into loop bounds), the last one a tile sees is cut
//     after the tile's last visible key (prefill tiles, one query head per kv head); entries of the
//     visited blocks are masked one by one;
//   - m_c and l_c may be taken in groups of keys (FusedBlocking::maxGroup, sumGroup), so that a
//     schedule computes them in the loops of the scores and the probabilities (see below).
// R and KB are parameters of the formulation (chosen by the schedule, #attn.schedule tile_q and
// block_k); the result does not depend on them beyond float rounding. Block skipping can be turned
// off (GPU targets: see Lowering.h); the entry-by-entry mask alone then gives the same result.
//
//===----------------------------------------------------------------------===//

#include "attn/CodeGen/Halide/Ops.h"

using namespace Halide;
namespace k = attn::kernel;

namespace attn::lowering {
namespace {

/// Builds the fused kernel's Funcs stage by stage, one method per step of the file comment, called
/// by fusedAttentionOf in the order the Funcs are made. What the stages share (the operands, tile
/// and block, sizes, and the stage record `f` with the kernel's Vars) are members.
class FusedBuilder {
public:
  FusedBuilder(const std::string &name, const k::OpSpec &op, const HTensor &q, const HTensor &key,
               const HTensor &v, const HTensor *maskOperand, const FusedBlocking &blocking);
  void dotScores();
  void additiveScores(const HTensor &wa, const HTensor &va, OpStages &st);
  void visibleKeys(const HTensor *keyLengths);
  void maskedScores(const HTensor *keyLengths, const HTensor *maskOperand);
  void blockReductions();
  void onlineSoftmax();
  HTensor result(OpStages &st);

private:
  std::vector<Expr> withBk(std::vector<Expr> inner) const { return concat(inner, asExprs(f.bk)); }
  Expr expOf(Expr s) const {
    return floatMask ? expNonPositive(s, avx512) : exp2NonPositive(s, avx512);
  }
  Expr size(const HTensor &t, int d) const {
    return blocking.foldDeclaredSizes ? t.declaredExtent(d) : t.extent(d);
  }
  std::pair<std::vector<Expr>, Expr> queryIndex(Expr r, std::vector<Expr> kvb) const;
  Expr queryAt(Expr d, Expr r, const std::vector<Expr> &kvb) const;
  void tanhSplit(const HTensor &qp, const HTensor &kp, const HTensor &va, Expr da, Expr w,
                 Expr keyRow, Expr &initial, Expr &term);
  Expr groupTree(Expr e, int size, const std::function<Expr(Expr, Expr)> &combine) const;

  const std::string &name;
  const k::OpSpec &op;
  const HTensor &q, &key, &v;
  const FusedBlocking &blocking;
  FusedAttentionStage f;
  const int R, KB, nb; // tile rows, block keys, batch dims
  Expr tq, tk, dk, group;
  const bool floatMask, avx512;
  const float unit; // the scores' unit: log2(e) (base-2 units), 1 with a float mask
  bool oneHeadPerKv;
  std::vector<Expr> bkT;      // the kv batch Vars, tensor order
  Expr rowOf, rowRead, keyOf; // the tile's row (and as read, clamped) and the block's key
  Expr scoreScale;            // FusedBlocking::scaleScores: the scale, applied to each score
  Expr keyLo, keyHi;          // the keys a tile can see (visibleKeys)
  Expr keep, score;           // per entry: whether the masks keep it, and its score
  Expr negInf = Float(32).min();
  bool cutLastBlock = false;
  std::optional<Func> sm; // the scores as the block's reductions read them, masked
};

FusedBuilder::FusedBuilder(const std::string &name, const k::OpSpec &op, const HTensor &q,
                           const HTensor &key, const HTensor &v, const HTensor *maskOperand,
                           const FusedBlocking &blocking)
    : name(name), op(op), q(q), key(key), v(v), blocking(blocking), R(blocking.tileRows),
      KB(blocking.blockKeys), nb(q.rank() - 2),
      // Scores in base-2 units make every exp a 2^x (log2(e) folded into a scale applied anyway).
      // Not with a float mask: float32's lowest value (PyTorch's idiom) times log2(e) would
      // overflow to -inf, and a row masked so entirely would give zeros instead of uniform
      // weights (test/Integration/float-mask-lowest.test).
      floatMask(maskOperand && maskOperand->elem != k::ElemType::Bool), avx512(blocking.avx512Math),
      unit(floatMask ? 1.0f : kLog2e) {
  f.label = std::string("fused ") + k::scoreKindName(op.score) + " attention";
  f.additive = op.score == k::ScoreKind::Additive;
  f.staticDk = key.staticExtent(-1);
  f.staticDv = v.staticExtent(-1);
  f.staticTk = key.staticExtent(-2);
  f.schedule = op.schedule;
  f.tileRows = R;
  f.blockKeys = KB;
  // The row and key counts as constants where the types declare them (CPU): the rows' (head,
  // query) split and the key clamps then fold. Dk stays the buffer's: over a constant Dk, Halide
  // could not prove that decode's vectors of K need no clamp.
  tq = size(q, -2), tk = size(key, -2), dk = key.extent(-1);
  group = nb >= 1 ? size(q, -3) / size(key, -3) : Expr(1);
  // One query head per kv head, known at compile time: a tile's rows are one head's queries (the
  // tile's key range then has no select, which keeps the bounds Halide infers from it tight).
  oneHeadPerKv =
      nb == 0 || (q.staticExtent(-3) != k::kDynamic && q.staticExtent(-3) == key.staticExtent(-3));
  if (q.staticExtent(-2) != k::kDynamic) {
    if (nb == 0)
      f.staticRows = q.staticExtent(-2);
    else if (q.staticExtent(-3) != k::kDynamic && key.staticExtent(-3) != k::kDynamic)
      f.staticRows = q.staticExtent(-3) / key.staticExtent(-3) * q.staticExtent(-2);
  }

  f.d = Var(name + "_d");
  f.e = Var(name + "_e");
  f.ii = Var(name + "_ii");
  f.jj = Var(name + "_jj");
  f.c = Var(name + "_c");
  f.it = Var(name + "_it");
  f.r = Var(name + "_r");
  f.bk = toHalideOrder(makeVars(nb, name + "_b")); // innermost (kv head) first
  bkT = toHalideOrder(asExprs(f.bk));              // tensor order

  // K and V as the kernel reads them, so a schedule can stage them. Blocks and tiles run past the
  // last key and row; the clamps keep the producers of q, k and v (projections, when they are
  // computed in the same pipeline) from being computed past their ends.
  f.kRead = Func(name + "_k");
  f.kRead(withBk({f.d, f.jj})) = key.at(concat(bkT, {min(f.jj, tk - 1), f.d}));
  f.vRead = Func(name + "_v");
  f.vRead(withBk({f.e, f.jj})) = v.at(concat(bkT, {min(f.jj, tk - 1), f.e}));
  if (f.staticDv != k::kDynamic && !Internal::is_const(v.extent(-1)))
    f.vSizeAsDeclared = v.extent(-1) == static_cast<int>(f.staticDv);

  rowOf = f.it * R + f.ii;
  rowRead = min(rowOf, group * tq - 1);
  keyOf = f.c * KB + f.jj;
  f.sacc = Func(name + "_sacc");
  f.s = Func(name + "_s");
}

/// Row r of kv batch kvb (tensor order) is query i = r % Tq of head h = hk * group + r / Tq. Also
/// without batch dims (one head; a last tile's rows past Tq are dropped): the mask's row as r
/// itself let bounds inference relate a tile's rows to the cut block's keys, and the scores'
/// register block then needed rows past the tile.
std::pair<std::vector<Expr>, Expr> FusedBuilder::queryIndex(Expr r, std::vector<Expr> kvb) const {
  if (nb >= 1)
    kvb.back() = kvb.back() * group + r / tq;
  return std::make_pair(kvb, r % tq);
}

/// The query element d of row r: with one head per kv head, query r of head hk, without the
/// division and remainder (only here: in the mask, see queryIndex).
Expr FusedBuilder::queryAt(Expr d, Expr r, const std::vector<Expr> &kvb) const {
  if (oneHeadPerKv)
    return q.at(concat(kvb, {r, d}));
  auto [b, i] = queryIndex(r, kvb);
  return q.at(concat(b, {i, d}));
}

/// Scores of the dot kinds: one multiply per query element, or per score with
/// FusedBlocking::scaleScores (log2(e) inside the scale's own expression: Halide's simplifier would
/// not merge a second multiply of the product).
void FusedBuilder::dotScores() {
  Expr scale = op.score == k::ScoreKind::ScaledDot
                   ? (op.scale ? Expr(*op.scale * unit) : unit / sqrt(cast<float>(dk)))
                   : Expr(unit);
  f.rd = RDom(0, dk, name + "_rd");
  f.qs = Func(name + "_qs");
  Expr query = queryAt(f.d, rowRead, bkT);
  if (blocking.scaleScores)
    scoreScale = scale;
  f.qs(withBk({f.d, f.ii, f.it})) = blocking.scaleScores ? query : query * scale;
  f.sacc(withBk({f.ii, f.jj, f.c, f.it})) = 0.0f;
  f.sacc(withBk({f.ii, f.jj, f.c, f.it})) +=
      f.qs(withBk({f.rd.x, f.ii, f.it})) * f.kRead(withBk({f.rd.x, keyOf}));
}

/// Additive scores v_a^T tanh(qp_i + kp_j): the query and key halves of W_a applied once per row;
/// the [Tq, Tk, d_a] tensor is never formed (the reduction over d_a runs inside the score's
/// register block).
void FusedBuilder::additiveScores(const HTensor &wa, const HTensor &va, OpStages &st) {
  Expr da = wa.extent(0), dq = q.extent(-1);
  f.staticDa = wa.staticExtent(0);
  auto project = [&](const std::string &suffix, const std::string &label, Expr rows, Expr width,
                     std::function<Expr(Expr, Expr, const std::vector<Expr> &)> x, Expr offset) {
    ContractionSpec cs;
    cs.name = name + suffix;
    cs.label = label;
    cs.extents = concat(bkT, {rows, da});
    cs.reduceExtent = width;
    cs.term = [x, &wa, offset](const std::vector<Expr> &b, Expr t, Expr a, Expr d) {
      return x(d, t, b) * wa.at({a, offset + d});
    };
    cs.rhs = wa.func; // Halide dims (col, a): a is not contiguous
    cs.rhsXDim = 1;
    cs.rhsRDim = 0;
    return contraction(cs, st);
  };
  // The contractions' batch dims are the kv batch dims, in tensor order.
  HTensor qp = project(
      "_qp", "q.W_a[:, :Dq]^T", group * tq, dq,
      [&](Expr d, Expr r, const std::vector<Expr> &b) { return queryAt(d, r, b); }, 0);
  HTensor kp = project(
      "_kp", "k.W_a[:, Dq:]^T", tk, dk,
      [&](Expr d, Expr j, const std::vector<Expr> &b) {
        return key.at(concat(b, {j, d}));
      },
      dq);
  f.kp = kp.func;
  f.qpT = Func(name + "_qpt");
  f.qpT(withBk({f.d, f.ii, f.it})) = qp.func(withBk({f.d, rowRead}));
  f.rd = RDom(0, da, name + "_ra");
  Expr w = va.at({f.rd.x}) * unit, keyRow = min(keyOf, tk - 1);
  Expr term = tanhApprox(f.qpT(withBk({f.rd.x, f.ii, f.it})) + f.kp(withBk({f.rd.x, keyRow})), w);
  Expr initial = 0.0f;
  if (blocking.tanhSplit)
    tanhSplit(qp, kp, va, da, w, keyRow, initial, term);
  f.sacc(withBk({f.ii, f.jj, f.c, f.it})) = initial;
  f.sacc(withBk({f.ii, f.jj, f.c, f.it})) += term;
}

/// The additive score's terms as a split tanh: tanh(a + b) = 1 - 2 / (1 + e^{2a} e^{2b}), so
/// w tanh(a + b) = w + m / (1 + e^{2a} e^{2b}) with m = -2 w; the w's are added once, as the
/// score's initial value (their sum, wSum), and each term is 1 / (e^{2a} (e^{2b} / m) + 1 / m)
/// (tanhOfSumTerm): e^{2a} per tile row (qpE), e^{2b} / m per key (kpE), 1 / m per feature (wInv),
/// each computed once. Valid while every projected value is within kTanhSplitBound and every |m|
/// within [2^-32, 2^32] (tanhRange and mRange); otherwise the rational. A schedule specializes the
/// score's update on the condition, or computes both forms and selects.
void FusedBuilder::tanhSplit(const HTensor &qp, const HTensor &kp, const HTensor &va, Expr da,
                             Expr w, Expr keyRow, Expr &initial, Expr &term) {
  auto m = [&](Expr d) { return va.at({d}) * (-2.0f * unit); };
  f.qpE = Func(name + "_qpe");
  f.qpE(withBk({f.d, f.ii, f.it})) = tanhExpFactor(qp.func(withBk({f.d, rowRead})));
  f.kpE = Func(name + "_kpe");
  f.kpE(withBk({f.d, f.jj})) = tanhExpFactor(kp.func(withBk({f.d, f.jj}))) / m(f.d);
  f.wInv = Func(name + "_winv");
  f.wInv(f.d) = 1.0f / m(f.d);
  f.tanhRange = Func(name + "_range");
  f.tanhRange() = cast<uint32_t>(0);
  for (const HTensor *t : {&qp, &kp}) {
    Region all = {{0, da}, {0, t == &qp ? group * tq : tk}}; // Halide order: d_a first
    for (int d = nb - 1; d >= 0; --d)                        // the kv batch dims
      all.push_back({0, key.extent(d)});
    RDom rt(all, name + (t == &qp ? "_rq" : "_rk"));
    std::vector<Expr> at;
    for (int d = 0; d < rt.dimensions(); ++d)
      at.push_back(rt[d]);
    f.tanhRange() = max(f.tanhRange(), floatMagnitudeBits(t->func(at)));
    f.rangeDoms.push_back(rt);
  }
  // |m| and |1 / m| at most 2^32 (m = 0, inf or NaN fail it).
  f.mRange = Func(name + "_mrange");
  f.mRange() = cast<uint32_t>(0);
  f.mRange() =
      max(f.mRange(), max(floatMagnitudeBits(m(f.rd.x)), floatMagnitudeBits(f.wInv(f.rd.x))));
  f.tanhSplit = f.tanhRange() <= floatMagnitudeBits(kTanhSplitBound) &&
                f.mRange() <= floatMagnitudeBits(kTanhSplitWeightBound);
  f.wSum = Func(name + "_wsum");
  f.wSum() = 0.0f;
  f.wSum() += w;
  initial = select(f.tanhSplit, f.wSum(), 0.0f);
  term = select(f.tanhSplit,
                tanhOfSumTerm(f.qpE(withBk({f.rd.x, f.ii, f.it})), f.kpE(withBk({f.rd.x, keyRow})),
                              f.wInv(f.rd.x)),
                term);
}

/// The keys a tile can see, [keyLo, keyHi] (Exprs of the tile `it` and the kv batch): what the
/// masks leave visible to at least one of its rows. Rows of one tile may belong to two query heads
/// (GQA); then every row of the head counts.
void FusedBuilder::visibleKeys(const HTensor *keyLengths) {
  if (!blocking.skipBlocks)
    return;
  Expr r0 = f.it * R, r1 = min(f.it * R + R, group * tq) - 1;
  Expr iLo = r0, iHi = r1;
  if (!oneHeadPerKv) {
    Expr sameHead = r0 / tq == r1 / tq;
    iLo = select(sameHead, r0 % tq, 0);
    iHi = select(sameHead, r1 % tq, tq - 1);
  }
  Expr dLo = diagonalOf(op.mask, iLo, tq, tk), dHi = diagonalOf(op.mask, iHi, tq, tk);
  auto lower = [&](Expr bound) { keyHi = keyHi.defined() ? min(keyHi, bound) : bound; };
  if (op.mask.causal)
    lower(dHi);
  if (op.mask.window) {
    Expr w = windowWidth(op.mask, tq, tk);
    keyLo = dLo - w + 1;
    if (!op.mask.causal)
      lower(dHi + w - 1);
  }
  // Key lengths over batch dims only (not the heads, which vary within a tile); a negative
  // length keeps no key (max: INT32_MIN - 1 would wrap).
  if (keyLengths && keyLengths->rank() <= nb - 1)
    lower(max(keyLengths->at({bkT.begin(), bkT.begin() + keyLengths->rank()}), 0) - 1);
}

/// The scores with the masks applied entry by entry (the rule of Masking.cpp), as the block's
/// reductions read them (`sm`).
void FusedBuilder::maskedScores(const HTensor *keyLengths, const HTensor *maskOperand) {
  auto [qBatch, qi] = queryIndex(rowOf, bkT);
  // Keys past Tk (the last block's tail) are masked. With Tk known and a multiple of the block, no
  // block has a tail: the test is left out, so the max and exp passes carry no per-key select.
  // (The argument's extent is checked against its declared size before the pipeline runs.)
  keep = f.staticTk != k::kDynamic && f.staticTk % KB == 0 ? Halide::Internal::const_true()
                                                           : keyOf < tk;
  Expr length;
  if (keyLengths)
    length = keyLengths->at({qBatch.begin(), qBatch.begin() + keyLengths->rank()});
  keep = keep && maskKeeps(op.mask, qi, keyOf, tq, tk, length);
  score = f.sacc(withBk({f.ii, f.jj, f.c, f.it}));
  if (scoreScale.defined())
    score = score * scoreScale;
  if (maskOperand) {
    Expr entry = maskOperandAt(*maskOperand, concat(qBatch, {qi, keyOf}));
    if (maskOperand->elem == k::ElemType::Bool)
      keep = keep && entry;
    else
      score = score + entry;
  }
  // With one query head per kv head and tiles of at least 4 rows, the last block a tile sees is
  // cut after keyHi (a causal mask's diagonal block loses the keys past the tile's last row: they
  // are never computed). The cut is an RDom predicate on the block's keys; for Halide's bounds
  // inference to shrink the scores computed with it, the scores are stored masked (s) and read
  // without a select. Not with GQA (the cut's bound is then a select that bounds inference cannot
  // use), nor for decode tiles (fewer than 4 rows: a decode query sees every key up to its
  // diagonal, so the cut would save it nothing).
  cutLastBlock = keyHi.defined() && oneHeadPerKv && R >= 4;
  sm.emplace(name + "_sm");
  if (cutLastBlock) {
    f.s(withBk({f.ii, f.jj, f.c, f.it})) = select(keep, score, negInf);
    *sm = f.s;
  } else {
    f.s(withBk({f.ii, f.jj, f.c, f.it})) = score;
    (*sm)(withBk({f.ii, f.jj, f.c, f.it})) =
        select(keep, f.s(withBk({f.ii, f.jj, f.c, f.it})), negInf);
  }
}

/// A group's entries (entry j of group g: e at key jj * size + j) combined pairwise: a tree of
/// depth log2(size), since LLVM keeps the order it is given and a chain of dependent adds is
/// latency.
Expr FusedBuilder::groupTree(Expr e, int size,
                             const std::function<Expr(Expr, Expr)> &combine) const {
  std::vector<Expr> level;
  for (int j = 0; j < size; ++j)
    level.push_back(Halide::Internal::substitute(f.jj.name(), f.jj * size + j, e));
  while (level.size() > 1) {
    std::vector<Expr> next;
    for (size_t j = 0; j + 1 < level.size(); j += 2)
      next.push_back(combine(level[j], level[j + 1]));
    if (level.size() % 2)
      next.push_back(level.back());
    level = std::move(next);
  }
  return level[0];
}

/// Per block: the row max, the probabilities, their sum and P.V (over the block's keys up to keyHi
/// when the last block is cut; the entries left are masked one by one). The max and the sum may be
/// taken in groups (FusedBlocking::maxGroup, sumGroup): the max of each group is a Func of the
/// scores' own accumulators and the sum of each group repeats the probabilities' expression, so
/// that a schedule computes them in the loops of the scores and of the probabilities (Halide 14
/// fuses the loops of two readers of one Func, never of a Func and its reader). A group of the max
/// may run past the block: those keys are masked entry by entry, or past Tk, where K's reads are
/// clamped and repeat key Tk - 1's score, and a larger max changes no probability beyond rounding
/// (the online softmax rescales by whatever max it was given). Not when the last block is cut: the
/// groups' loop would take the union of both bounds and lose the cut's saving (docs/SCHEDULES.md).
void FusedBuilder::blockReductions() {
  f.rj = RDom(0, KB, name + "_rj");
  if (cutLastBlock)
    // At least key 0: a tile that sees no key visits no block, but a negative bound gave the cut
    // block's buffers a negative size, which Halide refused at compile time.
    f.rj.where(f.c * KB + f.rj.x <= max(keyHi, 0));
  const bool groupMax = blocking.maxGroup > 0 && !cutLastBlock;
  const bool groupSum = blocking.sumGroup > 0 && KB % blocking.sumGroup == 0 && !cutLastBlock;
  f.mc = Func(name + "_mc");
  f.mc(withBk({f.ii, f.c, f.it})) = negInf;
  if (groupMax) {
    const int G = blocking.maxGroup;
    Expr groupMaxOf =
        groupTree(select(keep, score, negInf), G, [](Expr a, Expr b) { return max(a, b); });
    f.sb = Func(name + "_sb");
    f.sb(withBk({f.ii, f.jj, f.c, f.it})) = groupMaxOf;
    f.maxGroup = G;
    RDom rg(0, (KB + G - 1) / G, name + "_rg");
    f.mc(withBk({f.ii, f.c, f.it})) =
        max(f.mc(withBk({f.ii, f.c, f.it})), f.sb(withBk({f.ii, rg.x, f.c, f.it})));
  } else {
    f.mc(withBk({f.ii, f.c, f.it})) =
        max(f.mc(withBk({f.ii, f.c, f.it})), (*sm)(withBk({f.ii, f.rj.x, f.c, f.it})));
  }
  f.p = Func(name + "_p");
  Expr sv = (*sm)(withBk({f.ii, f.jj, f.c, f.it}));
  // exp(-inf - m) is exactly 0 for a finite m; a block whose keys are all masked has m = -inf,
  // taken as 0 so that its entries give exp(-inf) = 0, not exp(NaN). A +inf score makes m = +inf
  // and inf - inf = NaN: the row is NaN, as IEEE (and numpy) have it.
  Expr m = f.mc(withBk({f.ii, f.c, f.it}));
  Expr prob = expOf(sv - select(isNegInf(m), 0.0f, m));
  f.p(withBk({f.ii, f.jj, f.c, f.it})) = prob;
  f.lc = Func(name + "_lc");
  f.lc(withBk({f.ii, f.c, f.it})) = 0.0f;
  if (groupSum) {
    const int G = blocking.sumGroup;
    Expr groupSumOf = groupTree(prob, G, [](Expr a, Expr b) { return a + b; });
    f.pb = Func(name + "_pb");
    f.pb(withBk({f.ii, f.jj, f.c, f.it})) = groupSumOf;
    f.sumGroup = G;
    RDom rg(0, KB / G, name + "_rg");
    f.lc(withBk({f.ii, f.c, f.it})) += f.pb(withBk({f.ii, rg.x, f.c, f.it}));
  } else {
    f.lc(withBk({f.ii, f.c, f.it})) += f.p(withBk({f.ii, f.rj.x, f.c, f.it}));
  }
  f.oc = Func(name + "_oc");
  f.oc(withBk({f.e, f.ii, f.c, f.it})) = 0.0f;
  f.oc(withBk({f.e, f.ii, f.c, f.it})) +=
      f.p(withBk({f.ii, f.rj.x, f.c, f.it})) * f.vRead(withBk({f.e, f.c * KB + f.rj.x}));
  f.blk = Func(name + "_blk");
  f.blk(withBk({f.e, f.ii, f.c, f.it})) =
      Tuple(f.oc(withBk({f.e, f.ii, f.c, f.it})), f.lc(withBk({f.ii, f.c, f.it})),
            f.mc(withBk({f.ii, f.c, f.it})));
}

/// The online softmax over the blocks a tile can see: blocks no row of the tile can see are not
/// visited (an RDom predicate Halide turns into loop bounds).
void FusedBuilder::onlineSoftmax() {
  Expr blocks = (tk + KB - 1) / KB;
  f.rc = RDom(0, blocks, name + "_rc");
  if (blocking.skipBlocks) {
    Expr live = Halide::Internal::const_true();
    if (keyHi.defined()) {
      live = live && f.rc.x * KB <= keyHi;
      f.lastBlockIsSelect = !oneHeadPerKv;
    }
    if (keyLo.defined()) {
      live = live && f.rc.x * KB + (KB - 1) >= keyLo;
      f.firstBlockVaries = true;
    }
    f.rc.where(live);
  }
  f.combine = Func(name + "_combine");
  std::vector<Expr> at = withBk({f.e, f.ii, f.it});
  const bool oneBlock = f.staticTk != k::kDynamic && f.staticTk <= KB;
  f.oneBlock = oneBlock && blocking.pureOneBlockState;
  if (f.oneBlock) {
    // One block (Tk known, at most the block): the state is the block's own, a pure Func that a
    // schedule inlines, so that the result reads the block's P.V and row sum directly. A block the
    // masks leave empty for the whole tile is computed all the same: its sum is 0 and the tile's
    // rows are zeros, as when it is skipped.
    Tuple b = f.blk(withBk({f.e, f.ii, 0, f.it}));
    f.combine(at) = Tuple(b[0], b[2], b[1]);
    return;
  }
  f.combine(at) = Tuple(0.0f, negInf, 0.0f);
  Tuple b = f.blk(withBk({f.e, f.ii, f.rc.x, f.it}));
  if (oneBlock) {
    // Merging the one block into the initial state (0, -inf, 0) gives alpha = 0 and beta = 1 (or
    // 0 with all its keys masked, when o_c and l_c are 0 already), so the state is the block's
    // own; the merge's two exps per output element are left out.
    f.combine(at) = Tuple(b[0], b[2], b[1]);
    return;
  }
  Expr mOld = f.combine(at)[1], mNew = max(mOld, b[2]);
  Expr alpha = select(isNegInf(mOld), 0.0f, expOf(mOld - mNew));
  Expr beta = select(isNegInf(b[2]), 0.0f, expOf(b[2] - mNew));
  f.combine(at) =
      Tuple(f.combine(at)[0] * alpha + b[0] * beta, mNew, f.combine(at)[2] * alpha + b[1] * beta);
}

/// The normalized result per (kv batch, row), then seen in the query's layout. With
/// FusedBlocking::rowScale, one division per row, then a multiply per element. Without it (GPU),
/// each element divides by its own copy of the row sum: reading element 0's copy made the split-K
/// merge kernel compute the state at element 0 as well, in a heap allocation. A fully masked row
/// (sum 0) gives zeros whatever its accumulator holds (0 x inf would be NaN).
HTensor FusedBuilder::result(OpStages &st) {
  f.res = Func(name + "_res");
  Tuple fin = f.combine(withBk({f.e, f.r % R, f.r / R}));
  Expr normalized = fin[0] / fin[2];
  if (blocking.rowScale) {
    f.rowScale = Func(name + "_rowscale");
    f.rowScale(withBk({f.ii, f.it})) = 1.0f / f.combine(withBk({0, f.ii, f.it}))[2];
    normalized = fin[0] * f.rowScale(withBk({f.r % R, f.r / R}));
  }
  f.res(withBk({f.e, f.r})) = select(isZero(fin[2]), 0.0f, normalized);

  std::vector<Var> outVars = makeVars(q.rank(), name + "_o");
  std::vector<Expr> oT = asExprs(outVars); // tensor order: qbatch..., i, e
  std::vector<Expr> kvb(oT.begin(), oT.end() - 2);
  Expr row = oT[q.rank() - 2];
  f.rowsAreQueries = oneHeadPerKv;
  if (nb >= 1 && !oneHeadPerKv) { // (with one head per kv head, the index is res's as it is)
    Expr h = kvb.back();
    kvb.back() = h / group;
    row = (h % group) * tq + row;
  }
  HTensor out;
  out.func = Func(name);
  def(out.func, outVars) = f.res(concat({oT.back(), row}, toHalideOrder(kvb)));
  f.out = out.func;
  out.extents = concat({q.extents.begin(), q.extents.end() - 1}, {v.extent(-1)});
  st.fused.push_back(f);
  return out;
}

} // namespace

HTensor fusedAttentionOf(const std::string &name, const k::OpSpec &op, const HTensor &q,
                         const HTensor &key, const HTensor &v, const HTensor *weight,
                         const HTensor *vec, const HTensor *keyLengths, const HTensor *maskOperand,
                         const FusedBlocking &blocking, OpStages &st) {
  FusedBuilder kernel(name, op, q, key, v, maskOperand, blocking);
  if (op.score == k::ScoreKind::Additive)
    kernel.additiveScores(*weight, *vec, st);
  else
    kernel.dotScores();
  kernel.visibleKeys(keyLengths);
  kernel.maskedScores(keyLengths, maskOperand);
  kernel.blockReductions();
  kernel.onlineSoftmax();
  return kernel.result(st);
}

} // namespace attn::lowering
