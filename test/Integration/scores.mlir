// attn.score of every kind against the double-precision reference, at awkward sizes
// (1, 3, 5, 7, 13, 17, 65; Tq != Tk; Dq != Dk for bilinear and additive).
// RUN: attn-run %s --entry=dot --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=dot_1x1 --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=scaled_dot --random-inputs --seed=1 --check | FileCheck %s
// RUN: attn-run %s --entry=scaled_dot_scale --random-inputs --seed=2 --check | FileCheck %s
// RUN: attn-run %s --entry=bilinear --random-inputs --seed=3 --check | FileCheck %s
// RUN: attn-run %s --entry=additive --random-inputs --seed=4 --check | FileCheck %s
// RUN: attn-run %s --entry=additive_seed_shapes --random-inputs --seed=5 --check | FileCheck %s
// CHECK: check result #0 {{.*}}: ok

func.func @dot(%q: tensor<3x13x7xf32>, %k: tensor<3x17x7xf32>) -> tensor<3x13x17xf32> {
  %s = attn.score dot %q, %k : tensor<3x13x7xf32>, tensor<3x17x7xf32> -> tensor<3x13x17xf32>
  return %s : tensor<3x13x17xf32>
}
func.func @dot_1x1(%q: tensor<1x1xf32>, %k: tensor<1x1xf32>) -> tensor<1x1xf32> {
  %s = attn.score dot %q, %k : tensor<1x1xf32>, tensor<1x1xf32> -> tensor<1x1xf32>
  return %s : tensor<1x1xf32>
}
func.func @scaled_dot(%q: tensor<2x65x17xf32>, %k: tensor<2x3x17xf32>) -> tensor<2x65x3xf32> {
  %s = attn.score scaled_dot %q, %k : tensor<2x65x17xf32>, tensor<2x3x17xf32> -> tensor<2x65x3xf32>
  return %s : tensor<2x65x3xf32>
}
func.func @scaled_dot_scale(%q: tensor<13x65xf32>, %k: tensor<7x65xf32>) -> tensor<13x7xf32> {
  %s = attn.score scaled_dot %q, %k scale(0.3) : tensor<13x65xf32>, tensor<7x65xf32> -> tensor<13x7xf32>
  return %s : tensor<13x7xf32>
}
func.func @bilinear(%q: tensor<3x13x7xf32>, %k: tensor<3x17x5xf32>, %w: tensor<7x5xf32>) -> tensor<3x13x17xf32> {
  %s = attn.score bilinear %q, %k weight(%w : tensor<7x5xf32>) : tensor<3x13x7xf32>, tensor<3x17x5xf32> -> tensor<3x13x17xf32>
  return %s : tensor<3x13x17xf32>
}
func.func @additive(%q: tensor<2x13x7xf32>, %k: tensor<2x17x3xf32>, %wa: tensor<5x10xf32>, %va: tensor<5xf32>) -> tensor<2x13x17xf32> {
  %s = attn.score additive %q, %k weight(%wa : tensor<5x10xf32>) vec(%va : tensor<5xf32>) : tensor<2x13x7xf32>, tensor<2x17x3xf32> -> tensor<2x13x17xf32>
  return %s : tensor<2x13x17xf32>
}
func.func @additive_seed_shapes(%q: tensor<1x8xf32>, %k: tensor<3x8xf32>, %wa: tensor<4x16xf32>, %va: tensor<4xf32>) -> tensor<1x3xf32> {
  %s = attn.score additive %q, %k weight(%wa : tensor<4x16xf32>) vec(%va : tensor<4xf32>) : tensor<1x8xf32>, tensor<3x8xf32> -> tensor<1x3xf32>
  return %s : tensor<1x3xf32>
}
