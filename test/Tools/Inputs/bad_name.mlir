func.func @"attention.v2"(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %p = attn.softmax %x : tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}
