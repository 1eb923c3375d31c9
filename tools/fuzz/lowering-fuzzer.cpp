//===- lowering-fuzzer.cpp - libFuzzer target: parse to a scheduled Halide pipeline ===//
//
// The attn-opt path (attn-opt-fuzzer.cpp), then, for every function that extracts, the lowering to
// Halide Funcs and the default CPU schedule, without generating code (which would take a second per
// input). Halide reports what it refuses by throwing; lib/CodeGen/Halide/Backend turns that into an
// error message, which is fine. A crash, an abort or a sanitizer report is not.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "attn/CodeGen/Halide/Backend.h"
#include "attn/CodeGen/Halide/Target.h"
#include "attn/Target/KernelSpec/ExtractKernel.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  attn::fuzz::ParsedModule parsed(data, size);
  if (!parsed.module || failed(attn::fuzz::runAttnPipeline(*parsed.module)))
    return 0;
  mlir::FailureOr<attn::kernel::ModuleSpec> spec = attn::extractKernels(*parsed.module, "");
  if (failed(spec))
    return 0;
  static const attn::backend::TargetInfo target = attn::backend::defaultTarget();
  for (const attn::kernel::FunctionSpec &fn : spec->functions) {
    std::string error;
    (void)attn::backend::lowerAndSchedule(fn, target, error);
  }
  return 0;
}
