// Cross-attention with grouped-query attention: 64 decoder positions attend over a padded batch of
// encoder outputs (up to 96 positions, the true lengths in %len). 8 query heads share 2 kv heads
// (each kv head serves 4 query heads); dk = dv = 32.
//   attn-run examples/cross_attention_gqa.mlir --random-inputs --check
func.func @cross_attention_gqa(%dec: tensor<4x64x256xf32>, %enc: tensor<4x96x192xf32>,
                               %wq: tensor<256x256xf32>, %wk: tensor<192x64xf32>,
                               %wv: tensor<192x64xf32>, %wo: tensor<256x256xf32>,
                               %len: tensor<4xi32>) -> tensor<4x64x256xf32> {
  %y = attn.multi_head scaled_dot %dec, %enc heads(8) kv_heads(2)
         proj(%wq, %wk, %wv, %wo : tensor<256x256xf32>, tensor<192x64xf32>, tensor<192x64xf32>, tensor<256x256xf32>)
         key_lengths(%len : tensor<4xi32>)
         : tensor<4x64x256xf32>, tensor<4x96x192xf32> -> tensor<4x64x256xf32>
  return %y : tensor<4x64x256xf32>
}
