// Dynamic sizes stay dynamic in the kernel: one compiled function, run at several shapes.
// RUN: attn-run %s --entry=attention --random-inputs --arg-shapes=2x13x16,2x17x16,2x17x5 --check | FileCheck %s
// RUN: attn-run %s --entry=attention --random-inputs --arg-shapes=1x1x3,1x65x3,1x65x1 --check | FileCheck %s
// RUN: attn-run %s --entry=chain --random-inputs --arg-shapes=4x7x9,4x3x9,4x3x13 --check | FileCheck %s
// RUN: attn-run %s --entry=multi_head --random-inputs --arg-shapes=2x13x12,12x12,12x6,12x6,12x12,2 --check | FileCheck %s
// CHECK: check result #0 {{.*}}: ok

func.func @attention(%q: tensor<?x?x?xf32>, %k: tensor<?x?x?xf32>, %v: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %o = attn.attention scaled_dot %q, %k, %v causal align(bottom_right) : tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x?x?xf32> -> tensor<?x?x?xf32>
  return %o : tensor<?x?x?xf32>
}
func.func @chain(%q: tensor<?x?x9xf32>, %k: tensor<?x?x9xf32>, %v: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %s = attn.score dot %q, %k : tensor<?x?x9xf32>, tensor<?x?x9xf32> -> tensor<?x?x?xf32>
  %p = attn.softmax %s : tensor<?x?x?xf32>
  %c = attn.weighted_sum %p, %v : tensor<?x?x?xf32>, tensor<?x?x?xf32> -> tensor<?x?x?xf32>
  return %c : tensor<?x?x?xf32>
}
func.func @multi_head(%x: tensor<?x?x?xf32>, %wq: tensor<?x?xf32>, %wk: tensor<?x?xf32>, %wv: tensor<?x?xf32>, %wo: tensor<?x?xf32>, %len: tensor<?xi32>) -> tensor<?x?x?xf32> {
  %y = attn.multi_head scaled_dot %x, %x heads(4) kv_heads(2) proj(%wq, %wk, %wv, %wo : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>)
         key_lengths(%len : tensor<?xi32>) : tensor<?x?x?xf32>, tensor<?x?x?xf32> -> tensor<?x?x?xf32>
  return %y : tensor<?x?x?xf32>
}
