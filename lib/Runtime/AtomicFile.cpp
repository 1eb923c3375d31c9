//===- AtomicFile.cpp - outputs written whole or not at all ---------------===//

#include "attn/Runtime/AtomicFile.h"
#include "attn/Runtime/Interrupt.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace attn {

namespace {

namespace fs = std::filesystem;

std::string directoryOf(const std::string &path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

std::string baseName(const std::string &path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string failure(const std::string &path, const std::string &why) {
  return "cannot write '" + path + "': " + why;
}

/// The path a write goes to: a link's target (resolved), or the path itself.
std::string followLinks(const std::string &path) {
  char resolved[PATH_MAX];
  struct stat st;
  if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode) && ::realpath(path.c_str(), resolved))
    return resolved;
  return path;
}

/// The user's umask (read without changing it for good: the tools create files from one thread).
mode_t userUmask() {
  mode_t mask = ::umask(0);
  ::umask(mask);
  return mask;
}

bool writeAll(int fd, const std::string &bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

/// /dev/null, a FIFO, a terminal, a socket: written through, never replaced.
bool writeThrough(const std::string &shown, const std::string &path, const std::string &bytes,
                  std::string &error) {
  int fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0 || !writeAll(fd, bytes)) {
    error = failure(shown, std::strerror(errno));
    if (fd >= 0)
      ::close(fd);
    return false;
  }
  if (::close(fd) != 0) {
    error = failure(shown, std::strerror(errno));
    return false;
  }
  return true;
}

} // namespace

bool checkOutputPath(const std::string &path, std::string &error) {
  const std::string target = followLinks(path);
  struct stat st;
  if (::stat(target.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      error = failure(path, "it is a directory");
      return false;
    }
    if (!S_ISREG(st.st_mode)) { // written through
      if (::access(target.c_str(), W_OK) != 0) {
        error = failure(path, std::strerror(errno));
        return false;
      }
      return true;
    }
  }
  std::string dir = directoryOf(target);
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    error = failure(path, "no directory '" + dir + "'");
    return false;
  }
  if (::access(dir.c_str(), W_OK) != 0) {
    error = failure(path, std::strerror(errno));
    return false;
  }
  return true;
}

/// Whether two output paths name the same file (after links and `.`/`..`).
static bool sameOutputPath(const std::string &a, const std::string &b) {
  std::error_code ea, eb;
  fs::path pa = fs::weakly_canonical(a, ea), pb = fs::weakly_canonical(b, eb);
  return ea || eb ? a == b : pa == pb;
}

std::string outputPathsProblem(
    const std::vector<std::string> &paths,
    const std::function<std::string(const std::string &, const std::string &)> &twice) {
  std::string error;
  for (size_t i = 0; i < paths.size(); ++i) {
    if (!checkOutputPath(paths[i], error))
      return error;
    for (size_t j = 0; j < i; ++j)
      if (sameOutputPath(paths[i], paths[j]))
        return twice(paths[i], paths[j]);
  }
  return "";
}

bool writeFileAtomically(const std::string &path, const std::string &bytes, std::string &error) {
  const std::string target = followLinks(path);
  struct stat st;
  const bool exists = ::stat(target.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) {
    error = failure(path, "it is a directory");
    return false;
  }
  if (exists && !S_ISREG(st.st_mode))
    return writeThrough(path, target, bytes, error);
  const mode_t mode = exists ? (st.st_mode & 07777) : (0666 & ~userUmask());

  std::string tmpl = directoryOf(target) + "/." + baseName(target) + ".tmp-XXXXXX";
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  int fd = mkstemp(name.data());
  if (fd < 0) {
    error = failure(path, std::strerror(errno));
    return false;
  }
  registerTemporary(name.data());
  struct Unregister {
    const char *path;
    ~Unregister() { unregisterTemporary(path); }
  } unregister{name.data()};
  bool ok = writeAll(fd, bytes) && ::fchmod(fd, mode) == 0;
  ok = ::close(fd) == 0 && ok;
  if (!ok || std::rename(name.data(), target.c_str()) != 0) {
    error = failure(path, std::strerror(errno));
    ::unlink(name.data());
    return false;
  }
  return true;
}

//===--- StagedDirectory ---===//

StagedDirectory::~StagedDirectory() {
  std::error_code ec;
  if (!staging.empty()) {
    fs::remove_all(staging, ec);
    unregisterTemporary(staging);
  }
  if (!createdAbove.empty()) // nothing was published: the directories made for it go too
    fs::remove_all(createdAbove, ec);
  for (const std::string &p : createdLevels)
    unregisterTemporary(p);
}

bool StagedDirectory::open(const std::string &requested, const std::string &markerName,
                           std::string &error) {
  marker = markerName;
  dir = requested;
  while (dir.size() > 1 && dir.back() == '/')
    dir.pop_back();
  std::error_code ec;
  fs::path where = fs::weakly_canonical(dir, ec);
  if (!ec) {
    // The directory itself, not a link to it, is replaced; and never one the process stands in.
    dir = where.string();
    fs::path cwd = fs::current_path(ec);
    for (fs::path p = cwd; !ec && !p.empty(); p = p.parent_path()) {
      if (p == where) {
        error = "cannot write '" + requested + "': it is the current directory or holds it";
        return false;
      }
      if (p == p.parent_path())
        break;
    }
  }
  struct stat st;
  if (::lstat(dir.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode)) {
      error = "cannot write '" + requested + "': it exists and is not a directory";
      return false;
    }
    if (!fs::is_empty(dir, ec) && !fs::exists(fs::path(dir) / marker, ec)) {
      error = "cannot write '" + requested + "': the directory holds files this tool did not " +
              "write (no " + marker + " in it); give a new or an empty directory";
      return false;
    }
  }
  // Missing directories above `dir` are created (and removed again if nothing is published).
  std::string parent = directoryOf(dir);
  for (std::string p = parent; ::stat(p.c_str(), &st) != 0; p = directoryOf(p))
    createdAbove = p;
  if (!createdAbove.empty()) {
    fs::create_directories(parent, ec);
    if (ec) {
      error = "cannot write '" + requested + "': " +
              (::stat(directoryOf(createdAbove).c_str(), &st) == 0 && !S_ISDIR(st.st_mode)
                   ? "'" + directoryOf(createdAbove) + "' is not a directory"
                   : ec.message());
      createdAbove.clear();
      return false;
    }
    for (std::string p = parent;; p = directoryOf(p)) { // outermost first, so removed last
      createdLevels.insert(createdLevels.begin(), p);
      if (p == createdAbove)
        break;
    }
    for (const std::string &p : createdLevels)
      registerTemporary(p);
  } else if (!S_ISDIR(st.st_mode)) {
    error = "cannot write '" + requested + "': '" + parent + "' is not a directory";
    return false;
  }
  std::string tmpl = parent + "/." + baseName(dir) + ".attn-staging-XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data())) {
    error = "cannot write '" + requested + "': " + std::strerror(errno);
    return false;
  }
  staging = buf.data();
  registerTemporary(staging); // removed with what it holds if the run is interrupted
  return true;
}

bool StagedDirectory::publish(std::string &error) {
  ::chmod(staging.c_str(), 0777 & ~userUmask()); // as mkdir would have made it (mkdtemp: 0700)
  if (std::rename(staging.c_str(), dir.c_str()) == 0) {
    unregisterTemporary(staging);
    staging.clear();
    keepCreated();
    return true;
  }
  if (errno != EEXIST && errno != ENOTEMPTY) {
    error = "cannot write '" + dir + "': " + std::strerror(errno);
    return false;
  }
  // `dir` exists: exchange the two atomically, then remove the old contents, now at `staging`.
  if (::renameat2(AT_FDCWD, staging.c_str(), AT_FDCWD, dir.c_str(), RENAME_EXCHANGE) != 0) {
    // A file system without exchange: move the old one aside first (a moment without `dir`).
    std::string aside = staging + ".old";
    if (std::rename(dir.c_str(), aside.c_str()) != 0 ||
        std::rename(staging.c_str(), dir.c_str()) != 0) {
      error = "cannot write '" + dir + "': " + std::strerror(errno);
      return false;
    }
    std::error_code ec;
    fs::remove_all(aside, ec);
  }
  std::error_code ec;
  fs::remove_all(staging, ec);
  unregisterTemporary(staging);
  staging.clear();
  keepCreated();
  return true;
}

void StagedDirectory::keepCreated() {
  for (const std::string &p : createdLevels)
    unregisterTemporary(p);
  createdLevels.clear();
  createdAbove.clear();
}

} // namespace attn
