// NaN and Inf inputs propagate as IEEE arithmetic says, through the unfused ops and through the fused
// kernel alike, and a fully masked row gives zeros, never NaN. Expected values: numpy in float64
// (Inputs/make_nan_inf.py says which entry does what).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/make_nan_inf.py %t
// RUN: attn-run %s --entry=weights --input=%t/q.npy --input=%t/k.npy --input=%t/bias.npy --output=%t/w.npy
// RUN: %compare_npy %t/w.npy %t/expected_w.npy | FileCheck %s
// RUN: attn-run %s --entry=fused --input=%t/q.npy --input=%t/k.npy --input=%t/v.npy --input=%t/bias.npy --output=%t/fused.npy
// RUN: %compare_npy %t/fused.npy %t/expected_out.npy | FileCheck %s
// RUN: attn-run %s --entry=fused --fuse=false --input=%t/q.npy --input=%t/k.npy --input=%t/v.npy --input=%t/bias.npy --output=%t/unfused.npy
// RUN: %compare_npy %t/unfused.npy %t/expected_out.npy | FileCheck %s
// CHECK: match
//
// The NaN and inf entries are where the test says, so the comparison above is not vacuous:
// RUN: %python -c "import numpy as np, sys; o = np.load(sys.argv[1]); print(np.isnan(o[0]).all(axis=1).astype(int).tolist(), np.isneginf(o[1, :, 1]).astype(int).tolist(), o[0, 2].tolist())" %t/fused.npy | FileCheck %s --check-prefix=WHERE
// WHERE: [1, 1, 0, 1, 0, 1] [1, 1, 1, 1, 1, 1] [0.0, 0.0, 0.0, 0.0]
//
// --check agrees (the reference evaluator treats NaN and inf positions as part of the result):
// RUN: attn-run %s --entry=fused --input=%t/q.npy --input=%t/k.npy --input=%t/v.npy --input=%t/bias.npy --check | FileCheck %s --check-prefix=REF
// REF: result #0 {{.*}} ok

func.func @weights(%q: tensor<2x6x4xf32>, %k: tensor<2x6x4xf32>, %bias: tensor<2x6x6xf32>) -> tensor<2x6x6xf32> {
  %s = attn.score dot %q, %k : tensor<2x6x4xf32>, tensor<2x6x4xf32> -> tensor<2x6x6xf32>
  %m = attn.mask %s mask(%bias : tensor<2x6x6xf32>) : tensor<2x6x6xf32>
  %w = attn.softmax %m : tensor<2x6x6xf32>
  return %w : tensor<2x6x6xf32>
}
func.func @fused(%q: tensor<2x6x4xf32>, %k: tensor<2x6x4xf32>, %v: tensor<2x6x4xf32>, %bias: tensor<2x6x6xf32>) -> tensor<2x6x4xf32> {
  %s = attn.score dot %q, %k : tensor<2x6x4xf32>, tensor<2x6x4xf32> -> tensor<2x6x6xf32>
  %m = attn.mask %s mask(%bias : tensor<2x6x6xf32>) : tensor<2x6x6xf32>
  %w = attn.softmax %m : tensor<2x6x6xf32>
  %c = attn.weighted_sum %w, %v : tensor<2x6x6xf32>, tensor<2x6x4xf32> -> tensor<2x6x4xf32>
  return %c : tensor<2x6x4xf32>
}
