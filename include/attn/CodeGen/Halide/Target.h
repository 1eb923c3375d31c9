//===- Target.h - kernel targets --------------------------------*- C++ -*-===//
//
// The one place where the default target is decided. This header includes neither Halide nor MLIR:
// it is the plain-C++ side of the seam between the two (docs/ARCHITECTURE.md).
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_BACKEND_TARGET_H
#define ATTN_BACKEND_TARGET_H

#include <cstdint>
#include <string>

namespace attn::backend {

/// A resolved Halide target.
struct TargetInfo {
  std::string halideTarget; // canonical Halide target string, e.g. x86-64-linux-avx-avx2-...-fma
  int f32Lanes = 0;         // natural f32 vector width of the CPU part (16 on AVX-512, 8 on AVX2)
  bool gpu = false;         // has a GPU feature (cuda, opencl)
  bool cuda = false;
  bool opencl = false;
  // The host's per-core L2 in bytes (glibc's sysconf, which reads CPUID) for `host` targets; 0 for
  // a target named by its features, whose machine is not known. The schedule heuristics use it.
  int64_t l2Bytes = 0;
};

/// Resolves a Halide target string. `host` (alone or as a prefix, `host-opencl`) is the host minus
/// CPU features this CPU lacks: Halide 14 claims `avx512_sapphirerapids` (which lets LLVM emit AMX)
/// on any CPU with AVX512-BF16, and AMX faults on CPUs without it (AMD Zen 4/5). On failure returns
/// false and sets `error`.
bool resolveTarget(const std::string &spec, TargetInfo &out, std::string &error);

/// The default target: `host`, resolved as above.
TargetInfo defaultTarget();

/// Whether this machine's CPU can run code compiled for `halideTarget` (a resolved target string):
/// the same architecture, bit width and OS, and every instruction-set feature it names (AVX-512,
/// FMA, ...). What runs kernels here (JIT) asks first; on false, `error` names what is missing.
bool hostCanRun(const std::string &halideTarget, std::string &error);

/// The Halide version this project links against, for --version.
std::string halideVersion();

} // namespace attn::backend

#endif // ATTN_BACKEND_TARGET_H
