//===- Tuner.h - measure candidate schedules, keep the fastest --*- C++ -*-===//

#ifndef ATTN_TOOLS_COMMON_TUNER_H
#define ATTN_TOOLS_COMMON_TUNER_H

#include "attn/Backend/Target.h"

#include "mlir/IR/BuiltinOps.h"

#include <functional>
#include <string>
#include <vector>

namespace attn::tools {

struct TuneOptions {
  double budgetSeconds = 60;  // per function, compile time included
  int reps = 5;               // timed runs per candidate (the minimum decides)
  backend::TargetInfo target;
  std::function<void(const std::string &)> progress; // one line per candidate
};

struct TuneReport {
  std::string function, op;       // "@f", "attn.attention (model.mlir:3:8)"
  std::string heuristic, best;    // #attn.schedule<...> texts
  double heuristicMs = 0, bestMs = 0;
  int candidates = 0;
  double seconds = 0;
};

/// Tunes the #attn.schedule of every attn.attention op of `module` (which has been through the attn
/// pipeline, so each op carries its heuristic schedule): coordinate descent over the schedule's
/// parameters from the heuristic's choice, timing each candidate on random inputs (the functions'
/// shapes must be static), within the time budget. The best schedule found (source = "tuned") is
/// written into the op. Returns false with `error` when a function cannot be tuned.
bool tuneModule(mlir::ModuleOp module, const TuneOptions &options, std::vector<TuneReport> &reports,
                std::string &error);

} // namespace attn::tools

#endif // ATTN_TOOLS_COMMON_TUNER_H
