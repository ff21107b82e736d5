// Regression metrics: the fixed small runs of tests/regression/cases.json (every mechanism,
// both global-link arrangements, every congestion measure, a drain, transients with time
// series, traced runs) must reproduce tests/regression/golden.json exactly: the metrics, the
// time series and the VCD body. A refactor keeps them identical; a change that must move a
// result re-records the file and names the moved cases in its commit:
//   SCFLY_REGRESSION_RECORD=1 build/tests/scfly_network_tests --gtest_filter='RegressionRecord*' 
// (records every case in one process and rewrites golden.json).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "scfly_run.h"

namespace {

const std::string kDir = std::string(SCFLY_SOURCE_DIR) + "/tests/regression/";

nlohmann::json load(const std::string& file) {
  std::ifstream in(kDir + file);
  if (!in) return nlohmann::json();
  return nlohmann::json::parse(in);
}

// FNV-1a over the VCD without its $date line (the only line that depends on when it ran).
std::string vcd_hash(const std::string& text) {
  uint64_t h = 0xcbf29ce484222325ULL;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("$date", 0) == 0) continue;
    for (unsigned char c : line + "\n") h = (h ^ c) * 0x100000001b3ULL;
  }
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

// What a case is compared on.
nlohmann::json observe(const nlohmann::json& c) {
  std::string args = c.at("args").get<std::string>();
  std::string vcd;
  if (c.contains("vcd")) {
    vcd = tmp(c.at("name").get<std::string>() + ".vcd");
    args += " --vcd " + vcd + " " + c.at("vcd").get<std::string>();
  }
  const ScflyRun r = run_scfly(std::string(SCFLY_SOURCE_DIR) + "/" + c.at("config").get<std::string>(), "-q " + args);
  nlohmann::json o;
  o["exit"] = r.code;
  if (r.code != 0) o["stderr"] = r.err;
  if (!r.json.is_null()) {
    o["status"] = r.json["run"]["status"];
    o["metrics"] = r.json["metrics"];
    if (r.json.contains("timeseries")) o["timeseries"] = r.json["timeseries"];
  }
  if (!vcd.empty()) {
    o["vcd_fnv1a"] = vcd_hash(slurp(vcd));
    std::remove(vcd.c_str());
  }
  return o;
}

class Regression : public ::testing::TestWithParam<std::string> {};

TEST_P(Regression, MetricsUnchanged) {
  const nlohmann::json cases = load("cases.json").at("cases");
  const nlohmann::json golden = load("golden.json");
  for (const auto& c : cases) {
    if (c.at("name") != GetParam()) continue;
    ASSERT_TRUE(golden.contains(GetParam())) << "no golden record; re-record (see test_regression.cpp)";
    const nlohmann::json got = observe(c);
    const nlohmann::json& want = golden.at(GetParam());
    ASSERT_EQ(got.value("exit", -1), 0) << got.value("stderr", "");
    if (got != want) {
      const nlohmann::json patch = nlohmann::json::diff(want, got);
      std::string shown = patch.dump(1);
      if (shown.size() > 4000) shown = shown.substr(0, 4000) + "\n...";
      ADD_FAILURE() << "case " << GetParam() << " moved (JSON patch golden -> now):\n" << shown;
    }
    return;
  }
  FAIL() << "case " << GetParam() << " not in cases.json";
}

std::vector<std::string> case_names() {
  std::vector<std::string> out;
  const nlohmann::json cases = load("cases.json");
  if (cases.is_null()) return out;
  for (const auto& c : cases.at("cases")) out.push_back(c.at("name").get<std::string>());
  return out;
}

INSTANTIATE_TEST_SUITE_P(Cases, Regression, ::testing::ValuesIn(case_names()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

// Recording mode: every case in this process, golden.json rewritten.
TEST(RegressionRecord, RecordWhenAsked) {
  if (!std::getenv("SCFLY_REGRESSION_RECORD")) GTEST_SKIP() << "set SCFLY_REGRESSION_RECORD=1 to re-record";
  nlohmann::json out = nlohmann::json::object();
  const nlohmann::json cases = load("cases.json");
  for (const auto& c : cases.at("cases")) {
    const nlohmann::json o = observe(c);
    ASSERT_EQ(o.value("exit", -1), 0) << c.at("name") << ": " << o.value("stderr", "");
    out[c.at("name").get<std::string>()] = o;
  }
  std::ofstream(kDir + "golden.json") << out.dump(1) << "\n";
}

}  // namespace
