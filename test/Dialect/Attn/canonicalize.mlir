// attn ops are Pure: unused ones are erased, identical ones merged, and an option-less mask folds.
// RUN: attn-opt %s --canonicalize | FileCheck %s
// RUN: attn-opt %s --cse | FileCheck %s --check-prefix=CSE

// CHECK-LABEL: func @dead_ops_fold_away
// CHECK-NOT: attn.
// CHECK: return %arg0
func.func @dead_ops_fold_away(%q: tensor<16x64xf32>, %k: tensor<32x64xf32>, %v: tensor<32x64xf32>) -> tensor<16x64xf32> {
  %s = attn.score scaled_dot %q, %k : tensor<16x64xf32>, tensor<32x64xf32> -> tensor<16x32xf32>
  %m = attn.mask %s causal align(top_left) : tensor<16x32xf32>
  %p = attn.softmax %m : tensor<16x32xf32>
  %c = attn.weighted_sum %p, %v : tensor<16x32xf32>, tensor<32x64xf32> -> tensor<16x64xf32>
  %o = attn.attention dot %q, %k, %v : tensor<16x64xf32>, tensor<32x64xf32>, tensor<32x64xf32> -> tensor<16x64xf32>
  return %q : tensor<16x64xf32>
}

// CHECK-LABEL: func @empty_mask_folds
// CHECK-NEXT: %[[S:.*]] = attn.score dot
// CHECK-NEXT: %[[P:.*]] = attn.softmax %[[S]]
// CHECK-NEXT: return %[[P]]
func.func @empty_mask_folds(%q: tensor<16x64xf32>, %k: tensor<32x64xf32>) -> tensor<16x32xf32> {
  %s = attn.score dot %q, %k : tensor<16x64xf32>, tensor<32x64xf32> -> tensor<16x32xf32>
  %m = attn.mask %s : tensor<16x32xf32>
  %p = attn.softmax %m : tensor<16x32xf32>
  return %p : tensor<16x32xf32>
}

// CHECK-LABEL: func @real_masks_stay
// CHECK: attn.mask %{{.*}} causal align(bottom_right)
func.func @real_masks_stay(%s: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %m = attn.mask %s causal align(bottom_right) : tensor<16x32xf32>
  return %m : tensor<16x32xf32>
}

// CSE-LABEL: func @cse_merges
// CSE-COUNT-1: attn.score
// CSE-NOT: attn.score
// CSE: attn.softmax
// CSE-NOT: attn.softmax
func.func @cse_merges(%q: tensor<16x64xf32>, %k: tensor<32x64xf32>) -> (tensor<16x32xf32>, tensor<16x32xf32>) {
  %s0 = attn.score dot %q, %k : tensor<16x64xf32>, tensor<32x64xf32> -> tensor<16x32xf32>
  %s1 = attn.score dot %q, %k : tensor<16x64xf32>, tensor<32x64xf32> -> tensor<16x32xf32>
  %p0 = attn.softmax %s0 : tensor<16x32xf32>
  %p1 = attn.softmax %s1 : tensor<16x32xf32>
  return %p0, %p1 : tensor<16x32xf32>, tensor<16x32xf32>
}

// Different attributes are different computations: CSE keeps both.
// CSE-LABEL: func @cse_respects_attributes
// CSE: attn.softmax %{{.*}} :
// CSE: attn.softmax %{{.*}} axis(0) :
func.func @cse_respects_attributes(%x: tensor<16x32xf32>) -> (tensor<16x32xf32>, tensor<16x32xf32>) {
  %p0 = attn.softmax %x : tensor<16x32xf32>
  %p1 = attn.softmax %x axis(0) : tensor<16x32xf32>
  return %p0, %p1 : tensor<16x32xf32>, tensor<16x32xf32>
}
