// attn.weighted_sum at awkward sizes (Dv = 65 crosses a vector boundary; 1 x 1 is the extreme).
// RUN: attn-run %s --entry=batched --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=single --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=narrow --random-inputs --check | FileCheck %s
// CHECK: check result #0 {{.*}}: ok

func.func @batched(%p: tensor<3x13x17xf32>, %v: tensor<3x17x65xf32>) -> tensor<3x13x65xf32> {
  %c = attn.weighted_sum %p, %v : tensor<3x13x17xf32>, tensor<3x17x65xf32> -> tensor<3x13x65xf32>
  return %c : tensor<3x13x65xf32>
}
func.func @single(%p: tensor<1x1xf32>, %v: tensor<1x1xf32>) -> tensor<1x1xf32> {
  %c = attn.weighted_sum %p, %v : tensor<1x1xf32>, tensor<1x1xf32> -> tensor<1x1xf32>
  return %c : tensor<1x1xf32>
}
func.func @narrow(%p: tensor<2x7x3xf32>, %v: tensor<2x3x13xf32>) -> tensor<2x7x13xf32> {
  %c = attn.weighted_sum %p, %v : tensor<2x7x3xf32>, tensor<2x3x13xf32> -> tensor<2x7x13xf32>
  return %c : tensor<2x7x13xf32>
}
