//===- Percentile.h - quantiles of timings --------------------*- C++ -*-===//
//
// One rule for every median and spread the tools print (attn-bench's rows and pairs, attn-tune's
// side-by-side check): the nearest rank.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_SUPPORT_PERCENTILE_H
#define ATTN_SUPPORT_PERCENTILE_H

#include <algorithm>
#include <vector>

namespace attn {

/// The p-quantile (0 min, 0.5 median, 1 max) of `values`, by nearest rank; 0 when empty.
inline double percentileOf(std::vector<double> values, double p) {
  if (values.empty())
    return 0;
  std::sort(values.begin(), values.end());
  size_t rank = static_cast<size_t>(p * static_cast<double>(values.size() - 1) + 0.5);
  return values[std::min(values.size() - 1, rank)];
}

} // namespace attn

#endif // ATTN_SUPPORT_PERCENTILE_H
