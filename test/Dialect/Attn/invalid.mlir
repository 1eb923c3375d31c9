// One case per verifier rule of the attn ops (lib/Dialect/Attn/IR/AttnVerifiers.cpp).
// RUN: attn-opt %s --split-input-file --verify-diagnostics

//===--- attn.score ---===//

func.func @score_query_rank(%q: tensor<64xf32>, %k: tensor<32x64xf32>) {
  // expected-error @+1 {{'attn.score' op 'query' must have rank >= 2 ([..., Tq, Dq]), but has rank 1}}
  %0 = attn.score dot %q, %k : tensor<64xf32>, tensor<32x64xf32> -> tensor<32xf32>
  return
}

// -----

func.func @score_key_rank(%q: tensor<16x64xf32>, %k: tensor<64xf32>) {
  // expected-error @+1 {{'key' must have rank >= 2 ([..., Tk, Dk]), but has rank 1}}
  %0 = attn.score dot %q, %k : tensor<16x64xf32>, tensor<64xf32> -> tensor<16xf32>
  return
}

// -----

func.func @score_rank_mismatch(%q: tensor<2x16x64xf32>, %k: tensor<32x64xf32>) {
  // expected-error @+1 {{'query' (rank 3) and 'key' (rank 2) must have the same rank}}
  %0 = attn.score dot %q, %k : tensor<2x16x64xf32>, tensor<32x64xf32> -> tensor<2x16x32xf32>
  return
}

// -----

func.func @score_element_types(%q: tensor<16x64xf32>, %k: tensor<32x64xf16>) {
  // expected-error @+1 {{'key' has element type 'f16' but 'query' has 'f32'; the float operands and the result of one op share one element type}}
  %0 = attn.score dot %q, %k : tensor<16x64xf32>, tensor<32x64xf16> -> tensor<16x32xf32>
  return
}

// -----

func.func @score_result_element_type(%q: tensor<16x64xbf16>, %k: tensor<32x64xbf16>) {
  // expected-error @+1 {{'result' has element type 'f32' but 'query' has 'bf16'}}
  %0 = attn.score dot %q, %k : tensor<16x64xbf16>, tensor<32x64xbf16> -> tensor<16x32xf32>
  return
}

// -----

func.func @score_batch(%q: tensor<2x16x64xf32>, %k: tensor<3x32x64xf32>) {
  // expected-error @+1 {{batch dimension #0 disagrees: 'query' has 2 but 'key' has 3}}
  %0 = attn.score dot %q, %k : tensor<2x16x64xf32>, tensor<3x32x64xf32> -> tensor<2x16x32xf32>
  return
}

// -----

func.func @score_scale_on_dot(%q: tensor<16x64xf32>, %k: tensor<32x64xf32>) {
  // expected-error @+1 {{'scale' applies only to kind 'scaled_dot', not 'dot'}}
  %0 = attn.score dot %q, %k scale(0.5) : tensor<16x64xf32>, tensor<32x64xf32> -> tensor<16x32xf32>
  return
}

// -----

func.func @score_scale_not_finite(%q: tensor<16x64xf32>, %k: tensor<32x64xf32>) {
  // expected-error @+1 {{'scale' must be a finite number, got inf}}
  %0 = attn.score scaled_dot %q, %k scale(0x7F800000) : tensor<16x64xf32>, tensor<32x64xf32> -> tensor<16x32xf32>
  return
}

// -----

func.func @score_dot_weight(%q: tensor<16x64xf32>, %k: tensor<32x64xf32>, %w: tensor<64x64xf32>) {
  // expected-error @+1 {{kind 'dot' takes no 'weight' operand}}
  %0 = attn.score dot %q, %k weight(%w : tensor<64x64xf32>) : tensor<16x64xf32>, tensor<32x64xf32> -> tensor<16x32xf32>
  return
}

// -----

func.func @score_dot_sizes(%q: tensor<16x64xf32>, %k: tensor<32x32xf32>) {
  // expected-error @+1 {{'attn.score' op kind 'dot' needs Dq == Dk, but the query has Dq = 64 and the key Dk = 32 (kind 'bilinear' accepts different sizes)}}
  %0 = attn.score dot %q, %k : tensor<16x64xf32>, tensor<32x32xf32> -> tensor<16x32xf32>
  return
}

// -----

func.func @score_scaled_dot_sizes(%q: tensor<16x64xf32>, %k: tensor<32x32xf32>) {
  // expected-error @+1 {{kind 'scaled_dot' needs Dq == Dk, but the query has Dq = 64 and the key Dk = 32}}
  %0 = attn.score scaled_dot %q, %k : tensor<16x64xf32>, tensor<32x32xf32> -> tensor<16x32xf32>
  return
}

// -----

func.func @score_bilinear_needs_weight(%q: tensor<16x64xf32>, %k: tensor<32x32xf32>) {
  // expected-error @+1 {{kind 'bilinear' needs a 'weight' operand W: [Dq, Dk] = [64, 32]}}
  %0 = attn.score bilinear %q, %k : tensor<16x64xf32>, tensor<32x32xf32> -> tensor<16x32xf32>
  return
}

// -----

func.func @score_bilinear_vec(%q: tensor<16x64xf32>, %k: tensor<32x32xf32>, %w: tensor<64x32xf32>, %v: tensor<4xf32>) {
  // expected-error @+1 {{kind 'bilinear' takes no 'vec' operand}}
  %0 = attn.score bilinear %q, %k weight(%w : tensor<64x32xf32>) vec(%v : tensor<4xf32>) : tensor<16x64xf32>, tensor<32x32xf32> -> tensor<16x32xf32>
  return
}

// -----

func.func @score_bilinear_weight_shape(%q: tensor<16x64xf32>, %k: tensor<32x32xf32>, %w: tensor<32x64xf32>) {
  // expected-error @+1 {{'weight' of kind 'bilinear' must be W: [Dq, Dk] = [64, 32], but is 'tensor<32x64xf32>'}}
  %0 = attn.score bilinear %q, %k weight(%w : tensor<32x64xf32>) : tensor<16x64xf32>, tensor<32x32xf32> -> tensor<16x32xf32>
  return
}

// -----

func.func @score_additive_needs_vec(%q: tensor<16x8xf32>, %k: tensor<32x8xf32>, %w: tensor<4x16xf32>) {
  // expected-error @+1 {{kind 'additive' needs a 'weight' operand W_a: [d_a, Dq + Dk] and a 'vec' operand v_a: [d_a]}}
  %0 = attn.score additive %q, %k weight(%w : tensor<4x16xf32>) : tensor<16x8xf32>, tensor<32x8xf32> -> tensor<16x32xf32>
  return
}

// -----

func.func @score_additive_weight_shape(%q: tensor<16x8xf32>, %k: tensor<32x6xf32>, %w: tensor<4x16xf32>, %v: tensor<4xf32>) {
  // expected-error @+1 {{'weight' of kind 'additive' must be W_a: [d_a, Dq + Dk] = [d_a, 14], but is 'tensor<4x16xf32>'}}
  %0 = attn.score additive %q, %k weight(%w : tensor<4x16xf32>) vec(%v : tensor<4xf32>) : tensor<16x8xf32>, tensor<32x6xf32> -> tensor<16x32xf32>
  return
}

// -----

func.func @score_additive_vec_shape(%q: tensor<16x8xf32>, %k: tensor<32x8xf32>, %w: tensor<4x16xf32>, %v: tensor<5xf32>) {
  // expected-error @+1 {{'vec' of kind 'additive' must be v_a: [d_a] = [4] (d_a from W_a), but is 'tensor<5xf32>'}}
  %0 = attn.score additive %q, %k weight(%w : tensor<4x16xf32>) vec(%v : tensor<5xf32>) : tensor<16x8xf32>, tensor<32x8xf32> -> tensor<16x32xf32>
  return
}

// -----

func.func @score_result_shape(%q: tensor<2x16x64xf32>, %k: tensor<2x32x64xf32>) {
  // expected-error @+1 {{result must be [..., Tq, Tk] = [2, 16, 32], but is 'tensor<2x32x16xf32>'}}
  %0 = attn.score dot %q, %k : tensor<2x16x64xf32>, tensor<2x32x64xf32> -> tensor<2x32x16xf32>
  return
}

// -----

func.func @score_unknown_kind(%q: tensor<16x64xf32>, %k: tensor<32x64xf32>) {
  // expected-error @+1 {{unknown score kind (expected dot, scaled_dot, bilinear or additive) 'cosine'}}
  %0 = attn.score cosine %q, %k : tensor<16x64xf32>, tensor<32x64xf32> -> tensor<16x32xf32>
  return
}

// -----

func.func @score_integer_operand(%q: tensor<16x64xi32>, %k: tensor<32x64xf32>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of 32-bit float or 16-bit float or bfloat16 type values}}
  %0 = attn.score dot %q, %k : tensor<16x64xi32>, tensor<32x64xf32> -> tensor<16x32xf32>
  return
}

//===--- attn.mask ---===//

// -----

func.func @mask_rank(%s: tensor<32xf32>) {
  // expected-error @+1 {{'scores' must have rank >= 2 ([..., Tq, Tk]), but has rank 1}}
  %0 = attn.mask %s causal align(top_left) : tensor<32xf32>
  return
}

// -----

func.func @mask_causal_needs_align(%s: tensor<16x32xf32>) {
  // expected-error @+1 {{'causal' needs an explicit 'align(top_left)' or 'align(bottom_right)': the diagonal's corner matters when Tq != Tk}}
  %0 = attn.mask %s causal : tensor<16x32xf32>
  return
}

// -----

func.func @mask_window_needs_align(%s: tensor<16x32xf32>) {
  // expected-error @+1 {{'window' needs an explicit 'align(top_left)' or 'align(bottom_right)'}}
  %0 = attn.mask %s window(4) : tensor<16x32xf32>
  return
}

// -----

func.func @mask_align_alone(%s: tensor<16x32xf32>) {
  // expected-error @+1 {{'align' has no effect without 'causal' or 'window'}}
  %0 = attn.mask %s align(top_left) : tensor<16x32xf32>
  return
}

// -----

func.func @mask_window_zero(%s: tensor<16x32xf32>) {
  // expected-error @+1 {{attribute 'window' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 1}}
  %0 = attn.mask %s window(0) align(top_left) : tensor<16x32xf32>
  return
}

// -----

func.func @mask_unknown_align(%s: tensor<16x32xf32>) {
  // expected-error @+1 {{unknown alignment (expected top_left or bottom_right) 'center'}}
  %0 = attn.mask %s causal align(center) : tensor<16x32xf32>
  return
}

// -----

func.func @mask_key_lengths_rank(%s: tensor<2x16x32xf32>, %len: tensor<2x3xi32>) {
  // expected-error @+1 {{'key_lengths' must cover a prefix of the batch dimensions [2] (rank <= 1), but has rank 2}}
  %0 = attn.mask %s key_lengths(%len : tensor<2x3xi32>) : tensor<2x16x32xf32>
  return
}

// -----

func.func @mask_key_lengths_size(%s: tensor<2x16x32xf32>, %len: tensor<3xi32>) {
  // expected-error @+1 {{'key_lengths' dimension #0 is 3, but the scores' batch dimension #0 is 2}}
  %0 = attn.mask %s key_lengths(%len : tensor<3xi32>) : tensor<2x16x32xf32>
  return
}

// -----

func.func @mask_key_lengths_type(%s: tensor<2x16x32xf32>, %len: tensor<2xi64>) {
  // expected-error @+1 {{operand #1 must be ranked tensor of 32-bit signless integer values, but got 'tensor<2xi64>'}}
  %0 = attn.mask %s key_lengths(%len : tensor<2xi64>) : tensor<2x16x32xf32>
  return
}

// -----

func.func @mask_operand_rank(%s: tensor<16x32xf32>, %m: tensor<32xi1>) {
  // expected-error @+1 {{'mask' must be [..., Tq, Tk] with rank 2 to 2, broadcasting to the scores [16, 32], but has rank 1}}
  %0 = attn.mask %s mask(%m : tensor<32xi1>) : tensor<16x32xf32>
  return
}

// -----

func.func @mask_operand_broadcast(%s: tensor<2x16x32xf32>, %m: tensor<16x31xi1>) {
  // expected-error @+1 {{'mask' dimension #1 (size 31) neither equals the scores' 32 nor is 1 (broadcast); scores are [2, 16, 32]}}
  %0 = attn.mask %s mask(%m : tensor<16x31xi1>) : tensor<2x16x32xf32>
  return
}

// -----

func.func @mask_operand_float_type(%s: tensor<16x32xf32>, %m: tensor<16x32xf16>) {
  // expected-error @+1 {{'mask' has element type 'f16' but 'scores' has 'f32'}}
  %0 = attn.mask %s mask(%m : tensor<16x32xf16>) : tensor<16x32xf32>
  return
}

// -----

func.func @mask_operand_int_type(%s: tensor<16x32xf32>, %m: tensor<16x32xi8>) {
  // expected-error @+1 {{operand #1 must be ranked tensor of 1-bit signless integer or 32-bit float or 16-bit float or bfloat16 type values, but got 'tensor<16x32xi8>'}}
  %0 = attn.mask %s mask(%m : tensor<16x32xi8>) : tensor<16x32xf32>
  return
}

//===--- attn.softmax ---===//

// -----

func.func @softmax_axis(%x: tensor<4x5xf32>) {
  // expected-error @+1 {{'attn.softmax' op axis 2 is out of range for a rank-2 tensor (valid: -2 to 1)}}
  %0 = attn.softmax %x axis(2) : tensor<4x5xf32>
  return
}

// -----

func.func @softmax_negative_axis(%x: tensor<4x5xf32>) {
  // expected-error @+1 {{axis -3 is out of range for a rank-2 tensor (valid: -2 to 1)}}
  %0 = attn.softmax %x axis(-3) : tensor<4x5xf32>
  return
}

// -----

func.func @softmax_rank0(%x: tensor<f32>) {
  // expected-error @+1 {{needs a tensor of rank >= 1, but the input has rank 0}}
  %0 = attn.softmax %x : tensor<f32>
  return
}

//===--- attn.weighted_sum ---===//

// -----

func.func @wsum_weights_rank(%p: tensor<32xf32>, %v: tensor<32x64xf32>) {
  // expected-error @+1 {{'weights' must have rank >= 2 ([..., Tq, Tk]), but has rank 1}}
  %0 = attn.weighted_sum %p, %v : tensor<32xf32>, tensor<32x64xf32> -> tensor<64xf32>
  return
}

// -----

func.func @wsum_values_rank(%p: tensor<16x32xf32>, %v: tensor<64xf32>) {
  // expected-error @+1 {{'values' must have rank >= 2 ([..., Tk, Dv]), but has rank 1}}
  %0 = attn.weighted_sum %p, %v : tensor<16x32xf32>, tensor<64xf32> -> tensor<16x64xf32>
  return
}

// -----

func.func @wsum_same_rank(%p: tensor<2x16x32xf32>, %v: tensor<32x64xf32>) {
  // expected-error @+1 {{'weights' (rank 3) and 'values' (rank 2) must have the same rank}}
  %0 = attn.weighted_sum %p, %v : tensor<2x16x32xf32>, tensor<32x64xf32> -> tensor<2x16x64xf32>
  return
}

// -----

func.func @wsum_types(%p: tensor<16x32xf16>, %v: tensor<32x64xf32>) {
  // expected-error @+1 {{'values' has element type 'f32' but 'weights' has 'f16'}}
  %0 = attn.weighted_sum %p, %v : tensor<16x32xf16>, tensor<32x64xf32> -> tensor<16x64xf16>
  return
}

// -----

func.func @wsum_batch(%p: tensor<2x16x32xf32>, %v: tensor<4x32x64xf32>) {
  // expected-error @+1 {{batch dimension #0 disagrees: 'weights' has 2 but 'values' has 4}}
  %0 = attn.weighted_sum %p, %v : tensor<2x16x32xf32>, tensor<4x32x64xf32> -> tensor<2x16x64xf32>
  return
}

// -----

func.func @wsum_tk(%p: tensor<16x32xf32>, %v: tensor<33x64xf32>) {
  // expected-error @+1 {{the values' sequence size Tk is 33, but must equal the weights' last dimension Tk = 32}}
  %0 = attn.weighted_sum %p, %v : tensor<16x32xf32>, tensor<33x64xf32> -> tensor<16x64xf32>
  return
}

// -----

func.func @wsum_result(%p: tensor<16x32xf32>, %v: tensor<32x64xf32>) {
  // expected-error @+1 {{result must be [..., Tq, Dv] = [16, 64], but is 'tensor<16x32xf32>'}}
  %0 = attn.weighted_sum %p, %v : tensor<16x32xf32>, tensor<32x64xf32> -> tensor<16x32xf32>
  return
}

//===--- attn.attention ---===//

// -----

func.func @attention_value_rank(%q: tensor<16x64xf32>, %k: tensor<32x64xf32>, %v: tensor<64xf32>) {
  // expected-error @+1 {{'value' must have rank >= 2 ([..., Tk, Dv]), but has rank 1}}
  %0 = attn.attention dot %q, %k, %v : tensor<16x64xf32>, tensor<32x64xf32>, tensor<64xf32> -> tensor<16x64xf32>
  return
}

// -----

func.func @attention_kv_rank(%q: tensor<2x16x64xf32>, %k: tensor<2x32x64xf32>, %v: tensor<32x64xf32>) {
  // expected-error @+1 {{'key' (rank 3) and 'value' (rank 2) must have the same rank}}
  %0 = attn.attention dot %q, %k, %v : tensor<2x16x64xf32>, tensor<2x32x64xf32>, tensor<32x64xf32> -> tensor<2x16x64xf32>
  return
}

// -----

func.func @attention_kv_batch(%q: tensor<4x16x64xf32>, %k: tensor<2x32x64xf32>, %v: tensor<1x32x64xf32>) {
  // expected-error @+1 {{batch dimension #0 disagrees: 'key' has 2 but 'value' has 1}}
  %0 = attn.attention dot %q, %k, %v : tensor<4x16x64xf32>, tensor<2x32x64xf32>, tensor<1x32x64xf32> -> tensor<4x16x64xf32>
  return
}

// -----

func.func @attention_kv_seq(%q: tensor<16x64xf32>, %k: tensor<32x64xf32>, %v: tensor<31x64xf32>) {
  // expected-error @+1 {{the values' sequence size Tk is 31, but must equal the keys' Tk = 32}}
  %0 = attn.attention dot %q, %k, %v : tensor<16x64xf32>, tensor<32x64xf32>, tensor<31x64xf32> -> tensor<16x64xf32>
  return
}

// -----

func.func @attention_outer_batch(%q: tensor<2x8x16x64xf32>, %k: tensor<3x8x32x64xf32>, %v: tensor<3x8x32x64xf32>) {
  // expected-error @+1 {{batch dimension #0 disagrees: 'query' has 2 but 'key' has 3}}
  %0 = attn.attention dot %q, %k, %v : tensor<2x8x16x64xf32>, tensor<3x8x32x64xf32>, tensor<3x8x32x64xf32> -> tensor<2x8x16x64xf32>
  return
}

// -----

func.func @attention_gqa(%q: tensor<1x8x16x64xf32>, %k: tensor<1x3x32x64xf32>, %v: tensor<1x3x32x64xf32>) {
  // expected-error @+1 {{the query's last batch dimension (heads) is 8, which is not a multiple of the key's 3 (grouped-query attention needs Hq % Hkv == 0)}}
  %0 = attn.attention dot %q, %k, %v : tensor<1x8x16x64xf32>, tensor<1x3x32x64xf32>, tensor<1x3x32x64xf32> -> tensor<1x8x16x64xf32>
  return
}

// -----

func.func @attention_kind(%q: tensor<16x64xf32>, %k: tensor<32x32xf32>, %v: tensor<32x64xf32>) {
  // expected-error @+1 {{'attn.attention' op kind 'dot' needs Dq == Dk, but the query has Dq = 64 and the key Dk = 32}}
  %0 = attn.attention dot %q, %k, %v : tensor<16x64xf32>, tensor<32x32xf32>, tensor<32x64xf32> -> tensor<16x64xf32>
  return
}

// -----

func.func @attention_types(%q: tensor<16x64xf32>, %k: tensor<32x64xf32>, %v: tensor<32x64xbf16>) {
  // expected-error @+1 {{'value' has element type 'bf16' but 'query' has 'f32'}}
  %0 = attn.attention dot %q, %k, %v : tensor<16x64xf32>, tensor<32x64xf32>, tensor<32x64xbf16> -> tensor<16x64xf32>
  return
}

// -----

func.func @attention_mask_type(%q: tensor<16x64xf32>, %k: tensor<32x64xf32>, %v: tensor<32x64xf32>, %m: tensor<16x32xbf16>) {
  // expected-error @+1 {{'mask' has element type 'bf16' but 'query' has 'f32'}}
  %0 = attn.attention dot %q, %k, %v mask(%m : tensor<16x32xbf16>) : tensor<16x64xf32>, tensor<32x64xf32>, tensor<32x64xf32> -> tensor<16x64xf32>
  return
}

// -----

func.func @attention_mask_options(%q: tensor<16x64xf32>, %k: tensor<32x64xf32>, %v: tensor<32x64xf32>) {
  // expected-error @+1 {{'attn.attention' op 'causal' needs an explicit 'align(top_left)' or 'align(bottom_right)'}}
  %0 = attn.attention dot %q, %k, %v causal : tensor<16x64xf32>, tensor<32x64xf32>, tensor<32x64xf32> -> tensor<16x64xf32>
  return
}

// -----

func.func @attention_mask_shape(%q: tensor<16x64xf32>, %k: tensor<32x64xf32>, %v: tensor<32x64xf32>, %m: tensor<16x64xi1>) {
  // expected-error @+1 {{'mask' dimension #1 (size 64) neither equals the scores' 32 nor is 1 (broadcast); scores are [16, 32]}}
  %0 = attn.attention dot %q, %k, %v mask(%m : tensor<16x64xi1>) : tensor<16x64xf32>, tensor<32x64xf32>, tensor<32x64xf32> -> tensor<16x64xf32>
  return
}

// -----

func.func @attention_result(%q: tensor<16x64xf32>, %k: tensor<32x64xf32>, %v: tensor<32x48xf32>) {
  // expected-error @+1 {{result must be [..., Tq, Dv] = [16, 48], but is 'tensor<16x64xf32>'}}
  %0 = attn.attention dot %q, %k, %v : tensor<16x64xf32>, tensor<32x64xf32>, tensor<32x48xf32> -> tensor<16x64xf32>
  return
}

//===--- attn.multi_head ---===//

// -----

func.func @mh_xq_rank(%x: tensor<16x64xf32>, %w: tensor<64x64xf32>) {
  // expected-error @+1 {{'x_q' must be [B, Tq, E] (rank 3), but is 'tensor<16x64xf32>'}}
  %0 = attn.multi_head dot %x, %x heads(4) proj(%w, %w, %w, %w : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) : tensor<16x64xf32>, tensor<16x64xf32> -> tensor<16x64xf32>
  return
}

// -----

func.func @mh_xkv_rank(%x: tensor<1x16x64xf32>, %m: tensor<16x64xf32>, %w: tensor<64x64xf32>) {
  // expected-error @+1 {{'x_kv' must be [B, Tk, E_kv] (rank 3), but is 'tensor<16x64xf32>'}}
  %0 = attn.multi_head dot %x, %m heads(4) proj(%w, %w, %w, %w : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) : tensor<1x16x64xf32>, tensor<16x64xf32> -> tensor<1x16x64xf32>
  return
}

// -----

func.func @mh_weight_rank(%x: tensor<1x16x64xf32>, %w: tensor<64x64xf32>, %w3: tensor<1x64x64xf32>) {
  // expected-error @+1 {{'w_v' must be [E_kv, Hkv*dv] (rank 2), but is 'tensor<1x64x64xf32>'}}
  %0 = attn.multi_head dot %x, %x heads(4) proj(%w, %w, %w3, %w : tensor<64x64xf32>, tensor<64x64xf32>, tensor<1x64x64xf32>, tensor<64x64xf32>) : tensor<1x16x64xf32>, tensor<1x16x64xf32> -> tensor<1x16x64xf32>
  return
}

// -----

func.func @mh_bias_rank(%x: tensor<1x16x64xf32>, %w: tensor<64x64xf32>) {
  // expected-error @+1 {{'b_k' must be a vector (rank 1), but is 'tensor<64x64xf32>'}}
  %0 = attn.multi_head dot %x, %x heads(4) proj(%w, %w, %w, %w : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) bias_k(%w : tensor<64x64xf32>) : tensor<1x16x64xf32>, tensor<1x16x64xf32> -> tensor<1x16x64xf32>
  return
}

// -----

func.func @mh_types(%x: tensor<1x16x64xf32>, %w: tensor<64x64xf32>, %wh: tensor<64x64xf16>) {
  // expected-error @+1 {{'w_o' has element type 'f16' but 'x_q' has 'f32'}}
  %0 = attn.multi_head dot %x, %x heads(4) proj(%w, %w, %w, %wh : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf16>) : tensor<1x16x64xf32>, tensor<1x16x64xf32> -> tensor<1x16x64xf32>
  return
}

// -----

func.func @mh_kind(%x: tensor<1x16x64xf32>, %w: tensor<64x64xf32>) {
  // expected-error @+1 {{kind 'additive' is not supported by multi-head attention (only 'dot' and 'scaled_dot')}}
  %0 = attn.multi_head additive %x, %x heads(4) proj(%w, %w, %w, %w : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) : tensor<1x16x64xf32>, tensor<1x16x64xf32> -> tensor<1x16x64xf32>
  return
}

// -----

func.func @mh_scale(%x: tensor<1x16x64xf32>, %w: tensor<64x64xf32>) {
  // expected-error @+1 {{'scale' applies only to kind 'scaled_dot', not 'dot'}}
  %0 = attn.multi_head dot %x, %x heads(4) proj(%w, %w, %w, %w : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) scale(2.0) : tensor<1x16x64xf32>, tensor<1x16x64xf32> -> tensor<1x16x64xf32>
  return
}

// -----

func.func @mh_heads_zero(%x: tensor<1x16x64xf32>, %w: tensor<64x64xf32>) {
  // expected-error @+1 {{attribute 'num_heads' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 1}}
  %0 = attn.multi_head dot %x, %x heads(0) proj(%w, %w, %w, %w : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) : tensor<1x16x64xf32>, tensor<1x16x64xf32> -> tensor<1x16x64xf32>
  return
}

// -----

func.func @mh_gqa(%x: tensor<1x16x64xf32>, %w: tensor<64x64xf32>) {
  // expected-error @+1 {{num_heads = 4 must be a multiple of num_kv_heads = 3 (each kv head serves num_heads / num_kv_heads heads)}}
  %0 = attn.multi_head dot %x, %x heads(4) kv_heads(3) proj(%w, %w, %w, %w : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) : tensor<1x16x64xf32>, tensor<1x16x64xf32> -> tensor<1x16x64xf32>
  return
}

// -----

func.func @mh_wq_heads(%x: tensor<1x16x64xf32>, %w: tensor<64x64xf32>, %wq: tensor<64x60xf32>) {
  // expected-error @+1 {{'w_q' dimension 1 is 60, which is not a multiple of num_heads = 8}}
  %0 = attn.multi_head dot %x, %x heads(8) proj(%wq, %w, %w, %w : tensor<64x60xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) : tensor<1x16x64xf32>, tensor<1x16x64xf32> -> tensor<1x16x64xf32>
  return
}

// -----

func.func @mh_wk_heads(%x: tensor<1x16x64xf32>, %w: tensor<64x64xf32>, %wk: tensor<64x30xf32>) {
  // expected-error @+1 {{'w_k' dimension 1 is 30, which is not a multiple of num_kv_heads = 4}}
  %0 = attn.multi_head dot %x, %x heads(4) proj(%w, %wk, %w, %w : tensor<64x64xf32>, tensor<64x30xf32>, tensor<64x64xf32>, tensor<64x64xf32>) : tensor<1x16x64xf32>, tensor<1x16x64xf32> -> tensor<1x16x64xf32>
  return
}

// -----

func.func @mh_wv_heads(%x: tensor<1x16x64xf32>, %w: tensor<64x64xf32>, %wv: tensor<64x30xf32>) {
  // expected-error @+1 {{'w_v' dimension 1 is 30, which is not a multiple of num_kv_heads = 4}}
  %0 = attn.multi_head dot %x, %x heads(4) proj(%w, %w, %wv, %w : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x30xf32>, tensor<64x64xf32>) : tensor<1x16x64xf32>, tensor<1x16x64xf32> -> tensor<1x16x64xf32>
  return
}

// -----

func.func @mh_batch(%x: tensor<1x16x64xf32>, %m: tensor<2x16x64xf32>, %w: tensor<64x64xf32>) {
  // expected-error @+1 {{batch dimension #0 disagrees: 'x_q' has 1 but 'x_kv' has 2}}
  %0 = attn.multi_head dot %x, %m heads(4) proj(%w, %w, %w, %w : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) : tensor<1x16x64xf32>, tensor<2x16x64xf32> -> tensor<1x16x64xf32>
  return
}

// -----

func.func @mh_wq_rows(%x: tensor<1x16x64xf32>, %w: tensor<64x64xf32>, %wq: tensor<32x64xf32>) {
  // expected-error @+1 {{'w_q' dimension 0 is 32, but must equal E (the feature size of x_q) = 64}}
  %0 = attn.multi_head dot %x, %x heads(4) proj(%wq, %w, %w, %w : tensor<32x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) : tensor<1x16x64xf32>, tensor<1x16x64xf32> -> tensor<1x16x64xf32>
  return
}

// -----

func.func @mh_wk_rows(%x: tensor<1x16x64xf32>, %m: tensor<1x16x48xf32>, %w: tensor<64x64xf32>) {
  // expected-error @+1 {{'w_k' dimension 0 is 64, but must equal E_kv (the feature size of x_kv) = 48}}
  %0 = attn.multi_head dot %x, %m heads(4) proj(%w, %w, %w, %w : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) : tensor<1x16x64xf32>, tensor<1x16x48xf32> -> tensor<1x16x64xf32>
  return
}

// -----

func.func @mh_wv_rows(%x: tensor<1x16x64xf32>, %m: tensor<1x16x48xf32>, %w: tensor<64x64xf32>, %wk: tensor<48x64xf32>) {
  // expected-error @+1 {{'w_v' dimension 0 is 64, but must equal E_kv (the feature size of x_kv) = 48}}
  %0 = attn.multi_head dot %x, %m heads(4) proj(%w, %wk, %w, %w : tensor<64x64xf32>, tensor<48x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) : tensor<1x16x64xf32>, tensor<1x16x48xf32> -> tensor<1x16x64xf32>
  return
}

// -----

func.func @mh_wk_cols(%x: tensor<1x16x64xf32>, %w: tensor<64x64xf32>, %wk: tensor<64x32xf32>) {
  // expected-error @+1 {{'w_k' dimension 1 is 32, but must equal num_kv_heads * dk = 64}}
  %0 = attn.multi_head dot %x, %x heads(4) proj(%w, %wk, %w, %w : tensor<64x64xf32>, tensor<64x32xf32>, tensor<64x64xf32>, tensor<64x64xf32>) : tensor<1x16x64xf32>, tensor<1x16x64xf32> -> tensor<1x16x64xf32>
  return
}

// -----

func.func @mh_wo_rows(%x: tensor<1x16x64xf32>, %w: tensor<64x64xf32>, %wo: tensor<32x64xf32>) {
  // expected-error @+1 {{'w_o' dimension 0 is 32, but must equal num_heads * dv = 64}}
  %0 = attn.multi_head dot %x, %x heads(4) proj(%w, %w, %w, %wo : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<32x64xf32>) : tensor<1x16x64xf32>, tensor<1x16x64xf32> -> tensor<1x16x64xf32>
  return
}

// -----

func.func @mh_bias_size(%x: tensor<1x16x64xf32>, %w: tensor<64x64xf32>, %b: tensor<32xf32>) {
  // expected-error @+1 {{'b_v' size is 32, but must equal the projection's output width = 64}}
  %0 = attn.multi_head dot %x, %x heads(4) proj(%w, %w, %w, %w : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) bias_v(%b : tensor<32xf32>) : tensor<1x16x64xf32>, tensor<1x16x64xf32> -> tensor<1x16x64xf32>
  return
}

// -----

func.func @mh_mask_type(%x: tensor<1x16x64xf32>, %w: tensor<64x64xf32>, %m: tensor<16x16xf16>) {
  // expected-error @+1 {{'mask' has element type 'f16' but 'x_q' has 'f32'}}
  %0 = attn.multi_head dot %x, %x heads(4) proj(%w, %w, %w, %w : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) mask(%m : tensor<16x16xf16>) : tensor<1x16x64xf32>, tensor<1x16x64xf32> -> tensor<1x16x64xf32>
  return
}

// -----

func.func @mh_key_lengths(%x: tensor<2x16x64xf32>, %w: tensor<64x64xf32>, %len: tensor<3xi32>) {
  // expected-error @+1 {{'key_lengths' dimension #0 is 3, but the scores' batch dimension #0 is 2}}
  %0 = attn.multi_head dot %x, %x heads(4) proj(%w, %w, %w, %w : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) key_lengths(%len : tensor<3xi32>) : tensor<2x16x64xf32>, tensor<2x16x64xf32> -> tensor<2x16x64xf32>
  return
}

// -----

func.func @mh_mask_heads(%x: tensor<2x16x64xf32>, %w: tensor<64x64xf32>, %m: tensor<3x16x16xi1>) {
  // expected-error @+1 {{'mask' dimension #0 (size 3) neither equals the scores' 4 nor is 1 (broadcast); scores are [2, 4, 16, 16]}}
  %0 = attn.multi_head dot %x, %x heads(4) proj(%w, %w, %w, %w : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) mask(%m : tensor<3x16x16xi1>) : tensor<2x16x64xf32>, tensor<2x16x64xf32> -> tensor<2x16x64xf32>
  return
}

// -----

func.func @mh_result(%x: tensor<2x16x64xf32>, %w: tensor<64x64xf32>, %wo: tensor<64x10xf32>) {
  // expected-error @+1 {{result must be [B, Tq, E_out] = [2, 16, 10], but is 'tensor<2x16x64xf32>'}}
  %0 = attn.multi_head dot %x, %x heads(4) proj(%w, %w, %w, %wo : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x10xf32>) : tensor<2x16x64xf32>, tensor<2x16x64xf32> -> tensor<2x16x64xf32>
  return
}

//===--- attn.linear, attn.split_heads, attn.merge_heads ---===//

// -----

func.func @linear_weight_rank(%x: tensor<4x8xf32>, %w: tensor<8xf32>) {
  // expected-error @+1 {{'weight' must be [E, N] (rank 2), but is 'tensor<8xf32>'}}
  %0 = attn.linear %x, %w : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @linear_rows(%x: tensor<4x8xf32>, %w: tensor<6x3xf32>) {
  // expected-error @+1 {{'weight' dimension 0 is 6, but must equal E (the last dimension of 'input') = 8}}
  %0 = attn.linear %x, %w : tensor<4x8xf32>, tensor<6x3xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @linear_bias(%x: tensor<4x8xf32>, %w: tensor<8x3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'bias' size is 4, but must equal N (dimension 1 of 'weight') = 3}}
  %0 = attn.linear %x, %w bias(%b : tensor<4xf32>) : tensor<4x8xf32>, tensor<8x3xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @linear_scalar_input(%x: tensor<f32>, %w: tensor<8x3xf32>) {
  // expected-error @+1 {{'input' must have rank >= 1 ([..., E]), but has rank 0}}
  %0 = attn.linear %x, %w : tensor<f32>, tensor<8x3xf32> -> tensor<3xf32>
  return
}

// -----

func.func @linear_result(%x: tensor<4x8xf32>, %w: tensor<8x3xf32>) {
  // expected-error @+1 {{result must be [..., N] = [4, 3], but is 'tensor<4x8xf32>'}}
  %0 = attn.linear %x, %w : tensor<4x8xf32>, tensor<8x3xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @split_heads_width(%x: tensor<2x16x30xf32>) {
  // expected-error @+1 {{the input's last dimension 30 is not a multiple of heads = 4}}
  %0 = attn.split_heads %x heads(4) : tensor<2x16x30xf32> -> tensor<2x4x16x7xf32>
  return
}

// -----

func.func @split_heads_result(%x: tensor<2x16x32xf32>) {
  // expected-error @+1 {{result must be [..., H, T, d] = [2, 4, 16, 8], but is 'tensor<2x16x4x8xf32>'}}
  %0 = attn.split_heads %x heads(4) : tensor<2x16x32xf32> -> tensor<2x16x4x8xf32>
  return
}

// -----

func.func @merge_heads_rank(%x: tensor<16x8xf32>) {
  // expected-error @+1 {{'input' must have rank >= 3 ([..., H, T, d]), but has rank 2}}
  %0 = attn.merge_heads %x : tensor<16x8xf32> -> tensor<16x8xf32>
  return
}

// -----

func.func @merge_heads_result(%x: tensor<2x4x16x8xf32>) {
  // expected-error @+1 {{result must be [..., T, H*d] = [2, 16, 32], but is 'tensor<2x16x8xf32>'}}
  %0 = attn.merge_heads %x : tensor<2x4x16x8xf32> -> tensor<2x16x8xf32>
  return
}

// -----

func.func @split_heads_schedule(%x: tensor<2x16x32xf32>) {
  // expected-error @+1 {{'attn.split_heads' op is a view (its lowering copies nothing), so it takes no #attn.schedule; schedule the ops that produce or read it}}
  %0 = attn.split_heads %x heads(4) {schedule = #attn.schedule<tile_q = 16>} : tensor<2x16x32xf32> -> tensor<2x4x16x8xf32>
  return
}

// -----

func.func @merge_heads_schedule(%x: tensor<2x4x16x8xf32>) {
  // expected-error @+1 {{'attn.merge_heads' op is a view (its lowering copies nothing), so it takes no #attn.schedule}}
  %0 = attn.merge_heads %x {schedule = #attn.schedule<vector = 8>} : tensor<2x4x16x8xf32> -> tensor<2x16x32xf32>
  return
}

//===--- #attn.schedule ---===//

// -----

func.func @schedule_negative(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{schedule parameter 'tile_q' = -4 is out of range: 0 for the target's default, else 1 to 4096 (the most any target takes)}}
  %0 = attn.softmax %x {schedule = #attn.schedule<tile_q = -4>} : tensor<4x8xf32>
  return
}

// -----

func.func @schedule_group_q(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{schedule parameter 'group_q' = -2 is out of range: 0 for the target's default, else 1 to 64 (the most any target takes)}}
  %0 = attn.softmax %x {schedule = #attn.schedule<group_q = -2>} : tensor<4x8xf32>
  return
}

// -----

// The largest values any target takes: each of the issue's crashes and hangs (vector = 1048576
// crashed Halide's compiler, tile_q = 1048576 overflowed its stack, reg_v = 1048576 ran 28 s and
// crashed, reg_k = 4096 and vector = 1024 compiled for minutes) is refused here.
func.func @schedule_vector_huge(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{schedule parameter 'vector' = 1048576 is out of range: 0 for the target's default, else 1 to 64 (the most any target takes)}}
  %0 = attn.softmax %x {schedule = #attn.schedule<vector = 1048576>} : tensor<4x8xf32>
  return
}

// -----

func.func @schedule_vector_1024(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{schedule parameter 'vector' = 1024 is out of range: 0 for the target's default, else 1 to 64}}
  %0 = attn.softmax %x {schedule = #attn.schedule<vector = 1024>} : tensor<4x8xf32>
  return
}

// -----

func.func @schedule_tile_q_huge(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{schedule parameter 'tile_q' = 1048576 is out of range: 0 for the target's default, else 1 to 4096}}
  %0 = attn.softmax %x {schedule = #attn.schedule<tile_q = 1048576>} : tensor<4x8xf32>
  return
}

// -----

func.func @schedule_reg_v_huge(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{schedule parameter 'reg_v' = 1048576 is out of range: 0 for the target's default, else 1 to 64}}
  %0 = attn.softmax %x {schedule = #attn.schedule<reg_v = 1048576>} : tensor<4x8xf32>
  return
}

// -----

func.func @schedule_reg_k(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{schedule parameter 'reg_k' = 4096 is out of range: 0 for the target's default, else 1 to 64}}
  %0 = attn.softmax %x {schedule = #attn.schedule<reg_k = 4096>} : tensor<4x8xf32>
  return
}

// -----

func.func @schedule_block_k(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{schedule parameter 'block_k' = 16385 is out of range: 0 for the target's default, else 1 to 16384}}
  %0 = attn.softmax %x {schedule = #attn.schedule<block_k = 16385>} : tensor<4x8xf32>
  return
}

// -----

func.func @schedule_vector(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{schedule parameter 'vector' = 12 must be a power of two}}
  %0 = attn.softmax %x {schedule = #attn.schedule<vector = 12>} : tensor<4x8xf32>
  return
}

// -----

func.func @schedule_split_k(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{schedule parameter 'split_k' must be 0 or 1, got 2}}
  %0 = attn.softmax %x {schedule = #attn.schedule<split_k = 2>} : tensor<4x8xf32>
  return
}

// -----

func.func @schedule_parallel(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{schedule parameter 'parallel' must be "heads" or "tiles", got "rows"}}
  %0 = attn.softmax %x {schedule = #attn.schedule<parallel = "rows">} : tensor<4x8xf32>
  return
}

// -----

func.func @schedule_scheduler(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{schedule parameter 'scheduler' must be "hand", "adams2019", "mullapudi2016" or "li2018", got "magic"}}
  %0 = attn.softmax %x {schedule = #attn.schedule<scheduler = "magic">} : tensor<4x8xf32>
  return
}

// -----

func.func @schedule_unknown_parameter(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{duplicate or unknown struct parameter name: tiles}}
  %0 = attn.softmax %x {schedule = #attn.schedule<tiles = 4>} : tensor<4x8xf32>
  return
}
