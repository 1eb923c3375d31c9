//===- TargetMath.cpp - instructions Halide 14 cannot emit, by name -------===//

#include "TargetMath.h"

#include "X86Avx512Bitcode.inc" // kX86Avx512Bitcode: TargetMath/x86_avx512.ll, assembled by llvm-as-14

using namespace Halide;
using Halide::Internal::Call;

namespace attn::lowering::avx512 {

// The names match the bitcode's functions: NAME for one lane, NAMEx16 for 16 (Halide splits or pads
// other widths to 16).
Expr fracFloor(Expr x) {
  return Call::make(Float(32), "attn_frac_floor_f32", {std::move(x)}, Call::PureExtern);
}

Expr scalePow2Floor(Expr p, Expr t) {
  return Call::make(Float(32), "attn_scale_pow2_floor_f32", {std::move(p), std::move(t)},
                    Call::PureExtern);
}

bool applies(const Target &target) {
  // The bitcode's data layout is Linux x86-64's.
  return !target.has_gpu_feature() && target.arch == Target::X86 && target.bits == 64 &&
         target.os == Target::Linux && target.has_feature(Target::AVX512_Skylake);
}

ExternalCode code(const Target &target) {
  return ExternalCode::bitcode_wrapper(
      target, std::vector<uint8_t>(std::begin(kX86Avx512Bitcode), std::end(kX86Avx512Bitcode)),
      "attn_x86_avx512");
}

} // namespace attn::lowering::avx512
