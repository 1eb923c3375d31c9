func.func @att(%q: tensor<4x8xf32>, %k: tensor<?x8xf32>, %v: tensor<?x8xf32>) -> tensor<4x8xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<4x8xf32>, tensor<?x8xf32>, tensor<?x8xf32> -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}
