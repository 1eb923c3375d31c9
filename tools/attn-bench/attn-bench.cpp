//===- attn-bench.cpp - attention schemes against the best libraries ------===//
//
// attn-bench [--quick] [--threads=1,2] [--reps=N] [--shapes=...] [--schemes=...] [--tune-budget=S]
//            [--json=FILE] [--csv=FILE]
//
// Measures, in one run and side by side: the attn kernels (fused with the heuristic schedule, fused
// with the autotuner's, unfused as written, under Halide's autoschedulers), OpenBLAS and oneDNN
// attention, numpy for additive attention, and the machine's FMA peak. Each row: the median and
// spread of repeated runs after a warm-up, GFLOP/s, % of the measured peak, the ratio to the best
// library baseline of the same shape and thread count, GB/s (decode), tanh/s (additive), and the
// peak resident memory during the runs. Each measurement runs in its own process (Worker.h).
// Then the targets that are ratios (the heuristic's schedule against the tuner's, the unmasked
// kernel against the causal one, the best library against the fused kernel, the fused kernel
// against the FMA peak) are timed again as pairs: both sides in one process, called alternately
// (Results.h, Pair).
//
//===----------------------------------------------------------------------===//

#include "Baselines.h"
#include "BenchShapes.h"
#include "Cpus.h"
#include "Pipeline.h"
#include "Python.h"
#include "Results.h"
#include "ToolSupport.h"
#include "Worker.h"

#include "attn/CodeGen/Halide/Target.h"
#include "attn/Runtime/AtomicFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <map>
#include <optional>
#include <unistd.h>

namespace cl = llvm::cl;
using namespace attn;
using namespace attn::bench;

static cl::OptionCategory category("attn-bench options");
static cl::opt<bool> quick("quick",
                           cl::desc("A small set of shapes (S = 64 and the like) on one thread, "
                                    "tuning 2 s per shape: the tool tried in a few minutes"),
                           cl::cat(category));
static cl::opt<int> reps("reps",
                         cl::desc("Timed runs per measurement, after a warm-up (default 7)"),
                         cl::init(7), cl::cat(category));
static cl::list<std::string> shapeFilter("shapes", cl::CommaSeparated,
                                         cl::desc("Only these shapes (names as in the table)"),
                                         cl::cat(category));
static cl::list<std::string> schemeFilter(
    "schemes", cl::CommaSeparated,
    cl::desc("Only these schemes: attn-fused, attn-tuned, attn-unfused, halide-adams2019, "
             "halide-mullapudi2016, halide-li2018, openblas, onednn, numpy"),
    cl::cat(category));
static cl::opt<double> tuneBudget("tune-budget",
                                  cl::desc("Seconds of autotuning per shape and thread count for "
                                           "attn-tuned (default 20, 2 with --quick; 0 skips it)"),
                                  cl::init(20), cl::cat(category));
static cl::opt<bool> pairsFlag(
    "pairs",
    cl::desc("After the rows, time the ratio targets side by side: heuristic/tuned, "
             "unmasked/causal, the best library baseline against the fused kernel, and the FMA "
             "probe against the fused kernel (its fraction of the peak), both sides in one "
             "process, called alternately for twice --reps rounds (fewer, at least 4, where that "
             "would take over a minute) (default true)"),
    cl::init(true), cl::cat(category));
constexpr double kQuickTuneBudgetSeconds = 2;
constexpr int kMaxTimeoutSeconds = 7 * 24 * 3600;
static cl::opt<double> timeoutSeconds("timeout",
                                      cl::desc("Seconds a measurement may take (default "
                                               "900)"),
                                      cl::init(900), cl::cat(category));
static cl::opt<std::string> targetFlag(
    "target",
    cl::desc("Halide target of the attn schemes (default: host; e.g. host-opencl, "
             "host-cuda-cuda_capability_80). The library baselines always run on the CPU; GPU "
             "timings here include copying the inputs to the device and the result back"),
    cl::value_desc("target"), cl::cat(category));
static cl::opt<std::string> jsonFile("json", cl::desc("Write the results as JSON"),
                                     cl::value_desc("file"), cl::cat(category));
static cl::opt<std::string> csvFile("csv", cl::desc("Write the results as CSV"),
                                    cl::value_desc("file"), cl::cat(category));
static cl::opt<std::string> reportFile(
    "report",
    cl::desc("Write a self-contained HTML report (charts, the comparison table, one kernel's "
             "pipeline) and keep it current while the benchmark runs"),
    cl::value_desc("file.html"), cl::cat(category));
static cl::opt<std::string> reportSnapshots("report-snapshots", cl::Hidden,
                                            cl::desc("Keep a copy of every rewrite of the report "
                                                     "in this directory (for tests)"),
                                            cl::cat(category));
static cl::opt<std::string> writeGraphs(
    "write-graphs",
    cl::desc("Write the GPU measurement's graphs (bench/gpu/run.sh) into this directory: one "
             "fused-attention function per shape (NAME.mlir) and shapes.json; then exit"),
    cl::value_desc("dir"), cl::cat(category));
// The worker side (attn-bench runs itself once per measurement).
static cl::opt<bool> worker("worker", cl::Hidden, cl::cat(category));
static cl::opt<std::string> wShape("w-shape", cl::Hidden, cl::cat(category));
static cl::opt<std::string> wScheme("w-scheme", cl::Hidden, cl::cat(category));
static cl::opt<int> wThreads("w-threads", cl::Hidden, cl::init(1), cl::cat(category));
static cl::opt<std::string> wSchedule("w-schedule", cl::Hidden, cl::cat(category));
static cl::opt<std::string> wShapeB("w-shape-b", cl::Hidden, cl::cat(category));
static cl::opt<std::string> wScheduleB("w-schedule-b", cl::Hidden, cl::cat(category));
static cl::opt<std::string> wBaselineA("w-baseline-a", cl::Hidden, cl::cat(category));
static cl::list<int> wCpus("w-cpus", cl::Hidden, cl::CommaSeparated, cl::cat(category));
// For the tests of the result check: the worker changes one entry of the first call's result.
static cl::opt<bool> wPerturb("w-perturb-result", cl::Hidden, cl::cat(category));

namespace {

/// The schemes measured for a shape.
std::vector<std::string> schemesFor(const BenchShape &s) {
  std::vector<std::string> schemes = {"attn-fused"};
  bool small = s.Tq * s.Tk <= 1024 * 1024;
  if (s.group == "additive") // (no library has an additive scorer: numpy is the baseline)
    return {"attn-fused", "attn-tuned", "attn-unfused", "numpy"};
  if (s.group == "kinds")
    return {"attn-fused", "attn-unfused"};
  if (s.Tk <= 4096)
    schemes.push_back("attn-tuned");
  // The unfused [Tq, Tk] scores: 8.6 GB at S = 16384. (And attn.score takes one key head per query
  // head: GQA has no unfused form.)
  if (s.Tq * s.Tk <= 4096 * 4096 && s.H == s.Hkv)
    schemes.push_back("attn-unfused");
  // (The autoschedulers get the unfused chain too, so not GQA either: their rows said "does not
  // compile".)
  if (small && !s.causal && s.H == s.Hkv)
    for (const char *a : {"halide-adams2019", "halide-mullapudi2016", "halide-li2018"})
      schemes.push_back(a);
  schemes.push_back("openblas");
  schemes.push_back("onednn");
  return schemes;
}

/// Runs `attn-bench --worker ...` with the thread counts in its environment; parses its JSON line.
llvm::json::Object spawnWorker(const std::string &self, const WorkerJob &job) {
  std::vector<std::string> args = {self,
                                   "--worker",
                                   "--w-shape=" + job.shape,
                                   "--w-scheme=" + job.scheme,
                                   "--w-threads=" + std::to_string(job.threads),
                                   "--reps=" + std::to_string(job.reps),
                                   "--tune-budget=" + std::to_string(job.tuneBudget)};
  if (!job.schedule.empty())
    args.push_back("--w-schedule=" + job.schedule);
  if (!job.shapeB.empty())
    args.push_back("--w-shape-b=" + job.shapeB);
  if (!job.scheduleB.empty())
    args.push_back("--w-schedule-b=" + job.scheduleB);
  if (!job.baselineA.empty())
    args.push_back("--w-baseline-a=" + job.baselineA);
  if (job.quick)
    args.push_back("--quick");
  if (!job.cpus.empty())
    args.push_back("--w-cpus=" + cpuList(job.cpus));
  if (!job.target.empty())
    args.push_back("--target=" + job.target);
  std::vector<std::string> env;
  for (char **e = environ; *e; ++e) {
    std::string var = *e;
    for (const char *drop :
         {"HL_NUM_THREADS=", "OMP_NUM_THREADS=", "OPENBLAS_NUM_THREADS=", "OPENBLAS_CORETYPE="})
      if (var.rfind(drop, 0) == 0)
        var.clear();
    if (!var.empty())
      env.push_back(var);
  }
  std::string n = std::to_string(job.threads);
  env.push_back("HL_NUM_THREADS=" + n);
  env.push_back("OMP_NUM_THREADS=" + n);
  env.push_back("OPENBLAS_NUM_THREADS=1"); // the OpenBLAS baseline runs a head per thread itself
  if (__builtin_cpu_supports("avx512f"))
    env.push_back("OPENBLAS_CORETYPE=SkylakeX"); // never an inherited Haswell (docs/TOOLCHAIN.md)

  llvm::SmallString<128> out;
  llvm::sys::fs::createTemporaryFile("attn-bench", "json", out);
  std::vector<llvm::StringRef> argRefs(args.begin(), args.end()), envRefs(env.begin(), env.end());
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(out), std::nullopt};
  std::string error;
  int rc = llvm::sys::ExecuteAndWait(self, argRefs, envRefs, redirects,
                                     static_cast<unsigned>(timeoutSeconds), 0, &error);
  auto buffer = llvm::MemoryBuffer::getFile(out);
  llvm::sys::fs::remove(out);
  if (rc != 0 || !buffer)
    return llvm::json::Object{
        {"ok", false},
        {"error", rc == -2 ? "timed out after " + std::to_string(int(timeoutSeconds)) + " s"
                           : "the worker failed (exit " + std::to_string(rc) + ") " + error}};
  llvm::Expected<llvm::json::Value> v = llvm::json::parse((*buffer)->getBuffer().trim());
  if (!v || !v->getAsObject()) {
    if (!v)
      llvm::consumeError(v.takeError());
    return llvm::json::Object{{"ok", false}, {"error", "the worker printed no result"}};
  }
  return std::move(*v->getAsObject());
}

/// A job with what every job of this run shares (the flags), on `cpus` with `threads` threads.
WorkerJob runJob(const std::string &scheme, const std::vector<int> &cpus, int threads) {
  WorkerJob job;
  job.scheme = scheme;
  job.cpus = cpus;
  job.threads = threads;
  job.reps = reps;
  job.quick = quick;
  job.tuneBudget = tuneBudget;
  job.target = targetFlag;
  return job;
}

/// A worker result's array of numbers (its timings) appended to `out`.
void appendNumbers(const llvm::json::Object &result, llvm::StringRef key,
                   std::vector<double> &out) {
  if (const llvm::json::Array *a = result.getArray(key))
    for (const llvm::json::Value &v : *a)
      out.push_back(v.getAsNumber().value_or(0));
}

/// Runs `job` in a worker process: its result when the worker reports success, else nothing and
/// the worker's error in `error`.
std::optional<llvm::json::Object> runSucceeded(const std::string &self, const WorkerJob &job,
                                               std::string &error) {
  llvm::json::Object result = spawnWorker(self, job);
  if (result.getBoolean("ok").value_or(false))
    return result;
  error = result.getString("error").value_or("failed").str();
  return std::nullopt;
}

/// The tuner's pick for a shape and thread count, and what its side-by-side check found.
struct TunedSchedule {
  std::string schedule, tuning;
};

/// Measures one row in a worker process; for attn-tuned, first tunes (once per shape and thread
/// count) in another.
void measure(const std::string &self, Row &r, const std::vector<int> &cpus,
             std::map<std::pair<std::string, int>, TunedSchedule> &tuned, bool tty) {
  WorkerJob job = runJob(r.scheme, cpus, r.threads);
  job.shape = r.shape.name;
  r.measured = true;
  if (r.scheme == "attn-tuned") {
    auto key = std::make_pair(r.shape.name, r.threads);
    if (!tuned.count(key)) {
      if (tty)
        llvm::errs() << " (tuning " << tuneBudget << " s)";
      WorkerJob tune = job;
      tune.scheme = "tune";
      llvm::json::Object t = spawnWorker(self, tune);
      if (t.getBoolean("ok").value_or(false))
        tuned[key] = {t.getString("schedule")->str(), t.getString("tuning").value_or("").str()};
      else
        tuned[key] = {};
    }
    job.schedule = tuned[key].schedule;
    r.tuning = tuned[key].tuning;
    if (job.schedule.empty()) {
      r.error = "tuning failed";
      return;
    }
  }
  std::optional<llvm::json::Object> result = runSucceeded(self, job, r.error);
  r.ok = result.has_value();
  if (!r.ok)
    return;
  appendNumbers(*result, "ms", r.ms);
  r.rssMb = result->getNumber("rss_mb").value_or(0);
  r.cpusUsed = result->getNumber("cpus_used").value_or(0);
  r.checkError = result->getNumber("check_error").value_or(-1);
  r.schedule = job.schedule;
}

/// Times a pair's two kernels alternately in a worker process, for `rounds` rounds or fewer: at
/// least kMinPairRounds, otherwise as many as fit in kPairSeconds by its rows' timings (S = 16384's
/// pair of oneDNN and the fused kernel takes ~22 s a round on one thread here).
constexpr int kMinPairRounds = 4;
constexpr double kPairSeconds = 60;
void measurePair(const std::string &self, Pair &p, const std::vector<int> &cpus, int rounds) {
  WorkerJob job = runJob("pair", cpus, p.threads);
  job.shape = p.a.name;
  job.schedule = p.scheduleA;
  job.shapeB = p.b.name;
  job.scheduleB = p.scheduleB;
  job.baselineA = p.baselineA;
  if (p.roundMs > 0)
    rounds = std::min(rounds,
                      std::max(kMinPairRounds, static_cast<int>(kPairSeconds * 1e3 / p.roundMs)));
  job.reps = p.rounds = rounds;
  p.measured = true;
  std::optional<llvm::json::Object> result = runSucceeded(self, job, p.error);
  p.ok = result.has_value();
  if (!p.ok)
    return;
  appendNumbers(*result, "ms_a", p.msA);
  appendNumbers(*result, "ms_b", p.msB);
}

/// --write-graphs: the GPU measurement's inputs, from the one list of shapes.
int writeGpuGraphs(const std::string &dir) {
  if (std::string err = tools::makeDirectories(dir); !err.empty())
    return tools::fail(err);
  llvm::json::Array list;
  std::string error;
  for (const BenchShape &s : gpuShapes(quick)) {
    std::string text = s.mlir(/*fused=*/true, "");
    // The function is named after the kernel (attn-compile names kernels after functions).
    text.replace(text.find("@bench"), 6, "@" + s.kernelName());
    if (!writeFileAtomically(dir + "/" + s.kernelName() + ".mlir", text, error))
      return tools::fail(error);
    list.push_back(s.json());
  }
  std::string json;
  llvm::raw_string_ostream os(json);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(list))) << "\n";
  if (!writeFileAtomically(dir + "/shapes.json", json, error))
    return tools::fail(error);
  return 0;
}

/// Writes the JSON and CSV files (each whole or not at all), and the report. Called before the
/// first measurement, so an unwritable path fails at once, and after every measurement, so the
/// files follow the run. The report is drawn from the JSON (tools/attn-bench/report.py,
/// matplotlib); it reloads itself until the run is complete.
bool writeOutputs(const Results &results, std::string &error) {
  static int rewrites = 0;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", results.json());
  if (!jsonFile.empty() && !writeFileAtomically(jsonFile, text + "\n", error))
    return false;
  if (!csvFile.empty() && !writeFileAtomically(csvFile, results.csv(), error))
    return false;
  if (reportFile.empty())
    return true;
  std::string source = jsonFile;
  llvm::SmallString<128> tmp;
  if (source.empty()) { // the report reads a JSON file: a private one when --json is not given
    llvm::sys::fs::createTemporaryFile("attn-bench-report", "json", tmp);
    source = std::string(tmp);
    if (!writeFileAtomically(source, text + "\n", error))
      return false;
  }
  std::string out;
  bool ok = tools::runPython(tools::scriptPath("tools/attn-bench/report.py"), {source, reportFile},
                             out, error);
  if (!tmp.empty())
    llvm::sys::fs::remove(tmp);
  if (!ok) {
    error = "writing the report '" + reportFile + "': " + error;
    return false;
  }
  if (!reportSnapshots.empty())
    llvm::sys::fs::copy_file(reportFile, reportSnapshots + "/report-" +
                                             llvm::formatv("{0:d3}", rewrites).str() + ".html");
  ++rewrites;
  return true;
}

/// Why the run's flags cannot be used, or "" (checked before any work).
std::string runFlagsProblem(const std::vector<int> &threadCounts) {
  if (std::string why = tools::secondsProblem("tune-budget", tuneBudget, /*positive=*/false);
      !why.empty())
    return why;
  if (std::string why = tools::secondsProblem("timeout", timeoutSeconds, /*positive=*/true);
      !why.empty())
    return why;
  // Each output writable, and no file named for two outputs.
  std::vector<std::string> written;
  for (const std::string &path :
       {std::string(jsonFile), std::string(csvFile), std::string(reportFile)})
    if (!path.empty())
      written.push_back(path);
  if (std::string why = outputPathsProblem(
          written,
          [](const std::string &later, const std::string &) {
            return "'" + later +
                   "' is given for two outputs (--json, --csv, --report); each needs a file of "
                   "its own";
          });
      !why.empty())
    return why;
  if (timeoutSeconds > kMaxTimeoutSeconds)
    return "--timeout takes at most " + std::to_string(kMaxTimeoutSeconds) +
           " seconds (a week), got " + tools::formatSeconds(timeoutSeconds);
  for (int t : threadCounts)
    if (std::string why = tools::threadCountProblem(t); !why.empty())
      return why;
  return "";
}

/// Why --shapes or --schemes name something this run does not have, or "".
std::string filtersProblem(const std::vector<BenchShape> &shapes) {
  for (const std::string &name : shapeFilter)
    if (llvm::none_of(shapes, [&](const BenchShape &s) { return s.name == name; })) {
      std::string known;
      for (const BenchShape &s : shapes)
        known += (known.empty() ? "" : ", ") + s.name;
      return "--shapes: unknown shape '" + name + "'" + (quick ? " in the --quick set" : "") +
             "; the shapes are " + known;
    }
  for (const std::string &name : schemeFilter)
    if (!llvm::is_contained(allSchemes(), name))
      return "--schemes: unknown scheme '" + name + "'; the schemes are " +
             llvm::join(allSchemes(), ", ");
  return "";
}

/// The rows to measure: every scheme of every shape at every thread count, as filtered.
std::vector<Row> plannedRows(const std::vector<BenchShape> &shapes,
                             const std::vector<int> &threadCounts) {
  std::vector<Row> rows;
  for (const BenchShape &s : shapes) {
    if (!shapeFilter.empty() && !llvm::is_contained(shapeFilter, s.name))
      continue;
    for (int t : threadCounts)
      for (const std::string &scheme : schemesFor(s)) {
        if (!schemeFilter.empty() && !llvm::is_contained(schemeFilter, scheme))
          continue;
        if (scheme == "attn-tuned" && tuneBudget <= 0)
          continue;
        Row r;
        r.shape = s;
        r.scheme = scheme;
        r.threads = t;
        rows.push_back(r);
      }
  }
  return rows;
}

/// What the JSON records of the run: its command, date, target, and with --report the pipeline of
/// the first row's kernel. False with `error` when the report cannot be written.
bool runInfo(int argc, char **argv, const backend::TargetInfo &target, const Row &first,
             RunInfo &info, std::string &error) {
  for (int i = 0; i < argc; ++i)
    info.command += (i ? " " : "") + std::string(argv[i]);
  std::time_t now = std::time(nullptr);
  char date[64];
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&now));
  info.date = date;
  info.target = target.halideTarget;
  info.l2Bytes = target.l2Bytes;
  info.reps = reps;
  info.pairRounds = 2 * reps;
  if (reportFile.empty())
    return true;
  llvm::StringRef ext = llvm::sys::path::extension(reportFile);
  if (ext != ".html" && ext != ".htm") {
    error = "--report='" + reportFile + "': the report is an HTML page (.html)";
    return false;
  }
  if (!checkOutputPath(reportFile, error))
    return false;
  llvm::errs() << "describing the pipeline of " << first.shape.name << "'s kernel\n";
  std::optional<llvm::json::Object> pipeline = describePipeline(first.shape, targetFlag, error);
  if (!pipeline) {
    error = "describing the pipeline: " + error;
    return false;
  }
  info.pipeline = std::move(*pipeline);
  return true;
}

/// The machine's peak, measured now, in this run, on the CPUs the rows of each thread count run
/// on. Where the system does not let us pin, the JSON says so (no CPUs) and the rows run unpinned.
void measurePeaks(const std::vector<int> &threadCounts, RunInfo &info) {
  std::vector<int> allowed = allowedCpus();
  for (int t : threadCounts) {
    std::vector<int> cpus = cpusForThreads(allowed, t);
    if (!pinTo(cpus))
      cpus.clear();
    info.cpus[t] = cpus;
    info.peakGflops[t] = fmaPeakGflops(t, 0.5, cpus);
  }
  pinTo(allowed);
  for (int t : threadCounts)
    llvm::errs() << "FMA peak, " << t << " thread(s): " << llvm::format("%.1f", info.peakGflops[t])
                 << " GFLOP/s\n";
}

/// Says which measurement runs (on a terminal, one line rewritten in place).
void announce(bool tty, const std::string &counter, const std::string &what) {
  if (tty)
    llvm::errs() << "\r\033[K[" << counter << "] " << what;
  else
    llvm::errs() << "[" << counter << "] " << what << "\n";
}

/// Every row, then every pair, each in a worker process; the outputs rewritten after each, with
/// the seconds since the run `started`.
bool measureAll(const std::string &self, const std::vector<BenchShape> &shapes,
                std::chrono::steady_clock::time_point started, Results &results,
                std::string &error) {
  const bool tty = ::isatty(2);
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  };
  std::map<std::pair<std::string, int>, TunedSchedule> tuned; // (shape, threads) -> the tuner's
  std::vector<Row> &all = results.rows;
  for (size_t i = 0; i < all.size(); ++i) {
    Row &r = all[i];
    announce(tty, std::to_string(i + 1) + "/" + std::to_string(all.size()),
             r.shape.name + " " + r.scheme + " " + std::to_string(r.threads) + "T");
    measure(self, r, results.info.cpus[r.threads], tuned, tty);
    results.info.seconds = elapsed();
    if (!writeOutputs(results, error))
      return false;
  }
  if (pairsFlag)
    results.pairs = targetPairs(all, shapes);
  for (size_t i = 0; i < results.pairs.size(); ++i) {
    Pair &p = results.pairs[i];
    announce(tty, "pair " + std::to_string(i + 1) + "/" + std::to_string(results.pairs.size()),
             p.comparison + " " + p.shapes() + " " + std::to_string(p.threads) + "T");
    measurePair(self, p, results.info.cpus[p.threads], results.info.pairRounds);
    results.info.seconds = elapsed();
    if (!writeOutputs(results, error))
      return false;
  }
  if (tty)
    llvm::errs() << "\r\033[K";
  return true;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  tools::setToolName(argv[0]);
  tools::releaseLlvmOption("threads");
  static cl::list<int> threadsFlag("threads", cl::CommaSeparated,
                                   cl::desc("Thread counts to measure, a list (default 1,2; 1 with "
                                            "--quick)"),
                                   cl::cat(category));
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "attn-bench: attention schemes against the best libraries\n");
  if (reps < 1)
    return tools::fail("--reps must be at least 1, got " + std::to_string(reps));
  if (quick && tuneBudget.getNumOccurrences() == 0)
    tuneBudget = kQuickTuneBudgetSeconds;

  if (!writeGraphs.empty())
    return writeGpuGraphs(writeGraphs);

  if (worker) {
    WorkerJob job = runJob(wScheme, std::vector<int>(wCpus.begin(), wCpus.end()), wThreads);
    job.shape = wShape;
    job.schedule = wSchedule;
    job.shapeB = wShapeB;
    job.scheduleB = wScheduleB;
    job.baselineA = wBaselineA;
    job.perturbResult = wPerturb;
    return runWorker(job);
  }

  std::vector<int> threadCounts(threadsFlag.begin(), threadsFlag.end());
  if (threadCounts.empty())
    threadCounts = quick ? std::vector<int>{1} : std::vector<int>{1, 2};
  if (std::string why = runFlagsProblem(threadCounts); !why.empty())
    return tools::fail(why);
  std::optional<backend::TargetInfo> target = tools::targetFromFlag(targetFlag, /*runsHere=*/true);
  if (!target)
    return 1;
  std::vector<BenchShape> shapes = benchShapes(quick);
  if (std::string why = filtersProblem(shapes); !why.empty())
    return tools::fail(why);
  std::vector<Row> rows = plannedRows(shapes, threadCounts);
  if (rows.empty())
    return tools::fail(
        "nothing to measure: no scheme of --schemes applies to the shapes of --shapes");

  RunInfo info;
  std::string error;
  if (!runInfo(argc, argv, *target, rows.front(), info, error))
    return tools::fail(error);
  Results results(std::move(rows), std::move(info));
  if (!writeOutputs(results, error))
    return tools::fail(error);
  std::string self = llvm::sys::fs::getMainExecutable(argv[0], (void *)&main);
  auto started = std::chrono::steady_clock::now();
  measurePeaks(threadCounts, results.info);
  if (!measureAll(self, shapes, started, results, error))
    return tools::fail(error);
  results.info.complete = true;
  results.printTable(llvm::outs());
  if (!writeOutputs(results, error))
    return tools::fail(error);
  return 0;
}
