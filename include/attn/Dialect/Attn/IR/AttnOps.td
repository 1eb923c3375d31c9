//===- AttnOps.td - the attn operations ----------------------*- tablegen -*-===//
//
// Every op is Pure (no side effects): unused attn ops are erased by canonicalize, identical ones merged
// by CSE. Shape rules live in the verifiers (AttnVerifiers.cpp) and in AttnShapes.h, nowhere else.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_OPS_TD
#define ATTN_OPS_TD

include "attn/Dialect/Attn/IR/AttnBase.td"
include "attn/Dialect/Attn/IR/AttnInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

class Attn_Op<string mnemonic, list<Trait> traits = []> : Op<Attn_Dialect, mnemonic, traits>;

// The mask options shared by attn.mask, attn.attention and attn.multi_head: arguments and syntax.
defvar MaskArgs = (ins Optional<Attn_KeyLengthsTensor>:$key_lengths,
                       Optional<Attn_MaskTensor>:$mask,
                       UnitAttr:$causal,
                       OptionalAttr<Attn_PositiveI64>:$window,
                       OptionalAttr<Attn_DiagonalAlignAttr>:$align);
defvar MaskFormat = [{
  (`causal` $causal^)? (`window` `(` $window^ `)`)? (`align` `(` custom<DiagonalAlign>($align)^ `)`)?
  (`key_lengths` `(` $key_lengths^ `:` type($key_lengths) `)`)?
  (`mask` `(` $mask^ `:` type($mask) `)`)?
}];
// Pasted with !strconcat: `[{...}] # MaskDoc` would paste the name, not the text.
defvar MaskDoc = [{
    Mask options, alone or combined (an entry is kept only if every option keeps it):
    - `causal`: key `j` is masked for query `i` when `j > d(i)`.
    - `window(W)`: keeps `d(i) - W < j`, and also `j < d(i) + W` when not causal (a symmetric band).
    - `align(top_left | bottom_right)`: required with `causal` or `window`; the diagonal is
      `d(i) = i` (top_left) or `d(i) = i + Tk - Tq` (bottom_right, the decoder convention).
    - `key_lengths(%len : tensor<...xi32>)`: over a prefix of the batch dimensions (`[B]` for
      `[B, H, Tq, Tk]` scores); keys `j >= len[b]` are masked (the padding mask of a ragged batch).
    - `mask(%m : tensor<...>)`: `[..., Tq, Tk]`, leading dims right-aligned with numpy broadcasting
      (each equal or 1, rank >= 2). `i1`: true keeps. Float (the op's element type): added to the score.
    Masked entries become -inf.
}];
// Score-kind operands shared by attn.score and attn.attention.
defvar ScoreFormat = [{
  (`weight` `(` $weight^ `:` type($weight) `)`)? (`vec` `(` $vec^ `:` type($vec) `)`)?
  (`scale` `(` $scale^ `)`)?
}];

//===----------------------------------------------------------------------===//
// attn.score
//===----------------------------------------------------------------------===//

def Attn_ScoreOp : Attn_Op<"score", [Pure, AttrSizedOperandSegments]> {
  let summary = "scores every query against every key";
  let description = [{
    `s[..., i, j] = score(q[..., i, :], k[..., j, :])` with `q: [..., Tq, Dq]`, `k: [..., Tk, Dk]`,
    result `[..., Tq, Tk]`:
    - `dot`: `q_i . k_j` (Dq = Dk).
    - `scaled_dot`: `scale * (q_i . k_j)`, `scale` defaults to `1/sqrt(Dk)`.
    - `bilinear`: `q_i^T W k_j`, `weight(W : [Dq, Dk])`; Dq and Dk may differ.
    - `additive`: `v_a^T tanh(W_a [q_i ; k_j])`, `weight(W_a : [d_a, Dq + Dk])` (first Dq columns act on
      the query, the rest on the key) and `vec(v_a : [d_a])`.

    ```mlir
    %s = attn.score scaled_dot %q, %k : tensor<2x16x64xf32>, tensor<2x32x64xf32> -> tensor<2x16x32xf32>
    %b = attn.score additive %q, %k weight(%wa : tensor<4x16xf32>) vec(%va : tensor<4xf32>)
           : tensor<3x8xf32>, tensor<3x8xf32> -> tensor<3x3xf32>
    ```
  }];
  let arguments = (ins Attn_ScoreKindAttr:$kind, Attn_FloatTensor:$query, Attn_FloatTensor:$key,
                       Optional<Attn_FloatTensor>:$weight, Optional<Attn_FloatTensor>:$vec,
                       OptionalAttr<F32Attr>:$scale, OptionalAttr<Attn_ScheduleAttr>:$schedule);
  let results = (outs Attn_FloatTensor:$result);
  let assemblyFormat = !strconcat("custom<ScoreKind>($kind) $query `,` $key ", ScoreFormat,
      "attr-dict `:` type($query) `,` type($key) `->` type($result)");
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// attn.mask
//===----------------------------------------------------------------------===//

def Attn_MaskOp : Attn_Op<"mask", [Pure, AttrSizedOperandSegments,
    AllTypesMatch<["scores", "result"]>,
    DeclareOpInterfaceMethods<Attn_MaskingOpInterface>]> {
  let summary = "sets masked score entries to -inf (or adds a bias)";
  let description = !strconcat([{
    `scores: [..., Tq, Tk]`; the result has the scores' type.
  }], MaskDoc, [{

    A mask with no option is the identity and folds away.

    ```mlir
    %m = attn.mask %s causal align(bottom_right) key_lengths(%len : tensor<2xi32>)
           : tensor<2x8x16x32xf32>
    ```
  }]);
  let arguments = !con((ins Attn_FloatTensor:$scores), MaskArgs,
                       (ins OptionalAttr<Attn_ScheduleAttr>:$schedule));
  let results = (outs Attn_FloatTensor:$result);
  let assemblyFormat = !strconcat("$scores ", MaskFormat, "attr-dict `:` type($scores)");
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// attn.softmax
//===----------------------------------------------------------------------===//

def Attn_SoftmaxOp : Attn_Op<"softmax", [Pure, SameOperandsAndResultType]> {
  let summary = "numerically stable softmax along one axis";
  let description = [{
    `p = exp(x - max(x)) / sum(exp(x - max(x)))` along `axis` (default -1, the last; negative axes
    count from the end). Subtracting the maximum keeps exp from overflowing. A slice whose entries are
    all -inf (a fully masked row) yields all zeros, never NaN.

    ```mlir
    %p = attn.softmax %s : tensor<2x16x32xf32>
    %c = attn.softmax %s axis(0) : tensor<16x32xf32>
    ```
  }];
  let arguments = (ins Attn_FloatTensor:$input, DefaultValuedAttr<I64Attr, "-1">:$axis,
                       OptionalAttr<Attn_ScheduleAttr>:$schedule);
  let results = (outs Attn_FloatTensor:$result);
  let assemblyFormat = "$input (`axis` `(` $axis^ `)`)? attr-dict `:` type($input)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The axis as a non-negative dimension index.
    int64_t getNormalizedAxis();
  }];
}

//===----------------------------------------------------------------------===//
// attn.weighted_sum
//===----------------------------------------------------------------------===//

def Attn_WeightedSumOp : Attn_Op<"weighted_sum", [Pure]> {
  let summary = "context vectors: the weights applied to the values";
  let description = [{
    `c[..., i, :] = sum_j p[..., i, j] * v[..., j, :]` (J&M eq. 13.37), with `p: [..., Tq, Tk]`,
    `v: [..., Tk, Dv]`, result `[..., Tq, Dv]`.

    ```mlir
    %c = attn.weighted_sum %p, %v : tensor<16x32xf32>, tensor<32x64xf32> -> tensor<16x64xf32>
    ```
  }];
  let arguments = (ins Attn_FloatTensor:$weights, Attn_FloatTensor:$values,
                       OptionalAttr<Attn_ScheduleAttr>:$schedule);
  let results = (outs Attn_FloatTensor:$result);
  let assemblyFormat = "$weights `,` $values attr-dict `:` type($weights) `,` type($values) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// attn.attention
//===----------------------------------------------------------------------===//

def Attn_AttentionOp : Attn_Op<"attention", [Pure, AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<Attn_MaskingOpInterface>]> {
  let summary = "fused attention: weighted_sum(softmax(mask(score(q, k))), v)";
  let description = !strconcat([{
    The fused form of `score -> mask -> softmax (last axis) -> weighted_sum`, with the score kind's
    operands (`weight`, `vec`, `scale`, as for `attn.score`) and the mask options of `attn.mask`.
    `q: [..., Tq, Dq]`, `k: [..., Tk, Dk]`, `v: [..., Tk, Dv]`, result `[..., Tq, Dv]`.
    Grouped-query attention: the last batch dimension (heads) of `k` and `v` may divide the query's;
    query head `h` then reads kv head `h / (Hq / Hkv)`. Every other batch dimension agrees exactly.
  }], MaskDoc, [{

    ```mlir
    %o = attn.attention scaled_dot %q, %k, %v causal align(bottom_right)
           : tensor<1x8x128x64xf32>, tensor<1x2x128x64xf32>, tensor<1x2x128x64xf32> -> tensor<1x8x128x64xf32>
    ```
  }]);
  let arguments = !con((ins Attn_ScoreKindAttr:$kind, Attn_FloatTensor:$query, Attn_FloatTensor:$key,
                            Attn_FloatTensor:$value, Optional<Attn_FloatTensor>:$weight,
                            Optional<Attn_FloatTensor>:$vec, OptionalAttr<F32Attr>:$scale), MaskArgs,
                       (ins OptionalAttr<Attn_ScheduleAttr>:$schedule));
  let results = (outs Attn_FloatTensor:$result);
  let assemblyFormat = !strconcat("custom<ScoreKind>($kind) $query `,` $key `,` $value ", ScoreFormat, MaskFormat,
      "attr-dict `:` type($query) `,` type($key) `,` type($value) `->` type($result)");
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// attn.multi_head
//===----------------------------------------------------------------------===//

def Attn_MultiHeadOp : Attn_Op<"multi_head", [Pure, AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<Attn_MaskingOpInterface>]> {
  let summary = "multi-head attention with Q/K/V/O projections (MHA, GQA, MQA)";
  let description = !strconcat([{
    `x_q: [B, Tq, E]`, `x_kv: [B, Tk, E_kv]` (the same value for self-attention). Projections use the
    row-vector convention `x . W + b`:
    `W_q: [E, H*dk]`, `W_k: [E_kv, Hkv*dk]`, `W_v: [E_kv, Hkv*dv]`, `W_o: [H*dv, E_out]`, optional biases
    `b_q: [H*dk]`, `b_k: [Hkv*dk]`, `b_v: [Hkv*dv]`, `b_o: [E_out]`. Head `h` uses columns
    `[h*dk, (h+1)*dk)` of the projected queries and reads kv head `h / (H / Hkv)` (GQA; MQA when Hkv = 1).
    Each head computes `kind` (`dot` or `scaled_dot`) attention with the mask options; heads are
    concatenated in order and projected by `W_o`. Result `[B, Tq, E_out]`.
    PyTorch's `nn.MultiheadAttention` stores `in_proj_weight` as `[3E, E]` acting as `W x`; load
    `W_q = in_proj_weight[0:E].T` (likewise K, V) and `W_o = out_proj.weight.T`.
  }], MaskDoc, [{
    `key_lengths` is `[B]` (or rank 0); `mask` is `[B, H, Tq, Tk]` with numpy broadcasting.
    Its `schedule` is its projections' (an `attn.linear` schedule): `--attn-decompose-multi-head`
    gives it to the four `attn.linear` ops it writes, and the attention between them gets its own.

    ```mlir
    %y = attn.multi_head scaled_dot %x, %x heads(8) kv_heads(2)
           proj(%wq, %wk, %wv, %wo : tensor<512x512xf32>, tensor<512x128xf32>, tensor<512x128xf32>, tensor<512x512xf32>)
           causal align(bottom_right)
           : tensor<2x16x512xf32>, tensor<2x16x512xf32> -> tensor<2x16x512xf32>
    ```
  }]);
  let arguments = !con((ins Attn_ScoreKindAttr:$kind, Attn_FloatTensor:$x_q, Attn_FloatTensor:$x_kv,
                            Attn_FloatTensor:$w_q, Attn_FloatTensor:$w_k, Attn_FloatTensor:$w_v,
                            Attn_FloatTensor:$w_o,
                            Optional<Attn_FloatTensor>:$b_q, Optional<Attn_FloatTensor>:$b_k,
                            Optional<Attn_FloatTensor>:$b_v, Optional<Attn_FloatTensor>:$b_o,
                            Attn_PositiveI64:$num_heads, OptionalAttr<Attn_PositiveI64>:$num_kv_heads,
                            OptionalAttr<F32Attr>:$scale), MaskArgs,
                       (ins OptionalAttr<Attn_ScheduleAttr>:$schedule));
  let results = (outs Attn_FloatTensor:$result);
  let assemblyFormat = !strconcat([{
    custom<ScoreKind>($kind) $x_q `,` $x_kv `heads` `(` $num_heads `)` (`kv_heads` `(` $num_kv_heads^ `)`)?
    `proj` `(` $w_q `,` $w_k `,` $w_v `,` $w_o `:` type($w_q) `,` type($w_k) `,` type($w_v) `,` type($w_o) `)`
    (`bias_q` `(` $b_q^ `:` type($b_q) `)`)? (`bias_k` `(` $b_k^ `:` type($b_k) `)`)?
    (`bias_v` `(` $b_v^ `:` type($b_v) `)`)? (`bias_o` `(` $b_o^ `:` type($b_o) `)`)?
    (`scale` `(` $scale^ `)`)?
  }], MaskFormat, "attr-dict `:` type($x_q) `,` type($x_kv) `->` type($result)");
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Hkv: num_kv_heads, defaulting to num_heads.
    int64_t getKvHeads() { return getNumKvHeads().value_or(getNumHeads()); }
  }];
}

//===----------------------------------------------------------------------===//
// Projections and head layout (what --attn-decompose-multi-head produces)
//===----------------------------------------------------------------------===//

def Attn_LinearOp : Attn_Op<"linear", [Pure]> {
  let summary = "a projection x . W + b (row-vector convention)";
  let description = [{
    `y[..., n] = sum_e x[..., e] * W[e, n] + b[n]`, with `x: [..., E]`, `W: [E, N]`, optional `b: [N]`;
    result `[..., N]`. The projections of multi-head attention.

    ```mlir
    %q = attn.linear %x, %wq bias(%bq : tensor<512xf32>) : tensor<2x16x512xf32>, tensor<512x512xf32> -> tensor<2x16x512xf32>
    ```
  }];
  let arguments = (ins Attn_FloatTensor:$input, Attn_FloatTensor:$weight,
                       Optional<Attn_FloatTensor>:$bias, OptionalAttr<Attn_ScheduleAttr>:$schedule);
  let results = (outs Attn_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $weight (`bias` `(` $bias^ `:` type($bias) `)`)? attr-dict `:` type($input) `,` type($weight) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Attn_SplitHeadsOp : Attn_Op<"split_heads", [Pure]> {
  let summary = "[..., T, H*d] seen as H heads: [..., H, T, d]";
  let description = [{
    `y[..., h, t, e] = x[..., t, h * d + e]`: head h is the h-th block of d columns. A view: the
    lowering copies nothing, so it takes no `schedule` (the verifier refuses one).

    ```mlir
    %qh = attn.split_heads %q heads(8) : tensor<2x16x512xf32> -> tensor<2x8x16x64xf32>
    ```
  }];
  let arguments = (ins Attn_FloatTensor:$input, Attn_PositiveI64:$heads,
                       OptionalAttr<Attn_ScheduleAttr>:$schedule);
  let results = (outs Attn_FloatTensor:$result);
  let assemblyFormat = "$input `heads` `(` $heads `)` attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Attn_MergeHeadsOp : Attn_Op<"merge_heads", [Pure]> {
  let summary = "heads concatenated: [..., H, T, d] to [..., T, H*d]";
  let description = [{
    `y[..., t, h * d + e] = x[..., h, t, e]`, the inverse of `attn.split_heads`. A view, with no
    `schedule`.

    ```mlir
    %c = attn.merge_heads %o : tensor<2x8x16x64xf32> -> tensor<2x16x512xf32>
    ```
  }];
  let arguments = (ins Attn_FloatTensor:$input, OptionalAttr<Attn_ScheduleAttr>:$schedule);
  let results = (outs Attn_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

#endif // ATTN_OPS_TD
