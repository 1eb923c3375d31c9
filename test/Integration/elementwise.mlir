// arith.addf/subf/mulf on tensors and tensor.cast between attn ops.
// RUN: attn-run %s --entry=residual --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=cast_and_arith --random-inputs --arg-shapes=5x8,7x8 --check | FileCheck %s
// CHECK: check result #0 {{.*}}: ok

func.func @residual(%x: tensor<2x13x16xf32>, %w: tensor<16x16xf32>) -> tensor<2x13x16xf32> {
  %a = attn.multi_head scaled_dot %x, %x heads(2) proj(%w, %w, %w, %w : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) : tensor<2x13x16xf32>, tensor<2x13x16xf32> -> tensor<2x13x16xf32>
  %y = arith.addf %x, %a : tensor<2x13x16xf32>
  return %y : tensor<2x13x16xf32>
}
func.func @cast_and_arith(%q: tensor<?x8xf32>, %k: tensor<?x8xf32>) -> tensor<5x8xf32> {
  %qs = tensor.cast %q : tensor<?x8xf32> to tensor<5x8xf32>
  %o = attn.attention dot %qs, %k, %k : tensor<5x8xf32>, tensor<?x8xf32>, tensor<?x8xf32> -> tensor<5x8xf32>
  %d = arith.subf %o, %qs : tensor<5x8xf32>
  %m = arith.mulf %d, %qs : tensor<5x8xf32>
  return %m : tensor<5x8xf32>
}
