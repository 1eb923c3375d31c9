//===- Build.cpp - lower + schedule, shared by AOT and JIT ----------------===//

#include "Build.h"

#include "attn/Backend/Backend.h"

#include <algorithm>
#include <cctype>
#include <mutex>
#include <set>
#include <cstdlib>
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
    Halide::load_plugin(std::string(ATTN_HALIDE_PLUGIN_DIR) + "/libautoschedule_" + scheduler + ".so");
    loaded.insert(scheduler);
  }
  return halideName;
}

/// Estimates for the autoschedulers: static sizes, or 256 where a size is dynamic.
void setEstimates(lowering::LoweredFunction &lf) {
  const kernel::FunctionSpec &fn = *lf.spec;
  auto estimate = [](int64_t size) { return size == kernel::kDynamic ? 256 : static_cast<int>(size); };
  for (int i = 0; i < fn.numArgs; ++i) {
    const kernel::TensorType &t = fn.values[i];
    std::vector<Halide::Range> ranges;
    for (int d = t.rank() - 1; d >= 0; --d) // Halide order
      ranges.emplace_back(0, estimate(t.shape[d]));
    lf.inputs[i].set_estimates(ranges);
  }
  for (size_t r = 0; r < fn.results.size(); ++r) {
    const kernel::TensorType &t = fn.resultType(r);
    std::vector<Halide::Range> ranges;
    for (int d = t.rank() - 1; d >= 0; --d)
      ranges.emplace_back(0, estimate(t.shape[d]));
    lf.outputs[r].set_estimates(ranges);
  }
}

} // namespace

BuiltKernel buildKernel(const kernel::FunctionSpec &fn, const TargetInfo &target) {
  BuiltKernel k;
  k.target = Halide::Target(target.halideTarget);
  lowering::LoweringOptions options;
  options.gpu = k.target.has_gpu_feature();
  options.lanes = schedule::defaultCpuParams(k.target).lanes;
  k.lowered = lowering::lowerFunction(fn, options);
  // An op that asks for a Halide autoscheduler has it schedule the whole pipeline (they work on
  // pipelines, not ops); otherwise attn's schedules apply op by op.
  std::string autoscheduler;
  for (const kernel::OpSpec &op : fn.ops)
    if (op.schedule.usesAutoscheduler())
      autoscheduler = op.schedule.scheduler;
  if (!autoscheduler.empty()) {
    if (k.target.has_gpu_feature())
      throw Halide::CompileError("the Halide autoschedulers are used for CPU targets only; '" +
                                 target.halideTarget + "' is a GPU target (use scheduler = \"hand\")");
    std::string name = loadAutoscheduler(autoscheduler);
    setEstimates(*k.lowered);
    int threads = std::max(1u, std::thread::hardware_concurrency());
    Halide::MachineParams machine(threads, 32 << 20, 40);
    k.lowered->pipeline.auto_schedule(name, k.target, machine);
    k.log.add("the whole pipeline: Halide's " + name + " autoscheduler (parallelism " +
              std::to_string(threads) + ", 32 MiB last-level cache; estimates from static sizes, 256 "
              "where dynamic)");
    return k;
  }
  if (k.target.has_gpu_feature())
    schedule::scheduleGpu(*k.lowered, schedule::defaultGpuParams(k.target), k.log);
  else
    schedule::scheduleCpu(*k.lowered, schedule::defaultCpuParams(k.target), k.log);
  return k;
}

bool lowerAndSchedule(const kernel::FunctionSpec &fn, const TargetInfo &target, std::string &error) {
  return catchHalide("@" + fn.name, error, [&] { buildKernel(fn, target); });
}

} // namespace attn::backend
