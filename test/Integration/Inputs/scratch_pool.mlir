// A fused kernel whose scratch (K and V staged per head: 256 KiB each) is allocated on the heap.
func.func @pooled(%q: tensor<1x2x1024x64xf32>, %k: tensor<1x2x1024x64xf32>, %v: tensor<1x2x1024x64xf32>) -> tensor<1x2x1024x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<1x2x1024x64xf32>, tensor<1x2x1024x64xf32>, tensor<1x2x1024x64xf32> -> tensor<1x2x1024x64xf32>
  return %o : tensor<1x2x1024x64xf32>
}
