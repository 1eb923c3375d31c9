//===- Pipeline.h - one kernel's way from graph to machine code -*- C++ -*-===//
//
// For the report (attn-bench --report): the benchmark graph of one shape written unfused, the IR
// after each attn pass, the #attn.schedule chosen, the schedule's account of every stage, Halide's
// loop nest of the kernel, and a summary of its machine code (instruction counts by kind).
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_TOOLS_ATTN_BENCH_PIPELINE_H
#define ATTN_TOOLS_ATTN_BENCH_PIPELINE_H

#include "BenchShapes.h"

#include "llvm/Support/JSON.h"

#include <optional>
#include <string>

namespace attn::bench {

/// Compiles `shape`'s graph for `target` (empty: the host) and describes each step. Returns nothing
/// and sets `error` if a step fails.
std::optional<llvm::json::Object> describePipeline(const BenchShape &shape,
                                                   const std::string &target, std::string &error);

/// Instruction counts of an assembly listing: total, and by kind (vector FMAs, 512/256/128-bit
/// vector instructions, broadcasts, scalar float instructions, calls).
llvm::json::Object summarizeAssembly(const std::string &assembly);

} // namespace attn::bench

#endif // ATTN_TOOLS_ATTN_BENCH_PIPELINE_H
