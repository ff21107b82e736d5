// Runs the scfly executable as a child process (one SystemC elaboration per process) and
// collects its exit code, stdout, stderr and --json output.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include "test_tmp.h"

struct ScflyRun {
  int code = -1;
  std::string out, err;
  nlohmann::json json;  // null when no JSON was written
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The rows of a table in a database that another process may be writing: opened read-only,
// 0 while the file or the table does not exist yet (or the writer holds the lock).
inline long long rows_now(const std::string& db, const std::string& table = "points") {
  sqlite3* h = nullptr;
  long long n = 0;
  if (sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_busy_timeout(h, 1000);
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(h, ("SELECT COUNT(*) FROM " + table).c_str(), -1, &st, nullptr) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
      n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
  }
  sqlite3_close(h);
  return n;
}

inline std::string tiny_config() { return std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/dfly-tiny.yaml"; }

// `args` follow "scfly run CONFIG"; a --json file is added unless `json` is false.
// `launcher`, when given, comes before the executable (an MPI launcher and its options).
inline ScflyRun run_scfly(const std::string& config, const std::string& args, bool json = true,
                          const std::string& launcher = "") {
  const std::string base = tmp("run");
  std::string cmd = (launcher.empty() ? "" : launcher + " ") + std::string(SCFLY_BIN) + " run " + config + " " + args;
  if (json) cmd += " --json " + base + ".json";
  cmd += " >" + base + ".out 2>" + base + ".err";
  ScflyRun r;
  const int st = std::system(cmd.c_str());
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.out = slurp(base + ".out");
  r.err = slurp(base + ".err");
  if (json) {
    const std::string j = slurp(base + ".json");
    if (!j.empty()) r.json = nlohmann::json::parse(j);
    std::remove((base + ".json").c_str());
  }
  std::remove((base + ".out").c_str());
  std::remove((base + ".err").c_str());
  return r;
}


// Any scfly subcommand: `scfly ARGS` (a shell command line), exit code and output.
struct Cmd {
  int code = -1;
  std::string out, err;
};
inline Cmd scfly_cmd(const std::string& args) {
  const std::string o = tmp("out"), e = tmp("err");
  const int st = std::system((std::string(SCFLY_BIN) + " " + args + " >" + o + " 2>" + e).c_str());
  Cmd c;
  c.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  c.out = slurp(o);
  c.err = slurp(e);
  std::remove(o.c_str());
  std::remove(e.c_str());
  return c;
}

inline const nlohmann::json& metrics(const ScflyRun& r) { return r.json.at("metrics"); }
// A counter of a run's metrics: the JSON lists only the counters that counted, so an absent
// one is 0 (a const json's operator[] on a missing key is undefined behaviour).
inline double counter(const nlohmann::json& m, const std::string& name) {
  return m.contains("counters") ? m["counters"].value(name, 0.0) : 0.0;
}

// `path` is a PNG of more than `min_bytes` (a figure was drawn).
inline void expect_png(const std::string& path, std::streamoff min_bytes = 0) {
  std::ifstream f(path, std::ios::binary);
  char sig[8] = {};
  f.read(sig, 8);
  EXPECT_EQ(std::string(sig + 1, 3), "PNG") << path;
  f.seekg(0, std::ios::end);
  EXPECT_GT(f.tellg(), min_bytes) << path;
}

// Fails with the child's stderr so a broken run explains itself.
inline void expect_ok(const ScflyRun& r) {
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  ASSERT_FALSE(r.json.is_null());
  EXPECT_EQ(r.json["run"]["status"], "ok");
  EXPECT_TRUE(r.json["run"]["conservation_ok"].get<bool>()) << r.json["run"]["conservation"];
}

// The same run without and with `--rtl <blocks>` (comma-separated): both ok, the blocks
// echoed, metrics and time series identical, more than `min_delivered` packets delivered.
// Returns the RTL run.
inline ScflyRun expect_rtl_identical(const std::string& cfg, const std::string& args, const std::string& blocks,
                                     int min_delivered) {
  SCOPED_TRACE(args + " --rtl " + blocks);
  const ScflyRun cpp = run_scfly(cfg, args);
  ScflyRun rtl = run_scfly(cfg, args + " --rtl " + blocks);
  expect_ok(cpp);
  expect_ok(rtl);
  nlohmann::json echo = nlohmann::json::array();
  for (size_t at = 0; at <= blocks.size();) {
    const size_t end = std::min(blocks.find(',', at), blocks.size());
    echo.push_back(blocks.substr(at, end - at));
    at = end + 1;
  }
  EXPECT_EQ(rtl.json["config"]["rtl"], echo);
  EXPECT_EQ(cpp.json["metrics"], rtl.json["metrics"]);
  EXPECT_EQ(cpp.json["timeseries"], rtl.json["timeseries"]);
  EXPECT_GT(rtl.json["metrics"]["packets_delivered"].get<int>(), min_delivered);
  return rtl;
}

// A run with drain=true: everything generated was delivered.
inline void expect_drained(const ScflyRun& r) {
  expect_ok(r);
  if (r.json.is_null()) return;
  EXPECT_TRUE(r.json["run"]["drained"].get<bool>());
  EXPECT_EQ(metrics(r)["packets_in_network"], 0);
  EXPECT_EQ(metrics(r)["packets_queued"], 0);
  EXPECT_EQ(metrics(r)["packets_delivered"], metrics(r)["packets_generated"]);
}

// A --packet-trace file: the header's column names and each row's fields (tb/packet_trace.h).
struct PacketTraceCsv {
  std::vector<std::string> cols;
  std::vector<std::vector<std::string>> rows;
  int col(const std::string& name) const {
    for (size_t i = 0; i < cols.size(); ++i)
      if (cols[i] == name) return static_cast<int>(i);
    ADD_FAILURE() << "no column " << name;
    return 0;
  }
  long long num(size_t row, const std::string& name) const { return std::stoll(rows[row][static_cast<size_t>(col(name))]); }
};
inline PacketTraceCsv read_packet_trace(const std::string& path) {
  PacketTraceCsv t;
  std::ifstream in(path);
  auto split = [](const std::string& line) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
    return f;
  };
  std::string line;
  if (std::getline(in, line)) t.cols = split(line);
  while (std::getline(in, line)) {
    t.rows.push_back(split(line));
    EXPECT_EQ(t.rows.back().size(), t.cols.size()) << line;
  }
  return t;
}
