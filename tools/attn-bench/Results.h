//===- Results.h - attn-bench's rows, derived metrics and outputs -*- C++ -*-===//
//
// One place for what a measurement row holds and what is derived from it (GFLOP/s, % of the
// measured peak, the ratio to the best baseline, GB/s, tanh/s), and for the three forms the results
// take: the table on stdout, the JSON document and the CSV file. The JSON is rewritten after every
// measurement (`complete` says whether the run has finished), which is what the live report reads.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_TOOLS_ATTN_BENCH_RESULTS_H
#define ATTN_TOOLS_ATTN_BENCH_RESULTS_H

#include "BenchShapes.h"
#include "attn/Support/Percentile.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>
#include <vector>

namespace attn::bench {

/// The schemes attn-bench knows, in the order they are measured.
const std::vector<std::string> &allSchemes();
/// Library baselines (the denominator of "x best").
bool isBaseline(const std::string &scheme);

using attn::percentileOf; // (attn/Support/Percentile.h)

struct Row {
  BenchShape shape;
  std::string scheme;
  int threads = 1;
  bool measured = false; // false while the run has not reached this row
  bool ok = false;
  std::string error, schedule;
  /// attn-tuned: what the tuner's side-by-side check of its pick found (Tuner.h), "" when the
  /// descent found nothing faster than the heuristic.
  std::string tuning;
  std::vector<double> ms;
  double rssMb = 0;
  /// The process's CPU time over the wall time of the timed runs (0: not measured: numpy, or runs
  /// under 20 ms together).
  double cpusUsed = 0;
  /// The first call's result against the double-precision reference (SpotCheck.h): its max error
  /// over the largest magnitude (numpy's: its script's own check); -1 before it is measured.
  double checkError = -1;

  double percentile(double p) const;
  /// Fewer CPUs were busy than the row's threads, by more than a quarter: something else held a CPU
  /// (another process, a vCPU the guest saw idle), or the kernel had too little parallel work. (A
  /// host that slows the CPUs under running threads does not show: those rows read ~T.)
  bool threadsIdle() const { return threads > 1 && cpusUsed > 0 && cpusUsed < 0.75 * threads; }
  double median() const { return percentile(0.5); }
};

/// A pair's baselineA when side A is the machine's FMA probe, measured in the same rounds as the
/// fused kernel on side B ("peak/fused": A/B is the kernel's fraction of that peak).
inline constexpr const char *kPeakSide = "peak";
/// Each side's window in a round of the probe's pair: the probe runs that long, then the kernel is
/// called as many times as fill it (after one untimed call) and its time is their median.
inline constexpr double kProbeWindowSeconds = 0.1;

/// Two kernels timed alternately in one worker (Worker.h, scheme "pair"): the targets that are
/// ratios (the heuristic's schedule against the tuner's, the unmasked kernel against the causal
/// one, the best library baseline against the fused kernel, the fused kernel's fraction of the FMA
/// peak) measured call by call, side by side, instead of from two rows measured minutes apart on a
/// machine whose speed drifts by more than the 5-15% being judged.
struct Pair {
  /// A's name / B's: "heuristic/tuned", "unmasked/causal", "<baseline>/fused" (e.g.
  /// "onednn/fused": A/B is the fused kernel's speedup over the baseline, the rows' "x best"), or
  /// "peak/fused" (A/B is the fused kernel's fraction of the FMA peak measured beside it).
  std::string comparison;
  BenchShape a, b;
  std::string scheduleA, scheduleB; // empty: the heuristic's
  std::string baselineA;            // side A is this library baseline (of shape a) or kPeakSide
  double roundMs = 0;               // A's and B's row medians together: bounds the rounds
  int rounds = 0;                   // the rounds it was measured with
  int threads = 1;
  bool measured = false, ok = false;
  std::string error;
  std::vector<double> msA, msB; // one of each per round

  /// "S512", or "S2048 / S2048-causal" when the shapes differ.
  std::string shapes() const { return a.name == b.name ? a.name : a.name + " / " + b.name; }
  /// Each round's A ms / B ms.
  std::vector<double> ratios() const;
  double ratio(double p = 0.5) const { return percentileOf(ratios(), p); }
};

/// The pairs a run measures after its rows: heuristic/tuned for every row of attn-tuned that
/// succeeded (its schedule is the tuner's pick), unmasked/causal for every causal shape with a row
/// of attn-fused whose unmasked twin (same sizes, no mask) is in `shapes`, and for every row of
/// attn-fused the fastest library baseline row (OpenBLAS or oneDNN) of its shape and thread count
/// against it, and the FMA probe against every unmasked prefill or score-kind row of attn-fused
/// (where % of peak is a target). Each pair's roundMs is its two rows' medians (when both rows are
/// there; a probe's round is two windows of kProbeWindowSeconds, or of one call where a call takes
/// longer, and one more call).
std::vector<Pair> targetPairs(const std::vector<Row> &rows, const std::vector<BenchShape> &shapes);

/// What the run was: written into the JSON.
struct RunInfo {
  std::string command, date, target;
  int64_t l2Bytes = 0; // the host's per-core L2, which the schedule heuristics read (0: not known)
  std::map<int, double> peakGflops;     // threads -> GFLOP/s
  std::map<int, std::vector<int>> cpus; // threads -> the CPUs its measurements ran on (Cpus.h)
  int reps = 0;
  int pairRounds = 0; // rounds of each Pair
  double seconds = 0;
  bool complete = false;
  llvm::json::Object pipeline; // Pipeline.h, for the report (empty without --report)
};

class Results {
public:
  Results(std::vector<Row> rows, RunInfo info) : rows(std::move(rows)), info(std::move(info)) {}
  std::vector<Row> rows;
  std::vector<Pair> pairs; // measured after the rows
  RunInfo info;

  llvm::json::Value json() const;
  std::string csv() const;
  void printTable(llvm::raw_ostream &os) const;

private:
  struct Derived {
    double median = 0, gflops = 0, pctPeak = 0, ratio = 0, gbps = 0, gtanh = 0;
  };
  Derived derive(const Row &r) const;
};

} // namespace attn::bench

#endif // ATTN_TOOLS_ATTN_BENCH_RESULTS_H
