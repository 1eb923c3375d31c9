// attn.softmax along every axis and at awkward sizes; fully masked rows give zeros, never NaN.
// RUN: attn-run %s --entry=last_axis --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=first_axis --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=middle_axis --random-inputs --check | FileCheck %s
// RUN: attn-run %s --entry=tiny --random-inputs --check | FileCheck %s --check-prefixes=CHECK,TWO
// RUN: attn-run %s --entry=fully_masked_rows --random-inputs --check --print | FileCheck %s --check-prefix=ZEROS
// CHECK: check result #0 {{.*}}: ok
// TWO: check result #1 {{.*}}: ok

func.func @last_axis(%x: tensor<3x13x65xf32>) -> tensor<3x13x65xf32> {
  %p = attn.softmax %x : tensor<3x13x65xf32>
  return %p : tensor<3x13x65xf32>
}
func.func @first_axis(%x: tensor<17x7x3xf32>) -> tensor<17x7x3xf32> {
  %p = attn.softmax %x axis(0) : tensor<17x7x3xf32>
  return %p : tensor<17x7x3xf32>
}
func.func @middle_axis(%x: tensor<3x13x17xf32>) -> tensor<3x13x17xf32> {
  %p = attn.softmax %x axis(-2) : tensor<3x13x17xf32>
  return %p : tensor<3x13x17xf32>
}
func.func @tiny(%x: tensor<1xf32>, %y: tensor<1x1xf32>) -> (tensor<1xf32>, tensor<1x1xf32>) {
  %p = attn.softmax %x : tensor<1xf32>
  %q = attn.softmax %y : tensor<1x1xf32>
  return %p, %q : tensor<1xf32>, tensor<1x1xf32>
}
// With Tq = 5 > Tk = 3 and bottom-right alignment, query rows 0 and 1 see no key.
func.func @fully_masked_rows(%s: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %m = attn.mask %s causal align(bottom_right) : tensor<5x3xf32>
  %p = attn.softmax %m : tensor<5x3xf32>
  return %p : tensor<5x3xf32>
}
// ZEROS: {{\[\[}}0, 0, 0],
// ZEROS-NEXT: [0, 0, 0],
// ZEROS-NEXT: [1, 0, 0],
// ZEROS: check result #0 {{.*}}: ok
