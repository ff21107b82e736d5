// A routing plug-in (routing_units/registry.h) registered in-process: its own executable, so
// that the plug-in it registers never meets the every-mechanism lists of the other tests.
// ctest runs each test in a process of its own (gtest_discover_tests), as they need: the
// config schema is built once per process, and KeysInABuiltinGroupAreRefused needs it built
// after its registration, which no other test's load_config may have done first.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "routing_units/minimal.h"
#include "routing_units/routing.h"
#include "routing_units/valiant.h"
#include "rtl_models/switch/parts/allocator_plugin.h"
#include "rtl_models/switch/switch_unit.h"
#include "rtl_models/verilog/rtl_blocks.h"
#include "sc_main/config.h"
#include "sc_main/deadlock_check.h"
#include "sc_main/run_driver.h"
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
  prm.plugin[plugin_key(mechanism(a), "port")] = 3;
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

// A plug-in's own mechanism unit (RoutingMechanism::make_unit): built in every switch,
// clocked with it, publishing a level that the plug-in's policy reads from its
// RouteContext; its signal is a per-switch series; and the deadlock checker routes every
// state under each level the unit declares (a route that is cyclic at level 1 only is
// caught, and is not when the unit declares one level).
namespace {

// Level 1 while the switch's hosts injected more than `busy` data packets in its last window
// of 50 cycles (counted from SwitchState at each window's first active cycle), else 0.
class BusyLevel : public SwitchUnit {
 public:
  BusyLevel(int hosts, uint64_t busy) : m_hosts(hosts), m_busy(busy) {}
  void attach(const SwitchState& s) override { m_state = &s; }
  void end_cycle(const SwitchCycle& c) override {
    if (c.now < m_window_end) return;
    uint64_t injected = 0;
    for (int p = 0; p < m_hosts; ++p) injected += m_state->data_packets_in(p);
    m_level = injected - m_last > m_busy ? 1 : 0;
    m_last = injected;
    m_window_end = c.now + 50;
  }
  void observe(RouteContext& ctx) const override { ctx.switch_level = static_cast<uint8_t>(m_level); }
  void signals(std::vector<UnitSignal>& out) const override {
    out.push_back({"busy_level", &m_level, [this] { return static_cast<double>(m_level); }});
  }

 private:
  const SwitchState* m_state = nullptr;
  int m_hosts;
  uint64_t m_busy, m_last = 0, m_window_end = 0;
  uint32_t m_level = 0;
};

// At the source, Valiant at level 1, minimal at level 0; in transit, the path chosen at
// the source. `cyclic`: at level 1 every hop is minimal on VC 0 (one local VC: cyclic).
class LevelRouting : public RoutingPolicy {
 public:
  LevelRouting(const Dragonfly& t, bool cyclic) : m_t(t), m_cyclic(cyclic) {}
  RouteCandidates route(int sw, int in_port, RouteHeader& h, Rng& rng, const RouteContext& ctx) const override {
    if (m_cyclic) {
      RouteDecision d = route_min(m_t, sw, h, rng, ctx.min_hop);
      if (ctx.switch_level == 1) d.vc = 0;
      return RouteCandidates::one(d);
    }
    const bool source = m_t.port_class(in_port) == PortClass::Host;
    if (source ? ctx.switch_level == 1 && sw != h.dst_switch : h.inter_switch >= 0 || h.segment == 1)
      return RouteCandidates::one(route_val(m_t, sw, in_port, h, rng, ctx.min_hop, Misroute::RrgSw, false));
    return RouteCandidates::one(route_min(m_t, sw, h, rng, ctx.min_hop));
  }

 private:
  const Dragonfly& m_t;
  bool m_cyclic;
};

RoutingMechanism level_mechanism(const std::string& name, bool cyclic, int levels) {
  RoutingMechanism m;
  m.name = name;
  m.doc = "a test: minimal or Valiant by its unit's level";
  m.dragonfly = true;
  m.vcs = {4, 2};
  m.keys.push_back({"busy", 3, 0, 1000, true, "packets injected per 50 cycles above which the level is 1"});
  m.make = [cyclic](const Topology& t, const RoutingKeyValues&) -> std::unique_ptr<const RoutingPolicy> {
    return std::make_unique<LevelRouting>(dynamic_cast<const Dragonfly&>(t), cyclic);
  };
  m.make_unit = [](int, const Topology& t, const RoutingKeyValues& k) -> std::unique_ptr<SwitchUnit> {
    return std::make_unique<BusyLevel>(t.host_ports(), static_cast<uint64_t>(k.at("busy")));
  };
  m.unit_levels = levels;
  return m;
}

}  // namespace

TEST(RoutingPlugin, ItsMechanismUnitRunsInEverySwitchAndItsLevelsAreChecked) {
  register_routing(level_mechanism("test-plugin-level", false, 2));
  register_routing(level_mechanism("test-plugin-level-cyclic", true, 2));
  register_routing(level_mechanism("test-plugin-level-cyclic-one", true, 1));
  // Refused: a unit without levels, levels without a unit, a unit beside ACOR's controller.
  RoutingMechanism bad = level_mechanism("bad-levels", false, 0);
  EXPECT_THROW(register_routing(bad), std::logic_error);
  bad = level_mechanism("bad-no-unit", false, 2);
  bad.make_unit = nullptr;
  EXPECT_THROW(register_routing(bad), std::logic_error);
  bad = level_mechanism("bad-with-acor", false, 2);
  bad.level_ctrl = true;
  EXPECT_THROW(register_routing(bad), std::logic_error);

  const std::string tiny = std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/dfly-tiny.yaml";
  // Three plug-ins with a key of one name: each keeps its own value.
  const SimConfig keyed = load_config(tiny, {"routing=test-plugin-level", "test_plugin_level.busy=9"});
  EXPECT_EQ(keyed.routing_prm.plugin.at("test_plugin_level.busy"), 9);
  EXPECT_EQ(keyed.routing_prm.plugin.at("test_plugin_level_cyclic.busy"), 3);
  EXPECT_NE(routing_summary(keyed).find("busy 9"), std::string::npos) << routing_summary(keyed);
  // The checker: the plug-in is deadlock-free at both levels; the cyclic one is caught at
  // level 1, which it reaches only because the unit declares two levels.
  const DeadlockCheckResult ok = check_deadlock(load_config(tiny, {"routing=test-plugin-level"}));
  EXPECT_EQ(ok.verdict, DeadlockCheckResult::Verdict::Acyclic) << format(ok);
  const DeadlockCheckResult cyc =
      check_deadlock(load_config(tiny, {"routing=test-plugin-level-cyclic", "switch.vcs.local=4"}));
  EXPECT_EQ(cyc.verdict, DeadlockCheckResult::Verdict::Cycle) << format(cyc);
  const DeadlockCheckResult one =
      check_deadlock(load_config(tiny, {"routing=test-plugin-level-cyclic-one", "switch.vcs.local=4"}));
  EXPECT_EQ(one.verdict, DeadlockCheckResult::Verdict::Acyclic) << format(one);
  EXPECT_GT(cyc.calls, one.calls);  // level 1 routed too

  // A run: every switch has the unit (its per-switch series), its level went up and down
  // (both minimal and Valiant packets), and the run ended without deadlock.
  // (A load step: level 0 at the low load, 1 at the high one.)
  const SimConfig cfg = load_config(
      tiny, {"routing=test-plugin-level", "warmup_cycles=500", "measure_cycles=3000", "timeseries.bin_cycles=500",
             "timeseries.per_switch=true",
             "phases=[{start: 0, traffic: adv+1, load: 0.05}, {start: 2000, traffic: adv+1, load: 0.4}]"});
  Network net("net", cfg, TraceRequest{});
  const RunOutcome out = run(net, cfg);
  ASSERT_TRUE(out.error.empty()) << out.error;
  EXPECT_TRUE(out.conservation_ok) << out.conservation;
  EXPECT_GT(out.metrics.packets_delivered, 1000u);
  // Minimal at the low load, Valiant once the level rose (bins of 500 cycles).
  const TimeSeries& ts = out.timeseries;
  ASSERT_GE(ts.t_start.size(), 6u);
  for (size_t b = 0; b < ts.t_start.size(); ++b) {
    SCOPED_TRACE("bin from " + std::to_string(ts.t_start[b]));
    if (ts.t_end[b] <= 2000) {
      EXPECT_LT(ts.nonminimal_fraction[b], 0.05);
    }
    if (ts.t_start[b] >= 2500) {
      EXPECT_GT(ts.nonminimal_fraction[b], 0.5);
    }
  }
  const auto it = out.timeseries.per_switch.find("busy_level");
  ASSERT_NE(it, out.timeseries.per_switch.end());
  double up = 0, down = 0;
  for (const auto& bin : it->second) {
    ASSERT_EQ(bin.size(), 36u);  // every switch of dfly(2,4,2)
    for (double v : bin) (v > 0 ? up : down) += 1;
  }
  EXPECT_GT(up, 0);
  EXPECT_GT(down, 0);
}

// A topology plug-in (topologies/registry.h): a ring of n switches, with two routings that
// name it. Registered in-process before the config schema is built (this test's process
// has built none yet: ctest runs each test in its own).
namespace {
class Ring final : public Topology {
 public:
  Ring(int n, int p, bool broken = false) : m_n(n), m_p(p), m_broken(broken) {}
  std::string describe() const override { return "ring(" + std::to_string(m_n) + ")"; }
  int num_switches() const override { return m_n; }
  int hosts_per_switch() const override { return m_p; }
  int radix() const override { return m_p + 2; }
  int num_port_classes() const override { return 2; }
  const char* port_class_name(int cls) const override { return cls == kHostClass ? "host" : "ring"; }
  int port_class_of(int port) const override { return port < m_p ? kHostClass : 1; }
  // Port p goes clockwise (to sw + 1, arriving on its port p + 1), port p + 1 back.
  PortEnd neighbor(int sw, int port) const override {
    if (m_broken) return PortEnd{(sw + 1) % m_n, static_cast<int16_t>(m_p)};  // not an involution
    return port == m_p ? PortEnd{(sw + 1) % m_n, static_cast<int16_t>(m_p + 1)}
                       : PortEnd{(sw + m_n - 1) % m_n, static_cast<int16_t>(m_p)};
  }

 private:
  int m_n, m_p;
  bool m_broken;
};

// Clockwise to the destination; `dateline`: VC 1 from the wrap hop (switch n-1 to 0) on,
// else VC 0 throughout (a cycle around the ring).
class RingCw final : public RoutingPolicy {
 public:
  RingCw(const Topology& t, bool dateline) : m_t(t), m_dateline(dateline) {}
  RouteCandidates route(int sw, int, RouteHeader& h, Rng&, const RouteContext&) const override {
    if (sw == h.dst_switch) return RouteCandidates::one({static_cast<int16_t>(m_t.host_port(h.dst_host)), 0});
    if (m_dateline && sw == m_t.num_switches() - 1) h.wrapped = 1;
    return RouteCandidates::one({static_cast<int16_t>(m_t.hosts_per_switch()), static_cast<uint8_t>(h.wrapped)});
  }

 private:
  const Topology& m_t;
  bool m_dateline;
};

TopologyPlugin ring_plugin(const std::string& name, bool broken = false) {
  TopologyPlugin p;
  p.name = name;
  p.doc = "a test: a ring of n switches";
  p.keys = {{"n", 4, 2, 64, "switches"}};
  p.classes = {{name == "test-ring" || broken ? "ring" : "ring_" + std::to_string(name.size()), 16, 16, 2}};
  p.make = [broken](const TopologyKeyValues& k) -> std::unique_ptr<Topology> {
    if (k.at("n") == 3) throw std::invalid_argument("three is not a ring here");
    return std::make_unique<Ring>(static_cast<int>(k.at("n")), static_cast<int>(k.at("p")), broken);
  };
  return p;
}

RoutingMechanism ring_routing(const std::string& name, bool dateline) {
  RoutingMechanism m;
  m.name = name;
  m.doc = "a test: clockwise on a ring";
  m.topologies = {"test-ring"};
  m.link_vcs = dateline ? 2 : 1;
  m.make = [dateline](const Topology& t, const RoutingKeyValues&) -> std::unique_ptr<const RoutingPolicy> {
    return std::make_unique<RingCw>(t, dateline);
  };
  return m;
}
}  // namespace

TEST(TopologyPlugin, RegistersParsesChecksDeadlocksAndRuns) {
  const TopologyKind ring = register_topology(ring_plugin("test-ring"));
  register_routing(ring_routing("test-ring-dateline", true));
  register_routing(ring_routing("test-ring-cw", false));
  EXPECT_STREQ(to_string(ring), "test-ring");
  EXPECT_EQ(topology_plugin(ring), find_topology_plugin("test-ring"));
  EXPECT_EQ(topology_plugin(TopologyKind::Torus), nullptr);
  // Refused registrations: taken, scfly's own (a topology's or a topology key's) or a bad name; no factory; no class or a class
  // another topology names; the key p; a default outside its range.
  EXPECT_THROW(register_topology(ring_plugin("test-ring")), std::logic_error);
  EXPECT_THROW(register_topology(ring_plugin("torus")), std::logic_error);
  EXPECT_THROW(register_topology(ring_plugin("kind")), std::logic_error);  // topology.kind.* would clash
  EXPECT_THROW(register_topology(ring_plugin("Ring")), std::logic_error);
  TopologyPlugin bad = ring_plugin("test-ring-b");
  bad.make = nullptr;
  EXPECT_THROW(register_topology(bad), std::logic_error);
  bad = ring_plugin("test-ring-c");
  bad.classes.clear();
  EXPECT_THROW(register_topology(bad), std::logic_error);
  for (const std::string taken : {"link", "local", "ring"}) {
    bad = ring_plugin("test-ring-d");
    bad.classes = {{taken}};
    EXPECT_THROW(register_topology(bad), std::logic_error) << taken;
  }
  bad = ring_plugin("test-ring-e");
  bad.keys = {{"p", 1, 1, 4, ""}};
  EXPECT_THROW(register_topology(bad), std::logic_error);
  bad = ring_plugin("test-ring-f");
  bad.keys = {{"n", 1, 2, 4, ""}};
  EXPECT_THROW(register_topology(bad), std::logic_error);
  // What a factory builds is checked against the topology contract.
  const TopologyPlugin broken = ring_plugin("test-ring-broken", true);
  EXPECT_THROW(make_plugin_topology(broken, {{"n", 4}, {"p", 1}}), std::invalid_argument);
  TopologyPlugin two = ring_plugin("test-ring-two");
  two.classes.push_back({"ring_extra"});
  EXPECT_THROW(make_plugin_topology(two, {{"n", 4}, {"p", 1}}), std::invalid_argument);
  EXPECT_EQ(make_plugin_topology(ring_plugin("test-ring"), {{"n", 5}, {"p", 2}})->num_nodes(), 10);

  // The config: its keys and its class's keys; the routings that name it, with their VCs.
  const std::string base = std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/dfly-tiny.yaml";
  const std::vector<std::string> on_ring = {
      "topology={kind: test-ring, p: 2, test-ring: {n: 8}}", "routing=test-ring-dateline", "traffic=un", "load=0.1",
      "switch={speedup: 2, pipeline_cycles: 5}", "sim.threads=2", "links={injection_latency: 1}", "warmup_cycles=300",
      "measure_cycles=4000"};
  const SimConfig c = load_config(base, on_ring);
  EXPECT_EQ(c.topo_kind, ring);
  EXPECT_EQ(c.sw.vcs[1], 2);  // auto: the routing's link_vcs
  EXPECT_EQ(c.sw.in_buf[1], 16u);
  EXPECT_EQ(c.sw.latency[1], 2u);
  std::vector<std::string> o = on_ring;
  o.push_back("routing=min");
  EXPECT_THROW(load_config(base, o), ConfigError);  // scfly's own routings route on their own topologies
  o = on_ring;
  o.push_back("switch.vcs.ring=1");
  EXPECT_THROW(load_config(base, o), ConfigError);  // fewer VCs than the routing needs
  o = on_ring;
  o.push_back("topology.test-ring.n=3");
  EXPECT_THROW(load_config(base, o), ConfigError);  // the factory's refusal
  o = on_ring;
  o.push_back("topology.a=4");
  EXPECT_THROW(load_config(base, o), ConfigError);  // a Dragonfly's key
  o = on_ring;
  o.push_back("traffic=adv+1");
  EXPECT_THROW(load_config(base, o), ConfigError);  // a Dragonfly pattern
  o = on_ring;
  o.push_back("control.probe_interval=100");
  EXPECT_THROW(load_config(base, o), ConfigError);  // no control frames on a plug-in topology

  // The deadlock checker on it: one VC around a ring closes a cycle, the dateline breaks it.
  EXPECT_EQ(check_deadlock(c).verdict, DeadlockCheckResult::Verdict::Acyclic);
  o = on_ring;
  o.push_back("routing=test-ring-cw");
  EXPECT_EQ(check_deadlock(load_config(base, o)).verdict, DeadlockCheckResult::Verdict::Cycle);

  // A run (on 2 threads, switches split over them): of a node's 15 destinations, 1 is on
  // its own switch and 2 on each switch 1 ... 7 hops clockwise: 56/15 hops on average.
  // (examples/custom-routing's hyperx_run shows a plug-in topology's results the same on 1
  // and 2 threads; one process runs one simulation.)
  Network net("net", c, TraceRequest{});
  const RunOutcome out = run(net, c);
  ASSERT_TRUE(out.error.empty()) << out.error;
  EXPECT_TRUE(out.conservation_ok) << out.conservation;
  EXPECT_NEAR(out.metrics.accepted_load, 0.1, 0.015);
  EXPECT_NEAR(out.metrics.hops_avg, 56.0 / 15, 0.15);
  ASSERT_EQ(out.metrics.class_hops_avg.size(), 1u);
  EXPECT_EQ(out.metrics.class_hops_avg[0].first, "ring");
}

// A plug-in allocator (rtl_models/switch/parts/allocator_plugin.h): registered, it is a
// `switch.allocator` value like scfly's own, echoed, refused where it cannot go, and runs a
// network (on 2 threads, a policy per switch): a first-fit policy (every request in input
// order) carries the offered load with every phit accounted for. Its factory sees each
// switch's configuration.
namespace {
struct FirstFit : AllocatorPolicy {
  void pass(AllocPass& p) override {
    for (size_t i = 0; i < p.requests().size(); ++i) p.grant(i);
  }
};
}  // namespace

TEST(AllocatorPlugin, RegistersParsesAndRuns) {
  static int built = 0, ports = 0;
  AllocatorPlugin a{"test-first-fit", "every request in input order", [](const AllocatorConfig& c) {
                      ++built;
                      ports = c.inputs;
                      return std::unique_ptr<AllocatorPolicy>(std::make_unique<FirstFit>());
                    }};
  const AllocatorKind k = register_allocator(a);
  EXPECT_STREQ(to_string(k), "test-first-fit");
  EXPECT_EQ(allocator_plugin(k), allocator_plugins().back());
  EXPECT_EQ(allocator_plugin(AllocatorKind::Islip), nullptr);
  // Refused registrations: taken, scfly's own, a bad name, no factory.
  EXPECT_THROW(register_allocator(a), std::logic_error);
  for (const char* bad : {"islip", "separable-input", "First-Fit", "", "first-", "9x"}) {
    AllocatorPlugin b = a;
    b.name = bad;
    EXPECT_THROW(register_allocator(b), std::logic_error) << bad;
  }
  AllocatorPlugin none = a;
  none.name = "test-no-factory";
  none.make = nullptr;
  EXPECT_THROW(register_allocator(none), std::logic_error);

  const std::string tiny = std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/dfly-tiny.yaml";
  const std::vector<std::string> o = {"switch.allocator=test-first-fit", "load=0.3", "sim.threads=2",
                                      "warmup_cycles=500", "measure_cycles=3000"};
  const SimConfig c = load_config(tiny, o);
  EXPECT_EQ(c.sw.allocator, k);
  EXPECT_EQ(config_to_json(c)["switch"]["allocator"], "test-first-fit");
  try {  // the values a config may name list it
    (void)load_config(tiny, {"switch.allocator=nope"});
    ADD_FAILURE() << "accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("test-first-fit"), std::string::npos) << e.what();
  }
  if (rtl_available()) {  // no SystemVerilog twin
    try {
      std::vector<std::string> r = o;
      r.push_back("rtl=[allocator]");
      (void)load_config(tiny, r);
      ADD_FAILURE() << "accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("not the plug-in switch.allocator test-first-fit"), std::string::npos)
          << e.what();
    }
  }
  Network net("net", c, TraceRequest{});
  EXPECT_EQ(built, 36);  // dfly(2,4,2,9): one policy per switch
  EXPECT_EQ(ports, 2 + 3 + 2);  // hosts, local and global ports
  const RunOutcome out = run(net, c);
  ASSERT_TRUE(out.error.empty()) << out.error;
  EXPECT_TRUE(out.conservation_ok) << out.conservation;
  EXPECT_NEAR(out.metrics.accepted_load, 0.3, 0.03);
}

// A policy that throws stops the run with its message, the switch's and the allocator's name.
TEST(AllocatorPlugin, APolicyThatThrowsStopsTheRun) {
  struct Throws : AllocatorPolicy {
    void pass(AllocPass&) override { throw std::runtime_error("out of ideas"); }
  };
  register_allocator({"test-throws", "throws", [](const AllocatorConfig&) {
                        return std::unique_ptr<AllocatorPolicy>(std::make_unique<Throws>());
                      }});
  const SimConfig c = load_config(std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/dfly-tiny.yaml",
                                  {"switch.allocator=test-throws", "load=0.3", "warmup_cycles=100", "measure_cycles=300"});
  Network net("net", c, TraceRequest{});
  const RunOutcome out = run(net, c);
  EXPECT_NE(out.error.find("allocator plug-in 'test-throws': out of ideas"), std::string::npos) << out.error;
}

// A policy that never grants starves the network: the watchdog reports the run, naming no
// progress, instead of letting it hang.
TEST(AllocatorPlugin, APolicyThatNeverGrantsIsReportedByTheWatchdog) {
  struct Never : AllocatorPolicy {
    void pass(AllocPass&) override {}
  };
  register_allocator({"test-never", "grants nothing", [](const AllocatorConfig&) {
                        return std::unique_ptr<AllocatorPolicy>(std::make_unique<Never>());
                      }});
  const SimConfig c = load_config(std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/dfly-tiny.yaml",
                                  {"switch.allocator=test-never", "load=0.3", "warmup_cycles=100",
                                   "measure_cycles=3000", "watchdog_cycles=500"});
  Network net("net", c, TraceRequest{});
  const RunOutcome out = run(net, c);
  EXPECT_NE(out.error.find("watchdog: no phit moved for 500 cycles"), std::string::npos) << out.error;
  EXPECT_LT(out.cycles, 2000u);  // of 3,100: the hosts' buffers fill, then 500 cycles of nothing
}
