//===- TargetMath.h - instructions Halide 14 cannot emit, by name --*- C++ -*-===//
//
// Halide 14 has no IR for some instructions the algorithm's math wants (AVX-512's vscalefps and
// vreduceps). They are functions of LLVM bitcode (TargetMath/x86_avx512.ll) that Halide links into
// a kernel's module and inlines; the algorithm calls them as pure externs, by the names here. A
// lowering that calls them lists the bitcode in LoweredFunction::externalCode, and the backend
// appends it to every Halide module it compiles from that lowering (AOT and JIT alike).
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_LIB_CONVERSION_ATTNTOHALIDE_TARGETMATH_H
#define ATTN_LIB_CONVERSION_ATTNTOHALIDE_TARGETMATH_H

#include "Halide.h"

namespace attn::lowering::avx512 {

/// x - floor(x) for f32 x, in [0, 1) (vreduceps); +-inf give 0, NaN gives NaN.
Halide::Expr fracFloor(Halide::Expr x);
/// p * 2^floor(t) for f32 p >= 1/2 (vscalefps), 0 where t < -125 (no subnormal results); NaN t
/// gives NaN, t = -inf gives 0.
Halide::Expr scalePow2Floor(Halide::Expr p, Halide::Expr t);

/// The symbols the bitcode defines in every kernel that uses it (weak, hidden).
std::vector<std::string> symbols();

/// Whether `target` can use them: 64-bit x86 Linux with AVX-512 F and DQ (Halide's avx512_skylake,
/// which its host target names on every AVX-512 core but Knights Landing), no GPU.
bool applies(const Halide::Target &target);
/// The bitcode defining them, for the module of a target they apply to.
Halide::ExternalCode code(const Halide::Target &target);

} // namespace attn::lowering::avx512

#endif // ATTN_LIB_CONVERSION_ATTNTOHALIDE_TARGETMATH_H
