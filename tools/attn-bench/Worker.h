//===- Worker.h - one measurement, in its own process -----------*- C++ -*-===//
//
// attn-bench runs each (shape, scheme, threads) measurement in a child process of itself
// (`attn-bench --worker ...`): thread counts are fixed by environment variables before the
// libraries start (HL_NUM_THREADS, OMP_NUM_THREADS, OPENBLAS_CORETYPE), peak memory is the child's
// own, and a scheme that runs away (an autoscheduler) cannot take the whole benchmark down.
// The worker prints one JSON object on stdout.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_TOOLS_ATTN_BENCH_WORKER_H
#define ATTN_TOOLS_ATTN_BENCH_WORKER_H

#include <string>
#include <vector>

namespace attn::bench {

struct WorkerJob {
  std::string shape;  // BenchShape name
  std::string scheme; // attn-fused, attn-tuned, attn-unfused, halide-<autoscheduler>, openblas,
                      // onednn, numpy; "tune" runs the autotuner and reports its schedule;
                      // "pair" times two kernels alternately: side A the fused kernel of
                      // shape/schedule, or the library baselineA of shape; side B the fused
                      // kernel of shapeB/scheduleB (an empty schedule is the heuristic's)
  int threads = 1;
  int reps = 7;                  // timed runs (a pair: rounds, each timing both sides once)
  std::string schedule;          // #attn.schedule for attn-tuned (and side A of a pair)
  std::string shapeB, scheduleB; // side B of a pair
  std::string baselineA; // side A of a pair when it is a library baseline (openblas, onednn) or
                         // the FMA probe (kPeakSide, Results.h)
  double tuneBudget = 20;
  bool quick = false;    // the shape is from the quick set
  std::string target;    // the attn schemes' target (--target; empty: the host); baselines are CPU
  std::vector<int> cpus; // the CPUs it runs on (Cpus.h); empty: wherever the system puts it
  bool perturbResult =
      false; // (tests) the first call's result gets one wrong entry before its check
};

/// Runs the job in this process; prints the JSON result. Returns the exit code.
int runWorker(const WorkerJob &job);

} // namespace attn::bench

#endif // ATTN_TOOLS_ATTN_BENCH_WORKER_H
