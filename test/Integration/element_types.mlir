// f16 and bf16 arguments and results (kernels compute in f32; the tolerance adds the results'
// rounding: 2e-3 for f16, 1e-2 for bf16, of the largest magnitude).
// RUN: attn-run %s --entry=chain_f16 --random-inputs --check | FileCheck %s --check-prefixes=CHECK,TWO
// RUN: attn-run %s --entry=attention_bf16 --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=attention_f16_bias --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=multi_head_bf16 --random-inputs --check | FileCheck %s
// CHECK: check result #0 {{.*}}: ok
// TWO: check result #1 {{.*}}: ok

func.func @chain_f16(%q: tensor<3x13x7xf16>, %k: tensor<3x17x7xf16>, %v: tensor<3x17x65xf16>, %w: tensor<7x7xf16>, %keep: tensor<3x1x17xi1>) -> (tensor<3x13x65xf16>, tensor<3x13x17xf16>) {
  %s = attn.score bilinear %q, %k weight(%w : tensor<7x7xf16>) : tensor<3x13x7xf16>, tensor<3x17x7xf16> -> tensor<3x13x17xf16>
  %m = attn.mask %s window(4) align(top_left) mask(%keep : tensor<3x1x17xi1>) : tensor<3x13x17xf16>
  %p = attn.softmax %m : tensor<3x13x17xf16>
  %p0 = attn.softmax %m axis(1) : tensor<3x13x17xf16>
  %c = attn.weighted_sum %p, %v : tensor<3x13x17xf16>, tensor<3x17x65xf16> -> tensor<3x13x65xf16>
  return %c, %p0 : tensor<3x13x65xf16>, tensor<3x13x17xf16>
}
func.func @attention_bf16(%q: tensor<2x4x13x16xbf16>, %k: tensor<2x2x17x16xbf16>, %v: tensor<2x2x17x16xbf16>) -> tensor<2x4x13x16xbf16> {
  %o = attn.attention scaled_dot %q, %k, %v causal align(top_left) : tensor<2x4x13x16xbf16>, tensor<2x2x17x16xbf16>, tensor<2x2x17x16xbf16> -> tensor<2x4x13x16xbf16>
  return %o : tensor<2x4x13x16xbf16>
}
func.func @attention_f16_bias(%q: tensor<13x8xf16>, %k: tensor<17x8xf16>, %v: tensor<17x3xf16>, %wa: tensor<5x16xf16>, %va: tensor<5xf16>, %bias: tensor<13x17xf16>) -> tensor<13x3xf16> {
  %o = attn.attention additive %q, %k, %v weight(%wa : tensor<5x16xf16>) vec(%va : tensor<5xf16>) mask(%bias : tensor<13x17xf16>) : tensor<13x8xf16>, tensor<17x8xf16>, tensor<17x3xf16> -> tensor<13x3xf16>
  return %o : tensor<13x3xf16>
}
func.func @multi_head_bf16(%x: tensor<2x7x16xbf16>, %w: tensor<16x16xbf16>, %b: tensor<16xbf16>) -> tensor<2x7x16xbf16> {
  %y = attn.multi_head scaled_dot %x, %x heads(2) proj(%w, %w, %w, %w : tensor<16x16xbf16>, tensor<16x16xbf16>, tensor<16x16xbf16>, tensor<16x16xbf16>)
         bias_q(%b : tensor<16xbf16>) bias_o(%b : tensor<16xbf16>) : tensor<2x7x16xbf16>, tensor<2x7x16xbf16> -> tensor<2x7x16xbf16>
  return %y : tensor<2x7x16xbf16>
}
