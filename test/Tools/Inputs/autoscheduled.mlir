func.func @att(%q: tensor<32x64xf32>, %k: tensor<64x64xf32>, %v: tensor<64x64xf32>) -> tensor<32x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v {schedule = #attn.schedule<scheduler = "adams2019">} : tensor<32x64xf32>, tensor<64x64xf32>, tensor<64x64xf32> -> tensor<32x64xf32>
  return %o : tensor<32x64xf32>
}
