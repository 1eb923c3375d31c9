func.func @uses_empty(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %y = arith.addf %x, %e : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
