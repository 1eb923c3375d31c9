// Canonicalization re-creates constants without a location; the unsupported op must still be
// reported where it was written.
func.func @f(%q: tensor<4x8xf32>, %k: tensor<6x8xf32>) -> (tensor<4x6xf32>, tensor<3xf32>) {
  %s = attn.score dot %q, %k : tensor<4x8xf32>, tensor<6x8xf32> -> tensor<4x6xf32>
  %c = arith.constant dense<1.0> : tensor<3xf32>
  return %s, %c : tensor<4x6xf32>, tensor<3xf32>
}
