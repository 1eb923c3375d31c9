//===- KernelSpec.cpp - a plain description of a kernel -------------------===//

#include "attn/Kernel/KernelSpec.h"
#include "attn/Kernel/ShapeRules.h"

#include <algorithm>

namespace attn::kernel {

const char *elemTypeName(ElemType t) {
  switch (t) {
  case ElemType::F32: return "f32";
  case ElemType::F16: return "f16";
  case ElemType::BF16: return "bf16";
  case ElemType::I32: return "i32";
  case ElemType::Bool: return "i1";
  }
  return "?";
}

int elemTypeBytes(ElemType t) {
  switch (t) {
  case ElemType::F32:
  case ElemType::I32: return 4;
  case ElemType::F16:
  case ElemType::BF16: return 2;
  case ElemType::Bool: return 1;
  }
  return 0;
}

std::string TensorType::str() const {
  std::string s = "tensor<";
  for (int64_t d : shape)
    s += (d == kDynamic ? std::string("?") : std::to_string(d)) + "x";
  return s + elemTypeName(elem) + ">";
}

const char *scoreKindName(ScoreKind k) {
  switch (k) {
  case ScoreKind::Dot: return "dot";
  case ScoreKind::ScaledDot: return "scaled_dot";
  case ScoreKind::Bilinear: return "bilinear";
  case ScoreKind::Additive: return "additive";
  }
  return "?";
}

const char *opKindName(OpKind k) {
  switch (k) {
  case OpKind::Score: return "attn.score";
  case OpKind::Mask: return "attn.mask";
  case OpKind::Softmax: return "attn.softmax";
  case OpKind::WeightedSum: return "attn.weighted_sum";
  case OpKind::Attention: return "attn.attention";
  case OpKind::MultiHead: return "attn.multi_head";
  case OpKind::Linear: return "attn.linear";
  case OpKind::SplitHeads: return "attn.split_heads";
  case OpKind::MergeHeads: return "attn.merge_heads";
  case OpKind::Add: return "arith.addf";
  case OpKind::Sub: return "arith.subf";
  case OpKind::Mul: return "arith.mulf";
  case OpKind::Cast: return "tensor.cast";
  }
  return "?";
}

std::string ScheduleSpec::str() const {
  std::string s;
  auto add = [&](const char *name, const std::string &value) {
    s += (s.empty() ? "" : ", ") + std::string(name) + " = " + value;
  };
  const std::pair<const char *, int64_t> ints[] = {
      {"tile_q", tileQ},   {"block_k", blockK}, {"vector", vector},
      {"reg_q", regQ},     {"reg_k", regK},     {"reg_v", regV},
      {"chunk_k", chunkK}, {"split_k", splitK}, {"group_q", groupQ}};
  for (auto &[name, v] : ints)
    if (v)
      add(name, std::to_string(v));
  for (auto &[name, v] : {std::pair<const char *, const std::string *>{"parallel", &parallel},
                          {"scheduler", &scheduler},
                          {"source", &source}})
    if (!v->empty())
      add(name, "\"" + *v + "\"");
  return "#attn.schedule<" + s + ">";
}

std::vector<int *> OpSpec::operandSlots() {
  return {&input,
          &other,
          &query,
          &key,
          &value,
          &weight,
          &vec,
          &xq,
          &xkv,
          &wq,
          &wk,
          &wv,
          &wo,
          &bq,
          &bk,
          &bv,
          &bo,
          &bias,
          &mask.keyLengths,
          &mask.mask};
}

std::vector<int> OpSpec::operands() const {
  std::vector<int> ids;
  for (int *slot : const_cast<OpSpec *>(this)->operandSlots())
    if (*slot >= 0)
      ids.push_back(*slot);
  return ids;
}

int FunctionSpec::uses(int value) const {
  int n = static_cast<int>(std::count(results.begin(), results.end(), value));
  for (const OpSpec &op : ops) {
    std::vector<int> ids = op.operands();
    n += static_cast<int>(std::count(ids.begin(), ids.end(), value));
  }
  return n;
}

std::string OpSpec::describe() const {
  std::string s = opKindName(kind);
  if (!location.empty())
    s += " (" + location + ")";
  return s;
}

const FunctionSpec *ModuleSpec::find(const std::string &name) const {
  for (const FunctionSpec &f : functions)
    if (f.name == name)
      return &f;
  return nullptr;
}

std::string firstViolation(const std::vector<ShapeCheck<int64_t>> &checks) {
  for (const ShapeCheck<int64_t> &c : checks) {
    std::string a = c.aName + " = " + std::to_string(c.a),
                b = c.bName + " = " + std::to_string(c.b);
    switch (c.kind) {
    case ShapeCheck<int64_t>::Equal:
      if (c.a != c.b)
        return c.context + ": " + a + " must equal " + b;
      break;
    case ShapeCheck<int64_t>::Divides:
      if (c.a <= 0 || c.b % c.a != 0)
        return c.context + ": " + b + " must be a multiple of " + a;
      break;
    case ShapeCheck<int64_t>::Broadcasts:
      if (c.a != 1 && c.a != c.b)
        return c.context + ": " + a + " must be 1 or equal " + b;
      break;
    }
  }
  return "";
}

} // namespace attn::kernel
