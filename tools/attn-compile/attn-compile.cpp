//===- attn-compile.cpp - emit attention kernels --------------------------===//
//
// attn-compile model.mlir -o OUT_DIR [--target=T] [--emit=LIST] [--entry=NAME]
//
// Writes OUT_DIR/NAME.a and OUT_DIR/NAME.h for each public function (Halide's AOT calling convention:
// one halide_buffer_t * per argument, then one per result, returning 0 on success), and one shared
// Halide runtime, OUT_DIR/attn_runtime.a. Link: c++ main.cpp OUT/NAME.a OUT/attn_runtime.a -ldl -lpthread
//
//===----------------------------------------------------------------------===//

#include "ToolSupport.h"

#include "attn/Backend/Backend.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>

namespace cl = llvm::cl;
using namespace attn;

static cl::OptionCategory category("attn-compile options");
static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<model.mlir>"), cl::Required,
                                      cl::cat(category));
static cl::opt<std::string> outDir("o", cl::desc("Output directory (created if missing)"),
                                   cl::value_desc("dir"), cl::Required, cl::cat(category));
static cl::opt<std::string> targetFlag(
    "target",
    cl::desc("Halide target string (default: host, minus CPU features this CPU lacks; "
             "e.g. host, x86-64-linux-avx2, x86-64-linux-avx512_skylake)"),
    cl::value_desc("target"), cl::cat(category));
static cl::list<std::string> emitFlag(
    "emit", cl::CommaSeparated,
    cl::desc("Extra outputs: stmt, stmt_html, assembly, llvm_assembly, schedule, ptx (CUDA "
             "targets), opencl (OpenCL targets)"),
    cl::value_desc("kind,..."), cl::cat(category));
static cl::opt<bool> fuseFlag("fuse",
                              cl::desc("Decompose multi_head, fuse score/mask/softmax/weighted_sum chains "
                                       "into attention and fold bilinear weights (default true; "
                                       "--fuse=false lowers every op as written)"),
                              cl::init(true), cl::cat(category));
static cl::opt<std::string> entryFlag("entry", cl::desc("Compile only this function"),
                                      cl::value_desc("name"), cl::cat(category));

static bool isCIdentifier(const std::string &s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_'))
    return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
      return false;
  return true;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  tools::setToolName(argv[0]);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "attn-compile: emit linkable attention kernels\n");

  std::vector<backend::Emit> extra;
  for (const std::string &name : emitFlag) {
    backend::Emit e;
    if (!backend::parseEmit(name, e))
      return tools::fail("unknown --emit kind '" + name +
                         "' (expected stmt, stmt_html, assembly, llvm_assembly, schedule, ptx or "
                         "opencl)");
    extra.push_back(e);
  }
  std::optional<backend::TargetInfo> target = tools::targetFromFlag(targetFlag, /*runsHere=*/false);
  if (!target)
    return 1;
  for (backend::Emit e : extra)
    if ((e == backend::Emit::Ptx && !target->cuda) || (e == backend::Emit::OpenCL && !target->opencl))
      return tools::fail(std::string("--emit=") + backend::emitName(e) + " needs a " +
                         (e == backend::Emit::Ptx ? "CUDA target (for example "
                                                    "--target=host-cuda-cuda_capability_80)"
                                                  : "OpenCL target (--target=host-opencl)") +
                         "; the target is " + target->halideTarget);

  mlir::MLIRContext ctx;
  std::optional<kernel::ModuleSpec> spec = tools::loadKernels(inputFile, entryFlag, ctx,
                                                                   {fuseFlag, targetFlag});
  if (!spec)
    return 1;
  for (const kernel::FunctionSpec &fn : spec->functions)
    if (!isCIdentifier(fn.name))
      return tools::fail("function @" + fn.name +
                         " cannot name a kernel: kernel names are C identifiers ([A-Za-z_][A-Za-z0-9_]*)");
  // A directory this run creates is removed again when a kernel fails to compile, with the
  // kernels published in it before (no output, as for the failures above). One that existed keeps
  // what it held; each kernel's files are published whole or not at all (a staging directory).
  const bool created = !llvm::sys::fs::exists(outDir);
  if (std::string err = tools::makeDirectories(outDir); !err.empty())
    return tools::fail(err);
  auto failRemovingOutput = [&](const std::string &message) {
    if (created)
      llvm::sys::fs::remove_directories(outDir);
    return tools::fail(message);
  };

  // What was written is said once everything was (a failure may remove it again).
  std::string error, wrote;
  llvm::raw_string_ostream report(wrote);
  for (const kernel::FunctionSpec &fn : spec->functions) {
    if (!backend::compileKernel(fn, *target, outDir, extra, error))
      return failRemovingOutput(error);
    report << "wrote " << outDir << "/" << fn.name << ".a, " << outDir << "/" << fn.name << ".h";
    for (backend::Emit e : extra)
      report << ", " << outDir << "/" << backend::emitFileName(fn.name, e);
    report << "\n";
  }
  bool withPool = false;
  if (!backend::compileRuntime(*target, outDir, withPool, error))
    return failRemovingOutput(error);
  report << "wrote " << outDir << "/" << backend::runtimeFileName()
         << (withPool ? " (the Halide runtime with attn's scratch pool, attn_runtime.h; "
                      : " (the Halide runtime; ")
         << "target " << target->halideTarget << ")\n";
  llvm::outs() << wrote;
  return 0;
}
