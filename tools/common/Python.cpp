//===- Python.cpp - the tools' Python helpers -----------------------------===//

#include "Python.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <optional>

namespace attn::tools {

std::string scriptPath(const std::string &relative) {
  // An installed tool finds its scripts beside it (cmake/AttnInstall.cmake); a built one, in the
  // source tree it was built from.
  static int anchor;
  std::string exe = llvm::sys::fs::getMainExecutable(nullptr, &anchor);
  llvm::SmallString<256> installed(llvm::sys::path::parent_path(llvm::sys::path::parent_path(exe)));
  llvm::sys::path::append(installed, "share", "attn", relative);
  if (!exe.empty() && llvm::sys::fs::exists(installed))
    return std::string(installed);
  return std::string(ATTN_SOURCE_DIR) + "/" + relative;
}

bool runPython(const std::string &script, const std::vector<std::string> &args, std::string &output,
               std::string &error) {
  std::string python = llvm::sys::fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "";
  if (python.empty()) {
    auto found = llvm::sys::findProgramByName("python3");
    if (!found) {
      error = "python3 is not installed (Debian: python3, python3-numpy, python3-matplotlib)";
      return false;
    }
    python = *found;
  }
  llvm::SmallString<128> out, err;
  llvm::sys::fs::createTemporaryFile("attn-py", "out", out);
  llvm::sys::fs::createTemporaryFile("attn-py", "err", err);
  std::vector<llvm::StringRef> argv = {python, script};
  for (const std::string &a : args)
    argv.push_back(a);
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(out),
                                                llvm::StringRef(err)};
  std::string execError;
  int rc = llvm::sys::ExecuteAndWait(python, argv, std::nullopt, redirects, 0, 0, &execError);
  auto read = [](llvm::StringRef path) {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    return buffer ? (*buffer)->getBuffer().str() : std::string();
  };
  output = read(out);
  std::string stderrText = read(err);
  llvm::sys::fs::remove(out);
  llvm::sys::fs::remove(err);
  if (rc != 0) {
    error = !stderrText.empty() ? stderrText
            : execError.empty() ? "exit code " + std::to_string(rc)
                                : execError;
    while (!error.empty() && error.back() == '\n')
      error.pop_back();
    return false;
  }
  return true;
}

} // namespace attn::tools
