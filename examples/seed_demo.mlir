// The demo of the attention lesson this project started from (examples/data/make_seed_demo.py
// reproduces its numpy code): translating "je suis content", the decoder's
// previous state attends over the three encoder states H (D = 8), once with the additive (Bahdanau)
// scorer v_a^T tanh(W_a [q; k]) (d_a = 4) and once with scaled dot-product scores q.k / sqrt(D).
// Inputs: q = mean(H) as a [1, 8] row, H [3, 8] (keys and values), W_a [4, 16], v_a [4].
// Results: additive weights [1, 3], additive context [1, 8], dot weights [1, 3], dot context [1, 8].
func.func @seed_demo(%q: tensor<1x8xf32>, %h: tensor<3x8xf32>, %wa: tensor<4x16xf32>, %va: tensor<4xf32>)
    -> (tensor<1x3xf32>, tensor<1x8xf32>, tensor<1x3xf32>, tensor<1x8xf32>) {
  %s_add = attn.score additive %q, %h weight(%wa : tensor<4x16xf32>) vec(%va : tensor<4xf32>)
      : tensor<1x8xf32>, tensor<3x8xf32> -> tensor<1x3xf32>
  %w_add = attn.softmax %s_add : tensor<1x3xf32>
  %c_add = attn.weighted_sum %w_add, %h : tensor<1x3xf32>, tensor<3x8xf32> -> tensor<1x8xf32>

  %s_dot = attn.score scaled_dot %q, %h : tensor<1x8xf32>, tensor<3x8xf32> -> tensor<1x3xf32>
  %w_dot = attn.softmax %s_dot : tensor<1x3xf32>
  %c_dot = attn.weighted_sum %w_dot, %h : tensor<1x3xf32>, tensor<3x8xf32> -> tensor<1x8xf32>
  return %w_add, %c_add, %w_dot, %c_dot : tensor<1x3xf32>, tensor<1x8xf32>, tensor<1x3xf32>, tensor<1x8xf32>
}
