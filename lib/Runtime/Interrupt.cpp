//===- Interrupt.cpp - no temporary left behind by SIGINT/SIGTERM ---------===//

#include "attn/Runtime/Interrupt.h"

#include <atomic>
#include <csignal>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <mutex>
#include <sys/syscall.h>
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

/// Whether each signal was ignored when the process started, read before main (so before
/// InitLLVM installs LLVM's handlers over whatever was there).
struct IgnoredAtStart {
  bool ignored[3] = {};
  IgnoredAtStart() {
    for (int s = 0; s < 3; ++s) {
      struct sigaction current {};
      ignored[s] =
          ::sigaction(kSignals[s], nullptr, &current) == 0 && current.sa_handler == SIG_IGN;
    }
  }
} ignoredAtStart;

/// Unlinks every entry of the directory `path` (async-signal-safe: raw getdents64, no allocation).
void emptyDirectory(const char *path) {
  int fd = ::open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return;
  alignas(8) char buffer[4096];
  for (;;) {
    long n = ::syscall(SYS_getdents64, fd, buffer, sizeof buffer);
    if (n <= 0)
      break;
    for (long at = 0; at < n;) {
      auto *entry = reinterpret_cast<struct dirent64 *>(buffer + at);
      if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0)
        ::unlinkat(fd, entry->d_name, 0);
      at += entry->d_reclen;
    }
  }
  ::close(fd);
}

void onSignal(int sig) {
  // Only async-signal-safe calls (no allocation: the signal may have interrupted malloc).
  // The latest first: a staging directory goes before the directories created to hold it.
  for (int i = kSlots - 1; i >= 0; --i)
    if (used[i].load() && ::unlink(paths[i]) != 0) {
      emptyDirectory(paths[i]);
      ::rmdir(paths[i]);
    }
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
    sigemptyset(&action.sa_mask);
    if (ignoredAtStart.ignored[s]) {
      // Ignored by whoever started us: keep it so (LLVM's handler, installed meanwhile, would
      // re-raise it ignored and let the run go on without its temporaries).
      action.sa_handler = SIG_IGN;
      ::sigaction(kSignals[s], &action, nullptr);
      continue;
    }
    action.sa_handler = onSignal;
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
