//===- AtomicFile.h - files written whole or not at all ---------*- C++ -*-===//

#ifndef ATTN_RUNTIME_ATOMICFILE_H
#define ATTN_RUNTIME_ATOMICFILE_H

#include <string>

namespace attn {

/// Writes `bytes` to `path` atomically: a temporary file beside it (.NAME.tmp-XXXXXX), renamed into
/// place when complete. A failure (or an interruption) leaves the old file or none, never a partial
/// one.
bool writeFileAtomically(const std::string &path, const std::string &bytes, std::string &error);

} // namespace attn

#endif // ATTN_RUNTIME_ATOMICFILE_H
