// attn.attention of every kind, with masks, GQA and MQA, at awkward sizes.
// RUN: attn-run %s --entry=dot_unbatched --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=scaled_dot_gqa --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=scaled_dot_mqa_causal --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=bilinear_window --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=additive_padded --random-inputs --seed=3 --check | FileCheck %s
// RUN: attn-run %s --entry=additive_padded --random-inputs --seed=3 --target=x86-64-linux-avx-avx2-f16c-fma-sse41 --check | FileCheck %s
// RUN: attn-run %s --entry=all_masks --random-inputs --seed=4 --check | FileCheck %s --check-prefixes=CHECK,TWO
// RUN: attn-run %s --entry=chain --random-inputs --seed=5 --check | FileCheck %s
// RUN: attn-run %s --entry=result_read_twice --random-inputs --check | FileCheck %s --check-prefixes=CHECK,TWO
// CHECK: check result #0 {{.*}}: ok
// TWO: check result #1 {{.*}}: ok

func.func @dot_unbatched(%q: tensor<13x16xf32>, %k: tensor<17x16xf32>, %v: tensor<17x65xf32>) -> tensor<13x65xf32> {
  %o = attn.attention dot %q, %k, %v : tensor<13x16xf32>, tensor<17x16xf32>, tensor<17x65xf32> -> tensor<13x65xf32>
  return %o : tensor<13x65xf32>
}
func.func @scaled_dot_gqa(%q: tensor<1x8x13x16xf32>, %k: tensor<1x2x17x16xf32>, %v: tensor<1x2x17x7xf32>) -> tensor<1x8x13x7xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<1x8x13x16xf32>, tensor<1x2x17x16xf32>, tensor<1x2x17x7xf32> -> tensor<1x8x13x7xf32>
  return %o : tensor<1x8x13x7xf32>
}
func.func @scaled_dot_mqa_causal(%q: tensor<2x4x7x8xf32>, %k: tensor<2x1x9x8xf32>, %v: tensor<2x1x9x8xf32>) -> tensor<2x4x7x8xf32> {
  %o = attn.attention scaled_dot %q, %k, %v causal align(bottom_right) : tensor<2x4x7x8xf32>, tensor<2x1x9x8xf32>, tensor<2x1x9x8xf32> -> tensor<2x4x7x8xf32>
  return %o : tensor<2x4x7x8xf32>
}
func.func @bilinear_window(%q: tensor<3x13x7xf32>, %k: tensor<3x17x5xf32>, %v: tensor<3x17x3xf32>, %w: tensor<7x5xf32>) -> tensor<3x13x3xf32> {
  %o = attn.attention bilinear %q, %k, %v weight(%w : tensor<7x5xf32>) window(2) align(top_left) : tensor<3x13x7xf32>, tensor<3x17x5xf32>, tensor<3x17x3xf32> -> tensor<3x13x3xf32>
  return %o : tensor<3x13x3xf32>
}
func.func @additive_padded(%q: tensor<2x13x7xf32>, %k: tensor<2x17x3xf32>, %v: tensor<2x17x5xf32>, %wa: tensor<6x10xf32>, %va: tensor<6xf32>, %len: tensor<2xi32>) -> tensor<2x13x5xf32> {
  %o = attn.attention additive %q, %k, %v weight(%wa : tensor<6x10xf32>) vec(%va : tensor<6xf32>) key_lengths(%len : tensor<2xi32>) : tensor<2x13x7xf32>, tensor<2x17x3xf32>, tensor<2x17x5xf32> -> tensor<2x13x5xf32>
  return %o : tensor<2x13x5xf32>
}
func.func @all_masks(%q: tensor<2x3x13x16xf32>, %k: tensor<2x3x17x16xf32>, %v: tensor<2x3x17x16xf32>, %len: tensor<2x3xi32>, %keep: tensor<2x1x13x17xi1>, %bias: tensor<13x17xf32>) -> (tensor<2x3x13x16xf32>, tensor<2x3x13x16xf32>) {
  %o = attn.attention scaled_dot %q, %k, %v scale(0.5) causal window(5) align(bottom_right) key_lengths(%len : tensor<2x3xi32>) mask(%keep : tensor<2x1x13x17xi1>) : tensor<2x3x13x16xf32>, tensor<2x3x17x16xf32>, tensor<2x3x17x16xf32> -> tensor<2x3x13x16xf32>
  %b = attn.attention dot %q, %k, %v mask(%bias : tensor<13x17xf32>) : tensor<2x3x13x16xf32>, tensor<2x3x17x16xf32>, tensor<2x3x17x16xf32> -> tensor<2x3x13x16xf32>
  return %o, %b : tensor<2x3x13x16xf32>, tensor<2x3x13x16xf32>
}
// CHECK-NOT: FAIL
// The unfused chain, written op by op.
func.func @chain(%q: tensor<3x13x7xf32>, %k: tensor<3x17x7xf32>, %v: tensor<3x17x65xf32>, %len: tensor<3xi32>) -> tensor<3x13x65xf32> {
  %s = attn.score scaled_dot %q, %k : tensor<3x13x7xf32>, tensor<3x17x7xf32> -> tensor<3x13x17xf32>
  %m = attn.mask %s causal align(top_left) key_lengths(%len : tensor<3xi32>) : tensor<3x13x17xf32>
  %p = attn.softmax %m : tensor<3x13x17xf32>
  %c = attn.weighted_sum %p, %v : tensor<3x13x17xf32>, tensor<3x17x65xf32> -> tensor<3x13x65xf32>
  return %c : tensor<3x13x65xf32>
}
// The attention result read twice (returned, and by an add): the kernel then keeps its own result
// buffer rather than being computed into one of its readers (test/CodeGen/Halide/cpu-schedule.mlir).
func.func @result_read_twice(%q: tensor<1x2x37x16xf32>, %k: tensor<1x2x41x16xf32>, %v: tensor<1x2x41x16xf32>) -> (tensor<1x2x37x16xf32>, tensor<1x2x37x16xf32>) {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<1x2x37x16xf32>, tensor<1x2x41x16xf32>, tensor<1x2x41x16xf32> -> tensor<1x2x37x16xf32>
  %s = arith.addf %o, %o : tensor<1x2x37x16xf32>
  return %o, %s : tensor<1x2x37x16xf32>, tensor<1x2x37x16xf32>
}
