// The fused attention kernel under hand-written #attn.schedule overrides, at awkward sizes (Tq = 37,
// Tk = 53, D = 24 / Dv = 20), against the reference: every schedule computes the same result.
// RUN: attn-run %s --entry=default_tiles --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=small_blocks_causal --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=wide_tiles_window --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=wide_tiles_causal_window --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=window_ragged_reg_q --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=wide_tiles_causal --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=window_heuristic --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=parallel_tiles --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=split_k_decode --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=decode_heads_one_block --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=decode_heads_one_block --random-inputs --check --target=x86-64-linux-avx-avx2-f16c-fma-sse41 | FileCheck %s
// RUN: attn-run %s --entry=keys_in_lanes_gqa --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=register_shapes --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=additive_blocks --random-inputs --seed=3 --check | FileCheck %s
// RUN: attn-run %s --entry=lengths_skip --random-inputs --seed=4 --check | FileCheck %s
// RUN: attn-run %s --entry=avx2_width --random-inputs --target=x86-64-linux-avx-avx2-f16c-fma-sse41 --check | FileCheck %s
// RUN: attn-run %s --entry=avx2_value_blocks --random-inputs --target=x86-64-linux-avx-avx2-f16c-fma-sse41 --check | FileCheck %s
// RUN: attn-run %s --entry=avx2_pv_blocks --random-inputs --seed=8 --target=x86-64-linux-avx-avx2-f16c-fma-sse41 --check | FileCheck %s
// RUN: attn-opt %s --attn-attach-target="target=x86-64-linux-avx-avx2-f16c-fma-sse41" --attn-select-schedule | FileCheck %s --check-prefix=AVX2-PV
// RUN: attn-run %s --entry=avx2_row_blocks --random-inputs --seed=9 --target=x86-64-linux-avx-avx2-f16c-fma-sse41 --check | FileCheck %s
// RUN: attn-run %s --entry=avx2_row_blocks --random-inputs --seed=9 --check | FileCheck %s
// RUN: attn-run %s --entry=transposed_query_tiles --random-inputs --seed=7 --check | FileCheck %s
// RUN: attn-run %s --entry=transposed_query_tiles --random-inputs --seed=7 --target=x86-64-linux-avx-avx2-f16c-fma-sse41 --check | FileCheck %s
// RUN: attn-run %s --entry=grouped_gqa_causal --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=grouped_float_mask --random-inputs --seed=5 --check | FileCheck %s
// RUN: attn-run %s --entry=grouped_bool_mask --random-inputs --seed=6 --check | FileCheck %s
// RUN: attn-run %s --entry=causal_no_batch --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=tile_rows_past_vector --random-inputs --seed=10 --check | FileCheck %s
// RUN: attn-run %s --entry=tile_rows_past_vector --random-inputs --seed=10 --check --target=x86-64-linux-avx-avx2-f16c-fma-sse41 | FileCheck %s
// RUN: attn-run %s --entry=additive_causal_no_batch --random-inputs --seed=11 --check | FileCheck %s
// RUN: attn-run %s --entry=mask_two_rows --random-inputs --seed=13 --check | FileCheck %s
// RUN: attn-run %s --entry=tiles_without_keys --random-inputs --seed=14 --check | FileCheck %s
// RUN: attn-run %s --entry=additive_split_k_no_batch --random-inputs --seed=12 --check --target=x86-64-linux-avx-avx2-f16c-fma-sse41 | FileCheck %s
// RUN: attn-run %s --entry=one_tile_per_task --random-inputs --check --threads=1 | FileCheck %s
// RUN: attn-run %s --entry=gqa_causal_select_blocks --random-inputs --seed=248 --check --threads=2 | FileCheck %s
// RUN: attn-run %s --entry=split_k_tall_tile --random-inputs --seed=61 --check | FileCheck %s
// CHECK: check result #0 {{.*}}: ok

func.func @default_tiles(%q: tensor<2x3x37x24xf32>, %k: tensor<2x3x53x24xf32>, %v: tensor<2x3x53x20xf32>) -> tensor<2x3x37x20xf32> {
  %o = attn.attention scaled_dot %q, %k, %v {schedule = #attn.schedule<>} : tensor<2x3x37x24xf32>, tensor<2x3x53x24xf32>, tensor<2x3x53x20xf32> -> tensor<2x3x37x20xf32>
  return %o : tensor<2x3x37x20xf32>
}
func.func @small_blocks_causal(%q: tensor<2x3x37x24xf32>, %k: tensor<2x3x53x24xf32>, %v: tensor<2x3x53x20xf32>) -> tensor<2x3x37x20xf32> {
  %o = attn.attention scaled_dot %q, %k, %v causal align(bottom_right) {schedule = #attn.schedule<tile_q = 16, block_k = 16, chunk_k = 8>} : tensor<2x3x37x24xf32>, tensor<2x3x53x24xf32>, tensor<2x3x53x20xf32> -> tensor<2x3x37x20xf32>
  return %o : tensor<2x3x37x20xf32>
}
func.func @wide_tiles_window(%q: tensor<2x3x37x24xf32>, %k: tensor<2x3x53x24xf32>, %v: tensor<2x3x53x20xf32>) -> tensor<2x3x37x20xf32> {
  %o = attn.attention scaled_dot %q, %k, %v window(7) align(top_left) {schedule = #attn.schedule<tile_q = 48, block_k = 32, reg_k = 8, reg_q = 6>} : tensor<2x3x37x24xf32>, tensor<2x3x53x24xf32>, tensor<2x3x53x20xf32> -> tensor<2x3x37x20xf32>
  return %o : tensor<2x3x37x20xf32>
}
// The causal diagonal block is cut after the tile's last row; with a window the first block a tile
// visits varies (its block buffers are not folded); reg_q = 6 does not divide tile_q = 16.
func.func @wide_tiles_causal_window(%q: tensor<2x3x37x24xf32>, %k: tensor<2x3x53x24xf32>, %v: tensor<2x3x53x20xf32>) -> tensor<2x3x37x20xf32> {
  %o = attn.attention scaled_dot %q, %k, %v causal window(7) align(top_left) {schedule = #attn.schedule<tile_q = 48, block_k = 32, reg_k = 8, reg_q = 6>} : tensor<2x3x37x24xf32>, tensor<2x3x53x24xf32>, tensor<2x3x53x20xf32> -> tensor<2x3x37x20xf32>
  return %o : tensor<2x3x37x20xf32>
}
func.func @window_ragged_reg_q(%q: tensor<2x3x37x24xf32>, %k: tensor<2x3x53x24xf32>, %v: tensor<2x3x53x20xf32>) -> tensor<2x3x37x20xf32> {
  %o = attn.attention scaled_dot %q, %k, %v window(7) align(top_left) {schedule = #attn.schedule<tile_q = 16, block_k = 16, reg_k = 8, reg_q = 6>} : tensor<2x3x37x24xf32>, tensor<2x3x53x24xf32>, tensor<2x3x53x20xf32> -> tensor<2x3x37x20xf32>
  return %o : tensor<2x3x37x20xf32>
}
func.func @wide_tiles_causal(%q: tensor<2x3x37x24xf32>, %k: tensor<2x3x53x24xf32>, %v: tensor<2x3x53x20xf32>) -> tensor<2x3x37x20xf32> {
  %o = attn.attention scaled_dot %q, %k, %v causal align(bottom_right) {schedule = #attn.schedule<tile_q = 32, block_k = 32, reg_k = 8, reg_q = 4>} : tensor<2x3x37x24xf32>, tensor<2x3x53x24xf32>, tensor<2x3x53x20xf32> -> tensor<2x3x37x20xf32>
  return %o : tensor<2x3x37x20xf32>
}
// A window with the heuristic's schedule and more (batch, head) tasks than threads: block buffers
// folded over the key blocks failed Halide's fold check at run time ("accessed out of order").
func.func @window_heuristic(%q: tensor<1x4x300x16xf32>, %k: tensor<1x4x300x16xf32>, %v: tensor<1x4x300x16xf32>) -> tensor<1x4x300x16xf32> {
  %o = attn.attention scaled_dot %q, %k, %v window(64) align(bottom_right) : tensor<1x4x300x16xf32>, tensor<1x4x300x16xf32>, tensor<1x4x300x16xf32> -> tensor<1x4x300x16xf32>
  return %o : tensor<1x4x300x16xf32>
}
func.func @parallel_tiles(%q: tensor<37x24xf32>, %k: tensor<53x24xf32>, %v: tensor<53x20xf32>) -> tensor<37x20xf32> {
  %o = attn.attention dot %q, %k, %v causal align(top_left) {schedule = #attn.schedule<tile_q = 16, block_k = 32, parallel = "tiles">} : tensor<37x24xf32>, tensor<53x24xf32>, tensor<53x20xf32> -> tensor<37x20xf32>
  return %o : tensor<37x20xf32>
}
// Decode with a task per (batch, kv head) and one block of all the keys (the tuner's pick for B = 8
// H = 8 Tk = 2048 on two threads): with the tile buffers hoisted out of the tile loop, Halide's
// sliding window left the only tile's queries and scores uncomputed (NaN and garbage results).
func.func @decode_heads_one_block(%q: tensor<2x3x1x64xf32>, %k: tensor<2x3x256x64xf32>, %v: tensor<2x3x256x64xf32>) -> tensor<2x3x1x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v {schedule = #attn.schedule<tile_q = 1, block_k = 256, reg_q = 1, reg_k = 16, reg_v = 4, chunk_k = 64, parallel = "heads">} : tensor<2x3x1x64xf32>, tensor<2x3x256x64xf32>, tensor<2x3x256x64xf32> -> tensor<2x3x1x64xf32>
  return %o : tensor<2x3x1x64xf32>
}

func.func @split_k_decode(%q: tensor<1x1x1x24xf32>, %k: tensor<1x1x53x24xf32>, %v: tensor<1x1x53x20xf32>) -> tensor<1x1x1x20xf32> {
  %o = attn.attention scaled_dot %q, %k, %v causal align(bottom_right) {schedule = #attn.schedule<tile_q = 1, block_k = 16, split_k = 1>} : tensor<1x1x1x24xf32>, tensor<1x1x53x24xf32>, tensor<1x1x53x20xf32> -> tensor<1x1x1x20xf32>
  return %o : tensor<1x1x1x20xf32>
}
func.func @keys_in_lanes_gqa(%q: tensor<2x6x1x24xf32>, %k: tensor<2x2x53x24xf32>, %v: tensor<2x2x53x20xf32>) -> tensor<2x6x1x20xf32> {
  %o = attn.attention scaled_dot %q, %k, %v {schedule = #attn.schedule<tile_q = 3, block_k = 32>} : tensor<2x6x1x24xf32>, tensor<2x2x53x24xf32>, tensor<2x2x53x20xf32> -> tensor<2x6x1x20xf32>
  return %o : tensor<2x6x1x20xf32>
}
func.func @register_shapes(%q: tensor<1x2x37x64xf32>, %k: tensor<1x2x53x64xf32>, %v: tensor<1x2x53x64xf32>) -> tensor<1x2x37x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v {schedule = #attn.schedule<tile_q = 32, block_k = 64, reg_q = 2, reg_k = 6, reg_v = 2, chunk_k = 16>} : tensor<1x2x37x64xf32>, tensor<1x2x53x64xf32>, tensor<1x2x53x64xf32> -> tensor<1x2x37x64xf32>
  return %o : tensor<1x2x37x64xf32>
}
func.func @additive_blocks(%q: tensor<2x37x7xf32>, %k: tensor<2x53x5xf32>, %v: tensor<2x53x20xf32>, %wa: tensor<9x12xf32>, %va: tensor<9xf32>) -> tensor<2x37x20xf32> {
  %o = attn.attention additive %q, %k, %v weight(%wa : tensor<9x12xf32>) vec(%va : tensor<9xf32>) causal align(top_left) {schedule = #attn.schedule<tile_q = 16, block_k = 16, reg_k = 4>} : tensor<2x37x7xf32>, tensor<2x53x5xf32>, tensor<2x53x20xf32> -> tensor<2x37x20xf32>
  return %o : tensor<2x37x20xf32>
}
func.func @lengths_skip(%q: tensor<3x2x37x24xf32>, %k: tensor<3x2x53x24xf32>, %v: tensor<3x2x53x20xf32>, %len: tensor<3xi32>) -> tensor<3x2x37x20xf32> {
  %o = attn.attention scaled_dot %q, %k, %v key_lengths(%len : tensor<3xi32>) {schedule = #attn.schedule<block_k = 16>} : tensor<3x2x37x24xf32>, tensor<3x2x53x24xf32>, tensor<3x2x53x20xf32> -> tensor<3x2x37x20xf32>
  return %o : tensor<3x2x37x20xf32>
}
// Dv = 40 on AVX2: 5 vectors of 8, P.V register blocks of 4 vectors (32 values) cover 64; the
// staged V and the block's P.V are bounded to the blocks' 64, not to Dv (a run-time bounds error).
func.func @avx2_value_blocks(%q: tensor<2x3x37x64xf32>, %k: tensor<2x3x45x64xf32>, %v: tensor<2x3x45x40xf32>) -> tensor<2x3x37x40xf32> {
  %o = attn.attention scaled_dot %q, %k, %v causal align(bottom_right) : tensor<2x3x37x64xf32>, tensor<2x3x45x64xf32>, tensor<2x3x45x40xf32> -> tensor<2x3x37x40xf32>
  return %o : tensor<2x3x37x40xf32>
}
// Query tiles read along 32 features and written transposed in registers (the feature count a
// multiple of the vector: TransposedStores.cpp), a tail tile of 5 rows, 3 heads per kv head.
func.func @transposed_query_tiles(%q: tensor<2x6x37x32xf32>, %k: tensor<2x2x29x32xf32>, %v: tensor<2x2x29x16xf32>) -> tensor<2x6x37x16xf32> {
  %o = attn.attention scaled_dot %q, %k, %v {schedule = #attn.schedule<tile_q = 32, block_k = 16>} : tensor<2x6x37x32xf32>, tensor<2x2x29x32xf32>, tensor<2x2x29x16xf32> -> tensor<2x6x37x16xf32>
  return %o : tensor<2x6x37x16xf32>
}
// AVX2's heuristic P.V blocks of 6 rows x 2 vectors: a 16-row tile in blocks of 6, 6 and 4 (the
// last guarded), 37 rows (a tail tile of 5), Dv = 64 in 4 value blocks of 2 vectors, causal.
// AVX2-PV-LABEL: func @avx2_pv_blocks
// AVX2-PV: reg_q = 6, reg_k = 6, reg_v = 2,
func.func @avx2_pv_blocks(%q: tensor<2x3x37x64xf32>, %k: tensor<2x3x45x64xf32>, %v: tensor<2x3x45x64xf32>) -> tensor<2x3x37x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v causal align(bottom_right) : tensor<2x3x37x64xf32>, tensor<2x3x45x64xf32>, tensor<2x3x45x64xf32> -> tensor<2x3x37x64xf32>
  return %o : tensor<2x3x37x64xf32>
}
// Tiles of 64 rows: Q.K^T register blocks of two vectors, looped over the tile's row blocks (4 on
// AVX2, 2 on AVX-512) with the block max computed per row block; 77 rows (a tail tile of 13),
// causal, key blocks of 32 with a tail.
func.func @avx2_row_blocks(%q: tensor<1x2x77x64xf32>, %k: tensor<1x2x93x64xf32>, %v: tensor<1x2x93x64xf32>) -> tensor<1x2x77x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v causal align(bottom_right) {schedule = #attn.schedule<tile_q = 64, block_k = 32, reg_q = 6, reg_k = 6, reg_v = 2, chunk_k = 16>} : tensor<1x2x77x64xf32>, tensor<1x2x93x64xf32>, tensor<1x2x93x64xf32> -> tensor<1x2x77x64xf32>
  return %o : tensor<1x2x77x64xf32>
}
func.func @avx2_width(%q: tensor<1x2x37x24xf32>, %k: tensor<1x2x53x24xf32>, %v: tensor<1x2x53x20xf32>) -> tensor<1x2x37x20xf32> {
  %o = attn.attention scaled_dot %q, %k, %v causal align(top_left) : tensor<1x2x37x24xf32>, tensor<1x2x53x24xf32>, tensor<1x2x53x20xf32> -> tensor<1x2x37x20xf32>
  return %o : tensor<1x2x37x20xf32>
}
// The block's max per Q.K^T register block and its sum per 8 probabilities (FusedAttention.cpp's
// groups, not in a cut diagonal block): blocks of 16 or 32 keys are not multiples of reg_k = 12, so
// the last group of a block reads the next block's keys (masked one by one: GQA causal, whose
// diagonal block is not cut; a float mask; a boolean one), and the last block's groups run past
// Tk = 53 (clamped reads of K).
func.func @grouped_gqa_causal(%q: tensor<2x4x37x24xf32>, %k: tensor<2x2x53x24xf32>, %v: tensor<2x2x53x20xf32>) -> tensor<2x4x37x20xf32> {
  %o = attn.attention scaled_dot %q, %k, %v causal align(bottom_right) {schedule = #attn.schedule<tile_q = 32, block_k = 32, reg_k = 12>} : tensor<2x4x37x24xf32>, tensor<2x2x53x24xf32>, tensor<2x2x53x20xf32> -> tensor<2x4x37x20xf32>
  return %o : tensor<2x4x37x20xf32>
}
func.func @grouped_float_mask(%q: tensor<1x2x37x24xf32>, %k: tensor<1x2x53x24xf32>, %v: tensor<1x2x53x20xf32>, %bias: tensor<37x53xf32>) -> tensor<1x2x37x20xf32> {
  %o = attn.attention scaled_dot %q, %k, %v mask(%bias : tensor<37x53xf32>) {schedule = #attn.schedule<tile_q = 16, block_k = 16, reg_k = 12>} : tensor<1x2x37x24xf32>, tensor<1x2x53x24xf32>, tensor<1x2x53x20xf32> -> tensor<1x2x37x20xf32>
  return %o : tensor<1x2x37x20xf32>
}
func.func @grouped_bool_mask(%q: tensor<1x2x37x24xf32>, %k: tensor<1x2x53x24xf32>, %v: tensor<1x2x53x20xf32>, %keep: tensor<1x1x37x53xi1>) -> tensor<1x2x37x20xf32> {
  %o = attn.attention scaled_dot %q, %k, %v mask(%keep : tensor<1x1x37x53xi1>) {schedule = #attn.schedule<tile_q = 32, block_k = 32, reg_k = 12, chunk_k = 8>} : tensor<1x2x37x24xf32>, tensor<1x2x53x24xf32>, tensor<1x2x53x20xf32> -> tensor<1x2x37x20xf32>
  return %o : tensor<1x2x37x20xf32>
}
// Additive scores in their split form (AVX2's 8 lanes: tanh(a + b) from e^{2a} and e^{2b} / m), in
// the decode schedule (split-K, the score's rfactor specialized) and with GQA and a causal mask.
// RUN: attn-run %s --entry=avx2_additive_decode --random-inputs --seed=10 --target=x86-64-linux-avx-avx2-f16c-fma-sse41 --check | FileCheck %s
// RUN: attn-run %s --entry=avx2_additive_gqa_causal --random-inputs --seed=11 --target=x86-64-linux-avx-avx2-f16c-fma-sse41 --check | FileCheck %s
func.func @avx2_additive_decode(%q: tensor<2x4x1x64xf32>, %k: tensor<2x4x300x64xf32>, %v: tensor<2x4x300x64xf32>, %wa: tensor<48x128xf32>, %va: tensor<48xf32>) -> tensor<2x4x1x64xf32> {
  %o = attn.attention additive %q, %k, %v weight(%wa : tensor<48x128xf32>) vec(%va : tensor<48xf32>) : tensor<2x4x1x64xf32>, tensor<2x4x300x64xf32>, tensor<2x4x300x64xf32> -> tensor<2x4x1x64xf32>
  return %o : tensor<2x4x1x64xf32>
}
func.func @avx2_additive_gqa_causal(%q: tensor<2x8x37x40xf32>, %k: tensor<2x2x37x40xf32>, %v: tensor<2x2x37x24xf32>, %wa: tensor<20x80xf32>, %va: tensor<20xf32>) -> tensor<2x8x37x24xf32> {
  %o = attn.attention additive %q, %k, %v weight(%wa : tensor<20x80xf32>) vec(%va : tensor<20xf32>) causal align(top_left) : tensor<2x8x37x40xf32>, tensor<2x2x37x40xf32>, tensor<2x2x37x24xf32> -> tensor<2x8x37x24xf32>
  return %o : tensor<2x8x37x24xf32>
}

// Groups of query tiles taking each key block in turn (group_q): tile counts that the group does
// not divide (Tq = 77: 5 tiles of 16), key blocks with a tail (Tk = 93 in blocks of 16), per head
// and per tile, with causal and window masks (blocks skipped per tile inside a group), GQA and key
// lengths; on AVX2 too.
// RUN: attn-run %s --entry=tile_groups_heads --random-inputs --seed=12 --check | FileCheck %s
// RUN: attn-run %s --entry=tile_groups_heads --random-inputs --seed=12 --target=x86-64-linux-avx-avx2-f16c-fma-sse41 --check | FileCheck %s
// RUN: attn-run %s --entry=tile_groups_causal --random-inputs --seed=13 --check | FileCheck %s
// RUN: attn-run %s --entry=tile_groups_causal --random-inputs --seed=13 --target=x86-64-linux-avx-avx2-f16c-fma-sse41 --check | FileCheck %s
// RUN: attn-run %s --entry=tile_groups_window_gqa --random-inputs --seed=14 --check | FileCheck %s
// RUN: attn-run %s --entry=tile_groups_lengths --random-inputs --seed=15 --check | FileCheck %s
func.func @tile_groups_heads(%q: tensor<2x3x77x24xf32>, %k: tensor<2x3x93x24xf32>, %v: tensor<2x3x93x20xf32>) -> tensor<2x3x77x20xf32> {
  %o = attn.attention scaled_dot %q, %k, %v {schedule = #attn.schedule<tile_q = 16, block_k = 16, chunk_k = 8, group_q = 2, parallel = "heads">} : tensor<2x3x77x24xf32>, tensor<2x3x93x24xf32>, tensor<2x3x93x20xf32> -> tensor<2x3x77x20xf32>
  return %o : tensor<2x3x77x20xf32>
}
func.func @tile_groups_causal(%q: tensor<1x2x77x64xf32>, %k: tensor<1x2x93x64xf32>, %v: tensor<1x2x93x64xf32>) -> tensor<1x2x77x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v causal align(bottom_right) {schedule = #attn.schedule<tile_q = 16, block_k = 16, group_q = 3, parallel = "tiles">} : tensor<1x2x77x64xf32>, tensor<1x2x93x64xf32>, tensor<1x2x93x64xf32> -> tensor<1x2x77x64xf32>
  return %o : tensor<1x2x77x64xf32>
}
func.func @tile_groups_window_gqa(%q: tensor<2x4x37x24xf32>, %k: tensor<2x2x53x24xf32>, %v: tensor<2x2x53x20xf32>) -> tensor<2x4x37x20xf32> {
  %o = attn.attention scaled_dot %q, %k, %v window(9) align(top_left) {schedule = #attn.schedule<tile_q = 16, block_k = 16, group_q = 4, parallel = "tiles">} : tensor<2x4x37x24xf32>, tensor<2x2x53x24xf32>, tensor<2x2x53x20xf32> -> tensor<2x4x37x20xf32>
  return %o : tensor<2x4x37x20xf32>
}
func.func @tile_groups_lengths(%q: tensor<3x2x37x24xf32>, %k: tensor<3x2x53x24xf32>, %v: tensor<3x2x53x20xf32>, %len: tensor<3xi32>) -> tensor<3x2x37x20xf32> {
  %o = attn.attention scaled_dot %q, %k, %v key_lengths(%len : tensor<3xi32>) {schedule = #attn.schedule<tile_q = 16, block_k = 16, group_q = 2>} : tensor<3x2x37x24xf32>, tensor<3x2x53x24xf32>, tensor<3x2x53x20xf32> -> tensor<3x2x37x20xf32>
  return %o : tensor<3x2x37x20xf32>
}

// Found by scripts/schedule-sweep.py (random schedules x shapes x masks against the reference):
// a causal mask on a graph without batch dims ([T, D]) failed at run time under the heuristic's
// own schedule (the scores' register block needed rows past the tile: the mask's row index let
// Halide's bounds inference tie a tile's rows to the cut diagonal block's keys).
func.func @causal_no_batch(%q: tensor<64x16xf32>, %k: tensor<64x16xf32>, %v: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %o = attn.attention scaled_dot %q, %k, %v causal align(top_left) : tensor<64x16xf32>, tensor<64x16xf32>, tensor<64x16xf32> -> tensor<64x16xf32>
  return %o : tensor<64x16xf32>
}
// And a tile_q that is not whole vectors of rows (24 with vectors of 16: two vectors of rows cover
// 32) failed at run time: it is rounded up to 32 (kernel::cpuTileRows).
func.func @tile_rows_past_vector(%q: tensor<2x40x24xf32>, %k: tensor<2x53x24xf32>, %v: tensor<2x53x20xf32>) -> tensor<2x40x20xf32> {
  %o = attn.attention scaled_dot %q, %k, %v {schedule = #attn.schedule<tile_q = 24, block_k = 16, vector = 16>} : tensor<2x40x24xf32>, tensor<2x53x24xf32>, tensor<2x53x20xf32> -> tensor<2x40x20xf32>
  return %o : tensor<2x40x20xf32>
}
// The additive score's two forms under any mask, without batch dims: Halide 14's compiler failed
// (an internal error) on the key projections' copy at the root, whose bounds differ between the
// two forms (the cut diagonal block; split-K); they are read in place there (CPU/FusedAttention.cpp).
func.func @additive_causal_no_batch(%q: tensor<31x8xf32>, %k: tensor<40x16xf32>, %v: tensor<40x4xf32>, %wa: tensor<33x24xf32>, %va: tensor<33xf32>) -> tensor<31x4xf32> {
  %o = attn.attention additive %q, %k, %v weight(%wa : tensor<33x24xf32>) vec(%va : tensor<33xf32>) causal align(bottom_right) {schedule = #attn.schedule<tile_q = 16, vector = 8>} : tensor<31x8xf32>, tensor<40x16xf32>, tensor<40x4xf32> -> tensor<31x4xf32>
  return %o : tensor<31x4xf32>
}
func.func @additive_split_k_no_batch(%q: tensor<7x8xf32>, %k: tensor<53x16xf32>, %v: tensor<53x16xf32>, %wa: tensor<4x24xf32>, %va: tensor<4xf32>) -> tensor<7x16xf32> {
  %o = attn.attention additive %q, %k, %v weight(%wa : tensor<4x24xf32>) vec(%va : tensor<4xf32>) window(7) align(top_left) {schedule = #attn.schedule<block_k = 8, split_k = 1>} : tensor<7x8xf32>, tensor<53x16xf32>, tensor<53x16xf32> -> tensor<7x16xf32>
  return %o : tensor<7x16xf32>
}
// A [Tq, Tk] mask over two query rows (GQA: 4 query heads per kv head): Halide 14's compiler died of
// SIGFPE on the mask's broadcast index (a select); it is a min now.
func.func @mask_two_rows(%q: tensor<2x8x2x64xf32>, %k: tensor<2x2x5x64xf32>, %v: tensor<2x2x5x8xf32>, %m: tensor<2x5xi1>) -> tensor<2x8x2x8xf32> {
  %o = attn.attention scaled_dot %q, %k, %v mask(%m : tensor<2x5xi1>) : tensor<2x8x2x64xf32>, tensor<2x2x5x64xf32>, tensor<2x2x5x8xf32> -> tensor<2x8x2x8xf32>
  return %o : tensor<2x8x2x8xf32>
}
// Tiles that see no key (bottom-right causal, 31 queries over one key: only the last row sees it):
// the cut block's bound was negative for them, a negative buffer size Halide refused to compile.
func.func @tiles_without_keys(%q: tensor<31x4xf32>, %k: tensor<1x4xf32>, %v: tensor<1x40xf32>) -> tensor<31x40xf32> {
  %o = attn.attention dot %q, %k, %v causal window(3) align(bottom_right) {schedule = #attn.schedule<tile_q = 16, vector = 16, reg_k = 8, reg_v = 4, split_k = 1>} : tensor<31x4xf32>, tensor<1x4xf32>, tensor<1x40xf32> -> tensor<31x40xf32>
  return %o : tensor<31x40xf32>
}
// A task of one tile (17 rows, 32-row tiles, causal): with its block buffers folded over the key
// blocks, Halide's bounds for the first block spanned two, and the kernel failed at run time ("fold
// factor (1) of dimension c ... too small"); nothing is hoisted out of a one-tile loop now.
func.func @one_tile_per_task(%q: tensor<1x2x17x32xf32>, %k: tensor<1x2x129x32xf32>, %v: tensor<1x2x129x32xf32>) -> tensor<1x2x17x32xf32> {
  %o = attn.attention scaled_dot %q, %k, %v causal align(top_left) {schedule = #attn.schedule<tile_q = 32, block_k = 16, parallel = "heads">} : tensor<1x2x17x32xf32>, tensor<1x2x129x32xf32>, tensor<1x2x129x32xf32> -> tensor<1x2x17x32xf32>
  return %o : tensor<1x2x17x32xf32>
}
// GQA, 4 query heads of 17 rows per kv head in 32-row tiles: a tile's last block is a select over
// its two heads' rows, and folded block buffers failed the same way (schedule-sweep.py seed 6,
// case 248, in bf16; f32 here, which failed the same way and also runs on OpenCL, where PoCL has no
// 16-bit types); block buffers are not folded there.
func.func @gqa_causal_select_blocks(%q: tensor<1x8x17x33xf32>, %k: tensor<1x2x129x33xf32>, %v: tensor<1x2x129x33xf32>) -> tensor<1x8x17x33xf32> {
  %o = attn.attention scaled_dot %q, %k, %v scale(0.125) causal align(top_left) {schedule = #attn.schedule<tile_q = 24, block_k = 16, reg_q = 3, chunk_k = 16, group_q = 0, parallel = "heads">} : tensor<1x8x17x33xf32>, tensor<1x2x129x33xf32>, tensor<1x2x129x33xf32> -> tensor<1x8x17x33xf32>
  return %o : tensor<1x8x17x33xf32>
}
// Split-K over a tile of 128 rows: the GPU kernel's thread blocks had a thread per row in several
// stages, 128 x 128 threads in all, and OpenCL refused to launch them (CL_INVALID_WORK_GROUP_SIZE;
// schedule-sweep.py --opencl-share, seed 41, case 61; opencl-fused-schedules.test runs this on
// PoCL). The rows past 8 (32 in the merge) are looped now.
func.func @split_k_tall_tile(%q: tensor<7x64xf32>, %k: tensor<16x64xf32>, %v: tensor<16x40xf32>) -> tensor<7x40xf32> {
  %o = attn.attention scaled_dot %q, %k, %v {schedule = #attn.schedule<tile_q = 128, reg_q = 4, reg_v = 2, chunk_k = 128, split_k = 1>} : tensor<7x64xf32>, tensor<16x64xf32>, tensor<16x40xf32> -> tensor<7x40xf32>
  return %o : tensor<7x40xf32>
}
