//===- Segments.cpp - a long kernel as a chain of pipelines ---------------===//

#include "attn/Kernel/Segments.h"

#include <algorithm>
#include <map>
#include <set>

namespace attn::kernel {

namespace {

/// The op of each value (-1 for the arguments) and the last op that reads it (ops.size() when the
/// function returns it, -1 when nothing reads it).
struct Uses {
  std::vector<int> producer, lastUse;
  explicit Uses(const FunctionSpec &fn)
      : producer(fn.values.size(), -1), lastUse(fn.values.size(), -1) {
    for (size_t i = 0; i < fn.ops.size(); ++i) {
      producer[fn.ops[i].result] = static_cast<int>(i);
      for (int id : fn.ops[i].operands())
        lastUse[id] = std::max(lastUse[id], static_cast<int>(i));
    }
    for (int r : fn.results)
      lastUse[r] = static_cast<int>(fn.ops.size());
  }
};

bool isStatic(const TensorType &t) {
  return std::none_of(t.shape.begin(), t.shape.end(), [](int64_t d) { return d == kDynamic; });
}

/// Ops [first, last] of `fn` as a function of their own: the arguments of `fn` they read, then
/// `input` (the previous segment's value, or -1), and `output` as its result.
Segment segmentOf(const FunctionSpec &fn, int first, int last, int input, int output,
                  const std::string &name) {
  Segment seg;
  seg.firstOp = first;
  seg.lastOp = last;
  seg.output = output;
  std::set<int> args;
  for (int i = first; i <= last; ++i)
    for (int id : fn.ops[i].operands())
      if (id < fn.numArgs)
        args.insert(id);
  seg.argValues.assign(args.begin(), args.end());
  if (input >= 0)
    seg.argValues.push_back(input);
  FunctionSpec &spec = seg.spec;
  spec.name = name;
  spec.location = fn.location;
  std::map<int, int> id;
  for (int v : seg.argValues) {
    id[v] = static_cast<int>(spec.values.size());
    spec.values.push_back(fn.values[v]);
  }
  spec.numArgs = static_cast<int>(spec.values.size());
  for (int i = first; i <= last; ++i) {
    OpSpec op = fn.ops[i];
    for (int *slot : op.operandSlots())
      if (*slot >= 0)
        *slot = id.at(*slot);
    id[op.result] = static_cast<int>(spec.values.size());
    spec.values.push_back(fn.values[op.result]);
    op.result = id[fn.ops[i].result];
    spec.ops.push_back(op);
  }
  spec.results = {id.at(output)};
  return seg;
}

} // namespace

std::vector<Segment> planSegments(const FunctionSpec &fn, const std::string &name) {
  std::vector<Segment> segments;
  const int n = static_cast<int>(fn.ops.size());
  if (n <= kSegmentOps)
    return segments;
  Uses uses(fn);
  std::set<int> live; // values of ops so far that a later op reads (or the function returns)
  int first = 0, input = -1;
  for (int i = 0; i + 1 < n; ++i) {
    const int result = fn.ops[i].result;
    if (uses.lastUse[result] > i)
      live.insert(result);
    for (auto it = live.begin(); it != live.end();)
      it = uses.lastUse[*it] <= i ? live.erase(it) : std::next(it);
    if (i - first + 1 < kSegmentOps || live.size() != 1 || *live.begin() != result ||
        !isStatic(fn.values[result]))
      continue;
    segments.push_back(segmentOf(fn, first, i, input, result,
                                 name + "_segment" + std::to_string(segments.size())));
    first = i + 1;
    input = result;
  }
  return segments;
}

} // namespace attn::kernel
