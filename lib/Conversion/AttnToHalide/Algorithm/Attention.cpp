//===- Attention.cpp - attn.attention -------------------------------------===//
//
// The reference composition score -> mask -> softmax -> weighted_sum, with grouped-query views.
//
//===----------------------------------------------------------------------===//

#include "Ops.h"

using namespace Halide;
namespace k = attn::kernel;

namespace attn::lowering {

namespace {

/// k or v seen with the query's head count: query head h reads kv head h / (Hq / Hkv). A view (an
/// index mapping), not a copy.
HTensor groupedView(const std::string &name, const HTensor &t, const HTensor &q) {
  if (t.rank() < 3)
    return t;
  int heads = t.rank() - 3;
  Expr group = q.extent(heads) / t.extent(heads);
  std::vector<Var> vars = makeVars(t.rank(), name + "_d");
  std::vector<Expr> idx = asExprs(vars);
  idx[heads] = idx[heads] / group;
  HTensor view;
  view.func = Func(name);
  def(view.func, vars) = t.at(idx);
  view.extents = t.extents;
  view.extents[heads] = q.extent(heads);
  view.elem = t.elem;
  return view;
}

} // namespace

HTensor attentionOf(const std::string &name, const k::OpSpec &op, const HTensor &q, const HTensor &k,
                    const HTensor &v, const HTensor *weight, const HTensor *vec,
                    const HTensor *keyLengths, const HTensor *maskOperand, OpStages &st) {
  HTensor kq = groupedView(name + "_kview", k, q), vq = groupedView(name + "_vview", v, q);
  HTensor s = scoreOf(name + "_score", op.score, op.scale, q, kq, weight, vec, st);
  if (op.mask.any())
    s = maskOf(name + "_mask", op.mask, s, keyLengths, maskOperand, st);
  HTensor p = softmaxOf(name + "_softmax", s, s.rank() - 1, st);
  return weightedSumOf(name, p, vq, st);
}

HTensor lowerAttention(const OpContext &ctx, OpStages &st) {
  const k::OpSpec &op = ctx.op;
  return attentionOf(ctx.name, op, ctx.value(op.query), ctx.value(op.key), ctx.value(op.value),
                     ctx.optional(op.weight), ctx.optional(op.vec), ctx.optional(op.mask.keyLengths),
                     ctx.optional(op.mask.mask), st);
}

} // namespace attn::lowering
