#include "sc_main/deadlock_validation.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <vector>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "sc_main/config.h"
#include "sc_main/config_schema.h"
#include "sc_main/deadlock_check.h"
#include "sc_main/progress.h"
#include "scfly_git_rev.h"

namespace scfly {

namespace {

// The build that judges: the revision, and for a tree with uncommitted changes (or none
// known) the executable itself, so a rebuilt routing unit never reads an older verdict.
std::string build_id() {
  std::string id = SCFLY_GIT_REV;
  const bool exact = id != "unknown" && id.find("dirty") == std::string::npos;
  if (!exact) {
    // The executable's path first (readlink, which valgrind answers with its client's path,
    // where stat of /proc/self/exe would see the tool's binary).
    char exe[4096];
    const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
    struct stat st {};
    if (n > 0 && (exe[n] = '\0', ::stat(exe, &st) == 0))
      id += " exe " + std::to_string(st.st_size) + " " + std::to_string(st.st_mtim.tv_sec) + "." +
            std::to_string(st.st_mtim.tv_nsec);
    else
      id += " uncached";  // no way to tell builds apart
  }
  return id;
}

uint64_t fnv1a(const std::string& s) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char ch : s) {
    h ^= ch;
    h *= 1099511628211ULL;
  }
  return h;
}

bool make_dirs(const std::string& path) {
  std::string cur;
  std::stringstream ss(path);
  for (std::string part; std::getline(ss, part, '/');) {
    cur += part + "/";
    if (part.empty()) continue;
    struct stat st {};
    if (::stat(cur.c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode)) return false;
      continue;
    }
    if (::mkdir(cur.c_str(), 0755) != 0 && errno != EEXIST) return false;
  }
  return true;
}

// Keeps the cache at most kDeadlockCacheEntries verdicts: the least recently written go
// first (every dirty build writes its own entries, so an unbounded cache grows with every
// rebuild of a working tree). Best effort: a file another process removes first is fine.
void prune_cache(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<std::pair<fs::file_time_type, fs::path>> files;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() != ".json") continue;
    const auto t = fs::last_write_time(it->path(), ec);
    if (!ec) files.emplace_back(t, it->path());
    ec.clear();
  }
  if (files.size() <= kDeadlockCacheEntries) return;
  std::sort(files.begin(), files.end());
  for (size_t i = 0; i + kDeadlockCacheEntries < files.size(); ++i) fs::remove(files[i].second, ec);
}

}  // namespace

std::string deadlock_cache_dir() {
  if (const char* d = std::getenv("SCFLY_CACHE_DIR"); d && *d) return std::string(d) + "/deadlock";
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/scfly/deadlock";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/scfly/deadlock";
  return "";
}

std::string DeadlockValidation::summary() const {
  std::ostringstream o;
  o << "deadlock freedom: ";
  if (verdict == "acyclic") o << "checked, the channel dependency graph is acyclic";
  else if (verdict == "duato") o << "checked, Duato's condition holds (acyclic escape VCs)";
  else if (verdict == "derouting")
    o << "by derouting out of the multiqueue (CHAOS: not a channel-dependency property, its one-VC graph is cyclic; "
         "the watchdog stands guard)";
  else o << "NOT checked at run time (the network exceeds the run-time budget of " << kRunTimeMaxStates / 1000000
            << " M routing states and " << kRunTimeMaxCalls / 1000000
            << " M unit calls; VCs from the table; scfly check-deadlock on a smaller network of the same kind)";
  if (verdict != "too large" && verdict != "derouting") o << " (" << states << " routing states" << (cached ? ", cached" : "") << ")";
  return o.str();
}

nlohmann::json DeadlockValidation::to_json() const {
  return {{"verdict", verdict}, {"states", states}, {"seconds", seconds}, {"cached", cached}};
}

DeadlockValidation validate_deadlock(const SimConfig& c, uint64_t max_states, uint64_t max_calls) {
  if (c.routing == RoutingAlgo::Chaos) {  // no VC scheme to check (torus_routing.h, CHAOS)
    DeadlockValidation v;
    v.verdict = "derouting";
    return v;
  }
  nlohmann::json key = routing_shape_json(c);
  key["_build"] = build_id();
  key["_budget"] = {max_states, max_calls};
  const std::string key_text = key.dump();
  const std::string dir = deadlock_cache_dir();
  char name[32];
  std::snprintf(name, sizeof name, "%016llx.json", static_cast<unsigned long long>(fnv1a(key_text)));
  const std::string file = dir.empty() ? "" : dir + "/" + name;

  nlohmann::json stored;
  if (!file.empty()) {
    std::ifstream in(file);
    if (in) {
      try {
        in >> stored;
        if (!stored.is_object() || stored.value("key", "") != key_text) stored = nlohmann::json();
      } catch (const std::exception&) {
        stored = nlohmann::json();  // a torn or foreign file: check again
      }
    }
  }
  const bool cached = !stored.is_null();
  if (!cached) {
    DeadlockCheckOptions o;
    o.max_states = max_states;
    o.max_calls = max_calls;
    Progress progress("deadlock check");
    if (progress.on()) o.progress = deadlock_progress(progress, max_states);
    DeadlockCheckResult r;
    try {
      r = check_deadlock(c, o);
    } catch (const std::invalid_argument& e) {
      throw ConfigError(std::string("deadlock check: ") + e.what());
    }
    stored = {{"key", key_text}, {"result", to_json(r)}, {"text", format(r)}};
    if (!file.empty() && make_dirs(dir)) {
      // Written whole, then renamed: a sweep's points may check the same shape at once.
      const std::string tmp = file + ".tmp" + std::to_string(::getpid());
      {
        std::ofstream out(tmp);
        out << stored.dump() << "\n";
      }
      if (std::rename(tmp.c_str(), file.c_str()) != 0) std::remove(tmp.c_str());
      prune_cache(dir);
    }
  }
  const nlohmann::json& r = stored["result"];
  DeadlockValidation v;
  v.cached = cached;
  v.states = r.value("states", uint64_t{0});
  v.seconds = cached ? 0.0 : r.value("seconds", 0.0);
  const std::string verdict = r.value("verdict", "");
  if (verdict == "acyclic" || verdict == "duato") {
    v.verdict = verdict;
  } else if (r.value("too_large", false)) {
    v.verdict = "too large";
  } else {
    throw ConfigError("the configured network can deadlock (switch.vcs and routing as configured; "
                      "scfly check-deadlock CONFIG for details):\n" + stored.value("text", std::string()));
  }
  return v;
}

}  // namespace scfly
