//===- Interrupt.h - no temporary left behind by SIGINT/SIGTERM -*- C++ -*-===//
//
// Outputs are written under temporary names and renamed when complete (AtomicFile.h), so an
// interrupted run never leaves a partial file under the real name. These hooks also remove the
// temporaries themselves when the process is stopped by SIGINT, SIGTERM or SIGHUP: the handler
// deletes every registered path (a staging directory with its files), then lets the signal end the
// process as it would have (chaining to the handler installed before, LLVM's included). SIGKILL
// cannot be caught: it may leave a hidden temporary (".NAME.tmp-*", ".attn-staging-*"), never a
// partial NAME.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_RUNTIME_INTERRUPT_H
#define ATTN_RUNTIME_INTERRUPT_H

#include <string>

namespace attn {

/// Removes `path` (a file, or an empty directory: register a directory's files too) if the process
/// is interrupted before unregisterTemporary(path). The handler only unlinks and rmdirs (it must
/// not allocate: the signal may have interrupted malloc). At most 64 paths at once; more are
/// simply not tracked.
void registerTemporary(const std::string &path);
void unregisterTemporary(const std::string &path);

} // namespace attn

#endif // ATTN_RUNTIME_INTERRUPT_H
