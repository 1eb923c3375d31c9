// One step of a causal decoder with a KV cache: each of 8 sequences has one new query per head
// (8 heads, GQA over 2 kv heads) attending over a cache of any length (dynamic Tk). The causal
// mask is bottom-right aligned: the new token sits after every cached one. %len holds each
// sequence's valid cache length (the rest is padding).
//   attn-run examples/decoder_step.mlir --random-inputs --arg-shapes=8x8x1x64,8x2x2048x64,8x2x2048x64,8 --check
func.func @decoder_step(%q: tensor<8x8x1x64xf32>, %kcache: tensor<8x2x?x64xf32>,
                        %vcache: tensor<8x2x?x64xf32>, %len: tensor<8xi32>) -> tensor<8x8x1x64xf32> {
  %o = attn.attention scaled_dot %q, %kcache, %vcache causal align(bottom_right)
         key_lengths(%len : tensor<8xi32>)
         : tensor<8x8x1x64xf32>, tensor<8x2x?x64xf32>, tensor<8x2x?x64xf32> -> tensor<8x8x1x64xf32>
  return %o : tensor<8x8x1x64xf32>
}
