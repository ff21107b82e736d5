// A routing plug-in (routing_units/registry.h) registered in-process: its own executable, so
// that the plug-in it registers never meets the every-mechanism lists of the other tests.
#include <gtest/gtest.h>

#include <memory>

#include "routing_units/routing.h"
#include "sc_main/config.h"
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
