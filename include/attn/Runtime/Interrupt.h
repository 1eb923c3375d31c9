//===- Interrupt.h - no temporary left behind by SIGINT/SIGTERM -*- C++ -*-===//
//
// Outputs are written under temporary names and renamed when complete (AtomicFile.h), so an
// interrupted run never leaves a partial file under the real name. These hooks also remove the
// temporaries themselves when the process is stopped by SIGINT, SIGTERM or SIGHUP: the handler
// deletes every registered path (a staging directory with what it holds), then lets the signal end
// the process as it would have (chaining to the handler installed before, LLVM's included). A
// signal the process was started with ignored (SIGINT and SIGQUIT for a shell's background job, or
// nohup's SIGHUP) stays ignored: the run goes on and completes. SIGKILL cannot be caught: it may
// leave a hidden temporary (".NAME.tmp-*", ".NAME.attn-staging-*"), never a partial NAME.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_RUNTIME_INTERRUPT_H
#define ATTN_RUNTIME_INTERRUPT_H

#include <string>

namespace attn {

/// Removes `path` (a file, or a directory with the files it holds; not its subdirectories) if the
/// process is interrupted before unregisterTemporary(path). The handler only makes system calls (it
/// must not allocate: the signal may have interrupted malloc). At most 64 paths at once; more are
/// simply not tracked.
void registerTemporary(const std::string &path);
void unregisterTemporary(const std::string &path);

} // namespace attn

#endif // ATTN_RUNTIME_INTERRUPT_H
