//===- attn-opt.cpp - the attn optimizer driver ---------------------------===//
//
// An mlir-opt for attn: parses, verifies and transforms attention graphs. Registers only what attn
// needs (the attn, func, arith and tensor dialects; canonicalize, cse and the attn passes): the
// full upstream registry would cost 30 s of compile time and 80 MB of binary for nothing.
//
//===----------------------------------------------------------------------===//

#include "ToolSupport.h"
#include "attn/CodeGen/Halide/Pipeline.h"
#include "attn/CodeGen/Halide/Target.h"
#include "attn/Dialect/Attn/IR/AttnDialect.h"
#include "attn/Dialect/Attn/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<attn::AttnDialect, mlir::func::FuncDialect, mlir::arith::ArithDialect,
                  mlir::tensor::TensorDialect>();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerSymbolDCEPass();
  attn::registerAttnPasses();
  // --attn-attach-target resolves targets (`host` above all) as attn-compile does, so that the
  // schedules attn-opt writes are the ones attn-compile would choose on this machine.
  attn::registerCodeGenPasses();

  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    attn::backend::TargetInfo host = attn::backend::defaultTarget();
    os << "attn: Halide " << attn::backend::halideVersion() << ", default kernel target "
       << host.halideTarget << ", ";
    // The schedule heuristics read the L2 (docs/SCHEDULES.md).
    if (host.l2Bytes > 0)
      os << host.l2Bytes / 1024 << " KiB of L2 per core\n";
    else
      os << "L2 size unknown\n";
  });
  // MlirOptMain's steps, with the input's nesting checked before the parser sees it.
  llvm::InitLLVM init(argc, argv);
  auto [inputFile, outputFile] =
      mlir::registerAndParseCLIOptions(argc, argv, "attn optimizer driver\n", registry);
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input = mlir::openInputFile(inputFile, &error);
  if (!input) {
    llvm::errs() << error << "\n";
    return 1;
  }
  if (attn::tools::refuseDeepNesting(*input))
    return 1;
  std::unique_ptr<llvm::ToolOutputFile> output = mlir::openOutputFile(outputFile, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return 1;
  }
  if (failed(mlir::MlirOptMain(output->os(), std::move(input), registry,
                               mlir::MlirOptMainConfig::createFromCLOptions())))
    return 1;
  output->keep();
  return 0;
}
