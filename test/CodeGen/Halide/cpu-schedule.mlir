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
// FUSED: allocate op0_attention_s[float32 * 32 * (((([[SKEYS:t[0-9]+]] + 31)/12)*12) + 12) *
// FUSED: allocate op0_attention_p[float32 * 32 *
// The tiles are computed straight into the result's buffer (no intermediate of the op's result).
// FUSED-NOT: allocate op0_attention_res
// FUSED: for (result0.s0.result0_d2.result0_rt,
// FUSED: for (op0_attention_combine.s1.op0_attention_rc$x, 0, t{{[0-9]+( \+ 1)?}})
// FUSED: for (op0_attention_s.s0.op0_attention_jj.op0_attention_s_jo, 0, t{{[0-9]+}})
// The Q.K^T block: 2 vectors of 16 query rows times broadcast keys.
// FUSED: op0_attention_sacc[ramp(0, 1, 16)] = op0_attention_sacc[ramp(0, 1, 16)] + ({{.*}}x16(
// The block's row max and row sum (the diagonal block is cut, so they are not taken in groups with
// the scores and probabilities: see fused_groups below): 4 partial results per row (rfactor),
// merged after the block.
// FUSED: allocate op0_attention_mc_intm[float32 * 32 * 1 * 1 * 1 * 1 * 4]
// FUSED: allocate op0_attention_lc_intm[float32 * 32 * 1 * 1 * 1 * 1 * 4]
// The score buffer's keys: up to the last tile's last row (the cut), at most the block's 256 (its 8
// tiles of 32 rows), rounded up to the register block's 12 keys. (The max: the cut keeps at least
// the block's first key, for tiles that see none.)
// FUSED: produce result0 {
// FUSED: let [[LASTTILE:t[0-9]+]] = (result0.extent.1 + -1)/32
// FUSED: let [[CUT:t[0-9]+]] = min([[LASTTILE]], 7)*32
// FUSED: let [[SKEYS]] = max([[CUT]], t{{[0-9]+}})
// FUSED: halide_do_par_for
// The tile's queries: the row count and heads the types declare are constants to the kernel (no
// per-lane division of a row index by a run-time Tq). Blocks of 16 rows x 16 features are read
// along the features (16 dense loads), transposed in registers (4 stages of two-vector shuffles)
// and stored as 16 dense vectors of rows (TransposedStores.cpp), not scattered lane by lane.
// RUN: FileCheck %s --check-prefix=QROWS < %t/fused/fused.stmt
// QROWS: produce op0_attention_qs {
// QROWS: = concat_vectors(arg0[ramp({{[^]]*}}, 1, 16)], arg0[ramp(
// QROWS-COUNT-64: = shuffle(
// QROWS-COUNT-16: op0_attention_qs[ramp({{[^]]*}}, 1, 16)] = t{{[0-9]+$}}
// QROWS-NOT: op0_attention_qs[concat_vectors
// The result: one division per tile row (rowscale), a multiply per element; no division per element.
// RUN: FileCheck %s --check-prefix=NORM < %t/fused/fused.stmt
// NORM: produce op0_attention_rowscale {
// NORM: op0_attention_rowscale[ramp({{.*}} = x16(1.000000f)/op0_attention_combine.2[
// NORM-NOT: op0_attention_combine.0[{{[^]]*}}]{{( if t[0-9]+\))?}}/
// NORM: result0[{{.*}} = select({{.*}}op0_attention_combine.0[{{.*}}*x16(op0_attention_rowscale[
// FUSEDLOG: fused scaled_dot attention]: tiles of 32 query rows, key blocks of 256; computed into result0; parallel over (batch, kv head)
// FUSEDLOG-SAME: Q.K^T register block 2 x 16 rows x 12 keys; P.V register block 4 rows x 4 x 16 values, keys in chunks of 128
func.func @fused(%q: tensor<1x4x2048x64xf32>, %k: tensor<1x4x2048x64xf32>, %v: tensor<1x4x2048x64xf32>) -> tensor<1x4x2048x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v causal align(top_left) {schedule = #attn.schedule<tile_q = 32, block_k = 256, reg_q = 4, reg_k = 12, reg_v = 4, chunk_k = 128, parallel = "heads">} : tensor<1x4x2048x64xf32>, tensor<1x4x2048x64xf32>, tensor<1x4x2048x64xf32> -> tensor<1x4x2048x64xf32>
  return %o : tensor<1x4x2048x64xf32>
}

// Without a cut diagonal block, the block's row max is taken per Q.K^T register block in the loop
// that computes the scores (sb, from the accumulators sacc), and the row sum per 8 probabilities in
// the loop that computes them (pb); the max and the sum reduce the groups (no pass over the block's
// scores or probabilities), in partial results (rfactor: 22 groups of the max in 2, 32 groups of
// the sum in 4, per vector of rows). pb repeats the 8 probabilities' expressions, and LLVM computes
// each exp once: the group loop has 16 of them (8 keys x 2 vectors of rows), not 32 (on AVX-512 an
// exp is one vreduceps and one vscalefps, lowering/TargetMath.h).
// RUN: attn-compile %s --entry=fused_groups -o %t/groups --emit=stmt,schedule,assembly --target=x86-64-linux-avx-avx2-avx512-avx512_skylake-f16c-fma-sse41 > /dev/null
// RUN: FileCheck %s --check-prefix=GROUPS < %t/groups/fused_groups.stmt
// RUN: FileCheck %s --check-prefix=GROUPSLOG < %t/groups/fused_groups.schedule.txt
// RUN: FileCheck %s --check-prefix=GROUPSASM < %t/groups/fused_groups.s
// GROUPS: allocate op0_attention_sb[float32 * 32 * 22 *
// GROUPS: allocate op0_attention_pb[float32 * 32 * 32 *
// GROUPS: produce op0_attention_s {
// GROUPS: produce op0_attention_sb {
// GROUPS: for (op0_attention_s.s0.op0_attention_jj.fused.op0_attention_s_jo, 0, 22) {
// GROUPS: op0_attention_sacc[ramp(0, 1, 16)] = op0_attention_sacc[ramp(0, 1, 16)] + ({{.*}}x16(
// GROUPS: op0_attention_s[ramp({{.*}}] = op0_attention_sacc[ramp(368, 1, 16)]
// GROUPS: op0_attention_sb[ramp({{.*}}] = max(op0_attention_sacc[
// GROUPS: produce op0_attention_mc_intm {
// GROUPS: for (op0_attention_mc_intm.s1.op0_attention_rg$x.op0_attention_mc_jo, 0, 11) {
// GROUPS: op0_attention_mc_intm[ramp(16, 1, 16)] = max(op0_attention_mc_intm[ramp(16, 1, 16)], op0_attention_sb[
// GROUPS: produce op0_attention_mc {
// GROUPS: produce op0_attention_p {
// GROUPS: produce op0_attention_pb {
// GROUPS: for (op0_attention_p.s0.op0_attention_jj.fused.op0_attention_p_gq, 0, 32) {
// GROUPS: op0_attention_pb[ramp(
// GROUPS: produce op0_attention_lc_intm {
// GROUPS: for (op0_attention_lc_intm.s1.op0_attention_rg$x.op0_attention_lc_jo, 0, 8) {
// GROUPS: op0_attention_lc_intm[ramp(112, 1, 16)] = op0_attention_lc_intm[ramp(112, 1, 16)] + op0_attention_pb[
// GROUPS: produce op0_attention_lc {
// GROUPSLOG: Q.K^T register block 2 x 16 rows x 12 keys; the block's row max per register block, with Q.K^T; the row sum per 8 keys, with the probabilities;
// GROUPSASM: # %"for op0_attention_p.s0.op0_attention_jj.fused.op0_attention_p_gq"
// GROUPSASM-COUNT-16: vscalefps
// GROUPSASM-NOT: vscalefps
// GROUPSASM: jne
func.func @fused_groups(%q: tensor<1x4x512x64xf32>, %k: tensor<1x4x512x64xf32>, %v: tensor<1x4x512x64xf32>) -> tensor<1x4x512x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v {schedule = #attn.schedule<tile_q = 32, block_k = 256, reg_q = 4, reg_k = 12, reg_v = 4, chunk_k = 128, parallel = "heads">} : tensor<1x4x512x64xf32>, tensor<1x4x512x64xf32>, tensor<1x4x512x64xf32> -> tensor<1x4x512x64xf32>
  return %o : tensor<1x4x512x64xf32>
}

// One key block (Tk known, at most block_k): the softmax state is the block's own, so there is no
// merge over blocks and no state buffer; the result reads the block's P.V and its row sum (one
// division per row, read densely), and the block's buffers have constant sizes (a tile is one
// `it`: on the heap at sizes known only at run time, they were allocated per tile).
// RUN: attn-compile %s --entry=one_block -o %t/one --emit=stmt,schedule --target=x86-64-linux-avx-avx2-avx512-avx512_skylake-f16c-fma-sse41 > /dev/null
// RUN: FileCheck %s --check-prefix=ONEBLOCK --implicit-check-not=op0_attention_combine < %t/one/one_block.stmt
// RUN: FileCheck %s --check-prefix=ONEBLOCKLOG < %t/one/one_block.schedule.txt
// ONEBLOCK: for (result0.s0.result0_d2.result0_rt,
// ONEBLOCK-NOT: op0_attention_rc
// ONEBLOCK: allocate op0_attention_mc[float32 * 32]
// ONEBLOCK: allocate op0_attention_lc[float32 * 32]
// ONEBLOCK: allocate op0_attention_oc[float32 * 64 * 32 * 1 * 1 * 1 * 1]
// ONEBLOCK: op0_attention_rowscale[ramp({{.*}} = x16(1.000000f)/op0_attention_lc[ramp(
// ONEBLOCK: result0[{{.*}} = select({{.*}}op0_attention_lc[{{.*}}op0_attention_oc[{{.*}}*x16(op0_attention_rowscale[
// ONEBLOCKLOG: tiles of 32 query rows, key blocks of 256; computed into result0; {{.*}}; one key block: the result reads its P.V and row sum;
func.func @one_block(%q: tensor<1x2x256x64xf32>, %k: tensor<1x2x256x64xf32>, %v: tensor<1x2x256x64xf32>) -> tensor<1x2x256x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v {schedule = #attn.schedule<tile_q = 32, block_k = 256, reg_q = 4, reg_k = 8, reg_v = 4, chunk_k = 128, parallel = "heads">} : tensor<1x2x256x64xf32>, tensor<1x2x256x64xf32>, tensor<1x2x256x64xf32> -> tensor<1x2x256x64xf32>
  return %o : tensor<1x2x256x64xf32>
}

// A hand-written block_k above a static key count (1024 over 512 keys) is one block of the keys:
// the scores, probabilities and P.V of keys past Tk are not computed (43 register blocks of 12
// keys, not 86; computed and masked one by one, they had taken 2.0x the time).
// RUN: attn-compile %s --entry=block_past_keys -o %t/past --emit=stmt,schedule --target=x86-64-linux-avx-avx2-avx512-avx512_skylake-f16c-fma-sse41 > /dev/null
// RUN: FileCheck %s --check-prefix=PASTKEYS < %t/past/block_past_keys.stmt
// RUN: FileCheck %s --check-prefix=PASTKEYSLOG < %t/past/block_past_keys.schedule.txt
// PASTKEYS: allocate op0_attention_p[float32 * 32 * 512 *
// PASTKEYS: for (op0_attention_s.s0.op0_attention_jj.fused.op0_attention_s_jo, 0, 43) {
// PASTKEYS: for (op0_attention_oc.s1.op0_attention_rj$x.op0_attention_oc_jc, 0, 4) {
// PASTKEYSLOG: tiles of 32 query rows, key blocks of 512; {{.*}}; one key block: the result reads its P.V and row sum;
func.func @block_past_keys(%q: tensor<1x2x512x64xf32>, %k: tensor<1x2x512x64xf32>, %v: tensor<1x2x512x64xf32>) -> tensor<1x2x512x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v {schedule = #attn.schedule<tile_q = 32, block_k = 1024, reg_q = 4, reg_k = 12, reg_v = 4, chunk_k = 128, parallel = "heads">} : tensor<1x2x512x64xf32>, tensor<1x2x512x64xf32>, tensor<1x2x512x64xf32> -> tensor<1x2x512x64xf32>
  return %o : tensor<1x2x512x64xf32>
}

// A hand-written tile_q that is not whole vectors of rows (24 with 16 lanes) is rounded up to them
// (kernel::cpuTileRows): the register blocks cover whole vectors, and with tiles of 24 rows they
// needed 32 rows of a 24-row block (the kernel failed at run time; the results are checked in
// test/Integration/fused-schedules.mlir, @tile_rows_past_vector).
// RUN: attn-compile %s --entry=tile_rows_past_vector -o %t/tilerows --emit=schedule --target=x86-64-linux-avx-avx2-avx512-avx512_skylake-f16c-fma-sse41 > /dev/null
// RUN: FileCheck %s --check-prefix=TILEROWSLOG < %t/tilerows/tile_rows_past_vector.schedule.txt
// TILEROWSLOG: tiles of 32 query rows, key blocks of 64;
func.func @tile_rows_past_vector(%q: tensor<1x2x100x64xf32>, %k: tensor<1x2x64x64xf32>, %v: tensor<1x2x64x64xf32>) -> tensor<1x2x100x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v {schedule = #attn.schedule<tile_q = 24, block_k = 64, vector = 16>} : tensor<1x2x100x64xf32>, tensor<1x2x64x64xf32>, tensor<1x2x64x64xf32> -> tensor<1x2x100x64xf32>
  return %o : tensor<1x2x100x64xf32>
}

// A tile of more rows than a Q.K^T register block holds (AVX2, 64 rows = 8 vectors): blocks of 2
// vectors x 6 keys, looped over the tile's 4 row blocks inside each group of keys, the block max of
// each row block computed in its loop from the accumulators.
// RUN: attn-compile %s --entry=row_blocks -o %t/rows --emit=stmt,schedule --target=x86-64-linux-avx-avx2-f16c-fma-sse41 > /dev/null
// RUN: FileCheck %s --check-prefix=ROWBLOCKS < %t/rows/row_blocks.stmt
// RUN: FileCheck %s --check-prefix=ROWBLOCKSLOG < %t/rows/row_blocks.schedule.txt
// ROWBLOCKS: for (op0_attention_s.s0.op0_attention_jj.fused.op0_attention_s_jo, 0, 43) {
// ROWBLOCKS: for (op0_attention_s.s0.op0_attention_ii.fused.op0_attention_s_io, 0, 4) {
// ROWBLOCKS: produce op0_attention_sacc {
// ROWBLOCKS: op0_attention_sb[ramp({{.*}}op0_attention_s_io{{.*}} = max(op0_attention_sacc[
// ROWBLOCKS: produce op0_attention_mc {
// ROWBLOCKSLOG: tiles of 64 query rows, key blocks of 256;
// ROWBLOCKSLOG-SAME: Q.K^T register block 2 x 8 rows x 6 keys (4 per tile); the block's row max per register block, with Q.K^T;
func.func @row_blocks(%q: tensor<1x2x256x64xf32>, %k: tensor<1x2x256x64xf32>, %v: tensor<1x2x256x64xf32>) -> tensor<1x2x256x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v {schedule = #attn.schedule<tile_q = 64, block_k = 256, reg_q = 6, reg_k = 6, reg_v = 2>} : tensor<1x2x256x64xf32>, tensor<1x2x256x64xf32>, tensor<1x2x256x64xf32> -> tensor<1x2x256x64xf32>
  return %o : tensor<1x2x256x64xf32>
}

// Decode (one query row, keys in the lanes): the query keeps its features innermost, so the dot
// products' vectors along the features read it densely (stored rows-innermost and rounded up to a
// vector of rows, it was read at a stride of one vector: a gather). P.V's value blocks cover
// Dv = 64 exactly: V is read in place, not copied per key block (decode reads it once), under a
// specialization on the declared Dv, so its vectors are dense loads, not clamped per lane (V is arg2).
// RUN: attn-compile %s --entry=decode -o %t/decode --emit=stmt,schedule --target=x86-64-linux-avx-avx2-f16c-fma-sse41 > /dev/null
// RUN: FileCheck %s --check-prefix=DECODEV --implicit-check-not='arg2[min(ramp' < %t/decode/decode.stmt
// DECODEV: produce op0_attention_oc {
// DECODEV: arg2[ramp(
// RUN: FileCheck %s --check-prefix=DECODE < %t/decode/decode.stmt
// RUN: FileCheck %s --check-prefix=DECODELOG < %t/decode/decode.schedule.txt
// DECODE-NOT: op0_attention_v_in
// DECODE: produce op0_attention_sacc_intm {
// DECODE-NOT: op0_attention_qs[ramp({{[^]]*}}, 8, 8)
// DECODE: op0_attention_qs[ramp(op0_attention_sacc_intm.s1.op0_attention_rd$x.op0_attention_sacc_rdo*8, 1, 8)
// DECODE-NOT: op0_attention_qs[ramp({{[^]]*}}, 8, 8)
// DECODE: consume op0_attention_sacc_intm {
// DECODE-NOT: op0_attention_v_in
// DECODELOG: decode: keys in 8 lanes, dot products vectorized along the feature dim; V read in place (specialized on the declared Dv);
// Dv = 40 is five vectors: the blocks of four run past it, so V is copied per key block (read in
// place, the clamp of the value index would be a gather).
// RUN: attn-compile %s --entry=decode_dv_tail -o %t/decode_tail --emit=stmt,schedule --target=x86-64-linux-avx-avx2-f16c-fma-sse41 > /dev/null
// RUN: FileCheck %s --check-prefix=DECODETAIL < %t/decode_tail/decode_dv_tail.stmt
// RUN: FileCheck %s --check-prefix=DECODETAILLOG < %t/decode_tail/decode_dv_tail.schedule.txt
// DECODETAIL: produce op0_attention_v_in_op0_attention_oc
// DECODETAIL: produce op0_attention_oc {
// DECODETAILLOG: V copied per key block (its value blocks run past Dv);
func.func @decode(%q: tensor<2x8x1x64xf32>, %k: tensor<2x8x512x64xf32>, %v: tensor<2x8x512x64xf32>) -> tensor<2x8x1x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<2x8x1x64xf32>, tensor<2x8x512x64xf32>, tensor<2x8x512x64xf32> -> tensor<2x8x1x64xf32>
  return %o : tensor<2x8x1x64xf32>
}

func.func @decode_dv_tail(%q: tensor<2x8x1x64xf32>, %k: tensor<2x8x512x64xf32>, %v: tensor<2x8x512x40xf32>) -> tensor<2x8x1x40xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<2x8x1x64xf32>, tensor<2x8x512x64xf32>, tensor<2x8x512x40xf32> -> tensor<2x8x1x40xf32>
  return %o : tensor<2x8x1x40xf32>
}

// A fused kernel whose result has a second reader keeps its own result buffer: computed into one of
// its readers, it would be computed again for the other.
// RUN: attn-compile %s --entry=read_twice -o %t/twice --emit=schedule --target=x86-64-linux-avx-avx2-avx512-avx512_skylake-f16c-fma-sse41 > /dev/null
// RUN: FileCheck %s --check-prefix=TWICE < %t/twice/read_twice.schedule.txt
// TWICE: fused scaled_dot attention]: tiles of
// TWICE-NOT: computed into
// TWICE: result0 [output, result]: root
// TWICE: result1 [output, result]: root
func.func @read_twice(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) -> (tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>) {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o, %o : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>
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
// SCHED512: op3_weighted_sum [attn.weighted_sum ({{.*}}), p.v]: root; register block 8 rows x 32 (2 x 16 lanes)
// AVX2: op0_score_acc[ramp(0, 1, 8)] = op0_score_acc[ramp(0, 1, 8)] + ({{.*}}x8(
// AVX2: halide_do_par_for({{.*}}op0_score
// SCHED2: register block 4 rows x 24 (3 x 8 lanes)

// Groups of query tiles (group_q): the key-block loop runs outside the group's tiles, the tiles'
// loop inside it, and a block's scores are computed per (tile, block); the parallel loop is over
// groups, and the group's online-softmax state spans its 4 tiles.
// RUN: attn-compile %s --entry=tile_groups -o %t/tilegroups --emit=stmt,schedule --target=x86-64-linux-avx-avx2-avx512-avx512_skylake-f16c-fma-sse41 > /dev/null
// RUN: FileCheck %s --check-prefix=TILEGROUPS < %t/tilegroups/tile_groups.stmt
// RUN: FileCheck %s --check-prefix=TILEGROUPSLOG < %t/tilegroups/tile_groups.schedule.txt
func.func @tile_groups(%q: tensor<1x2x512x64xf32>, %k: tensor<1x2x1024x64xf32>, %v: tensor<1x2x1024x64xf32>) -> tensor<1x2x512x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v {schedule = #attn.schedule<tile_q = 32, block_k = 256, group_q = 4, parallel = "tiles">} : tensor<1x2x512x64xf32>, tensor<1x2x1024x64xf32>, tensor<1x2x1024x64xf32> -> tensor<1x2x512x64xf32>
  return %o : tensor<1x2x512x64xf32>
}
// TILEGROUPS-NOT: allocate {{.*}}512 * 1024
// TILEGROUPS: allocate op0_attention_combine.0[float32 * {{.*}} * 32 * {{.*}}op0_attention_it.extent_realized
// TILEGROUPS: for (op0_attention_combine.s1.op0_attention_rc$x, 0, 4)
// TILEGROUPS: for (op0_attention_combine.s1.op0_attention_it.rebased,
// TILEGROUPS-NEXT: allocate op0_attention_s[float32 * 32 * 264 *
// TILEGROUPS: halide_do_par_for({{.*}}result0_tg
// TILEGROUPSLOG: tiles of 32 query rows, key blocks of 256; groups of 4 tiles take each key block in turn
