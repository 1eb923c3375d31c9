//===- KernelInputs.h - tensors to call a kernel with -----------*- C++ -*-===//
//
// The inputs and result tensors of a kernel::FunctionSpec, for the tools that run kernels
// (attn-run, attn-bench) and the tuner.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_RUNTIME_KERNELINPUTS_H
#define ATTN_RUNTIME_KERNELINPUTS_H

#include "attn/Kernel/KernelSpec.h"
#include "attn/Runtime/HostTensor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attn {

/// Random inputs for a function's arguments (shapes must be static): floats uniform in [-1, 1),
/// i1 true with p = 0.75, i32 uniform in [0, 2 x the largest argument dimension].
std::vector<HostTensor> randomInputs(const kernel::FunctionSpec &fn,
                                     const std::vector<std::vector<int64_t>> &shapes,
                                     unsigned seed);

/// Result tensors of the right shapes for these inputs, or an error message, checked before
/// anything is allocated: the shape rules, results larger than `budgetBytes` (`overBudget` says
/// so), and sizes past 32-bit indexing (kernel/Limits.h).
bool resultTensors(const kernel::FunctionSpec &fn, const std::vector<HostTensor> &inputs,
                   std::vector<HostTensor> &results, std::string &error,
                   uint64_t budgetBytes = UINT64_MAX, bool *overBudget = nullptr);

} // namespace attn

#endif // ATTN_RUNTIME_KERNELINPUTS_H
