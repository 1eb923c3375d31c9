func.func @tanh_sweep(%q: tensor<?x1xf32>, %k: tensor<1x1xf32>, %wa: tensor<1x2xf32>, %va: tensor<1xf32>) -> tensor<?x1xf32> {
  %s = attn.score additive %q, %k weight(%wa : tensor<1x2xf32>) vec(%va : tensor<1xf32>) : tensor<?x1xf32>, tensor<1x1xf32> -> tensor<?x1xf32>
  return %s : tensor<?x1xf32>
}
