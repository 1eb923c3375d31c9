//===- Cpus.cpp - which CPUs a measurement runs on ------------------------===//

#include "Cpus.h"

#include <sched.h>

namespace attn::bench {

std::vector<int> allowedCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof set, &set) != 0)
    return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set))
      cpus.push_back(c);
  return cpus;
}

std::vector<int> cpusForThreads(const std::vector<int> &allowed, int threads) {
  if (threads >= static_cast<int>(allowed.size()))
    return allowed;
  return std::vector<int>(allowed.begin(), allowed.begin() + threads);
}

std::string cpuList(const std::vector<int> &cpus) {
  std::string list;
  for (int c : cpus)
    list += (list.empty() ? "" : ",") + std::to_string(c);
  return list;
}

bool pinTo(const std::vector<int> &cpus) {
  if (cpus.empty())
    return false;
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : cpus)
    if (c >= 0 && c < CPU_SETSIZE)
      CPU_SET(c, &set);
  return sched_setaffinity(0, sizeof set, &set) == 0;
}

} // namespace attn::bench
