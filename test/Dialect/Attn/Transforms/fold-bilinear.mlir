// RUN: attn-opt %s --attn-fold-bilinear | FileCheck %s

// q^T W k = (q W) . k: the weight is applied once per query row.
// CHECK-LABEL: func @score
// CHECK-NEXT: %[[QW:.*]] = attn.linear %arg0, %arg2 : tensor<2x16x8xf32>, tensor<8x5xf32> -> tensor<2x16x5xf32>
// CHECK-NEXT: %[[S:.*]] = attn.score dot %[[QW]], %arg1 : tensor<2x16x5xf32>, tensor<2x32x5xf32> -> tensor<2x16x32xf32>
// CHECK-NEXT: return %[[S]]
func.func @score(%q: tensor<2x16x8xf32>, %k: tensor<2x32x5xf32>, %w: tensor<8x5xf32>) -> tensor<2x16x32xf32> {
  %s = attn.score bilinear %q, %k weight(%w : tensor<8x5xf32>) : tensor<2x16x8xf32>, tensor<2x32x5xf32> -> tensor<2x16x32xf32>
  return %s : tensor<2x16x32xf32>
}

// CHECK-LABEL: func @attention
// CHECK-NEXT: %[[QW:.*]] = attn.linear %arg0, %arg3
// CHECK-NEXT: attn.attention dot %[[QW]], %arg1, %arg2 window(3) align(top_left) {schedule = #attn.schedule<tile_q = 16>}
func.func @attention(%q: tensor<16x8xf32>, %k: tensor<32x5xf32>, %v: tensor<32x4xf32>, %w: tensor<8x5xf32>) -> tensor<16x4xf32> {
  %o = attn.attention bilinear %q, %k, %v weight(%w : tensor<8x5xf32>) window(3) align(top_left) {schedule = #attn.schedule<tile_q = 16>} : tensor<16x8xf32>, tensor<32x5xf32>, tensor<32x4xf32> -> tensor<16x4xf32>
  return %o : tensor<16x4xf32>
}

// Other kinds are left alone.
// CHECK-LABEL: func @dot_untouched
// CHECK-NEXT: attn.score dot
func.func @dot_untouched(%q: tensor<16x8xf32>, %k: tensor<32x8xf32>) -> tensor<16x32xf32> {
  %s = attn.score dot %q, %k : tensor<16x8xf32>, tensor<32x8xf32> -> tensor<16x32xf32>
  return %s : tensor<16x32xf32>
}
