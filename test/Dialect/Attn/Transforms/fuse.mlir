// RUN: attn-opt %s --attn-fuse --split-input-file | FileCheck %s

// CHECK-LABEL: func @fuses_masked_chain
// CHECK-NEXT: %[[O:.*]] = attn.attention scaled_dot %arg0, %arg1, %arg2 scale(5.000000e-01) causal align(bottom_right) key_lengths(%arg3 : tensor<2xi32>) : tensor<2x16x8xf32>, tensor<2x32x8xf32>, tensor<2x32x4xf32> -> tensor<2x16x4xf32>
// CHECK-NEXT: return %[[O]]
func.func @fuses_masked_chain(%q: tensor<2x16x8xf32>, %k: tensor<2x32x8xf32>, %v: tensor<2x32x4xf32>, %len: tensor<2xi32>) -> tensor<2x16x4xf32> {
  %s = attn.score scaled_dot %q, %k scale(0.5) : tensor<2x16x8xf32>, tensor<2x32x8xf32> -> tensor<2x16x32xf32>
  %m = attn.mask %s causal align(bottom_right) key_lengths(%len : tensor<2xi32>) : tensor<2x16x32xf32>
  %p = attn.softmax %m : tensor<2x16x32xf32>
  %c = attn.weighted_sum %p, %v : tensor<2x16x32xf32>, tensor<2x32x4xf32> -> tensor<2x16x4xf32>
  return %c : tensor<2x16x4xf32>
}

// CHECK-LABEL: func @fuses_unmasked_additive
// CHECK-NEXT: attn.attention additive %arg0, %arg1, %arg1 weight(%arg2 : tensor<4x16xf32>) vec(%arg3 : tensor<4xf32>)
// CHECK-NEXT: return
func.func @fuses_unmasked_additive(%q: tensor<1x8xf32>, %h: tensor<3x8xf32>, %wa: tensor<4x16xf32>, %va: tensor<4xf32>) -> tensor<1x8xf32> {
  %s = attn.score additive %q, %h weight(%wa : tensor<4x16xf32>) vec(%va : tensor<4xf32>) : tensor<1x8xf32>, tensor<3x8xf32> -> tensor<1x3xf32>
  %p = attn.softmax %s axis(1) : tensor<1x3xf32>
  %c = attn.weighted_sum %p, %h : tensor<1x3xf32>, tensor<3x8xf32> -> tensor<1x8xf32>
  return %c : tensor<1x8xf32>
}

// -----

// Not fused: the softmax runs along the query axis.
// CHECK-LABEL: func @softmax_not_last_axis
// CHECK: attn.score
// CHECK: attn.softmax %{{.*}} axis(0)
// CHECK: attn.weighted_sum
// CHECK-NOT: attn.attention
func.func @softmax_not_last_axis(%q: tensor<16x8xf32>, %k: tensor<32x8xf32>, %v: tensor<32x4xf32>) -> tensor<16x4xf32> {
  %s = attn.score dot %q, %k : tensor<16x8xf32>, tensor<32x8xf32> -> tensor<16x32xf32>
  %p = attn.softmax %s axis(0) : tensor<16x32xf32>
  %c = attn.weighted_sum %p, %v : tensor<16x32xf32>, tensor<32x4xf32> -> tensor<16x4xf32>
  return %c : tensor<16x4xf32>
}

// -----

// Not fused: the probabilities are also returned.
// CHECK-LABEL: func @probabilities_used_twice
// CHECK: attn.softmax
// CHECK: attn.weighted_sum
// CHECK-NOT: attn.attention
func.func @probabilities_used_twice(%q: tensor<16x8xf32>, %k: tensor<32x8xf32>, %v: tensor<32x4xf32>) -> (tensor<16x4xf32>, tensor<16x32xf32>) {
  %s = attn.score dot %q, %k : tensor<16x8xf32>, tensor<32x8xf32> -> tensor<16x32xf32>
  %p = attn.softmax %s : tensor<16x32xf32>
  %c = attn.weighted_sum %p, %v : tensor<16x32xf32>, tensor<32x4xf32> -> tensor<16x4xf32>
  return %c, %p : tensor<16x4xf32>, tensor<16x32xf32>
}

// -----

// Not fused: the scores are used twice.
// CHECK-LABEL: func @scores_used_twice
// CHECK-NOT: attn.attention
func.func @scores_used_twice(%q: tensor<16x8xf32>, %k: tensor<32x8xf32>, %v: tensor<32x4xf32>) -> (tensor<16x4xf32>, tensor<16x32xf32>) {
  %s = attn.score dot %q, %k : tensor<16x8xf32>, tensor<32x8xf32> -> tensor<16x32xf32>
  %p = attn.softmax %s : tensor<16x32xf32>
  %c = attn.weighted_sum %p, %v : tensor<16x32xf32>, tensor<32x4xf32> -> tensor<16x4xf32>
  return %c, %s : tensor<16x4xf32>, tensor<16x32xf32>
}

// -----

// Not fused: the masked scores are used twice.
// CHECK-LABEL: func @masked_scores_used_twice
// CHECK-NOT: attn.attention
func.func @masked_scores_used_twice(%q: tensor<16x8xf32>, %k: tensor<32x8xf32>, %v: tensor<32x4xf32>) -> (tensor<16x4xf32>, tensor<16x32xf32>) {
  %s = attn.score dot %q, %k : tensor<16x8xf32>, tensor<32x8xf32> -> tensor<16x32xf32>
  %m = attn.mask %s causal align(top_left) : tensor<16x32xf32>
  %p = attn.softmax %m : tensor<16x32xf32>
  %c = attn.weighted_sum %p, %v : tensor<16x32xf32>, tensor<32x4xf32> -> tensor<16x4xf32>
  return %c, %m : tensor<16x4xf32>, tensor<16x32xf32>
}

// -----

// Not fused: two masks in a row.
// CHECK-LABEL: func @two_masks
// CHECK-COUNT-2: attn.mask
// CHECK-NOT: attn.attention
func.func @two_masks(%q: tensor<16x8xf32>, %k: tensor<32x8xf32>, %v: tensor<32x4xf32>) -> tensor<16x4xf32> {
  %s = attn.score dot %q, %k : tensor<16x8xf32>, tensor<32x8xf32> -> tensor<16x32xf32>
  %m0 = attn.mask %s causal align(top_left) : tensor<16x32xf32>
  %m1 = attn.mask %m0 window(4) align(top_left) : tensor<16x32xf32>
  %p = attn.softmax %m1 : tensor<16x32xf32>
  %c = attn.weighted_sum %p, %v : tensor<16x32xf32>, tensor<32x4xf32> -> tensor<16x4xf32>
  return %c : tensor<16x4xf32>
}

// -----

// Not fused: the softmax's input is not a score.
// CHECK-LABEL: func @softmax_of_argument
// CHECK: attn.softmax
// CHECK-NOT: attn.attention
func.func @softmax_of_argument(%s: tensor<16x32xf32>, %v: tensor<32x4xf32>) -> tensor<16x4xf32> {
  %p = attn.softmax %s : tensor<16x32xf32>
  %c = attn.weighted_sum %p, %v : tensor<16x32xf32>, tensor<32x4xf32> -> tensor<16x4xf32>
  return %c : tensor<16x4xf32>
}
