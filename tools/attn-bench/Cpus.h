//===- Cpus.h - which CPUs a measurement runs on ----------------*- C++ -*-===//
//
// The cores of a VM need not be equal: on the 2-vCPU development machine, attn-run at S = 512 on
// one thread took 3.10-3.17 ms pinned to one vCPU and 3.49-3.60 ms pinned to the other
// (2026-11-30), so a one-thread row measured wherever the scheduler put it was one of two numbers.
// attn-bench therefore runs every measurement with T threads, and the FMA probe for T threads, on
// the same T CPUs: the first T the process may use.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_TOOLS_ATTN_BENCH_CPUS_H
#define ATTN_TOOLS_ATTN_BENCH_CPUS_H

#include <string>
#include <vector>

namespace attn::bench {

/// The CPUs this process may run on, in increasing order (empty if the system does not say).
std::vector<int> allowedCpus();

/// The first `threads` of `allowed` (all of them when there are fewer).
std::vector<int> cpusForThreads(const std::vector<int> &allowed, int threads);

/// "0,1": the list as --w-cpus takes it and as messages name it.
std::string cpuList(const std::vector<int> &cpus);

/// Restricts this process's current thread, and the threads it starts afterwards, to `cpus`.
/// False (and nothing changed) when `cpus` is empty or the system refuses.
bool pinTo(const std::vector<int> &cpus);

} // namespace attn::bench

#endif // ATTN_TOOLS_ATTN_BENCH_CPUS_H
