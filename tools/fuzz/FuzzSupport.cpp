//===- FuzzSupport.cpp - what the MLIR fuzz targets share -----------------===//

#include "FuzzSupport.h"

#include "attn/CodeGen/Halide/Pipeline.h"
#include "attn/Dialect/Attn/IR/AttnDialect.h"
#include "attn/Dialect/Attn/Transforms/Passes.h"
#include "attn/Runtime/TextLimits.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

namespace attn::fuzz {

ParsedModule::ParsedModule(const uint8_t *data, size_t size) {
  mlir::DialectRegistry registry;
  registry.insert<AttnDialect, mlir::func::FuncDialect, mlir::arith::ArithDialect,
                  mlir::tensor::TensorDialect>();
  // A fresh context per input: nothing one input uniques or registers can affect the next one.
  context = std::make_unique<mlir::MLIRContext>(registry, mlir::MLIRContext::Threading::DISABLED);
  context->loadAllAvailableDialects();
  context->getDiagEngine().registerHandler([](mlir::Diagnostic &) { return mlir::success(); });
  // MLIR's lexer reads the byte past the end of its buffer (files and the tools' strings are
  // NUL-terminated); libFuzzer's bytes are not, so parse a NUL-terminated copy.
  text.assign(reinterpret_cast<const char *>(data), size);
  if (tooDeepNesting(text) >= 0) // refused as the tools refuse it (TextLimits.h)
    return;
  module =
      mlir::parseSourceString<mlir::ModuleOp>(llvm::StringRef(text), context.get(), "fuzz-input");
}

mlir::LogicalResult runAttnPipeline(mlir::ModuleOp module) {
  if (failed(checkLowerable(module)))
    return mlir::failure();
  mlir::PassManager pm(module.getContext());
  addKernelPipeline(pm, {});
  return pm.run(module);
}

} // namespace attn::fuzz
