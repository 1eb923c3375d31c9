//===- Passes.td - attn transformation passes ----------------*- tablegen -*-===//

#ifndef ATTN_TRANSFORMS_PASSES_TD
#define ATTN_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def AttnCheckLowerable : Pass<"attn-check-lowerable", "mlir::ModuleOp"> {
  let summary = "Reports every op a function holds that the Halide lowering cannot take";
  let description = [{
    Every public `func.func` becomes one kernel. This pass accepts `attn` ops, `arith.addf`,
    `arith.subf` and `arith.mulf` on tensors (residual connections), `tensor.cast` and `func.return`;
    any other op (`arith.constant` and `tensor.empty` included) gets an error naming the op and its
    location. attn-compile, attn-run, attn-tune and attn-bench run the same check before lowering.
  }];
}

def AttnDecomposeMultiHead : Pass<"attn-decompose-multi-head", "mlir::func::FuncOp"> {
  let summary = "Rewrites attn.multi_head into projections, fused attention per head and the output projection";
  let description = [{
    `multi_head` becomes `linear` (Q, K, V), `split_heads`, one `attention` over all heads (grouped-query
    attention reads the shared kv head through the attention op's head grouping: K and V are never copied
    per query head), `merge_heads` and the output `linear`. The mask options and the scale carry over.
  }];
  let dependentDialects = ["attn::AttnDialect"];
}

def AttnFoldBilinear : Pass<"attn-fold-bilinear", "mlir::func::FuncOp"> {
  let summary = "Folds a bilinear score's weight into the query: q^T W k = (q W) . k";
  let description = [{
    `score bilinear %q, %k weight(%W)` and `attention bilinear ...` become `%qw = linear %q, %W` followed by
    the `dot` kind: the weight is applied once per query row instead of once per (query, key) pair.
    The lowering takes bilinear scores only in this form: the kernel tools always run this pass.
  }];
  let dependentDialects = ["attn::AttnDialect"];
}

def AttnFuse : Pass<"attn-fuse", "mlir::func::FuncOp"> {
  let summary = "Fuses score -> [mask] -> softmax (last axis) -> weighted_sum chains into attn.attention";
  let description = [{
    A chain fuses when each intermediate (scores, masked scores, probabilities) has no other user and
    the softmax runs along the last axis. The fused op takes the score's kind, operands and scale and
    the mask's options.
  }];
  let dependentDialects = ["attn::AttnDialect"];
}

def AttnSelectSchedule : Pass<"attn-select-schedule", "mlir::func::FuncOp"> {
  let summary = "Fills in #attn.schedule for every attn op from its shapes and the module's target";
  let description = [{
    The target is the module's `attn.target` attribute (#attn.target: set by `--attn-attach-target`,
    by each kernel tool from its `--target`, or by hand); a module without one is an error. Each
    target family's heuristics choose the schedule (lib/CodeGen/Halide/Schedule/CPU and GPU,
    documented in docs/SCHEDULES.md).

    Ops that already carry a schedule keep it (a hand-written or tuned schedule wins), as the target
    runs it: a parameter the target takes as another value is rewritten with a remark, one it cannot
    run is an error naming the values that work.
  }];
  let options = [
    Option<"overwrite", "overwrite", "bool", /*default=*/"false",
           "Replace schedules the ops already carry">
  ];
}

#endif // ATTN_TRANSFORMS_PASSES_TD
