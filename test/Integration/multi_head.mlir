// attn.multi_head with and without biases, MHA, GQA, MQA, cross-attention, masks.
// RUN: attn-run %s --entry=self_biases_causal --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=no_biases --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=gqa_cross_padded --random-inputs --seed=2 --check | FileCheck %s
// RUN: attn-run %s --entry=mqa_masks --random-inputs --seed=3 --check | FileCheck %s
// A hand-written schedule (its projections'), decomposed and lowered whole:
// RUN: attn-run %s --entry=hand_schedule --random-inputs --seed=4 --check | FileCheck %s
// RUN: attn-run %s --entry=hand_schedule --fuse=false --random-inputs --seed=4 --check | FileCheck %s
// CHECK: check result #0 {{.*}}: ok

func.func @self_biases_causal(%x: tensor<2x13x24xf32>, %wq: tensor<24x24xf32>, %wk: tensor<24x24xf32>, %wv: tensor<24x24xf32>, %wo: tensor<24x24xf32>,
                              %bq: tensor<24xf32>, %bk: tensor<24xf32>, %bv: tensor<24xf32>, %bo: tensor<24xf32>) -> tensor<2x13x24xf32> {
  %y = attn.multi_head scaled_dot %x, %x heads(4) proj(%wq, %wk, %wv, %wo : tensor<24x24xf32>, tensor<24x24xf32>, tensor<24x24xf32>, tensor<24x24xf32>)
         bias_q(%bq : tensor<24xf32>) bias_k(%bk : tensor<24xf32>) bias_v(%bv : tensor<24xf32>) bias_o(%bo : tensor<24xf32>)
         causal align(top_left) : tensor<2x13x24xf32>, tensor<2x13x24xf32> -> tensor<2x13x24xf32>
  return %y : tensor<2x13x24xf32>
}
func.func @no_biases(%x: tensor<1x7x17xf32>, %wq: tensor<17x12xf32>, %wk: tensor<17x12xf32>, %wv: tensor<17x9xf32>, %wo: tensor<9x5xf32>) -> tensor<1x7x5xf32> {
  %y = attn.multi_head dot %x, %x heads(3) proj(%wq, %wk, %wv, %wo : tensor<17x12xf32>, tensor<17x12xf32>, tensor<17x9xf32>, tensor<9x5xf32>)
         : tensor<1x7x17xf32>, tensor<1x7x17xf32> -> tensor<1x7x5xf32>
  return %y : tensor<1x7x5xf32>
}
// 8 query heads over 2 kv heads, decoder over a padded encoder memory, dv != dk, E_out != E.
func.func @gqa_cross_padded(%dec: tensor<3x13x32xf32>, %enc: tensor<3x17x20xf32>, %wq: tensor<32x32xf32>, %wk: tensor<20x8xf32>, %wv: tensor<20x6xf32>,
                            %wo: tensor<24x10xf32>, %bv: tensor<6xf32>, %len: tensor<3xi32>) -> tensor<3x13x10xf32> {
  %y = attn.multi_head scaled_dot %dec, %enc heads(8) kv_heads(2) proj(%wq, %wk, %wv, %wo : tensor<32x32xf32>, tensor<20x8xf32>, tensor<20x6xf32>, tensor<24x10xf32>)
         bias_v(%bv : tensor<6xf32>) key_lengths(%len : tensor<3xi32>) : tensor<3x13x32xf32>, tensor<3x17x20xf32> -> tensor<3x13x10xf32>
  return %y : tensor<3x13x10xf32>
}
// One kv head for 4 query heads, a keep-mask per batch and head and an ALiBi-like bias per head.
func.func @mqa_masks(%x: tensor<2x9x16xf32>, %wq: tensor<16x16xf32>, %wk: tensor<16x4xf32>, %wv: tensor<16x4xf32>, %wo: tensor<16x16xf32>,
                     %keep: tensor<2x4x9x9xi1>, %bias: tensor<4x9x9xf32>) -> (tensor<2x9x16xf32>, tensor<2x9x16xf32>) {
  %a = attn.multi_head scaled_dot %x, %x heads(4) kv_heads(1) proj(%wq, %wk, %wv, %wo : tensor<16x16xf32>, tensor<16x4xf32>, tensor<16x4xf32>, tensor<16x16xf32>)
         window(3) align(top_left) mask(%keep : tensor<2x4x9x9xi1>) : tensor<2x9x16xf32>, tensor<2x9x16xf32> -> tensor<2x9x16xf32>
  %b = attn.multi_head dot %x, %x heads(4) kv_heads(1) proj(%wq, %wk, %wv, %wo : tensor<16x16xf32>, tensor<16x4xf32>, tensor<16x4xf32>, tensor<16x16xf32>)
         mask(%bias : tensor<4x9x9xf32>) : tensor<2x9x16xf32>, tensor<2x9x16xf32> -> tensor<2x9x16xf32>
  return %a, %b : tensor<2x9x16xf32>, tensor<2x9x16xf32>
}
// Projections in tiles of 8 rows, 4-lane vectors and register blocks of 3 x 2 vectors; the
// decomposed attention takes the heuristic's schedule.
func.func @hand_schedule(%x: tensor<2x19x20xf32>, %wq: tensor<20x24xf32>, %wk: tensor<20x12xf32>, %wv: tensor<20x12xf32>, %wo: tensor<24x20xf32>,
                         %bq: tensor<24xf32>, %bo: tensor<20xf32>) -> tensor<2x19x20xf32> {
  %y = attn.multi_head scaled_dot %x, %x heads(4) kv_heads(2) proj(%wq, %wk, %wv, %wo : tensor<20x24xf32>, tensor<20x12xf32>, tensor<20x12xf32>, tensor<24x20xf32>)
         bias_q(%bq : tensor<24xf32>) bias_o(%bo : tensor<20xf32>) causal align(top_left)
         {schedule = #attn.schedule<tile_q = 8, vector = 4, reg_q = 3, reg_v = 2, parallel = "tiles">} : tensor<2x19x20xf32>, tensor<2x19x20xf32> -> tensor<2x19x20xf32>
  return %y : tensor<2x19x20xf32>
}
