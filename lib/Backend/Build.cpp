//===- Build.cpp - lower + schedule, shared by AOT and JIT ----------------===//

#include "Build.h"

namespace attn::backend {

BuiltKernel buildKernel(const kernel::FunctionSpec &fn, const TargetInfo &target) {
  BuiltKernel k;
  k.target = Halide::Target(target.halideTarget);
  k.lowered = lowering::lowerFunction(fn);
  schedule::scheduleCpu(*k.lowered, schedule::defaultCpuParams(k.target), k.log);
  return k;
}

} // namespace attn::backend
