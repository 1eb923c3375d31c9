// attn.mask, each option alone and combined, on [2, 3, Tq, Tk] scores with Tq != Tk. Masked
// entries must be exactly -inf where the reference has -inf (attn-run --check counts them).
// RUN: attn-run %s --entry=causal_top_left --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=causal_bottom_right --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=causal_bottom_right_tall --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=window_symmetric --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=causal_window --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=key_lengths_batch --random-inputs --seed=7 --check | FileCheck %s
// RUN: attn-run %s --entry=key_lengths_batch_heads --random-inputs --seed=8 --check | FileCheck %s
// RUN: attn-run %s --entry=keep_mask_broadcast --random-inputs --seed=9 --check | FileCheck %s
// RUN: attn-run %s --entry=bias_broadcast --random-inputs --seed=10 --check | FileCheck %s
// RUN: attn-run %s --entry=everything --random-inputs --seed=11 --check | FileCheck %s
// CHECK: check result #0 {{.*}}: ok

func.func @causal_top_left(%s: tensor<2x3x13x17xf32>) -> tensor<2x3x13x17xf32> {
  %m = attn.mask %s causal align(top_left) : tensor<2x3x13x17xf32>
  return %m : tensor<2x3x13x17xf32>
}
func.func @causal_bottom_right(%s: tensor<2x3x13x17xf32>) -> tensor<2x3x13x17xf32> {
  %m = attn.mask %s causal align(bottom_right) : tensor<2x3x13x17xf32>
  return %m : tensor<2x3x13x17xf32>
}
// Tq > Tk with bottom-right alignment: the first 4 query rows see no key at all.
func.func @causal_bottom_right_tall(%s: tensor<17x13xf32>) -> tensor<17x13xf32> {
  %m = attn.mask %s causal align(bottom_right) : tensor<17x13xf32>
  return %m : tensor<17x13xf32>
}
func.func @window_symmetric(%s: tensor<2x3x13x17xf32>) -> tensor<2x3x13x17xf32> {
  %m = attn.mask %s window(3) align(bottom_right) : tensor<2x3x13x17xf32>
  return %m : tensor<2x3x13x17xf32>
}
func.func @causal_window(%s: tensor<2x3x13x17xf32>) -> tensor<2x3x13x17xf32> {
  %m = attn.mask %s causal window(4) align(top_left) : tensor<2x3x13x17xf32>
  return %m : tensor<2x3x13x17xf32>
}
func.func @key_lengths_batch(%s: tensor<2x3x13x17xf32>, %len: tensor<2xi32>) -> tensor<2x3x13x17xf32> {
  %m = attn.mask %s key_lengths(%len : tensor<2xi32>) : tensor<2x3x13x17xf32>
  return %m : tensor<2x3x13x17xf32>
}
func.func @key_lengths_batch_heads(%s: tensor<2x3x13x17xf32>, %len: tensor<2x3xi32>) -> tensor<2x3x13x17xf32> {
  %m = attn.mask %s key_lengths(%len : tensor<2x3xi32>) : tensor<2x3x13x17xf32>
  return %m : tensor<2x3x13x17xf32>
}
func.func @keep_mask_broadcast(%s: tensor<2x3x13x17xf32>, %keep: tensor<2x1x1x17xi1>) -> tensor<2x3x13x17xf32> {
  %m = attn.mask %s mask(%keep : tensor<2x1x1x17xi1>) : tensor<2x3x13x17xf32>
  return %m : tensor<2x3x13x17xf32>
}
func.func @bias_broadcast(%s: tensor<2x3x13x17xf32>, %bias: tensor<3x13x17xf32>) -> tensor<2x3x13x17xf32> {
  %m = attn.mask %s mask(%bias : tensor<3x13x17xf32>) : tensor<2x3x13x17xf32>
  return %m : tensor<2x3x13x17xf32>
}
func.func @everything(%s: tensor<2x3x13x17xf32>, %len: tensor<2xi32>, %keep: tensor<13x17xi1>) -> tensor<2x3x13x17xf32> {
  %m = attn.mask %s causal window(6) align(bottom_right) key_lengths(%len : tensor<2xi32>) mask(%keep : tensor<13x17xi1>) : tensor<2x3x13x17xf32>
  return %m : tensor<2x3x13x17xf32>
}
