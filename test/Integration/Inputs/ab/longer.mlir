// Another key count: a different signature.
func.func @attn(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x96x16xf32>, %v: tensor<1x2x96x16xf32>) -> tensor<1x2x64x16xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<1x2x64x16xf32>, tensor<1x2x96x16xf32>, tensor<1x2x96x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}
