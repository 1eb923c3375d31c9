//===- MultiHead.cpp - attn.multi_head ------------------------------------===//
//
// Q = x_q W_q + b_q, K = x_kv W_k + b_k, V = x_kv W_v + b_v (row-vector convention); heads are column
// blocks of Q, K, V; attention per head (GQA: head h reads kv head h / (H / Hkv)); heads are
// concatenated and projected, y = concat(heads) W_o + b_o.
//
//===----------------------------------------------------------------------===//

#include "Ops.h"

using namespace Halide;
namespace k = attn::kernel;

namespace attn::lowering {

namespace {

/// x [B, T, E] times W [E, N] plus an optional bias [N]: [B, T, N].
HTensor project(const std::string &name, const std::string &label, const HTensor &x,
                const HTensor &w, const HTensor *bias, OpStages &st) {
  ContractionSpec c;
  c.name = name;
  c.label = label;
  c.extents = {x.extent(0), x.extent(1), w.extent(1)};
  c.reduceExtent = x.extent(2);
  c.term = [&x, &w](const std::vector<Expr> &b, Expr t, Expr n, Expr e) {
    return x.at({b[0], t, e}) * w.at({e, n});
  };
  if (bias)
    c.epilogue = [bias](Expr acc, const std::vector<Expr> &, Expr, Expr n) {
      return acc + bias->at({n});
    };
  c.rhs = w.func; // Halide dims (n, e): x = n is contiguous
  c.rhsXDim = 0;
  c.rhsRDim = 1;
  return contraction(c, st);
}

/// [B, T, heads * d] seen as [B, heads, T, d].
HTensor splitHeads(const std::string &name, const HTensor &x, Expr heads) {
  Expr d = x.extent(2) / heads;
  std::vector<Var> v = makeVars(4, name + "_d");
  HTensor t;
  t.func = Func(name);
  def(t.func, v) = x.at({v[0], v[2], v[1] * d + v[3]});
  t.extents = {x.extent(0), heads, x.extent(1), d};
  return t;
}

} // namespace

HTensor lowerMultiHead(const OpContext &ctx, OpStages &st) {
  const k::OpSpec &op = ctx.op;
  const std::string &n = ctx.name;
  const HTensor &xq = ctx.value(op.xq), &xkv = ctx.value(op.xkv);
  Expr heads = static_cast<int>(op.heads), kvHeads = static_cast<int>(op.kvHeads);

  HTensor q = project(n + "_q", "x_q.W_q", xq, ctx.value(op.wq), ctx.optional(op.bq), st);
  HTensor kk = project(n + "_k", "x_kv.W_k", xkv, ctx.value(op.wk), ctx.optional(op.bk), st);
  HTensor v = project(n + "_v", "x_kv.W_v", xkv, ctx.value(op.wv), ctx.optional(op.bv), st);
  HTensor qh = splitHeads(n + "_qh", q, heads), kh = splitHeads(n + "_kh", kk, kvHeads),
          vh = splitHeads(n + "_vh", v, kvHeads);

  HTensor o = attentionOf(n + "_attn", op, qh, kh, vh, nullptr, nullptr,
                          ctx.optional(op.mask.keyLengths), ctx.optional(op.mask.mask), st);

  // Concatenate the heads: ctx[b, t, h * dv + e] = o[b, h, t, e].
  Expr dv = o.extent(3);
  std::vector<Var> cv = makeVars(3, n + "_cat_d");
  HTensor cat;
  cat.func = Func(n + "_concat");
  def(cat.func, cv) = o.at({cv[0], cv[2] / dv, cv[1], cv[2] % dv});
  cat.extents = {o.extent(0), o.extent(2), heads * dv};
  return project(n, "heads.W_o", cat, ctx.value(op.wo), ctx.optional(op.bo), st);
}

} // namespace attn::lowering
