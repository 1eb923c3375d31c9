//===- attn-compile.cpp - emit attention kernels --------------------------===//
//
// attn-compile model.mlir -o OUT_DIR [--target=T] [--emit=LIST] [--entry=NAME]
//
// Writes OUT_DIR/NAME.a and OUT_DIR/NAME.h for each public function (Halide's AOT calling
// convention: one halide_buffer_t * per argument, then one per result, returning 0 on success), and
// one shared Halide runtime, OUT_DIR/attn_runtime.a. Link: c++ main.cpp OUT/NAME.a
// OUT/attn_runtime.a -ldl -lpthread
//
//===----------------------------------------------------------------------===//

#include "ToolSupport.h"

#include "attn/CodeGen/Halide/Backend.h"
#include "attn/Runtime/AtomicFile.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace cl = llvm::cl;
using namespace attn;

static cl::OptionCategory category("attn-compile options");
static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<model.mlir>"), cl::Required,
                                      cl::cat(category));
static cl::opt<std::string> outDir("o",
                                   cl::desc("Output directory: created, or replaced whole if "
                                            "attn-compile wrote it (or it is empty)"),
                                   cl::value_desc("dir"), cl::Required, cl::cat(category));
static cl::opt<std::string>
    targetFlag("target",
               cl::desc("Halide target string (default: host, minus CPU features this CPU lacks; "
                        "e.g. host, x86-64-linux-avx2, x86-64-linux-avx512_skylake)"),
               cl::value_desc("target"), cl::cat(category));
/// --emit's help: one line per kind (backend::emitKinds), as cl::values would print them.
static std::string emitHelp() {
  std::string help = "Extra outputs into OUT_DIR, a comma-separated list of:";
  for (const backend::EmitKind &k : backend::emitKinds())
    help += llvm::formatv("\n  {0,-14} NAME{1,-14} {2}", k.name, k.suffix, k.help).str();
  return help;
}
static const std::string kEmitHelp = emitHelp(); // cl::desc keeps a reference
static cl::list<std::string> emitFlag("emit", cl::CommaSeparated, cl::desc(kEmitHelp),
                                      cl::value_desc("kind,..."), cl::cat(category));
static cl::opt<std::string> passPipeline(
    "pass-pipeline",
    cl::desc("The passes to run before lowering instead of attn's (MLIR's textual form, e.g. "
             "'builtin.module(func.func(attn-fuse,attn-select-schedule))'); without "
             "attn-select-schedule, ops without a schedule get the lowering's fixed defaults, not "
             "the heuristic's"),
    cl::value_desc("pipeline"), cl::cat(category));
static cl::opt<bool>
    fuseFlag("fuse",
             cl::desc("Decompose multi_head and fuse score/mask/softmax/weighted_sum chains "
                      "into attention (default true; --fuse=false lowers every op as written, "
                      "bilinear scores folded into q.W and a dot score as always)"),
             cl::init(true), cl::cat(category));
static cl::opt<int> progressEvery("progress-every",
                                  cl::desc("Seconds between the lines that say a kernel is still "
                                           "compiling (default 10)"),
                                  cl::init(10), cl::Hidden, cl::cat(category));
static cl::opt<std::string> entryFlag("entry", cl::desc("Compile only this function"),
                                      cl::value_desc("name"), cl::cat(category));

/// The file attn-compile leaves in every output directory: what it wrote there and for which
/// target. A directory that holds it (or nothing) may be replaced by a later run; any other is
/// refused.
static const char *const kMarker = ".attn-compile";

/// Why the module's kernels cannot have their names, or "": each name must be one
/// (backend::kernelNameProblem), and none may be another's NAME_argv or NAME_metadata, the symbols
/// Halide defines beside each kernel.
static std::string kernelNamesProblem(const kernel::ModuleSpec &spec) {
  for (const kernel::FunctionSpec &fn : spec.functions) {
    if (std::string why = backend::kernelNameProblem(fn.name); !why.empty())
      return "function @" + fn.name + " cannot name a kernel: " + why;
    for (const kernel::FunctionSpec &other : spec.functions)
      for (const char *suffix : {"_argv", "_metadata"})
        if (fn.name == other.name + suffix)
          return "function @" + fn.name + " cannot name a kernel: the kernel @" + other.name +
                 " defines a symbol of that name";
  }
  return "";
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  tools::setToolName(argv[0]);
  tools::registerMlirFlags(category);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "attn-compile: emit linkable attention kernels\n");

  std::vector<backend::Emit> extra;
  for (const std::string &name : emitFlag) {
    backend::Emit e;
    if (!backend::parseEmit(name, e)) {
      std::vector<std::string> names;
      for (const backend::EmitKind &k : backend::emitKinds())
        names.push_back(k.name);
      return tools::fail("unknown --emit kind '" + name + "' (expected " +
                         llvm::join(llvm::ArrayRef(names).drop_back(), ", ") + " or " +
                         names.back() + ")");
    }
    extra.push_back(e);
  }
  std::optional<backend::TargetInfo> target = tools::targetFromFlag(targetFlag, /*runsHere=*/false);
  if (!target)
    return 1;
  for (backend::Emit e : extra)
    if ((e == backend::Emit::Ptx && !target->cuda) ||
        (e == backend::Emit::OpenCL && !target->opencl))
      return tools::fail(std::string("--emit=") + backend::emitName(e) + " needs a " +
                         (e == backend::Emit::Ptx ? "CUDA target (for example "
                                                    "--target=host-cuda-cuda_capability_80)"
                                                  : "OpenCL target (--target=host-opencl)") +
                         "; the target is " + target->halideTarget);

  mlir::MLIRContext ctx;
  std::optional<kernel::ModuleSpec> spec = tools::loadKernels(
      inputFile, entryFlag, ctx, {fuseFlag, targetFlag, passPipeline, /*mlirFlags=*/true});
  if (!spec)
    return 1;
  if (std::string why = kernelNamesProblem(*spec); !why.empty())
    return tools::fail(why);
  // Everything is written into a staging directory beside OUT_DIR, which then takes OUT_DIR's place
  // whole (atomically where OUT_DIR exists): a failure or an interruption leaves OUT_DIR as it was.
  std::string error;
  StagedDirectory staged;
  if (!staged.open(outDir, kMarker, error))
    return tools::fail(error);

  // What was written is said once everything was.
  std::string wrote, files;
  llvm::raw_string_ostream report(wrote), listing(files);
  for (const kernel::FunctionSpec &fn : spec->functions) {
    bool compiled;
    {
      tools::StillWorking ticker("compiling @" + fn.name + " (" + std::to_string(fn.ops.size()) +
                                     " ops)",
                                 std::max(1, progressEvery.getValue()));
      compiled = backend::compileKernel(fn, *target, staged.path(), extra, error);
    }
    if (!compiled)
      return tools::fail(error);
    report << "wrote " << outDir << "/" << fn.name << ".a, " << outDir << "/" << fn.name << ".h";
    listing << fn.name << ".a\n" << fn.name << ".h\n";
    for (backend::Emit e : extra) {
      report << ", " << outDir << "/" << backend::emitFileName(fn.name, e);
      listing << backend::emitFileName(fn.name, e) << "\n";
    }
    report << "\n";
  }
  bool withPool = false;
  if (!backend::compileRuntime(*target, staged.path(), withPool, error))
    return tools::fail(error);
  report << "wrote " << outDir << "/" << backend::runtimeFileName()
         << (withPool ? " (the Halide runtime with attn's scratch pool, attn_runtime.h; "
                      : " (the Halide runtime; ")
         << "target " << target->halideTarget << ")\n";
  listing << backend::runtimeFileName() << "\n"
          << (withPool ? "attn_runtime.h\n" : "") << "HalideRuntime.h\nHalideBuffer.h\n";
  if (!writeFileAtomically(staged.path() + "/" + kMarker,
                           "# written by attn-compile " + inputFile + ", target " +
                               target->halideTarget + "\n" + files,
                           error) ||
      !staged.publish(error))
    return tools::fail(error);
  llvm::outs() << wrote;
  return 0;
}
