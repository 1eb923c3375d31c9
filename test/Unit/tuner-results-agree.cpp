//===- tuner-results-agree.cpp - the tuner's check of a candidate's results ===//
//
// tuner::resultsAgree decides whether a candidate schedule computed what the heuristic schedule
// did (the tuner rejects it otherwise). Prints one line per case, `agree` or `differ`; the lit test
// (test/Tools/tuner-results-agree.test) holds what each case must give.
//
//===----------------------------------------------------------------------===//

#include "attn/Tuner/Tuner.h"

#include <cmath>
#include <cstdio>
#include <limits>

using attn::HostTensor;

namespace {

std::vector<HostTensor> tensor(std::vector<int64_t> shape, std::vector<double> values,
                               attn::kernel::ElemType elem = attn::kernel::ElemType::F32) {
  HostTensor t(elem, std::move(shape));
  for (size_t i = 0; i < values.size(); ++i)
    t.set(static_cast<int64_t>(i), values[i]);
  return {t};
}

void report(const char *name, const std::vector<HostTensor> &got,
            const std::vector<HostTensor> &want) {
  std::printf("%s: %s\n", name, attn::tuner::resultsAgree(got, want) ? "agree" : "differ");
}

} // namespace

int main() {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<HostTensor> want = tensor({2, 2}, {1.0, -2.0, 0.5, 0.25});
  report("identical", want, want);
  // 1e-4 of the largest magnitude (2): 2e-4 apart agrees, 3e-4 does not.
  report("within", tensor({2, 2}, {1.0, -2.0, 0.5 + 2e-4, 0.25}), want);
  report("beyond", tensor({2, 2}, {1.0, -2.0, 0.5 + 3e-4, 0.25}), want);
  report("nan-where-finite", tensor({2, 2}, {1.0, -2.0, nan, 0.25}), want);
  report("other-shape", tensor({4}, {1.0, -2.0, 0.5, 0.25}), want);
  report("fewer-results", {}, want);
  std::vector<HostTensor> special = tensor({3}, {nan, -inf, 1.0});
  report("same-specials", tensor({3}, {nan, -inf, 1.0}), special);
  report("inf-for-nan", tensor({3}, {inf, -inf, 1.0}), special);
  report("finite-for-inf", tensor({3}, {nan, -1e30, 1.0}), special);
  // bf16 results: one ulp of 1.0 (2^-7) is rounding; 4 ulps are not.
  const auto bf16 = attn::kernel::ElemType::BF16;
  std::vector<HostTensor> wantBf16 = tensor({2}, {1.0, 0.5}, bf16);
  report("bf16-one-ulp", tensor({2}, {1.0 + 0x1p-7, 0.5}, bf16), wantBf16);
  report("bf16-four-ulps", tensor({2}, {1.0 + 0x1p-5, 0.5}, bf16), wantBf16);
  return 0;
}
