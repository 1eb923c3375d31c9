// Causal self-attention of 2 batch elements x 3 heads over 5 positions: 6 heatmap panels. @weights
// returns the context and then the weights; @context returns no weights at all.
func.func @weights(%q: tensor<2x3x5x8xf32>, %k: tensor<2x3x5x8xf32>) -> (tensor<2x3x5x8xf32>, tensor<2x3x5x5xf32>) {
  %s = attn.score scaled_dot %q, %k : tensor<2x3x5x8xf32>, tensor<2x3x5x8xf32> -> tensor<2x3x5x5xf32>
  %m = attn.mask %s causal align(top_left) : tensor<2x3x5x5xf32>
  %w = attn.softmax %m : tensor<2x3x5x5xf32>
  %c = attn.weighted_sum %w, %k : tensor<2x3x5x5xf32>, tensor<2x3x5x8xf32> -> tensor<2x3x5x8xf32>
  return %c, %w : tensor<2x3x5x8xf32>, tensor<2x3x5x5xf32>
}
func.func @context(%q: tensor<4x8xf32>, %k: tensor<6x8xf32>, %v: tensor<6x8xf32>) -> tensor<4x8xf32> {
  %o = attn.attention dot %q, %k, %v : tensor<4x8xf32>, tensor<6x8xf32>, tensor<6x8xf32> -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}
