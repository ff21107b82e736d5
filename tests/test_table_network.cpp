// The conditional forwarding table in whole networks: routing=min-table forwards by table
// lookup alone (build_min_table) and must give results identical to routing=min (same
// metrics, same per-switch accepted load, same random draws) on every Dragonfly shape and
// arrangement; `scfly table` prints a switch's table.
#include <gtest/gtest.h>

#include "scfly_run.h"

namespace {

struct Shape {
  const char* name;
  const char* args;
};

class MinTableNetwork : public ::testing::TestWithParam<Shape> {};

TEST_P(MinTableNetwork, IdenticalToMin) {
  const std::string common = std::string(GetParam().args) + " warmup_cycles=1000 measure_cycles=4000";
  for (const char* traffic : {"traffic=un load=0.3", "traffic=adv+1 load=0.3"}) {
    const ScflyRun a = run_scfly(tiny_config(), "-q routing=min " + std::string(traffic) + " " + common);
    const ScflyRun b = run_scfly(tiny_config(), "-q routing=min-table " + std::string(traffic) + " " + common);
    expect_ok(a);
    expect_ok(b);
    if (a.json.is_null() || b.json.is_null()) return;
    EXPECT_GT(metrics(a)["packets_measured"].get<double>(), 500);
    EXPECT_EQ(metrics(a), metrics(b)) << traffic << ": "
                                      << nlohmann::json::diff(metrics(a), metrics(b)).dump(1).substr(0, 2000);
  }
}

const Shape kShapes[] = {
    {"palmtree_2_4_2_9", "topology.g=9"},
    {"absolute_2_4_2_3", "topology.g=3 topology.arrangement=absolute"},
    {"absolute_2_4_2_5", "topology.g=5 topology.arrangement=absolute"},
    {"absolute_2_4_2_9", "topology.g=9 topology.arrangement=absolute"},
    {"palmtree_3_6_3_19", "topology.p=3 topology.a=6 topology.h=3 topology.g=19"},
    {"absolute_3_6_3_10", "topology.p=3 topology.a=6 topology.h=3 topology.g=10 topology.arrangement=absolute"},
    {"absolute_4_8_4_9", "topology.p=4 topology.a=8 topology.h=4 topology.g=9 topology.arrangement=absolute"},
};

INSTANTIATE_TEST_SUITE_P(Shapes, MinTableNetwork, ::testing::ValuesIn(kShapes),
                         [](const ::testing::TestParamInfo<Shape>& i) { return std::string(i.param.name); });

// `scfly table CONFIG --switch N` as a user types it.
ScflyRun run_table(const std::string& args) {
  const std::string base = tmp("table");
  const std::string cmd = std::string(SCFLY_BIN) + " table " + tiny_config() + " " + args + " >" + base + ".out 2>" + base + ".err";
  ScflyRun r;
  const int st = std::system(cmd.c_str());
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.out = slurp(base + ".out");
  r.err = slurp(base + ".err");
  std::remove((base + ".out").c_str());
  std::remove((base + ".err").c_str());
  return r;
}

TEST(TableCommand, PrintsTheSwitchTable) {
  const ScflyRun r = run_table("routing=min-table --switch 5");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("switch 5 (group 1, index 1)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("global"), std::string::npos);
  EXPECT_NE(r.out.find("dst_host"), std::string::npos);
  EXPECT_EQ(r.out.find("does not forward by table"), std::string::npos);
  // Palmtree dfly(2,4,2,9): 1 ejection + 3 local + 2 pinned-exit + 8 group entries.
  EXPECT_NE(r.out.find("14 entries"), std::string::npos) << r.out;
  const ScflyRun other = run_table("routing=val -s 0");
  ASSERT_EQ(other.code, 0) << other.err;
  EXPECT_NE(other.out.find("does not forward by table"), std::string::npos);
}

TEST(TableCommand, BadSwitchOrConfigIsAClearError) {
  const ScflyRun r = run_table("--switch 36");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--switch 36"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("0 to 35"), std::string::npos) << r.err;
  const ScflyRun bad = run_table("topology.g=7 --switch 0");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("topology.g"), std::string::npos) << bad.err;
}

}  // namespace
