// A graph attn-compile refuses (the returned value is never defined), with heuristic.mlir's signature.
func.func @attn(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  return %nope : tensor<1x2x64x16xf32>
}
