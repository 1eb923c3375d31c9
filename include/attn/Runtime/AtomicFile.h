//===- AtomicFile.h - outputs written whole or not at all -------*- C++ -*-===//
//
// Every output of the tools is written under a temporary name and put in place when complete, so a
// failure or an interruption (Interrupt.h) leaves the old output or none, never a partial one.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_RUNTIME_ATOMICFILE_H
#define ATTN_RUNTIME_ATOMICFILE_H

#include <functional>
#include <string>
#include <vector>

namespace attn {

/// Writes `bytes` to `path` whole or not at all. A regular file (new, or replacing one) is written
/// to a temporary beside it (.NAME.tmp-XXXXXX) and renamed into place; it gets the permissions of
/// the file it replaces, or those the user's umask gives a new file. A link is followed (the link
/// stays, its target is written). A file that is not a regular one (/dev/null, a FIFO, a terminal)
/// is written through, as a shell's redirection would.
bool writeFileAtomically(const std::string &path, const std::string &bytes, std::string &error);

/// Checks, before any work, that writeFileAtomically can write `path` (not a directory; its
/// directory exists and is writable, or the existing special file is), so that a long run does not
/// fail only at its end.
bool checkOutputPath(const std::string &path, std::string &error);

/// Why a tool's outputs cannot all be written, or "": each path must pass checkOutputPath, and no
/// two may name the same file (after links and `.`/`..`); `twice(later, earlier)` words that case
/// for the tool.
std::string outputPathsProblem(
    const std::vector<std::string> &paths,
    const std::function<std::string(const std::string &, const std::string &)> &twice);

/// A directory built under a temporary name beside `dir` (.NAME.attn-staging-XXXXXX) and put in
/// `dir`'s place whole when complete: an atomic exchange where `dir` exists (whose old contents are
/// then removed), a rename where it does not. Until then `dir` is untouched; a failure or an
/// interruption removes the staging directory (and the directories above `dir` that open()
/// created). Only a directory that is absent, empty, or was written by a tool that leaves `marker`
/// in it is replaced: anything else is refused up front.
class StagedDirectory {
public:
  StagedDirectory() = default;
  StagedDirectory(const StagedDirectory &) = delete;
  StagedDirectory &operator=(const StagedDirectory &) = delete;
  ~StagedDirectory();
  /// Checks that `dir` may be replaced and creates the staging directory.
  bool open(const std::string &dir, const std::string &marker, std::string &error);
  /// The staging directory, where the outputs are written.
  const std::string &path() const { return staging; }
  /// Puts the staging directory (which should hold `marker` by now) in place of `dir`.
  bool publish(std::string &error);

private:
  void keepCreated();
  std::string dir, staging, marker;
  std::string createdAbove; // the outermost directory open() created above `dir`, if any
  std::vector<std::string> createdLevels; // every directory open() created, outermost first
};

} // namespace attn

#endif // ATTN_RUNTIME_ATOMICFILE_H
