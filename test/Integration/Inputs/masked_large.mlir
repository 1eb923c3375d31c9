// make_masked_large.py's graphs: GQA with a causal mask (its diagonal block is not cut, so the fused
// kernel takes the block's max per group of keys) and with a boolean mask, blocks of 32 keys in
// groups of 12 (the last group of a block reaches into the next one; the last block's, past Tk).
func.func @causal(%q: tensor<1x4x37x24xf32>, %k: tensor<1x2x53x24xf32>, %v: tensor<1x2x53x24xf32>) -> tensor<1x4x37x24xf32> {
  %o = attn.attention scaled_dot %q, %k, %v causal align(top_left) {schedule = #attn.schedule<tile_q = 32, block_k = 32, reg_k = 12>} : tensor<1x4x37x24xf32>, tensor<1x2x53x24xf32>, tensor<1x2x53x24xf32> -> tensor<1x4x37x24xf32>
  return %o : tensor<1x4x37x24xf32>
}
func.func @masked(%q: tensor<1x4x37x24xf32>, %k: tensor<1x2x53x24xf32>, %v: tensor<1x2x53x24xf32>, %keep: tensor<37x53xi1>) -> tensor<1x4x37x24xf32> {
  %o = attn.attention scaled_dot %q, %k, %v mask(%keep : tensor<37x53xi1>) {schedule = #attn.schedule<tile_q = 32, block_k = 32, reg_k = 12>} : tensor<1x4x37x24xf32>, tensor<1x2x53x24xf32>, tensor<1x2x53x24xf32> -> tensor<1x4x37x24xf32>
  return %o : tensor<1x4x37x24xf32>
}
