//===- CheckLowerable.cpp - reject ops the Halide lowering cannot take ----===//

#include "attn/Dialect/Attn/IR/AttnDialect.h"
#include "attn/Dialect/Attn/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace attn {
#define GEN_PASS_DEF_ATTNCHECKLOWERABLE
#include "attn/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace attn

using namespace mlir;

namespace attn {

bool isLowerableOp(Operation *op) {
  // Elementwise float arithmetic on whole tensors (residual connections and the like) and shape
  // casts are lowered beside the attn ops; see lib/Target/KernelSpec/ExtractKernel.cpp.
  if (isa<arith::AddFOp, arith::SubFOp, arith::MulFOp>(op))
    return llvm::all_of(op->getOperandTypes(), [](Type t) { return isa<RankedTensorType>(t); });
  return isa<AttnDialect>(op->getDialect()) || isa<func::ReturnOp, tensor::CastOp>(op);
}

LogicalResult checkLowerable(ModuleOp module, StringRef entry) {
  bool ok = true;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isPrivate() || func.isExternal() || (!entry.empty() && func.getSymName() != entry))
      continue;
    func.walk([&](Operation *op) {
      if (op == func.getOperation() || isLowerableOp(op))
        return;
      op->emitError() << "'" << op->getName()
                      << "' cannot be lowered to a kernel: functions may hold attn ops, "
                         "arith.addf/subf/mulf on tensors, tensor.cast and func.return";
      ok = false;
    });
  }
  return success(ok);
}

namespace {
struct AttnCheckLowerablePass : impl::AttnCheckLowerableBase<AttnCheckLowerablePass> {
  void runOnOperation() override {
    if (failed(checkLowerable(getOperation())))
      signalPassFailure();
  }
};
} // namespace

} // namespace attn
