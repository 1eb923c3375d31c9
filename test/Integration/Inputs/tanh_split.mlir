func.func @tanh_split(%q: tensor<?x?x1xf32>, %k: tensor<?x2x1xf32>, %v: tensor<?x2x1xf32>, %wa: tensor<1x2xf32>, %va: tensor<1xf32>) -> tensor<?x?x1xf32> {
  %o = attn.attention additive %q, %k, %v weight(%wa : tensor<1x2xf32>) vec(%va : tensor<1xf32>) : tensor<?x?x1xf32>, tensor<?x2x1xf32>, tensor<?x2x1xf32> -> tensor<?x?x1xf32>
  return %o : tensor<?x?x1xf32>
}
