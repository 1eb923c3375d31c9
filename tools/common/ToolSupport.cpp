//===- ToolSupport.cpp - what every attn tool does the same way -----------===//

#include "ToolSupport.h"

#include "attn/Conversion/AttnToHalide/ExtractKernel.h"
#include "attn/Dialect/Attn/IR/AttnDialect.h"
#include "attn/Dialect/Attn/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace attn::tools {

static std::string toolName = "attn";

void setToolName(const char *argv0) { toolName = llvm::sys::path::filename(argv0).str(); }

int fail(const std::string &message) {
  llvm::errs() << toolName << ": error: " << message << "\n";
  return 1;
}

mlir::OwningOpRef<mlir::ModuleOp> loadModule(const std::string &path, mlir::MLIRContext &ctx) {
  ctx.getOrLoadDialect<AttnDialect>();
  ctx.getOrLoadDialect<mlir::func::FuncDialect>();
  ctx.getOrLoadDialect<mlir::arith::ArithDialect>();
  ctx.getOrLoadDialect<mlir::tensor::TensorDialect>();
  installTargetResolver();
  std::string err;
  std::unique_ptr<llvm::MemoryBuffer> file = mlir::openInputFile(path, &err);
  if (!file) {
    fail(err);
    return nullptr;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &ctx);
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &ctx);
  if (!module || failed(mlir::verify(*module)))
    return nullptr;
  return module;
}

void installTargetResolver() {
  setTargetResolver([](const std::string &target, TargetTraits &traits, std::string &error) {
    backend::TargetInfo info;
    if (!backend::resolveTarget(target, info, error))
      return false;
    traits.lanes = info.f32Lanes;
    traits.avx512 = info.f32Lanes >= 16;
    traits.gpu = info.gpu;
    return true;
  });
}

mlir::LogicalResult runPipeline(mlir::ModuleOp module, const PipelineOptions &options) {
  mlir::PassManager pm(module.getContext());
  mlir::OpPassManager &fn = pm.nest<mlir::func::FuncOp>();
  if (options.fuse) {
    fn.addPass(createAttnDecomposeMultiHead());
    fn.addPass(createAttnFuse());
    fn.addPass(createAttnFoldBilinear());
  }
  fn.addPass(mlir::createCanonicalizerPass());
  AttnSelectScheduleOptions select;
  select.target = options.target.empty() ? "host" : options.target;
  fn.addPass(createAttnSelectSchedule(select));
  return pm.run(module);
}

std::optional<kernel::ModuleSpec> loadKernels(const std::string &path, const std::string &entry,
                                              mlir::MLIRContext &ctx,
                                              const PipelineOptions &options,
                                              std::string *optimized) {
  mlir::OwningOpRef<mlir::ModuleOp> module = loadModule(path, ctx);
  if (!module)
    return std::nullopt;
  // Diagnostics of the passes and the extraction carry the ops' locations; print them like the
  // parser's.
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &ctx);
  if (failed(runPipeline(*module, options)))
    return std::nullopt;
  if (optimized) {
    llvm::raw_string_ostream os(*optimized);
    module->print(os);
  }
  mlir::FailureOr<kernel::ModuleSpec> spec = extractKernels(*module, entry);
  if (failed(spec))
    return std::nullopt;
  return std::move(*spec);
}

std::optional<backend::TargetInfo> targetFromFlag(const std::string &spec) {
  backend::TargetInfo info;
  std::string error;
  if (!backend::resolveTarget(spec, info, error)) {
    fail(error);
    return std::nullopt;
  }
  return info;
}

void releaseLlvmOption(const char *name) {
  llvm::StringMap<llvm::cl::Option *> &options = llvm::cl::getRegisteredOptions();
  auto it = options.find(name);
  if (it != options.end())
    it->second->removeArgument();
}

std::string makeDirectories(const std::string &path) {
  if (std::error_code ec = llvm::sys::fs::create_directories(path))
    return "cannot create directory '" + path + "': " + ec.message();
  return "";
}

} // namespace attn::tools
