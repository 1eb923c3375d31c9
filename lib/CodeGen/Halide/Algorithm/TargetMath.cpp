//===- TargetMath.cpp - instructions Halide 14 cannot emit, by name -------===//

#include "attn/CodeGen/Halide/TargetMath.h"

#include "X86Avx512Bitcode.inc" // kX86Avx512Bitcode: TargetMath/x86_avx512.ll, assembled by llvm-as-14

using namespace Halide;
using Halide::Internal::Call;

namespace attn::lowering::avx512 {

namespace {
// The names match the bitcode's functions: NAME for one lane, NAMEx16 for 16 (Halide splits or pads
// other widths to 16).
const char *const kFracFloor = "attn_frac_floor_f32";
const char *const kScalePow2Floor = "attn_scale_pow2_floor_f32";
} // namespace

Expr fracFloor(Expr x) {
  return Call::make(Float(32), kFracFloor, {std::move(x)}, Call::PureExtern);
}

Expr scalePow2Floor(Expr p, Expr t) {
  return Call::make(Float(32), kScalePow2Floor, {std::move(p), std::move(t)}, Call::PureExtern);
}

std::vector<std::string> symbols() {
  std::vector<std::string> names;
  for (const char *name : {kFracFloor, kScalePow2Floor}) {
    names.push_back(name);
    names.push_back(std::string(name) + "x16");
  }
  return names;
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
