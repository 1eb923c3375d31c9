// Every attn op, every score kind, every mask option, static and dynamic shapes, f32/f16/bf16,
// round-tripped through the pretty form and through the generic form.
// RUN: attn-opt %s | attn-opt | FileCheck %s
// RUN: attn-opt %s --mlir-print-op-generic | attn-opt | FileCheck %s

// CHECK-LABEL: func @scores
func.func @scores(%q: tensor<2x16x64xf32>, %k: tensor<2x32x64xf32>, %kb: tensor<2x32x32xf32>,
                  %w: tensor<64x32xf32>, %wa: tensor<8x128xf32>, %va: tensor<8xf32>)
    -> (tensor<2x16x32xf32>, tensor<2x16x32xf32>, tensor<2x16x32xf32>, tensor<2x16x32xf32>,
        tensor<2x16x32xf32>) {
  // CHECK: attn.score dot %{{.*}}, %{{.*}} : tensor<2x16x64xf32>, tensor<2x32x64xf32> -> tensor<2x16x32xf32>
  %0 = attn.score dot %q, %k : tensor<2x16x64xf32>, tensor<2x32x64xf32> -> tensor<2x16x32xf32>
  // CHECK: attn.score scaled_dot %{{.*}}, %{{.*}} : tensor<2x16x64xf32>
  %1 = attn.score scaled_dot %q, %k : tensor<2x16x64xf32>, tensor<2x32x64xf32> -> tensor<2x16x32xf32>
  // CHECK: attn.score scaled_dot %{{.*}}, %{{.*}} scale(1.250000e-01) :
  %2 = attn.score scaled_dot %q, %k scale(0.125) : tensor<2x16x64xf32>, tensor<2x32x64xf32> -> tensor<2x16x32xf32>
  // CHECK: attn.score bilinear %{{.*}}, %{{.*}} weight(%{{.*}} : tensor<64x32xf32>) : tensor<2x16x64xf32>, tensor<2x32x32xf32> -> tensor<2x16x32xf32>
  %3 = attn.score bilinear %q, %kb weight(%w : tensor<64x32xf32>) : tensor<2x16x64xf32>, tensor<2x32x32xf32> -> tensor<2x16x32xf32>
  // CHECK: attn.score additive %{{.*}}, %{{.*}} weight(%{{.*}} : tensor<8x128xf32>) vec(%{{.*}} : tensor<8xf32>) :
  %4 = attn.score additive %q, %k weight(%wa : tensor<8x128xf32>) vec(%va : tensor<8xf32>) : tensor<2x16x64xf32>, tensor<2x32x64xf32> -> tensor<2x16x32xf32>
  return %0, %1, %2, %3, %4 : tensor<2x16x32xf32>, tensor<2x16x32xf32>, tensor<2x16x32xf32>, tensor<2x16x32xf32>, tensor<2x16x32xf32>
}

// The seed's demo shapes: no batch dimension, one query, D = 8, d_a = 4.
// CHECK-LABEL: func @seed_additive
func.func @seed_additive(%q: tensor<1x8xf32>, %h: tensor<3x8xf32>, %wa: tensor<4x16xf32>, %va: tensor<4xf32>) -> tensor<1x8xf32> {
  // CHECK: attn.score additive
  %s = attn.score additive %q, %h weight(%wa : tensor<4x16xf32>) vec(%va : tensor<4xf32>) : tensor<1x8xf32>, tensor<3x8xf32> -> tensor<1x3xf32>
  // CHECK: attn.softmax %{{.*}} : tensor<1x3xf32>
  %p = attn.softmax %s : tensor<1x3xf32>
  // CHECK: attn.weighted_sum %{{.*}}, %{{.*}} : tensor<1x3xf32>, tensor<3x8xf32> -> tensor<1x8xf32>
  %c = attn.weighted_sum %p, %h : tensor<1x3xf32>, tensor<3x8xf32> -> tensor<1x8xf32>
  return %c : tensor<1x8xf32>
}

// CHECK-LABEL: func @dynamic_shapes
func.func @dynamic_shapes(%q: tensor<?x?x?xf32>, %k: tensor<?x?x?xf32>, %v: tensor<?x?x?xf32>, %w: tensor<?x?xf32>) -> tensor<?x?x?xf32> {
  // CHECK: attn.score dot %{{.*}}, %{{.*}} : tensor<?x?x?xf32>, tensor<?x?x?xf32> -> tensor<?x?x?xf32>
  %s = attn.score dot %q, %k : tensor<?x?x?xf32>, tensor<?x?x?xf32> -> tensor<?x?x?xf32>
  // CHECK: attn.score bilinear {{.*}} weight(%{{.*}} : tensor<?x?xf32>)
  %b = attn.score bilinear %q, %k weight(%w : tensor<?x?xf32>) : tensor<?x?x?xf32>, tensor<?x?x?xf32> -> tensor<?x?x?xf32>
  // CHECK: attn.softmax %{{.*}} : tensor<?x?x?xf32>
  %p = attn.softmax %s : tensor<?x?x?xf32>
  // CHECK: attn.weighted_sum {{.*}} -> tensor<?x?x?xf32>
  %c = attn.weighted_sum %p, %v : tensor<?x?x?xf32>, tensor<?x?x?xf32> -> tensor<?x?x?xf32>
  // Static and dynamic sizes mix.
  // CHECK: attn.attention scaled_dot {{.*}} : tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x?x?xf32> -> tensor<?x7x?xf32>
  %o = attn.attention scaled_dot %q, %k, %v : tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x?x?xf32> -> tensor<?x7x?xf32>
  return %c : tensor<?x?x?xf32>
}

// CHECK-LABEL: func @masks
func.func @masks(%s: tensor<2x8x16x32xf32>, %len: tensor<2xi32>, %len2: tensor<2x8xi32>, %keep: tensor<2x8x16x32xi1>,
                 %bias: tensor<8x16x32xf32>, %pad: tensor<2x1x1x32xi1>) -> tensor<2x8x16x32xf32> {
  // CHECK: attn.mask %{{.*}} causal align(top_left) : tensor<2x8x16x32xf32>
  %0 = attn.mask %s causal align(top_left) : tensor<2x8x16x32xf32>
  // CHECK: attn.mask %{{.*}} causal align(bottom_right) : tensor<2x8x16x32xf32>
  %1 = attn.mask %0 causal align(bottom_right) : tensor<2x8x16x32xf32>
  // CHECK: attn.mask %{{.*}} window(4) align(bottom_right) :
  %2 = attn.mask %1 window(4) align(bottom_right) : tensor<2x8x16x32xf32>
  // CHECK: attn.mask %{{.*}} causal window(8) align(top_left) :
  %3 = attn.mask %2 causal window(8) align(top_left) : tensor<2x8x16x32xf32>
  // CHECK: attn.mask %{{.*}} key_lengths(%{{.*}} : tensor<2xi32>) :
  %4 = attn.mask %3 key_lengths(%len : tensor<2xi32>) : tensor<2x8x16x32xf32>
  // CHECK: attn.mask %{{.*}} key_lengths(%{{.*}} : tensor<2x8xi32>) :
  %5 = attn.mask %4 key_lengths(%len2 : tensor<2x8xi32>) : tensor<2x8x16x32xf32>
  // CHECK: attn.mask %{{.*}} mask(%{{.*}} : tensor<2x8x16x32xi1>) :
  %6 = attn.mask %5 mask(%keep : tensor<2x8x16x32xi1>) : tensor<2x8x16x32xf32>
  // A float mask is a bias (ALiBi), broadcast over the batch.
  // CHECK: attn.mask %{{.*}} mask(%{{.*}} : tensor<8x16x32xf32>) :
  %7 = attn.mask %6 mask(%bias : tensor<8x16x32xf32>) : tensor<2x8x16x32xf32>
  // CHECK: attn.mask %{{.*}} causal window(2) align(bottom_right) key_lengths(%{{.*}} : tensor<2xi32>) mask(%{{.*}} : tensor<2x1x1x32xi1>) :
  %8 = attn.mask %7 causal window(2) align(bottom_right) key_lengths(%len : tensor<2xi32>) mask(%pad : tensor<2x1x1x32xi1>) : tensor<2x8x16x32xf32>
  return %8 : tensor<2x8x16x32xf32>
}

// CHECK-LABEL: func @softmax_axes
func.func @softmax_axes(%x: tensor<4x5x6xf32>) -> (tensor<4x5x6xf32>, tensor<4x5x6xf32>, tensor<4x5x6xf32>) {
  // CHECK: attn.softmax %{{.*}} : tensor<4x5x6xf32>
  %0 = attn.softmax %x : tensor<4x5x6xf32>
  // CHECK: attn.softmax %{{.*}} axis(0) : tensor<4x5x6xf32>
  %1 = attn.softmax %x axis(0) : tensor<4x5x6xf32>
  // CHECK: attn.softmax %{{.*}} axis(-2) : tensor<4x5x6xf32>
  %2 = attn.softmax %x axis(-2) : tensor<4x5x6xf32>
  return %0, %1, %2 : tensor<4x5x6xf32>, tensor<4x5x6xf32>, tensor<4x5x6xf32>
}

// CHECK-LABEL: func @element_types
func.func @element_types(%qh: tensor<16x64xf16>, %kh: tensor<32x64xf16>, %vh: tensor<32x64xf16>,
                         %qb: tensor<16x64xbf16>, %kb: tensor<32x64xbf16>, %vb: tensor<32x64xbf16>,
                         %bias: tensor<16x32xf16>) -> (tensor<16x64xf16>, tensor<16x64xbf16>) {
  // CHECK: attn.attention scaled_dot {{.*}} mask(%{{.*}} : tensor<16x32xf16>) : tensor<16x64xf16>, tensor<32x64xf16>, tensor<32x64xf16> -> tensor<16x64xf16>
  %0 = attn.attention scaled_dot %qh, %kh, %vh mask(%bias : tensor<16x32xf16>) : tensor<16x64xf16>, tensor<32x64xf16>, tensor<32x64xf16> -> tensor<16x64xf16>
  // CHECK: attn.score dot {{.*}} -> tensor<16x32xbf16>
  %s = attn.score dot %qb, %kb : tensor<16x64xbf16>, tensor<32x64xbf16> -> tensor<16x32xbf16>
  // CHECK: attn.softmax %{{.*}} : tensor<16x32xbf16>
  %p = attn.softmax %s : tensor<16x32xbf16>
  // CHECK: attn.weighted_sum {{.*}} -> tensor<16x64xbf16>
  %c = attn.weighted_sum %p, %vb : tensor<16x32xbf16>, tensor<32x64xbf16> -> tensor<16x64xbf16>
  return %0, %c : tensor<16x64xf16>, tensor<16x64xbf16>
}

// CHECK-LABEL: func @attention_kinds
func.func @attention_kinds(%q: tensor<1x8x128x64xf32>, %k: tensor<1x2x256x64xf32>, %v: tensor<1x2x256x32xf32>,
                           %kb: tensor<1x2x256x16xf32>, %w: tensor<64x16xf32>, %wa: tensor<24x80xf32>, %va: tensor<24xf32>,
                           %len: tensor<1xi32>) -> tensor<1x8x128x32xf32> {
  // Grouped-query attention: 8 query heads read 2 kv heads.
  // CHECK: attn.attention dot {{.*}} : tensor<1x8x128x64xf32>, tensor<1x2x256x64xf32>, tensor<1x2x256x32xf32> -> tensor<1x8x128x32xf32>
  %0 = attn.attention dot %q, %k, %v : tensor<1x8x128x64xf32>, tensor<1x2x256x64xf32>, tensor<1x2x256x32xf32> -> tensor<1x8x128x32xf32>
  // CHECK: attn.attention scaled_dot {{.*}} scale(5.000000e-01) causal align(bottom_right) key_lengths(%{{.*}} : tensor<1xi32>) :
  %1 = attn.attention scaled_dot %q, %k, %v scale(0.5) causal align(bottom_right) key_lengths(%len : tensor<1xi32>) : tensor<1x8x128x64xf32>, tensor<1x2x256x64xf32>, tensor<1x2x256x32xf32> -> tensor<1x8x128x32xf32>
  // CHECK: attn.attention bilinear {{.*}} weight(%{{.*}} : tensor<64x16xf32>) window(16) align(top_left) :
  %2 = attn.attention bilinear %q, %kb, %v weight(%w : tensor<64x16xf32>) window(16) align(top_left) : tensor<1x8x128x64xf32>, tensor<1x2x256x16xf32>, tensor<1x2x256x32xf32> -> tensor<1x8x128x32xf32>
  // CHECK: attn.attention additive {{.*}} weight(%{{.*}} : tensor<24x80xf32>) vec(%{{.*}} : tensor<24xf32>) :
  %3 = attn.attention additive %q, %kb, %v weight(%wa : tensor<24x80xf32>) vec(%va : tensor<24xf32>) : tensor<1x8x128x64xf32>, tensor<1x2x256x16xf32>, tensor<1x2x256x32xf32> -> tensor<1x8x128x32xf32>
  return %3 : tensor<1x8x128x32xf32>
}

// CHECK-LABEL: func @multi_head
func.func @multi_head(%x: tensor<2x16x64xf32>, %mem: tensor<2x40x48xf32>,
                      %wq: tensor<64x64xf32>, %wk: tensor<64x64xf32>, %wv: tensor<64x64xf32>, %wo: tensor<64x64xf32>,
                      %bq: tensor<64xf32>, %bk: tensor<64xf32>, %bv: tensor<64xf32>, %bo: tensor<64xf32>,
                      %wk2: tensor<48x16xf32>, %wv2: tensor<48x32xf32>, %wo2: tensor<128x10xf32>, %wq2: tensor<64x64xf32>,
                      %len: tensor<2xi32>) -> (tensor<2x16x64xf32>, tensor<2x16x10xf32>) {
  // Self-attention with every bias and a causal mask.
  // CHECK: attn.multi_head scaled_dot %[[X:.*]], %[[X]] heads(4) proj({{.*}} : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) bias_q(%{{.*}} : tensor<64xf32>) bias_k(%{{.*}} : tensor<64xf32>) bias_v(%{{.*}} : tensor<64xf32>) bias_o(%{{.*}} : tensor<64xf32>) causal align(top_left) : tensor<2x16x64xf32>, tensor<2x16x64xf32> -> tensor<2x16x64xf32>
  %0 = attn.multi_head scaled_dot %x, %x heads(4) proj(%wq, %wk, %wv, %wo : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>)
         bias_q(%bq : tensor<64xf32>) bias_k(%bk : tensor<64xf32>) bias_v(%bv : tensor<64xf32>) bias_o(%bo : tensor<64xf32>)
         causal align(top_left) : tensor<2x16x64xf32>, tensor<2x16x64xf32> -> tensor<2x16x64xf32>
  // Cross-attention, GQA (4 heads, 1 kv head: MQA), dv = 32 != dk = 16, E_out = 10, padding mask.
  // CHECK: attn.multi_head dot %{{.*}}, %{{.*}} heads(4) kv_heads(1) proj({{.*}}) key_lengths(%{{.*}} : tensor<2xi32>) : tensor<2x16x64xf32>, tensor<2x40x48xf32> -> tensor<2x16x10xf32>
  %1 = attn.multi_head dot %x, %mem heads(4) kv_heads(1) proj(%wq2, %wk2, %wv2, %wo2 : tensor<64x64xf32>, tensor<48x16xf32>, tensor<48x32xf32>, tensor<128x10xf32>)
         key_lengths(%len : tensor<2xi32>) : tensor<2x16x64xf32>, tensor<2x40x48xf32> -> tensor<2x16x10xf32>
  return %0, %1 : tensor<2x16x64xf32>, tensor<2x16x10xf32>
}

// CHECK-LABEL: func @multi_head_dynamic
func.func @multi_head_dynamic(%x: tensor<?x?x?xf16>, %w: tensor<?x?xf16>) -> tensor<?x?x?xf16> {
  // CHECK: attn.multi_head scaled_dot {{.*}} heads(2) kv_heads(2) {{.*}} window(3) align(bottom_right) : tensor<?x?x?xf16>, tensor<?x?x?xf16> -> tensor<?x?x?xf16>
  %0 = attn.multi_head scaled_dot %x, %x heads(2) kv_heads(2) proj(%w, %w, %w, %w : tensor<?x?xf16>, tensor<?x?xf16>, tensor<?x?xf16>, tensor<?x?xf16>)
         window(3) align(bottom_right) : tensor<?x?x?xf16>, tensor<?x?x?xf16> -> tensor<?x?x?xf16>
  return %0 : tensor<?x?x?xf16>
}

// CHECK-LABEL: func @projections_and_heads
func.func @projections_and_heads(%x: tensor<2x16x64xf32>, %w: tensor<64x32xf32>, %b: tensor<32xf32>, %v: tensor<64xf16>, %wh: tensor<64x8xf16>) -> (tensor<2x16x32xf32>, tensor<8xf16>) {
  // CHECK: attn.linear %{{.*}}, %{{.*}} bias(%{{.*}} : tensor<32xf32>) : tensor<2x16x64xf32>, tensor<64x32xf32> -> tensor<2x16x32xf32>
  %y = attn.linear %x, %w bias(%b : tensor<32xf32>) : tensor<2x16x64xf32>, tensor<64x32xf32> -> tensor<2x16x32xf32>
  // CHECK: attn.split_heads %{{.*}} heads(4) : tensor<2x16x32xf32> -> tensor<2x4x16x8xf32>
  %h = attn.split_heads %y heads(4) : tensor<2x16x32xf32> -> tensor<2x4x16x8xf32>
  // CHECK: attn.merge_heads %{{.*}} : tensor<2x4x16x8xf32> -> tensor<2x16x32xf32>
  %m = attn.merge_heads %h : tensor<2x4x16x8xf32> -> tensor<2x16x32xf32>
  // CHECK: attn.linear %{{.*}}, %{{.*}} : tensor<64xf16>, tensor<64x8xf16> -> tensor<8xf16>
  %r = attn.linear %v, %wh : tensor<64xf16>, tensor<64x8xf16> -> tensor<8xf16>
  return %m, %r : tensor<2x16x32xf32>, tensor<8xf16>
}

// Schedules as data: every parameter, and the empty schedule.
// CHECK-LABEL: func @schedules
func.func @schedules(%q: tensor<16x8xf32>, %k: tensor<32x8xf32>) -> (tensor<16x8xf32>, tensor<16x32xf32>) {
  // CHECK: attn.attention dot {{.*}} {schedule = #attn.schedule<tile_q = 32, block_k = 256, vector = 16, reg_q = 4, reg_k = 12, reg_v = 1, chunk_k = 128, split_k = 1, group_q = 4, parallel = "tiles", scheduler = "hand", source = "manual">}
  %o = attn.attention dot %q, %k, %k {schedule = #attn.schedule<tile_q = 32, block_k = 256, vector = 16, reg_q = 4, reg_k = 12, reg_v = 1, chunk_k = 128, split_k = 1, group_q = 4, parallel = "tiles", scheduler = "hand", source = "manual">} : tensor<16x8xf32>, tensor<32x8xf32>, tensor<32x8xf32> -> tensor<16x8xf32>
  // CHECK: attn.score dot {{.*}} {schedule = #attn.schedule<scheduler = "mullapudi2016">}
  %s = attn.score dot %q, %k {schedule = #attn.schedule<scheduler = "mullapudi2016">} : tensor<16x8xf32>, tensor<32x8xf32> -> tensor<16x32xf32>
  // CHECK: attn.softmax %{{.*}} {schedule = #attn.schedule<>}
  %p = attn.softmax %s {schedule = #attn.schedule<>} : tensor<16x32xf32>
  return %o, %p : tensor<16x8xf32>, tensor<16x32xf32>
}
