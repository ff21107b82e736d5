// Routing units MIN and VAL, checked exhaustively on small Dragonflies by walking packets hop
// by hop through the real wiring: every (source, destination) pair, several RNG draws. A
// walk only follows the ports the unit returns, so a wrong port shows up as a wrong
// destination, a too-long path or a loop, not just as a wrong number.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "routing_units/minimal.h"
#include "routing_units/routing.h"
#include "tests/mechanisms.h"
#include "routing_units/valiant.h"
#include "topologies/common/rng.h"
#include "topologies/dragonfly.h"

namespace scfly {
namespace {

// A path is at most L-G-L-L-G-L (VAL); anything longer is a routing loop.
constexpr int kMaxHops = 16;

struct Hop {
  int sw;        // switch the hop leaves
  int port;      // output port taken
  PortClass cls;
  int vc;
  int segment;   // h.segment once the decision was made
  bool operator==(const Hop& o) const {
    return sw == o.sw && port == o.port && cls == o.cls && vc == o.vc && segment == o.segment;
  }
};

struct Walk {
  std::vector<Hop> hops;    // switch-to-switch hops only
  int eject_sw = -1, eject_port = -1;
  int inter = -1;           // h.inter_switch after the first decision
  int segment_switch = -1;  // switch at which the header entered segment 1
  bool nonminimal = false;
  std::string error;        // non-empty: the walk went wrong before ejecting

  int count(PortClass c) const {
    return static_cast<int>(std::count_if(hops.begin(), hops.end(),
                                          [c](const Hop& x) { return x.cls == c; }));
  }
  bool operator==(const Walk& o) const {
    return hops == o.hops && eject_sw == o.eject_sw && eject_port == o.eject_port &&
           inter == o.inter && nonminimal == o.nonminimal && error == o.error;
  }
};

std::string describe(const Walk& w) {
  std::ostringstream os;
  os << "path:";
  for (const Hop& x : w.hops)
    os << " sw" << x.sw << " -" << (x.cls == PortClass::Local ? 'L' : 'G') << "(port " << x.port
       << ", vc " << x.vc << ", seg " << x.segment << ")->";
  os << " sw" << w.eject_sw << " eject port " << w.eject_port << "; inter " << w.inter;
  if (!w.error.empty()) os << "; ERROR " << w.error;
  return os.str();
}

using RouteFn = std::function<RouteDecision(int sw, int in_port, RouteHeader& h, Rng& rng)>;

// Injects a packet from node `src` to node `dst` and follows the decisions through the
// wiring: a local port leads to topo.local_neighbor, a global port to topo.global_peer, and
// the packet arrives on the far end's port, until a host port (ejection) is returned.
Walk walk(const Dragonfly& t, const RouteFn& route, int src, int dst, Rng& rng) {
  Walk w;
  RouteHeader h;
  h.dst_switch = t.switch_of_node(dst);
  h.dst_host = static_cast<int16_t>(t.host_of_node(dst));
  int sw = t.switch_of_node(src);
  int in_port = t.host_port(t.host_of_node(src));
  for (int step = 0; step <= kMaxHops; ++step) {
    const RouteDecision d = route(sw, in_port, h, rng);
    if (step == 0) w.inter = h.inter_switch;
    if (h.segment == 1 && w.segment_switch < 0) w.segment_switch = sw;
    if (d.port < 0 || d.port >= t.radix()) {
      w.error = "switch " + std::to_string(sw) + " returned port " + std::to_string(d.port);
      return w;
    }
    const PortClass c = t.port_class(d.port);
    if (c == PortClass::Host) {
      w.eject_sw = sw;
      w.eject_port = d.port;
      w.nonminimal = h.nonminimal;
      return w;
    }
    w.hops.push_back(Hop{sw, d.port, c, d.vc, h.segment});
    if (c == PortClass::Local) {
      const int r = t.index_of(sw), r2 = t.local_neighbor(r, d.port);
      sw = t.switch_id(t.group_of(sw), r2);
      in_port = t.local_port(r2, r);
    } else {
      const GlobalLinkEnd far = t.global_peer(sw, d.port);
      sw = far.sw;
      in_port = far.port;
    }
  }
  w.error = "no ejection after " + std::to_string(kMaxHops) + " hops";
  return w;
}

RouteFn unit_fn(const RoutingUnit& unit) {
  return [&unit](int sw, int in_port, RouteHeader& h, Rng& rng) {
    return unit.route(sw, in_port, h, rng);
  };
}

// Shortest L-G-L distance computed from the raw wiring (not from links_between() or
// minimal_distance(), which are under test): best over every global link from the source
// group to the target group of (local hop to its owner) + 1 + (local hop from its landing).
std::vector<int> reference_distances(const Dragonfly& t) {
  const int n = t.num_switches();
  std::vector<int> dist(static_cast<size_t>(n) * n, 99);
  for (int from = 0; from < n; ++from)
    for (int to = 0; to < n; ++to) {
      int& d = dist[static_cast<size_t>(from) * n + to];
      if (from == to) d = 0;
      else if (t.group_of(from) == t.group_of(to)) d = 1;
      else
        for (int r = 0; r < t.a(); ++r) {
          const int owner = t.switch_id(t.group_of(from), r);
          for (int port = t.first_global_port(); port < t.radix(); ++port) {
            const GlobalLinkEnd far = t.global_peer(owner, port);
            if (t.group_of(far.sw) == t.group_of(to))
              d = std::min(d, (owner != from) + 1 + (far.sw != to));
          }
        }
    }
  return dist;
}

// Common to every algorithm: delivered to the right host, and the VC index never goes down
// within a port class (the hop-slot rule that keeps the channel dependency graph acyclic).
testing::AssertionResult delivered_with_monotone_vcs(const Dragonfly& t, const Walk& w, int dst) {
  if (!w.error.empty()) return testing::AssertionFailure() << describe(w);
  if (w.eject_sw != t.switch_of_node(dst) || w.eject_port != t.host_of_node(dst))
    return testing::AssertionFailure() << "ejected at switch " << w.eject_sw << " port "
                                       << w.eject_port << ", want switch " << t.switch_of_node(dst)
                                       << " port " << t.host_of_node(dst) << "; " << describe(w);
  int last_local = -1, last_global = -1;
  for (const Hop& x : w.hops) {
    int& last = x.cls == PortClass::Local ? last_local : last_global;
    if (x.vc < last) return testing::AssertionFailure() << "VC decreases; " << describe(w);
    last = x.vc;
  }
  return testing::AssertionSuccess();
}

testing::AssertionResult min_path_ok(const Dragonfly& t, const std::vector<int>& ref, int src,
                                     int dst, const Walk& w) {
  if (auto r = delivered_with_monotone_vcs(t, w, dst); !r) return r;
  const int s = t.switch_of_node(src), d = t.switch_of_node(dst);
  const int hops = static_cast<int>(w.hops.size());
  const int want = ref[static_cast<size_t>(s) * t.num_switches() + d];
  auto fail = [&]() { return testing::AssertionFailure() << describe(w) << "; "; };
  if (hops > 3) return fail() << "more than 3 hops";
  if (hops != want) return fail() << hops << " hops, shortest L-G-L path has " << want;
  if (minimal_distance(t, s, d) != want)
    return fail() << "minimal_distance() = " << minimal_distance(t, s, d) << ", want " << want;
  const int globals = w.count(PortClass::Global);
  if (globals != (t.group_of(s) != t.group_of(d) ? 1 : 0)) return fail() << globals << " global hops";
  const VcBudget budget = required_vcs(RoutingAlgo::Min);
  int before = 0, after = 0, seen_global = 0;
  for (const Hop& x : w.hops) {
    if (x.cls == PortClass::Global) {
      seen_global = 1;
      if (x.vc != 0) return fail() << "global VC " << x.vc << ", want 0";
      if (x.vc >= budget.global) return fail() << "global VC over budget";
    } else {
      ++(seen_global ? after : before);
      if (x.vc != seen_global) return fail() << "local VC " << x.vc << ", want " << seen_global;
      if (x.vc >= budget.local) return fail() << "local VC over budget";
    }
  }
  if (before > 1 || after > 1) return fail() << "not L-G-L";
  if (w.nonminimal || w.inter != -1) return fail() << "MIN packet marked non-minimal";
  return testing::AssertionSuccess();
}

testing::AssertionResult val_path_ok(const Dragonfly& t, const std::vector<int>& ref, int src,
                                     int dst, const Walk& w) {
  if (auto r = delivered_with_monotone_vcs(t, w, dst); !r) return r;
  auto fail = [&]() { return testing::AssertionFailure() << describe(w) << "; "; };
  const int n = t.num_switches();
  const int s = t.switch_of_node(src), d = t.switch_of_node(dst), i = w.inter;
  if (i < 0 || i >= n) return fail() << "no intermediate switch drawn";
  if (!w.nonminimal) return fail() << "VAL packet not marked non-minimal";
  std::vector<int> visited{s};
  for (size_t k = 1; k < w.hops.size(); ++k) visited.push_back(w.hops[k].sw);
  visited.push_back(w.eject_sw);
  if (std::find(visited.begin(), visited.end(), i) == visited.end())
    return fail() << "intermediate switch not visited";
  if (w.segment_switch != i) return fail() << "segment 1 began at switch " << w.segment_switch;
  const int hops = static_cast<int>(w.hops.size());
  if (hops > 6) return fail() << "more than 6 hops";
  if (w.count(PortClass::Global) > 2) return fail() << "more than 2 global hops";
  // Both phases are minimal: source -> intermediate, then intermediate -> destination.
  const int want = ref[static_cast<size_t>(s) * n + i] + ref[static_cast<size_t>(i) * n + d];
  if (hops != want) return fail() << hops << " hops, two minimal phases give " << want;
  const VcBudget budget = required_vcs(RoutingAlgo::Val);
  int last_local = -1, last_global = -1;
  for (const Hop& x : w.hops) {
    if (x.cls == PortClass::Local) {
      if (x.vc <= last_local) return fail() << "local VCs not strictly increasing";
      if (x.vc >= budget.local) return fail() << "local VC over budget";
      if (x.vc / 2 != x.segment) return fail() << "local VC " << x.vc << " in segment " << x.segment;
      last_local = x.vc;
    } else {
      if (x.vc < last_global) return fail() << "global VCs decrease";
      if (x.vc >= budget.global) return fail() << "global VC over budget";
      if (x.vc != x.segment) return fail() << "global VC " << x.vc << " in segment " << x.segment;
      last_global = x.vc;
    }
  }
  return testing::AssertionSuccess();
}

void track_max_vc(const Walk& w, int& max_local, int& max_global) {
  for (const Hop& x : w.hops) {
    int& m = x.cls == PortClass::Local ? max_local : max_global;
    m = std::max(m, x.vc);
  }
}

struct NetCase {
  const char* name;
  DragonflyShape shape;
};

class RoutingNet : public testing::TestWithParam<NetCase> {
 protected:
  RoutingNet() : topo(GetParam().shape), ref(reference_distances(topo)) {}
  Dragonfly topo;
  std::vector<int> ref;
};

TEST_P(RoutingNet, ReferenceDistancesAreSane) {
  // Guards the oracle itself: a Dragonfly's minimal paths are 0..3 hops.
  for (int d : ref) {
    EXPECT_GE(d, 0);
    EXPECT_LE(d, 3);
  }
}

TEST_P(RoutingNet, MinTakesAShortestLglPathWithHopSlotVcs) {
  const Dragonfly& t = topo;
  const RoutingUnit unit(RoutingAlgo::Min, t);
  ASSERT_EQ(unit.algo(), RoutingAlgo::Min);
  // Extra seeds only matter when MIN has a choice of global link.
  const int seeds = t.links_per_group_pair() > 1 ? 8 : 1;
  int max_local = -1, max_global = -1;
  for (int seed = 0; seed < seeds; ++seed) {
    Rng rng(static_cast<uint64_t>(seed), StreamKind::Switch, 0);
    for (int src = 0; src < t.num_nodes(); ++src)
      for (int dst = 0; dst < t.num_nodes(); ++dst) {
        const Walk w = walk(t, unit_fn(unit), src, dst, rng);
        ASSERT_TRUE(min_path_ok(t, ref, src, dst, w))
            << "seed " << seed << " node " << src << " -> node " << dst;
        track_max_vc(w, max_local, max_global);
      }
  }
  // The budget is tight: MIN does use every VC it asks for.
  EXPECT_EQ(max_local + 1, required_vcs(RoutingAlgo::Min).local);
  EXPECT_EQ(max_global + 1, required_vcs(RoutingAlgo::Min).global);
}

// With several global links per group pair, MIN must spread over all the links that give a
// shortest path (and only those), or some links sit idle under uniform traffic.
TEST_P(RoutingNet, MinSpreadsOverEveryTiedShortestLink) {
  const Dragonfly& t = topo;
  const RoutingUnit unit(RoutingAlgo::Min, t);
  Rng rng(5, StreamKind::Switch, 1);
  for (int s = 0; s < t.num_switches(); ++s)
    for (int d = 0; d < t.num_switches(); ++d) {
      if (t.group_of(s) == t.group_of(d)) continue;
      const int best = ref[static_cast<size_t>(s) * t.num_switches() + d];
      std::set<std::pair<int, int>> tied, used;
      for (int r = 0; r < t.a(); ++r) {
        const int owner = t.switch_id(t.group_of(s), r);
        for (int port = t.first_global_port(); port < t.radix(); ++port) {
          const GlobalLinkEnd far = t.global_peer(owner, port);
          if (t.group_of(far.sw) == t.group_of(d) && (owner != s) + 1 + (far.sw != d) == best)
            tied.insert({owner, port});
        }
      }
      for (int draw = 0; draw < 64; ++draw) {
        const Walk w = walk(t, unit_fn(unit), s * t.p(), d * t.p(), rng);
        for (const Hop& x : w.hops)
          if (x.cls == PortClass::Global) used.insert({x.sw, x.port});
      }
      EXPECT_EQ(used, tied) << "switch " << s << " -> switch " << d;
    }
}

TEST_P(RoutingNet, ValGoesMinimallyThroughTheIntermediateWithHopSlotVcs) {
  const Dragonfly& t = topo;
  const RoutingUnit unit(RoutingAlgo::Val, t);
  ASSERT_EQ(unit.algo(), RoutingAlgo::Val);
  Rng rng(3, StreamKind::Switch, 0);
  int max_local = -1, max_global = -1;
  for (int src = 0; src < t.num_nodes(); ++src)
    for (int dst = 0; dst < t.num_nodes(); ++dst)
      for (int draw = 0; draw < 12; ++draw) {
        const Walk w = walk(t, unit_fn(unit), src, dst, rng);
        ASSERT_TRUE(val_path_ok(t, ref, src, dst, w))
            << "node " << src << " -> node " << dst << " draw " << draw;
        track_max_vc(w, max_local, max_global);
      }
  EXPECT_EQ(max_local + 1, required_vcs(RoutingAlgo::Val).local);
  EXPECT_EQ(max_global + 1, required_vcs(RoutingAlgo::Val).global);
}

// The intermediate is uniform over all a*g switches, the source's own switch and group
// included (ACOR paper, RRG-Sw). Counts are deterministic for the fixed seed; the band is
// about +-7 standard deviations wide, so only a biased or partial draw fails it.
TEST_P(RoutingNet, ValIntermediateCoversEverySwitchUniformly) {
  const Dragonfly& t = topo;
  const RoutingUnit unit(RoutingAlgo::Val, t);
  const int per_switch = 200;
  for (const int src : {0, t.num_nodes() - 1}) {
    Rng rng(17, StreamKind::Switch, static_cast<uint64_t>(src));
    std::vector<int> hits(static_cast<size_t>(t.num_switches()), 0);
    const int dst = t.num_nodes() / 2;
    for (int draw = 0; draw < per_switch * t.num_switches(); ++draw) {
      const Walk w = walk(t, unit_fn(unit), src, dst, rng);
      ASSERT_TRUE(val_path_ok(t, ref, src, dst, w));
      ++hits[static_cast<size_t>(w.inter)];
    }
    for (int s = 0; s < t.num_switches(); ++s) {
      EXPECT_GE(hits[static_cast<size_t>(s)], per_switch / 2) << "source node " << src << " switch " << s;
      EXPECT_LE(hits[static_cast<size_t>(s)], per_switch * 3 / 2) << "source node " << src << " switch " << s;
    }
  }
}

// Runs are reproducible only if a routing decision depends on nothing but the header and
// the switch's own stream.
TEST_P(RoutingNet, SameSeedSamePathOtherSeedOtherPath) {
  const Dragonfly& t = topo;
  for (const RoutingAlgo algo : {RoutingAlgo::Min, RoutingAlgo::Val}) {
    const RoutingUnit unit(algo, t);
    int differing = 0;
    for (int src = 0; src < t.num_nodes(); ++src)
      for (int dst = 0; dst < t.num_nodes(); ++dst) {
        const uint64_t id = static_cast<uint64_t>(src * t.num_nodes() + dst);
        Rng a(42, StreamKind::Switch, id), b(42, StreamKind::Switch, id), c(43, StreamKind::Switch, id);
        const Walk wa = walk(t, unit_fn(unit), src, dst, a);
        const Walk wb = walk(t, unit_fn(unit), src, dst, b);
        const Walk wc = walk(t, unit_fn(unit), src, dst, c);
        ASSERT_TRUE(wa == wb) << to_string(algo) << " node " << src << " -> " << dst << "\n"
                              << describe(wa) << "\n" << describe(wb);
        differing += !(wa == wc);
      }
    // The streams are actually consulted wherever there is a choice to make.
    if (algo == RoutingAlgo::Val || t.links_per_group_pair() > 1)
      EXPECT_GT(differing, 0) << to_string(algo);
    else
      EXPECT_EQ(differing, 0) << "MIN with one link per group pair has no choice to make";
  }
}

// RoutingUnit must dispatch to the named algorithm, not merely to something that routes.
TEST_P(RoutingNet, RoutingUnitDispatchesToTheNamedAlgorithm) {
  const Dragonfly& t = topo;
  const RoutingUnit min_unit(RoutingAlgo::Min, t), val_unit(RoutingAlgo::Val, t);
  const RouteFn direct_min = [&t](int sw, int, RouteHeader& h, Rng& rng) {
    return route_min(t, sw, h, rng, nullptr);
  };
  const RouteFn direct_val = [&t](int sw, int in_port, RouteHeader& h, Rng& rng) {
    return route_val(t, sw, in_port, h, rng, nullptr);
  };
  for (int src = 0; src < t.num_nodes(); src += 3)
    for (int dst = 0; dst < t.num_nodes(); dst += 2) {
      Rng a(9, StreamKind::Switch, 0), b(9, StreamKind::Switch, 0);
      Rng c(9, StreamKind::Switch, 0), d(9, StreamKind::Switch, 0);
      ASSERT_TRUE(walk(t, unit_fn(min_unit), src, dst, a) == walk(t, direct_min, src, dst, b));
      ASSERT_TRUE(walk(t, unit_fn(val_unit), src, dst, c) == walk(t, direct_val, src, dst, d));
    }
}

// A stand-in for the co-simulated minimal-hop unit (--rtl min_route): the C++ rule, counted.
class CountingMinHop final : public MinHopBlock {
 public:
  explicit CountingMinHop(const Dragonfly& t) : m_t(t) {}
  RouteDecision hop(int sw, int target, RouteHeader& h, uint32_t tie_word) const override {
    ++m_calls;
    return dragonfly_minimal_hop_word(m_t, sw, target, h, tie_word);
  }
  long calls() const { return m_calls; }

 private:
  const Dragonfly& m_t;
  mutable long m_calls = 0;
};

// A routing unit's inputs are the header, its Rng and the RouteContext; the topology is
// structure only. The co-simulated minimal-hop unit reaches every Dragonfly mechanism
// through RouteContext::min_hop: given one that answers as the C++ rule, each walks every
// path as it does without it, with the same draws, and asks it for its minimal hops (the
// table-driven MIN-TABLE and MIN-COND take none; control frames go through it too).
TEST_P(RoutingNet, MinHopBlockReachesEveryMechanismThroughTheContext) {
  const Dragonfly& t = topo;
  AdaptiveView view;  // nothing observed: every queue empty
  for (const std::string& name : scfly_test::registered_routings(true, false, {"min-table", "min-cond"})) {
    SCOPED_TRACE(name);
    RoutingAlgo algo;
    ASSERT_TRUE(parse_routing(name, algo));
    const RoutingUnit unit(algo, t);
    const CountingMinHop block(t);
    RouteContext cpp, rtl;
    cpp.view = rtl.view = &view;
    rtl.min_hop = &block;
    const auto through = [&unit](const RouteContext& ctx) -> RouteFn {
      return [&unit, &ctx](int sw, int in_port, RouteHeader& h, Rng& rng) { return unit.route(sw, in_port, h, rng, ctx); };
    };
    for (int src = 0; src < t.num_nodes(); ++src)
      for (int dst = 0; dst < t.num_nodes(); ++dst) {
        const uint64_t id = static_cast<uint64_t>(src * t.num_nodes() + dst);
        Rng a(11, StreamKind::Switch, id), b(11, StreamKind::Switch, id);
        const Walk wa = walk(t, through(cpp), src, dst, a), wb = walk(t, through(rtl), src, dst, b);
        ASSERT_TRUE(wa == wb) << "node " << src << " -> " << dst << "\n" << describe(wa) << "\n" << describe(wb);
        ASSERT_EQ(a.next32(), b.next32()) << "node " << src << " -> " << dst << ": the draws differ";
      }
    EXPECT_GT(block.calls(), 0);
  }
  const RoutingUnit min_unit(RoutingAlgo::Min, t);
  const CountingMinHop block(t);
  Rng a(5, StreamKind::Switch, 0), b(5, StreamKind::Switch, 0);
  RouteHeader hc, hr;
  hc.dst_switch = hr.dst_switch = t.num_switches() - 1;
  const RouteDecision dc = min_unit.route_control(0, hc, a, nullptr), dr = min_unit.route_control(0, hr, b, &block);
  EXPECT_EQ(dc.port, dr.port);
  EXPECT_EQ(dc.vc, dr.vc);
  EXPECT_EQ(block.calls(), 1);
}

INSTANTIATE_TEST_SUITE_P(
    Nets, RoutingNet,
    testing::Values(NetCase{"palmtree_2_4_2_9", {2, 4, 2, 9, Arrangement::Palmtree}},
                    NetCase{"absolute_2_4_2_5", {2, 4, 2, 5, Arrangement::Absolute}},
                    NetCase{"absolute_2_4_2_3", {2, 4, 2, 3, Arrangement::Absolute}},
                    NetCase{"palmtree_1_3_2_7", {1, 3, 2, 7, Arrangement::Palmtree}}),
    [](const testing::TestParamInfo<NetCase>& info) { return std::string(info.param.name); });

TEST(RoutingConfig, ParseRoutingAcceptsOnlyTheKnownNames) {
  RoutingAlgo r = RoutingAlgo::Val;
  ASSERT_TRUE(parse_routing("min", r));
  EXPECT_EQ(r, RoutingAlgo::Min);
  ASSERT_TRUE(parse_routing("val", r));
  EXPECT_EQ(r, RoutingAlgo::Val);
  for (const char* bad : {"", "MIN", "Val", "valiant", "minimal", "ugal", " min", "min ", "m"})
    EXPECT_FALSE(parse_routing(bad, r)) << "\"" << bad << "\"";
  // Names round-trip, so a report's routing field can be fed back as config: every
  // registered mechanism, each listed among the choices of its topologies.
  ASSERT_GE(routing_mechanisms().size(), kBuiltinRoutings);
  for (const RoutingMechanism* m : routing_mechanisms()) {
    const RoutingAlgo a = algo_of(*m);
    ASSERT_TRUE(parse_routing(to_string(a), r)) << m->name;
    EXPECT_EQ(r, a);
    EXPECT_EQ(&mechanism(a), m);
    EXPECT_NE(routing_choices().find(m->name), std::string::npos) << m->name;
    if (m->dragonfly) {
      EXPECT_NE(routing_names(true, false).find(m->name), std::string::npos) << m->name;
    }
    if (m->mesh) {
      EXPECT_NE(routing_names(false, true).find(m->name), std::string::npos) << m->name;
    }
  }
}

// The registry's rows say what the mechanisms' own code needs (the switch, the deadlock
// checker and the config read these flags).
TEST(RoutingConfig, RegistryRowsOfTheBuiltIns) {
  EXPECT_EQ(required_vcs(RoutingAlgo::Min).local, 2);
  EXPECT_EQ(required_vcs(RoutingAlgo::Par).local, 5);
  EXPECT_EQ(required_vcs(RoutingAlgo::MinCond).local, 3);
  EXPECT_EQ(required_link_vcs(RoutingAlgo::Dor, false), 2);
  EXPECT_EQ(required_link_vcs(RoutingAlgo::Dor, true), 1);
  EXPECT_EQ(required_link_vcs(RoutingAlgo::Val, false), 4);
  for (const RoutingMechanism* m : routing_mechanisms()) {
    const RoutingAlgo a = algo_of(*m);
    EXPECT_EQ(m->global_load, ugal_base(a) == RoutingAlgo::UgalG) << m->name;
    EXPECT_EQ(m->level_ctrl, a == RoutingAlgo::AcorSwitch || a == RoutingAlgo::PbAcor) << m->name;
    EXPECT_EQ(m->sat_flags, a == RoutingAlgo::Pb || a == RoutingAlgo::PbAcor) << m->name;
    if (m->plugin()) continue;
    EXPECT_TRUE(m->dragonfly || m->torus || m->mesh) << m->name;
    if (m->mesh) {
      EXPECT_TRUE(m->torus) << m->name;  // every mesh mechanism also routes on tori
    }
  }
}

TEST(RoutingConfig, VcBudgets) {
  EXPECT_EQ(required_vcs(RoutingAlgo::Min).local, 2);
  EXPECT_EQ(required_vcs(RoutingAlgo::Min).global, 1);
  EXPECT_EQ(required_vcs(RoutingAlgo::Val).local, 4);
  EXPECT_EQ(required_vcs(RoutingAlgo::Val).global, 2);
}

}  // namespace
}  // namespace scfly
