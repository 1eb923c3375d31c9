//===- Interrupt.cpp - no temporary left behind by SIGINT/SIGTERM ---------===//

#include "attn/Runtime/Interrupt.h"

#include <atomic>
#include <csignal>
#include <cstring>
#include <mutex>
#include <unistd.h>

namespace attn {

namespace {

constexpr int kSlots = 64;
constexpr int kPathMax = 4096;
// Fixed storage: the handler reads it without allocating. A slot is live while `used` is set.
char paths[kSlots][kPathMax];
std::atomic<bool> used[kSlots];
std::mutex registration;

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
struct sigaction previous[3];

void onSignal(int sig) {
  // Only async-signal-safe calls (no allocation: the signal may have interrupted malloc). Files
  // first, then directories, which are empty by then (a staging directory registers its files).
  for (int i = 0; i < kSlots; ++i)
    if (used[i].load())
      ::unlink(paths[i]);
  for (int i = 0; i < kSlots; ++i)
    if (used[i].load())
      ::rmdir(paths[i]);
  // Whatever was there before (LLVM's handler removes its own files, then re-raises), or the
  // default action: the process ends by this signal, as it would have without us.
  for (int s = 0; s < 3; ++s)
    if (kSignals[s] == sig) {
      ::sigaction(sig, &previous[s], nullptr);
      break;
    }
  ::raise(sig);
}

void installOnce() {
  static bool installed = false;
  if (installed)
    return;
  installed = true;
  for (int s = 0; s < 3; ++s) {
    struct sigaction action {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;
    ::sigaction(kSignals[s], &action, &previous[s]);
  }
}

} // namespace

void registerTemporary(const std::string &path) {
  if (path.size() >= kPathMax)
    return;
  std::lock_guard<std::mutex> lock(registration);
  installOnce();
  for (int i = 0; i < kSlots; ++i)
    if (!used[i].load()) {
      std::memcpy(paths[i], path.c_str(), path.size() + 1);
      used[i].store(true);
      return;
    }
}

void unregisterTemporary(const std::string &path) {
  std::lock_guard<std::mutex> lock(registration);
  for (int i = 0; i < kSlots; ++i)
    if (used[i].load() && path == paths[i]) {
      used[i].store(false);
      return;
    }
}

} // namespace attn
