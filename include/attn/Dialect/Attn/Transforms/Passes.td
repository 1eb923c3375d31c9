//===- Passes.td - attn transformation passes ----------------*- tablegen -*-===//

#ifndef ATTN_TRANSFORMS_PASSES_TD
#define ATTN_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def AttnCheckLowerable : Pass<"attn-check-lowerable", "mlir::ModuleOp"> {
  let summary = "Reports every op a function holds that the Halide lowering cannot take";
  let description = [{
    Every public `func.func` becomes one kernel. This pass accepts `attn` ops, `func.return`, and
    `arith.constant` / `tensor.cast` feeding them; any other op gets an error naming the op and its
    location. attn-compile and attn-run run the same check before lowering.
  }];
}

#endif // ATTN_TRANSFORMS_PASSES_TD
