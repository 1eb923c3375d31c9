//===- MultiHead.cpp - attn.multi_head ------------------------------------===//
//
// Q = x_q W_q + b_q, K = x_kv W_k + b_k, V = x_kv W_v + b_v (row-vector convention); heads are
// column blocks of Q, K, V; attention per head (GQA: head h reads kv head h / (H / Hkv)); heads are
// concatenated and projected, y = concat(heads) W_o + b_o. The same pieces
// --attn-decompose-multi-head writes as ops.
//
//===----------------------------------------------------------------------===//

#include "attn/CodeGen/Halide/Ops.h"

using namespace Halide;
namespace k = attn::kernel;

namespace attn::lowering {

HTensor lowerMultiHead(const OpContext &ctx, OpStages &st) {
  const k::OpSpec &op = ctx.op;
  const std::string &n = ctx.name;
  const HTensor &xq = ctx.value(op.xq), &xkv = ctx.value(op.xkv);
  Expr heads = static_cast<int>(op.heads), kvHeads = static_cast<int>(op.kvHeads);

  HTensor q = linearOf(n + "_q", "x_q.W_q", xq, ctx.value(op.wq), ctx.optional(op.bq), st);
  HTensor kk = linearOf(n + "_k", "x_kv.W_k", xkv, ctx.value(op.wk), ctx.optional(op.bk), st);
  HTensor v = linearOf(n + "_v", "x_kv.W_v", xkv, ctx.value(op.wv), ctx.optional(op.bv), st);
  // The op's schedule is the per-op kind (its projections); the attention inside uses the fused
  // kernel's defaults. --attn-decompose-multi-head gives the attention its own schedule.
  k::OpSpec attention = op;
  attention.schedule = k::ScheduleSpec();
  HTensor o = attentionOf(n + "_attn", attention, splitHeadsOf(n + "_qh", q, heads),
                          splitHeadsOf(n + "_kh", kk, kvHeads), splitHeadsOf(n + "_vh", v, kvHeads),
                          nullptr, nullptr, ctx.optional(op.mask.keyLengths),
                          ctx.optional(op.mask.mask), ctx.options, st);
  return linearOf(n, "heads.W_o", mergeHeadsOf(n + "_concat", o), ctx.value(op.wo),
                  ctx.optional(op.bo), st);
}

} // namespace attn::lowering
