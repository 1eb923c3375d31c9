func.func @att(%q: tensor<2x64x32xf32>, %k: tensor<2x96x32xf32>, %v: tensor<2x96x32xf32>) -> tensor<2x64x32xf32> {
  %o = attn.attention scaled_dot %q, %k, %v causal align(bottom_right) : tensor<2x64x32xf32>, tensor<2x96x32xf32>, tensor<2x96x32xf32> -> tensor<2x64x32xf32>
  return %o : tensor<2x64x32xf32>
}
