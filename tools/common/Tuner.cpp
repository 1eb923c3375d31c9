//===- Tuner.cpp - measure candidate schedules, keep the fastest ----------===//

#include "Tuner.h"
#include "ToolSupport.h"

#include "attn/Backend/Backend.h"
#include "attn/Conversion/AttnToHalide/ExtractKernel.h"
#include "attn/Dialect/Attn/IR/AttnDialect.h"
#include "attn/Reference/Evaluator.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <map>

namespace attn::tools {

namespace {

using Clock = std::chrono::steady_clock;

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
  return {a.getTileQ(), a.getBlockK(), a.getRegQ(),   a.getRegK(),           a.getRegV(),
          a.getChunkK(), a.getSplitK(), a.getGroupQ(), a.getParallel().str()};
}

/// One coordinate of the search: its name and the values to try.
struct Axis {
  const char *name;
  std::function<int64_t &(Point &)> field;
  std::vector<int64_t> values;
};

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

/// Times one schedule of one function: the minimum of `reps` runs after a warm-up, in ms; negative
/// when the candidate does not compile or run. Its results are left in `outputs`.
double measure(mlir::ModuleOp module, const std::string &function, const TuneOptions &options,
               const std::vector<HostTensor> &inputs, std::vector<HostTensor> &outputs) {
  mlir::FailureOr<kernel::ModuleSpec> spec = extractKernels(module, function);
  if (failed(spec))
    return -1;
  const kernel::FunctionSpec &fn = spec->functions.front();
  std::string error;
  std::unique_ptr<backend::JitKernel> kernel = backend::compileJit(fn, options.target, error);
  if (!kernel)
    return -1;
  outputs.clear();
  if (!resultTensors(fn, inputs, outputs, error))
    return -1;
  std::vector<const HostTensor *> in;
  for (const HostTensor &t : inputs)
    in.push_back(&t);
  if (!kernel->run(in, outputs, error))
    return -1;
  double best = 1e30;
  for (int r = 0; r < options.reps; ++r) {
    auto t0 = Clock::now();
    if (!kernel->run(in, outputs, error))
      return -1;
    best = std::min(best, std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  return best;
}

} // namespace

bool tuneModule(mlir::ModuleOp module, const TuneOptions &options, std::vector<TuneReport> &reports,
                std::string &error) {
  // Candidate errors (a schedule Halide rejects) are expected; keep them off the terminal.
  mlir::ScopedDiagnosticHandler quiet(module.getContext(), [](mlir::Diagnostic &) {
    return mlir::success();
  });
  for (auto fn : module.getOps<mlir::func::FuncOp>()) {
    if (fn.isPrivate() || fn.isExternal())
      continue;
    std::string name = fn.getSymName().str();
    std::vector<std::vector<int64_t>> shapes;
    for (mlir::Type t : fn.getArgumentTypes()) {
      auto tensor = mlir::cast<mlir::RankedTensorType>(t);
      if (!tensor.hasStaticShape()) {
        error = "@" + name + " has dynamic sizes; tuning needs static shapes (tensor.cast the "
                             "arguments or write the sizes you will run)";
        return false;
      }
      shapes.emplace_back(tensor.getShape().begin(), tensor.getShape().end());
    }
    mlir::FailureOr<kernel::ModuleSpec> spec = extractKernels(module, name);
    if (failed(spec)) {
      error = "@" + name + " cannot be lowered";
      return false;
    }
    std::vector<HostTensor> inputs = randomInputs(spec->functions.front(), shapes, 1);

    auto start = Clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
    fn.walk([&](AttentionOp op) {
      ScheduleAttr heuristic = op.getScheduleAttr();
      if (!heuristic || heuristic.getScheduler() != "hand")
        return;
      TuneReport report;
      report.function = "@" + name;
      report.op = "attn.attention";
      report.heuristic = text(heuristic);
      int lanes = heuristic.getVector() > 0 ? static_cast<int>(heuristic.getVector()) : 16;
      Point best = pointOf(heuristic);
      std::map<std::string, double> seen;
      // A candidate's identity is its schedule's text (every tunable field is in it).
      auto key = [&](const Point &p) { return text(p.attr(heuristic)); };
      // Every candidate's results are compared with the heuristic schedule's (the first measured):
      // a schedule that Halide compiles into a wrong kernel must not win by doing less work (one
      // did: a decode schedule whose first tile read its scores uninitialized ran 3x faster).
      std::vector<HostTensor> expected, outputs;
      auto evaluate = [&](const Point &p) {
        auto it = seen.find(key(p));
        if (it != seen.end())
          return it->second;
        op.setScheduleAttr(p.attr(heuristic));
        double ms = measure(module, name, options, inputs, outputs);
        bool wrong = false;
        if (ms >= 0 && expected.empty())
          expected = std::move(outputs);
        else if (ms >= 0 && !resultsAgree(outputs, expected))
          wrong = true;
        if (wrong) {
          ms = -1;
          ++report.wrongResults;
        }
        seen[key(p)] = ms;
        ++report.candidates;
        if (options.progress) {
          std::string line;
          llvm::raw_string_ostream os(line);
          os << llvm::format("[%5.1fs] ", elapsed()) << report.function << " " << text(p.attr(heuristic))
             << ": "
             << (wrong    ? std::string("rejected: its results differ from the heuristic schedule's")
                 : ms < 0 ? std::string("rejected")
                          : llvm::formatv("{0:F3} ms", ms).str());
          options.progress(line);
        }
        return ms;
      };
      double bestMs = evaluate(best);
      report.heuristicMs = bestMs;
      if (bestMs < 0) {
        op.setScheduleAttr(heuristic);
        return;
      }
      bool decode = best.tileQ < lanes;
      std::vector<Axis> axes;
      if (!decode)
        axes.push_back({"tile_q", [](Point &p) -> int64_t & { return p.tileQ; },
                        {lanes, 2 * lanes, 3 * lanes, 4 * lanes, 8 * lanes, 16 * lanes}});
      axes.push_back({"block_k", [](Point &p) -> int64_t & { return p.blockK; },
                      {128, 256, 512, 1024, 2048}});
      if (!decode) {
        axes.push_back({"reg_k", [](Point &p) -> int64_t & { return p.regK; }, {6, 8, 10, 12, 14}});
        axes.push_back({"reg_q", [](Point &p) -> int64_t & { return p.regQ; }, {2, 4, 6, 8}});
        axes.push_back({"reg_v", [](Point &p) -> int64_t & { return p.regV; }, {1, 2, 4}});
      }
      axes.push_back({"chunk_k", [](Point &p) -> int64_t & { return p.chunkK; }, {64, 128, 256, 512}});
      axes.push_back({"split_k", [](Point &p) -> int64_t & { return p.splitK; }, {0, 1}});
      if (!decode)
        axes.push_back({"group_q", [](Point &p) -> int64_t & { return p.groupQ; }, {0, 4, 8}});
      // Coordinate descent: vary one parameter at a time, keep what is faster by more than 1%.
      bool improved = true;
      while (improved && elapsed() < options.budgetSeconds) {
        improved = false;
        for (Axis &axis : axes) {
          for (int64_t v : axis.values) {
            if (elapsed() >= options.budgetSeconds)
              break;
            Point p = best;
            if (axis.field(p) == v)
              continue;
            axis.field(p) = v;
            // Tiles of whole row vectors. (A P.V row block that does not divide the tile gets a
            // guarded last block: AVX2's 6 rows in a tile of 16.)
            if (!decode && (p.tileQ % lanes != 0 || p.regQ > p.tileQ))
              continue;
            double ms = evaluate(p);
            if (ms > 0 && ms < bestMs * 0.99) {
              best = p;
              bestMs = ms;
              improved = true;
            }
          }
        }
        for (const char *par : {"heads", "tiles"}) {
          if (elapsed() >= options.budgetSeconds || best.parallel == par)
            continue;
          Point p = best;
          p.parallel = par;
          double ms = evaluate(p);
          if (ms > 0 && ms < bestMs * 0.99) {
            best = p;
            bestMs = ms;
            improved = true;
          }
        }
      }
      op.setScheduleAttr(best.attr(heuristic));
      report.best = text(best.attr(heuristic));
      report.bestMs = bestMs;
      report.seconds = elapsed();
      reports.push_back(report);
    });
  }
  return true;
}

} // namespace attn::tools
