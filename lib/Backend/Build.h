//===- Build.h - lower + schedule, shared by AOT and JIT --------*- C++ -*-===//

#ifndef ATTN_LIB_BACKEND_BUILD_H
#define ATTN_LIB_BACKEND_BUILD_H

#include "Lowering.h"
#include "Schedule.h"

#include "attn/Backend/Target.h"

namespace attn::backend {

struct BuiltKernel {
  std::unique_ptr<lowering::LoweredFunction> lowered;
  schedule::ScheduleLog log;
  Halide::Target target;
};

/// Lowers `fn` and schedules it for `target`. Throws Halide errors.
BuiltKernel buildKernel(const kernel::FunctionSpec &fn, const TargetInfo &target);

/// The Halide autoscheduler an op of `fn` asks for, or "" (attn's own schedules).
std::string autoschedulerOf(const kernel::FunctionSpec &fn);

/// After `fn` failed to compile: when one of Halide's autoschedulers wrote its schedule and Halide
/// rejected that schedule, says so in `error`, so that the user knows whose schedule failed and what
/// to do (Li2018 writes atomic vectorized reductions with a tail, which Halide 14 cannot compile:
/// "Atomic predicated store is not supported", halide/Halide#4298).
void noteAutoscheduler(const kernel::FunctionSpec &fn, std::string &error);

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
