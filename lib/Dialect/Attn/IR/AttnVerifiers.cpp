//===- AttnVerifiers.cpp - the verifiers of the attn ops ------------------===//
//
// Every shape and type rule of the dialect, with diagnostics that name the op, the operand and the
// numbers. test/Dialect/Attn/invalid.mlir has a case for each rule.
//
//===----------------------------------------------------------------------===//

#include "attn/Dialect/Attn/IR/AttnDialect.h"
#include "attn/Dialect/Attn/IR/AttnShapes.h"
#include "attn/Kernel/KernelSpec.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace attn {
namespace {

RankedTensorType tensorOf(Value v) { return v ? cast<RankedTensorType>(v.getType()) : nullptr; }

LogicalResult verifyMinRank(Operation *op, StringRef name, RankedTensorType t, StringRef layout) {
  if (t.getRank() >= 2)
    return success();
  return op->emitOpError() << "'" << name << "' must have rank >= 2 (" << layout
                           << "), but has rank " << t.getRank();
}

LogicalResult verifyRank(Operation *op, StringRef name, RankedTensorType t, StringRef layout,
                         int64_t rank) {
  if (t.getRank() == rank)
    return success();
  return op->emitOpError() << "'" << name << "' must be " << layout << " (rank " << rank
                           << "), but is " << Type(t);
}

/// All named float operands (null ones skipped) share the first one's element type.
LogicalResult verifyOneElementType(Operation *op,
                                   ArrayRef<std::pair<StringRef, Value>> namedValues) {
  StringRef firstName;
  Type first;
  for (auto [name, value] : namedValues) {
    if (!value)
      continue;
    Type elem = tensorOf(value).getElementType();
    if (!first) {
      first = elem;
      firstName = name;
    } else if (elem != first) {
      return op->emitOpError() << "'" << name << "' has element type " << elem << " but '"
                               << firstName << "' has " << first
                               << "; the float operands and the result of one op share one "
                                  "element type";
    }
  }
  return success();
}

/// Two sizes that must be equal where both are static.
LogicalResult expectSize(Operation *op, const Twine &what, int64_t actual, const Twine &rule,
                         int64_t expected) {
  if (sizesAgree(actual, expected))
    return success();
  return op->emitOpError() << what << " is " << actual << ", but must equal " << rule << " = "
                           << expected;
}

LogicalResult verifySameRank(Operation *op, StringRef aName, RankedTensorType a, StringRef bName,
                             RankedTensorType b) {
  if (a.getRank() == b.getRank())
    return success();
  return op->emitOpError() << "'" << aName << "' (rank " << a.getRank() << ") and '" << bName
                           << "' (rank " << b.getRank()
                           << ") must have the same rank: the same leading batch dimensions";
}

/// Batch dims that must agree exactly where both are static.
LogicalResult verifyBatchAgree(Operation *op, StringRef aName, ArrayRef<int64_t> a, StringRef bName,
                               ArrayRef<int64_t> b) {
  for (size_t i = 0; i < a.size() && i < b.size(); ++i)
    if (!sizesAgree(a[i], b[i]))
      return op->emitOpError() << "batch dimension #" << i << " disagrees: '" << aName << "' has "
                               << a[i] << " but '" << bName << "' has " << b[i];
  return success();
}

LogicalResult verifyResultShape(Operation *op, RankedTensorType result, ArrayRef<int64_t> expected,
                                StringRef layout) {
  bool ok = result.getRank() == static_cast<int64_t>(expected.size());
  for (size_t i = 0; ok && i < expected.size(); ++i)
    ok = sizesAgree(result.getDimSize(i), expected[i]);
  if (ok)
    return success();
  return op->emitOpError() << "result must be " << layout << " = " << shapeStr(expected)
                           << ", but is " << Type(result);
}

/// The rules of a score kind, shared by attn.score and attn.attention.
LogicalResult verifyScoreKind(Operation *op, ScoreKind kind, RankedTensorType q, RankedTensorType k,
                              Value weight, Value vec, std::optional<APFloat> scale) {
  StringRef kindName = stringifyScoreKind(kind);
  if (scale) {
    if (kind != ScoreKind::scaled_dot)
      return op->emitOpError() << "'scale' applies only to kind 'scaled_dot', not '" << kindName
                               << "'";
    if (!scale->isFinite())
      return op->emitOpError() << "'scale' must be a finite number, got "
                               << (scale->isNaN()        ? "nan"
                                   : scale->isNegative() ? "-inf"
                                                         : "inf");
  }
  int64_t dq = featureSize(q), dk = featureSize(k);
  switch (kind) {
  case ScoreKind::dot:
  case ScoreKind::scaled_dot:
    if (weight || vec)
      return op->emitOpError() << "kind '" << kindName << "' takes no '"
                               << (weight ? "weight" : "vec") << "' operand";
    if (!sizesAgree(dq, dk))
      return op->emitOpError() << "kind '" << kindName
                               << "' needs Dq == Dk, but the query has Dq = " << dq
                               << " and the key Dk = " << dk
                               << " (kind 'bilinear' accepts different sizes)";
    return success();
  case ScoreKind::bilinear: {
    if (!weight)
      return op->emitOpError() << "kind 'bilinear' needs a 'weight' operand W: [Dq, Dk] = "
                               << shapeStr({dq, dk});
    if (vec)
      return op->emitOpError() << "kind 'bilinear' takes no 'vec' operand";
    RankedTensorType w = tensorOf(weight);
    if (w.getRank() != 2 || !sizesAgree(w.getDimSize(0), dq) || !sizesAgree(w.getDimSize(1), dk))
      return op->emitOpError() << "'weight' of kind 'bilinear' must be W: [Dq, Dk] = "
                               << shapeStr({dq, dk}) << ", but is " << Type(w);
    return success();
  }
  case ScoreKind::additive: {
    if (!weight || !vec)
      return op->emitOpError()
             << "kind 'additive' needs a 'weight' operand W_a: [d_a, Dq + Dk] and "
                "a 'vec' operand v_a: [d_a]";
    RankedTensorType w = tensorOf(weight), v = tensorOf(vec);
    int64_t cols =
        ShapedType::isDynamic(dq) || ShapedType::isDynamic(dk) ? ShapedType::kDynamic : dq + dk;
    if (w.getRank() != 2 || !sizesAgree(w.getDimSize(1), cols))
      return op->emitOpError() << "'weight' of kind 'additive' must be W_a: [d_a, Dq + Dk] = [d_a, "
                               << sizeStr(cols) << "], but is " << Type(w);
    if (v.getRank() != 1 || !sizesAgree(v.getDimSize(0), w.getDimSize(0)))
      return op->emitOpError() << "'vec' of kind 'additive' must be v_a: [d_a] = ["
                               << sizeStr(w.getDimSize(0)) << "] (d_a from W_a), but is "
                               << Type(v);
    return success();
  }
  }
  llvm_unreachable("unknown score kind");
}

/// The mask options of attn.mask, attn.attention and attn.multi_head, against scores
/// `scoreShape = [..., Tq, Tk]` of element type `elem`.
LogicalResult verifyMaskOptions(MaskingOpInterface masking, ArrayRef<int64_t> scoreShape) {
  Operation *op = masking.getOperation();
  bool causal = masking.isCausal();
  bool window = masking.getWindowSize().has_value();
  if ((causal || window) && !masking.getDiagonalAlign())
    return op->emitOpError() << "'" << (causal ? "causal" : "window")
                             << "' needs an explicit 'align(top_left)' or 'align(bottom_right)': "
                                "the diagonal's corner matters when Tq != Tk";
  if (!causal && !window && masking.getDiagonalAlign())
    return op->emitOpError() << "'align' has no effect without 'causal' or 'window'";

  ArrayRef<int64_t> batch = scoreShape.drop_back(2);
  if (RankedTensorType len = tensorOf(masking.getKeyLengthsOperand())) {
    if (len.getRank() > static_cast<int64_t>(batch.size()))
      return op->emitOpError() << "'key_lengths' must cover a prefix of the batch dimensions "
                               << shapeStr(batch) << " (rank <= " << batch.size()
                               << "), but has rank " << len.getRank();
    for (int64_t i = 0; i < len.getRank(); ++i)
      if (!sizesAgree(len.getDimSize(i), batch[i]))
        return op->emitOpError() << "'key_lengths' dimension #" << i << " is " << len.getDimSize(i)
                                 << ", but the scores' batch dimension #" << i << " is "
                                 << batch[i];
  }
  if (RankedTensorType mask = tensorOf(masking.getMaskOperand())) {
    int64_t rank = mask.getRank(), scoreRank = scoreShape.size();
    if (rank < 2 || rank > scoreRank)
      return op->emitOpError() << "'mask' must be [..., Tq, Tk] with rank 2 to " << scoreRank
                               << ", broadcasting to the scores " << shapeStr(scoreShape)
                               << ", but has rank " << rank;
    for (int64_t i = 0; i < rank; ++i) {
      int64_t m = mask.getDimSize(i), s = scoreShape[scoreRank - rank + i];
      if (m != 1 && !sizesAgree(m, s))
        return op->emitOpError() << "'mask' dimension #" << i << " (size " << m
                                 << ") neither equals the scores' " << s
                                 << " nor is 1 (broadcast); scores are " << shapeStr(scoreShape);
    }
  }
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// Per-op verifiers
//===----------------------------------------------------------------------===//

LogicalResult ScoreOp::verify() {
  RankedTensorType q = tensorOf(getQuery()), k = tensorOf(getKey());
  if (failed(verifyMinRank(*this, "query", q, "[..., Tq, Dq]")) ||
      failed(verifyMinRank(*this, "key", k, "[..., Tk, Dk]")) ||
      failed(verifySameRank(*this, "query", q, "key", k)) ||
      failed(verifyOneElementType(*this, {{"query", getQuery()},
                                          {"key", getKey()},
                                          {"weight", getWeight()},
                                          {"vec", getVec()},
                                          {"result", getResult()}})) ||
      failed(verifyBatchAgree(*this, "query", batchDims(q), "key", batchDims(k))) ||
      failed(verifyScoreKind(*this, getKind(), q, k, getWeight(), getVec(), getScale())))
    return failure();
  return verifyResultShape(*this, tensorOf(getResult()), scoreResultShape(getAttentionSizes(q, k)),
                           "[..., Tq, Tk]");
}

LogicalResult MaskOp::verify() {
  RankedTensorType scores = tensorOf(getScores());
  if (failed(verifyMinRank(*this, "scores", scores, "[..., Tq, Tk]")))
    return failure();
  if (RankedTensorType mask = tensorOf(getMask()))
    if (isa<FloatType>(mask.getElementType()) &&
        failed(verifyOneElementType(*this, {{"scores", getScores()}, {"mask", getMask()}})))
      return failure();
  return verifyMaskOptions(*this, scores.getShape());
}

OpFoldResult MaskOp::fold(FoldAdaptor) {
  // A mask with no option keeps every entry: the identity.
  if (cast<MaskingOpInterface>(getOperation()).hasNoMask())
    return getScores();
  return {};
}

// I64Attr's getter is unsigned; the axis is signed (negative counts from the end).
int64_t SoftmaxOp::getNormalizedAxis() {
  int64_t rank = getInput().getType().getRank();
  auto axis = static_cast<int64_t>(getAxis());
  return axis < 0 ? axis + rank : axis;
}

LogicalResult SoftmaxOp::verify() {
  int64_t rank = getInput().getType().getRank();
  auto axis = static_cast<int64_t>(getAxis());
  if (rank < 1)
    return emitOpError() << "needs a tensor of rank >= 1, but the input has rank 0";
  if (axis < -rank || axis >= rank)
    return emitOpError() << "axis " << axis << " is out of range for a rank-" << rank
                         << " tensor (valid: " << -rank << " to " << rank - 1 << ")";
  return success();
}

LogicalResult WeightedSumOp::verify() {
  RankedTensorType p = tensorOf(getWeights()), v = tensorOf(getValues());
  if (failed(verifyMinRank(*this, "weights", p, "[..., Tq, Tk]")) ||
      failed(verifyMinRank(*this, "values", v, "[..., Tk, Dv]")) ||
      failed(verifySameRank(*this, "weights", p, "values", v)) ||
      failed(verifyOneElementType(
          *this, {{"weights", getWeights()}, {"values", getValues()}, {"result", getResult()}})) ||
      failed(verifyBatchAgree(*this, "weights", batchDims(p), "values", batchDims(v))) ||
      failed(expectSize(*this, "the values' sequence size Tk", seqSize(v),
                        "the weights' last dimension Tk", featureSize(p))))
    return failure();
  llvm::SmallVector<int64_t> expected(batchDims(p));
  expected.append({seqSize(p), featureSize(v)});
  return verifyResultShape(*this, tensorOf(getResult()), expected, "[..., Tq, Dv]");
}

LogicalResult AttentionOp::verify() {
  RankedTensorType q = tensorOf(getQuery()), k = tensorOf(getKey()), v = tensorOf(getValue());
  if (failed(verifyMinRank(*this, "query", q, "[..., Tq, Dq]")) ||
      failed(verifyMinRank(*this, "key", k, "[..., Tk, Dk]")) ||
      failed(verifyMinRank(*this, "value", v, "[..., Tk, Dv]")) ||
      failed(verifySameRank(*this, "query", q, "key", k)) ||
      failed(verifySameRank(*this, "key", k, "value", v)) ||
      failed(verifyOneElementType(*this, {{"query", getQuery()},
                                          {"key", getKey()},
                                          {"value", getValue()},
                                          {"weight", getWeight()},
                                          {"vec", getVec()},
                                          {"result", getResult()}})) ||
      failed(verifyBatchAgree(*this, "key", batchDims(k), "value", batchDims(v))) ||
      failed(expectSize(*this, "the values' sequence size Tk", seqSize(v), "the keys' Tk",
                        seqSize(k))))
    return failure();
  // Batch dims agree exactly, except the last (heads), where kv heads may divide query heads (GQA).
  ArrayRef<int64_t> qb = batchDims(q), kb = batchDims(k);
  if (!qb.empty()) {
    if (failed(verifyBatchAgree(*this, "query", qb.drop_back(), "key", kb.drop_back())))
      return failure();
    int64_t hq = qb.back(), hkv = kb.back();
    if (!ShapedType::isDynamic(hq) && !ShapedType::isDynamic(hkv) && hq % hkv != 0)
      return emitOpError() << "the query's last batch dimension (heads) is " << hq
                           << ", which is not a multiple of the key's " << hkv
                           << " (grouped-query attention needs Hq % Hkv == 0)";
  }
  if (failed(verifyScoreKind(*this, getKind(), q, k, getWeight(), getVec(), getScale())))
    return failure();
  AttentionSizes sizes = getAttentionSizes(q, k, v);
  if (RankedTensorType mask = tensorOf(getMask()))
    if (isa<FloatType>(mask.getElementType()) &&
        failed(verifyOneElementType(*this, {{"query", getQuery()}, {"mask", getMask()}})))
      return failure();
  if (failed(verifyMaskOptions(*this, scoreResultShape(sizes))))
    return failure();
  return verifyResultShape(*this, tensorOf(getResult()), attentionResultShape(sizes),
                           "[..., Tq, Dv]");
}

LogicalResult MultiHeadOp::verify() {
  RankedTensorType xq = tensorOf(getXQ()), xkv = tensorOf(getXKv());
  if (failed(verifyRank(*this, "x_q", xq, "[B, Tq, E]", 3)) ||
      failed(verifyRank(*this, "x_kv", xkv, "[B, Tk, E_kv]", 3)) ||
      failed(verifyRank(*this, "w_q", tensorOf(getWQ()), "[E, H*dk]", 2)) ||
      failed(verifyRank(*this, "w_k", tensorOf(getWK()), "[E_kv, Hkv*dk]", 2)) ||
      failed(verifyRank(*this, "w_v", tensorOf(getWV()), "[E_kv, Hkv*dv]", 2)) ||
      failed(verifyRank(*this, "w_o", tensorOf(getWO()), "[H*dv, E_out]", 2)))
    return failure();
  for (auto [name, bias] : {std::pair<StringRef, Value>{"b_q", getBQ()},
                            {"b_k", getBK()},
                            {"b_v", getBV()},
                            {"b_o", getBO()}})
    if (bias && failed(verifyRank(*this, name, tensorOf(bias), "a vector", 1)))
      return failure();
  if (failed(verifyOneElementType(*this, {{"x_q", getXQ()},
                                          {"x_kv", getXKv()},
                                          {"w_q", getWQ()},
                                          {"w_k", getWK()},
                                          {"w_v", getWV()},
                                          {"w_o", getWO()},
                                          {"b_q", getBQ()},
                                          {"b_k", getBK()},
                                          {"b_v", getBV()},
                                          {"b_o", getBO()},
                                          {"result", getResult()}})))
    return failure();
  if (getKind() != ScoreKind::dot && getKind() != ScoreKind::scaled_dot)
    return emitOpError() << "kind '" << stringifyScoreKind(getKind())
                         << "' is not supported by multi-head attention (only 'dot' and "
                            "'scaled_dot')";
  if (failed(verifyScoreKind(*this, getKind(), xq, xq, nullptr, nullptr, getScale())))
    return failure();

  int64_t heads = getNumHeads(), kvHeads = getKvHeads();
  if (heads % kvHeads != 0)
    return emitOpError() << "num_heads = " << heads
                         << " must be a multiple of num_kv_heads = " << kvHeads
                         << " (each kv head serves num_heads / num_kv_heads heads)";
  auto divisible = [&](StringRef name, int64_t size, int64_t by,
                       StringRef byName) -> LogicalResult {
    if (ShapedType::isDynamic(size) || size % by == 0)
      return success();
    return emitOpError() << "'" << name << "' dimension 1 is " << size
                         << ", which is not a multiple of " << byName << " = " << by;
  };
  RankedTensorType wq = tensorOf(getWQ()), wk = tensorOf(getWK()), wv = tensorOf(getWV()),
                   wo = tensorOf(getWO());
  if (failed(verifyBatchAgree(*this, "x_q", xq.getShape().take_front(1), "x_kv",
                              xkv.getShape().take_front(1))) ||
      failed(divisible("w_q", wq.getDimSize(1), heads, "num_heads")) ||
      failed(divisible("w_k", wk.getDimSize(1), kvHeads, "num_kv_heads")) ||
      failed(divisible("w_v", wv.getDimSize(1), kvHeads, "num_kv_heads")))
    return failure();

  MultiHeadSizes s = getMultiHeadSizes(*this);
  auto times = [](int64_t n, int64_t size) {
    return ShapedType::isDynamic(size) ? ShapedType::kDynamic : n * size;
  };
  if (failed(expectSize(*this, "'w_q' dimension 0", wq.getDimSize(0), "E (the feature size of x_q)",
                        s.e)) ||
      failed(expectSize(*this, "'w_k' dimension 0", wk.getDimSize(0),
                        "E_kv (the feature size of x_kv)", s.ekv)) ||
      failed(expectSize(*this, "'w_v' dimension 0", wv.getDimSize(0),
                        "E_kv (the feature size of x_kv)", s.ekv)) ||
      failed(expectSize(*this, "'w_k' dimension 1", wk.getDimSize(1), "num_kv_heads * dk",
                        times(kvHeads, s.dk))) ||
      failed(expectSize(*this, "'w_o' dimension 0", wo.getDimSize(0), "num_heads * dv",
                        times(heads, s.dv))))
    return failure();
  for (auto [name, bias, size] :
       {std::tuple<StringRef, Value, int64_t>{"b_q", getBQ(), wq.getDimSize(1)},
        {"b_k", getBK(), wk.getDimSize(1)},
        {"b_v", getBV(), wv.getDimSize(1)},
        {"b_o", getBO(), s.eout}})
    if (bias && failed(expectSize(*this, "'" + name + "' size", tensorOf(bias).getDimSize(0),
                                  "the projection's output width", size)))
      return failure();
  if (RankedTensorType mask = tensorOf(getMask()))
    if (isa<FloatType>(mask.getElementType()) &&
        failed(verifyOneElementType(*this, {{"x_q", getXQ()}, {"mask", getMask()}})))
      return failure();
  if (failed(verifyMaskOptions(*this, {s.batch, heads, s.tq, s.tk})))
    return failure();
  return verifyResultShape(*this, tensorOf(getResult()), {s.batch, s.tq, s.eout}, "[B, Tq, E_out]");
}

LogicalResult LinearOp::verify() {
  RankedTensorType x = tensorOf(getInput()), w = tensorOf(getWeight());
  if (x.getRank() < 1)
    return emitOpError() << "'input' must have rank >= 1 ([..., E]), but has rank 0";
  if (failed(verifyRank(*this, "weight", w, "[E, N]", 2)) ||
      failed(verifyOneElementType(*this, {{"input", getInput()},
                                          {"weight", getWeight()},
                                          {"bias", getBias()},
                                          {"result", getResult()}})) ||
      failed(expectSize(*this, "'weight' dimension 0", w.getDimSize(0),
                        "E (the last dimension of 'input')", x.getDimSize(x.getRank() - 1))))
    return failure();
  if (Value bias = getBias())
    if (failed(verifyRank(*this, "bias", tensorOf(bias), "[N]", 1)) ||
        failed(expectSize(*this, "'bias' size", tensorOf(bias).getDimSize(0),
                          "N (dimension 1 of 'weight')", w.getDimSize(1))))
      return failure();
  llvm::SmallVector<int64_t> expected(x.getShape().drop_back());
  expected.push_back(w.getDimSize(1));
  return verifyResultShape(*this, tensorOf(getResult()), expected, "[..., N]");
}

/// split_heads and merge_heads are views (the lowering indexes through them and copies nothing),
/// so a schedule on one would be silently ignored: refused instead.
static LogicalResult verifyNoSchedule(Operation *op, ScheduleAttr schedule) {
  if (!schedule)
    return success();
  return op->emitOpError() << "is a view (its lowering copies nothing), so it takes no "
                              "#attn.schedule; schedule the ops that produce or read it";
}

LogicalResult SplitHeadsOp::verify() {
  if (failed(verifyNoSchedule(*this, getScheduleAttr())))
    return failure();
  RankedTensorType x = tensorOf(getInput());
  if (failed(verifyMinRank(*this, "input", x, "[..., T, H*d]")) ||
      failed(verifyOneElementType(*this, {{"input", getInput()}, {"result", getResult()}})))
    return failure();
  int64_t heads = getHeads(), width = featureSize(x);
  if (!ShapedType::isDynamic(width) && width % heads != 0)
    return emitOpError() << "the input's last dimension " << width
                         << " is not a multiple of heads = " << heads;
  llvm::SmallVector<int64_t> expected(batchDims(x));
  expected.append(
      {heads, seqSize(x), ShapedType::isDynamic(width) ? ShapedType::kDynamic : width / heads});
  return verifyResultShape(*this, tensorOf(getResult()), expected, "[..., H, T, d]");
}

LogicalResult MergeHeadsOp::verify() {
  if (failed(verifyNoSchedule(*this, getScheduleAttr())))
    return failure();
  RankedTensorType x = tensorOf(getInput());
  if (x.getRank() < 3)
    return emitOpError() << "'input' must have rank >= 3 ([..., H, T, d]), but has rank "
                         << x.getRank();
  if (failed(verifyOneElementType(*this, {{"input", getInput()}, {"result", getResult()}})))
    return failure();
  int64_t heads = x.getDimSize(x.getRank() - 3), d = featureSize(x);
  llvm::SmallVector<int64_t> expected(x.getShape().drop_back(3));
  expected.append({seqSize(x), ShapedType::isDynamic(heads) || ShapedType::isDynamic(d)
                                   ? ShapedType::kDynamic
                                   : heads * d});
  return verifyResultShape(*this, tensorOf(getResult()), expected, "[..., T, H*d]");
}

LogicalResult ScheduleAttr::verify(llvm::function_ref<InFlightDiagnostic()> emitError,
                                   int64_t tileQ, int64_t blockK, int64_t vector, int64_t regQ,
                                   int64_t regK, int64_t regV, int64_t chunkK, int64_t splitK,
                                   int64_t groupQ, StringRef parallel, StringRef scheduler,
                                   StringRef source) {
  const int64_t values[] = {tileQ, blockK, vector, regQ, regK, regV, chunkK, groupQ};
  static_assert(std::size(values) == std::size(kernel::kScheduleBounds));
  for (auto [bound, value] : llvm::zip_equal(kernel::kScheduleBounds, values))
    if (value < 0 || value > bound.max)
      return emitError() << "schedule parameter '" << bound.name << "' = " << value
                         << " is out of range: 0 for the target's default, else 1 to " << bound.max
                         << " (the most any target takes)";
  if (vector != 0 && !llvm::isPowerOf2_64(vector))
    return emitError() << "schedule parameter 'vector' = " << vector
                       << " must be a power of two (the f32 lanes of a vector register)";
  if (splitK != 0 && splitK != 1)
    return emitError() << "schedule parameter 'split_k' must be 0 or 1, got " << splitK;
  if (!llvm::is_contained({"", "heads", "tiles"}, parallel))
    return emitError() << "schedule parameter 'parallel' must be \"heads\" or \"tiles\", got \""
                       << parallel << "\"";
  if (!llvm::is_contained({"", "hand", "adams2019", "mullapudi2016", "li2018"}, scheduler))
    return emitError() << "schedule parameter 'scheduler' must be \"hand\", \"adams2019\", "
                          "\"mullapudi2016\" or \"li2018\", got \""
                       << scheduler << "\"";
  return success();
}

LogicalResult TargetAttr::verify(llvm::function_ref<InFlightDiagnostic()> emitError, StringRef name,
                                 StringRef kind, int64_t lanes, int64_t registers, int64_t l2Kib) {
  if (name.empty())
    return emitError() << "#attn.target needs a Halide target string, e.g. \"x86-64-linux-avx2\"";
  if (kind != "cpu" && kind != "gpu")
    return emitError() << "#attn.target kind must be \"cpu\" or \"gpu\", got \"" << kind << "\"";
  if (lanes < 1 || lanes > 64 || !llvm::isPowerOf2_64(lanes))
    return emitError() << "#attn.target lanes must be a power of two from 1 to 64 (f32 lanes of a "
                          "vector register), got "
                       << lanes;
  if (registers < 16 || registers > 256)
    return emitError() << "#attn.target registers must be 16 to 256 (the CPU schedules plan for "
                          "register files of 16 or 32 vectors), got "
                       << registers;
  if (l2Kib < 0 || l2Kib > (int64_t(1) << 30))
    return emitError() << "#attn.target l2_kib must be a size in KiB (0: not known), got " << l2Kib;
  return success();
}

} // namespace attn
