func.func @f(%q: tensor<16x64xf32>, %k: tensor<32x64xf32>) {
  %0 = attn.score cosine %q, %k : tensor<16x64xf32>, tensor<32x64xf32> -> tensor<16x32xf32>
  return
}
