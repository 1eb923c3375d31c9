//===- SpotCheck.cpp - each measured result against the reference ---------===//

#include "SpotCheck.h"
#include "ToolSupport.h"

#include "attn/Reference/Evaluator.h"

#include "mlir/IR/MLIRContext.h"

#include <algorithm>
#include <cstring>
#include <sstream>

namespace attn::bench {

namespace {

/// Rows [r0, r0 + n) of the second-to-last dim of a row-major tensor (the sequence dim of q, k, v
/// and the result).
HostTensor sliceRows(const HostTensor &t, int64_t r0, int64_t n) {
  std::vector<int64_t> shape = t.shape;
  const int64_t rows = shape[shape.size() - 2];
  shape[shape.size() - 2] = n;
  HostTensor s(t.elem, shape);
  const size_t rowBytes = t.data.size() / t.numElements() * shape.back();
  const int64_t outer = t.numElements() / (rows * shape.back());
  for (int64_t o = 0; o < outer; ++o)
    std::memcpy(s.data.data() + o * n * rowBytes, t.data.data() + (o * rows + r0) * rowBytes,
                n * rowBytes);
  return s;
}

} // namespace

SpotCheck spotCheck(const BenchShape &s, const std::vector<const HostTensor *> &inputs,
                    const HostTensor &out) {
  SpotCheck check;
  check.tolerance = reference::toleranceFor(out.elem);
  const int64_t n = std::min(kSpotRows, s.Tq);
  std::vector<int64_t> starts = {0, (s.Tq - n) / 2, s.Tq - n};
  starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
  // (No thread pool of its own beside the measurement's threads.)
  mlir::MLIRContext ctx(mlir::MLIRContext::Threading::DISABLED);
  for (int64_t r0 : starts) {
    std::ostringstream window;
    window << "query rows " << r0 << "-" << r0 + n - 1;
    // The window as a shape of its own: its n queries, and with a causal mask (bottom-right: query
    // i sees keys up to i + Tk - Tq) the keys up to its last row's diagonal, where the sliced
    // problem's diagonal falls on the same keys.
    BenchShape w = s;
    w.Tq = n;
    if (s.causal)
      w.Tk = std::min(s.Tk, r0 + n + s.Tk - s.Tq);
    std::vector<HostTensor> sliced;
    sliced.reserve(3); // (the pointers below stay valid)
    std::vector<const HostTensor *> args = {&sliced.emplace_back(sliceRows(*inputs[0], r0, n))};
    for (size_t i = 1; i < 3; ++i) // k and v: whole, or the keys the window's rows see
      args.push_back(w.Tk < s.Tk ? &sliced.emplace_back(sliceRows(*inputs[i], 0, w.Tk))
                                 : inputs[i]);
    args.insert(args.end(), inputs.begin() + 3, inputs.end()); // weights: whole
    // The attention op as written (not fused or decomposed: the reference evaluates its semantics).
    std::optional<kernel::ModuleSpec> spec = tools::loadKernelsFromString(
        w.mlir(/*fused=*/true, ""), s.name + " (" + window.str() + ")", ctx, {/*fuse=*/false, ""});
    std::vector<reference::Array> want;
    std::string error;
    if (!spec) {
      check.failure = "the reference graph of " + window.str() + " does not load";
      return check;
    }
    if (!reference::evaluate(spec->functions.front(), args, want, error)) {
      check.failure = error;
      return check;
    }
    reference::Comparison c = reference::compare(sliceRows(out, r0, n), want.front());
    const double relative = c.maxAbs / std::max(c.scale, 1e-30);
    check.error = std::max(check.error, relative);
    if (!c.pass()) {
      std::ostringstream os;
      os << "wrong results: " << window.str() << " differ from the double-precision reference by "
         << c.maxAbs << ", " << relative << " times the reference's largest magnitude there ("
         << c.scale << "; tolerance " << c.tolerance << " times)";
      if (c.mismatchedSpecials)
        os << ", " << c.mismatchedSpecials << " entries inf or NaN in one and not the other";
      check.failure = os.str();
      return check;
    }
  }
  return check;
}

} // namespace attn::bench
