// The module's target: one case per rule of #attn.target and of the attn.target attribute, and a
// module without one given to --attn-select-schedule.
// RUN: attn-opt %s --split-input-file --verify-diagnostics
// RUN: not attn-opt %S/../../Integration/attention.mlir --attn-select-schedule 2>&1 | FileCheck %s --check-prefix=NOTARGET
// NOTARGET: error: --attn-select-schedule: the module names no target: attach one with --attn-attach-target="target=..."

// expected-error @+1 {{#attn.target kind must be "cpu" or "gpu", got "tpu"}}
module attributes {attn.target = #attn.target<"x86-64-linux-avx2", kind = "tpu", lanes = 8, registers = 16>} {}

// -----

// expected-error @+1 {{#attn.target lanes must be a power of two from 1 to 64 (f32 lanes of a vector register), got 12}}
module attributes {attn.target = #attn.target<"x86-64-linux-avx2", lanes = 12, registers = 16>} {}

// -----

// expected-error @+1 {{#attn.target registers must be 16 to 256 (the CPU schedules plan for register files of 16 or 32 vectors), got 0}}
module attributes {attn.target = #attn.target<"x86-64-linux-avx2", lanes = 8, registers = 0>} {}

// -----

// expected-error @+1 {{#attn.target l2_kib must be a size in KiB (0: not known), got -1}}
module attributes {attn.target = #attn.target<"x86-64-linux-avx2", lanes = 8, registers = 16, l2_kib = -1>} {}

// -----

// expected-error @+1 {{#attn.target needs a Halide target string}}
module attributes {attn.target = #attn.target<"", lanes = 8, registers = 16>} {}

// -----

// expected-error @+1 {{attn.target must be an #attn.target<...>, got 3 : i64}}
module attributes {attn.target = 3} {}

// -----

// expected-error @+1 {{attn.target belongs on a module, not on 'func.func'}}
func.func @f() attributes {attn.target = #attn.target<"x86-64-linux-avx2", lanes = 8, registers = 16>} {
  return
}

// -----

// expected-error @+1 {{unknown attn attribute 'attn.targets' (the dialect's discardable attribute is attn.target)}}
module attributes {attn.targets = 1} {}
