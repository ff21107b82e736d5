// Output files of the command line (--json, -o, --step2, export's CSV): checked before any
// work is done without truncating what is there, then written whole or not at all.
//
// - output_problem(path): why `path` cannot be written, or "" — an existing file must be
//   writable, a new one needs a writable directory. Nothing is created or truncated, so a
//   refused command leaves an existing file as it was.
// - write_output(path, text): a regular file (or a new one) is written to a temporary file
//   in the same directory, flushed and renamed over `path`, so a full disk leaves the old
//   file intact; anything else (/dev/stdout, a pipe, /dev/full) is written in place. Every
//   write, the close and the rename are checked: a failure is returned as "writing 'PATH'
//   failed: REASON" and the command exits with kExitWriteFailed (docs/reliability.md).
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

#include "sc_main/exit_codes.h"

namespace scfly {

// Thrown where a library function writes an output and the write fails.
struct WriteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline std::string output_problem(const std::string& path) {
  if (path.empty()) return "an empty file name";
  struct stat st{};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return "'" + path + "' is a directory";
    if (::access(path.c_str(), W_OK) != 0) return "cannot write '" + path + "': " + std::strerror(errno);
    return "";
  }
  const auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  struct stat ds{};
  if (::stat(dir.c_str(), &ds) != 0 || !S_ISDIR(ds.st_mode))
    return "cannot write '" + path + "': the directory '" + dir + "' does not exist";
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    return "cannot write '" + path + "': the directory '" + dir + "' is not writable";
  return "";
}

namespace detail {
inline bool write_all(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}
}  // namespace detail

// "" when `text` is in `path`; otherwise what failed (the old file, if any, is kept).
inline std::string write_output(const std::string& path, const std::string& text) {
  const auto failed = [&path](int err) { return "writing '" + path + "' failed: " + std::strerror(err); };
  struct stat st{};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && !S_ISREG(st.st_mode)) {  // a device or a pipe: in place
    const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0) return failed(errno);
    const bool ok = detail::write_all(fd, text);
    const int err = errno;
    if (::close(fd) != 0 && ok) return failed(errno);
    return ok ? "" : failed(err);
  }
  std::string tmp = path + ".tmp-XXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) return failed(errno);
  bool ok = detail::write_all(fd, text) && ::fsync(fd) == 0;
  int err = errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (ok) {
    // mkstemp makes the file 0600; give it what a new file gets (umask) or the old one's mode.
    mode_t mode = 0;
    if (exists) {
      mode = st.st_mode & 07777;
    } else {
      const mode_t mask = ::umask(0);
      ::umask(mask);
      mode = 0666 & ~mask;
    }
    if (::chmod(tmp.c_str(), mode) != 0) {  // keep mkstemp's 0600 rather than fail the write
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
      ok = false;
      err = errno;
    }
  }
  if (!ok) ::unlink(tmp.c_str());
  return ok ? "" : failed(err);
}

}  // namespace scfly
