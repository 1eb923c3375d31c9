func.func @f(%q: tensor<16x64xf32>) {
  %0 = attn.softmax %q : tensor<16x64xf32
  return
}
