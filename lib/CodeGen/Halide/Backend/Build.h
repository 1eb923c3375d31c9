//===- Build.h - lower + schedule, shared by AOT and JIT --------*- C++ -*-===//

#ifndef ATTN_LIB_BACKEND_BUILD_H
#define ATTN_LIB_BACKEND_BUILD_H

#include "attn/CodeGen/Halide/Lowering.h"
#include "attn/CodeGen/Halide/Schedule.h"

#include "attn/CodeGen/Halide/Target.h"

namespace attn::backend {

struct BuiltKernel {
  std::unique_ptr<lowering::LoweredFunction> lowered;
  schedule::ScheduleLog log;
  Halide::Target target;
  /// A long function's segments (kernel/Segments.h) and their own kernels, which `lowered` calls.
  std::vector<kernel::Segment> segments;
  std::vector<BuiltKernel> segmentKernels;
};

/// Lowers `fn` and schedules it for `target`: a long function (on a CPU, under attn's schedules) as
/// segments of its own and the kernel that calls them. Throws Halide errors.
BuiltKernel buildKernel(const kernel::FunctionSpec &fn, const TargetInfo &target,
                        int segmentInput = -1);

/// The kernel's module, entry point `name`, for `t`: its pipeline, its segments' pipelines (without
/// a user context: the extern calls pass none) and the lowering's external code.
Halide::Module compileModule(const BuiltKernel &k, const std::string &name,
                             const Halide::Target &t);

/// The Halide autoscheduler an op of `fn` asks for, or "" (attn's own schedules).
std::string autoschedulerOf(const kernel::FunctionSpec &fn);

/// After a kernel failed to compile (`running` false) or to run: when one of Halide's
/// autoschedulers (`autoscheduler`, "" for attn's own schedules) wrote its schedule and Halide
/// rejected what it wrote, says so in `error`, so that the user knows whose schedule failed and
/// what to do. Li2018 writes atomic vectorized reductions with a tail, which Halide 14 cannot
/// compile ("Atomic predicated store is not supported", halide/Halide#4298); with constant extents
/// its kernels' bounds were once so loose that a small bilinear kernel asked for 270 GB at run
/// time. Halide's checks of the inputs (attn's shape requirements, the static extents) get no note
/// (test/Unit/autoscheduler-note.cpp).
void noteAutoscheduler(const std::string &autoscheduler, bool running, std::string &error);

/// Runs `body`, turning Halide's exceptions into `error` (prefixed with `what`). Returns success.
template <class Body> bool catchHalide(const std::string &what, std::string &error, Body body) {
  try {
    body();
    return true;
  } catch (const Halide::CompileError &e) {
    error = what + ": Halide compile error: " + e.what();
  } catch (const Halide::RuntimeError &e) {
    error = what + ": " + e.what();
  } catch (const Halide::InternalError &e) {
    error = what + ": Halide internal error: " + e.what();
  } catch (const Halide::Error &e) {
    error = what + ": " + e.what();
  } catch (const std::exception &e) {
    error = what + ": " + e.what();
  }
  while (!error.empty() && (error.back() == '\n' || error.back() == ' '))
    error.pop_back();
  return false;
}

} // namespace attn::backend

#endif // ATTN_LIB_BACKEND_BUILD_H
