//===- autoscheduler-note.cpp - which errors name the autoscheduler ------===//
//
// backend::noteAutoscheduler appends to a kernel's error, when one of Halide's autoschedulers wrote
// its schedule and Halide's compiler or runtime rejected it, whose schedule failed and what to do.
// A run-time failure has no graph that triggers it today (Li2018's 270 GB kernel of
// test/Integration/autoschedulers.mlir runs since the autoschedulers other than Adams2019 keep
// symbolic extents), so this program feeds the note the errors it must and must not annotate.
// Prints one line per case, the error as annotated; the lit test
// (test/Tools/autoscheduler-note.test) holds what each must read.
//
//===----------------------------------------------------------------------===//

#include "Build.h"

#include <cstdio>

namespace {

void show(const char *label, const std::string &autoscheduler, bool running, std::string error) {
  attn::backend::noteAutoscheduler(autoscheduler, running, error);
  std::printf("%s: %s\n", label, error.c_str());
}

} // namespace

int main() {
  // Halide's errors about an autoscheduler's schedule, at compile and at run time.
  show("compile", "li2018", false,
       "@f: Halide compile error: Error: Atomic predicated store is not supported.");
  show("run", "li2018", true,
       "running @f: Error: Total allocation for buffer f exceeds the maximum size of 2147483647");
  // No autoscheduler: attn's own schedule's errors are left as they are.
  show("hand", "", true,
       "running @f: Error: Bounds given for s in ii do not cover required region");
  // attn's refusals and the inputs' checks are not the schedule's fault.
  show("refusal", "adams2019", false,
       "@f: Halide compile error: scheduler = \"adams2019\" needs static shapes");
  show("requirement", "mullapudi2016", true,
       "running @f: Error: Requirement Failed: (argument #0 (tensor<2x33xf32>) has sizes 3 33 "
       "(outermost first), but its type declares [2, 33] and attn kernels need non-empty tensors "
       "(every size at least 1))");
  show("constraint", "adams2019", true,
       "running @f: Error: Constraint violated: arg0.extent.0 (3) == 33 (33)");
  return 0;
}
