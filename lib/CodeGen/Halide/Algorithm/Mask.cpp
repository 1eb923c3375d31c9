//===- Mask.cpp - attn.mask -----------------------------------------------===//

#include "attn/CodeGen/Halide/Ops.h"

using namespace Halide;
namespace k = attn::kernel;

namespace attn::lowering {

HTensor maskOf(const std::string &name, const k::MaskSpec &mask, const HTensor &s,
               const HTensor *keyLengths, const HTensor *maskOperand, OpStages &st) {
  int rank = s.rank();
  std::vector<Var> vars = makeVars(rank, name + "_d");
  std::vector<Expr> idx = asExprs(vars);
  Expr length; // over a prefix of the batch dims
  if (keyLengths)
    length = keyLengths->at({idx.begin(), idx.begin() + keyLengths->rank()});
  Expr keep = maskKeeps(mask, idx[rank - 2], idx[rank - 1], s.extent(-2), s.extent(-1), length);
  Expr value = s.at(idx);
  if (maskOperand && maskOperand->elem == k::ElemType::Bool)
    keep = keep && maskOperandAt(*maskOperand, idx);
  else if (maskOperand)
    value = value + maskOperandAt(*maskOperand, idx);

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
