//===- Target.cpp - kernel targets ----------------------------------------===//

#include "attn/CodeGen/Halide/Target.h"

#include "Halide.h"

#include <cpuid.h>
#include <dlfcn.h>
#include <mutex>
#include <unistd.h>

namespace attn::backend {
namespace {

/// CPUID.(EAX=7,ECX=0):EDX bit 24: AMX-TILE.
bool cpuHasAmx() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx))
    return false;
  return (edx >> 24) & 1u;
}

/// The host as Halide sees it, minus what this CPU does not have.
Halide::Target sanitizedHost() {
  Halide::Target host = Halide::get_host_target();
  if (host.has_feature(Halide::Target::AVX512_SapphireRapids) && !cpuHasAmx())
    host = host.without_feature(Halide::Target::AVX512_SapphireRapids);
  return host;
}

TargetInfo describe(const Halide::Target &t) {
  TargetInfo info;
  info.halideTarget = t.to_string();
  Halide::Target cpu =
      t.without_feature(Halide::Target::CUDA).without_feature(Halide::Target::OpenCL);
  info.f32Lanes = cpu.natural_vector_size<float>();
  info.cuda = t.has_feature(Halide::Target::CUDA);
  info.opencl = t.has_feature(Halide::Target::OpenCL);
  info.gpu = t.has_gpu_feature();
  return info;
}

/// The host's target with what only the host tells (its cache).
TargetInfo describeHost(const Halide::Target &t) {
  TargetInfo info = describe(t);
  long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  info.l2Bytes = l2 > 0 ? l2 : 0;
  return info;
}

} // namespace

bool resolveTarget(const std::string &spec, TargetInfo &out, std::string &error) {
  std::string s = spec.empty() ? "host" : spec;
  std::string features;
  if (s == "host" || s.rfind("host-", 0) == 0)
    features = s.substr(4); // "-opencl..." or ""
  try {
    Halide::Target t;
    const bool host = s == "host" || s.rfind("host-", 0) == 0;
    if (host) {
      t = sanitizedHost();
      if (!features.empty()) {
        // Re-parse the sanitized host with the extra features, so Halide validates them.
        std::string full = t.to_string() + features;
        if (!Halide::Target::validate_target_string(full)) {
          error = "unknown target '" + spec + "': '" + features.substr(1) +
                  "' holds a feature Halide does not know";
          return false;
        }
        t = Halide::Target(full);
      }
    } else {
      if (!Halide::Target::validate_target_string(s)) {
        error = "unknown target '" + spec +
                "': expected a Halide target string such as 'host', 'host-opencl', "
                "'x86-64-linux-avx2' or 'x86-64-linux-avx512_skylake-cuda-cuda_capability_80'";
        return false;
      }
      t = Halide::Target(s);
    }
    out = host ? describeHost(t) : describe(t);
    return true;
  } catch (const Halide::Error &e) {
    error = "unknown target '" + spec + "': " + e.what();
    return false;
  }
}

TargetInfo defaultTarget() { return describeHost(sanitizedHost()); }

namespace {

/// PoCL (OpenCL on the CPU) compiles kernels with its own clang/LLVM 15, which binds to LLVM 14's
/// symbols already in this process (Halide) and crashes. Loaded first with RTLD_DEEPBIND, PoCL
/// resolves its symbols in its own dependencies first; the OpenCL ICD loader then finds it loaded.
/// (docs/TOOLCHAIN.md; a no-op when PoCL is not installed or another OpenCL driver is used.)
void isolatePocl() {
  static std::once_flag once;
  std::call_once(once, [] { ::dlopen("libpocl.so.2", RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND); });
}

/// Whether the library Halide's GPU runtime loads for `t` is here (it loads it by these names when
/// a kernel first runs): without it every run fails after compiling, Halide's CUDA runtime with a
/// line per missing entry point. OpenCL's platforms are not asked for: PoCL is loaded first, as it
/// must be (isolatePocl), and the loader only then.
bool gpuRuntimeAvailable(const Halide::Target &t, const std::string &halideTarget,
                         std::string &error) {
  auto loads = [](std::initializer_list<const char *> names) {
    for (const char *name : names)
      if (::dlopen(name, RTLD_LAZY | RTLD_LOCAL)) // kept: Halide's runtime loads it again
        return true;
    return false;
  };
  if (t.has_feature(Halide::Target::CUDA) && !loads({"libcuda.so.1", "libcuda.so"})) {
    error = "target '" + halideTarget + "' needs the CUDA driver (libcuda.so.1), which this " +
            "machine does not have; attn-compile emits CUDA kernels without one";
    return false;
  }
  if (t.has_feature(Halide::Target::OpenCL)) {
    isolatePocl();
    if (!loads({"libOpenCL.so", "libOpenCL.so.1"})) {
      error =
          "target '" + halideTarget + "' needs an OpenCL loader (libOpenCL.so) and driver, " +
          "which this machine does not have (Debian: ocl-icd-opencl-dev and pocl-opencl-icd); " +
          "attn-compile emits OpenCL kernels without them";
      return false;
    }
  }
  return true;
}

} // namespace

bool hostCanRun(const std::string &halideTarget, std::string &error) {
  Halide::Target t(halideTarget), host = sanitizedHost();
  // Instruction-set features: code compiled with one the CPU lacks dies of SIGILL at its first use.
  static const Halide::Target::Feature isa[] = {Halide::Target::SSE41,
                                                Halide::Target::AVX,
                                                Halide::Target::AVX2,
                                                Halide::Target::FMA,
                                                Halide::Target::FMA4,
                                                Halide::Target::F16C,
                                                Halide::Target::AVX512,
                                                Halide::Target::AVX512_KNL,
                                                Halide::Target::AVX512_Skylake,
                                                Halide::Target::AVX512_Cannonlake,
                                                Halide::Target::AVX512_SapphireRapids,
                                                Halide::Target::ARMv7s,
                                                Halide::Target::ARMv81a,
                                                Halide::Target::ARMDotProd,
                                                Halide::Target::ARMFp16,
                                                Halide::Target::SVE,
                                                Halide::Target::SVE2,
                                                Halide::Target::VSX,
                                                Halide::Target::POWER_ARCH_2_07,
                                                Halide::Target::RVV};
  auto cpuOf = [](const Halide::Target &x) {
    return Halide::Target(x.os, x.arch, x.bits).to_string();
  };
  if (t.arch != host.arch || t.bits != host.bits || t.os != host.os) {
    error = "target '" + halideTarget + "' is for " + cpuOf(t) + ", and this machine is " +
            cpuOf(host) + "; attn-compile emits kernels for other machines";
    return false;
  }
  std::string missing;
  for (Halide::Target::Feature f : isa)
    if (t.has_feature(f) && !host.has_feature(f))
      missing += (missing.empty() ? "" : ", ") + Halide::Target::feature_to_name(f);
  if (!missing.empty()) {
    error = "target '" + halideTarget + "' needs CPU features this machine lacks (" + missing +
            "); attn-compile emits kernels for other machines";
    return false;
  }
  return gpuRuntimeAvailable(t, halideTarget, error);
}

// Halide 14's headers carry no version macro; the library's soname (libHalide14) is the version.
std::string halideVersion() { return "14"; }

} // namespace attn::backend
