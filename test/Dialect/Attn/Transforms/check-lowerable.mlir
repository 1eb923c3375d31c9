// RUN: attn-opt %s --attn-check-lowerable --split-input-file --verify-diagnostics | FileCheck %s

// Attn ops, tensor.cast, elementwise arith on tensors and func.return are lowerable.
// CHECK-LABEL: func @lowerable
func.func @lowerable(%q: tensor<4x8xf32>, %k: tensor<?x8xf32>, %x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %kc = tensor.cast %k : tensor<?x8xf32> to tensor<6x8xf32>
  %o = attn.attention dot %q, %kc, %kc : tensor<4x8xf32>, tensor<6x8xf32>, tensor<6x8xf32> -> tensor<4x8xf32>
  %r = arith.addf %o, %x : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// Private functions are not kernels; they are not checked.
// CHECK-LABEL: func private @helper
func.func private @helper(%a: f32) -> f32 {
  %c = arith.constant 1.0 : f32
  %r = arith.addf %a, %c : f32
  return %r : f32
}

// -----

func.func @scalar_arith(%a: f32) -> f32 {
  // expected-error @+1 {{'arith.constant' cannot be lowered to a kernel: functions may hold attn ops, arith.addf/subf/mulf on tensors, tensor.cast and func.return}}
  %c = arith.constant 1.0 : f32
  // expected-error @+1 {{'arith.addf' cannot be lowered to a kernel}}
  %r = arith.addf %a, %c : f32
  return %r : f32
}

// -----

func.func @other_tensor_op(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'tensor.empty' cannot be lowered to a kernel}}
  %e = tensor.empty() : tensor<8x4xf32>
  return %e : tensor<8x4xf32>
}
