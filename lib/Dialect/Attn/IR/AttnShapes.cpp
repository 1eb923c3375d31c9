//===- AttnShapes.cpp - the shape rules of the attn ops -------------------===//

#include "attn/Dialect/Attn/IR/AttnShapes.h"
#include "attn/Dialect/Attn/IR/AttnDialect.h"

using namespace mlir;

namespace attn {

bool sizesAgree(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
}

std::string sizeStr(int64_t size) {
  return ShapedType::isDynamic(size) ? std::string("?") : std::to_string(size);
}

std::string shapeStr(llvm::ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + sizeStr(shape[i]);
  return s + "]";
}

llvm::ArrayRef<int64_t> batchDims(RankedTensorType type) { return type.getShape().drop_back(2); }

AttentionSizes getAttentionSizes(RankedTensorType q, RankedTensorType k, RankedTensorType v) {
  AttentionSizes s;
  s.batch.assign(batchDims(q).begin(), batchDims(q).end());
  s.tq = seqSize(q);
  s.dq = featureSize(q);
  s.tk = seqSize(k);
  s.dk = featureSize(k);
  s.dv = v ? featureSize(v) : ShapedType::kDynamic;
  return s;
}

llvm::SmallVector<int64_t> scoreResultShape(const AttentionSizes &s) {
  llvm::SmallVector<int64_t> shape(s.batch);
  shape.append({s.tq, s.tk});
  return shape;
}

llvm::SmallVector<int64_t> attentionResultShape(const AttentionSizes &s) {
  llvm::SmallVector<int64_t> shape(s.batch);
  shape.append({s.tq, s.dv});
  return shape;
}

// Exact division of a static size; kDynamic when the size is dynamic (the verifier reports sizes
// that do not divide).
static int64_t divideSize(int64_t size, int64_t by) {
  return ShapedType::isDynamic(size) ? ShapedType::kDynamic : size / by;
}

MultiHeadSizes getMultiHeadSizes(MultiHeadOp op) {
  auto xq = cast<RankedTensorType>(op.getXQ().getType());
  auto xkv = cast<RankedTensorType>(op.getXKv().getType());
  auto wq = cast<RankedTensorType>(op.getWQ().getType());
  auto wk = cast<RankedTensorType>(op.getWK().getType());
  auto wv = cast<RankedTensorType>(op.getWV().getType());
  auto wo = cast<RankedTensorType>(op.getWO().getType());
  MultiHeadSizes s;
  s.heads = op.getNumHeads();
  s.kvHeads = op.getKvHeads();
  s.batch = xq.getDimSize(0);
  s.tq = xq.getDimSize(1);
  s.e = xq.getDimSize(2);
  s.tk = xkv.getDimSize(1);
  s.ekv = xkv.getDimSize(2);
  s.eout = wo.getRank() == 2 ? wo.getDimSize(1) : ShapedType::kDynamic;
  // dk from W_q, else from W_k; dv from W_v, else from W_o.
  s.dk = wq.getRank() == 2 ? divideSize(wq.getDimSize(1), s.heads) : ShapedType::kDynamic;
  if (ShapedType::isDynamic(s.dk) && wk.getRank() == 2)
    s.dk = divideSize(wk.getDimSize(1), s.kvHeads);
  s.dv = wv.getRank() == 2 ? divideSize(wv.getDimSize(1), s.kvHeads) : ShapedType::kDynamic;
  if (ShapedType::isDynamic(s.dv) && wo.getRank() == 2)
    s.dv = divideSize(wo.getDimSize(0), s.heads);
  return s;
}

} // namespace attn
