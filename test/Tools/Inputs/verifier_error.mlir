func.func @f(%q: tensor<4x8xf32>, %k: tensor<6x5xf32>) -> tensor<4x6xf32> {
  %s = attn.score dot %q, %k : tensor<4x8xf32>, tensor<6x5xf32> -> tensor<4x6xf32>
  return %s : tensor<4x6xf32>
}
