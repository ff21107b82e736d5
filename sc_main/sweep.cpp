#include "sc_main/sweep.h"
#include "sc_main/config_schema.h"
#include "sc_main/exit_codes.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "sc_main/results_db.h"
#include "sc_main/saturation.h"
#include "scfly_git_rev.h"

namespace scfly {

namespace {

std::string yaml_text(const YAML::Node& n) {
  if (n.IsScalar()) return n.Scalar();
  YAML::Emitter e;
  e << YAML::Flow << n;
  return e.c_str();
}

bool file_exists(const std::string& p) {
  struct stat st{};
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string dir_of(const std::string& p) {
  const auto s = p.rfind('/');
  return s == std::string::npos ? "." : p.substr(0, s);
}


// Nested `set` maps become dotted keys; lists and scalars are values.
void flatten_set(const YAML::Node& n, const std::string& prefix, std::vector<std::string>& out) {
  for (const auto& kv : n) {
    const std::string k = prefix.empty() ? kv.first.Scalar() : prefix + "." + kv.first.Scalar();
    if (kv.second.IsMap()) flatten_set(kv.second, k, out);
    else out.push_back(k + "=" + yaml_text(kv.second));
  }
}

std::string fmt_duration(double s) {
  if (!std::isfinite(s) || s < 0) return "--:--";
  const long t = static_cast<long>(s + 0.5);
  char buf[32];
  if (t >= 3600) std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
  else std::snprintf(buf, sizeof buf, "%ld:%02ld", t / 60, t % 60);
  return buf;
}

volatile sig_atomic_t g_interrupted = 0;
void on_signal(int) { g_interrupted = 1; }

// The directory a sweep's points write their JSON and stderr into: $TMPDIR (else /tmp)
// /scfly-sweep-XXXXXX, removed with everything in it when the sweep ends, also when it is
// interrupted (a killed point may leave its files, or an output's temporary file, behind).
std::string make_sweep_tmpdir() {
  const char* env = std::getenv("TMPDIR");
  std::string t = (env && *env ? std::string(env) : std::string("/tmp")) + "/scfly-sweep-XXXXXX";
  std::vector<char> buf(t.begin(), t.end());
  buf.push_back('\0');
  if (!::mkdtemp(buf.data())) return "";
  return buf.data();
}

void remove_sweep_tmpdir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

std::string self_exe() {
  char buf[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "scfly";
  buf[n] = '\0';
  return buf;
}

}  // namespace

std::vector<std::string> expand_range(const std::string& key, const std::string& range) {
  const std::string allowed = "a list of values or a range 'start:stop:step' with step > 0";
  std::vector<double> v;
  std::stringstream ss(range);
  for (std::string part; std::getline(ss, part, ':');) {
    char* end = nullptr;
    const double x = std::strtod(part.c_str(), &end);
    if (part.empty() || *end != '\0' || !std::isfinite(x))
      throw ConfigError("sweep key 'axes." + key + "': value '" + range + "' is not allowed; expected " + allowed);
    v.push_back(x);
  }
  if (v.size() != 3 || v[2] <= 0 || v[1] < v[0])
    throw ConfigError("sweep key 'axes." + key + "': value '" + range +
                      "' is not allowed; expected " + allowed + " and stop >= start");
  const double n = std::floor((v[1] - v[0]) / v[2] + 1e-9);
  if (n > 100000)
    throw ConfigError("sweep key 'axes." + key + "': range '" + range + "' has more than 100000 values");
  std::vector<std::string> out;
  for (long i = 0; i <= static_cast<long>(n); ++i) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.10g", v[0] + static_cast<double>(i) * v[2]);
    out.push_back(buf);
  }
  return out;
}

std::string stem_of(const std::string& p) {
  std::string f = p.substr(p.rfind('/') == std::string::npos ? 0 : p.rfind('/') + 1);
  const auto d = f.rfind('.');
  return d == std::string::npos || d == 0 ? f : f.substr(0, d);
}

SweepSpec load_sweep(const std::string& path) {
  const std::string text = read_yaml_file(path, "sweep file");
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ConfigError("sweep file '" + path + "': not valid YAML: " + e.what());
  }
  reject_duplicate_keys(root, "sweep file '" + path + "'");
  return parse_sweep(root, path);
}

SweepSpec parse_sweep(const YAML::Node& root, const std::string& path) {
  if (!root.IsMap()) throw ConfigError("sweep file '" + path + "': the top level must be a mapping");
  SweepSpec s;
  s.path = path;
  s.name = stem_of(path);
  const std::set<std::string> known = {"base", "name", "set", "axes", "stop_after_saturation", "saturation",
                                       "saturation_search"};
  for (const auto& kv : root)
    if (!known.count(kv.first.Scalar()))
      throw ConfigError("unknown sweep key '" + kv.first.Scalar() +
                        "'; allowed: base, name, set, axes, stop_after_saturation, saturation, saturation_search");
  if (!root["base"] || !root["base"].IsScalar())
    throw ConfigError("sweep key 'base' is missing; it names the base configuration file");
  const std::string base = root["base"].Scalar();
  const std::string alt = dir_of(path) + "/" + base;
  if (!base.empty() && base[0] == '/') s.base = base;
  else if (file_exists(base)) s.base = base;
  else if (file_exists(alt)) s.base = alt;
  else
    throw ConfigError("sweep key 'base': value '" + base +
                      "' is not a readable file (tried it relative to the working directory and as " +
                      alt + ")");
  if (!file_exists(s.base)) throw ConfigError("sweep key 'base': value '" + base + "' is not a readable file");
  if (root["name"]) {
    if (!root["name"].IsScalar() || root["name"].Scalar().empty())
      throw ConfigError("sweep key 'name': expected a non-empty string");
    s.name = root["name"].Scalar();
  }
  if (root["set"] && !root["set"].IsNull()) {
    if (!root["set"].IsMap()) throw ConfigError("sweep key 'set': expected a mapping of config keys to values");
    flatten_set(root["set"], "", s.set);
  }
  if (!root["axes"] || !root["axes"].IsMap() || root["axes"].size() == 0)
    throw ConfigError("sweep key 'axes': expected a non-empty mapping of config keys to lists or ranges");
  for (const auto& kv : root["axes"]) {
    SweepAxis a;
    a.key = kv.first.Scalar();
    const YAML::Node& v = kv.second;
    if (v.IsSequence()) {
      for (const auto& x : v) a.values.push_back(yaml_text(x));
    } else if (v.IsMap()) {
      for (const auto& var : v) {
        if (!var.second.IsMap())
          throw ConfigError("sweep key 'axes." + a.key + "." + var.first.Scalar() +
                            "': a variant is a mapping of config keys to values");
        a.values.push_back(var.first.Scalar());
        a.bundles.emplace_back();
        flatten_set(var.second, "", a.bundles.back());
      }
    } else if (v.IsScalar() && v.Scalar().find(':') != std::string::npos) {
      a.values = expand_range(a.key, v.Scalar());
    } else if (v.IsScalar()) {
      a.values.push_back(v.Scalar());
    } else {
      throw ConfigError("sweep key 'axes." + a.key +
                        "': expected a list, a range 'start:stop:step' or named variants");
    }
    if (a.values.empty()) throw ConfigError("sweep key 'axes." + a.key + "': the list is empty");
    for (const auto& other : s.axes)
      if (other.key == a.key) throw ConfigError("sweep key 'axes." + a.key + "' appears twice");
    s.axes.push_back(std::move(a));
  }
  if (root["stop_after_saturation"]) {
    bool b;
    if (!root["stop_after_saturation"].IsScalar() ||
        !YAML::convert<bool>::decode(root["stop_after_saturation"], b))
      throw ConfigError("sweep key 'stop_after_saturation': value '" + yaml_text(root["stop_after_saturation"]) +
                        "' is not allowed; expected true or false");
    s.stop_after_saturation = b;
  }
  if (const YAML::Node sat = root["saturation"]; sat && !sat.IsNull()) {
    if (!sat.IsMap()) throw ConfigError("sweep key 'saturation': expected {latency_factor: X, extra_points: N}");
    for (const auto& kv : sat) {
      const std::string k = kv.first.Scalar();
      if (k == "latency_factor") {
        double x;
        if (!kv.second.IsScalar() || !YAML::convert<double>::decode(kv.second, x) || !(x > 1.0) || x > 1e6)
          throw ConfigError("sweep key 'saturation.latency_factor': value '" + yaml_text(kv.second) +
                            "' is not allowed; expected a number > 1");
        s.latency_factor = x;
      } else if (k == "accept_ratio") {
        double x;
        if (!kv.second.IsScalar() || !YAML::convert<double>::decode(kv.second, x) || !(x > 0.0) || x > 1.0)
          throw ConfigError("sweep key 'saturation.accept_ratio': value '" + yaml_text(kv.second) +
                            "' is not allowed; expected a number in (0, 1]");
        s.accept_ratio = x;
      } else if (k == "extra_points") {
        int x;
        if (!kv.second.IsScalar() || !YAML::convert<int>::decode(kv.second, x) || x < 0 || x > 1000)
          throw ConfigError("sweep key 'saturation.extra_points': value '" + yaml_text(kv.second) +
                            "' is not allowed; expected an integer in [0, 1000]");
        s.extra_points = x;
      } else {
        throw ConfigError("unknown sweep key 'saturation." + k +
                          "'; allowed: latency_factor, accept_ratio, extra_points");
      }
    }
  }
  if (const YAML::Node ss = root["saturation_search"]; ss && !ss.IsNull()) {
    const std::string form =
        "{low: L, high: H, resolution: R[, max_latency: C]} with 0 < L < H <= 8, 0 < R < H - L (a load above 1 "
        "phit/node/cycle needs as many topology.terminal_ports) and C > 0 cycles";
    if (!ss.IsMap()) throw ConfigError("sweep key 'saturation_search': expected " + form);
    s.search.on = true;
    for (const auto& kv : ss) {
      const std::string k = kv.first.Scalar();
      double v = 0;
      if (k == "max_latency") {
        if (!kv.second.IsScalar() || !YAML::convert<double>::decode(kv.second, v) || !(v > 0) || !std::isfinite(v))
          throw ConfigError("sweep key 'saturation_search.max_latency': value '" + yaml_text(kv.second) +
                            "' is not allowed; expected a latency in cycles > 0");
        s.search.max_latency = v;
        continue;
      }
      if (k != "low" && k != "high" && k != "resolution")
        throw ConfigError("unknown sweep key 'saturation_search." + k +
                          "'; allowed: low, high, resolution, max_latency");
      if (!kv.second.IsScalar() || !YAML::convert<double>::decode(kv.second, v) || !(v > 0) || v > 8)
        throw ConfigError("sweep key 'saturation_search." + k + "': value '" + yaml_text(kv.second) +
                          "' is not allowed; expected a load in (0, 8] phits/node/cycle");
      (k == "low" ? s.search.low : k == "high" ? s.search.high : s.search.resolution) = v;
    }
    if (!(s.search.low < s.search.high) || !(s.search.resolution < s.search.high - s.search.low))
      throw ConfigError("sweep key 'saturation_search': low " + std::to_string(s.search.low) + ", high " +
                        std::to_string(s.search.high) + ", resolution " + std::to_string(s.search.resolution) +
                        " are not allowed; expected " + form);
    for (const auto& a : s.axes)
      if (a.key == "load")
        throw ConfigError("sweep key 'axes.load' is not allowed with saturation_search, which chooses the loads");
    if (s.stop_after_saturation)
      throw ConfigError("sweep key 'stop_after_saturation' is not allowed with saturation_search");
  }
  return s;
}

std::string config_hash(const nlohmann::json& config) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : config.dump()) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::vector<std::string> sweep_inert_warnings(const std::vector<SweepPoint>& pts) {
  std::vector<std::string> out;
  if (pts.empty()) return out;
  for (const std::string& k : pts.front().inert) {
    bool everywhere = true;
    for (const SweepPoint& p : pts)
      everywhere = everywhere && std::find(p.inert.begin(), p.inert.end(), k) != p.inert.end();
    if (everywhere) out.push_back(inert_key_warning(pts.front().cfg, k) + " (in every point of the sweep)");
  }
  return out;
}

std::vector<SweepPoint> expand_sweep(const SweepSpec& spec) {
  size_t total = 1;
  for (const auto& a : spec.axes) {
    total *= a.values.size();
    if (total > 1000000) throw ConfigError("sweep '" + spec.path + "' has more than 10^6 points");
  }
  std::vector<SweepPoint> pts;
  std::vector<size_t> idx(spec.axes.size(), 0);
  for (size_t n = 0; n < total; ++n) {
    SweepPoint p;
    p.overrides = spec.set;
    for (size_t i = 0; i < spec.axes.size(); ++i) {
      const auto& a = spec.axes[i];
      p.axis_values.emplace_back(a.key, a.values[idx[i]]);
      if (a.variants()) {
        for (const auto& o : a.bundles[idx[i]]) p.overrides.push_back(o);
        p.labels[a.key] = a.values[idx[i]];
      } else {
        p.overrides.push_back(a.key + "=" + a.values[idx[i]]);
      }
      if (a.key != "load" && a.key != "seed")
        p.series += (p.series.empty() ? "" : " ") + a.key + "=" + a.values[idx[i]];
    }
    try {
      std::vector<std::string> given;
      p.cfg = load_config(spec.base, p.overrides, &given);
      p.inert = inert_keys(p.cfg, given);
    } catch (const ConfigError& e) {
      std::string where;
      for (const auto& [k, v] : p.axis_values) where += " " + k + "=" + v;
      throw ConfigError("sweep point" + where + ": " + e.what());
    }
    p.config = config_to_json(p.cfg);
    p.hash = config_hash(p.config);
    for (auto it = p.labels.begin(); it != p.labels.end(); ++it)
      for (const auto& col : flatten_columns(p.config))
        if (col.first == it.key())
          throw ConfigError("sweep key 'axes." + it.key() +
                            "': a variant axis may not be named like the config key '" + col.first + "'");
    p.load = p.cfg.load;
    if (p.series.empty()) p.series = "(all)";
    pts.push_back(std::move(p));
    for (size_t i = spec.axes.size(); i-- > 0;) {
      if (++idx[i] < spec.axes[i].values.size()) break;
      idx[i] = 0;
    }
  }
  // Two axis combinations that resolve to the same configuration are one point.
  std::set<std::string> seen;
  std::vector<SweepPoint> uniq;
  for (auto& p : pts)
    if (seen.insert(p.hash).second) uniq.push_back(std::move(p));
  // Order: series (first appearance), then load, then seed: a series is swept upward in
  // load, which early stopping needs, and the seeds of one load run side by side.
  std::map<std::string, size_t> series_rank;
  for (const auto& p : uniq) series_rank.emplace(p.series, series_rank.size());
  std::stable_sort(uniq.begin(), uniq.end(), [&](const SweepPoint& a, const SweepPoint& b) {
    if (a.series != b.series) return series_rank[a.series] < series_rank[b.series];
    if (a.load != b.load) return a.load < b.load;
    return a.cfg.seed < b.cfg.seed;
  });
  std::map<std::string, std::vector<double>> loads;
  for (const auto& p : uniq) {
    auto& l = loads[p.series];
    if (l.empty() || l.back() != p.load) l.push_back(p.load);
  }
  for (auto& p : uniq) {
    const auto& l = loads[p.series];
    p.level = static_cast<size_t>(std::lower_bound(l.begin(), l.end(), p.load) - l.begin());
  }
  return uniq;
}

namespace {

struct Outcome {
  bool done = false;
  bool ok = false;
  double accepted = 0, latency = 0;
  double generated = -1;  // measured generated load (-1: unknown)
  std::string error;      // a failed point's recorded error (plan mode)
};

SaturationCriteria criteria(const SweepSpec& s) {
  SaturationCriteria c;
  c.latency_factor = s.latency_factor;
  c.accept_ratio = s.accept_ratio;
  return c;
}

// Early-stop state of one series: how far its load levels are worth running.
size_t series_limit(const std::vector<SweepPoint>& pts, const std::vector<Outcome>& res,
                    const std::string& series, const SweepSpec& spec) {
  std::vector<LoadLevel> prefix;
  std::map<size_t, std::vector<size_t>> by_level;
  for (size_t i = 0; i < pts.size(); ++i)
    if (pts[i].series == series) by_level[pts[i].level].push_back(i);
  for (const auto& [lvl, members] : by_level) {
    std::vector<SeriesSample> samples;
    for (size_t i : members) {
      if (!res[i].done) return last_useful_level(prefix, criteria(spec), spec.extra_points);
      samples.push_back(SeriesSample{pts[i].load, res[i].ok, res[i].accepted, res[i].latency});
    }
    prefix.push_back(load_levels(samples).front());
  }
  return last_useful_level(prefix, criteria(spec), spec.extra_points);
}

std::string point_label(const SweepPoint& p) {
  std::string s;
  for (const auto& [k, v] : p.axis_values) s += (s.empty() ? "" : " ") + k + "=" + v;
  return s;
}

}  // namespace

nlohmann::json saturation_table(const SweepSpec& spec, const std::vector<SweepPoint>& points,
                                const std::string& db_path) {
  ResultsDb db(db_path);
  std::set<std::string> hashes;
  for (const auto& p : points) hashes.insert(p.hash);
  std::map<std::string, const SweepPoint*> by_hash;
  for (const auto& p : points) by_hash[p.hash] = &p;
  std::map<std::string, std::vector<SeriesSample>> series;
  std::map<std::string, std::set<uint64_t>> seeds;
  std::map<std::string, int> ok_points;
  std::vector<std::string> order;
  for (const auto& p : points)
    if (series.emplace(p.series, std::vector<SeriesSample>{}).second) order.push_back(p.series);
  const std::vector<StoredPoint> stored = db.points_with_hashes(hashes);
  // With stop_after_saturation, a series counts its loads up to its cut only (the knee plus
  // extra_points, from the loads completed in order, as the run decided what to skip): a
  // load past the cut that was already running when the knee was found is stored, but
  // whether it ran depends on which points finished first, and the summary must not.
  std::map<std::string, size_t> cut;
  if (spec.stop_after_saturation) {
    std::map<std::string, std::map<size_t, size_t>> expected;  // series -> level -> points
    std::map<std::string, std::map<size_t, std::vector<SeriesSample>>> done;
    for (const auto& p : points) ++expected[p.series][p.level];
    for (const StoredPoint& sp : stored) {
      const SweepPoint& p = *by_hash.at(sp.hash);
      done[p.series][p.level].push_back(
          SeriesSample{p.load, sp.status == "ok" && sp.has_metrics, sp.accepted_load, sp.latency_avg});
    }
    for (const auto& [name, levels] : expected) {
      std::vector<LoadLevel> prefix;
      for (const auto& [lvl, n] : levels) {
        const auto it = done[name].find(lvl);
        if (it == done[name].end() || it->second.size() < n) break;
        prefix.push_back(load_levels(it->second).front());
      }
      cut[name] = last_useful_level(prefix, criteria(spec), spec.extra_points);
    }
  }
  for (const StoredPoint& sp : stored) {
    const SweepPoint& p = *by_hash.at(sp.hash);
    if (spec.stop_after_saturation && p.level > cut[p.series]) continue;
    series[p.series].push_back(
        SeriesSample{p.load, sp.status == "ok" && sp.has_metrics, sp.accepted_load, sp.latency_avg});
    seeds[p.series].insert(p.cfg.seed);
    ok_points[p.series] += sp.status == "ok" && sp.has_metrics;
  }
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& name : order) {
    const auto& samples = series[name];
    if (samples.empty()) continue;
    const SaturationSummary s = summarize_saturation(samples, criteria(spec));
    rows.push_back({{"series", name},
                    {"points", s.points},
                    {"seeds", seeds[name].size()},
                    {"zero_load_latency", s.zero_load_latency},
                    {"saturation_throughput", s.saturation_throughput},
                    {"saturation_load", s.saturation_load},
                    {"latency_knee_load", s.knee_load < 0 ? nlohmann::json() : nlohmann::json(s.knee_load)},
                    {"latency_factor", spec.latency_factor},
                    {"ok_points", ok_points[name]}});  // printed, not stored
  }
  db.write_saturation(spec.name, rows);
  return rows;
}

namespace {

// What one batch of points did (run_points).
struct RunCounts {
  size_t finished = 0, failed = 0, already = 0, skipped = 0;
  size_t already_failed = 0;  // of `already`: recorded as failed (not retried)
  size_t elsewhere = 0;       // stored meanwhile by another sweep on the database
  // Points of the sweep recorded as failed that this run did not run: already_failed of
  // them from before, the rest stored failed by another sweep meanwhile.
  std::vector<std::string> failed_labels;
  int rc = 0;  // a database error: 2, or 5 when the disk refused a write (DbError::exit_code)
  double wall_s = 0;
  int fatal_rc = 0;  // nonzero: nothing could run (the database or the temporary directory), the exit code
};

// The end of a sweep's summary line, and the points recorded as failed that it did not run.
void report_stored_failures(const SweepSpec& spec, const RunCounts& c) {
  if (c.failed_labels.empty()) return;
  std::cerr << "scfly: " << c.failed_labels.size() << " point(s) of sweep " << spec.name
            << " are recorded as failed in the database and were not run again (--retry-failed runs them):";
  for (size_t i = 0; i < c.failed_labels.size() && i < 10; ++i) std::cerr << "\n  FAILED " << c.failed_labels[i];
  if (c.failed_labels.size() > 10) std::cerr << "\n  ... and " << c.failed_labels.size() - 10 << " more";
  std::cerr << "\n";
}

std::string stored_counts(const RunCounts& c) {
  std::string s;
  if (c.already_failed) s += " (" + std::to_string(c.already_failed) + " of them failed)";
  if (c.elsewhere) s += ", " + std::to_string(c.elsewhere) + " run by another sweep";
  return s;
}

// Runs every point of `pts` not already in the database (up to opt.jobs at once), recording
// each into it; `res` gets every point's outcome (from the database or the run). With
// `early_stop` a series' loads past its saturation knee (plus extra_points) are skipped.
// Returns false when interrupted (the caller reports it; a rerun resumes).
bool run_points(const SweepSpec& spec, const std::vector<SweepPoint>& pts, const SweepOptions& opt, bool early_stop,
                std::vector<Outcome>& res, RunCounts& counts) {
  const bool has_load_axis = early_stop;
  std::unique_ptr<ResultsDb> db;
  try {
    db = std::make_unique<ResultsDb>(opt.db_path);
  } catch (const DbError& e) {
    std::cerr << "scfly: error: " << e.what() << "\n";
    counts.fatal_rc = e.exit_code();
    return true;
  }
  res.assign(pts.size(), Outcome{});
  {
    std::set<std::string> present = db->hashes(!opt.retry_failed);
    std::set<std::string> all;
    for (const auto& p : pts) all.insert(p.hash);
    std::map<std::string, StoredPoint> stored;
    for (auto& sp : db->points_with_hashes(all)) stored[sp.hash] = sp;
    for (size_t i = 0; i < pts.size(); ++i) {
      if (!present.count(pts[i].hash)) continue;
      const StoredPoint& sp = stored[pts[i].hash];
      res[i] = Outcome{true, sp.status == "ok" && sp.has_metrics, sp.accepted_load, sp.latency_avg, sp.generated_load,
                       opt.plan ? sp.error : std::string()};
      if (!res[i].ok) counts.failed_labels.push_back(point_label(pts[i]));
    }
  }
  if (opt.plan) return true;  // what is stored is all a plan needs
  size_t already = 0;
  for (const auto& r : res) already += r.done;
  counts.already_failed = counts.failed_labels.size();
  if (opt.revision > 0 && spec.search.on) {  // a search's loads join its revision as they are chosen
    std::vector<std::string> hs;
    for (const auto& p : pts) hs.push_back(p.hash);
    try {
      db->add_revision_points(spec.name, opt.revision, hs);
    } catch (const DbError& e) {
      std::cerr << "scfly: error: " << e.what() << "\n";
      counts.fatal_rc = e.exit_code();
      return true;
    }
  }

  // The handlers first: a signal from here on removes the temporary directory.
  struct sigaction sa{};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: waitpid returns EINTR so the loop sees the signal
  struct sigaction old_int{}, old_term{}, old_hup{};
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
  sigaction(SIGHUP, &sa, &old_hup);
  auto restore_signals = [&] {
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGTERM, &old_term, nullptr);
    sigaction(SIGHUP, &old_hup, nullptr);
  };
  const std::string tmpdir = make_sweep_tmpdir();
  if (tmpdir.empty()) {
    std::cerr << "scfly: error: cannot create a temporary directory: " << std::strerror(errno) << "\n";
    restore_signals();
    counts.fatal_rc = kExitBadInput;
    return true;
  }
  const std::string exe = self_exe();

  struct Running {
    size_t idx;
    std::chrono::steady_clock::time_point t0;
  };
  std::map<pid_t, Running> running;
  const auto start = std::chrono::steady_clock::now();
  size_t next = 0, finished = 0, failed = 0, skipped = 0, elsewhere = 0;
  size_t to_run = pts.size() - already;
  std::map<std::string, size_t> limit;  // series -> last useful level (early stop)
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  auto progress = [&](const std::string& line) {
    const double el = elapsed();
    const size_t left = to_run - finished - skipped - elsewhere;
    const double eta = finished ? el / static_cast<double>(finished) * static_cast<double>(left) : NAN;
    if (opt.progress_bar) {
      const int width = 30;
      const size_t total = std::max<size_t>(to_run, 1);
      const int fill =
          static_cast<int>(static_cast<double>(finished + skipped + elsewhere) / static_cast<double>(total) * width);
      std::string bar(static_cast<size_t>(fill), '#');
      bar.resize(width, '.');
      if (!line.empty()) std::cerr << "\r\033[K" << line << "\n";
      std::cerr << "\r\033[K[" << bar << "] " << finished + skipped + elsewhere << "/" << to_run << " points";
      if (failed) std::cerr << ", " << failed << " failed";
      std::cerr << "  elapsed " << fmt_duration(el) << "  ETA " << fmt_duration(eta) << std::flush;
    } else if (!line.empty()) {
      std::cerr << "[" << finished + skipped + elsewhere << "/" << to_run << "] " << line << "  (elapsed "
                << fmt_duration(el) << ", ETA " << fmt_duration(eta) << ")\n";
    }
  };
  std::cerr << "sweep " << spec.name << ": " << pts.size() << " points, " << already
            << " already in " << opt.db_path << ", " << to_run << " to run with " << opt.jobs
            << " jobs" << (opt.ranks > 1 ? ", each point over " + std::to_string(opt.ranks) + " MPI ranks" : "")
            << "\n";
  progress("");

  // Each of the jobs running at once gets its share of the cores, each rank of a point its
  // share of the point's.
  const int core_share = std::max(1, available_cores() / std::max(1, opt.jobs) / std::max(1, opt.ranks));
  auto launch = [&](size_t i) -> bool {
    const std::string base = tmpdir + "/p" + std::to_string(i);
    // --ranks R: MPIRUN... -n R scfly run ... (rank 0 writes the JSON; mpirun passes the
    // environment below to every rank and returns the first failing rank's exit code).
    std::vector<std::string> args;
    if (opt.ranks > 1) {
      args = opt.mpirun;
      args.insert(args.end(), {"-n", std::to_string(opt.ranks)});
    }
    args.insert(args.end(), {exe, "run", spec.base});
    for (const auto& o : pts[i].overrides) args.push_back(o);
    args.insert(args.end(), {"--json", base + ".json", "-q"});
    const pid_t pid = ::fork();
    if (pid < 0) return false;
    if (pid == 0) {
      ::prctl(PR_SET_PDEATHSIG, SIGTERM);  // a killed sweep takes its points with it
      const int fd = ::open((base + ".err").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd >= 0) {
        ::dup2(fd, 2);
        ::dup2(fd, 1);
        ::close(fd);
      }
      signal(SIGINT, SIG_DFL);
      signal(SIGTERM, SIG_DFL);
      signal(SIGHUP, SIG_DFL);
      ::unsetenv("SCFLY_PROGRESS");  // a point's stderr is its error message, not a terminal
      ::setenv("SCFLY_SWEEP_POINT", "1", 1);  // the sweep warned of inert keys once, not per point
      // Each of the jobs running at once gets its share of the cores (sim.threads: 0).
      ::setenv("SCFLY_CORES", std::to_string(core_share).c_str(), 1);
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      if (opt.ranks > 1) ::execvp(argv[0], argv.data());
      else ::execv(exe.c_str(), argv.data());
      _exit(127);
    }
    running[pid] = Running{i, std::chrono::steady_clock::now()};
    return true;
  };

  auto collect = [&](pid_t pid, int status) {
    const Running r = running.at(pid);
    running.erase(pid);
    const SweepPoint& p = pts[r.idx];
    const std::string base = tmpdir + "/p" + std::to_string(r.idx);
    // A point killed by SIGINT or SIGTERM was interrupted with the sweep (Ctrl-C reaches the
    // whole process group, scancel every process of the job), not failed: it is not recorded,
    // the sweep stops, and a rerun runs it.
    if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGTERM)) {
      std::remove((base + ".json").c_str());
      std::remove((base + ".err").c_str());
      g_interrupted = 1;
      return;
    }
    PointRecord rec;
    rec.hash = p.hash;
    rec.sweep = spec.name;
    rec.git_rev = SCFLY_GIT_REV;
    rec.config = p.config;
    rec.labels = p.labels;
    rec.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - r.t0).count();
    std::ifstream jf(base + ".json");
    nlohmann::json j = jf ? nlohmann::json::parse(jf, nullptr, false) : nlohmann::json();
    std::ifstream ef(base + ".err");
    std::stringstream es;
    es << ef.rdbuf();
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (j.is_object() && j.contains("metrics")) {
      rec.metrics = j["metrics"];
      if (j.contains("timeseries")) rec.timeseries = j["timeseries"];
    }
    if (code == 0 && rec.metrics.is_object()) {
      rec.status = "ok";
    } else {
      rec.status = "error";
      std::string err = es.str();
      if (j.is_object() && j.contains("run") && !j["run"]["error"].get<std::string>().empty())
        err = j["run"]["error"].get<std::string>();
      if (WIFSIGNALED(status)) err = "killed by signal " + std::to_string(WTERMSIG(status)) + "\n" + err;
      if (err.size() > 4000) err = err.substr(0, 4000) + "...";
      rec.error = "exit " + std::to_string(code) + ": " + err;
      ++failed;
    }
    std::remove((base + ".json").c_str());
    std::remove((base + ".err").c_str());
    db->insert(rec);
    Outcome& o = res[r.idx];
    o.done = true;
    o.ok = rec.status == "ok";
    if (o.ok) {
      o.accepted = rec.metrics["accepted_load"].get<double>();
      o.latency = rec.metrics["latency_avg"].is_number() ? rec.metrics["latency_avg"].get<double>() : 0;
      o.generated = rec.metrics.value("generated_load", -1.0);
    }
    ++finished;
    char line[512];
    if (o.ok)
      std::snprintf(line, sizeof line, "ok     %s  accepted %.4f  latency %.1f  (%.1f s)",
                    point_label(p).c_str(), o.accepted, o.latency, rec.wall_s);
    else
      std::snprintf(line, sizeof line, "FAILED %s  (%s)", point_label(p).c_str(),
                    rec.error.substr(0, rec.error.find('\n')).c_str());
    progress(line);
    if (spec.stop_after_saturation && has_load_axis) limit[p.series] = series_limit(pts, res, p.series, spec);
  };

  if (spec.stop_after_saturation && has_load_axis)
    for (const auto& p : pts) limit[p.series] = series_limit(pts, res, p.series, spec);

  // Another sweep on this database may hold a point (a claim) or store it meanwhile: this
  // sweep does not run it too, and waits for its result at the end (its summary and early
  // stop need it); a point whose claimant stops without storing it is run here.
  std::vector<size_t> deferred;  // points claimed by another sweep
  auto take_stored = [&](size_t i) {
    const StoredPoint sp = db->stored_point(pts[i].hash);
    res[i] = Outcome{true, sp.status == "ok" && sp.has_metrics, sp.accepted_load, sp.latency_avg, sp.generated_load,
                     std::string()};
    ++elsewhere;
    if (!res[i].ok) counts.failed_labels.push_back(point_label(pts[i]));
    progress(std::string(res[i].ok ? "ok     " : "FAILED ") + point_label(pts[i]) + "  (run by another sweep)");
    if (spec.stop_after_saturation && has_load_axis) limit[pts[i].series] = series_limit(pts, res, pts[i].series, spec);
  };
  // Starts point i unless it is past its series' saturation, stored or claimed elsewhere.
  // Returns false when fork failed.
  auto start_point = [&](size_t i) -> bool {
    auto lim = limit.find(pts[i].series);
    if (lim != limit.end() && pts[i].level > lim->second) {
      ++skipped;
      progress("skip   " + point_label(pts[i]) + "  (series past saturation)");
      return true;
    }
    switch (db->claim(pts[i].hash, opt.retry_failed)) {
      case Claim::Stored: take_stored(i); return true;
      case Claim::Busy: deferred.push_back(i); return true;
      case Claim::Claimed: break;
    }
    return launch(i);
  };
  auto poll_deferred = [&]() -> bool {
    std::vector<size_t> again;
    again.swap(deferred);
    for (size_t k = 0; k < again.size(); ++k) {
      const size_t i = again[k];
      if (static_cast<int>(running.size()) >= opt.jobs || g_interrupted) {
        deferred.push_back(i);
        continue;
      }
      if (!start_point(i)) {
        deferred.insert(deferred.end(), again.begin() + static_cast<long>(k) + 1, again.end());
        return false;
      }
    }
    return true;
  };
  bool waiting_told = false;  // the notice that only another sweep's points are left
  double wait_since = -1;     // elapsed() when only other sweeps' points were left (-1: not so)
  auto nap = [] {
    struct timespec ts{0, 200 * 1000 * 1000};
    ::nanosleep(&ts, nullptr);  // a signal cuts it short
  };

  int rc = 0;
  try {
    for (;;) {
      if (g_interrupted) break;
      bool forked = true;
      while (forked && static_cast<int>(running.size()) < opt.jobs && next < pts.size()) {
        const size_t i = next++;
        if (res[i].done) continue;
        forked = start_point(i);
      }
      if (forked && !deferred.empty() && static_cast<int>(running.size()) < opt.jobs) forked = poll_deferred();
      if (!forked) {
        std::cerr << "scfly: error: fork failed: " << std::strerror(errno) << "\n";
        g_interrupted = 1;
        break;
      }
      if (running.empty()) {
        if (deferred.empty() && next >= pts.size()) break;
        if (wait_since < 0) wait_since = elapsed();
        if (next >= pts.size() && !waiting_told && elapsed() - wait_since > 10) {
          waiting_told = true;
          std::cerr << (opt.progress_bar ? "\r\033[K" : "") << "scfly: waiting for " << deferred.size()
                    << " point(s) another sweep on " << opt.db_path
                    << " is running (table claims; the claim of a process gone from this host is taken over, "
                       "one from another host stays until its sweep ends)\n";
        }
        nap();
        continue;
      }
      wait_since = -1;
      int status = 0;
      const pid_t pid = ::waitpid(-1, &status, deferred.empty() ? 0 : WNOHANG);
      if (pid == 0) {
        nap();
        continue;
      }
      if (pid < 0) {
        if (errno == EINTR) continue;
        break;
      }
      if (running.count(pid)) collect(pid, status);
    }
  } catch (const DbError& e) {
    std::cerr << "\nscfly: error: " << e.what() << "\n";
    g_interrupted = 1;
    rc = e.exit_code();
  }
  if (g_interrupted) {
    for (const auto& [pid, r] : running) ::kill(pid, SIGTERM);
    for (const auto& [pid, r] : running) ::waitpid(pid, nullptr, 0);
    running.clear();
  }
  try {
    db->release_claims();
  } catch (const DbError&) {
    // the claims of a process that is gone are taken over (ResultsDb::claim)
  }
  remove_sweep_tmpdir(tmpdir);
  restore_signals();
  if (opt.progress_bar) std::cerr << "\n";
  db.reset();
  counts.finished = finished;
  counts.failed = failed;
  counts.already = already;
  counts.skipped = skipped;
  counts.elsewhere = elsewhere;
  counts.rc = rc;
  counts.wall_s = elapsed();
  if (g_interrupted) {
    g_interrupted = 0;
    return false;
  }
  return true;
}

}  // namespace

namespace {

std::string load_text(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.10g", x);
  return b;
}

// The template point (one of a series' seeds) at offered load `load`.
SweepPoint at_load(const SweepSpec& spec, const SweepPoint& t, double load) {
  SweepPoint p = t;
  const std::string lt = load_text(load);
  p.overrides.push_back("load=" + lt);
  p.axis_values.emplace_back("load", lt);
  try {
    p.cfg = load_config(spec.base, p.overrides);
  } catch (const ConfigError& e) {
    throw ConfigError("sweep point " + point_label(p) + ": " + e.what());
  }
  p.config = config_to_json(p.cfg);
  p.hash = config_hash(p.config);
  p.load = p.cfg.load;
  return p;
}

// `templates`: the sweep's points (no load axis), one per series and seed.
int run_search(const SweepSpec& spec, const SweepOptions& opt, const std::vector<SweepPoint>& templates) {
  const SweepSpec::Search& q = spec.search;
  const double res = q.resolution;
  auto grid = [&](double x) { return std::round(x / res) * res; };
  struct Series {
    std::string name;
    std::vector<size_t> seeds;  // template indices
    int phase = 0;              // 0 low, 1 high, 2 bisect, 3 done
    double next = 0, ok_load = -1, bad_load = -1, zero_lat = 0, ok_accepted = 0;
    int runs = 0;
    bool failed = false;
  };
  std::vector<Series> series;
  std::map<std::string, size_t> by_name;
  for (size_t i = 0; i < templates.size(); ++i) {
    auto [it, fresh] = by_name.emplace(templates[i].series, series.size());
    if (fresh) series.push_back(Series{templates[i].series, {}, 0, q.low});
    series[it->second].seeds.push_back(i);
  }
  if (opt.dry_run) {
    for (const auto& se : series)
      std::cout << se.name << ": " << se.seeds.size() << " seed(s), loads from " << load_text(q.low) << " and "
                << load_text(q.high) << " by bisection to " << load_text(res) << "\n";
    std::cout << series.size() << " series\n";
    return 0;
  }
  RunCounts total;
  for (int round = 1;; ++round) {
    std::vector<SweepPoint> batch;
    std::vector<std::pair<size_t, size_t>> owner;  // (series, first point) per series in the batch
    for (size_t si = 0; si < series.size(); ++si) {
      Series& se = series[si];
      if (se.phase == 3) continue;
      owner.push_back({si, batch.size()});
      try {
        for (size_t ti : se.seeds) batch.push_back(at_load(spec, templates[ti], se.next));
      } catch (const ConfigError& e) {
        std::cerr << "scfly: error: " << e.what() << "\n";
        return 2;
      }
    }
    if (batch.empty()) break;
    if (!opt.plan) std::cerr << "saturation search " << spec.name << ", round " << round << ":\n";
    std::vector<Outcome> out;
    RunCounts c;
    const bool complete = run_points(spec, batch, opt, false, out, c);
    if (c.fatal_rc) return c.fatal_rc;
    total.finished += c.finished;
    total.failed += c.failed;
    total.already += c.already;
    total.already_failed += c.already_failed;
    total.elsewhere += c.elsewhere;
    total.failed_labels.insert(total.failed_labels.end(), c.failed_labels.begin(), c.failed_labels.end());
    total.wall_s += c.wall_s;
    if (c.rc) return c.rc;
    if (!complete) {
      std::cerr << "scfly: sweep interrupted; run the same command again to resume\n";
      return 130;
    }
    for (const auto& [si, first] : owner) {
      Series& se = series[si];
      if (opt.plan) {  // replay what is stored; the series is missing from its first unrun point
        bool all = true;
        for (size_t k = 0; k < se.seeds.size(); ++k) {
          const Outcome& o = out[first + k];
          if (!o.done) {
            all = false;
            continue;
          }
          ++opt.plan->points_stored;
          opt.plan->stored[se.name].push_back(batch[first + k].hash);
          if (!o.ok) opt.plan->failed.emplace_back(point_label(batch[first + k]), o.error);
        }
        if (!all) {
          opt.plan->missing.push_back(se.name);
          se.phase = 3;
          continue;
        }
      }
      double acc = 0, lat = 0, gen = 0;
      bool ok = true;
      for (size_t k = 0; k < se.seeds.size(); ++k) {
        const Outcome& o = out[first + k];
        ok = ok && o.ok;
        acc += o.accepted;
        lat += o.latency;
        gen += o.generated >= 0 ? o.generated : se.next;
      }
      acc /= static_cast<double>(se.seeds.size());
      lat /= static_cast<double>(se.seeds.size());
      gen /= static_cast<double>(se.seeds.size());
      ++se.runs;
      se.failed = se.failed || !ok;
      const double L = se.next;
      if (se.phase == 0) se.zero_lat = lat;
      // Against the measured generation: a pattern's silent nodes (tp's diagonal) offer
      // nothing, and a short window's Bernoulli noise cancels.
      const bool sustained = ok && acc >= spec.accept_ratio * gen && lat <= spec.latency_factor * se.zero_lat &&
                             (q.max_latency <= 0 || lat < q.max_latency);
      if (sustained) {
        se.ok_load = L;
        se.ok_accepted = acc;
      } else {
        se.bad_load = L;
      }
      if (se.phase == 0) {
        se.phase = sustained ? 1 : 3;
        se.next = q.high;
      } else if (se.phase == 1) {
        se.phase = sustained ? 3 : 2;
      }
      if (se.phase == 2) {
        const double mid = grid(se.ok_load + (se.bad_load - se.ok_load) / 2);
        if (mid <= se.ok_load + res / 2 || mid >= se.bad_load - res / 2) se.phase = 3;
        else se.next = mid;
      }
    }
  }
  if (opt.plan) {
    opt.plan->units = series.size();
    return 0;
  }
  const int final_rc = total.failed || !total.failed_labels.empty() ? 3 : 0;
  if (!opt.summary) return final_rc;
  std::cerr << "sweep " << spec.name << ": " << total.finished << " run (" << total.failed << " failed), "
            << total.already << " already in the database" << stored_counts(total) << "; wall "
            << fmt_duration(total.wall_s) << "\n";
  report_stored_failures(spec, total);
  // The table: also in the database's saturation table.
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& se : series)
    rows.push_back({{"series", se.name},
                    {"points", se.runs * static_cast<int>(se.seeds.size())},
                    {"seeds", se.seeds.size()},
                    {"zero_load_latency", se.zero_lat},
                    {"saturation_throughput", se.ok_load < 0 ? nlohmann::json() : nlohmann::json(se.ok_accepted)},
                    {"saturation_load", se.ok_load < 0 ? nlohmann::json() : nlohmann::json(se.ok_load)},
                    {"latency_knee_load", se.bad_load < 0 ? nlohmann::json() : nlohmann::json(se.bad_load)},
                    {"latency_factor", spec.latency_factor}});
  try {
    ResultsDb db(opt.db_path);
    db.write_saturation(spec.name, rows);
  } catch (const DbError& e) {
    std::cerr << "scfly: error: " << e.what() << "\n";
    return e.exit_code();
  }
  std::printf("\nsaturation search (sustained: accepted >= %.3g x offered and latency <= %.3g x the latency at %s%s; "
              "resolution %s)\n",
              spec.accept_ratio, spec.latency_factor, load_text(q.low).c_str(),
              q.max_latency > 0 ? (" and below " + load_text(q.max_latency) + " cycles").c_str() : "",
              load_text(res).c_str());
  size_t w = 6;
  for (const auto& se : series) w = std::max(w, se.name.size());
  std::printf("%-*s  %5s  %9s  %10s  %10s  %12s\n", static_cast<int>(w), "series", "runs", "zero-lat", "saturation",
              "accepted", "unsustained");
  for (const auto& se : series) {
    const std::string sat = se.ok_load < 0 ? "< " + load_text(q.low) : load_text(se.ok_load);
    const std::string acc = se.ok_load < 0 ? "-" : load_text(std::round(se.ok_accepted * 1e4) / 1e4);
    const std::string bad = se.bad_load < 0 ? "> " + load_text(q.high) : load_text(se.bad_load);
    std::printf("%-*s  %5d  %9.1f  %10s  %10s  %12s%s\n", static_cast<int>(w), se.name.c_str(), se.runs, se.zero_lat,
                sat.c_str(), acc.c_str(), bad.c_str(), se.failed ? "  (a point failed)" : "");
  }
  return final_rc;
}

}  // namespace

std::string sweep_definition(const SweepSpec& spec, const std::vector<SweepPoint>& pts) {
  std::vector<std::string> hs;
  for (const auto& p : pts) hs.push_back(p.hash);
  std::sort(hs.begin(), hs.end());
  nlohmann::json d = {{"points", hs}};
  if (spec.search.on)
    d["saturation_search"] = {{"low", spec.search.low},
                              {"high", spec.search.high},
                              {"resolution", spec.search.resolution},
                              {"max_latency", spec.search.max_latency},
                              {"latency_factor", spec.latency_factor},
                              {"accept_ratio", spec.accept_ratio}};
  if (spec.stop_after_saturation)
    d["stop_after_saturation"] = {{"latency_factor", spec.latency_factor},
                                  {"accept_ratio", spec.accept_ratio},
                                  {"extra_points", spec.extra_points}};
  return config_hash(d);
}

int record_revision(const SweepSpec& spec, const std::vector<SweepPoint>& pts, const std::string& db_path) {
  ResultsDb db(db_path);
  std::vector<std::string> hs;
  if (!spec.search.on)  // a search's points join as it chooses their loads
    for (const auto& p : pts) hs.push_back(p.hash);
  const SweepRevision r = db.use_revision(spec.name, sweep_definition(spec, pts), hs, spec.path);
  if (r.fresh && r.previous > 0) {
    std::cerr << "sweep " << spec.name << ": the sweep differs from its revision " << r.previous << " in " << db_path;
    if (spec.search.on)
      std::cerr << " (its series or saturation_search settings changed)";
    else
      std::cerr << " (" << r.kept << " points kept, " << r.added << " new, " << r.dropped << " dropped)";
    std::cerr << "; recording it as revision " << r.number << " (scfly plot shows the latest revision; --revision "
              << r.previous << " the earlier one)\n";
  }
  return r.number;
}

int run_sweep(const SweepSpec& spec, const SweepOptions& opt_in) {
  SweepOptions opt = opt_in;
  std::vector<SweepPoint> pts;
  try {
    pts = expand_sweep(spec);
  } catch (const ConfigError& e) {
    std::cerr << "scfly: error: " << e.what() << "\n";
    return 2;
  }
  const bool has_load_axis =
      std::any_of(spec.axes.begin(), spec.axes.end(), [](const SweepAxis& a) { return a.key == "load"; });
  const bool by_series = spec.search.on || (spec.stop_after_saturation && has_load_axis);
  if (opt.only_units) {
    std::vector<SweepPoint> kept;
    for (auto& p : pts)
      if (opt.only_units->count(by_series ? p.series : p.hash)) kept.push_back(std::move(p));
    pts = std::move(kept);
  }
  if (opt.plan) opt.plan->by_series = by_series;
  if (!opt.only_units)  // a Slurm task's shard: its submission warned
    for (const std::string& w : sweep_inert_warnings(pts)) std::cerr << "scfly: warning: " << w << "\n";
  if (!opt.plan && !opt.dry_run && !opt.only_units) {  // a Slurm task's shard has no revisions
    try {
      opt.revision = record_revision(spec, pts, opt.db_path);
    } catch (const DbError& e) {
      std::cerr << "scfly: error: " << e.what() << "\n";
      return e.exit_code();
    }
  }
  if (spec.search.on) return run_search(spec, opt, pts);
  if (opt.plan) {
    std::vector<Outcome> res;
    RunCounts counts;
    run_points(spec, pts, opt, false, res, counts);
    if (counts.fatal_rc) return counts.fatal_rc;
    SweepPlan& pl = *opt.plan;
    std::map<std::string, size_t> limit;  // early stop: the levels a series still needs
    if (by_series)
      for (const auto& p : pts) limit.emplace(p.series, series_limit(pts, res, p.series, spec));
    std::set<std::string> units, missing;
    for (size_t i = 0; i < pts.size(); ++i) {
      const std::string unit = by_series ? pts[i].series : pts[i].hash;
      units.insert(unit);
      if (res[i].done) {
        ++pl.points_stored;
        if (by_series) pl.stored[unit].push_back(pts[i].hash);
        if (!res[i].ok) pl.failed.emplace_back(point_label(pts[i]), res[i].error);
      } else if (!(by_series && pts[i].level > limit[unit]) && missing.insert(unit).second) {
        pl.missing.push_back(unit);
      }
    }
    pl.units = units.size();
    return 0;
  }
  if (opt.dry_run) {
    for (const auto& p : pts) std::cout << p.hash << "  " << point_label(p) << "\n";
    std::cout << pts.size() << " points\n";
    return 0;
  }
  std::vector<Outcome> res;
  RunCounts counts;
  const bool complete = run_points(spec, pts, opt, spec.stop_after_saturation && has_load_axis, res, counts);
  if (counts.fatal_rc) return counts.fatal_rc;
  const size_t finished = counts.finished, failed = counts.failed, already = counts.already, skipped = counts.skipped;
  const int rc = counts.rc;
  const double wall = counts.wall_s;
  std::cerr << "sweep " << spec.name << ": " << finished << " run (" << failed << " failed), " << already
            << " already in the database" << stored_counts(counts) << ", " << skipped
            << " skipped past saturation; wall " << fmt_duration(wall) << "\n";
  if (!complete && rc == 0) {
    std::cerr << "scfly: sweep interrupted; run the same command again to resume\n";
    return 130;
  }
  if (rc) return rc;
  report_stored_failures(spec, counts);

  if (has_load_axis && opt.summary) {
    try {
      const nlohmann::json rows = saturation_table(spec, pts, opt.db_path);
      std::printf("\nsaturation (zero-load latency = latency at the lowest load; knee = first load with "
                  "latency > %.3g x zero-load, accepted < %.3g x offered, or a failed point)\n",
                  spec.latency_factor, spec.accept_ratio);
      size_t w = 6;
      for (const auto& r : rows) w = std::max(w, r["series"].get<std::string>().size());
      std::printf("%-*s  %6s  %9s  %10s  %8s  %8s\n", static_cast<int>(w), "series", "points",
                  "zero-lat", "sat.thru", "@offered", "knee");
      for (const auto& r : rows) {
        if (r.value("ok_points", 1) == 0) {  // nothing measured: no latency or throughput to show
          std::printf("%-*s  %6d  %9s  %10s  %8s  %8s  (every point failed)\n", static_cast<int>(w),
                      r["series"].get<std::string>().c_str(), r["points"].get<int>(), "-", "-", "-", "-");
          continue;
        }
        char knee[32] = "-";
        if (!r["latency_knee_load"].is_null())
          std::snprintf(knee, sizeof knee, "%.4g", r["latency_knee_load"].get<double>());
        std::printf("%-*s  %6d  %9.1f  %10.4f  %8.4g  %8s\n", static_cast<int>(w),
                    r["series"].get<std::string>().c_str(), r["points"].get<int>(),
                    r["zero_load_latency"].get<double>(), r["saturation_throughput"].get<double>(),
                    r["saturation_load"].get<double>(), knee);
      }
    } catch (const DbError& e) {
      std::cerr << "scfly: error: " << e.what() << "\n";
      return e.exit_code();
    }
  }
  return failed || !counts.failed_labels.empty() ? 3 : 0;
}

}  // namespace scfly
