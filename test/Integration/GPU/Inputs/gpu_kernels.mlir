// Kernels for the GPU code tests: a GQA causal prefill, a decode (split-K), fused additive
// attention, and an unfused chain (the per-op GPU schedules).
func.func @prefill(%q: tensor<2x8x128x64xf32>, %k: tensor<2x4x128x64xf32>, %v: tensor<2x4x128x64xf32>) -> tensor<2x8x128x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v causal align(bottom_right) : tensor<2x8x128x64xf32>, tensor<2x4x128x64xf32>, tensor<2x4x128x64xf32> -> tensor<2x8x128x64xf32>
  return %o : tensor<2x8x128x64xf32>
}
func.func @decode(%q: tensor<4x8x1x64xf32>, %k: tensor<4x8x1024x64xf32>, %v: tensor<4x8x1024x64xf32>) -> tensor<4x8x1x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<4x8x1x64xf32>, tensor<4x8x1024x64xf32>, tensor<4x8x1024x64xf32> -> tensor<4x8x1x64xf32>
  return %o : tensor<4x8x1x64xf32>
}
func.func @additive(%q: tensor<2x64x32xf32>, %k: tensor<2x96x32xf32>, %v: tensor<2x96x32xf32>, %wa: tensor<32x64xf32>, %va: tensor<32xf32>) -> tensor<2x64x32xf32> {
  %o = attn.attention additive %q, %k, %v weight(%wa : tensor<32x64xf32>) vec(%va : tensor<32xf32>) : tensor<2x64x32xf32>, tensor<2x96x32xf32>, tensor<2x96x32xf32> -> tensor<2x64x32xf32>
  return %o : tensor<2x64x32xf32>
}
func.func @unfused(%q: tensor<2x64x32xf32>, %k: tensor<2x96x32xf32>, %v: tensor<2x96x32xf32>) -> (tensor<2x64x32xf32>, tensor<2x64x96xf32>) {
  %s = attn.score scaled_dot %q, %k : tensor<2x64x32xf32>, tensor<2x96x32xf32> -> tensor<2x64x96xf32>
  %m = attn.mask %s causal align(top_left) : tensor<2x64x96xf32>
  %p = attn.softmax %m : tensor<2x64x96xf32>
  %c = attn.weighted_sum %p, %v : tensor<2x64x96xf32>, tensor<2x96x32xf32> -> tensor<2x64x32xf32>
  return %c, %p : tensor<2x64x32xf32>, tensor<2x64x96xf32>
}
