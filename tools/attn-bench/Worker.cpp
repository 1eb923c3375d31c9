//===- Worker.cpp - one measurement, in its own process -------------------===//

#include "Worker.h"
#include "Cpus.h"
#include "Python.h"

#include "Baselines.h"
#include "BenchShapes.h"
#include "Results.h"
#include "SpotCheck.h"
#include "ToolSupport.h"
#include "attn/Tuner/Tuner.h"

#include "attn/CodeGen/Halide/Backend.h"
#include "attn/Reference/Evaluator.h"
#include "attn/Runtime/AlignedVector.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include <time.h>

namespace attn::bench {

namespace {

using Clock = std::chrono::steady_clock;

/// How long a baseline's pair waits, busy, before each call on two or more threads (runPair).
constexpr int kSettleMs = 40;
/// One round of the FMA probe's pair (runPair, kProbeWindowSeconds in Results.h): the bounds of
/// the probe's length, and the most calls of the kernel in one window.
constexpr double kMinProbeSeconds = 0.002, kMaxProbeSeconds = 2.0;
constexpr int kMaxProbeCalls = 50;

/// Peak resident memory from now on: resets the kernel's high-water mark (clear_refs 5).
void resetPeakRss() { std::ofstream("/proc/self/clear_refs") << "5"; }

double peakRssMb() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmHWM:", 0) == 0)
      return std::stod(line.substr(6)) / 1024.0;
  return 0;
}

int emit(llvm::json::Object result) {
  llvm::outs() << llvm::json::Value(std::move(result)) << "\n";
  return 0;
}

int fail(const std::string &error) {
  return emit(llvm::json::Object{{"ok", false}, {"error", error}});
}

/// CPU time of every thread of this process so far, in seconds (the scheduler's count, to the
/// nanosecond: getrusage's, built from ticks, was off by 40% over a millisecond).
double processCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

/// Timed runs shorter than this get no count of the CPUs used: a thread running on another CPU
/// has its CPU time accounted at the scheduler's ticks and switches (up to a tick, a few ms, late),
/// which skewed a sub-millisecond window to 1.25 CPUs with two threads on one; over 20 ms the
/// error stays within ~0.2 CPUs per thread, against the 3/4 of T a row must reach.
constexpr double kMinCpuWindowSeconds = 0.02;

/// How long a measurement calls its kernel before timing it (at least once). One call was not
/// enough: on Zen 4, S = 1024 on two threads ran its next ~8 calls (90 ms) at 11.0-12.3 ms and
/// the rest at 10.7, so 7 timed runs after one warm-up call had a median 4% high (the pairs, with
/// 14 rounds, were not moved as much).
constexpr double kWarmUpSeconds = 0.25;

/// Seconds since `start`.
double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Calls `run` until kWarmUpSeconds have passed, at least once.
template <class Run> void warmUp(Run run) {
  auto start = Clock::now();
  do
    run();
  while (secondsSince(start) < kWarmUpSeconds);
}

/// Times `run` after the warm-up: every repetition's milliseconds, the peak RSS during them, and
/// the CPUs the process used meanwhile (its CPU time over the wall time: about T when T threads
/// all worked, less when the machine gave it fewer CPUs or the work did not spread; 0 when the
/// runs took under kMinCpuWindowSeconds).
template <class Run> llvm::json::Object timeIt(int reps, Run run) {
  warmUp(run);
  resetPeakRss();
  llvm::json::Array ms;
  double cpu0 = processCpuSeconds();
  auto start = Clock::now();
  for (int r = 0; r < reps; ++r) {
    auto t0 = Clock::now();
    run();
    ms.push_back(1e3 * secondsSince(t0));
  }
  double wall = secondsSince(start);
  double cpus = wall >= kMinCpuWindowSeconds ? (processCpuSeconds() - cpu0) / wall : 0;
  return llvm::json::Object{
      {"ok", true}, {"ms", std::move(ms)}, {"rss_mb", peakRssMb()}, {"cpus_used", cpus}};
}

/// A tensor of floats uniform in [-1, 1), seeded.
HostTensor randomFloats(const std::vector<int64_t> &shape, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  HostTensor t(kernel::ElemType::F32, shape);
  float *x = reinterpret_cast<float *>(t.data.data());
  for (int64_t i = 0; i < t.numElements(); ++i)
    x[i] = u(rng);
  return t;
}

/// The result of a measurement's first call checked against the reference (SpotCheck.h): the
/// error the row reports, or why the row fails.
bool checked(const WorkerJob &job, const BenchShape &s,
             const std::vector<const HostTensor *> &inputs, HostTensor &out, double &checkError,
             std::string &error) {
  if (job.perturbResult) // the last row's last entry: in the last window
    out.set(out.numElements() - 1, out.get(out.numElements() - 1) + 1.0);
  SpotCheck c = spotCheck(s, inputs, out);
  checkError = c.error;
  error = c.failure;
  return c.pass();
}

int runBaseline(const WorkerJob &job, const BenchShape &s) {
  std::string error;
  std::unique_ptr<Baseline> baseline = makeBaseline(job.scheme, s, job.threads, error);
  if (!baseline)
    return fail(error);
  // q, k and v (HostTensor: on cache-line boundaries, as attn's own inputs, so both read aligned
  // rows) and the result.
  std::vector<HostTensor> in;
  unsigned seed = 1;
  for (const std::vector<int64_t> &shape : s.argShapes())
    in.push_back(randomFloats(shape, seed++));
  std::vector<const HostTensor *> args = pointersTo(in);
  HostTensor out(kernel::ElemType::F32, {s.B, s.H, s.Tq, s.D});
  auto f32 = [](HostTensor &t) { return reinterpret_cast<float *>(t.data.data()); };
  auto run = [&] { baseline->run(f32(in[0]), f32(in[1]), f32(in[2]), f32(out)); };
  run();
  double checkError = 0;
  if (!checked(job, s, args, out, checkError, error))
    return fail(error);
  llvm::json::Object result = timeIt(job.reps, run);
  result["check_error"] = checkError;
  return emit(std::move(result));
}

/// numpy's best form of additive attention (tools/attn-bench/numpy_additive.py), timed by itself.
int runNumpy(const WorkerJob &job, const BenchShape &s) {
  std::string out, error;
  std::vector<std::string> args;
  for (int64_t n : {s.B, s.Tq, s.Tk, s.D, s.Da, static_cast<int64_t>(job.reps)})
    args.push_back(std::to_string(n));
  args.push_back(std::to_string(kWarmUpSeconds));
  args.push_back(std::to_string(kSpotRows)); // the check's windows, as SpotCheck's
  if (!tools::runPython(tools::scriptPath("tools/attn-bench/numpy_additive.py"), args, out, error))
    return fail("numpy_additive.py failed: " + error);
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(out);
  if (!v)
    return fail("numpy_additive.py printed no JSON: " + llvm::toString(v.takeError()));
  llvm::json::Object result = *v->getAsObject();
  // (The script checks its first result against float64 on SpotCheck's windows of rows.)
  double checkError = result.getNumber("check_error").value_or(-1);
  double tolerance = reference::toleranceFor(kernel::ElemType::F32);
  if (!(checkError >= 0 && checkError <= tolerance))
    return fail(llvm::formatv("wrong results: numpy's differ from float64 by {0} times the "
                              "reference's largest magnitude (tolerance {1} times)",
                              checkError, tolerance)
                    .str());
  result["ok"] = true;
  return emit(std::move(result));
}

/// One attn kernel of a shape, compiled (JIT) with its inputs and outputs, ready to be called.
struct AttnCase {
  std::unique_ptr<backend::JitKernel> kernel;
  std::vector<HostTensor> inputs, outputs;
  std::vector<const HostTensor *> in;
  bool run(std::string &error) { return kernel->run(in, outputs, error); }
};

/// Compiles `s` (fused or as written; `schedule` empty: the heuristic's) for the job's target.
bool prepareAttn(const WorkerJob &job, const BenchShape &s, bool fused, const std::string &schedule,
                 mlir::MLIRContext &ctx, AttnCase &c, std::string &error) {
  // (attn-bench refused a target this CPU cannot run before starting workers; compileJit checks
  // too.)
  std::optional<backend::TargetInfo> target = tools::targetFromFlag(job.target, /*runsHere=*/false);
  if (!target) {
    error = "unknown target '" + job.target + "'";
    return false;
  }
  std::optional<kernel::ModuleSpec> spec =
      tools::loadKernelsFromString(s.mlir(fused, schedule), s.name, ctx, {fused, job.target});
  if (!spec) {
    error = "the benchmark graph of " + s.name + " does not compile";
    return false;
  }
  const kernel::FunctionSpec &fn = spec->functions.front();
  c.kernel = backend::compileJit(fn, *target, error);
  if (!c.kernel)
    return false;
  c.inputs = randomInputs(fn, s.argShapes(), 1);
  if (!resultTensors(fn, c.inputs, c.outputs, error))
    return false;
  c.in = pointersTo(c.inputs);
  return true;
}

int runTune(const WorkerJob &job, const BenchShape &s) {
  std::optional<backend::TargetInfo> target = tools::targetFromFlag(job.target, /*runsHere=*/false);
  if (!target)
    return fail("unknown target '" + job.target + "'");
  mlir::MLIRContext ctx;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      tools::parseModuleString(s.mlir(/*fused=*/true, ""), s.name, ctx);
  if (!module || failed(tools::runPipeline(*module, {true, job.target})))
    return fail("the benchmark graph does not compile");
  tuner::TuneOptions options;
  options.budgetSeconds = job.tuneBudget;
  options.reps = 3;
  options.target = *target;
  std::vector<tuner::TuneReport> reports;
  std::string error;
  if (!tuner::tuneModule(*module, options, reports, error) || reports.empty())
    return fail("tuning failed: " + error);
  const tuner::TuneReport &r = reports.front();
  return emit(llvm::json::Object{{"ok", true},
                                 {"schedule", r.best},
                                 {"heuristic", r.heuristic},
                                 {"heuristic_ms", r.heuristicMs},
                                 {"best_ms", r.bestMs},
                                 {"candidates", r.candidates},
                                 {"wrong_results", r.wrongResults},
                                 {"tuning", tuner::sideBySideSummary(r)}});
}

int runAttn(const WorkerJob &job, const BenchShape &s) {
  backend::setThreadCount(job.threads);
  if (job.scheme == "tune")
    return runTune(job, s);
  bool fused = job.scheme == "attn-fused" || job.scheme == "attn-tuned";
  std::string schedule;
  if (job.scheme == "attn-tuned")
    schedule = job.schedule;
  else if (job.scheme.rfind("halide-", 0) == 0)
    schedule = "#attn.schedule<scheduler = \"" + job.scheme.substr(7) + "\">";
  mlir::MLIRContext ctx;
  AttnCase c;
  std::string error;
  if (!prepareAttn(job, s, fused, schedule, ctx, c, error))
    return fail(error);
  double checkError = 0;
  if (!c.run(error) || !checked(job, s, c.in, c.outputs.front(), checkError, error))
    return fail(error);
  bool ok = true;
  llvm::json::Object result = timeIt(job.reps, [&] { ok = ok && c.run(error); });
  if (!ok)
    return fail(error);
  result["check_error"] = checkError;
  std::string sched = c.kernel->scheduleText();
  result["schedule_log"] = sched.substr(0, sched.find('\n'));
  return emit(std::move(result));
}

/// The baselines' OpenMP threads spin for ~12 ms after each call (libgomp's default wait policy),
/// on the CPUs the other side's threads need: with a baseline on side A, every call of either side
/// starts after kSettleMs of busy waiting on `threads` threads, long enough for them to go to
/// sleep. Busy, not asleep: after a sleep of the process both sides ran much slower on a virtual
/// machine (docs/BENCHMARKING.md).
void spinWhileBaselineSettles(int threads) {
  auto until = Clock::now() + std::chrono::milliseconds(kSettleMs);
  auto spin = [until] {
    while (Clock::now() < until) {
    }
  };
  std::vector<std::thread> others;
  for (int t = 1; t < threads; ++t)
    others.emplace_back(spin);
  spin();
  for (std::thread &t : others)
    t.join();
}

/// Two kernels called alternately, A then B in even rounds and B then A in odd ones (neither always
/// runs first, after the other has left the caches its way): each round's pair of timings is taken
/// seconds apart at most, so their ratio is not moved by the machine's slower phases the way two
/// rows measured minutes apart are. Side A is a fused kernel, or a library baseline (of shape a,
/// which is then also b): the baseline and the fused kernel read the same q, k and v; or the FMA
/// probe (kPeakSide): each round it runs on every thread for a window of B's calls (below), and its
/// time is the time its rate needs for B's flops, so that A/B is B's fraction of the peak measured
/// beside it (the run's peak, measured once at its start, moved by 15% over a session on a shared
/// machine).
int runPair(const WorkerJob &job, const BenchShape &a, const BenchShape &b) {
  backend::setThreadCount(job.threads);
  mlir::MLIRContext ctx;
  AttnCase ca, cb;
  std::string error;
  std::unique_ptr<Baseline> baseline;
  AlignedVector<float> baselineOut;
  const bool probeA = job.baselineA == kPeakSide;
  if (probeA) {
    if (a.name != b.name)
      return fail("the FMA probe's pair runs one shape, not " + a.name + " and " + b.name);
    if (!b.countedInFlops())
      return fail("the FMA probe's pair needs a shape counted in flops, not " + b.name);
    if (!prepareAttn(job, b, true, job.scheduleB, ctx, cb, error))
      return fail(error);
  } else if (!job.baselineA.empty()) {
    if (a.name != b.name)
      return fail("a baseline's pair runs one shape, not " + a.name + " and " + b.name);
    baseline = makeBaseline(job.baselineA, a, job.threads, error);
    if (!baseline || !prepareAttn(job, b, true, job.scheduleB, ctx, cb, error))
      return fail(error);
    if (cb.in.size() != 3 ||
        llvm::any_of(cb.in, [](const HostTensor *t) { return t->elem != kernel::ElemType::F32; }))
      return fail("internal: a baseline's pair needs the f32 q, k and v of a dot-product shape, "
                  "not " +
                  a.name + "'s inputs"); // (makeBaseline refused every other shape)
    baselineOut.resize(static_cast<size_t>(a.B * a.H * a.Tq * a.D));
  } else if (!prepareAttn(job, a, true, job.schedule, ctx, ca, error) ||
             !prepareAttn(job, b, true, job.scheduleB, ctx, cb, error)) {
    return fail(error);
  }
  // Both sides read the same inputs where they can (the pairs of the targets all can), as a row's
  // repeated calls do: with inputs of their own, a memory-bound kernel (decode) would find its K
  // and V evicted by the other side's at every call, which no row measures.
  if (!baseline && !probeA && a.argShapes() == b.argShapes()) {
    cb.in = ca.in;
    cb.inputs.clear();
  }
  auto f32 = [&](int i) { return reinterpret_cast<const float *>(cb.in[i]->data.data()); };
  // A probe round is a window of about kProbeWindowSeconds on each side: the probe, then B called
  // callsB times in a row (after one untimed call), B's time the median of those calls. With one
  // call of B per probe, two threads at S = 512 ran 3.7 ms in the pair against 2.6 ms in their
  // row (2-6% in a small program of the same kernel, more with a longer probe): each call then
  // followed the probe's full-load FMA burst or its threads' exit, which a row's calls never do.
  int callsB = 1;
  double probeSeconds = kMinProbeSeconds;
  auto runA = [&] {
    if (probeA)
      return true; // (timed apart: timeA)
    if (!baseline)
      return ca.run(error);
    baseline->run(f32(0), f32(1), f32(2), baselineOut.data());
    return true;
  };
  auto timeA = [&](double &ms) {
    if (probeA) {
      ms = b.flops() / (fmaPeakGflops(job.threads, probeSeconds, job.cpus) * 1e9) * 1e3;
      return true;
    }
    auto t0 = Clock::now();
    bool ok = runA();
    ms = 1e3 * secondsSince(t0);
    return ok;
  };
  auto settle = [&] {
    if (baseline && job.threads >= 2)
      spinWhileBaselineSettles(job.threads);
  };
  bool warm = true;
  double secondsB = 0; // B's last warm-up call
  warmUp([&] {
    warm = warm && runA();
    auto t0 = Clock::now();
    warm = warm && cb.run(error);
    secondsB = secondsSince(t0);
  });
  if (!warm)
    return fail(error);
  if (probeA) {
    int fill = static_cast<int>(std::ceil(kProbeWindowSeconds / std::max(secondsB, 1e-6)));
    callsB = std::clamp(fill, 1, kMaxProbeCalls);
    probeSeconds = std::clamp(callsB * secondsB, kMinProbeSeconds, kMaxProbeSeconds);
  }
  auto timeB = [&](double &ms) {
    if (probeA && !cb.run(error)) // (untimed: the first call after the probe)
      return false;
    std::vector<double> calls;
    for (int c = 0; c < callsB; ++c) {
      auto t0 = Clock::now();
      if (!cb.run(error))
        return false;
      calls.push_back(1e3 * secondsSince(t0));
    }
    std::sort(calls.begin(), calls.end());
    ms = calls[calls.size() / 2];
    return true;
  };
  llvm::json::Array msA, msB;
  for (int r = 0; r < job.reps; ++r)
    for (int side : r % 2 ? std::vector<int>{1, 0} : std::vector<int>{0, 1}) {
      settle();
      double ms = 0;
      if (!(side ? timeB(ms) : timeA(ms)))
        return fail(error);
      (side ? msB : msA).push_back(ms);
    }
  return emit(llvm::json::Object{{"ok", true}, {"ms_a", std::move(msA)}, {"ms_b", std::move(msB)}});
}

} // namespace

int runWorker(const WorkerJob &job) {
  // Before any library starts a thread: they inherit the mask.
  if (!job.cpus.empty() && !pinTo(job.cpus))
    return fail("cannot run on CPUs " + cpuList(job.cpus) + ": " + std::strerror(errno));
  std::vector<BenchShape> shapes = benchShapes(job.quick);
  auto find = [&](const std::string &name) -> const BenchShape * {
    for (const BenchShape &s : shapes)
      if (s.name == name)
        return &s;
    return nullptr;
  };
  const BenchShape *s = find(job.shape);
  if (!s)
    return fail("unknown shape '" + job.shape + "'");
  if (job.scheme == "pair") {
    const BenchShape *b = find(job.shapeB);
    if (!b)
      return fail("unknown shape '" + job.shapeB + "'");
    return runPair(job, *s, *b);
  }
  if (job.scheme == "openblas" || job.scheme == "onednn")
    return runBaseline(job, *s);
  if (job.scheme == "numpy")
    return runNumpy(job, *s);
  return runAttn(job, *s);
}

} // namespace attn::bench
