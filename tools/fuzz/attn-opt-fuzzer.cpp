//===- attn-opt-fuzzer.cpp - libFuzzer target: the attn-opt path ----------===//
//
// Feeds arbitrary bytes through what attn-opt and the kernel tools do with a module before Halide:
// parse, verify, the attn pass pipeline (decompose-multi-head, fuse, fold-bilinear, canonicalize,
// select-schedule) and the extraction of kernel descriptions. Any input may be rejected with
// diagnostics; none may crash, hang or allocate without bound. Seed corpus: the test suite's and
// the examples' .mlir files (scripts/fuzz.sh).
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "attn/Target/KernelSpec/ExtractKernel.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  attn::fuzz::ParsedModule parsed(data, size);
  if (!parsed.module || failed(attn::fuzz::runAttnPipeline(*parsed.module)))
    return 0;
  (void)attn::extractKernels(*parsed.module, "");
  return 0;
}
