// The module's target (#attn.target): printed and parsed back, read by --attn-select-schedule,
// kept by --attn-kernel-pipeline, replaced by --attn-attach-target.
// RUN: attn-opt %s | attn-opt | FileCheck %s --check-prefix=ROUND
// RUN: attn-opt %s --attn-select-schedule | FileCheck %s --check-prefix=AVX2
// RUN: attn-opt %s --attn-kernel-pipeline | FileCheck %s --check-prefix=AVX2
// RUN: attn-opt %s --attn-attach-target="target=x86-64-linux-avx-avx2-avx512-avx512_skylake-f16c-fma-sse41" --attn-select-schedule \
// RUN:   | FileCheck %s --check-prefix=AVX512
// RUN: attn-opt %s --attn-attach-target="target=x86-64-linux-avx-avx2-f16c-fma-sse41-cuda l2-kib=512" \
// RUN:   | FileCheck %s --check-prefix=GPU

// ROUND: module attributes {attn.target = #attn.target<"x86-64-linux-avx-avx2-f16c-fma-sse41", lanes = 8, registers = 16, l2_kib = 1024>}
// AVX2: attn.attention {{.*}}#attn.schedule<{{.*}}vector = 8,
// AVX512: module attributes {attn.target = #attn.target<"x86-64-linux-avx-avx2-avx512-avx512_skylake-f16c-fma-sse41", lanes = 16, registers = 32>}
// AVX512: attn.attention {{.*}}#attn.schedule<{{.*}}vector = 16,
// GPU: module attributes {attn.target = #attn.target<"x86-64-linux-avx-avx2-cuda-f16c-fma-sse41", kind = "gpu", lanes = 8, registers = 16, l2_kib = 512>}
module attributes {attn.target = #attn.target<"x86-64-linux-avx-avx2-f16c-fma-sse41", kind = "cpu", lanes = 8, registers = 16, l2_kib = 1024>} {
  func.func @prefill(%q: tensor<2x4x256x64xf32>, %k: tensor<2x4x256x64xf32>, %v: tensor<2x4x256x64xf32>) -> tensor<2x4x256x64xf32> {
    %o = attn.attention scaled_dot %q, %k, %v : tensor<2x4x256x64xf32>, tensor<2x4x256x64xf32>, tensor<2x4x256x64xf32> -> tensor<2x4x256x64xf32>
    return %o : tensor<2x4x256x64xf32>
  }
}
