func.func @kernel_a(%q: tensor<4x8xf32>, %k: tensor<6x8xf32>, %v: tensor<6x8xf32>) -> tensor<4x8xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<4x8xf32>, tensor<6x8xf32>, tensor<6x8xf32> -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}
func.func @kernel_b(%s: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %p = attn.softmax %s : tensor<4x6xf32>
  return %p : tensor<4x6xf32>
}
