//===- attn-tune.cpp - autotune #attn.schedule on this machine ------------===//
//
// attn-tune model.mlir -o tuned.mlir [--budget=SECONDS] [--max-candidates=N] [--reps=N]
//           [--confirm-rounds=N] [--target=T] [--threads=N]
// attn-tune model.mlir --list-candidates [--target=T]
//
// Runs the attn pipeline, then measures candidate schedules of every attn.attention op on random
// inputs of the functions' (static) shapes, starting from --attn-select-schedule's choice; the
// fastest found is called alternately with the heuristic's kernel and kept only if it is faster
// side by side. Writes the module with the chosen schedule in each op (source = "tuned").
//
//===----------------------------------------------------------------------===//

#include "ToolSupport.h"
#include "attn/Tuner/Tuner.h"

#include "attn/CodeGen/Halide/Backend.h"
#include "attn/Runtime/AtomicFile.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;
using namespace attn;

static cl::OptionCategory category("attn-tune options");
static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<model.mlir>"), cl::Required,
                                      cl::cat(category));
static cl::opt<std::string> outputFile("o",
                                       cl::desc("The tuned module (required unless "
                                                "--list-candidates)"),
                                       cl::value_desc("file"), cl::cat(category));
static cl::opt<bool> listOnly("list-candidates",
                              cl::desc("Print the schedules the search tries first for each "
                                       "attn.attention op (one line each: @function schedule) and "
                                       "exit; nothing is compiled or measured"),
                              cl::cat(category));
static cl::opt<double> budget("budget",
                              cl::desc("Seconds per function, compile times included "
                                       "(default 60)"),
                              cl::init(60), cl::cat(category));
static cl::opt<int> reps("reps",
                         cl::desc("Timed runs per candidate; the fastest counts (default 5)"),
                         cl::init(5), cl::cat(category));
static cl::opt<int> confirmRounds(
    "confirm-rounds",
    cl::desc("Rounds in which the fastest candidate and the heuristic's schedule are called "
             "alternately, in the budget's last fifth (the first 3 even past it); the candidate is "
             "kept only if the median round says it is 1% faster (default 30; 0: no check)"),
    cl::init(30), cl::cat(category));
static cl::opt<int> maxCandidates(
    "max-candidates",
    cl::desc("Schedules measured at most, the heuristic's included (default 0: as many as the "
             "budget allows)"),
    cl::init(0), cl::cat(category));
static cl::opt<std::string> targetFlag("target", cl::desc("Halide target string (default: host)"),
                                       cl::value_desc("target"), cl::cat(category));
static cl::opt<bool> quiet("quiet", cl::desc("No progress lines"), cl::cat(category));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  tools::setToolName(argv[0]);
  tools::releaseLlvmOption("threads");
  static cl::opt<int> threads("threads",
                              cl::desc("Threads the kernels run on while tuning (default: "
                                       "all cores)"),
                              cl::init(0), cl::cat(category));
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "attn-tune: measure candidate schedules, keep the fastest\n");
  if (std::string why = tools::secondsProblem("budget", budget, /*positive=*/true); !why.empty())
    return tools::fail(why);
  if (reps < 1)
    return tools::fail("--reps must be at least 1, got " + std::to_string(reps));
  if (confirmRounds < 0)
    return tools::fail("--confirm-rounds must be at least 0, got " + std::to_string(confirmRounds));
  if (maxCandidates < 0)
    return tools::fail("--max-candidates must be at least 0, got " + std::to_string(maxCandidates));
  if (threads.getNumOccurrences())
    if (std::string why = tools::threadCountProblem(threads); !why.empty())
      return tools::fail(why);
  std::optional<backend::TargetInfo> target = tools::targetFromFlag(targetFlag, /*runsHere=*/true);
  if (!target)
    return 1;
  std::string error;
  if (!listOnly && outputFile.empty())
    return tools::fail("an output file is required: -o tuned.mlir (or --list-candidates)");
  if (!listOnly && !checkOutputPath(outputFile, error))
    return tools::fail(error);
  if (threads > 0)
    backend::setThreadCount(threads);

  mlir::MLIRContext ctx;
  mlir::OwningOpRef<mlir::ModuleOp> module = tools::loadModule(inputFile, ctx);
  if (!module || failed(tools::runPipeline(*module, {true, targetFlag})))
    return 1;

  if (listOnly) {
    for (const tuner::Candidate &c : tuner::listCandidates(*module, *target))
      llvm::outs() << c.function << " " << c.schedule << "\n";
    return 0;
  }

  tuner::TuneOptions options;
  options.budgetSeconds = budget;
  options.reps = reps;
  options.confirmRounds = confirmRounds;
  options.maxCandidates = maxCandidates;
  options.target = *target;
  if (!quiet)
    options.progress = [](const std::string &line) { llvm::errs() << line << "\n"; };
  std::vector<tuner::TuneReport> reports;
  if (!tuner::tuneModule(*module, options, reports, error))
    return tools::fail(error);

  for (const tuner::TuneReport &r : reports)
    llvm::outs() << tuner::tuneSummary(r);
  if (!tools::writeModule(*module, outputFile, error))
    return tools::fail(error);
  return 0;
}
