// RUN: attn-opt %s --attn-decompose-multi-head | FileCheck %s

// Self-attention with biases and GQA (8 heads over 2 kv heads): projections, head splits, one
// attention over all heads that reads each kv head for its group (no copy of K or V per head),
// the head merge and the output projection.
// CHECK-LABEL: func @gqa
// CHECK-NEXT: %[[Q:.*]] = attn.linear %arg0, %arg1 bias(%arg5 : tensor<64xf32>) : tensor<2x16x64xf32>, tensor<64x64xf32> -> tensor<2x16x64xf32>
// CHECK-NEXT: %[[QH:.*]] = attn.split_heads %[[Q]] heads(8) : tensor<2x16x64xf32> -> tensor<2x8x16x8xf32>
// CHECK-NEXT: %[[K:.*]] = attn.linear %arg0, %arg2 : tensor<2x16x64xf32>, tensor<64x16xf32> -> tensor<2x16x16xf32>
// CHECK-NEXT: %[[KH:.*]] = attn.split_heads %[[K]] heads(2) : tensor<2x16x16xf32> -> tensor<2x2x16x8xf32>
// CHECK-NEXT: %[[V:.*]] = attn.linear %arg0, %arg3 : tensor<2x16x64xf32>, tensor<64x16xf32> -> tensor<2x16x16xf32>
// CHECK-NEXT: %[[VH:.*]] = attn.split_heads %[[V]] heads(2) : tensor<2x16x16xf32> -> tensor<2x2x16x8xf32>
// CHECK-NEXT: %[[O:.*]] = attn.attention scaled_dot %[[QH]], %[[KH]], %[[VH]] causal align(bottom_right) : tensor<2x8x16x8xf32>, tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32> -> tensor<2x8x16x8xf32>
// CHECK-NEXT: %[[C:.*]] = attn.merge_heads %[[O]] : tensor<2x8x16x8xf32> -> tensor<2x16x64xf32>
// CHECK-NEXT: %[[Y:.*]] = attn.linear %[[C]], %arg4 bias(%arg6 : tensor<32xf32>) : tensor<2x16x64xf32>, tensor<64x32xf32> -> tensor<2x16x32xf32>
// CHECK-NEXT: return %[[Y]]
func.func @gqa(%x: tensor<2x16x64xf32>, %wq: tensor<64x64xf32>, %wk: tensor<64x16xf32>, %wv: tensor<64x16xf32>, %wo: tensor<64x32xf32>,
               %bq: tensor<64xf32>, %bo: tensor<32xf32>) -> tensor<2x16x32xf32> {
  %y = attn.multi_head scaled_dot %x, %x heads(8) kv_heads(2) proj(%wq, %wk, %wv, %wo : tensor<64x64xf32>, tensor<64x16xf32>, tensor<64x16xf32>, tensor<64x32xf32>)
         bias_q(%bq : tensor<64xf32>) bias_o(%bo : tensor<32xf32>) causal align(bottom_right) : tensor<2x16x64xf32>, tensor<2x16x64xf32> -> tensor<2x16x32xf32>
  return %y : tensor<2x16x32xf32>
}

// Dynamic sizes and the mask operands carry over.
// CHECK-LABEL: func @cross_dynamic
// CHECK: attn.split_heads %{{.*}} heads(4) : tensor<?x?x?xf32> -> tensor<?x4x?x?xf32>
// CHECK: attn.attention dot {{.*}} key_lengths(%arg3 : tensor<?xi32>) mask(%arg4 : tensor<?x?xi1>) : tensor<?x4x?x?xf32>, tensor<?x4x?x?xf32>, tensor<?x4x?x?xf32> -> tensor<?x4x?x?xf32>
// CHECK: attn.merge_heads %{{.*}} : tensor<?x4x?x?xf32> -> tensor<?x?x?xf32>
func.func @cross_dynamic(%x: tensor<?x?x?xf32>, %m: tensor<?x?x?xf32>, %w: tensor<?x?xf32>, %len: tensor<?xi32>, %keep: tensor<?x?xi1>) -> tensor<?x?x?xf32> {
  %y = attn.multi_head dot %x, %m heads(4) proj(%w, %w, %w, %w : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>)
         key_lengths(%len : tensor<?xi32>) mask(%keep : tensor<?x?xi1>) : tensor<?x?x?xf32>, tensor<?x?x?xf32> -> tensor<?x?x?xf32>
  return %y : tensor<?x?x?xf32>
}

// A hand-written schedule is the projections': the four attn.linear ops take it, the attention
// none (--attn-select-schedule gives it the fused kernel's).
// CHECK-LABEL: func @projection_schedule
// CHECK: attn.linear %arg0, %arg1 {schedule = #attn.schedule<tile_q = 32, vector = 8, reg_q = 2, reg_v = 1, parallel = "tiles">}
// CHECK: attn.linear %arg0, %arg2 {schedule = #attn.schedule<tile_q = 32, vector = 8, reg_q = 2, reg_v = 1, parallel = "tiles">}
// CHECK: attn.linear %arg0, %arg3 {schedule = #attn.schedule<tile_q = 32, vector = 8, reg_q = 2, reg_v = 1, parallel = "tiles">}
// CHECK: attn.attention scaled_dot
// CHECK-NOT: schedule
// CHECK-SAME: -> tensor<1x2x10x4xf32>
// CHECK: attn.linear %{{.*}}, %arg4 {schedule = #attn.schedule<tile_q = 32, vector = 8, reg_q = 2, reg_v = 1, parallel = "tiles">}
func.func @projection_schedule(%x: tensor<1x10x8xf32>, %wq: tensor<8x8xf32>, %wk: tensor<8x8xf32>, %wv: tensor<8x8xf32>, %wo: tensor<8x8xf32>) -> tensor<1x10x8xf32> {
  %y = attn.multi_head scaled_dot %x, %x heads(2) proj(%wq, %wk, %wv, %wo : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>)
         {schedule = #attn.schedule<tile_q = 32, vector = 8, reg_q = 2, reg_v = 1, parallel = "tiles">} : tensor<1x10x8xf32>, tensor<1x10x8xf32> -> tensor<1x10x8xf32>
  return %y : tensor<1x10x8xf32>
}
