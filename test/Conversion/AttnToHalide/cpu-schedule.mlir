// The default CPU schedule, read from the loop nest Halide generates: vector loops of the target's
// native f32 width (16 lanes on AVX-512, 8 on AVX2), parallel loops over batch/heads/query tiles, and
// register-blocked matmul-shaped stages.
// RUN: rm -rf %t && mkdir -p %t
// RUN: attn-compile %s -o %t/avx512 --emit=stmt,schedule --target=x86-64-linux-avx-avx2-avx512-avx512_skylake-f16c-fma-sse41 > /dev/null
// RUN: FileCheck %s --check-prefix=AVX512 < %t/avx512/attention.stmt
// RUN: FileCheck %s --check-prefix=SCHED512 < %t/avx512/attention.schedule.txt
// RUN: attn-compile %s -o %t/avx2 --emit=stmt,schedule --target=x86-64-linux-avx-avx2-f16c-fma-sse41 > /dev/null
// RUN: FileCheck %s --check-prefix=AVX2 < %t/avx2/attention.stmt
// RUN: FileCheck %s --check-prefix=SCHED2 < %t/avx2/attention.schedule.txt

func.func @attention(%q: tensor<2x4x100x64xf32>, %k: tensor<2x4x77x64xf32>, %v: tensor<2x4x77x64xf32>) -> tensor<2x4x100x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v causal align(bottom_right) : tensor<2x4x100x64xf32>, tensor<2x4x77x64xf32>, tensor<2x4x77x64xf32> -> tensor<2x4x100x64xf32>
  return %o : tensor<2x4x100x64xf32>
}

// Parallel loops, one per op stage, each over tasks fused with the batch and head dims; the stage
// bodies come first, then the calls that run them.
// The q.k^T accumulator: a register block of 16-lane vectors, updated with broadcast queries.
// AVX512: op0_attention_score_acc[ramp(0, 1, 16)] = op0_attention_score_acc[ramp(0, 1, 16)] + ({{.*}}x16(
// AVX512: halide_do_par_for({{.*}}op0_attention_score
// AVX512: halide_do_par_for({{.*}}op0_attention_mask
// AVX512: halide_do_par_for({{.*}}op0_attention_softmax
// AVX512: halide_do_par_for({{.*}}op0_attention_s0
// The AVX2 width never appears in the AVX-512 kernel (checked separately below for AVX2).
// RUN: not grep -q "x8(" %t/avx512/attention.stmt

// SCHED512: op0_attention_score [attn.attention ({{.*}}), scale * q.k^T]: root; register block 8 rows x 48 (3 x 16 lanes)
// SCHED512-SAME: parallel tasks of 64 rows fused with 2 batch dim(s)
// SCHED512: op0_attention [attn.attention ({{.*}}), p.v]: root; register block 8 rows x 48 (3 x 16 lanes)
// SCHED512: softmax]: root; max by 16-lane rfactor; sum by 16-lane rfactor; exp per row, vectorized 16 lanes

// RUN: not grep -q "x16(" %t/avx2/attention.stmt
// AVX2: op0_attention_score_acc[ramp(0, 1, 8)] = op0_attention_score_acc[ramp(0, 1, 8)] + ({{.*}}x8(
// AVX2: halide_do_par_for({{.*}}op0_attention_score
// SCHED2: register block 4 rows x 24 (3 x 8 lanes)
