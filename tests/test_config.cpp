// Config parsing and validation: typed defaults, dotted overrides, unit conversion, and
// errors that name the key, the value and what is allowed.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "sc_main/config.h"

using namespace scfly;

namespace {
std::string error_of(const std::string& yaml, const std::vector<std::string>& ov = {}) {
  try {
    parse_config_text(yaml, ov);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(Config, DefaultsAreTheTinyDragonflyWithAutoVcs) {
  const SimConfig c = parse_config_text("{}", {});
  EXPECT_EQ(c.topology.p, 2);
  EXPECT_EQ(c.topology.a, 4);
  EXPECT_EQ(c.topology.h, 2);
  EXPECT_EQ(c.topology.g, 9);  // derived a*h+1
  EXPECT_EQ(c.routing, RoutingAlgo::Min);
  EXPECT_EQ(c.sw.vcs[1], 2);
  EXPECT_EQ(c.sw.vcs[2], 1);
}

TEST(Config, AutoVcsFollowTheRouting) {
  const SimConfig c = parse_config_text("routing: val", {});
  EXPECT_EQ(c.sw.vcs[1], 4);
  EXPECT_EQ(c.sw.vcs[2], 2);
}

TEST(Config, DottedOverridesCreateAndReplaceKeys) {
  const SimConfig c = parse_config_text("topology: {p: 2, a: 4, h: 2}\nload: 0.2",
                                        {"topology.p=4", "load=0.35", "switch.vcs.local=6",
                                         "links.global_latency=100", "traffic=adv+3"});
  EXPECT_EQ(c.topology.p, 4);
  EXPECT_DOUBLE_EQ(c.load, 0.35);
  EXPECT_EQ(c.sw.vcs[1], 6);
  EXPECT_EQ(c.sw.latency[2], 100u);
  EXPECT_EQ(c.traffic.kind, TrafficKind::Adversarial);
  EXPECT_EQ(c.traffic.offset, 3);
}

TEST(Config, BufferSizesAcceptBytesAndRoundUpToPhits) {
  const SimConfig c = parse_config_text(
      "phit_bytes: 25\nswitch: {input_buffer: {local: 18KB, global: '4500B', injection: 100 phits}}",
      {});
  EXPECT_EQ(c.sw.in_buf[1], 738u);  // ceil(18*1024/25)
  EXPECT_EQ(c.sw.in_buf[2], 180u);
  EXPECT_EQ(c.sw.in_buf[0], 100u);
}

TEST(Config, UnknownKeysAreRejectedWithTheAllowedList) {
  const std::string e = error_of("topology: {p: 2, q: 3}");
  EXPECT_NE(e.find("unknown config key 'topology.q'"), std::string::npos) << e;
  EXPECT_NE(e.find("arrangement"), std::string::npos) << e;
  EXPECT_NE(error_of("lod: 0.3").find("'lod'"), std::string::npos);
}

TEST(Config, OutOfRangeValuesNameKeyValueAndRange) {
  std::string e = error_of("load: -0.1");
  EXPECT_NE(e.find("'load'"), std::string::npos) << e;
  EXPECT_NE(e.find("-0.1"), std::string::npos) << e;
  EXPECT_NE(e.find("(0, 1]"), std::string::npos) << e;
  e = error_of("load: 1.5");
  EXPECT_NE(e.find("'load'"), std::string::npos) << e;
  e = error_of("switch: {speedup: 0}");
  EXPECT_NE(e.find("switch.speedup"), std::string::npos) << e;
  e = error_of("packet_phits: many");
  EXPECT_NE(e.find("packet_phits"), std::string::npos) << e;
  EXPECT_NE(e.find("many"), std::string::npos) << e;
  e = error_of("drain: maybe");
  EXPECT_NE(e.find("true or false"), std::string::npos) << e;
  // [0, 100] and [0, 1]: zero is allowed, anything below it is not
  e = error_of("routing: min-cond\nqcn: {p_min: -0.000001}");
  EXPECT_NE(e.find("qcn.p_min"), std::string::npos) << e;
  EXPECT_NE(e.find("[0, 100]"), std::string::npos) << e;
  EXPECT_EQ(error_of("routing: min-cond\nqcn: {p_min: 0}"), "");
  e = error_of("phases: [{start: 0, load: -1e-301}]");
  EXPECT_NE(e.find("load"), std::string::npos) << e;
  EXPECT_EQ(error_of("phases: [{start: 0, load: 0}]"), "");
  e = error_of("switch: {output_arbiter: lrs}");
  EXPECT_NE(e.find("switch.output_arbiter"), std::string::npos) << e;
  EXPECT_NE(e.find("'lrs'"), std::string::npos) << e;
  EXPECT_NE(e.find("transit-priority"), std::string::npos) << e;
}

TEST(Config, ImpossibleTopologiesAreRejected) {
  EXPECT_NE(error_of("topology: {p: 2, a: 4, h: 2, g: 10}").find("topology.g"), std::string::npos);
  EXPECT_NE(error_of("topology: {p: 2, a: 4, h: 2, g: 5}").find("palmtree"), std::string::npos);
  EXPECT_NE(error_of("topology: {p: 2, a: 4, h: 2, g: 4, arrangement: absolute}").find("divide"),
            std::string::npos);
  EXPECT_EQ(error_of("topology: {p: 2, a: 4, h: 2, g: 5, arrangement: absolute}"), "");
  EXPECT_NE(error_of("topology: {arrangement: spiral}").find("palmtree or absolute"),
            std::string::npos);
}

TEST(Config, TooFewVcsForTheRoutingIsAnError) {
  const std::string e = error_of("routing: val\nswitch: {vcs: {local: 3}}");
  EXPECT_NE(e.find("switch.vcs.local"), std::string::npos) << e;
  EXPECT_NE(e.find("at least 4"), std::string::npos) << e;
  EXPECT_NE(error_of("routing: val\nswitch: {vcs: {global: 1}}").find("switch.vcs.global"),
            std::string::npos);
  EXPECT_NE(error_of("routing: min\nswitch: {vcs: {local: 1}}").find("at least 2"),
            std::string::npos);
}

TEST(Config, BuffersMustHoldAWholePacket) {
  const std::string e = error_of("packet_phits: 10\nswitch: {input_buffer: {local: 8}}");
  EXPECT_NE(e.find("switch.input_buffer.local"), std::string::npos) << e;
}

TEST(Config, TrafficMustFitTheTopology) {
  EXPECT_NE(error_of("traffic: adv+9").find("traffic"), std::string::npos);  // g = 9
  EXPECT_NE(error_of("traffic: adv+0").find("traffic"), std::string::npos);
  EXPECT_NE(error_of("traffic: hotspot").find("un, adv+N"), std::string::npos);
  EXPECT_NE(error_of("routing: ugal").find("min, val"), std::string::npos);
}

TEST(Config, MalformedOverridesAreErrors) {
  EXPECT_NE(error_of("{}", {"topology.p"}).find("key=value"), std::string::npos);
  EXPECT_NE(error_of("{}", {"load=0.1", "load.x=3"}).find("holds a value"), std::string::npos);
}

TEST(Config, JsonEchoRoundTripsThroughTheParser) {
  const SimConfig c = parse_config_text("routing: val\ntraffic: adv+2\nload: 0.25", {"seed=7"});
  const auto j = config_to_json(c);
  const SimConfig c2 = parse_config_text(j.dump(), {});
  EXPECT_EQ(config_to_json(c2), j);
  EXPECT_EQ(j["routing"], "val");
  EXPECT_EQ(j["traffic"], "adv+2");
  EXPECT_EQ(j["switch"]["vcs"]["local"], 4);  // auto resolved in the echo
}

TEST(Config, SizingWarningFiresBelowTheCreditRoundTrip) {
  const SimConfig ok = parse_config_text("{}", {});
  EXPECT_TRUE(sizing_warnings(ok).empty());
  const SimConfig bad = parse_config_text(
      "links: {global_latency: 100}\nswitch: {pipeline_cycles: 5, input_buffer: {global: 32}}", {});
  const auto w = sizing_warnings(bad);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("205"), std::string::npos) << w[0];    // 2*100 + 5
  EXPECT_NE(w[0].find("0.156"), std::string::npos) << w[0];  // 32/205 phits/cycle per VC
}

TEST(Config, WatchdogMustOutlastTheLongestCreditRoundTrip) {
  const std::string e = error_of("watchdog_cycles: 150\nlinks: {global_latency: 100}");
  EXPECT_NE(e.find("watchdog_cycles"), std::string::npos) << e;
  EXPECT_EQ(error_of("watchdog_cycles: 300\nlinks: {global_latency: 100}"), "");
}

// docs/config.md against the JSON echo (issue 16 sec. 2, a first step): every key some
// preset echoes has a row in the keys table, and every key the table documents is echoed
// by some preset. A key parsed but missing from the echo would let a resumed sweep merge
// two different points (the sweep keys points by the echo), and a key echoed but not
// documented is a key users cannot find. (`a/b/c` in a key cell stands for a.b, a.c ...)
namespace {
void flatten(const nlohmann::json& j, const std::string& prefix, std::set<std::string>& out) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string k = prefix + it.key();
    if (it->is_object() && !it->empty()) flatten(*it, k + ".", out);
    else out.insert(k);
  }
}
}  // namespace

TEST(Config, DocsListEveryEchoedKeyAndNoOther) {
  std::ifstream in(std::string(SCFLY_SOURCE_DIR) + "/docs/config.md");
  ASSERT_TRUE(in);
  std::set<std::string> documented;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## Traffic patterns", 0) == 0) break;  // the keys table ends before it
    if (line.rfind("| `", 0) != 0) continue;
    const std::string cell = line.substr(1, line.find('|', 1) - 1);
    // each `...` span of the cell (std::regex is avoided: GCC 12 -O2 warns inside it)
    for (size_t open = cell.find('`'); open != std::string::npos; open = cell.find('`', open)) {
      const size_t close = cell.find('`', open + 1);
      if (close == std::string::npos) break;
      const std::string key = cell.substr(open + 1, close - open - 1);
      open = close + 1;
      if (key.empty()) continue;
      const size_t dot = key.rfind('.');
      const std::string last = key.substr(dot + 1);
      std::stringstream parts(last);
      for (std::string p; std::getline(parts, p, '/');) documented.insert(key.substr(0, dot + 1) + p);
    }
  }
  ASSERT_GT(documented.size(), 60u);
  const std::string cfg = std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/";
  std::set<std::string> echoed;
  for (const auto& [file, ov] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"dfly-tiny.yaml", {"sim.check_vc_order=true"}},
           {"qcn-tiny.yaml", {}},
           {"torus-8x8.yaml", {"routing=gal", "topology.terminal_ports=2"}},
           {"torus-8x8.yaml", {}}}) {
    const SimConfig c = load_config(cfg + file, ov);
    flatten(config_to_json(c), "", echoed);
  }
  for (const std::string& k : echoed) EXPECT_TRUE(documented.count(k)) << "echoed, not in docs/config.md: " << k;
  for (const std::string& k : documented) EXPECT_TRUE(echoed.count(k)) << "in docs/config.md, never echoed: " << k;
}
