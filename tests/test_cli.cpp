// The command line: bad configurations exit 2 with a message naming the key, the value and
// what is allowed; good ones print a readable summary.
#include <gtest/gtest.h>

#include "scfly_run.h"

namespace {
void expect_config_error(const std::string& args, const std::string& must_mention) {
  const ScflyRun r = run_scfly(tiny_config(), args, false);
  EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
  EXPECT_NE(r.err.find(must_mention), std::string::npos) << args << "\n" << r.err;
  EXPECT_EQ(r.err.find("Segmentation"), std::string::npos);
}
}  // namespace

TEST(Cli, UnknownKeyExits2) { expect_config_error("topology.q=3", "topology.q"); }
TEST(Cli, NegativeLoadExits2) { expect_config_error("load=-0.2", "'load'"); }
TEST(Cli, TooManyGroupsExits2) { expect_config_error("topology.g=10", "topology.g"); }
TEST(Cli, TooFewVcsExits2) { expect_config_error("routing=val switch.vcs.local=2", "switch.vcs.local"); }
TEST(Cli, UnknownRoutingExits2) { expect_config_error("routing=zigzag", "min, val"); }
TEST(Cli, BadTrafficExits2) { expect_config_error("traffic=adv+18", "traffic"); }
TEST(Cli, MalformedOverrideExits2) { expect_config_error("load", "key=value"); }
TEST(Cli, MissingConfigFileExits2) {
  const ScflyRun r = run_scfly("/nonexistent.yaml", "", false);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("/nonexistent.yaml"), std::string::npos);
}
TEST(Cli, BadTraceSwitchExits2) {
  expect_config_error("--vcd /tmp/x.vcd --trace-switches 0,99", "--trace-switches");
}

TEST(Cli, UnwritableVcdExits2) {
  expect_config_error("--vcd /nonexistent-dir/x.vcd", "--vcd");
}

TEST(Cli, SummaryNamesTheNetworkAndTheMetrics) {
  const ScflyRun r = run_scfly(tiny_config(), "warmup_cycles=100 measure_cycles=1000");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("dfly(2,4,2,9) palmtree"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("accepted load"), std::string::npos);
  EXPECT_NE(r.out.find("latency (total)"), std::string::npos);
  EXPECT_EQ(r.out.find("Copyright"), std::string::npos) << "SystemC banner leaks into the summary";
  for (const char* k : {"offered_load", "accepted_load", "latency_avg", "latency_p99", "hops_avg",
                        "nonminimal_fraction", "jain_fairness"})
    EXPECT_TRUE(r.json["metrics"].contains(k)) << k;
  EXPECT_EQ(r.json["config"]["topology"]["p"], 2);
}
