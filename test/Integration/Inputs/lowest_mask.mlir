func.func @lowest_mask(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %mask: tensor<8x8xf32>) -> tensor<1x2x8x16xf32> {
  %s = attn.score scaled_dot %q, %k : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x8xf32>
  %m = attn.mask %s mask(%mask : tensor<8x8xf32>) : tensor<1x2x8x8xf32>
  %w = attn.softmax %m : tensor<1x2x8x8xf32>
  %o = attn.weighted_sum %w, %v : tensor<1x2x8x8xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return %o : tensor<1x2x8x16xf32>
}
