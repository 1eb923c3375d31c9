// nn.MultiheadAttention(embed_dim=16, num_heads=4, batch_first=True) self-attention with a key
// padding mask, as attn.multi_head.
func.func @mha(%x: tensor<2x6x16xf32>, %wq: tensor<16x16xf32>, %wk: tensor<16x16xf32>, %wv: tensor<16x16xf32>, %wo: tensor<16x16xf32>,
               %bq: tensor<16xf32>, %bk: tensor<16xf32>, %bv: tensor<16xf32>, %bo: tensor<16xf32>, %len: tensor<2xi32>) -> tensor<2x6x16xf32> {
  %y = attn.multi_head scaled_dot %x, %x heads(4) proj(%wq, %wk, %wv, %wo : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>)
         bias_q(%bq : tensor<16xf32>) bias_k(%bk : tensor<16xf32>) bias_v(%bv : tensor<16xf32>) bias_o(%bo : tensor<16xf32>)
         key_lengths(%len : tensor<2xi32>) : tensor<2x6x16xf32>, tensor<2x6x16xf32> -> tensor<2x6x16xf32>
  return %y : tensor<2x6x16xf32>
}
