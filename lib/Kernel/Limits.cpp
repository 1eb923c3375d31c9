//===- Limits.cpp - what a kernel can take and address -------------------===//

#include "attn/Kernel/Limits.h"

#include <algorithm>

namespace attn::kernel {

namespace {

/// The element count, saturated at INT64_MAX; -1 when a dim is dynamic.
int64_t elementCount(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0)
      return -1;
    if (d != 0 && n > INT64_MAX / d)
      return INT64_MAX;
    n *= d;
  }
  return n;
}

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

} // namespace

std::string shapeLimitViolation(const FunctionSpec &fn,
                                const std::vector<std::vector<int64_t>> &shapes) {
  for (int v = 0; v < fn.numArgs && v < static_cast<int>(shapes.size()); ++v)
    for (size_t d = 0; d < shapes[v].size(); ++d)
      if (shapes[v][d] == 0)
        return "argument #" + std::to_string(v) + ", " + fn.values[v].str() + " " +
               shapeText(shapes[v]) + ", has size 0 in dimension " + std::to_string(d) + ": " +
               kNonEmptyRule;
  for (size_t v = 0; v < fn.values.size() && v < shapes.size(); ++v) {
    int64_t n = elementCount(shapes[v]);
    if (n < 0)
      continue;
    const OpSpec *producer = nullptr;
    for (const OpSpec &op : fn.ops)
      if (op.result == static_cast<int>(v))
        producer = &op;
    bool returned = std::count(fn.results.begin(), fn.results.end(), static_cast<int>(v)) > 0;
    std::string what =
        producer ? "the result of " + producer->describe() : "argument #" + std::to_string(v);
    what += ", " + fn.values[v].str() + " " + shapeText(shapes[v]) + ",";
    if (n > kMaxTensorElements)
      return what + " has " + std::to_string(n) +
             " elements; kernels index tensors with 32-bit "
             "integers, so a tensor may hold at most " +
             std::to_string(kMaxTensorElements) + " elements (split the batch into several calls)";
    int64_t bytes = n > INT64_MAX / 4 ? INT64_MAX : n * elemTypeBytes(fn.values[v].elem);
    if (producer && !returned && bytes > kMaxIntermediateBytes)
      return what + " an intermediate of @" + fn.name + ", takes " + std::to_string(bytes) +
             " bytes; a kernel allocates intermediates of at most " +
             std::to_string(kMaxIntermediateBytes) +
             " bytes (32-bit indexing): fuse the chain "
             "into attn.attention (the attn-fuse pass, on by default), which never stores the "
             "scores, or split the batch";
  }
  return "";
}

} // namespace attn::kernel
