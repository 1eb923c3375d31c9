//===- Limits.h - what a kernel can take and address ------------*- C++ -*-===//
//
// A kernel's arguments are non-empty: every size at least 1 (an empty feature dim makes every score
// an empty dot product, with scaled_dot's default scale 1/sqrt(0) infinite; no keys leave softmax
// nothing to normalize). Halide indexes buffers with 32-bit integers (attn's targets do not set
// Halide's large_buffers, which would make every index computation 64-bit): a tensor a kernel reads
// or writes holds at most 2^31-1 elements, and an intermediate it allocates takes at most 2^31-1
// bytes. attn checks both at compile time for static shapes (ExtractKernel) and before running for
// the actual shapes (attn-run), so that no kernel is built or run that would index past them.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_KERNEL_LIMITS_H
#define ATTN_KERNEL_LIMITS_H

#include "attn/Kernel/KernelSpec.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attn::kernel {

constexpr int64_t kMaxTensorElements = INT32_MAX;
constexpr int64_t kMaxIntermediateBytes = INT32_MAX;

/// What a kernel says of an empty argument (Lowering.cpp's requirement; shapeLimitViolation).
constexpr const char *kNonEmptyRule = "attn kernels need non-empty tensors (every size at least 1)";

/// The first value of `fn` whose size in `shapes` (one shape per value; kDynamic sizes are skipped)
/// is past those limits (an argument with a size of 0, a tensor past 32-bit indexing), described
/// with what to do about it; empty when all fit.
std::string shapeLimitViolation(const FunctionSpec &fn,
                                const std::vector<std::vector<int64_t>> &shapes);

} // namespace attn::kernel

#endif // ATTN_KERNEL_LIMITS_H
