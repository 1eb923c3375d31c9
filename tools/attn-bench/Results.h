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

struct Row {
  BenchShape shape;
  std::string scheme;
  int threads = 1;
  bool measured = false; // false while the run has not reached this row
  bool ok = false;
  std::string error, schedule;
  std::vector<double> ms;
  double rssMb = 0;

  double percentile(double p) const;
  double median() const { return percentile(0.5); }
};

/// What the run was: written into the JSON.
struct RunInfo {
  std::string command, date, target;
  std::map<int, double> peakGflops; // threads -> GFLOP/s
  std::map<int, std::vector<int>> cpus; // threads -> the CPUs its measurements ran on (Cpus.h)
  int reps = 0;
  double seconds = 0;
  bool complete = false;
  llvm::json::Object pipeline; // Pipeline.h, for the report (empty without --report)
};

class Results {
public:
  Results(std::vector<Row> rows, RunInfo info) : rows(std::move(rows)), info(std::move(info)) {}
  std::vector<Row> rows;
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
