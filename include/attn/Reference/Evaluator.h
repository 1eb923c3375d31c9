//===- Evaluator.h - the double-precision reference -------------*- C++ -*-===//
//
// Evaluates a kernel description with plain loops in double precision, written from the op
// semantics (README, AttnOps.td) for clarity, sharing no code with the Halide lowering or the shape
// rules. attn-run --check compares kernels against it.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_REFERENCE_EVALUATOR_H
#define ATTN_REFERENCE_EVALUATOR_H

#include "attn/Kernel/KernelSpec.h"
#include "attn/Runtime/HostTensor.h"

#include <string>
#include <vector>

namespace attn::reference {

/// A dense row-major array of doubles.
struct Array {
  std::vector<int64_t> shape;
  std::vector<double> data;
};

/// Evaluates `fn` on `args`. Returns false and sets `error` when the inputs do not fit the
/// function.
bool evaluate(const kernel::FunctionSpec &fn, const std::vector<const HostTensor *> &args,
              std::vector<Array> &results, std::string &error);

/// How far a kernel's output is from the reference.
struct Comparison {
  double maxAbs = 0;              // max |got - want| over finite entries
  double maxRel = 0;              // max |got - want| / |want| over entries with want != 0
  double scale = 0;               // max |want| over finite entries
  double tolerance = 0;           // the allowed max |got - want| / scale for this element type
  int64_t mismatchedSpecials = 0; // entries where -inf/+inf/NaN in one is not the same in the other
  bool shapeMatches = true;
  bool pass() const;
};

/// The tolerance of an element type, relative to the output's largest magnitude: 1e-4 (f32),
/// 2e-3 (f16), 1e-2 (bf16). Kernels accumulate in f32; f16/bf16 add the rounding of their results.
double toleranceFor(kernel::ElemType t);

Comparison compare(const HostTensor &got, const Array &want);

} // namespace attn::reference

#endif // ATTN_REFERENCE_EVALUATOR_H
