func.func @f(%x: tensor<4x8xi32>) {
  %0 = attn.softmax %x : tensor<4x8xi32>
  return
}
