//===- AtomicFile.cpp - files written whole or not at all -----------------===//

#include "attn/Runtime/AtomicFile.h"
#include "attn/Runtime/Interrupt.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace attn {

static std::string directoryOf(const std::string &path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

bool checkOutputPath(const std::string &path, std::string &error) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    error = "cannot write '" + path + "': it is a directory";
    return false;
  }
  std::string dir = directoryOf(path);
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    error = "cannot write '" + path + "': no directory '" + dir + "'";
    return false;
  }
  if (::access(dir.c_str(), W_OK) != 0) {
    error = "cannot write '" + path + "': " + std::strerror(errno);
    return false;
  }
  return true;
}

bool writeFileAtomically(const std::string &path, const std::string &bytes, std::string &error) {
  size_t slash = path.rfind('/');
  std::string dir = directoryOf(path);
  std::string tmpl = dir + "/." + path.substr(slash == std::string::npos ? 0 : slash + 1) + ".tmp-XXXXXX";
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  int fd = mkstemp(name.data());
  if (fd < 0) {
    error = "cannot write '" + path + "': " + std::strerror(errno);
    return false;
  }
  registerTemporary(name.data());
  struct Unregister {
    const char *path;
    ~Unregister() { unregisterTemporary(path); }
  } unregister{name.data()};
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) {
      error = "cannot write '" + path + "': " + std::strerror(errno);
      ::close(fd);
      ::unlink(name.data());
      return false;
    }
    done += static_cast<size_t>(n);
  }
  if (::close(fd) != 0 || std::rename(name.data(), path.c_str()) != 0) {
    error = "cannot write '" + path + "': " + std::strerror(errno);
    ::unlink(name.data());
    return false;
  }
  return true;
}

} // namespace attn
