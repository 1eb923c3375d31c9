//===- ToolSupport.cpp - what every attn tool does the same way -----------===//

#include "ToolSupport.h"

#include "attn/Conversion/AttnToHalide/ExtractKernel.h"
#include "attn/Dialect/Attn/IR/AttnDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
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

std::optional<kernel::ModuleSpec> loadKernels(const std::string &path, const std::string &entry,
                                              mlir::MLIRContext &ctx) {
  mlir::OwningOpRef<mlir::ModuleOp> module = loadModule(path, ctx);
  if (!module)
    return std::nullopt;
  // Diagnostics of the extraction carry the ops' locations; print them like the parser's.
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &ctx);
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
