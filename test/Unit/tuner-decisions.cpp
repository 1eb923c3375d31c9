//===- tuner-decisions.cpp - the tuner's choices, under a fixed clock -----===//
//
// tuner-decisions model.mlir -o tuned.mlir --time='SUBSTRING:MS' ... [--check-time='SUBSTRING:MS']
//                 [--other-ms=MS] [--max-candidates=N]
//
// Runs tuner::tuneModule as attn-tune does (the same pipeline, real kernels compiled, run and their
// results compared with the heuristic schedule's), but with the clock replaced
// (TuneOptions::timingForTest): a candidate whose #attn.schedule text contains a --time substring
// takes that many ms per call (the first that matches), any other --other-ms. --check-time entries
// take precedence in the side-by-side check, so a winner of the descent can lose there. Whether
// a step is taken and whether the winner is kept then depend on the given times alone, not on the
// machine's speed: the lit test (test/Tools/attn-tune-decisions.test) holds what each case must do.
// Prints, per tuned op, the measured candidates (schedule and time) and attn-tune's report.
//
//===----------------------------------------------------------------------===//

#include "ToolSupport.h"
#include "attn/Tuner/Tuner.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;
using namespace attn;

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<model.mlir>"), cl::Required);
static cl::opt<std::string> outputFile("o", cl::desc("The tuned module"), cl::Required);
static cl::list<std::string> times("time", cl::desc("SUBSTRING:MS, in both phases"));
static cl::list<std::string> checkTimes("check-time",
                                        cl::desc("SUBSTRING:MS, in the side-by-side check only"));
static cl::opt<double> otherMs("other-ms", cl::desc("Any other schedule's ms"), cl::init(2.0));
static cl::opt<int> maxCandidates("max-candidates", cl::init(2));

namespace {

struct Rule {
  std::string substring;
  double ms;
};

/// SUBSTRING:MS, split at the last ':' (a schedule's text has none).
std::optional<std::vector<Rule>> parseRules(const std::vector<std::string> &specs) {
  std::vector<Rule> rules;
  for (const std::string &spec : specs) {
    size_t colon = spec.rfind(':');
    double ms = 0;
    if (colon == std::string::npos || llvm::StringRef(spec).substr(colon + 1).getAsDouble(ms) ||
        ms <= 0) {
      tools::fail("expected SUBSTRING:MS with MS > 0, got '" + spec + "'");
      return std::nullopt;
    }
    rules.push_back({spec.substr(0, colon), ms});
  }
  return rules;
}

const Rule *match(const std::vector<Rule> &rules, const std::string &schedule) {
  for (const Rule &r : rules)
    if (schedule.find(r.substring) != std::string::npos)
      return &r;
  return nullptr;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  tools::setToolName(argv[0]);
  cl::ParseCommandLineOptions(argc, argv,
                              "tuner-decisions: tuner::tuneModule under a fixed clock\n");
  std::optional<std::vector<Rule>> both = parseRules(times), check = parseRules(checkTimes);
  if (!both || !check)
    return 1;

  std::optional<backend::TargetInfo> host = tools::targetFromFlag("", /*runsHere=*/true);
  if (!host)
    return 1;
  mlir::MLIRContext ctx;
  mlir::OwningOpRef<mlir::ModuleOp> module = tools::loadModule(inputFile, ctx);
  if (!module || failed(tools::runPipeline(*module, {true, ""})))
    return 1;

  tuner::TuneOptions options;
  options.budgetSeconds = 600; // the candidate count ends the descent, not the clock
  options.reps = 1;
  options.maxCandidates = maxCandidates;
  options.target = *host;
  options.progress = [](const std::string &line) {
    // "[  1.2s] @f #attn.schedule<...>: 2.000 ms": the elapsed seconds are the real clock's.
    size_t at = line.find("] ");
    llvm::outs() << (at == std::string::npos ? line : line.substr(at + 2)) << "\n";
  };
  options.timingForTest = [&](const std::string &schedule, tuner::TimingPhase phase, double) {
    const Rule *r = phase == tuner::TimingPhase::SideBySide ? match(*check, schedule) : nullptr;
    if (!r)
      r = match(*both, schedule);
    return r ? r->ms : static_cast<double>(otherMs);
  };
  std::vector<tuner::TuneReport> reports;
  std::string error;
  if (!tuner::tuneModule(*module, options, reports, error))
    return tools::fail(error);
  for (const tuner::TuneReport &r : reports)
    llvm::outs() << tuner::tuneSummary(r);
  if (!tools::writeModule(*module, outputFile, error))
    return tools::fail(error);
  return 0;
}
