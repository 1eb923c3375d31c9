//===- Fuse.cpp - score -> [mask] -> softmax -> weighted_sum into attention --===//

#include "attn/Dialect/Attn/IR/AttnDialect.h"
#include "attn/Dialect/Attn/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace attn {
#define GEN_PASS_DEF_ATTNFUSE
#include "attn/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace attn

using namespace mlir;

namespace attn {
namespace {

/// Matches on the chain's end. Each reason not to fuse is a `failure()` with a message (visible
/// with
/// --debug-only=greedy-rewriter... and in the lit tests' negative cases).
struct FuseAttentionChain : OpRewritePattern<WeightedSumOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(WeightedSumOp ws, PatternRewriter &rewriter) const override {
    auto softmax = ws.getWeights().getDefiningOp<SoftmaxOp>();
    if (!softmax)
      return rewriter.notifyMatchFailure(ws, "the weights are not a softmax");
    if (softmax.getNormalizedAxis() != softmax.getInput().getType().getRank() - 1)
      return rewriter.notifyMatchFailure(ws, "the softmax is not along the last (key) axis");
    if (!softmax->hasOneUse())
      return rewriter.notifyMatchFailure(ws, "the probabilities have another user");
    Value scores = softmax.getInput();
    MaskOp mask = scores.getDefiningOp<MaskOp>();
    if (mask) {
      if (!mask->hasOneUse())
        return rewriter.notifyMatchFailure(ws, "the masked scores have another user");
      scores = mask.getScores();
      if (scores.getDefiningOp<MaskOp>())
        return rewriter.notifyMatchFailure(ws, "two masks in a row (fuse them by hand)");
    }
    auto score = scores.getDefiningOp<ScoreOp>();
    if (!score)
      return rewriter.notifyMatchFailure(ws, "the softmax's input is not a score");
    if (!score->hasOneUse())
      return rewriter.notifyMatchFailure(ws, "the scores have another user");

    rewriter.replaceOpWithNewOp<AttentionOp>(
        ws, ws.getType(), score.getKindAttr(), score.getQuery(), score.getKey(), ws.getValues(),
        score.getWeight(), score.getVec(), score.getScaleAttr(),
        mask ? mask.getKeyLengths() : Value(), mask ? mask.getMask() : Value(),
        mask ? mask.getCausalAttr() : UnitAttr(), mask ? mask.getWindowAttr() : IntegerAttr(),
        mask ? mask.getAlignAttr() : DiagonalAlignAttr(), /*schedule=*/nullptr);
    return success();
  }
};

struct AttnFusePass : impl::AttnFuseBase<AttnFusePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FuseAttentionChain>(&getContext());
    if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace attn
