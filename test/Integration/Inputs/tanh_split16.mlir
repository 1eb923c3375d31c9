// tanh_split.mlir with a hand-written schedule of 16-lane vectors (AVX-512's width; the heuristic
// gives additive scores 8 lanes on every x86 target): the split form with Halide's 16-lane
// fast_inverse, which it builds from two 8-lane ones.
func.func @tanh_split(%q: tensor<?x?x1xf32>, %k: tensor<?x2x1xf32>, %v: tensor<?x2x1xf32>, %wa: tensor<1x2xf32>, %va: tensor<1xf32>) -> tensor<?x?x1xf32> {
  %o = attn.attention additive %q, %k, %v weight(%wa : tensor<1x2xf32>) vec(%va : tensor<1xf32>) {schedule = #attn.schedule<tile_q = 32, block_k = 16, vector = 16, reg_q = 4, reg_k = 4, reg_v = 1, chunk_k = 128, parallel = "heads", scheduler = "hand", source = "manual">} : tensor<?x?x1xf32>, tensor<?x2x1xf32>, tensor<?x2x1xf32> -> tensor<?x?x1xf32>
  return %o : tensor<?x?x1xf32>
}
