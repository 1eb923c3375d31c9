func.func @dyn_attention(%q: tensor<?x?x?xf32>, %k: tensor<?x?x?xf32>, %v: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %o = attn.attention dot %q, %k, %v : tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x?x?xf32> -> tensor<?x?x?xf32>
  return %o : tensor<?x?x?xf32>
}
func.func @static_softmax(%s: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %p = attn.softmax %s : tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}
func.func @static_decode(%q: tensor<1x1x16xf32>, %k: tensor<1x32x16xf32>, %v: tensor<1x32x16xf32>) -> tensor<1x1x16xf32> {
  %o = attn.attention dot %q, %k, %v : tensor<1x1x16xf32>, tensor<1x32x16xf32>, tensor<1x32x16xf32> -> tensor<1x1x16xf32>
  return %o : tensor<1x1x16xf32>
}
