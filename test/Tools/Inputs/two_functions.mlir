func.func @first(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %p = attn.softmax %x : tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}
func.func @second(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %p = attn.softmax %x axis(0) : tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}
func.func private @helper(%x: tensor<4x8xf32>) -> tensor<4x8xf32>
