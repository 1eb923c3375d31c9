// Halide's autoschedulers schedule whole pipelines (scheduler = "..." on an op); each kernel is
// checked against the double-precision reference. @causal_bf16 and @multi_head are the sweep's two
// cases (scripts/schedule-sweep.py, seed 21) that Adams2019 could not compile with symbolic extents
// ("Can only unroll for loops over a constant extent"): the static sizes are now the buffers' extents.
// RUN: sed 's/SCHEDULER/adams2019/' %s > %t.adams.mlir
// RUN: attn-run %t.adams.mlir --entry=causal_bf16 --random-inputs --seed=1 --check | FileCheck %s
// RUN: attn-run %t.adams.mlir --entry=multi_head --random-inputs --seed=4 --check | FileCheck %s
// RUN: sed 's/SCHEDULER/mullapudi2016/' %s > %t.mullapudi.mlir
// RUN: attn-run %t.mullapudi.mlir --entry=causal_bf16 --random-inputs --seed=1 --check | FileCheck %s
// RUN: attn-run %t.mullapudi.mlir --entry=multi_head --random-inputs --seed=4 --check | FileCheck %s
// RUN: sed 's/SCHEDULER/li2018/' %s > %t.li.mlir
// RUN: attn-run %t.li.mlir --entry=causal_bf16 --random-inputs --seed=1 --check | FileCheck %s
// RUN: attn-run %t.li.mlir --entry=multi_head --random-inputs --seed=4 --check | FileCheck %s
// CHECK: check result #0 {{.*}}: ok

// Dynamic sizes are refused: an autoscheduler tiles for the sizes it is given (Adams2019, with 256
// as a dynamic size's estimate, wrote this 2-row result at row -126).
// RUN: %expect_exit 1 attn-run %t.adams.mlir --entry=dynamic --random-inputs --arg-shapes=2x33,64x33,64x40 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: attn-run: error: @dynamic: Halide compile error: scheduler = "adams2019" needs static shapes: Halide's autoschedulers tile for the sizes they are given, and their kernels fail on others; argument #0 (tensor<?x33xf32>) has dynamic sizes (give the function static types, or use scheduler = "hand")

func.func @causal_bf16(%q: tensor<2x33xbf16>, %k: tensor<64x33xbf16>, %v: tensor<64x40xbf16>) -> tensor<2x40xbf16> {
  %o = attn.attention scaled_dot %q, %k, %v scale(0.125) causal align(top_left) {schedule = #attn.schedule<scheduler = "SCHEDULER">} : tensor<2x33xbf16>, tensor<64x33xbf16>, tensor<64x40xbf16> -> tensor<2x40xbf16>
  return %o : tensor<2x40xbf16>
}

func.func @multi_head(%x: tensor<1x2x48xf32>, %wq: tensor<48x16xf32>, %wk: tensor<48x8xf32>, %wv: tensor<48x12xf32>, %wo: tensor<24x4xf32>, %bk: tensor<8xf32>, %bv: tensor<12xf32>) -> tensor<1x2x4xf32> {
  %o = attn.multi_head scaled_dot %x, %x heads(2) kv_heads(1) proj(%wq, %wk, %wv, %wo : tensor<48x16xf32>, tensor<48x8xf32>, tensor<48x12xf32>, tensor<24x4xf32>) bias_k(%bk : tensor<8xf32>) bias_v(%bv : tensor<12xf32>) {schedule = #attn.schedule<scheduler = "SCHEDULER">} : tensor<1x2x48xf32>, tensor<1x2x48xf32> -> tensor<1x2x4xf32>
  return %o : tensor<1x2x4xf32>
}

func.func @dynamic(%q: tensor<?x33xf32>, %k: tensor<?x33xf32>, %v: tensor<?x40xf32>) -> tensor<?x40xf32> {
  %o = attn.attention scaled_dot %q, %k, %v causal align(top_left) {schedule = #attn.schedule<scheduler = "SCHEDULER">} : tensor<?x33xf32>, tensor<?x33xf32>, tensor<?x40xf32> -> tensor<?x40xf32>
  return %o : tensor<?x40xf32>
}
