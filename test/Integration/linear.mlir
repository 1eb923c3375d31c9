// attn.linear against the reference evaluator at the widths that pick each CPU register block and
// the packed operand (lib/CodeGen/Halide/Schedule/CPU/CpuSchedule.cpp, the heuristic's reg_v): 80 (1 vector), 96
// (3), 544 (2), 800 and a multi-head layer of 768 (W packed per column block; 800 has a partial
// last block), over row counts that leave partial register blocks and tasks (the heuristic's
// choices: test/Dialect/Attn/Transforms/select-schedule.mlir).
// RUN: attn-run %s --entry=widths --random-inputs --check | FileCheck %s --check-prefix=WIDTHS
// RUN: attn-run %s --entry=wide_packed --random-inputs --seed=2 --check | FileCheck %s --check-prefix=WIDE
// RUN: attn-run %s --entry=multi_head_768 --random-inputs --seed=3 --check | FileCheck %s --check-prefix=WIDE
// RUN: rm -rf %t && attn-compile %s --entry=wide_packed -o %t --emit=schedule --target=x86-64-linux-avx-avx2-avx512-avx512_skylake-f16c-fma-sse41 > /dev/null
// RUN: FileCheck %s --check-prefix=PACKED < %t/wide_packed.schedule.txt
// WIDTHS-COUNT-3: check result #{{[0-2]}} {{.*}}: ok
// WIDE: check result #0 {{.*}}: ok
// PACKED: op0_linear [attn.linear ({{.*}}), x.W]: root; register block 8 rows x 48 (3 x 16 lanes)
// PACKED-SAME: arg1_in packed per column block (column blocks outermost in a task)

func.func @widths(%x: tensor<2x37x40xf32>, %w80: tensor<40x80xf32>, %w96: tensor<40x96xf32>, %w544: tensor<40x544xf32>)
    -> (tensor<2x37x80xf32>, tensor<2x37x96xf32>, tensor<2x37x544xf32>) {
  %a = attn.linear %x, %w80 : tensor<2x37x40xf32>, tensor<40x80xf32> -> tensor<2x37x80xf32>
  %b = attn.linear %x, %w96 : tensor<2x37x40xf32>, tensor<40x96xf32> -> tensor<2x37x96xf32>
  %c = attn.linear %x, %w544 : tensor<2x37x40xf32>, tensor<40x544xf32> -> tensor<2x37x544xf32>
  return %a, %b, %c : tensor<2x37x80xf32>, tensor<2x37x96xf32>, tensor<2x37x544xf32>
}

func.func @wide_packed(%x: tensor<1x70x33xf32>, %w: tensor<33x800xf32>, %b: tensor<800xf32>) -> tensor<1x70x800xf32> {
  %y = attn.linear %x, %w bias(%b : tensor<800xf32>) : tensor<1x70x33xf32>, tensor<33x800xf32> -> tensor<1x70x800xf32>
  return %y : tensor<1x70x800xf32>
}

func.func @multi_head_768(%x: tensor<1x21x768xf32>, %wq: tensor<768x768xf32>, %wk: tensor<768x768xf32>, %wv: tensor<768x768xf32>, %wo: tensor<768x768xf32>) -> tensor<1x21x768xf32> {
  %y = attn.multi_head scaled_dot %x, %x heads(12) proj(%wq, %wk, %wv, %wo : tensor<768x768xf32>, tensor<768x768xf32>, tensor<768x768xf32>, tensor<768x768xf32>)
         causal align(top_left) : tensor<1x21x768xf32>, tensor<1x21x768xf32> -> tensor<1x21x768xf32>
  return %y : tensor<1x21x768xf32>
}
