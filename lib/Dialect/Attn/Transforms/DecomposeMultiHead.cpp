//===- DecomposeMultiHead.cpp - multi_head into its pieces ----------------===//

#include "attn/Dialect/Attn/IR/AttnDialect.h"
#include "attn/Dialect/Attn/IR/AttnShapes.h"
#include "attn/Dialect/Attn/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace attn {
#define GEN_PASS_DEF_ATTNDECOMPOSEMULTIHEAD
#include "attn/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace attn

using namespace mlir;

namespace attn {
namespace {

int64_t times(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) ? ShapedType::kDynamic : a * b;
}

struct DecomposeMultiHead : OpRewritePattern<MultiHeadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MultiHeadOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elem = cast<RankedTensorType>(op.getType()).getElementType();
    MultiHeadSizes s = getMultiHeadSizes(op);
    int64_t heads = s.heads, kvHeads = s.kvHeads;
    auto tensor = [&](ArrayRef<int64_t> shape) { return RankedTensorType::get(shape, elem); };
    // A multi_head's schedule is its projections' (as when it is lowered whole: MultiHead.cpp), so
    // a hand-written one goes to the four attn.linear ops; the attention gets its own from
    // --attn-select-schedule.
    ScheduleAttr projections = op.getScheduleAttr();
    auto project = [&](Value x, Value w, Value b, int64_t t) {
      int64_t n = cast<RankedTensorType>(w.getType()).getDimSize(1);
      return rewriter.create<LinearOp>(loc, tensor({s.batch, t, n}), x, w, b, projections)
          .getResult();
    };
    auto split = [&](Value x, int64_t h, int64_t t, int64_t d) {
      return rewriter
          .create<SplitHeadsOp>(loc, tensor({s.batch, h, t, d}), x, rewriter.getI64IntegerAttr(h),
                                nullptr)
          .getResult();
    };
    Value q = split(project(op.getXQ(), op.getWQ(), op.getBQ(), s.tq), heads, s.tq, s.dk);
    Value k = split(project(op.getXKv(), op.getWK(), op.getBK(), s.tk), kvHeads, s.tk, s.dk);
    Value v = split(project(op.getXKv(), op.getWV(), op.getBV(), s.tk), kvHeads, s.tk, s.dv);
    // One attention over all heads; with kv_heads < heads it reads each kv head for its group of
    // query heads (no copy of K or V per query head).
    auto attention = rewriter.create<AttentionOp>(
        loc, tensor({s.batch, heads, s.tq, s.dv}), op.getKindAttr(), q, k, v, /*weight=*/nullptr,
        /*vec=*/nullptr, op.getScaleAttr(), op.getKeyLengths(), op.getMask(), op.getCausalAttr(),
        op.getWindowAttr(), op.getAlignAttr(), /*schedule=*/nullptr);
    Value merged = rewriter.create<MergeHeadsOp>(loc, tensor({s.batch, s.tq, times(heads, s.dv)}),
                                                 attention.getResult(), nullptr);
    Value y = project(merged, op.getWO(), op.getBO(), s.tq);
    if (y.getType() != op.getType()) // keep the op's declared (possibly more static) type
      y = rewriter.create<LinearOp>(loc, op.getType(), merged, op.getWO(), op.getBO(), projections);
    rewriter.replaceOp(op, y);
    return success();
  }
};

struct AttnDecomposeMultiHeadPass : impl::AttnDecomposeMultiHeadBase<AttnDecomposeMultiHeadPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<DecomposeMultiHead>(&getContext());
    if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace attn
