// The smallest kernel: attn-compile on it at build time writes the host target's runtime
// (attn_runtime.a and its headers), which `cmake --install` installs as attn::runtime.
func.func @attn_runtime_probe(%x: tensor<1x1xf32>) -> tensor<1x1xf32> {
  %p = attn.softmax %x : tensor<1x1xf32>
  return %p : tensor<1x1xf32>
}
