// Shapes at and past what 32-bit indexing addresses (include/attn/Kernel/Limits.h).

// q holds 2^31 elements: one more than a kernel can index.
func.func @big_argument(%q: tensor<65536x32768xf32>, %k: tensor<4x32768xf32>) -> tensor<65536x4xf32> {
  %s = attn.score dot %q, %k : tensor<65536x32768xf32>, tensor<4x32768xf32> -> tensor<65536x4xf32>
  return %s : tensor<65536x4xf32>
}

// Unfused, the scores are an intermediate of 30000 x 30000 f32 = 3.6e9 bytes; fused (the default)
// attn.attention never stores them.
func.func @big_scores(%q: tensor<30000x8xf32>, %k: tensor<30000x8xf32>, %v: tensor<30000x8xf32>) -> tensor<30000x8xf32> {
  %s = attn.score dot %q, %k : tensor<30000x8xf32>, tensor<30000x8xf32> -> tensor<30000x30000xf32>
  %p = attn.softmax %s : tensor<30000x30000xf32>
  %c = attn.weighted_sum %p, %v : tensor<30000x30000xf32>, tensor<30000x8xf32> -> tensor<30000x8xf32>
  return %c : tensor<30000x8xf32>
}

// The same with dynamic shapes: checked when the sizes are known, before anything is allocated.
func.func @dynamic_scores(%q: tensor<?x8xf32>, %k: tensor<?x8xf32>, %v: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %s = attn.score dot %q, %k : tensor<?x8xf32>, tensor<?x8xf32> -> tensor<?x?xf32>
  %p = attn.softmax %s : tensor<?x?xf32>
  %c = attn.weighted_sum %p, %v : tensor<?x?xf32>, tensor<?x8xf32> -> tensor<?x8xf32>
  return %c : tensor<?x8xf32>
}
