//===- Worker.cpp - one measurement, in its own process -------------------===//

#include "Worker.h"
#include "Cpus.h"
#include "Python.h"

#include "Baselines.h"
#include "BenchShapes.h"
#include "ToolSupport.h"
#include "Tuner.h"

#include "attn/Backend/Backend.h"
#include "attn/Runtime/AlignedVector.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

namespace attn::bench {

namespace {

using Clock = std::chrono::steady_clock;

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

/// Times `run` after one warm-up: every repetition's milliseconds, and the peak RSS during them.
template <class Run> llvm::json::Object timeIt(int reps, Run run) {
  run();
  resetPeakRss();
  llvm::json::Array ms;
  for (int r = 0; r < reps; ++r) {
    auto t0 = Clock::now();
    run();
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  return llvm::json::Object{{"ok", true}, {"ms", std::move(ms)}, {"rss_mb", peakRssMb()}};
}

AlignedVector<float> randomFloats(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  AlignedVector<float> v(n);
  for (float &x : v)
    x = u(rng);
  return v;
}

int runBaseline(const WorkerJob &job, const BenchShape &s) {
  std::string error;
  std::unique_ptr<Baseline> baseline = makeBaseline(job.scheme, s, job.threads, error);
  if (!baseline)
    return fail(error);
  // On cache-line boundaries, as attn's own inputs (HostTensor): both sides read aligned rows.
  AlignedVector<float> q = randomFloats(s.B * s.H * s.Tq * s.D, 1);
  AlignedVector<float> k = randomFloats(s.B * s.Hkv * s.Tk * s.D, 2);
  AlignedVector<float> v = randomFloats(s.B * s.Hkv * s.Tk * s.D, 3);
  AlignedVector<float> out(s.B * s.H * s.Tq * s.D);
  return emit(timeIt(job.reps, [&] { baseline->run(q.data(), k.data(), v.data(), out.data()); }));
}

/// numpy's best form of additive attention (tools/attn-bench/numpy_additive.py), timed by itself.
int runNumpy(const WorkerJob &job, const BenchShape &s) {
  std::string out, error;
  std::vector<std::string> args;
  for (int64_t n : {s.B, s.Tq, s.Tk, s.D, s.Da, static_cast<int64_t>(job.reps)})
    args.push_back(std::to_string(n));
  if (!tools::runPython(tools::scriptPath("tools/attn-bench/numpy_additive.py"), args, out, error))
    return fail("numpy_additive.py failed: " + error);
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(out);
  if (!v)
    return fail("numpy_additive.py printed no JSON: " + llvm::toString(v.takeError()));
  llvm::json::Object result = *v->getAsObject();
  result["ok"] = true;
  return emit(std::move(result));
}

int runAttn(const WorkerJob &job, const BenchShape &s) {
  backend::setThreadCount(job.threads);
  bool fused = job.scheme == "attn-fused" || job.scheme == "attn-tuned" || job.scheme == "tune";
  std::string schedule;
  if (job.scheme == "attn-tuned")
    schedule = job.schedule;
  else if (job.scheme.rfind("halide-", 0) == 0)
    schedule = "#attn.schedule<scheduler = \"" + job.scheme.substr(7) + "\">";
  std::string error;
  std::optional<backend::TargetInfo> target = tools::targetFromFlag(job.target);
  if (!target)
    return fail("unknown target '" + job.target + "'");
  mlir::MLIRContext ctx;
  std::string text = s.mlir(fused, schedule);

  if (job.scheme == "tune") {
    mlir::OwningOpRef<mlir::ModuleOp> module = tools::parseModuleString(text, s.name, ctx);
    if (!module || failed(tools::runPipeline(*module, {true, job.target})))
      return fail("the benchmark graph does not compile");
    tools::TuneOptions options;
    options.budgetSeconds = job.tuneBudget;
    options.reps = 3;
    options.target = *target;
    std::vector<tools::TuneReport> reports;
    if (!tools::tuneModule(*module, options, reports, error) || reports.empty())
      return fail("tuning failed: " + error);
    const tools::TuneReport &r = reports.front();
    return emit(llvm::json::Object{{"ok", true},
                                   {"schedule", r.best},
                                   {"heuristic", r.heuristic},
                                   {"heuristic_ms", r.heuristicMs},
                                   {"best_ms", r.bestMs},
                                   {"candidates", r.candidates}});
  }

  std::optional<kernel::ModuleSpec> spec =
      tools::loadKernelsFromString(text, s.name, ctx, {fused, job.target});
  if (!spec)
    return fail("the benchmark graph does not compile");
  const kernel::FunctionSpec &fn = spec->functions.front();
  std::unique_ptr<backend::JitKernel> kernel = backend::compileJit(fn, *target, error);
  if (!kernel)
    return fail(error);
  std::vector<HostTensor> inputs = tools::randomInputs(fn, s.argShapes(), 1), outputs;
  if (!tools::resultTensors(fn, inputs, outputs, error))
    return fail(error);
  std::vector<const HostTensor *> in;
  for (const HostTensor &t : inputs)
    in.push_back(&t);
  bool ok = true;
  llvm::json::Object result = timeIt(job.reps, [&] { ok = ok && kernel->run(in, outputs, error); });
  if (!ok)
    return fail(error);
  std::string sched = kernel->scheduleText();
  result["schedule_log"] = sched.substr(0, sched.find('\n'));
  return emit(std::move(result));
}

} // namespace

int runWorker(const WorkerJob &job) {
  // Before any library starts a thread: they inherit the mask.
  if (!job.cpus.empty() && !pinTo(job.cpus))
    return fail("cannot run on CPUs " + cpuList(job.cpus) + ": " + std::strerror(errno));
  for (const BenchShape &s : benchShapes(job.quick)) {
    if (s.name != job.shape)
      continue;
    if (job.scheme == "openblas" || job.scheme == "onednn")
      return runBaseline(job, s);
    if (job.scheme == "numpy")
      return runNumpy(job, s);
    return runAttn(job, s);
  }
  return fail("unknown shape '" + job.shape + "'");
}

} // namespace attn::bench
