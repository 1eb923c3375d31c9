// A schedule an op carries already (hand-written or tuned) is kept, as the target runs it: what the
// CPU fused kernel takes as another value is rewritten to that value with a remark, so the printed
// IR is the kernel that runs (tile_q = 24 runs with tiles of 32 rows on AVX-512); what the target
// cannot do at all is refused, naming the parameter and the values that work.
// RUN: attn-opt %s --split-input-file --verify-diagnostics --attn-attach-target="target=x86-64-linux-avx-avx2-avx512-avx512_skylake-f16c-fma-sse41" --attn-select-schedule | FileCheck %s --check-prefix=AVX512
// RUN: not attn-opt %s --split-input-file --attn-attach-target="target=x86-64-linux-avx-avx2-f16c-fma-sse41" --attn-select-schedule 2>/dev/null | FileCheck %s --check-prefix=AVX2
// RUN: not attn-opt %s --split-input-file --attn-attach-target="target=x86-64-linux-avx-avx2-f16c-fma-sse41" --attn-select-schedule 2>&1 >/dev/null | FileCheck %s --check-prefix=AVX2-DIAG

// AVX512-LABEL: func @kept
// AVX512: #attn.schedule<tile_q = 32, block_k = 256, vector = 16, reg_q = 4, reg_k = 12, reg_v = 4, chunk_k = 128, parallel = "heads", scheduler = "hand", source = "manual">
func.func @kept(%q: tensor<1x2x64x64xf32>, %k: tensor<1x2x512x64xf32>, %v: tensor<1x2x512x64xf32>) -> tensor<1x2x64x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v {schedule = #attn.schedule<tile_q = 32, block_k = 256, vector = 16, reg_q = 4, reg_k = 12, reg_v = 4, chunk_k = 128, parallel = "heads", scheduler = "hand", source = "manual">} : tensor<1x2x64x64xf32>, tensor<1x2x512x64xf32>, tensor<1x2x512x64xf32> -> tensor<1x2x64x64xf32>
  return %o : tensor<1x2x64x64xf32>
}

// -----

// AVX512-LABEL: func @rewritten
// AVX512: #attn.schedule<tile_q = 32, block_k = 48, reg_q = 32, source = "manual">
// On AVX2, 24 rows are 3 whole vectors of 8: tile_q stays.
// AVX2-DIAG: remark: schedule parameter 'block_k' = 1024 runs as 48 (one block covers the 40 keys, rounded up to 16)
// AVX2-DIAG: remark: schedule parameter 'reg_q' = 40 runs as 24 (a P.V register block has at most the tile's rows)
// AVX2-LABEL: func @rewritten
// AVX2: #attn.schedule<tile_q = 24, block_k = 48, reg_q = 24, source = "manual">
func.func @rewritten(%q: tensor<1x2x64x64xf32>, %k: tensor<1x2x40x64xf32>, %v: tensor<1x2x40x64xf32>) -> tensor<1x2x64x64xf32> {
  // expected-remark @+3 {{schedule parameter 'tile_q' = 24 runs as 32 (a tile of more rows than a vector holds is whole vectors of 16 rows)}}
  // expected-remark @+2 {{schedule parameter 'block_k' = 1024 runs as 48 (one block covers the 40 keys, rounded up to 16)}}
  // expected-remark @+1 {{schedule parameter 'reg_q' = 40 runs as 32 (a P.V register block has at most the tile's rows)}}
  %o = attn.attention scaled_dot %q, %k, %v {schedule = #attn.schedule<tile_q = 24, block_k = 1024, reg_q = 40, source = "manual">} : tensor<1x2x64x64xf32>, tensor<1x2x40x64xf32>, tensor<1x2x40x64xf32> -> tensor<1x2x64x64xf32>
  return %o : tensor<1x2x64x64xf32>
}

// -----

// Decode tiles (fewer rows than a vector) are taken as written.
// AVX512-LABEL: func @decode_kept
// AVX512: #attn.schedule<tile_q = 1, block_k = 512, split_k = 1>
func.func @decode_kept(%q: tensor<8x1x64xf32>, %k: tensor<8x2048x64xf32>, %v: tensor<8x2048x64xf32>) -> tensor<8x1x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v {schedule = #attn.schedule<tile_q = 1, block_k = 512, split_k = 1>} : tensor<8x1x64xf32>, tensor<8x2048x64xf32>, tensor<8x2048x64xf32> -> tensor<8x1x64xf32>
  return %o : tensor<8x1x64xf32>
}

// -----

// A Halide autoscheduler's schedule is its own: nothing to rewrite.
// AVX512-LABEL: func @autoscheduler_kept
// AVX512: #attn.schedule<scheduler = "adams2019">
func.func @autoscheduler_kept(%q: tensor<2x24x8xf32>, %k: tensor<2x40x8xf32>, %v: tensor<2x40x8xf32>) -> tensor<2x24x8xf32> {
  %o = attn.attention dot %q, %k, %v {schedule = #attn.schedule<scheduler = "adams2019">} : tensor<2x24x8xf32>, tensor<2x40x8xf32>, tensor<2x40x8xf32> -> tensor<2x24x8xf32>
  return %o : tensor<2x24x8xf32>
}

// -----

// AVX2-DIAG: error: schedule parameter 'vector' = 64 is beyond this target: its vector registers hold 8 f32 lanes and a kernel's vector spans at most 4 of them (vector <= 32)
func.func @vector_beyond_target(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = attn.softmax %x {schedule = #attn.schedule<vector = 64>} : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @tile_beyond_target(%q: tensor<1x2x64x64xf32>, %k: tensor<1x2x40x64xf32>, %v: tensor<1x2x40x64xf32>) -> tensor<1x2x64x64xf32> {
  // expected-error @+1 {{schedule parameter 'tile_q' = 1040 is beyond this target: a tile holds at most 64 vectors of 16 rows (tile_q <= 1024)}}
  %o = attn.attention scaled_dot %q, %k, %v {schedule = #attn.schedule<tile_q = 1040>} : tensor<1x2x64x64xf32>, tensor<1x2x40x64xf32>, tensor<1x2x40x64xf32> -> tensor<1x2x64x64xf32>
  return %o : tensor<1x2x64x64xf32>
}

// -----

// AVX2-DIAG: error: schedule parameter 'reg_k' = 44 with tiles of 48 rows makes a Q.K^T register block of 132 accumulator vectors (3 vectors of rows x 44 keys); this target has 16 vector registers (reg_k <= 21 for these tiles)
func.func @score_block_beyond_registers(%q: tensor<1x2x64x64xf32>, %k: tensor<1x2x40x64xf32>, %v: tensor<1x2x40x64xf32>) -> tensor<1x2x64x64xf32> {
  // expected-error @+1 {{schedule parameter 'reg_k' = 44 with tiles of 48 rows makes a Q.K^T register block of 132 accumulator vectors (3 vectors of rows x 44 keys); this target has 32 vector registers (reg_k <= 42 for these tiles)}}
  %o = attn.attention scaled_dot %q, %k, %v {schedule = #attn.schedule<tile_q = 48, reg_k = 44, vector = 16>} : tensor<1x2x64x64xf32>, tensor<1x2x40x64xf32>, tensor<1x2x40x64xf32> -> tensor<1x2x64x64xf32>
  return %o : tensor<1x2x64x64xf32>
}

// -----

func.func @pv_block_beyond_registers(%x: tensor<16x64xf32>, %w: tensor<64x64xf32>) -> tensor<16x64xf32> {
  // expected-error @+1 {{schedule parameters 'reg_q' = 16 x 'reg_v' = 9 make a register block of 144 accumulator vectors; this target has 32 vector registers (reg_q x reg_v <= 128)}}
  %0 = attn.linear %x, %w {schedule = #attn.schedule<reg_q = 16, reg_v = 9>} : tensor<16x64xf32>, tensor<64x64xf32> -> tensor<16x64xf32>
  return %0 : tensor<16x64xf32>
}
