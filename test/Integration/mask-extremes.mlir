// Mask options at the ends of their ranges, fused and unfused, against the reference and against the
// graph they must equal (compare-npy, numpy). Windows are int64: one of at least max(Tq, Tk) keeps
// every key a causal mask keeps, or every key without one; 2^32 + 1 once acted as window(1), 2^32
// masked everything, 2^31 stopped Halide's compiler ("Signed integer overflow") and INT64_MAX
// overflowed the reference too (so --check said ok). Key lengths are any int32: a negative one keeps
// no key (the row is zeros); INT32_MIN gave values outside the range of v.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as n; r=n.random.default_rng(3); [n.save('%t/'+k+'.npy', r.uniform(-1,1,s).astype(n.float32)) for k,s in (('q',(2,3,5,8)),('k',(2,3,7,8)),('v',(2,3,7,4)))]; n.save('%t/len.npy', n.array([-2147483648, 4], n.int32)); n.save('%t/neg.npy', n.array([-5, 0], n.int32))"
// RUN: attn-run %s --entry=no_window --input=%t/q.npy --input=%t/k.npy --input=%t/v.npy --output=%t/none.npy --check | FileCheck %s
// RUN: attn-run %s --entry=causal --input=%t/q.npy --input=%t/k.npy --input=%t/v.npy --output=%t/causal.npy --check | FileCheck %s
// RUN: for e in window_2_32_plus_1 window_2_32 window_2_31 window_int64_max; do attn-run %s --entry=$e --input=%t/q.npy --input=%t/k.npy --input=%t/v.npy --output=%t/$e.npy --check || exit 1; %compare_npy %t/$e.npy %t/none.npy || exit 1; done | FileCheck %s --check-prefix=WIDE
// RUN: for e in causal_window_2_32 causal_window_int64_max; do attn-run %s --entry=$e --input=%t/q.npy --input=%t/k.npy --input=%t/v.npy --output=%t/$e.npy --check || exit 1; %compare_npy %t/$e.npy %t/causal.npy || exit 1; done | FileCheck %s --check-prefix=CWIDE
// RUN: attn-run %s --entry=window_2_32_plus_1 --fuse=false --input=%t/q.npy --input=%t/k.npy --input=%t/v.npy --output=%t/unfused.npy --check | FileCheck %s
// RUN: %compare_npy %t/unfused.npy %t/none.npy
// CHECK: check result #0 {{.*}}: ok
// WIDE-COUNT-4: check result #0 {{.*}}: ok
// CWIDE-COUNT-2: check result #0 {{.*}}: ok
//
// Key lengths: a negative length (INT32_MIN, -5) or 0 keeps no key, so those batch entries are
// zeros; fused and unfused.
// RUN: attn-run %s --entry=lengths --input=%t/q.npy --input=%t/k.npy --input=%t/v.npy --input=%t/len.npy --output=%t/len_out.npy --check | FileCheck %s
// RUN: attn-run %s --entry=lengths --fuse=false --input=%t/q.npy --input=%t/k.npy --input=%t/v.npy --input=%t/len.npy --check | FileCheck %s
// RUN: attn-run %s --entry=lengths --input=%t/q.npy --input=%t/k.npy --input=%t/v.npy --input=%t/neg.npy --output=%t/neg_out.npy --check | FileCheck %s
// RUN: %python -c "import numpy as n; a=n.load('%t/len_out.npy'); b=n.load('%t/neg_out.npy'); assert (a[0]==0).all() and (b==0).all() and n.abs(a[1]).max() > 0, (a, b); print('zeros where no key is kept')" | FileCheck %s --check-prefix=ZEROS
// ZEROS: zeros where no key is kept
// With bottom-right causal GQA rows, Halide's simplifier once folded j < len && j <= d(i) into
// j <= min(len - 1, d(i)), which INT32_MIN - 1 made "every key":
// RUN: %python -c "import numpy as n; r=n.random.default_rng(4); [n.save('%t/'+k+'.npy', r.uniform(-1,1,s).astype(n.float32)) for k,s in (('gq',(2,4,40,8)),('gk',(2,2,70,8)),('gv',(2,2,70,4)))]; n.save('%t/min2.npy', n.array([-2147483648, -2147483648], n.int32))"
// RUN: attn-run %s --entry=gqa_causal_lengths --input=%t/gq.npy --input=%t/gk.npy --input=%t/gv.npy --input=%t/min2.npy --output=%t/gqa_out.npy --check | FileCheck %s
// RUN: %python -c "import numpy as n; assert (n.load('%t/gqa_out.npy') == 0).all(); print('zeros where no key is kept')" | FileCheck %s --check-prefix=ZEROS

func.func @no_window(%q: tensor<2x3x5x8xf32>, %k: tensor<2x3x7x8xf32>, %v: tensor<2x3x7x4xf32>) -> tensor<2x3x5x4xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<2x3x5x8xf32>, tensor<2x3x7x8xf32>, tensor<2x3x7x4xf32> -> tensor<2x3x5x4xf32>
  return %o : tensor<2x3x5x4xf32>
}
func.func @causal(%q: tensor<2x3x5x8xf32>, %k: tensor<2x3x7x8xf32>, %v: tensor<2x3x7x4xf32>) -> tensor<2x3x5x4xf32> {
  %o = attn.attention scaled_dot %q, %k, %v causal align(bottom_right) : tensor<2x3x5x8xf32>, tensor<2x3x7x8xf32>, tensor<2x3x7x4xf32> -> tensor<2x3x5x4xf32>
  return %o : tensor<2x3x5x4xf32>
}
func.func @window_2_32_plus_1(%q: tensor<2x3x5x8xf32>, %k: tensor<2x3x7x8xf32>, %v: tensor<2x3x7x4xf32>) -> tensor<2x3x5x4xf32> {
  %o = attn.attention scaled_dot %q, %k, %v window(4294967297) align(bottom_right) : tensor<2x3x5x8xf32>, tensor<2x3x7x8xf32>, tensor<2x3x7x4xf32> -> tensor<2x3x5x4xf32>
  return %o : tensor<2x3x5x4xf32>
}
func.func @window_2_32(%q: tensor<2x3x5x8xf32>, %k: tensor<2x3x7x8xf32>, %v: tensor<2x3x7x4xf32>) -> tensor<2x3x5x4xf32> {
  %o = attn.attention scaled_dot %q, %k, %v window(4294967296) align(top_left) : tensor<2x3x5x8xf32>, tensor<2x3x7x8xf32>, tensor<2x3x7x4xf32> -> tensor<2x3x5x4xf32>
  return %o : tensor<2x3x5x4xf32>
}
func.func @window_2_31(%q: tensor<2x3x5x8xf32>, %k: tensor<2x3x7x8xf32>, %v: tensor<2x3x7x4xf32>) -> tensor<2x3x5x4xf32> {
  %o = attn.attention scaled_dot %q, %k, %v window(2147483648) align(bottom_right) : tensor<2x3x5x8xf32>, tensor<2x3x7x8xf32>, tensor<2x3x7x4xf32> -> tensor<2x3x5x4xf32>
  return %o : tensor<2x3x5x4xf32>
}
func.func @window_int64_max(%q: tensor<2x3x5x8xf32>, %k: tensor<2x3x7x8xf32>, %v: tensor<2x3x7x4xf32>) -> tensor<2x3x5x4xf32> {
  %o = attn.attention scaled_dot %q, %k, %v window(9223372036854775807) align(bottom_right) : tensor<2x3x5x8xf32>, tensor<2x3x7x8xf32>, tensor<2x3x7x4xf32> -> tensor<2x3x5x4xf32>
  return %o : tensor<2x3x5x4xf32>
}
func.func @causal_window_2_32(%q: tensor<2x3x5x8xf32>, %k: tensor<2x3x7x8xf32>, %v: tensor<2x3x7x4xf32>) -> tensor<2x3x5x4xf32> {
  %o = attn.attention scaled_dot %q, %k, %v causal window(4294967296) align(bottom_right) : tensor<2x3x5x8xf32>, tensor<2x3x7x8xf32>, tensor<2x3x7x4xf32> -> tensor<2x3x5x4xf32>
  return %o : tensor<2x3x5x4xf32>
}
func.func @causal_window_int64_max(%q: tensor<2x3x5x8xf32>, %k: tensor<2x3x7x8xf32>, %v: tensor<2x3x7x4xf32>) -> tensor<2x3x5x4xf32> {
  %o = attn.attention scaled_dot %q, %k, %v causal window(9223372036854775807) align(bottom_right) : tensor<2x3x5x8xf32>, tensor<2x3x7x8xf32>, tensor<2x3x7x4xf32> -> tensor<2x3x5x4xf32>
  return %o : tensor<2x3x5x4xf32>
}
func.func @lengths(%q: tensor<2x3x5x8xf32>, %k: tensor<2x3x7x8xf32>, %v: tensor<2x3x7x4xf32>, %len: tensor<2xi32>) -> tensor<2x3x5x4xf32> {
  %o = attn.attention scaled_dot %q, %k, %v key_lengths(%len : tensor<2xi32>) : tensor<2x3x5x8xf32>, tensor<2x3x7x8xf32>, tensor<2x3x7x4xf32> -> tensor<2x3x5x4xf32>
  return %o : tensor<2x3x5x4xf32>
}
func.func @gqa_causal_lengths(%q: tensor<2x4x40x8xf32>, %k: tensor<2x2x70x8xf32>, %v: tensor<2x2x70x4xf32>, %len: tensor<2xi32>) -> tensor<2x4x40x4xf32> {
  %o = attn.attention scaled_dot %q, %k, %v causal align(bottom_right) key_lengths(%len : tensor<2xi32>) : tensor<2x4x40x8xf32>, tensor<2x2x70x8xf32>, tensor<2x2x70x4xf32> -> tensor<2x4x40x4xf32>
  return %o : tensor<2x4x40x4xf32>
}
