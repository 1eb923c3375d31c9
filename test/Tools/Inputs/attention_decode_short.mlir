func.func @dec(%q: tensor<8x1x32xf32>, %k: tensor<8x96x32xf32>, %v: tensor<8x96x32xf32>) -> tensor<8x1x32xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<8x1x32xf32>, tensor<8x96x32xf32>, tensor<8x96x32xf32> -> tensor<8x1x32xf32>
  return %o : tensor<8x1x32xf32>
}
