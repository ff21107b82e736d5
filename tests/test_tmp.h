// Temporary files of a test process, in a directory of its own.
//
// The directory is made with mkdtemp on first use and removed, with everything in it, when
// the process that made it exits (not a forked child: a death test's child exits too). A
// name built from the process id alone is not enough: a CI run starts far more processes
// than pid_max (32768 here), so a later test process can get an earlier one's id and find
// its leftover files, such as a results database that already holds rows.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

namespace scfly_test {

class TmpDir {
 public:
  TmpDir() : m_owner(::getpid()) {
    const char* base = std::getenv("TMPDIR");
    std::string templ = std::string(base && *base ? base : "/tmp") + "/scfly_test_XXXXXX";
    if (!::mkdtemp(templ.data())) throw std::runtime_error("mkdtemp " + templ + " failed");
    m_path = templ;
  }
  ~TmpDir() {
    if (::getpid() != m_owner) return;
    std::error_code ec;
    std::filesystem::remove_all(m_path, ec);
  }
  TmpDir(const TmpDir&) = delete;
  TmpDir& operator=(const TmpDir&) = delete;
  const std::string& path() const { return m_path; }

 private:
  pid_t m_owner;
  std::string m_path;
};

// This process's directory (made on first call).
inline const std::string& tmp_dir() {
  static const TmpDir d;
  return d.path();
}

}  // namespace scfly_test

// A fresh path for `what` in this process's directory (a new one on every call).
inline std::string tmp(const std::string& what) {
  static int n = 0;
  return scfly_test::tmp_dir() + "/t" + std::to_string(n++) + "_" + what;
}
