func.func @f(%x: tensor<4x8xf32>) {
  %0 = attn.flash %x : tensor<4x8xf32>
  return
}
