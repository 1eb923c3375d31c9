//===- Build.cpp - lower + schedule, shared by AOT and JIT ----------------===//

#include "Build.h"
#include "attn/CodeGen/Halide/TargetMath.h"

#include "attn/CodeGen/Halide/Backend.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <mutex>
#include <set>
#include <thread>

namespace attn::backend {

namespace {

/// Halide's autoschedulers ship as plugins (Debian: libautoschedule_<name>.so); each loads once.
std::string loadAutoscheduler(const std::string &scheduler) {
  static std::mutex mutex;
  static std::set<std::string> loaded;
  static const std::pair<const char *, const char *> names[] = {
      {"adams2019", "Adams2019"}, {"mullapudi2016", "Mullapudi2016"}, {"li2018", "Li2018"}};
  std::string halideName;
  for (auto &[ours, theirs] : names)
    if (scheduler == ours)
      halideName = theirs;
  if (halideName.empty())
    throw Halide::CompileError("unknown autoscheduler '" + scheduler + "'");
  std::lock_guard<std::mutex> lock(mutex);
  // Adams2019's beam search did not finish on attention pipelines here (12 minutes, 20 GB for one
  // decode kernel); its greedy mode (beam size 1) takes seconds. HL_BEAM_SIZE set by the user wins.
  if (scheduler == "adams2019")
    ::setenv("HL_BEAM_SIZE", "1", /*overwrite=*/0);
  if (!loaded.count(scheduler)) {
    Halide::load_plugin(std::string(ATTN_HALIDE_PLUGIN_DIR) + "/libautoschedule_" + scheduler +
                        ".so");
    loaded.insert(scheduler);
  }
  return halideName;
}

/// Estimates for the autoschedulers: the static sizes (buildKernel refuses dynamic ones). For
/// Adams2019 they are also made the buffers' extents (`fixExtents`): it unrolls loops whose
/// estimated extent is small, and Halide can only unroll a constant extent, so with symbolic ones
/// it failed to compile ("Can only unroll for loops over a constant extent", a [2, 33] query:
/// scripts/schedule-sweep.py). A buffer of another size then fails Halide's own check of the
/// constraint, before attn's requirements (which name the argument) run; the tools check sizes
/// before they call a kernel. Not for the others: with constant extents Halide 14 miscompiled
/// Mullapudi2016's schedule of the additive score (an update split by 16 with GuardWithIf and
/// vectorized, over 17 keys, reading a Func computed at the root: its loop over the two vectors
/// wrote the first vector twice and never the second; scripts/schedule-sweep.py seed 42, case 44;
/// test/Integration/autoschedulers.mlir), a pattern that compiles right with symbolic extents.
void setEstimates(lowering::LoweredFunction &lf, bool fixExtents) {
  const kernel::FunctionSpec &fn = *lf.spec;
  auto constrain = [&](const kernel::TensorType &t, auto &&dimension) {
    std::vector<Halide::Range> ranges;
    for (int d = t.rank() - 1; d >= 0; --d) { // Halide order
      ranges.emplace_back(0, static_cast<int>(t.shape[d]));
      if (fixExtents)
        dimension(t.rank() - 1 - d).set_extent(static_cast<int>(t.shape[d]));
    }
    return ranges;
  };
  for (int i = 0; i < fn.numArgs; ++i) {
    Halide::ImageParam &p = lf.inputs[i];
    p.set_estimates(constrain(fn.values[i], [&](int d) { return p.dim(d); }));
  }
  for (size_t r = 0; r < fn.results.size(); ++r) {
    Halide::OutputImageParam out = lf.outputs[r].output_buffer();
    lf.outputs[r].set_estimates(constrain(fn.resultType(r), [&](int d) { return out.dim(d); }));
  }
}

/// Puts every Func's storage back at its compute level, which turns off Halide's sliding window
/// (storage hoisted out of the loop it is computed in, values reused across its iterations). Halide
/// 14's sliding window computes wrong values in some schedules (halide/Halide#8140, "Sliding window
/// by backing up the loop min is busted"), and Adams2019 writes such schedules for attention: a
/// [1, 2, 7, 24] bf16 query whose softmax exponentials were stored per 4 rows and computed per 2
/// rows gave results 0.05 off in rows 2 and 4-6 (scripts/schedule-sweep.py, seed 22;
/// test/Integration/autoschedulers.mlir).
void storeAtComputeLevel(Halide::Pipeline &pipeline, schedule::ScheduleLog &log) {
  std::vector<Halide::Internal::Function> outputs;
  for (Halide::Func f : pipeline.outputs())
    outputs.push_back(f.function());
  // The handle is replaced, not set(): the autoscheduler may have given several Funcs one
  // LoopLevel object, which set() would change for all of them. (LoopLevels cannot be compared
  // before lowering locks them, so every Func's is replaced; where they were one level already,
  // nothing changes.)
  for (auto &[name, function] : Halide::Internal::build_environment(outputs)) {
    Halide::Internal::FuncSchedule &s = function.schedule();
    s.store_level() = s.compute_level();
  }
  log.add("every Func stored at its compute level (no sliding window: Halide 14's gives wrong "
          "results in some schedules, halide/Halide#8140)");
}

} // namespace

std::string autoschedulerOf(const kernel::FunctionSpec &fn) {
  std::string autoscheduler;
  for (const kernel::OpSpec &op : fn.ops)
    if (op.schedule.usesAutoscheduler())
      autoscheduler = op.schedule.scheduler;
  return autoscheduler;
}

void noteAutoscheduler(const std::string &autoscheduler, bool running, std::string &error) {
  // Halide's own errors say "Error: ..."; attn's refusals (static shapes, CPU only) do not.
  if (autoscheduler.empty() || error.find("Error:") == std::string::npos ||
      error.find("Requirement Failed") != std::string::npos ||
      error.find("Constraint violated") != std::string::npos)
    return;
  error += " (the schedule is Halide's " + autoscheduler + " autoscheduler's, " +
           (running ? "run" : "compiled") +
           " as it wrote it; use scheduler = \"hand\" or another autoscheduler)";
}

BuiltKernel buildKernel(const kernel::FunctionSpec &fn, const TargetInfo &target,
                        int segmentInput) {
  BuiltKernel k;
  k.target = Halide::Target(target.halideTarget);
  lowering::LoweringOptions options;
  options.gpu = k.target.has_gpu_feature();
  options.lanes = schedule::defaultCpuParams(k.target).lanes;
  options.avx512Math = lowering::avx512::applies(k.target);
  options.segmentInput = segmentInput;
  if (!options.gpu && autoschedulerOf(fn).empty())
    k.segments = kernel::planSegments(fn, fn.name);
  k.segmentKernels.reserve(k.segments.size());
  for (const kernel::Segment &seg : k.segments) {
    const bool chained = seg.argValues.back() >= fn.numArgs; // the previous segment's value
    k.segmentKernels.push_back(buildKernel(seg.spec, target, chained ? seg.spec.numArgs - 1 : -1));
    k.log.add("ops " + std::to_string(seg.firstOp) + " to " + std::to_string(seg.lastOp) +
              ": a pipeline of their own (" + seg.spec.name + "), called as an extern stage");
  }
  options.segments = k.segments;
  k.lowered = lowering::lowerFunction(fn, options);
  if (options.avx512Math)
    k.lowered->externalCode.push_back(lowering::avx512::code(k.target));
  // An op that asks for a Halide autoscheduler has it schedule the whole pipeline (they work on
  // pipelines, not ops); otherwise attn's schedules apply op by op.
  std::string autoscheduler = autoschedulerOf(fn);
  if (!autoscheduler.empty()) {
    if (k.target.has_gpu_feature())
      throw Halide::CompileError("the Halide autoschedulers are used for CPU targets only; '" +
                                 target.halideTarget +
                                 "' is a GPU target (use scheduler = \"hand\")");
    // They tile for the estimated sizes, and a kernel tiled for 256 rows wrote a 2-row result at
    // row -126 (Adams2019, a [?, 33] query): with dynamic sizes there is no size to tile for.
    for (size_t i = 0; i < fn.values.size(); ++i) {
      const kernel::TensorType &t = fn.values[i];
      if (std::find(t.shape.begin(), t.shape.end(), kernel::kDynamic) == t.shape.end())
        continue;
      std::string what = static_cast<int>(i) < fn.numArgs ? "argument #" + std::to_string(i)
                                                          : std::string("a value");
      throw Halide::CompileError(
          "scheduler = \"" + autoscheduler +
          "\" needs static shapes: Halide's autoschedulers "
          "tile for the sizes they are given, and their kernels fail on others; " +
          what + " (" + t.str() +
          ") has dynamic sizes (give the function static types, or use scheduler = "
          "\"hand\")");
    }
    std::string name = loadAutoscheduler(autoscheduler);
    const bool fixExtents = name == "Adams2019";
    setEstimates(*k.lowered, fixExtents);
    int threads = std::max(1u, std::thread::hardware_concurrency());
    Halide::MachineParams machine(threads, 32 << 20, 40);
    Halide::AutoSchedulerResults chosen =
        k.lowered->pipeline.auto_schedule(name, k.target, machine);
    k.log.add("the whole pipeline: Halide's " + name + " autoscheduler (parallelism " +
              std::to_string(threads) + ", 32 MiB last-level cache; the static sizes as estimates" +
              (fixExtents ? " and extents" : "") + "); the schedule it chose, as Halide C++:");
    k.log.add(chosen.schedule_source);
    storeAtComputeLevel(k.lowered->pipeline, k.log);
    return k;
  }
  if (k.target.has_gpu_feature())
    schedule::scheduleGpu(*k.lowered, schedule::defaultGpuParams(k.target), k.log);
  else
    schedule::scheduleCpu(*k.lowered, schedule::defaultCpuParams(k.target), k.log);
  return k;
}

Halide::Module compileModule(const BuiltKernel &k, const std::string &name,
                             const Halide::Target &t) {
  std::vector<Halide::Argument> args(k.lowered->inputs.begin(), k.lowered->inputs.end());
  Halide::Module module = k.lowered->pipeline.compile_to_module(args, name, t);
  for (size_t s = 0; s < k.segments.size(); ++s) {
    const BuiltKernel &seg = k.segmentKernels[s];
    Halide::Module m =
        compileModule(seg, k.segments[s].spec.name, t.without_feature(Halide::Target::UserContext));
    for (const Halide::Internal::LoweredFunc &f : m.functions())
      module.append(f); // named NAME_segmentK, as Halide names its loop bodies NAME_par_for_...
    for (const Halide::Buffer<void> &b : m.buffers())
      module.append(b);
  }
  for (const Halide::ExternalCode &code : k.lowered->externalCode) // (the segments' is the same)
    module.append(code);
  return module;
}

bool lowerAndSchedule(const kernel::FunctionSpec &fn, const TargetInfo &target,
                      std::string &error) {
  return catchHalide("@" + fn.name, error, [&] { buildKernel(fn, target); });
}

} // namespace attn::backend
