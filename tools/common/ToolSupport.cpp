//===- ToolSupport.cpp - what every attn tool does the same way -----------===//

#include "ToolSupport.h"

#include "attn/Dialect/Attn/IR/AttnDialect.h"
#include "attn/Dialect/Attn/Transforms/Passes.h"
#include "attn/Kernel/Limits.h"
#include "attn/Kernel/ShapeRules.h"
#include "attn/Runtime/AtomicFile.h"
#include "attn/Runtime/TextLimits.h"
#include "attn/Target/KernelSpec/ExtractKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <functional>
#include <mutex>
#include <random>
#include <thread>

namespace attn::tools {

static std::string toolName = "attn";

void setToolName(const char *argv0) { toolName = llvm::sys::path::filename(argv0).str(); }

int fail(const std::string &message) {
  llvm::errs() << toolName << ": error: " << message << "\n";
  return 1;
}

std::string threadCountProblem(long long threads) {
  if (threads >= 1 && threads <= kMaxThreads)
    return "";
  return "--threads must be 1 to " + std::to_string(kMaxThreads) +
         " (the kernels' thread pool runs at most that many), got " + std::to_string(threads);
}

std::string formatSeconds(double seconds) {
  char text[64];
  std::snprintf(text, sizeof text, "%g", seconds);
  return text;
}

std::string secondsProblem(const std::string &name, double seconds, bool positive) {
  if (std::isfinite(seconds) && (positive ? seconds > 0 : seconds >= 0))
    return "";
  return "--" + name + " takes a " + (positive ? "positive" : "non-negative") +
         " number of seconds, got " + formatSeconds(seconds);
}

static void loadDialects(mlir::MLIRContext &ctx) {
  ctx.getOrLoadDialect<AttnDialect>();
  ctx.getOrLoadDialect<mlir::func::FuncDialect>();
  ctx.getOrLoadDialect<mlir::arith::ArithDialect>();
  ctx.getOrLoadDialect<mlir::tensor::TensorDialect>();
}

bool refuseDeepNesting(const llvm::MemoryBuffer &buffer) {
  int64_t at = tooDeepNesting(std::string_view(buffer.getBufferStart(), buffer.getBufferSize()));
  if (at < 0)
    return false;
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(buffer.getMemBufferRef(), false),
                               llvm::SMLoc());
  sourceMgr.PrintMessage(llvm::errs(), llvm::SMLoc::getFromPointer(buffer.getBufferStart() + at),
                         llvm::SourceMgr::DK_Error, tooDeepNestingMessage());
  return true;
}

static mlir::OwningOpRef<mlir::ModuleOp> parseBuffer(std::unique_ptr<llvm::MemoryBuffer> file,
                                                     mlir::MLIRContext &ctx) {
  if (refuseDeepNesting(*file))
    return nullptr;
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &ctx);
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &ctx);
  if (!module || failed(mlir::verify(*module)))
    return nullptr;
  return module;
}

mlir::OwningOpRef<mlir::ModuleOp> loadModule(const std::string &path, mlir::MLIRContext &ctx) {
  loadDialects(ctx);
  std::string err;
  std::unique_ptr<llvm::MemoryBuffer> file = mlir::openInputFile(path, &err);
  if (!file) {
    fail(err);
    return nullptr;
  }
  return parseBuffer(std::move(file), ctx);
}

bool writeModule(mlir::ModuleOp module, const std::string &path, std::string &error) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
  return writeFileAtomically(path, text, error);
}

mlir::OwningOpRef<mlir::ModuleOp>
parseModuleString(const std::string &text, const std::string &name, mlir::MLIRContext &ctx) {
  loadDialects(ctx);
  return parseBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, name), ctx);
}

void registerMlirFlags(llvm::cl::OptionCategory &category) {
  // The passes a --pass-pipeline or --mlir-print-ir-after=PASS may name, as attn-opt has them;
  // first, since the pass-manager flags take their choices from the registry.
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerSymbolDCEPass();
  registerAttnPasses();
  registerCodeGenPasses();
  mlir::registerMLIRContextCLOptions();
  mlir::registerPassManagerCLOptions();
  mlir::registerDefaultTimingManagerCLOptions();
  mlir::registerAsmPrinterCLOptions();
  // Shown in --help: the flags of mlir-opt's that an attn-compile user reaches for; the rest of
  // MLIR's work too (--help-hidden lists them).
  static const char *const shown[] = {"mlir-print-ir-after-all",    "mlir-print-ir-before-all",
                                      "mlir-print-ir-after",        "mlir-print-ir-before",
                                      "mlir-print-ir-after-change", "mlir-print-ir-after-failure",
                                      "mlir-print-ir-module-scope", "mlir-timing",
                                      "mlir-timing-display",        "mlir-pass-statistics",
                                      "mlir-disable-threading",     "mlir-print-debuginfo"};
  llvm::StringMap<llvm::cl::Option *> &options = llvm::cl::getRegisteredOptions();
  for (const char *name : shown)
    if (auto it = options.find(name); it != options.end()) {
      it->second->addCategory(category);
      it->second->setHiddenFlag(llvm::cl::NotHidden);
    }
}

/// The pass manager of the pipeline: the user's passes or attn's, under MLIR's flags if asked.
static mlir::LogicalResult buildPipeline(mlir::PassManager &pm, const PipelineOptions &options) {
  if (options.mlirFlags) {
    if (mlir::failed(mlir::applyPassManagerCLOptions(pm)))
      return mlir::failure();
    mlir::applyDefaultTimingPassManagerCLOptions(pm);
  }
  if (options.passPipeline.empty()) {
    mlir::OpPassManager &functionPm = pm.nest<mlir::func::FuncOp>();
    for (KernelPipelineStep &step : kernelPipeline(options))
      functionPm.addPass(step.create());
    return mlir::success();
  }
  std::string error;
  llvm::raw_string_ostream os(error);
  mlir::FailureOr<mlir::OpPassManager> parsed = mlir::parsePassPipeline(options.passPipeline, os);
  if (mlir::failed(parsed) || parsed->getOpName() != "builtin.module") {
    fail("--pass-pipeline: " + (error.empty()
                                    ? std::string("the pipeline must be anchored on "
                                                  "the module, e.g. "
                                                  "'builtin.module(func.func(attn-fuse))'")
                                    : error));
    return mlir::failure();
  }
  // The parsed passes, under the instrumentation (IR printing, timing) already installed in pm.
  static_cast<mlir::OpPassManager &>(pm) = std::move(*parsed);
  return mlir::success();
}

mlir::LogicalResult runPipeline(mlir::ModuleOp module, const PipelineOptions &options,
                                std::vector<PipelineSnapshot> *snapshots) {
  std::string error;
  if (!attachTarget(module, options.target, /*l2KiB=*/0, error)) {
    fail(error);
    return mlir::failure();
  }
  if (!snapshots) {
    mlir::PassManager pm(module.getContext());
    if (failed(buildPipeline(pm, options)))
      return mlir::failure();
    return pm.run(module);
  }
  auto print = [&](const std::string &after) {
    std::string text;
    llvm::raw_string_ostream os(text);
    module.print(os);
    snapshots->push_back({after, text});
  };
  print("");
  for (KernelPipelineStep &step :
       kernelPipeline(options)) { // one pass manager per pass: the IR after each
    mlir::PassManager pm(module.getContext());
    pm.nest<mlir::func::FuncOp>().addPass(step.create());
    if (failed(pm.run(module)))
      return mlir::failure();
    print(step.name);
  }
  return mlir::success();
}

static std::optional<kernel::ModuleSpec> describe(mlir::OwningOpRef<mlir::ModuleOp> module,
                                                  const std::string &entry, mlir::MLIRContext &ctx,
                                                  const PipelineOptions &options,
                                                  std::string *optimized) {
  if (!module)
    return std::nullopt;
  // Diagnostics of the passes and the extraction carry the ops' locations; print them like the
  // parser's.
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &ctx);
  // Checked before the passes too: canonicalization re-creates constants without their location.
  if (failed(attn::checkLowerable(*module, entry)) || failed(runPipeline(*module, options)))
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

std::optional<kernel::ModuleSpec> loadKernels(const std::string &path, const std::string &entry,
                                              mlir::MLIRContext &ctx,
                                              const PipelineOptions &options,
                                              std::string *optimized) {
  return describe(loadModule(path, ctx), entry, ctx, options, optimized);
}

std::optional<kernel::ModuleSpec> loadKernelsFromString(const std::string &text,
                                                        const std::string &name,
                                                        mlir::MLIRContext &ctx,
                                                        const PipelineOptions &options) {
  return describe(parseModuleString(text, name, ctx), "", ctx, options, nullptr);
}

std::optional<backend::TargetInfo> targetFromFlag(const std::string &spec, bool runsHere) {
  backend::TargetInfo info;
  std::string error;
  if (!backend::resolveTarget(spec, info, error) ||
      (runsHere && !backend::hostCanRun(info.halideTarget, error))) {
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

struct StillWorking::State {
  std::mutex mutex;
  std::condition_variable done;
  bool finished = false;
  std::thread ticker;
};

StillWorking::StillWorking(std::string what, int everySeconds) : state(std::make_unique<State>()) {
  state->ticker = std::thread([s = state.get(), what = std::move(what), everySeconds] {
    std::unique_lock<std::mutex> lock(s->mutex);
    for (int waited = everySeconds;; waited += everySeconds) {
      if (s->done.wait_for(lock, std::chrono::seconds(everySeconds), [s] { return s->finished; }))
        return;
      llvm::errs() << toolName << ": still " << what << " (" << waited << " s)\n";
    }
  });
}

StillWorking::~StillWorking() {
  {
    std::lock_guard<std::mutex> lock(state->mutex);
    state->finished = true;
  }
  state->done.notify_one();
  state->ticker.join();
}

std::string makeDirectories(const std::string &path) {
  if (std::error_code ec = llvm::sys::fs::create_directories(path))
    return "cannot create directory '" + path + "': " + ec.message();
  return "";
}

} // namespace attn::tools
