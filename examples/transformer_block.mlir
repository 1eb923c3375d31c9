// A transformer encoder's self-attention sublayer: y = x + MultiHead(x), 8 heads of 32 over a
// 256-wide model, with every projection bias (B = 2 sequences of 128 tokens).
//   attn-run examples/transformer_block.mlir --random-inputs --check --bench
func.func @transformer_block(%x: tensor<2x128x256xf32>,
                             %wq: tensor<256x256xf32>, %wk: tensor<256x256xf32>,
                             %wv: tensor<256x256xf32>, %wo: tensor<256x256xf32>,
                             %bq: tensor<256xf32>, %bk: tensor<256xf32>,
                             %bv: tensor<256xf32>, %bo: tensor<256xf32>) -> tensor<2x128x256xf32> {
  %a = attn.multi_head scaled_dot %x, %x heads(8)
         proj(%wq, %wk, %wv, %wo : tensor<256x256xf32>, tensor<256x256xf32>, tensor<256x256xf32>, tensor<256x256xf32>)
         bias_q(%bq : tensor<256xf32>) bias_k(%bk : tensor<256xf32>)
         bias_v(%bv : tensor<256xf32>) bias_o(%bo : tensor<256xf32>)
         : tensor<2x128x256xf32>, tensor<2x128x256xf32> -> tensor<2x128x256xf32>
  %y = arith.addf %x, %a : tensor<2x128x256xf32>
  return %y : tensor<2x128x256xf32>
}
