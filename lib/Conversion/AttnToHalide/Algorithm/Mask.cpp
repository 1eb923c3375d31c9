//===- Mask.cpp - attn.mask -----------------------------------------------===//

#include "Ops.h"

using namespace Halide;
namespace k = attn::kernel;

namespace attn::lowering {

HTensor maskOf(const std::string &name, const k::MaskSpec &mask, const HTensor &s,
               const HTensor *keyLengths, const HTensor *maskOperand, OpStages &st) {
  int rank = s.rank();
  std::vector<Var> vars = makeVars(rank, name + "_d");
  std::vector<Expr> idx = asExprs(vars);
  Expr i = idx[rank - 2], j = idx[rank - 1];
  Expr tq = s.extent(-2), tk = s.extent(-1);
  // The diagonal key of query i: the corner it starts from matters when Tq != Tk.
  Expr diag = mask.align == k::Align::BottomRight ? i + (tk - tq) : i;

  Expr keep = Halide::Internal::const_true();
  if (mask.causal)
    keep = keep && j <= diag;
  if (mask.window) {
    Expr w = static_cast<int>(*mask.window);
    keep = keep && j > diag - w;
    if (!mask.causal)
      keep = keep && j < diag + w;
  }
  if (keyLengths) // over a prefix of the batch dims
    keep = keep && j < keyLengths->at({idx.begin(), idx.begin() + keyLengths->rank()});

  Expr value = s.at(idx);
  if (maskOperand) {
    // numpy broadcasting: the mask's dims align with the scores' last ones; size 1 repeats.
    const HTensor &m = *maskOperand;
    std::vector<Expr> midx;
    for (int d = 0; d < m.rank(); ++d)
      midx.push_back(select(m.extent(d) == 1, 0, idx[rank - m.rank() + d]));
    if (m.elem == k::ElemType::Bool)
      keep = keep && m.at(midx);
    else
      value = value + m.at(midx);
  }

  Func out(name);
  def(out, vars) = select(keep, value, Float(32).min());
  st.pointwise.push_back({"mask", out, toHalideOrder(vars)});
  HTensor t;
  t.func = out;
  t.extents = s.extents;
  return t;
}

HTensor lowerMask(const OpContext &ctx, OpStages &st) {
  const k::OpSpec &op = ctx.op;
  return maskOf(ctx.name, op.mask, ctx.value(op.input), ctx.optional(op.mask.keyLengths),
                ctx.optional(op.mask.mask), st);
}

} // namespace attn::lowering
