// RUN: attn-opt %s --attn-attach-target="target=x86-64-linux-avx-avx2-avx512-avx512_skylake-f16c-fma-sse41" --attn-select-schedule | FileCheck %s --check-prefix=AVX512
// RUN: attn-opt %s --attn-attach-target="target=x86-64-linux-avx-avx2-f16c-fma-sse41" --attn-select-schedule | FileCheck %s --check-prefix=AVX2
// RUN: attn-opt %s --attn-attach-target="target=x86-64-linux-avx-avx2-avx512-avx512_skylake-f16c-fma-sse41 l2-kib=2048" --attn-select-schedule | FileCheck %s --check-prefix=L2M2
// RUN: attn-opt %s --attn-attach-target="target=x86-64-linux-avx-avx2-avx512-avx512_skylake-f16c-fma-sse41 l2-kib=1024" --attn-select-schedule | FileCheck %s --check-prefix=L2M1
// RUN: not attn-opt %s --attn-attach-target="l2-kib=-1" --attn-select-schedule 2>&1 | FileCheck %s --check-prefix=BADL2
// RUN: not attn-opt %s --attn-attach-target="target=riscv-avx" --attn-select-schedule 2>&1 | FileCheck %s --check-prefix=BADTARGET
// BADL2: error: --attn-attach-target: l2-kib must be a size in KiB (0: the host's), not -1
// BADTARGET: error: --attn-attach-target: unknown target 'riscv-avx'

// Prefill: tiles of two vectors of query rows, key blocks of up to 1024. P.V blocks of 4 rows x 4
// vectors on AVX-512, 6 rows x 2 vectors on AVX2 (12 accumulators of its 16 registers).
// AVX512-LABEL: func @prefill
// AVX512: schedule = #attn.schedule<tile_q = 32, block_k = 1024, vector = 16, reg_q = 4, reg_k = 12, reg_v = 4, chunk_k = 128, parallel = "heads", scheduler = "hand", source = "heuristic">
// With 2 MB of L2 per core, K and V of a kv head at half of it (Tk = 2048, D = 64: 1 MB) are not
// grouped (@keys_beyond_big_l2 below).
// L2M2-LABEL: func @prefill
// L2M2: #attn.schedule<tile_q = 32, block_k = 1024, vector = 16, reg_q = 4, reg_k = 12, reg_v = 4, chunk_k = 128, parallel = "heads",
// AVX2-LABEL: func @prefill
// AVX2: schedule = #attn.schedule<tile_q = 16, block_k = 1024, vector = 8, reg_q = 6, reg_k = 6, reg_v = 2, chunk_k = 128, parallel = "heads", scheduler = "hand", source = "heuristic">
func.func @prefill(%q: tensor<1x8x2048x64xf32>, %k: tensor<1x8x2048x64xf32>, %v: tensor<1x8x2048x64xf32>) -> tensor<1x8x2048x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<1x8x2048x64xf32>, tensor<1x8x2048x64xf32>, tensor<1x8x2048x64xf32> -> tensor<1x8x2048x64xf32>
  return %o : tensor<1x8x2048x64xf32>
}

// Dv = 40 is 5 vectors of 8 lanes, no whole 2-vector blocks: P.V keeps 2 rows x 4 vectors there.
// AVX2-LABEL: func @odd_value_vectors
// AVX2: #attn.schedule<tile_q = 16, block_k = 1024, vector = 8, reg_q = 2, reg_k = 6, reg_v = 4,
func.func @odd_value_vectors(%q: tensor<1x8x2048x64xf32>, %k: tensor<1x8x2048x64xf32>, %v: tensor<1x8x2048x40xf32>) -> tensor<1x8x2048x40xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<1x8x2048x64xf32>, tensor<1x8x2048x64xf32>, tensor<1x8x2048x40xf32> -> tensor<1x8x2048x40xf32>
  return %o : tensor<1x8x2048x40xf32>
}

// K and V of a kv head beyond 4 MB (Tk = 16384, D = 64: 8 MB): AVX2 takes tiles of 128 rows and
// key blocks of 256 (each tile streams them once); AVX-512 keeps its tiles of 32 rows, takes each
// key block with groups of 16 tiles in turn (a block read from memory serves 16 tiles from L2;
// their accumulators, 16 x 32 x 64 floats, are 128 KB) and runs the tiles of a head in parallel
// too (the threads share its K and V); on any L2.
// AVX512-LABEL: func @long_keys
// AVX512: #attn.schedule<tile_q = 32, block_k = 1024, vector = 16, reg_q = 4, reg_k = 12, reg_v = 4, chunk_k = 128, group_q = 16, parallel = "tiles",
// L2M1-LABEL: func @long_keys
// L2M1: #attn.schedule<tile_q = 32, block_k = 1024, vector = 16, reg_q = 4, reg_k = 12, reg_v = 4, chunk_k = 128, group_q = 16, parallel = "tiles",
// AVX2-LABEL: func @long_keys
// AVX2: #attn.schedule<tile_q = 128, block_k = 256, vector = 8, reg_q = 6, reg_k = 6, reg_v = 2,
func.func @long_keys(%q: tensor<1x8x16384x64xf32>, %k: tensor<1x8x16384x64xf32>, %v: tensor<1x8x16384x64xf32>) -> tensor<1x8x16384x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<1x8x16384x64xf32>, tensor<1x8x16384x64xf32>, tensor<1x8x16384x64xf32> -> tensor<1x8x16384x64xf32>
  return %o : tensor<1x8x16384x64xf32>
}

// At D = 128 (16 MB) a tile's accumulators are twice as large: groups of 8.
// AVX512-LABEL: func @long_keys_wide_values
// AVX512: #attn.schedule<tile_q = 32, block_k = 1024, vector = 16, reg_q = 4, reg_k = 12, reg_v = 4, chunk_k = 128, group_q = 8, parallel = "tiles",
func.func @long_keys_wide_values(%q: tensor<1x8x16384x128xf32>, %k: tensor<1x8x16384x128xf32>, %v: tensor<1x8x16384x128xf32>) -> tensor<1x8x16384x128xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<1x8x16384x128xf32>, tensor<1x8x16384x128xf32>, tensor<1x8x16384x128xf32> -> tensor<1x8x16384x128xf32>
  return %o : tensor<1x8x16384x128xf32>
}

// ... unless the tile would have more rows than the kv head has queries (Tq = 64).
// AVX512-LABEL: func @long_keys_few_queries
// AVX512: #attn.schedule<tile_q = 32, block_k = 1024, vector = 16, {{.*}}parallel = "tiles",
// AVX2-LABEL: func @long_keys_few_queries
// AVX2: #attn.schedule<tile_q = 16, block_k = 1024, vector = 8,
func.func @long_keys_few_queries(%q: tensor<1x8x64x64xf32>, %k: tensor<1x8x16384x64xf32>, %v: tensor<1x8x16384x64xf32>) -> tensor<1x8x64x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<1x8x64x64xf32>, tensor<1x8x16384x64xf32>, tensor<1x8x16384x64xf32> -> tensor<1x8x64x64xf32>
  return %o : tensor<1x8x64x64xf32>
}

// K and V of a kv head between half the L2 and 4 MB (Tk = 4096, D = 64: 2 MB): tiles in groups on a
// machine whose cores have 2 MB of L2 or more, 16 of them (their accumulators, 16 x 32 x 64 floats,
// are 128 KB); not with 1 MB, nor where the L2 is not known (a target named by its
// features, as in the AVX512 run).
// AVX512-LABEL: func @keys_beyond_big_l2
// AVX512: #attn.schedule<tile_q = 32, block_k = 1024, vector = 16, reg_q = 4, reg_k = 12, reg_v = 4, chunk_k = 128, parallel = "heads",
// L2M2-LABEL: func @keys_beyond_big_l2
// L2M2: #attn.schedule<tile_q = 32, block_k = 1024, vector = 16, reg_q = 4, reg_k = 12, reg_v = 4, chunk_k = 128, group_q = 16, parallel = "tiles",
// L2M1-LABEL: func @keys_beyond_big_l2
// L2M1: #attn.schedule<tile_q = 32, block_k = 1024, vector = 16, reg_q = 4, reg_k = 12, reg_v = 4, chunk_k = 128, parallel = "heads",
func.func @keys_beyond_big_l2(%q: tensor<1x8x4096x64xf32>, %k: tensor<1x8x4096x64xf32>, %v: tensor<1x8x4096x64xf32>) -> tensor<1x8x4096x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<1x8x4096x64xf32>, tensor<1x8x4096x64xf32>, tensor<1x8x4096x64xf32> -> tensor<1x8x4096x64xf32>
  return %o : tensor<1x8x4096x64xf32>
}

// At D = 128 (Tk = 2048: 2 MB) a tile's accumulators are twice as large: groups of 8.
// L2M2-LABEL: func @keys_beyond_big_l2_wide_values
// L2M2: #attn.schedule<tile_q = 32, block_k = 1024, vector = 16, reg_q = 4, reg_k = 12, reg_v = 4, chunk_k = 128, group_q = 8, parallel = "tiles",
// AVX512-LABEL: func @keys_beyond_big_l2_wide_values
// AVX512: #attn.schedule<tile_q = 32, block_k = 1024, vector = 16, reg_q = 4, reg_k = 12, reg_v = 4, chunk_k = 128, parallel = "heads",
func.func @keys_beyond_big_l2_wide_values(%q: tensor<1x8x2048x128xf32>, %k: tensor<1x8x2048x128xf32>, %v: tensor<1x8x2048x128xf32>) -> tensor<1x8x2048x128xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<1x8x2048x128xf32>, tensor<1x8x2048x128xf32>, tensor<1x8x2048x128xf32> -> tensor<1x8x2048x128xf32>
  return %o : tensor<1x8x2048x128xf32>
}

// A block of 256 keys (Tk = 256): 8 keys per register block on AVX-512, which divide it (12 would
// pad it to 264); AVX2's 6 pad it by less than 2% and stay.
// AVX512-LABEL: func @short_keys
// AVX512: #attn.schedule<tile_q = 32, block_k = 256, vector = 16, reg_q = 4, reg_k = 8,
// AVX2-LABEL: func @short_keys
// AVX2: #attn.schedule<tile_q = 16, block_k = 256, vector = 8, reg_q = 6, reg_k = 6,
func.func @short_keys(%q: tensor<4x12x256x64xf32>, %k: tensor<4x12x256x64xf32>, %v: tensor<4x12x256x64xf32>) -> tensor<4x12x256x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<4x12x256x64xf32>, tensor<4x12x256x64xf32>, tensor<4x12x256x64xf32> -> tensor<4x12x256x64xf32>
  return %o : tensor<4x12x256x64xf32>
}

// Additive scores: 3 keys per register block (each score and feature costs a reciprocal and its
// Newton step, whose temporaries fill the registers); tiles of two vectors of rows, as for dot
// products. AVX-512 takes AVX2's schedule, 8-lane vectors included (Halide 14 has no 16-lane
// reciprocal).
// AVX512-LABEL: func @additive
// AVX512: #attn.schedule<tile_q = 16, block_k = 512, vector = 8, reg_q = 6, reg_k = 3, reg_v = 2,
// AVX2-LABEL: func @additive
// AVX2: #attn.schedule<tile_q = 16, block_k = 512, vector = 8, reg_q = 6, reg_k = 3, reg_v = 2,
func.func @additive(%q: tensor<1x512x64xf32>, %k: tensor<1x512x64xf32>, %v: tensor<1x512x64xf32>, %wa: tensor<64x128xf32>, %va: tensor<64xf32>) -> tensor<1x512x64xf32> {
  %o = attn.attention additive %q, %k, %v weight(%wa : tensor<64x128xf32>) vec(%va : tensor<64xf32>) : tensor<1x512x64xf32>, tensor<1x512x64xf32>, tensor<1x512x64xf32> -> tensor<1x512x64xf32>
  return %o : tensor<1x512x64xf32>
}

// Causal masks skip whole key blocks and cut the diagonal one, so blocks stay at 1024 keys (the
// cut wastes nothing; a window's or causal GQA's blocks are not cut: 256, below).
// AVX512-LABEL: func @causal
// AVX512: #attn.schedule<tile_q = 32, block_k = 1024,
func.func @causal(%q: tensor<1x8x2048x64xf32>, %k: tensor<1x8x2048x64xf32>, %v: tensor<1x8x2048x64xf32>) -> tensor<1x8x2048x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v causal align(top_left) : tensor<1x8x2048x64xf32>, tensor<1x8x2048x64xf32>, tensor<1x8x2048x64xf32> -> tensor<1x8x2048x64xf32>
  return %o : tensor<1x8x2048x64xf32>
}

// Decode, one query per kv head and one (batch, head) task: keys in the lanes, split-K.
// AVX512-LABEL: func @decode_single
// AVX512: #attn.schedule<tile_q = 1, block_k = 1024, vector = 16, reg_q = 1, reg_k = 16, reg_v = 4, chunk_k = 256, split_k = 1, parallel = "tiles"
func.func @decode_single(%q: tensor<1x1x1x64xf32>, %k: tensor<1x1x4096x64xf32>, %v: tensor<1x1x4096x64xf32>) -> tensor<1x1x1x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<1x1x1x64xf32>, tensor<1x1x4096x64xf32>, tensor<1x1x4096x64xf32> -> tensor<1x1x1x64xf32>
  return %o : tensor<1x1x1x64xf32>
}

// GQA decode: 4 query heads per kv head are 4 rows: one vector of rows per tile.
// AVX512-LABEL: func @decode_gqa
// AVX512: #attn.schedule<tile_q = 16, block_k = 1024, vector = 16, reg_q = 4, reg_k = 12, reg_v = 4, chunk_k = 128, parallel = "heads"
func.func @decode_gqa(%q: tensor<8x8x1x64xf32>, %k: tensor<8x2x2048x64xf32>, %v: tensor<8x2x2048x64xf32>) -> tensor<8x8x1x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<8x8x1x64xf32>, tensor<8x2x2048x64xf32>, tensor<8x2x2048x64xf32> -> tensor<8x8x1x64xf32>
  return %o : tensor<8x8x1x64xf32>
}

// Decode with a task per (batch, kv head): all of 2048 keys in one block, tasks per tile.
// AVX512-LABEL: func @decode_batched
// AVX512: #attn.schedule<tile_q = 1, block_k = 2048, vector = 16, reg_q = 1, reg_k = 16, reg_v = 4, chunk_k = 256, parallel = "tiles"
func.func @decode_batched(%q: tensor<8x8x1x64xf32>, %k: tensor<8x8x2048x64xf32>, %v: tensor<8x8x2048x64xf32>) -> tensor<8x8x1x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<8x8x1x64xf32>, tensor<8x8x2048x64xf32>, tensor<8x8x2048x64xf32> -> tensor<8x8x1x64xf32>
  return %o : tensor<8x8x1x64xf32>
}

// A schedule already there (hand-written, tuned) is kept, as the kernel runs it (block_k = 128 over
// 64 keys is one block of 64: select-schedule-given.mlir); other ops get the per-op schedule.
// AVX512-LABEL: func @keeps_and_fills
// AVX512: attn.attention {{.*}}#attn.schedule<tile_q = 64, block_k = 64>
// AVX512: attn.linear {{.*}}#attn.schedule<tile_q = 64, vector = 16, reg_q = 8, reg_v = 2, parallel = "tiles", scheduler = "hand", source = "heuristic">
// AVX512: attn.split_heads
// AVX512-NOT: schedule
func.func @keeps_and_fills(%q: tensor<1x2x64x16xf32>, %x: tensor<1x64x32xf32>, %w: tensor<32x32xf32>) -> (tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>) {
  %o = attn.attention dot %q, %q, %q {schedule = #attn.schedule<tile_q = 64, block_k = 128>} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  %l = attn.linear %x, %w : tensor<1x64x32xf32>, tensor<32x32xf32> -> tensor<1x64x32xf32>
  %h = attn.split_heads %l heads(2) : tensor<1x64x32xf32> -> tensor<1x2x64x16xf32>
  return %o, %h : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>
}

// Decode with fewer keys than a block: one block of all the keys (rounded up to 16), not 1024.
// AVX512-LABEL: func @decode_short
// AVX512: #attn.schedule<tile_q = 1, block_k = 128, vector = 16, reg_q = 1, reg_k = 16, reg_v = 4, chunk_k = 256, parallel = "tiles"
func.func @decode_short(%q: tensor<2x4x1x64xf32>, %k: tensor<2x4x120x64xf32>, %v: tensor<2x4x120x64xf32>) -> tensor<2x4x1x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<2x4x1x64xf32>, tensor<2x4x120x64xf32>, tensor<2x4x120x64xf32> -> tensor<2x4x1x64xf32>
  return %o : tensor<2x4x1x64xf32>
}

// A window's first visited block is not cut, nor are causal GQA tiles: blocks of 256.
// AVX512-LABEL: func @window
// AVX512: #attn.schedule<tile_q = 32, block_k = 256,
func.func @window(%q: tensor<1x8x2048x64xf32>, %k: tensor<1x8x2048x64xf32>, %v: tensor<1x8x2048x64xf32>) -> tensor<1x8x2048x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v window(128) align(top_left) : tensor<1x8x2048x64xf32>, tensor<1x8x2048x64xf32>, tensor<1x8x2048x64xf32> -> tensor<1x8x2048x64xf32>
  return %o : tensor<1x8x2048x64xf32>
}
// AVX512-LABEL: func @causal_gqa
// AVX512: #attn.schedule<tile_q = 32, block_k = 256,
func.func @causal_gqa(%q: tensor<1x8x512x64xf32>, %k: tensor<1x2x512x64xf32>, %v: tensor<1x2x512x64xf32>) -> tensor<1x8x512x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v causal align(bottom_right) : tensor<1x8x512x64xf32>, tensor<1x2x512x64xf32>, tensor<1x2x512x64xf32> -> tensor<1x8x512x64xf32>
  return %o : tensor<1x8x512x64xf32>
}

// Per-op register blocks: 3 vectors, unless the result's width is static, below 768, a multiple of
// the vector and not of 3 vectors: then the largest of 2 and 1 vectors that divides it (no partial
// last block). 16 lanes: 80 -> 1, 96 -> 3, 544 -> 2, 800 and 1024 -> 3 (wide: packed instead), 40
// (not whole vectors) -> 3, dynamic -> 3. 8 lanes (AVX2): 80, 16 and 544 -> 2, 96 -> 3, 40 -> 1.
// AVX512-LABEL: func @linear_widths
// AVX512-COUNT-2: reg_q = 8, reg_v = 1,
// AVX512: reg_q = 8, reg_v = 3,
// AVX512: reg_q = 8, reg_v = 2,
// AVX512-COUNT-4: reg_q = 8, reg_v = 3,
// AVX2-LABEL: func @linear_widths
// AVX2-COUNT-2: reg_q = 4, reg_v = 2,
// AVX2: reg_q = 4, reg_v = 3,
// AVX2: reg_q = 4, reg_v = 2,
// AVX2-COUNT-2: reg_q = 4, reg_v = 3,
// AVX2: reg_q = 4, reg_v = 1,
// AVX2: reg_q = 4, reg_v = 3,
func.func @linear_widths(%x: tensor<1x8x4xf32>, %d: tensor<1x8x?xf32>, %w80: tensor<4x80xf32>, %w16: tensor<4x16xf32>,
                         %w96: tensor<4x96xf32>, %w544: tensor<4x544xf32>, %w800: tensor<4x800xf32>,
                         %w1024: tensor<4x1024xf32>, %w40: tensor<4x40xf32>, %wd: tensor<4x?xf32>) {
  %a = attn.linear %x, %w80 : tensor<1x8x4xf32>, tensor<4x80xf32> -> tensor<1x8x80xf32>
  %b = attn.linear %x, %w16 : tensor<1x8x4xf32>, tensor<4x16xf32> -> tensor<1x8x16xf32>
  %c = attn.linear %x, %w96 : tensor<1x8x4xf32>, tensor<4x96xf32> -> tensor<1x8x96xf32>
  %e = attn.linear %x, %w544 : tensor<1x8x4xf32>, tensor<4x544xf32> -> tensor<1x8x544xf32>
  %f = attn.linear %x, %w800 : tensor<1x8x4xf32>, tensor<4x800xf32> -> tensor<1x8x800xf32>
  %g = attn.linear %x, %w1024 : tensor<1x8x4xf32>, tensor<4x1024xf32> -> tensor<1x8x1024xf32>
  %h = attn.linear %x, %w40 : tensor<1x8x4xf32>, tensor<4x40xf32> -> tensor<1x8x40xf32>
  %i = attn.linear %x, %wd : tensor<1x8x4xf32>, tensor<4x?xf32> -> tensor<1x8x?xf32>
  return
}
