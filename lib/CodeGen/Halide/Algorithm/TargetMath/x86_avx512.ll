; AVX-512 instructions that Halide 14 has no IR for, as functions Halide's code generator calls by
; name: an extern call of NAME over N lanes becomes a call of NAMExN if the module defines it
; (CodeGen_LLVM::find_vector_runtime_function), and these are inlined (alwaysinline). attn assembles
; this file with LLVM 14's llvm-as and Halide links the bitcode into every CPU kernel of an AVX-512
; target (Module::append(ExternalCode)); TargetMath.h names them for the algorithm.
;
; Linkage weak_odr, visibility hidden: LLVM's linker drops linkonce functions that the kernel does not
; yet call, and Halide links this code in before it generates the calls. Weak, two kernels linked
; into one program do not clash over these bodies; hidden, no shared library exports them.
;
; Only for 64-bit Linux targets with AVX-512 F and DQ (vreduceps is DQ; Halide's avx512_skylake
; implies both). The data layout is Linux x86-64's (the kernel's, so linking does not warn).
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"

; x - floor(x), exact (vreduceps, imm 9 = round toward -inf, suppress exceptions): -inf and +inf
; give 0, NaN gives NaN.
define weak_odr hidden <16 x float> @attn_frac_floor_f32x16(<16 x float> %x) #0 {
  %r = call <16 x float> @llvm.x86.avx512.mask.reduce.ps.512(<16 x float> %x, i32 9, <16 x float> zeroinitializer, i16 -1, i32 4)
  ret <16 x float> %r
}

define weak_odr hidden float @attn_frac_floor_f32(float %x) #0 {
  %v = insertelement <4 x float> undef, float %x, i64 0
  %r = call <4 x float> @llvm.x86.avx512.mask.reduce.ss(<4 x float> %v, <4 x float> %v, <4 x float> zeroinitializer, i8 -1, i32 9, i32 4)
  %s = extractelement <4 x float> %r, i64 0
  ret float %s
}

; p * 2^floor(t) (vscalefps), and 0 where t < -125: for p >= 1/2 every result left is a normal
; float. Not flushed, results below 2^-126 are subnormal, which costs a microcode assist per
; instruction on Intel cores (~120 ns per vscalefps, measured on the model-207 Xeon: 90x slower), in
; the kernels' inner loop whenever scores spread over more than ~87. The comparison is unordered
; (t is NaN: kept), so NaN stays NaN; t = -inf gives 0.
define weak_odr hidden <16 x float> @attn_scale_pow2_floor_f32x16(<16 x float> %p, <16 x float> %t) #0 {
  %keep = fcmp uge <16 x float> %t, <float -125.0, float -125.0, float -125.0, float -125.0, float -125.0, float -125.0, float -125.0, float -125.0, float -125.0, float -125.0, float -125.0, float -125.0, float -125.0, float -125.0, float -125.0, float -125.0>
  %mask = bitcast <16 x i1> %keep to i16
  %r = call <16 x float> @llvm.x86.avx512.mask.scalef.ps.512(<16 x float> %p, <16 x float> %t, <16 x float> zeroinitializer, i16 %mask, i32 4)
  ret <16 x float> %r
}

define weak_odr hidden float @attn_scale_pow2_floor_f32(float %p, float %t) #0 {
  %keep = fcmp uge float %t, -125.0
  %vp = insertelement <4 x float> undef, float %p, i64 0
  %vt = insertelement <4 x float> undef, float %t, i64 0
  %r = call <4 x float> @llvm.x86.avx512.mask.scalef.ss(<4 x float> %vp, <4 x float> %vt, <4 x float> zeroinitializer, i8 -1, i32 4)
  %s = extractelement <4 x float> %r, i64 0
  %out = select i1 %keep, float %s, float 0.0
  ret float %out
}

declare <16 x float> @llvm.x86.avx512.mask.reduce.ps.512(<16 x float>, i32 immarg, <16 x float>, i16, i32 immarg) #1
declare <4 x float> @llvm.x86.avx512.mask.reduce.ss(<4 x float>, <4 x float>, <4 x float>, i8, i32 immarg, i32 immarg) #1
declare <16 x float> @llvm.x86.avx512.mask.scalef.ps.512(<16 x float>, <16 x float>, <16 x float>, i16, i32 immarg) #1
declare <4 x float> @llvm.x86.avx512.mask.scalef.ss(<4 x float>, <4 x float>, <4 x float>, i8, i32 immarg) #1

attributes #0 = { alwaysinline nounwind readnone willreturn }
attributes #1 = { nounwind readnone }
