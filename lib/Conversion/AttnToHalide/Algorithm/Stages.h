//===- Stages.h - what the algorithm hands to the schedules -----*- C++ -*-===//
//
// The algorithm files build Funcs and describe, with these records, the loop structure each op's
// computation has: which Func accumulates, over which reduction, which dimension is contiguous. The
// schedules (lib/Schedule) read only these records: they decide tiling, vectorization, parallelism
// and placement, never what is computed. All Vars are in Halide order (innermost first).
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_LIB_CONVERSION_ATTNTOHALIDE_STAGES_H
#define ATTN_LIB_CONVERSION_ATTNTOHALIDE_STAGES_H

#include "attn/Kernel/KernelSpec.h"

#include "Halide.h"

#include <string>
#include <vector>

namespace attn::lowering {

/// A matmul-shaped reduction with an epilogue:
///   acc(x, y, outer...) = 0;  acc(x, y, outer...) += f(lhs(r, y, ...), rhs(x, r, ...))
///   out(x, y, outer...) = epilogue(acc(x, y, outer...))
/// `x` is the output's contiguous dimension (the schedule vectorizes it), `y` its rows. `rhs` is the
/// operand read along x; when its x dimension is not its innermost (`rhsXDim != 0`), a schedule that
/// vectorizes x stages a transposed copy of it.
struct Contraction {
  std::string label;        // for the schedule log, e.g. "q.k^T"
  Halide::Func acc, out;
  Halide::Var x, y;
  std::vector<Halide::Var> outer;
  Halide::RDom r;
  Halide::Func rhs;         // may be undefined
  int rhsXDim = 0;          // the Halide dimension of rhs that x runs along
  int rhsRDim = 1;          // the Halide dimension of rhs that r runs along
  bool expensiveBody = false; // true when f is more than a multiply-add (additive scores: tanh)
};

/// An elementwise Func over all its Vars (masks, residual adds, casts to the result type).
struct Pointwise {
  std::string label;
  Halide::Func f;
  std::vector<Halide::Var> vars;
};

/// Softmax along one Halide dimension `axis` of `out`'s Vars:
///   mx(others) = max_r in(..r..);  e(vars) = exp(in - mx);  sum(others) = Σ_r e(..r..);
///   out(vars) = e / sum
struct SoftmaxStage {
  std::string label;
  Halide::Func mx, e, sum, out;
  std::vector<Halide::Var> vars; // out's Vars
  int axis = 0;                  // Halide dimension of the reduction
  Halide::RDom rMax, rSum;
};

/// Everything one op lowered to.
struct OpStages {
  const kernel::OpSpec *op = nullptr;
  std::vector<Contraction> contractions;
  std::vector<Pointwise> pointwise;
  std::vector<SoftmaxStage> softmaxes;
  Halide::Func result; // the op's result Func (the last stage)
};

} // namespace attn::lowering

#endif // ATTN_LIB_CONVERSION_ATTNTOHALIDE_STAGES_H
