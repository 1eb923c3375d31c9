//===- Tuner.cpp - measure candidate schedules, keep the fastest ----------===//

#include "attn/Tuner/Tuner.h"
#include "attn/Support/Percentile.h"

#include "attn/CodeGen/Halide/Backend.h"
#include "attn/CodeGen/Halide/Schedule/CPU.h"
#include "attn/Dialect/Attn/IR/AttnDialect.h"
#include "attn/Reference/Evaluator.h"
#include "attn/Runtime/KernelInputs.h"
#include "attn/Target/KernelSpec/ExtractKernel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>

namespace attn::tuner {

namespace {

using Clock = std::chrono::steady_clock;

/// A change must take less than this fraction of the best time so far to be kept (the descent's
/// steps, and the winner against the heuristic side by side).
constexpr double kMinGain = 0.99;
/// The descent's share of the budget; the side-by-side check gets the rest, and at least
/// kMinConfirmRounds rounds.
constexpr double kDescentShare = 0.8;
constexpr int kMinConfirmRounds = 3;

std::string text(ScheduleAttr a) {
  std::string s;
  llvm::raw_string_ostream os(s);
  mlir::Attribute(a).print(os);
  return s;
}

/// The schedule's tunable parameters, as a small mutable record.
struct Point {
  int64_t tileQ, blockK, regQ, regK, regV, chunkK, splitK, groupQ;
  std::string parallel;
  ScheduleAttr attr(ScheduleAttr base) const {
    return ScheduleAttr::get(base.getContext(), tileQ, blockK, base.getVector(), regQ, regK, regV,
                             chunkK, splitK, groupQ, parallel, "hand", "tuned");
  }
};

Point pointOf(ScheduleAttr a) {
  return {a.getTileQ(),  a.getBlockK(), a.getRegQ(),   a.getRegK(),          a.getRegV(),
          a.getChunkK(), a.getSplitK(), a.getGroupQ(), a.getParallel().str()};
}

/// One coordinate of the search: its name and the values to try.
struct Axis {
  const char *name;
  std::function<int64_t &(Point &)> field;
  std::vector<int64_t> values;
};

/// A decode schedule: fewer tile rows than a vector (keys in the lanes); its tile and register
/// blocks are not tuned.
bool isDecode(const Point &p, int lanes) { return p.tileQ < lanes; }

/// The coordinates of the search and the values tried for each.
std::vector<Axis> axesOf(bool decode, int lanes) {
  std::vector<Axis> axes;
  if (!decode)
    axes.push_back({"tile_q",
                    [](Point &p) -> int64_t & { return p.tileQ; },
                    {lanes, 2 * lanes, 3 * lanes, 4 * lanes, 8 * lanes, 16 * lanes}});
  axes.push_back(
      {"block_k", [](Point &p) -> int64_t & { return p.blockK; }, {128, 256, 512, 1024, 2048}});
  if (!decode) {
    axes.push_back({"reg_k", [](Point &p) -> int64_t & { return p.regK; }, {6, 8, 10, 12, 14}});
    axes.push_back({"reg_q", [](Point &p) -> int64_t & { return p.regQ; }, {2, 4, 6, 8}});
    axes.push_back({"reg_v", [](Point &p) -> int64_t & { return p.regV; }, {1, 2, 4}});
  }
  axes.push_back({"chunk_k", [](Point &p) -> int64_t & { return p.chunkK; }, {64, 128, 256, 512}});
  axes.push_back({"split_k", [](Point &p) -> int64_t & { return p.splitK; }, {0, 1}});
  if (!decode)
    axes.push_back({"group_q", [](Point &p) -> int64_t & { return p.groupQ; }, {0, 4, 8, 16}});
  return axes;
}

/// The f32 lanes of the kernels tuned from `heuristic` (its vector width; 16 when it names none).
int lanesOf(ScheduleAttr heuristic) {
  return heuristic.getVector() > 0 ? static_cast<int>(heuristic.getVector()) : 16;
}

/// The op's static key count where a CPU kernel's blocks depend on it, else -1.
int64_t keysOf(AttentionOp op, bool cpu) {
  auto keyType = mlir::cast<mlir::RankedTensorType>(op.getKey().getType());
  return cpu ? keyType.getDimSize(keyType.getRank() - 2) : -1;
}

/// A candidate's identity: its schedule's text (every tunable field is in it), with the key block
/// and the tile rows a CPU kernel takes (schedule::cpu::blockKeys: a block_k above a static key
/// count is one block of the keys, so 1024 and 2048 over 512 keys are 512's kernel;
/// schedule::cpu::tileRows: tile_q = 24 with 16 lanes is 32's kernel), so that no kernel is
/// measured twice.
std::string candidateKey(Point p, ScheduleAttr heuristic, bool cpu, int64_t tk, int lanes) {
  if (cpu) {
    p.blockK = schedule::cpu::blockKeys(p.blockK, tk);
    p.tileQ = schedule::cpu::tileRows(p.tileQ, lanes);
  }
  return text(p.attr(heuristic));
}

/// Whether the descent measures `p`: tiles of whole row vectors (a CPU kernel rounds its tile up to
/// them, schedule::cpu::tileRows, so a hand-written start of 24 rows is tuned along every axis; a
/// GPU tile must be one) and a P.V row block within the tile. (A row block that does not divide the
/// tile gets a guarded last block: AVX2's 6 rows in a tile of 16.)
bool isCandidate(const Point &p, bool decode, int lanes, bool cpu) {
  const int64_t rows = cpu ? schedule::cpu::tileRows(p.tileQ, lanes) : p.tileQ;
  return decode || (rows % lanes == 0 && p.regQ <= rows);
}

} // namespace

bool resultsAgree(const std::vector<HostTensor> &got, const std::vector<HostTensor> &want) {
  if (got.size() != want.size())
    return false;
  for (size_t i = 0; i < got.size(); ++i) {
    // attn-run --check's comparison, with the heuristic schedule's results as the reference.
    reference::Array w{want[i].shape, std::vector<double>(want[i].numElements())};
    for (size_t j = 0; j < w.data.size(); ++j)
      w.data[j] = want[i].get(static_cast<int64_t>(j));
    if (want[i].elem != got[i].elem || !reference::compare(got[i], w).pass())
      return false;
  }
  return true;
}

namespace {

/// One candidate schedule of one function, compiled and ready to be called on the tuner's inputs.
struct Compiled {
  std::unique_ptr<backend::JitKernel> kernel;
  std::vector<HostTensor> outputs;

  bool run(const std::vector<const HostTensor *> &in) {
    std::string error;
    return kernel->run(in, outputs, error);
  }
};

/// Compiles `function` with the schedules its ops carry now; no kernel when it does not compile.
Compiled compile(mlir::ModuleOp module, const std::string &function, const TuneOptions &options,
                 const std::vector<HostTensor> &inputs) {
  Compiled c;
  mlir::FailureOr<kernel::ModuleSpec> spec = extractKernels(module, function);
  if (failed(spec))
    return c;
  const kernel::FunctionSpec &fn = spec->functions.front();
  std::string error;
  c.kernel = backend::compileJit(fn, options.target, error);
  if (c.kernel && !resultTensors(fn, inputs, c.outputs, error))
    c.kernel.reset();
  return c;
}

/// The minimum of `reps` runs after a warm-up, in ms; negative when the kernel does not run. Its
/// results are left in c.outputs.
double timeMin(Compiled &c, const std::vector<const HostTensor *> &in, int reps) {
  if (!c.kernel || !c.run(in))
    return -1;
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    auto t0 = Clock::now();
    if (!c.run(in))
      return -1;
    best = std::min(best, std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  return best;
}

/// The descent's winner against the heuristic's schedule, called alternately as attn-bench's pairs
/// are: heuristic then winner in even rounds, winner then heuristic in odd ones, each side called
/// as often as fills ~10 ms. The descent compares minima taken up to minutes apart, on machines
/// whose speed drifts by more than the 1% a step must win by; side by side, a round's two timings
/// are milliseconds apart (docs/SCHEDULES.md, "attn-tune", has a pick this refused). Runs
/// `minRounds` rounds, then more up to `maxRounds` while `more()` says there is time; the result is
/// each round's winner ms / heuristic ms (empty when a kernel fails to run).
std::vector<double> sideBySide(Compiled &heuristic, const std::string &heuristicSchedule,
                               Compiled &winner, const std::string &winnerSchedule,
                               const std::vector<const HostTensor *> &in, double heuristicMs,
                               int minRounds, int maxRounds, const std::function<bool()> &more,
                               const TuneOptions &options) {
  const int calls = std::max(1, static_cast<int>(std::ceil(10.0 / std::max(heuristicMs, 1e-3))));
  auto time = [&](Compiled &c, const std::string &schedule) {
    auto t0 = Clock::now();
    for (int i = 0; i < calls; ++i)
      if (!c.run(in))
        return -1.0;
    double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    if (options.timingForTest)
      ms = calls * options.timingForTest(schedule, TimingPhase::SideBySide, ms / calls);
    return ms;
  };
  std::vector<double> ratios;
  for (int round = 0; round < maxRounds && (round < minRounds || more()); ++round) {
    double h, w;
    if (round % 2 == 0) {
      h = time(heuristic, heuristicSchedule);
      w = time(winner, winnerSchedule);
    } else {
      w = time(winner, winnerSchedule);
      h = time(heuristic, heuristicSchedule);
    }
    if (h <= 0 || w < 0)
      return {};
    ratios.push_back(w / h);
  }
  return ratios;
}

} // namespace

std::string sideBySideSummary(const TuneReport &r) {
  if (r.confirmRounds == 0)
    return r.keptHeuristic ? "the side-by-side check could not run: the heuristic's schedule kept"
                           : "";
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "side by side, " << r.confirmRounds << " rounds: " << llvm::format("%.3f", r.confirmRatio)
     << " of the heuristic's time"
     << (r.keptHeuristic ? ", not 1% faster: the heuristic's schedule kept" : "");
  return s;
}

std::string tuneSummary(const TuneReport &r) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (r.onlyHeuristic) {
    os << r.function << " " << r.op << ": only the heuristic's schedule was measured ("
       << llvm::format("%.3f", r.heuristicMs) << " ms) in " << llvm::format("%.1f", r.seconds)
       << " s: the budget left no time for another candidate; the schedule stays as it was\n  "
       << r.best << "\n";
    return s;
  }
  os << r.function << " " << r.op << ": " << r.candidates << " candidates in "
     << llvm::format("%.1f", r.seconds) << " s"
     << (r.wrongResults ? " (" + std::to_string(r.wrongResults) +
                              " rejected: results differ from the heuristic's)"
                        : std::string())
     << "; heuristic " << llvm::format("%.3f", r.heuristicMs) << " ms, best "
     << llvm::format("%.3f", r.bestMs) << " ms (" << llvm::format("%.2f", r.heuristicMs / r.bestMs)
     << "x)" << (r.confirmRounds || r.keptHeuristic ? "; " + sideBySideSummary(r) : std::string())
     << "\n  " << r.best << "\n";
  return s;
}

std::vector<Candidate> listCandidates(mlir::ModuleOp module, const backend::TargetInfo &target) {
  std::vector<Candidate> out;
  const bool cpu = !target.gpu;
  for (auto fn : module.getOps<mlir::func::FuncOp>()) {
    if (fn.isPrivate() || fn.isExternal())
      continue;
    fn.walk([&](AttentionOp op) {
      ScheduleAttr heuristic = op.getScheduleAttr();
      if (!heuristic || heuristic.getScheduler() != "hand")
        return;
      const int lanes = lanesOf(heuristic);
      const Point start = pointOf(heuristic);
      const bool decode = isDecode(start, lanes);
      const int64_t tk = keysOf(op, cpu);
      std::set<std::string> seen = {candidateKey(start, heuristic, cpu, tk, lanes)};
      auto add = [&](const Point &p) {
        if (isCandidate(p, decode, lanes, cpu) &&
            seen.insert(candidateKey(p, heuristic, cpu, tk, lanes)).second)
          out.push_back({"@" + fn.getSymName().str(), text(p.attr(heuristic))});
      };
      for (Axis &axis : axesOf(decode, lanes))
        for (int64_t v : axis.values) {
          Point p = start;
          axis.field(p) = v;
          add(p);
        }
      for (const char *par : {"heads", "tiles"}) {
        Point p = start;
        p.parallel = par;
        add(p);
      }
    });
  }
  return out;
}

namespace {

/// The static argument shapes of `fn`, or false with `error`: tuning runs the kernel.
bool staticArgumentShapes(mlir::func::FuncOp fn, std::vector<std::vector<int64_t>> &shapes,
                          std::string &error) {
  for (mlir::Type t : fn.getArgumentTypes()) {
    auto tensor = mlir::cast<mlir::RankedTensorType>(t);
    if (!tensor.hasStaticShape()) {
      error = "@" + fn.getSymName().str() +
              " has dynamic sizes; tuning needs static shapes (tensor.cast the "
              "arguments or write the sizes you will run)";
      return false;
    }
    shapes.emplace_back(tensor.getShape().begin(), tensor.getShape().end());
  }
  return true;
}

/// Tunes one attn.attention op from its heuristic schedule: measure the start, descend one
/// parameter at a time, check the winner against the start side by side, write the choice.
class OpTuner {
public:
  OpTuner(mlir::ModuleOp module, const std::string &name, AttentionOp op, ScheduleAttr heuristic,
          const TuneOptions &options, const std::vector<HostTensor> &inputs,
          std::function<double()> elapsed)
      : module(module), name(name), op(op), heuristic(heuristic), options(options), inputs(inputs),
        in(pointersTo(inputs)), elapsed(std::move(elapsed)), lanes(lanesOf(heuristic)),
        cpu(!options.target.gpu), tk(keysOf(op, cpu)), best(pointOf(heuristic)) {
    report.function = "@" + name;
    report.op = "attn.attention";
    report.heuristic = text(heuristic);
  }
  /// The report, or nothing when the start could not be measured (the op keeps its schedule).
  std::optional<TuneReport> run();

private:
  double evaluate(const Point &p);
  void progress(const std::string &what) const;
  bool timeForAnother() const;
  void tryPoint(const Point &p, bool &improved);
  void descend();
  void confirm();

  mlir::ModuleOp module;
  const std::string &name;
  AttentionOp op;
  ScheduleAttr heuristic;
  const TuneOptions &options;
  const std::vector<HostTensor> &inputs;
  const std::vector<const HostTensor *> in;
  std::function<double()> elapsed;
  const int lanes;
  const bool cpu;
  const int64_t tk;
  TuneReport report;
  Point best;
  double bestMs = -1;
  std::map<std::string, double> seen; // candidateKey -> ms (< 0: rejected)
  // Every candidate's results are compared with the heuristic schedule's (the first measured): a
  // schedule that Halide compiles into a wrong kernel must not win by doing less work.
  std::vector<HostTensor> expected;
  Compiled last;       // the kernel evaluate() measured last
  double lastCost = 0; // seconds the last new candidate took to compile and time
  Compiled heuristicKernel, bestKernel;
};

void OpTuner::progress(const std::string &what) const {
  if (!options.progress)
    return;
  std::string line;
  llvm::raw_string_ostream os(line);
  os << llvm::format("[%5.1fs] ", elapsed()) << report.function << " " << what;
  options.progress(line);
}

/// The candidate's minimum time in ms (< 0: rejected), measured once per distinct kernel.
double OpTuner::evaluate(const Point &p) {
  const std::string key = candidateKey(p, heuristic, cpu, tk, lanes);
  if (auto it = seen.find(key); it != seen.end())
    return it->second;
  const double t0 = elapsed();
  op.setScheduleAttr(p.attr(heuristic));
  last = compile(module, name, options, inputs);
  double ms = timeMin(last, in, options.reps);
  if (ms >= 0 && options.timingForTest)
    ms = options.timingForTest(text(p.attr(heuristic)), TimingPhase::Descent, ms);
  bool wrong = false;
  if (ms >= 0 && expected.empty())
    expected = last.outputs;
  else if (ms >= 0 && !resultsAgree(last.outputs, expected))
    wrong = true;
  if (wrong) {
    ms = -1;
    ++report.wrongResults;
  }
  seen[key] = ms;
  lastCost = elapsed() - t0;
  ++report.candidates;
  progress(text(p.attr(heuristic)) + ": " +
           (wrong    ? std::string("rejected: its results differ from the heuristic schedule's")
            : ms < 0 ? std::string("rejected")
                     : llvm::formatv("{0:F3} ms", ms).str()));
  return ms;
}

/// Another candidate only if one like the last fits in the descent's share of the budget (the
/// side-by-side check gets the rest) and the count allows one: compile times dwarf most kernels'
/// runs, and one started near the end overran the budget by as much.
bool OpTuner::timeForAnother() const {
  const double descentBudget =
      options.budgetSeconds * (options.confirmRounds > 0 ? kDescentShare : 1.0);
  return elapsed() + lastCost < descentBudget &&
         (options.maxCandidates == 0 || report.candidates < options.maxCandidates);
}

void OpTuner::tryPoint(const Point &p, bool &improved) {
  double ms = evaluate(p);
  if (ms > 0 && ms < bestMs * kMinGain) {
    best = p;
    bestMs = ms;
    bestKernel = std::move(last);
    improved = true;
  }
}

/// Coordinate descent: vary one parameter at a time, keep what is faster by more than 1%.
void OpTuner::descend() {
  const bool decode = isDecode(best, lanes);
  std::vector<Axis> axes = axesOf(decode, lanes);
  bool improved = true;
  while (improved && timeForAnother()) {
    improved = false;
    for (Axis &axis : axes) {
      for (int64_t v : axis.values) {
        if (!timeForAnother())
          break;
        Point p = best;
        if (axis.field(p) == v)
          continue;
        axis.field(p) = v;
        if (!isCandidate(p, decode, lanes, cpu))
          continue;
        tryPoint(p, improved);
      }
    }
    for (const char *par : {"heads", "tiles"}) {
      if (!timeForAnother() || best.parallel == par)
        continue;
      Point p = best;
      p.parallel = par;
      tryPoint(p, improved);
    }
  }
}

/// The descent's winner must beat the heuristic side by side, or the heuristic's schedule stays
/// (written as the tuner's: the tuner chose it).
void OpTuner::confirm() {
  if (!bestKernel.kernel || options.confirmRounds <= 0)
    return;
  std::vector<double> ratios = sideBySide(
      heuristicKernel, text(pointOf(heuristic).attr(heuristic)), bestKernel,
      text(best.attr(heuristic)), in, report.heuristicMs, kMinConfirmRounds, options.confirmRounds,
      [&] { return elapsed() < options.budgetSeconds; }, options);
  report.confirmRounds = static_cast<int>(ratios.size());
  report.confirmRatio = percentileOf(ratios, 0.5);
  const bool confirmed = !ratios.empty() && report.confirmRatio < kMinGain;
  progress(llvm::formatv("side by side, {0} rounds: the best took {1:F3} of the heuristic's time "
                         "(median; {2:F3}-{3:F3}): {4}",
                         ratios.size(), report.confirmRatio, percentileOf(ratios, 0),
                         percentileOf(ratios, 1),
                         confirmed ? "kept" : "not 1% faster, the heuristic's schedule kept")
               .str());
  if (!confirmed) {
    best = pointOf(heuristic);
    bestMs = report.heuristicMs;
    report.keptHeuristic = true;
  }
}

std::optional<TuneReport> OpTuner::run() {
  bestMs = evaluate(best);
  report.heuristicMs = bestMs;
  if (bestMs < 0) {
    op.setScheduleAttr(heuristic);
    return std::nullopt;
  }
  heuristicKernel = std::move(last);
  descend();
  confirm();
  // Where nothing else was measured, nothing was chosen: the schedule stays as it came.
  report.onlyHeuristic = report.candidates == 1;
  ScheduleAttr chosen = report.onlyHeuristic ? heuristic : best.attr(heuristic);
  op.setScheduleAttr(chosen);
  report.best = text(chosen);
  report.bestMs = bestMs;
  report.seconds = elapsed();
  return report;
}

} // namespace

bool tuneModule(mlir::ModuleOp module, const TuneOptions &options, std::vector<TuneReport> &reports,
                std::string &error) {
  // Candidate errors (a schedule Halide rejects) are expected; keep them off the terminal.
  mlir::ScopedDiagnosticHandler quiet(module.getContext(),
                                      [](mlir::Diagnostic &) { return mlir::success(); });
  for (auto fn : module.getOps<mlir::func::FuncOp>()) {
    if (fn.isPrivate() || fn.isExternal())
      continue;
    std::string name = fn.getSymName().str();
    std::vector<std::vector<int64_t>> shapes;
    if (!staticArgumentShapes(fn, shapes, error))
      return false;
    mlir::FailureOr<kernel::ModuleSpec> spec = extractKernels(module, name);
    if (failed(spec)) {
      error = "@" + name + " cannot be lowered";
      return false;
    }
    std::vector<HostTensor> inputs = randomInputs(spec->functions.front(), shapes, 1);
    auto start = Clock::now();
    auto elapsed = [start] { return std::chrono::duration<double>(Clock::now() - start).count(); };
    fn.walk([&](AttentionOp op) {
      ScheduleAttr heuristic = op.getScheduleAttr();
      if (!heuristic || heuristic.getScheduler() != "hand")
        return;
      if (std::optional<TuneReport> report =
              OpTuner(module, name, op, heuristic, options, inputs, elapsed).run())
        reports.push_back(*report);
    });
  }
  return true;
}

} // namespace attn::tuner
