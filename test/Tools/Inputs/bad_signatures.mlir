func.func @scalar_arg(%x: f32, %t: tensor<4xf32>) -> tensor<4xf32> {
  return %t : tensor<4xf32>
}
func.func @no_results(%x: tensor<4xf32>) {
  return
}
func.func @i64_arg(%x: tensor<4xi64>) -> tensor<4xi64> {
  return %x : tensor<4xi64>
}
