//===- KernelInputs.cpp - tensors to call a kernel with -------------------===//

#include "attn/Runtime/KernelInputs.h"

#include "attn/Kernel/Limits.h"
#include "attn/Kernel/ShapeRules.h"

#include <algorithm>
#include <random>

namespace attn {

std::vector<HostTensor> randomInputs(const kernel::FunctionSpec &fn,
                                     const std::vector<std::vector<int64_t>> &shapes,
                                     unsigned seed) {
  int64_t largest = 1;
  for (const auto &s : shapes)
    for (int64_t d : s)
      largest = std::max(largest, d);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::uniform_int_distribution<int> lengths(0, static_cast<int>(2 * largest));
  std::vector<HostTensor> inputs;
  for (int i = 0; i < fn.numArgs; ++i) {
    HostTensor t(fn.values[i].elem, shapes[i]);
    for (int64_t e = 0; e < t.numElements(); ++e) {
      switch (t.elem) {
      case kernel::ElemType::I32: t.set(e, lengths(rng)); break;
      case kernel::ElemType::Bool: t.set(e, uniform(rng) < 0.5); break;
      default: t.set(e, uniform(rng)); break;
      }
    }
    inputs.push_back(std::move(t));
  }
  return inputs;
}

bool resultTensors(const kernel::FunctionSpec &fn, const std::vector<HostTensor> &inputs,
                   std::vector<HostTensor> &results, std::string &error, uint64_t budgetBytes,
                   bool *overBudget) {
  std::vector<std::vector<int64_t>> shapes;
  for (const HostTensor &t : inputs)
    shapes.push_back(t.shape);
  kernel::ShapeInference<int64_t> inference(fn, shapes);
  if (std::string v = kernel::firstViolation(inference.checks); !v.empty()) {
    error = "the inputs do not fit @" + fn.name + ": " + v;
    return false;
  }
  uint64_t bytes = 0;
  for (size_t r = 0; r < fn.results.size(); ++r) {
    uint64_t n = kernel::elemTypeBytes(fn.resultType(r).elem);
    for (int64_t d : inference.shapes[fn.results[r]])
      n = d != 0 && n > UINT64_MAX / static_cast<uint64_t>(d) ? UINT64_MAX : n * d;
    bytes = n > UINT64_MAX - bytes ? UINT64_MAX : bytes + n;
  }
  if (bytes > budgetBytes) {
    error = "the results of @" + fn.name + " need " + std::to_string(bytes) +
            " bytes, more than the " + std::to_string(budgetBytes) + " bytes allowed";
    if (overBudget)
      *overBudget = true;
    return false;
  }
  if (std::string v = kernel::shapeLimitViolation(fn, inference.shapes); !v.empty()) {
    error = "@" + fn.name + " cannot run on these shapes: " + v;
    return false;
  }
  results.clear();
  for (size_t r = 0; r < fn.results.size(); ++r)
    results.emplace_back(fn.resultType(r).elem, inference.shapes[fn.results[r]]);
  return true;
}

} // namespace attn
