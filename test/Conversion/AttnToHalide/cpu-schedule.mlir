// The CPU schedules, read from the loop nest Halide generates (--emit=stmt) and from the schedule
// log (--emit=schedule).
// RUN: rm -rf %t && mkdir -p %t

// The fused kernel: no buffer of the full [Tq, Tk] scores, only a tile x key block; the key-block loop
// runs inside the query-tile loop, with a bound computed from the causal mask (skipped blocks), and
// the block's scores are computed up to the tile's diagonal only (a bound, not the block's 22 x 12
// keys: the diagonal block is cut).
// RUN: attn-compile %s --entry=fused -o %t/fused --emit=stmt,schedule --target=x86-64-linux-avx-avx2-avx512-avx512_skylake-f16c-fma-sse41 > /dev/null
// RUN: FileCheck %s --check-prefix=FUSED < %t/fused/fused.stmt
// RUN: FileCheck %s --check-prefix=FUSEDLOG < %t/fused/fused.schedule.txt
// FUSED-NOT: allocate {{.*}}2048 * 2048
// FUSED: allocate op0_attention_s[float32 * 32 * {{.*}}min({{.*}}, 256)
// FUSED: allocate op0_attention_p[float32 * 32 *
// FUSED: for (op0_attention_res.s0.op0_attention_r.op0_attention_res_rt,
// FUSED: for (op0_attention_combine.s1.op0_attention_rc$x, 0, t{{[0-9]+}})
// FUSED: for (op0_attention_s.s0.op0_attention_jj.op0_attention_s_jo, 0, t{{[0-9]+}})
// The Q.K^T block: 2 vectors of 16 query rows times broadcast keys.
// FUSED: op0_attention_sacc[ramp(0, 1, 16)] = op0_attention_sacc[ramp(0, 1, 16)] + ({{.*}}x16(
// FUSED: halide_do_par_for
// FUSEDLOG: fused scaled_dot attention]: tiles of 32 query rows, key blocks of 256; parallel over (batch, kv head)
// FUSEDLOG-SAME: Q.K^T register block 2 x 16 rows x 12 keys; P.V register block 4 rows x 4 x 16 values, keys in chunks of 128
func.func @fused(%q: tensor<1x4x2048x64xf32>, %k: tensor<1x4x2048x64xf32>, %v: tensor<1x4x2048x64xf32>) -> tensor<1x4x2048x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v causal align(top_left) {schedule = #attn.schedule<tile_q = 32, block_k = 256, reg_q = 4, reg_k = 12, reg_v = 4, chunk_k = 128, parallel = "heads">} : tensor<1x4x2048x64xf32>, tensor<1x4x2048x64xf32>, tensor<1x4x2048x64xf32> -> tensor<1x4x2048x64xf32>
  return %o : tensor<1x4x2048x64xf32>
}

// The per-op schedules of an unfused chain (--fuse=false keeps it as written): vector loops of the
// target's native width (16 lanes on AVX-512, 8 on AVX2), parallel loops over batch/heads/row tasks,
// register-blocked matmul-shaped stages.
// RUN: attn-compile %s --entry=chain --fuse=false -o %t/avx512 --emit=stmt,schedule --target=x86-64-linux-avx-avx2-avx512-avx512_skylake-f16c-fma-sse41 > /dev/null
// RUN: FileCheck %s --check-prefix=AVX512 < %t/avx512/chain.stmt
// RUN: FileCheck %s --check-prefix=SCHED512 < %t/avx512/chain.schedule.txt
// RUN: not grep -q "x8(" %t/avx512/chain.stmt
// RUN: attn-compile %s --entry=chain --fuse=false -o %t/avx2 --emit=stmt,schedule --target=x86-64-linux-avx-avx2-f16c-fma-sse41 > /dev/null
// RUN: FileCheck %s --check-prefix=AVX2 < %t/avx2/chain.stmt
// RUN: FileCheck %s --check-prefix=SCHED2 < %t/avx2/chain.schedule.txt
// RUN: not grep -q "x16(" %t/avx2/chain.stmt
func.func @chain(%q: tensor<2x4x100x64xf32>, %k: tensor<2x4x77x64xf32>, %v: tensor<2x4x77x64xf32>) -> tensor<2x4x100x64xf32> {
  %s = attn.score scaled_dot %q, %k : tensor<2x4x100x64xf32>, tensor<2x4x77x64xf32> -> tensor<2x4x100x77xf32>
  %m = attn.mask %s causal align(bottom_right) : tensor<2x4x100x77xf32>
  %p = attn.softmax %m : tensor<2x4x100x77xf32>
  %c = attn.weighted_sum %p, %v : tensor<2x4x100x77xf32>, tensor<2x4x77x64xf32> -> tensor<2x4x100x64xf32>
  return %c : tensor<2x4x100x64xf32>
}
// The q.k^T accumulator: a register block of 16-lane vectors, updated with broadcast queries; then one
// parallel loop per op, over tasks fused with the batch and head dims.
// AVX512: op0_score_acc[ramp(0, 1, 16)] = op0_score_acc[ramp(0, 1, 16)] + ({{.*}}x16(
// AVX512: halide_do_par_for({{.*}}op0_score
// AVX512: halide_do_par_for({{.*}}op1_mask
// AVX512: halide_do_par_for({{.*}}op2_softmax
// AVX512: halide_do_par_for({{.*}}op3_weighted_sum
// SCHED512: op0_score [attn.score ({{.*}}), scale * q.k^T]: root; register block 8 rows x 48 (3 x 16 lanes)
// SCHED512-SAME: parallel tasks of 64 rows fused with 2 batch dim(s)
// SCHED512: op2_softmax [attn.softmax ({{.*}}), softmax]: root; max by 16-lane rfactor; sum by 16-lane rfactor; exp per row, vectorized 16 lanes
// SCHED512: op3_weighted_sum [attn.weighted_sum ({{.*}}), p.v]: root; register block 8 rows x 48 (3 x 16 lanes)
// AVX2: op0_score_acc[ramp(0, 1, 8)] = op0_score_acc[ramp(0, 1, 8)] + ({{.*}}x8(
// AVX2: halide_do_par_for({{.*}}op0_score
// SCHED2: register block 4 rows x 24 (3 x 8 lanes)
