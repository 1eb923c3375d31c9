//===- Tuner.h - measure candidate schedules, keep the fastest --*- C++ -*-===//

#ifndef ATTN_TUNER_TUNER_H
#define ATTN_TUNER_TUNER_H

#include "attn/CodeGen/Halide/Target.h"
#include "attn/Runtime/HostTensor.h"

#include "mlir/IR/BuiltinOps.h"

#include <functional>
#include <string>
#include <vector>

namespace attn::tuner {

/// Where a candidate's time was taken: the descent's minimum of `reps` runs, or one call in a
/// round of the side-by-side check.
enum class TimingPhase { Descent, SideBySide };

struct TuneOptions {
  double budgetSeconds = 60; // per function, compile time included
  int reps = 5;              // timed runs per candidate (the minimum decides)
  int confirmRounds = 30;    // rounds of the winner against the heuristic, alternated; 0: none
  int maxCandidates = 0;     // schedules measured at most, the heuristic's included; 0: no limit
  backend::TargetInfo target;
  std::function<void(const std::string &)> progress; // one line per candidate
  /// Test seam (test/Unit/tuner-decisions.cpp): when set, each time measured (ms per call) is
  /// replaced by what this returns for the candidate's #attn.schedule text and the phase. The
  /// kernels are still compiled, run and their results compared; only the clock is replaced, so
  /// the descent's and the check's decisions can be tested without depending on the machine's
  /// speed (a timed test of them failed under ASan in CI, 2026-12-03).
  std::function<double(const std::string &schedule, TimingPhase phase, double measuredMs)>
      timingForTest;
};

struct TuneReport {
  std::string function, op;    // "@f", "attn.attention (model.mlir:3:8)"
  std::string heuristic, best; // #attn.schedule<...> texts
  double heuristicMs = 0, bestMs = 0;
  int candidates = 0;
  int wrongResults = 0;       // candidates rejected: results differ from the heuristic's
  int confirmRounds = 0;      // rounds of the side-by-side check (0: none ran)
  double confirmRatio = 0;    // their median of winner ms / heuristic ms
  bool keptHeuristic = false; // the check found the winner not faster: `best` is the heuristic
  bool onlyHeuristic = false; // no other candidate was measured: the schedule is left as it was
  double seconds = 0;
};

/// Whether a candidate schedule's results agree with the heuristic schedule's, as attn-run --check
/// compares with the reference (reference::compare: within reference::toleranceFor the element
/// type of the largest finite magnitude, NaN and inf where `want` has them, the same shapes).
bool resultsAgree(const std::vector<HostTensor> &got, const std::vector<HostTensor> &want);

/// Tunes the #attn.schedule of every attn.attention op of `module` (which has been through the attn
/// pipeline, so each op carries its heuristic schedule): coordinate descent over the schedule's
/// parameters from the heuristic's choice, timing each candidate on random inputs (the functions'
/// shapes must be static), within the time budget; a candidate whose results differ from the
/// heuristic schedule's beyond float rounding is rejected. The descent's winner is then called
/// alternately with the heuristic's kernel (confirmRounds rounds in the budget's last fifth, the
/// first 3 even past it) and kept only if the median of the rounds' ratios says it is 1% faster.
/// The chosen schedule (source = "tuned") is written into the op; where the budget allowed no
/// candidate but the heuristic's, the op keeps its schedule as it was. The budget is checked
/// between measurements. Returns false with `error` when a function cannot be tuned.
bool tuneModule(mlir::ModuleOp module, const TuneOptions &options, std::vector<TuneReport> &reports,
                std::string &error);

/// One schedule the descent would try: the function it belongs to ("@f") and the #attn.schedule.
struct Candidate {
  std::string function, schedule;
};

/// The schedules the descent tries first for every attn.attention op of `module` (which has been
/// through the attn pipeline for `target`): each of its parameters changed alone from the
/// heuristic's choice, to each value the descent tries, without duplicates of one kernel (attn-tune
/// --list-candidates; scripts/conformance-sweep.py checks their kernels against the reference).
std::vector<Candidate> listCandidates(mlir::ModuleOp module, const backend::TargetInfo &target);

/// What the side-by-side check found, for reports: "" when the descent found nothing faster, else
/// "side by side, N rounds: R of the heuristic's time" and, when it did not hold, ", not 1% faster:
/// the heuristic's schedule kept" (or that the check could not run its kernels).
std::string sideBySideSummary(const TuneReport &report);

/// attn-tune's report of one tuned op, two lines: "@f attn.attention: N candidates in S s ...;
/// heuristic H ms, best B ms (Rx)[; the side-by-side summary]", then the chosen schedule.
std::string tuneSummary(const TuneReport &report);

} // namespace attn::tuner

#endif // ATTN_TUNER_TUNER_H
