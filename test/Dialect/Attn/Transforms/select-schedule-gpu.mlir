// RUN: attn-opt %s --attn-attach-target="target=host-cuda-cuda_capability_80" --attn-select-schedule | FileCheck %s
// RUN: attn-opt %s --attn-attach-target="target=host-opencl" --attn-select-schedule | FileCheck %s

// The GPU heuristic (docs/SCHEDULES.md): key blocks of 32, score blocks of 4 x 2, P.V blocks of 4 x 4;
// tile_q the largest of 32, 16, 8, 4 whose softmax state (3 x tile_q x Dv floats) fits in 24 KiB;
// P.V blocks of 4 x 8 at Dv >= 128; blocks of 2 rows at Dv <= 64 with fewer than 256 thread blocks
// (tiles x batch x kv heads).
// Additive scores keep the smaller blocks of 16 rows and 2 x 2 scores.

// CHECK-LABEL: func @prefill
// CHECK: #attn.schedule<tile_q = 32, block_k = 32, reg_q = 4, reg_k = 2, reg_v = 4, scheduler = "hand", source = "heuristic">
func.func @prefill(%q: tensor<1x8x2048x64xf32>, %k: tensor<1x8x2048x64xf32>, %v: tensor<1x8x2048x64xf32>) -> tensor<1x8x2048x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<1x8x2048x64xf32>, tensor<1x8x2048x64xf32>, tensor<1x8x2048x64xf32> -> tensor<1x8x2048x64xf32>
  return %o : tensor<1x8x2048x64xf32>
}

// 16 tiles x 8 heads = 128 thread blocks: register blocks of 2 rows.
// CHECK-LABEL: func @few_blocks
// CHECK: #attn.schedule<tile_q = 32, block_k = 32, reg_q = 2, reg_k = 2, reg_v = 4,
func.func @few_blocks(%q: tensor<1x8x512x64xf32>, %k: tensor<1x8x512x64xf32>, %v: tensor<1x8x512x64xf32>) -> tensor<1x8x512x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<1x8x512x64xf32>, tensor<1x8x512x64xf32>, tensor<1x8x512x64xf32> -> tensor<1x8x512x64xf32>
  return %o : tensor<1x8x512x64xf32>
}

// 32 tiles x 8 heads = 256 thread blocks: 4 rows.
// CHECK-LABEL: func @enough_blocks
// CHECK: #attn.schedule<tile_q = 32, block_k = 32, reg_q = 4, reg_k = 2, reg_v = 4,
func.func @enough_blocks(%q: tensor<1x8x1024x64xf32>, %k: tensor<1x8x1024x64xf32>, %v: tensor<1x8x1024x64xf32>) -> tensor<1x8x1024x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<1x8x1024x64xf32>, tensor<1x8x1024x64xf32>, tensor<1x8x1024x64xf32> -> tensor<1x8x1024x64xf32>
  return %o : tensor<1x8x1024x64xf32>
}

// A dynamic batch: the thread blocks are unknown, 4-row blocks.
// CHECK-LABEL: func @dynamic_batch
// CHECK: #attn.schedule<tile_q = 32, block_k = 32, reg_q = 4, reg_k = 2, reg_v = 4,
func.func @dynamic_batch(%q: tensor<?x8x1024x64xf32>, %k: tensor<?x8x1024x64xf32>, %v: tensor<?x8x1024x64xf32>) -> tensor<?x8x1024x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<?x8x1024x64xf32>, tensor<?x8x1024x64xf32>, tensor<?x8x1024x64xf32> -> tensor<?x8x1024x64xf32>
  return %o : tensor<?x8x1024x64xf32>
}

// D = 128: tiles of 16 rows (3 x 16 x 128 x 4 bytes = 24 KiB), P.V blocks of 4 x 8.
// CHECK-LABEL: func @d128
// CHECK: #attn.schedule<tile_q = 16, block_k = 32, reg_q = 4, reg_k = 2, reg_v = 8,
func.func @d128(%q: tensor<1x8x1024x128xf32>, %k: tensor<1x8x1024x128xf32>, %v: tensor<1x8x1024x128xf32>) -> tensor<1x8x1024x128xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<1x8x1024x128xf32>, tensor<1x8x1024x128xf32>, tensor<1x8x1024x128xf32> -> tensor<1x8x1024x128xf32>
  return %o : tensor<1x8x1024x128xf32>
}

// Dv = 256 (Dk = 32): tiles of 8 rows, P.V blocks of 4 x 8.
// CHECK-LABEL: func @d256
// CHECK: #attn.schedule<tile_q = 8, block_k = 32, reg_q = 4, reg_k = 2, reg_v = 8,
func.func @d256(%q: tensor<1x2x256x32xf32>, %k: tensor<1x2x256x32xf32>, %v: tensor<1x2x256x256xf32>) -> tensor<1x2x256x256xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<1x2x256x32xf32>, tensor<1x2x256x32xf32>, tensor<1x2x256x256xf32> -> tensor<1x2x256x256xf32>
  return %o : tensor<1x2x256x256xf32>
}

// A short prefill: no tile larger than its 6 rows rounded up to whole register blocks (2 thread
// blocks: 2-row register blocks).
// CHECK-LABEL: func @short
// CHECK: #attn.schedule<tile_q = 8, block_k = 32, reg_q = 2, reg_k = 2, reg_v = 4,
func.func @short(%q: tensor<1x2x6x64xf32>, %k: tensor<1x2x300x64xf32>, %v: tensor<1x2x300x64xf32>) -> tensor<1x2x6x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<1x2x6x64xf32>, tensor<1x2x300x64xf32>, tensor<1x2x300x64xf32> -> tensor<1x2x6x64xf32>
  return %o : tensor<1x2x6x64xf32>
}

// Decode: split-K, a thread block per 256 keys.
// CHECK-LABEL: func @decode
// CHECK: #attn.schedule<tile_q = 1, block_k = 256, reg_q = 1, reg_k = 1, reg_v = 1, split_k = 1, scheduler = "hand", source = "heuristic">
func.func @decode(%q: tensor<8x8x1x64xf32>, %k: tensor<8x8x2048x64xf32>, %v: tensor<8x8x2048x64xf32>) -> tensor<8x8x1x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<8x8x1x64xf32>, tensor<8x8x2048x64xf32>, tensor<8x8x2048x64xf32> -> tensor<8x8x1x64xf32>
  return %o : tensor<8x8x1x64xf32>
}

// Additive scores (a tanh per score and feature): tiles of 16 rows, 2 x 2 score blocks.
// CHECK-LABEL: func @additive
// CHECK: #attn.schedule<tile_q = 16, block_k = 32, reg_q = 2, reg_k = 2, reg_v = 4,
func.func @additive(%q: tensor<1x512x64xf32>, %k: tensor<1x512x64xf32>, %v: tensor<1x512x64xf32>, %wa: tensor<64x128xf32>, %va: tensor<64xf32>) -> tensor<1x512x64xf32> {
  %o = attn.attention additive %q, %k, %v weight(%wa : tensor<64x128xf32>) vec(%va : tensor<64xf32>) : tensor<1x512x64xf32>, tensor<1x512x64xf32>, tensor<1x512x64xf32> -> tensor<1x512x64xf32>
  return %o : tensor<1x512x64xf32>
}

// Dv = 2: a P.V block no wider than the value rows.
// CHECK-LABEL: func @narrow
// CHECK: #attn.schedule<tile_q = 32, block_k = 32, reg_q = 2, reg_k = 2, reg_v = 2,
func.func @narrow(%q: tensor<1x64x8xf32>, %k: tensor<1x64x8xf32>, %v: tensor<1x64x2xf32>) -> tensor<1x64x2xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<1x64x8xf32>, tensor<1x64x8xf32>, tensor<1x64x2xf32> -> tensor<1x64x2xf32>
  return %o : tensor<1x64x2xf32>
}
