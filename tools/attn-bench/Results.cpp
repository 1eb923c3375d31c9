//===- Results.cpp - attn-bench's rows, derived metrics and outputs -------===//

#include "Results.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace attn::bench;

const std::vector<std::string> &attn::bench::allSchemes() {
  static const std::vector<std::string> schemes = {"attn-fused",
                                                   "attn-tuned",
                                                   "attn-unfused",
                                                   "halide-adams2019",
                                                   "halide-mullapudi2016",
                                                   "halide-li2018",
                                                   "openblas",
                                                   "onednn",
                                                   "numpy"};
  return schemes;
}

bool attn::bench::isBaseline(const std::string &scheme) {
  return scheme == "openblas" || scheme == "onednn" || scheme == "numpy";
}

double Row::percentile(double p) const { return percentileOf(ms, p); }

std::vector<double> Pair::ratios() const {
  std::vector<double> r;
  for (size_t i = 0; i < std::min(msA.size(), msB.size()); ++i)
    r.push_back(msA[i] / msB[i]);
  return r;
}

/// The row of the fastest baseline (OpenBLAS, oneDNN, numpy) measured at a shape and thread count,
/// or null: the denominator of "x best", and side A of a baseline's pair.
static const Row *fastestBaseline(const std::vector<Row> &rows, const std::string &shape,
                                  int threads) {
  const Row *best = nullptr;
  for (const Row &b : rows)
    if (b.ok && isBaseline(b.scheme) && b.shape.name == shape && b.threads == threads &&
        (!best || b.median() < best->median()))
      best = &b;
  return best;
}

std::vector<Pair> attn::bench::targetPairs(const std::vector<Row> &rows,
                                           const std::vector<BenchShape> &shapes) {
  // The successful attn-fused row of a shape and thread count.
  auto fusedRow = [&](const BenchShape &s, int threads) -> const Row * {
    for (const Row &r : rows)
      if (r.ok && r.scheme == "attn-fused" && r.shape.name == s.name && r.threads == threads)
        return &r;
    return nullptr;
  };
  std::vector<Pair> pairs, baselinePairs, peakPairs;
  for (const Row &r : rows) {
    if (!r.ok)
      continue;
    Pair p;
    p.threads = r.threads;
    if (r.scheme == "attn-tuned") {
      p.comparison = "heuristic/tuned";
      p.a = p.b = r.shape;
      p.scheduleB = r.schedule;
      if (const Row *f = fusedRow(r.shape, r.threads))
        p.roundMs = f->median() + r.median();
      pairs.push_back(p);
      continue;
    }
    if (r.scheme != "attn-fused")
      continue;
    // The fastest baseline, when it is a library (numpy's additive form runs in Python: it is not
    // paired; the libraries do not compute additive attention).
    const Row *best = fastestBaseline(rows, r.shape.name, r.threads);
    if (best && best->scheme != "numpy") {
      Pair b = p;
      b.comparison = best->scheme + "/fused";
      b.a = b.b = r.shape;
      b.baselineA = best->scheme;
      b.roundMs = best->median() + r.median();
      baselinePairs.push_back(b);
    }
    // The FMA probe beside the kernel where % of peak is a target: unmasked prefill (a causal
    // row's flops count the pairs it skips) and the other score kinds.
    if ((r.shape.group == "prefill" || r.shape.group == "kinds") && !r.shape.causal) {
      Pair f = p;
      f.comparison = std::string(kPeakSide) + "/fused";
      f.a = f.b = r.shape;
      f.baselineA = kPeakSide;
      f.roundMs = 2 * std::max(kProbeWindowSeconds * 1e3, r.median()) + r.median();
      peakPairs.push_back(f);
    }
    if (!r.shape.causal)
      continue;
    for (const BenchShape &u : shapes) {
      const BenchShape &c = r.shape;
      if (u.causal || u.kind != c.kind || u.B != c.B || u.H != c.H || u.Hkv != c.Hkv ||
          u.Tq != c.Tq || u.Tk != c.Tk || u.D != c.D)
        continue;
      p.comparison = "unmasked/causal";
      p.a = u;
      p.b = c;
      if (const Row *unmasked = fusedRow(u, r.threads))
        p.roundMs = unmasked->median() + r.median();
      pairs.push_back(p);
      break;
    }
  }
  pairs.insert(pairs.end(), baselinePairs.begin(), baselinePairs.end());
  pairs.insert(pairs.end(), peakPairs.begin(), peakPairs.end());
  return pairs;
}

Results::Derived Results::derive(const Row &r) const {
  Derived d;
  if (!r.ok)
    return d;
  d.median = r.median();
  double secs = d.median / 1e3;
  const std::string &group = r.shape.group;
  d.gflops = r.shape.countedInFlops() ? r.shape.flops() / secs / 1e9 : 0;
  auto peak = info.peakGflops.find(r.threads);
  d.pctPeak = d.gflops > 0 && peak != info.peakGflops.end() ? 100 * d.gflops / peak->second : 0;
  const Row *best = fastestBaseline(rows, r.shape.name, r.threads);
  d.ratio = best ? best->median() / d.median : 0;
  d.gbps = group == "decode" ? r.shape.bytes() / secs / 1e9 : 0;
  d.gtanh = group == "additive" ? r.shape.tanhs() / secs / 1e9 : 0;
  return d;
}

llvm::json::Value Results::json() const {
  llvm::json::Array jsonRows;
  for (const Row &r : rows) {
    llvm::json::Object o{{"shape", r.shape.name},
                         {"describe", r.shape.describe()},
                         {"group", r.shape.group},
                         {"kind", r.shape.kind},
                         {"scheme", r.scheme},
                         {"threads", r.threads},
                         {"measured", r.measured},
                         {"ok", r.ok},
                         {"error", r.error},
                         {"B", r.shape.B},
                         {"H", r.shape.H},
                         {"Hkv", r.shape.Hkv},
                         {"Tq", r.shape.Tq},
                         {"Tk", r.shape.Tk},
                         {"D", r.shape.D},
                         {"Da", r.shape.Da},
                         {"causal", r.shape.causal},
                         {"schedule", r.schedule},
                         {"data_mb", r.shape.bytes() / (1 << 20)}};
    if (r.ok) {
      Derived d = derive(r);
      o["ms"] = llvm::json::Array(r.ms);
      o["median_ms"] = d.median;
      o["min_ms"] = r.percentile(0);
      o["max_ms"] = r.percentile(1);
      o["p25_ms"] = r.percentile(0.25);
      o["p75_ms"] = r.percentile(0.75);
      o["gflops"] = d.gflops;
      o["pct_peak"] = d.pctPeak;
      o["ratio_to_best_baseline"] = d.ratio;
      o["gbps"] = d.gbps;
      o["gtanh_per_s"] = d.gtanh;
      o["rss_mb"] = r.rssMb;
      o["cpus_used"] = r.cpusUsed;
      if (r.checkError >= 0)
        o["check_error"] = r.checkError;
      if (r.scheme == "attn-tuned")
        o["tuning"] = r.tuning;
    }
    jsonRows.push_back(std::move(o));
  }
  llvm::json::Object peaks, cpus;
  for (auto &[t, g] : info.peakGflops)
    peaks[std::to_string(t)] = g;
  for (auto &[t, list] : info.cpus)
    cpus[std::to_string(t)] = llvm::json::Array(list);
  llvm::json::Array jsonPairs;
  for (const Pair &p : pairs) {
    llvm::json::Object o{{"comparison", p.comparison},
                         {"shape_a", p.a.name},
                         {"shape_b", p.b.name},
                         {"threads", p.threads},
                         {"schedule_a", p.scheduleA},
                         {"schedule_b", p.scheduleB},
                         {"baseline_a", p.baselineA},
                         {"rounds", p.rounds},
                         {"measured", p.measured},
                         {"ok", p.ok},
                         {"error", p.error}};
    if (p.ok) {
      o["ms_a"] = llvm::json::Array(p.msA);
      o["ms_b"] = llvm::json::Array(p.msB);
      o["median_ms_a"] = percentileOf(p.msA, 0.5);
      o["median_ms_b"] = percentileOf(p.msB, 0.5);
      o["ratio_median"] = p.ratio(0.5);
      o["ratio_min"] = p.ratio(0);
      o["ratio_max"] = p.ratio(1);
    }
    jsonPairs.push_back(std::move(o));
  }
  return llvm::json::Object{
      {"tool", "attn-bench"},           {"date", info.date},
      {"command", info.command},        {"target", info.target},
      {"l2_bytes", info.l2Bytes},       {"peak_gflops", std::move(peaks)},
      {"cpus", std::move(cpus)},        {"reps", info.reps},
      {"pair_rounds", info.pairRounds}, {"seconds", info.seconds},
      {"complete", info.complete},      {"pipeline", llvm::json::Object(info.pipeline)},
      {"rows", std::move(jsonRows)},    {"pairs", std::move(jsonPairs)}};
}

std::string Results::csv() const {
  std::string csv =
      "shape,describe,group,kind,scheme,threads,median_ms,min_ms,max_ms,p25_ms,p75_ms,"
      "gflops,pct_peak,ratio_to_best_baseline,gbps,gtanh_per_s,rss_mb,check_error,error\n";
  for (const Row &r : rows) {
    if (!r.measured)
      continue;
    Derived d = derive(r);
    csv +=
        llvm::formatv("{0},\"{1}\",{2},{3},{4},{5},{6:F6},{7:F6},{8:F6},{9:F6},{10:F6},{11:F3},"
                      "{12:F3},{13:F4},{14:F3},{15:F4},{16:F1},{17},\"{18}\"\n",
                      r.shape.name, r.shape.describe(), r.shape.group, r.shape.kind, r.scheme,
                      r.threads, d.median, r.percentile(0), r.percentile(1), r.percentile(0.25),
                      r.percentile(0.75), d.gflops, d.pctPeak, d.ratio, d.gbps, d.gtanh, r.rssMb,
                      r.checkError >= 0 ? llvm::formatv("{0:E2}", r.checkError).str() : "", r.error)
            .str();
  }
  return csv;
}

static std::string fmt(double v, const char *f) { return v > 0 ? llvm::formatv(f, v).str() : ""; }

void Results::printTable(llvm::raw_ostream &os) const {
  const char *layout = "{0,-16} {1,-21} {2,2} {3,10} {4,21} {5,8} {6,7} {7,7} {8,7} {9,8} {10,8}";
  os << llvm::formatv(layout, "shape", "scheme", "T", "median ms", "spread (min-max)", "GFLOP/s",
                      "% peak", "x best", "GB/s", "Gtanh/s", "RSS MB")
     << "\n";
  for (const Row &r : rows) {
    Derived d = derive(r);
    std::string spread =
        r.ok ? llvm::formatv("{0:F3}-{1:F3}", r.percentile(0), r.percentile(1)).str() : "";
    os << llvm::formatv(layout, r.shape.name, r.scheme, r.threads,
                        r.ok ? fmt(d.median, "{0:F3}") : "-", spread, fmt(d.gflops, "{0:F1}"),
                        fmt(d.pctPeak, "{0:F1}"), fmt(d.ratio, "{0:F2}"), fmt(d.gbps, "{0:F1}"),
                        fmt(d.gtanh, "{0:F2}"), fmt(r.rssMb, "{0:F0}"));
    if (!r.ok)
      os << "  (" << (r.measured ? r.error : "not measured") << ")";
    os << "\n";
  }
  bool idleNoted = false;
  for (const Row &r : rows) {
    if (!r.ok || !r.threadsIdle())
      continue;
    if (!idleNoted)
      os << "\nRows whose threads were not all busy (CPU time over wall time below 3/4 of T: "
            "something "
            "else held a CPU, or the work did not spread; measure them again):\n";
    idleNoted = true;
    os << llvm::formatv("  {0} {1} {2}T: {3:F2} CPUs\n", r.shape.name, r.scheme, r.threads,
                        r.cpusUsed);
  }
  if (pairs.empty())
    return;
  os << "\nSide by side: A and B called alternately in one process, " << info.pairRounds
     << " rounds (fewer where that would take over a minute); A/B is the median of the rounds' "
        "ratios; peak/fused: A is the FMA probe, B the median of the calls that fill as long a "
        "window after it, A's ms the time at its rate for B's flops: A/B is B's fraction of "
        "that peak\n";
  const char *pairLayout = "{0,-16} {1,-21} {2,2} {3,10} {4,10} {5,7} {6,21} {7,6}";
  os << llvm::formatv(pairLayout, "A/B", "shape", "T", "A ms", "B ms", "A/B", "spread (min-max)",
                      "rounds")
     << "\n";
  for (const Pair &p : pairs) {
    if (!p.ok) {
      os << llvm::formatv(pairLayout, p.comparison, p.shapes(), p.threads, "-", "", "", "", "")
         << "  (" << (p.measured ? p.error : "not measured") << ")\n";
      continue;
    }
    os << llvm::formatv(pairLayout, p.comparison, p.shapes(), p.threads,
                        fmt(percentileOf(p.msA, 0.5), "{0:F3}"),
                        fmt(percentileOf(p.msB, 0.5), "{0:F3}"), fmt(p.ratio(), "{0:F3}"),
                        llvm::formatv("{0:F3}-{1:F3}", p.ratio(0), p.ratio(1)).str(), p.rounds)
       << "\n";
  }
}
