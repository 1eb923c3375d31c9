//===- TargetTraits.h - a target as the schedules see it --------*- C++ -*-===//
//
// What choosing a schedule needs to know about the machine the kernels are compiled for. A module
// carries it as its `attn.target` attribute (#attn.target, AttnBase.td), which
// --attn-attach-target (or a tool's --target) sets from a Halide target string: the passes read
// the module, never a process-wide setting. No MLIR, no Halide here.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_KERNEL_TARGETTRAITS_H
#define ATTN_KERNEL_TARGETTRAITS_H

#include <cstdint>
#include <string>

namespace attn::kernel {

struct TargetTraits {
  std::string name;    // the canonical Halide target string
  int lanes = 16;      // f32 lanes of the CPU part's vectors (16 on AVX-512, 8 on AVX2)
  int registers = 32;  // the CPU part's vector registers
  bool gpu = false;    // the kernels run on a GPU (cuda, opencl)
  int64_t l2Bytes = 0; // per-core L2 of the machine the kernels run on; 0: not known
  /// AVX-512's register file: 32 vector registers.
  bool avx512() const { return registers >= 32; }
  /// The vector registers of a CPU with vectors of `f32Lanes` floats, as the schedules count them.
  static int registersFor(int f32Lanes) { return f32Lanes >= 16 ? 32 : 16; }
};

} // namespace attn::kernel

#endif // ATTN_KERNEL_TARGETTRAITS_H
