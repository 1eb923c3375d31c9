//===- AtomicFile.h - files written whole or not at all ---------*- C++ -*-===//

#ifndef ATTN_RUNTIME_ATOMICFILE_H
#define ATTN_RUNTIME_ATOMICFILE_H

#include <string>

namespace attn {

/// Writes `bytes` to `path` atomically: a temporary file beside it (.NAME.tmp-XXXXXX), renamed into
/// place when complete. A failure (or an interruption) leaves the old file or none, never a partial
/// one.
bool writeFileAtomically(const std::string &path, const std::string &bytes, std::string &error);

/// Checks, before any work, that a file can be created at `path` (its directory exists and is
/// writable, and `path` is not a directory), so a long run does not fail only at its end.
bool checkOutputPath(const std::string &path, std::string &error);

} // namespace attn

#endif // ATTN_RUNTIME_ATOMICFILE_H
