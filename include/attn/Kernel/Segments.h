//===- Segments.h - a long kernel as a chain of pipelines -------*- C++ -*-===//
//
// Halide 14's lowering takes time that grows faster than the number of stages of a pipeline (its
// skip-stages pass above all: a chain of 100 softmax ops took 36 s, of which 15 s in that pass).
// A long function is therefore cut, where a single value is all that later ops read of the earlier
// ones, into segments that each lower as a pipeline of their own, called from the kernel as
// Halide extern stages in order (lib/CodeGen/Halide/Algorithm/Lowering.cpp). The kernel
// and its calling convention stay one; only the cut values are stored whole between segments, as
// the unfused ops' results are anyway.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_KERNEL_SEGMENTS_H
#define ATTN_KERNEL_SEGMENTS_H

#include "attn/Kernel/KernelSpec.h"

#include <string>
#include <vector>

namespace attn::kernel {

/// Ops per segment above which a function is cut (where it can be).
constexpr int kSegmentOps = 12;

/// A run of a function's ops [firstOp, lastOp] as a function of its own.
struct Segment {
  int firstOp = 0, lastOp = 0;
  int output = -1;            // the value of `fn` it computes, its only result
  std::vector<int> argValues; // the values of `fn` its arguments are, in order
  FunctionSpec spec;          // arguments, then the ops with their ids renumbered
};

/// The segments `fn` is cut into before its last ops (which stay in the kernel itself), each of at
/// least kSegmentOps ops, cut after an op whose value is the only one of the ops so far that a
/// later op reads (or the function returns), and whose type is static. Empty when `fn` is short or
/// has no such place. Segment k's function is named `name`_segment<k>.
std::vector<Segment> planSegments(const FunctionSpec &fn, const std::string &name);

} // namespace attn::kernel

#endif // ATTN_KERNEL_SEGMENTS_H
