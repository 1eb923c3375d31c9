// Kernels take non-empty tensors (include/attn/Kernel/Limits.h): Dk = 0 makes every score an empty
// dot product, whose scaled_dot scale 1/sqrt(Dk) would be infinite; Tk = 0 leaves softmax nothing
// to normalize.
func.func @dk_zero(%q: tensor<1x2x4x0xf32>, %k: tensor<1x2x3x0xf32>, %v: tensor<1x2x3x8xf32>) -> tensor<1x2x4x8xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<1x2x4x0xf32>, tensor<1x2x3x0xf32>, tensor<1x2x3x8xf32> -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}
func.func @dynamic_keys(%q: tensor<4x8xf32>, %k: tensor<?x8xf32>, %v: tensor<?x8xf32>) -> tensor<4x8xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<4x8xf32>, tensor<?x8xf32>, tensor<?x8xf32> -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}
