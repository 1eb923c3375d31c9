//===- Passes.td - the passes of attn's Halide code generator -*- tablegen -*-===//
//
// Passes that need the code generator's knowledge of targets (Halide's target strings), which
// the dialect's passes do not link.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_CODEGEN_HALIDE_PASSES_TD
#define ATTN_CODEGEN_HALIDE_PASSES_TD

include "mlir/Pass/PassBase.td"

def AttnAttachTarget : Pass<"attn-attach-target", "mlir::ModuleOp"> {
  let summary = "Sets the module's attn.target from a Halide target string";
  let description = [{
    Resolves the target as attn-compile's `--target` does (`host` is this machine minus the
    features its CPU lacks; an unknown target string is an error) and sets the module's
    `attn.target = #attn.target<...>`, which `--attn-select-schedule` reads. A `host` target
    records the host's per-core L2, which the CPU heuristics use; a target named by its features
    records none unless `l2-kib` gives it.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"host\"",
           "The Halide target string the kernels are compiled for">,
    Option<"l2KiB", "l2-kib", "int64_t", /*default=*/"0",
           "Per-core L2 cache of the machine, in KiB (0: the host's for a host target, else unknown)">,
    Option<"keep", "keep", "bool", /*default=*/"false",
           "Leave a target the module already carries">
  ];
  let dependentDialects = ["attn::AttnDialect"];
}

#endif // ATTN_CODEGEN_HALIDE_PASSES_TD
