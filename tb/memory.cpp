#include "tb/memory.h"

#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace scfly {

uint64_t heap_in_use() {
  const struct mallinfo2 m = mallinfo2();
  return static_cast<uint64_t>(m.uordblks) + static_cast<uint64_t>(m.hblkhd);
}

uint64_t peak_rss() {
  struct rusage ru {};
  if (getrusage(RUSAGE_SELF, &ru) != 0) return 0;
  return static_cast<uint64_t>(ru.ru_maxrss) * 1024;
}

uint64_t resident_now() {
  std::ifstream f("/proc/self/statm");
  uint64_t size = 0, resident = 0;
  if (!(f >> size >> resident)) return 0;
  return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

namespace {
// A cgroup v2 file holding a byte count ("max" or unreadable: 0).
uint64_t cgroup_value(const std::string& path) {
  std::ifstream f(path);
  std::string s;
  if (!(f >> s) || s == "max") return 0;
  try {
    return std::stoull(s);
  } catch (...) {
    return 0;
  }
}
}  // namespace

uint64_t available_memory() {
  uint64_t avail = 0;
  std::ifstream mi("/proc/meminfo");
  std::string key;
  uint64_t kb = 0;
  std::string unit;
  while (mi >> key >> kb) {
    std::getline(mi, unit);
    if (key == "MemAvailable:") {
      avail = kb * 1024;
      break;
    }
  }
  // The process's own cgroup (v2: one line "0::/path").
  std::ifstream cg("/proc/self/cgroup");
  std::string line;
  while (std::getline(cg, line)) {
    if (line.rfind("0::", 0) != 0) continue;
    const std::string dir = "/sys/fs/cgroup" + line.substr(3);
    const uint64_t max = cgroup_value(dir + "/memory.max");
    if (max > 0) {
      const uint64_t cur = cgroup_value(dir + "/memory.current");
      const uint64_t room = max > cur ? max - cur : 0;
      if (avail == 0 || room < avail) avail = room;
    }
  }
  return avail;
}

std::string format_bytes(uint64_t b) {
  char buf[32];
  const double v = static_cast<double>(b);
  if (b >= (1ULL << 30)) std::snprintf(buf, sizeof buf, "%.2f GiB", v / (1ULL << 30));
  else if (b >= (1ULL << 20)) std::snprintf(buf, sizeof buf, "%.1f MiB", v / (1ULL << 20));
  else if (b >= (1ULL << 10)) std::snprintf(buf, sizeof buf, "%.1f KiB", v / (1ULL << 10));
  else std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(b));
  return buf;
}

std::string MemoryEstimate::describe() const {
  std::ostringstream o;
  o << format_bytes(total()) << " (" << switches << " switches x " << format_bytes(per_switch) << ", " << hosts
    << " hosts x " << (per_host > 0 || hosts == 0 ? format_bytes(per_host) : std::string("(not yet measured)"))
    << ", packets " << format_bytes(packets) << ", before the network "
    << format_bytes(base) << ")";
  return o.str();
}

}  // namespace scfly
