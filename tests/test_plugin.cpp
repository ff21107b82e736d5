// A routing plug-in (routing_units/registry.h) registered in-process: its own executable, so
// that the plug-in it registers never meets the every-mechanism lists of the other tests.
// ctest runs each test in a process of its own (gtest_discover_tests), as they need: the
// config schema is built once per process, and KeysInABuiltinGroupAreRefused needs it built
// after its registration, which no other test's load_config may have done first.
#include <gtest/gtest.h>

#include <memory>

#include "routing_units/routing.h"
#include "sc_main/config.h"
#include "tb/traffic.h"
#include "topologies/dragonfly.h"
#include "topologies/torus.h"

using namespace scfly;

// A plug-in (registry.h): registered once, it parses, routes through RoutingUnit with its
// own keys, and bad registrations are refused.
namespace {
class AlwaysEject : public RoutingPolicy {
 public:
  explicit AlwaysEject(int port) : m_port(port) {}
  RouteCandidates route(int, int, RouteHeader&, Rng&, const RouteContext&) const override {
    RouteCandidates c;
    c.add(m_port, 0, 1);
    c.add(m_port + 1, 1, 1);
    return c;
  }

 private:
  int m_port;
};
}  // namespace

TEST(RoutingPlugin, RegistersParsesAndRoutes) {
  RoutingMechanism m;
  m.name = "test-plugin-eject";
  m.doc = "a test";
  m.dragonfly = true;
  m.vcs = {2, 1};
  m.keys.push_back({"port", 1, 0, 7, true, "the port"});
  m.make = [](const Topology&, const RoutingKeyValues& k) -> std::unique_ptr<const RoutingPolicy> {
    return std::make_unique<AlwaysEject>(static_cast<int>(k.at("port")));
  };
  static const RoutingAlgo a = register_routing(m);  // once per process, whatever the repeat count
  EXPECT_GE(static_cast<size_t>(a), kBuiltinRoutings);
  RoutingAlgo r = RoutingAlgo::Min;
  ASSERT_TRUE(parse_routing("test-plugin-eject", r));
  EXPECT_EQ(r, a);
  EXPECT_STREQ(to_string(a), "test-plugin-eject");
  EXPECT_TRUE(routes_dragonfly(a));
  EXPECT_FALSE(routes_torus(a, false));
  EXPECT_EQ(required_vcs(a).local, 2);
  EXPECT_NE(routing_choices().find("test-plugin-eject"), std::string::npos);
  const Dragonfly d(DragonflyShape{});  // dfly(2,4,2,9)
  RoutingParams prm;
  prm.plugin["port"] = 3;
  const RoutingUnit u(a, d, prm);
  RouteHeader h;
  h.dst_switch = 5;
  Rng rng;
  const RouteCandidates c = u.route_candidates(0, 0, h, rng);
  ASSERT_EQ(c.n, 2);  // every candidate, not just the first
  EXPECT_EQ(c.c[0].port, 3);
  EXPECT_EQ(c.c[1].port, 4);
  EXPECT_EQ(u.route(0, 0, h, rng).port, 3);
  EXPECT_EQ(RoutingUnit(a, d, {}).route(0, 0, h, rng).port, 1);  // the key's default
  EXPECT_THROW(RoutingUnit(a, Torus(TorusShape{}), {}), std::invalid_argument);
  // Refused registrations.
  EXPECT_THROW(register_routing(m), std::logic_error);  // the name is taken
  RoutingMechanism bad = m;
  bad.name = "Bad Name";
  EXPECT_THROW(register_routing(bad), std::logic_error);
  bad.name = "no-factory";
  bad.make = nullptr;
  EXPECT_THROW(register_routing(bad), std::logic_error);
  bad = m;
  bad.name = "no-topology";
  bad.dragonfly = false;
  EXPECT_THROW(register_routing(bad), std::logic_error);
  bad = m;
  bad.name = "bad-default";
  bad.keys[0].def = 9;
  EXPECT_THROW(register_routing(bad), std::logic_error);
}

// A plug-in's RTL variant (RoutingMechanism::make_rtl): `rtl: [<its name>]` builds its
// policy from make_rtl instead of make, is echoed, needs that routing, and needs no
// SCFLY_RTL build (this test runs in builds without the Verilated blocks too). A plug-in
// without one is no RTL block. (examples/custom-routing has a real one: a Verilated rule in
// lockstep with the C++ and a whole run through it.)
TEST(RoutingPlugin, ItsRtlVariantIsBuiltUnderRtl) {
  RoutingMechanism m;
  m.name = "test-plugin-rtl";
  m.doc = "a test with an RTL variant";
  m.dragonfly = true;
  m.vcs = {2, 1};
  m.make = [](const Topology&, const RoutingKeyValues&) -> std::unique_ptr<const RoutingPolicy> {
    return std::make_unique<AlwaysEject>(1);
  };
  m.make_rtl = [](const Topology&, const RoutingKeyValues&) -> std::unique_ptr<const RoutingPolicy> {
    return std::make_unique<AlwaysEject>(5);  // tells the variants apart
  };
  static const RoutingAlgo a = register_routing(m);
  RoutingMechanism plain = m;
  plain.name = "test-plugin-no-rtl";
  plain.make_rtl = nullptr;
  static const RoutingAlgo b = register_routing(plain);
  (void)b;
  bool listed = false;
  for (const RtlBlockInfo& blk : rtl_blocks()) {
    if (blk.name == "test-plugin-rtl") listed = blk.plugin && blk.net == RtlNet::Dragonfly;
    EXPECT_NE(blk.name, "test-plugin-no-rtl");
  }
  EXPECT_TRUE(listed);
  const std::string tiny = std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/dfly-tiny.yaml";
  const Dragonfly d(DragonflyShape{});
  RouteHeader h;
  h.dst_switch = 5;
  Rng rng;
  {
    const SimConfig c = load_config(tiny, {"routing=test-plugin-rtl"});
    EXPECT_FALSE(c.routing_prm.plugin_rtl);
    EXPECT_EQ(config_to_json(c)["rtl"], nlohmann::json::array());
    EXPECT_EQ(RoutingUnit(c.routing, d, c.routing_prm).route(0, 0, h, rng).port, 1);
  }
  {
    const SimConfig c = load_config(tiny, {"routing=test-plugin-rtl", "rtl=test-plugin-rtl"});
    ASSERT_EQ(c.routing, a);
    EXPECT_TRUE(c.routing_prm.plugin_rtl);
    EXPECT_EQ(config_to_json(c)["rtl"], nlohmann::json::array({"test-plugin-rtl"}));
    EXPECT_EQ(RoutingUnit(c.routing, d, c.routing_prm).route(0, 0, h, rng).port, 5);
  }
  const auto refused = [&](const std::vector<std::string>& o, const std::string& why) {
    try {
      (void)load_config(tiny, o);
      ADD_FAILURE() << "accepted " << o.back();
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  };
  refused({"routing=min", "rtl=test-plugin-rtl"}, "block 'test-plugin-rtl' (the plug-in's Verilated decision) needs routing test-plugin-rtl, not min");
  refused({"routing=test-plugin-no-rtl", "rtl=test-plugin-no-rtl"}, "value 'test-plugin-no-rtl' is not allowed; blocks:");
  // A policy asked for with no RTL variant (RoutingUnit used directly) is refused too.
  RoutingParams prm;
  prm.plugin_rtl = true;
  EXPECT_THROW(RoutingUnit(b, d, prm), std::invalid_argument);
}

// A plug-in whose keys would land in one of scfly's own key groups (here `switch.*`) is
// refused when the config schema is built, naming the mechanism and the group.
TEST(RoutingPlugin, KeysInABuiltinGroupAreRefused) {
  RoutingMechanism m;
  m.name = "switch";
  m.doc = "a plug-in named like a key group";
  m.dragonfly = true;
  m.vcs = {2, 1};
  m.keys.push_back({"speedup", 1, 0, 7, true, "collides with switch.speedup"});
  m.make = [](const Topology&, const RoutingKeyValues&) -> std::unique_ptr<const RoutingPolicy> {
    return std::make_unique<AlwaysEject>(1);
  };
  static const RoutingAlgo a = register_routing(m);
  (void)a;
  try {
    (void)load_config(std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/dfly-tiny.yaml", {});
    FAIL() << "the schema accepted keys in the group switch.*";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("routing plug-in 'switch'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("key group 'switch'"), std::string::npos) << e.what();
  }
}

// A traffic pattern plug-in: registered, parsed with its arguments (round trip), checked
// against the topology, drawn (a mirror: node n -> N - 1 - n, shifted by its argument), used
// inside a mix, its exact distribution for the ideal model; bad registrations refused.
namespace {
class Mirror : public TrafficPolicy {
 public:
  Mirror(int n, int shift) : m_n(n), m_shift(shift) {}
  int dest(int src, Rng&) const override { return (m_n - 1 - src + m_shift) % m_n; }
  bool silent(int node) const override { return (m_n - 1 - node + m_shift) % m_n == node; }
  bool weights(int src, std::vector<std::pair<int, double>>& out) const override {
    out.assign(1, {(m_n - 1 - src + m_shift) % m_n, 1.0});
    return true;
  }

 private:
  int m_n, m_shift;
};
}  // namespace

TEST(TrafficPlugin, RegistersParsesChecksAndDraws) {
  TrafficPlugin p;
  p.name = "test-mirror";
  p.doc = "node n -> N-1-n (+ shift)";
  p.torus = false;
  p.min_args = 0;
  p.max_args = 1;
  p.check = [](const Topology& t, const std::vector<int>& a) -> std::string {
    return !a.empty() && a[0] >= t.num_nodes() ? "shift beyond the nodes" : "";
  };
  p.make = [](const Topology& t, const std::vector<int>& a, Rng&) -> std::unique_ptr<const TrafficPolicy> {
    return std::make_unique<Mirror>(t.num_nodes(), a.empty() ? 0 : a[0]);
  };
  static const int id = register_traffic(p);
  EXPECT_GE(id, 0);
  TrafficSpec s;
  ASSERT_EQ(parse_traffic("test-mirror", s), "");
  EXPECT_EQ(to_string(s), "test-mirror");
  ASSERT_EQ(parse_traffic("test-mirror(3)", s), "");
  EXPECT_EQ(to_string(s), "test-mirror(3)");
  EXPECT_NE(parse_traffic("test-mirror(1,2)", s), "");  // one argument at most
  EXPECT_NE(parse_traffic("test-mirror(x)", s), "");
  EXPECT_NE(traffic_choices().find("test-mirror"), std::string::npos);
  const Dragonfly d(DragonflyShape{});  // 72 nodes
  ASSERT_EQ(parse_traffic("test-mirror(3)", s), "");
  EXPECT_EQ(check_traffic(s, d), "");
  EXPECT_NE(check_traffic(s, Torus(TorusShape{})), "");  // Dragonfly only
  ASSERT_EQ(parse_traffic("test-mirror(72)", s), "");
  EXPECT_EQ(check_traffic(s, d), "shift beyond the nodes");
  ASSERT_EQ(parse_traffic("test-mirror(3)", s), "");
  const TrafficPattern pat(s, d, 1, 0);
  Rng rng;
  EXPECT_EQ(pat.dest(0, rng), 74 % 72);
  EXPECT_EQ(pat.dest(10, rng), 64);
  // (71 - n + 3) % 72 == n has no integer solution for n: no silent node here; with shift 1
  // node 36 maps onto itself: (71 - 36 + 1) = 36.
  ASSERT_EQ(parse_traffic("test-mirror(1)", s), "");
  const TrafficPattern pat1(s, d, 1, 0);
  EXPECT_TRUE(pat1.silent(36));
  EXPECT_FALSE(pat1.silent(35));
  std::vector<std::pair<int, double>> w;
  pat1.weights(10, w);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].first, 62);
  // Inside a mix, beside a built-in pattern.
  ASSERT_EQ(parse_traffic("mix(un:1,test-mirror(3):1)", s), "");
  EXPECT_EQ(to_string(s), "mix(un:1,test-mirror(3):1)");
  EXPECT_EQ(check_traffic(s, d), "");
  // Refused registrations.
  EXPECT_THROW(register_traffic(p), std::logic_error);  // taken
  TrafficPlugin bad = p;
  bad.name = "un";
  EXPECT_THROW(register_traffic(bad), std::logic_error);  // a built-in pattern's name
  bad.name = "Bad";
  EXPECT_THROW(register_traffic(bad), std::logic_error);
  bad.name = "no-factory";
  bad.make = nullptr;
  EXPECT_THROW(register_traffic(bad), std::logic_error);
}

// A plug-in that returns its own source is stopped at the draw, naming the pattern.
TEST(TrafficPlugin, ADestinationThatIsTheSourceIsRefused) {
  class Self : public TrafficPolicy {
   public:
    int dest(int src, Rng&) const override { return src; }
  };
  TrafficPlugin p;
  p.name = "test-self";
  p.make = [](const Topology&, const std::vector<int>&, Rng&) -> std::unique_ptr<const TrafficPolicy> {
    return std::make_unique<Self>();
  };
  static const int id = register_traffic(p);
  (void)id;
  TrafficSpec s;
  ASSERT_EQ(parse_traffic("test-self", s), "");
  const Dragonfly d(DragonflyShape{});
  const TrafficPattern pat(s, d, 1, 0);
  Rng rng;
  try {
    (void)pat.dest(5, rng);
    FAIL() << "a destination equal to the source was accepted";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("test-self"), std::string::npos) << e.what();
  }
}
