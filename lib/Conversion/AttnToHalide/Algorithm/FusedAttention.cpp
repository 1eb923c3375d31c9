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
//   - blocks that a causal mask, a window or the key lengths leave empty for the whole tile are not
//     visited (an RDom predicate Halide turns into loop bounds); entries of the visited blocks are
//     masked one by one.
// R and KB are parameters of the formulation (chosen by the schedule, #attn.schedule tile_q and
// block_k); the result does not depend on them beyond float rounding. Block skipping can be turned
// off (GPU targets: see Lowering.h); the entry-by-entry mask alone then gives the same result.
//
//===----------------------------------------------------------------------===//

#include "Ops.h"

using namespace Halide;
namespace k = attn::kernel;

namespace attn::lowering {

HTensor fusedAttentionOf(const std::string &name, const k::OpSpec &op, const HTensor &q,
                         const HTensor &key, const HTensor &v, const HTensor *weight,
                         const HTensor *vec, const HTensor *keyLengths, const HTensor *maskOperand,
                         const FusedBlocking &blocking, OpStages &st) {
  FusedAttentionStage f;
  f.label = std::string("fused ") + k::scoreKindName(op.score) + " attention";
  f.additive = op.score == k::ScoreKind::Additive;
  f.staticDk = key.staticExtent(-1);
  f.staticDv = v.staticExtent(-1);
  f.staticTk = key.staticExtent(-2);
  const int R = blocking.tileRows, KB = blocking.blockKeys;
  f.schedule = op.schedule;
  f.tileRows = R;
  f.blockKeys = KB;
  const int nb = q.rank() - 2; // batch dims
  Expr tq = q.extent(-2), tk = key.extent(-2), dk = key.extent(-1);
  Expr group = nb >= 1 ? q.extent(-3) / key.extent(-3) : Expr(1);

  f.d = Var(name + "_d");
  f.e = Var(name + "_e");
  f.ii = Var(name + "_ii");
  f.jj = Var(name + "_jj");
  f.c = Var(name + "_c");
  f.it = Var(name + "_it");
  f.r = Var(name + "_r");
  f.bk = toHalideOrder(makeVars(nb, name + "_b")); // innermost (kv head) first
  std::vector<Expr> bkT = toHalideOrder(asExprs(f.bk)); // tensor order
  auto withBk = [&](std::vector<Expr> inner) { return concat(inner, asExprs(f.bk)); };

  // Row r of kv batch kvb (tensor order) is query i of head h = hk * group + r / Tq.
  auto queryIndex = [&](Expr r, std::vector<Expr> kvb) {
    if (nb >= 1)
      kvb.back() = kvb.back() * group + r / tq;
    return std::make_pair(kvb, nb >= 1 ? r % tq : r);
  };
  auto Q = [&](Expr d, Expr r, const std::vector<Expr> &kvb) {
    auto [b, i] = queryIndex(r, kvb);
    return q.at(concat(b, {i, d}));
  };

  // K and V as the kernel reads them, so a schedule can stage them. Blocks and tiles run past the
  // last key and row; the clamps keep the producers of q, k and v (projections, when they are
  // computed in the same pipeline) from being computed past their ends.
  f.kRead = Func(name + "_k");
  f.kRead(withBk({f.d, f.jj})) = key.at(concat(bkT, {min(f.jj, tk - 1), f.d}));
  f.vRead = Func(name + "_v");
  f.vRead(withBk({f.e, f.jj})) = v.at(concat(bkT, {min(f.jj, tk - 1), f.e}));

  Expr rowOf = f.it * R + f.ii; // the tile's row
  Expr rowRead = min(rowOf, group * tq - 1);
  Expr keyOf = f.c * KB + f.jj; // the block's key

  // Block scores.
  f.sacc = Func(name + "_sacc");
  f.s = Func(name + "_s");
  f.sacc(withBk({f.ii, f.jj, f.c, f.it})) = 0.0f;
  if (!f.additive) {
    Expr scale = op.score == k::ScoreKind::ScaledDot
                     ? (op.scale ? Expr(*op.scale) : 1.0f / sqrt(cast<float>(dk)))
                     : Expr(1.0f);
    f.rd = RDom(0, dk, name + "_rd");
    f.qs = Func(name + "_qs");
    f.qs(withBk({f.d, f.ii, f.it})) = Q(f.d, rowRead, bkT) * scale;
    f.sacc(withBk({f.ii, f.jj, f.c, f.it})) +=
        f.qs(withBk({f.rd.x, f.ii, f.it})) * f.kRead(withBk({f.rd.x, keyOf}));
  } else {
    // v_a^T tanh(qp_i + kp_j): the query and key halves of W_a applied once per row; the [Tq, Tk,
    // d_a] tensor is never formed (the reduction over d_a runs inside the score's register block).
    const HTensor &wa = *weight, &va = *vec;
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
        [&](Expr d, Expr r, const std::vector<Expr> &b) { return Q(d, r, b); }, 0);
    HTensor kp = project(
        "_kp", "k.W_a[:, Dq:]^T", tk, dk,
        [&](Expr d, Expr j, const std::vector<Expr> &b) { return key.at(concat(b, {j, d})); }, dq);
    f.kp = kp.func;
    f.qpT = Func(name + "_qpt");
    f.qpT(withBk({f.d, f.ii, f.it})) = qp.func(withBk({f.d, rowRead}));
    f.rd = RDom(0, da, name + "_ra");
    f.sacc(withBk({f.ii, f.jj, f.c, f.it})) +=
        va.at({f.rd.x}) * tanhApprox(f.qpT(withBk({f.rd.x, f.ii, f.it})) +
                                     f.kp(withBk({f.rd.x, min(keyOf, tk - 1)})));
  }
  f.s(withBk({f.ii, f.jj, f.c, f.it})) = f.sacc(withBk({f.ii, f.jj, f.c, f.it}));

  // The mask, entry by entry.
  auto [qBatch, qi] = queryIndex(rowOf, bkT);
  Expr diag = op.mask.align == k::Align::BottomRight ? qi + (tk - tq) : qi;
  Expr keep = keyOf < tk;
  if (op.mask.causal)
    keep = keep && keyOf <= diag;
  if (op.mask.window) {
    Expr w = static_cast<int>(*op.mask.window);
    keep = keep && keyOf > diag - w;
    if (!op.mask.causal)
      keep = keep && keyOf < diag + w;
  }
  if (keyLengths)
    keep = keep && keyOf < keyLengths->at({qBatch.begin(), qBatch.begin() + keyLengths->rank()});
  Expr score = f.s(withBk({f.ii, f.jj, f.c, f.it}));
  if (maskOperand) {
    const HTensor &m = *maskOperand;
    std::vector<Expr> full = concat(qBatch, {qi, keyOf});
    std::vector<Expr> midx;
    for (int d = 0; d < m.rank(); ++d)
      midx.push_back(select(m.extent(d) == 1, 0, full[full.size() - m.rank() + d]));
    if (m.elem == k::ElemType::Bool)
      keep = keep && m.at(midx);
    else
      score = score + m.at(midx);
  }
  Expr negInf = Float(32).min();
  Func sm(name + "_sm");
  sm(withBk({f.ii, f.jj, f.c, f.it})) = select(keep, score, negInf);

  // Per block: max, probabilities, their sum, and P.V.
  f.rj = RDom(0, KB, name + "_rj");
  f.mc = Func(name + "_mc");
  f.mc(withBk({f.ii, f.c, f.it})) = negInf;
  f.mc(withBk({f.ii, f.c, f.it})) =
      max(f.mc(withBk({f.ii, f.c, f.it})), sm(withBk({f.ii, f.rj.x, f.c, f.it})));
  f.p = Func(name + "_p");
  Expr sv = sm(withBk({f.ii, f.jj, f.c, f.it}));
  // exp(-inf - m) is exactly 0 for a finite m; a block whose keys are all masked has m = -inf, taken
  // as 0 so that its entries give exp(-inf) = 0, not exp(NaN). A +inf score makes m = +inf and
  // inf - inf = NaN: the row is NaN, as IEEE (and numpy) have it.
  Expr m = f.mc(withBk({f.ii, f.c, f.it}));
  f.p(withBk({f.ii, f.jj, f.c, f.it})) = expNonPositive(sv - select(isNegInf(m), 0.0f, m));
  f.lc = Func(name + "_lc");
  f.lc(withBk({f.ii, f.c, f.it})) = 0.0f;
  f.lc(withBk({f.ii, f.c, f.it})) += f.p(withBk({f.ii, f.rj.x, f.c, f.it}));
  f.oc = Func(name + "_oc");
  f.oc(withBk({f.e, f.ii, f.c, f.it})) = 0.0f;
  f.oc(withBk({f.e, f.ii, f.c, f.it})) +=
      f.p(withBk({f.ii, f.rj.x, f.c, f.it})) * f.vRead(withBk({f.e, f.c * KB + f.rj.x}));
  f.blk = Func(name + "_blk");
  f.blk(withBk({f.e, f.ii, f.c, f.it})) =
      Tuple(f.oc(withBk({f.e, f.ii, f.c, f.it})), f.lc(withBk({f.ii, f.c, f.it})),
            f.mc(withBk({f.ii, f.c, f.it})));

  // The online softmax over the blocks a tile can see.
  Expr blocks = (tk + KB - 1) / KB;
  f.rc = RDom(0, blocks, name + "_rc");
  if (blocking.skipBlocks) {
    Expr r0 = f.it * R, r1 = min(f.it * R + R, group * tq) - 1;
    Expr sameHead = nb >= 1 ? r0 / tq == r1 / tq : Halide::Internal::const_true();
    Expr iLo = nb >= 1 ? select(sameHead, r0 % tq, 0) : r0;
    Expr iHi = nb >= 1 ? select(sameHead, r1 % tq, tq - 1) : r1;
    Expr off = op.mask.align == k::Align::BottomRight ? tk - tq : Expr(0);
    Expr live = Halide::Internal::const_true();
    Expr firstKey = f.rc.x * KB, lastKey = f.rc.x * KB + (KB - 1);
    if (op.mask.causal)
      live = live && firstKey <= iHi + off;
    if (op.mask.window) {
      Expr w = static_cast<int>(*op.mask.window);
      live = live && lastKey > iLo + off - w;
      if (!op.mask.causal)
        live = live && firstKey < iHi + off + w;
    }
    // Key lengths over batch dims only (not the heads, which vary within a tile): skip past them.
    if (keyLengths && keyLengths->rank() <= nb - 1)
      live = live && firstKey < keyLengths->at({bkT.begin(), bkT.begin() + keyLengths->rank()});
    f.rc.where(live);
  }
  f.combine = Func(name + "_combine");
  std::vector<Expr> at = withBk({f.e, f.ii, f.it});
  f.combine(at) = Tuple(0.0f, negInf, 0.0f);
  Tuple b = f.blk(withBk({f.e, f.ii, f.rc.x, f.it}));
  Expr mOld = f.combine(at)[1], mNew = max(mOld, b[2]);
  Expr alpha = select(isNegInf(mOld), 0.0f, expNonPositive(mOld - mNew));
  Expr beta = select(isNegInf(b[2]), 0.0f, expNonPositive(b[2] - mNew));
  f.combine(at) = Tuple(f.combine(at)[0] * alpha + b[0] * beta, mNew,
                        f.combine(at)[2] * alpha + b[1] * beta);

  // The normalized result per (kv batch, row), then seen in the query's layout.
  f.res = Func(name + "_res");
  Tuple fin = f.combine(withBk({f.e, f.r % R, f.r / R}));
  f.res(withBk({f.e, f.r})) = select(fin[2] == 0.0f, 0.0f, fin[0] / fin[2]);

  std::vector<Var> outVars = makeVars(q.rank(), name + "_o");
  std::vector<Expr> oT = asExprs(outVars); // tensor order: qbatch..., i, e
  std::vector<Expr> kvb(oT.begin(), oT.end() - 2);
  Expr row = oT[q.rank() - 2];
  if (nb >= 1) {
    Expr h = kvb.back();
    kvb.back() = h / group;
    row = (h % group) * tq + row;
  }
  HTensor out;
  out.func = Func(name);
  def(out.func, outVars) = f.res(concat({oT.back(), row}, toHalideOrder(kvb)));
  out.extents = concat({q.extents.begin(), q.extents.end() - 1}, {v.extent(-1)});
  st.fused.push_back(f);
  return out;
}

} // namespace attn::lowering
