//===- FoldBilinear.cpp - q^T W k = (q W) . k -----------------------------===//

#include "attn/Dialect/Attn/IR/AttnDialect.h"
#include "attn/Dialect/Attn/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace attn {
#define GEN_PASS_DEF_ATTNFOLDBILINEAR
#include "attn/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace attn

using namespace mlir;

namespace attn {
namespace {

/// q W: [..., Tq, Dq] x [Dq, Dk] -> [..., Tq, Dk].
Value foldWeight(PatternRewriter &rewriter, Location loc, Value q, Value w) {
  auto qt = cast<RankedTensorType>(q.getType());
  auto wt = cast<RankedTensorType>(w.getType());
  SmallVector<int64_t> shape(qt.getShape().drop_back());
  shape.push_back(wt.getDimSize(1));
  return rewriter
      .create<LinearOp>(loc, RankedTensorType::get(shape, qt.getElementType()), q, w, Value(),
                        nullptr)
      .getResult();
}

struct FoldBilinearScore : OpRewritePattern<ScoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ScoreOp op, PatternRewriter &rewriter) const override {
    if (op.getKind() != ScoreKind::bilinear)
      return failure();
    Value qw = foldWeight(rewriter, op.getLoc(), op.getQuery(), op.getWeight());
    rewriter.replaceOpWithNewOp<ScoreOp>(op, op.getType(), ScoreKind::dot, qw, op.getKey(), Value(),
                                         Value(), nullptr, op.getScheduleAttr());
    return success();
  }
};

struct FoldBilinearAttention : OpRewritePattern<AttentionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AttentionOp op, PatternRewriter &rewriter) const override {
    if (op.getKind() != ScoreKind::bilinear)
      return failure();
    Value qw = foldWeight(rewriter, op.getLoc(), op.getQuery(), op.getWeight());
    rewriter.replaceOpWithNewOp<AttentionOp>(
        op, op.getType(), ScoreKindAttr::get(getContext(), ScoreKind::dot), qw, op.getKey(),
        op.getValue(), Value(), Value(), nullptr, op.getKeyLengths(), op.getMask(),
        op.getCausalAttr(), op.getWindowAttr(), op.getAlignAttr(), op.getScheduleAttr());
    return success();
  }
};

struct AttnFoldBilinearPass : impl::AttnFoldBilinearBase<AttnFoldBilinearPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldBilinearScore, FoldBilinearAttention>(&getContext());
    if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace attn
