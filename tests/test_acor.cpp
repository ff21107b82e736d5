// Valiant family and ACOR without a simulator: each misrouting policy's intermediate set
// (exhaustive on dfly(2,4,2) and an absolute dfly), path lengths within Table 1's maxima,
// VC order, restricted Valiant, ACOR sequences and levels, and the hysteresis unit at every
// threshold edge.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "routing_units/acor.h"
#include "routing_units/acor_level_ctrl.h"
#include "routing_units/misrouting.h"
#include "routing_units/routing.h"
#include "routing_units/valiant.h"
#include "sc_main/config.h"

namespace scfly {
namespace {

Dragonfly tiny() { return Dragonfly(DragonflyShape{2, 4, 2, 9, Arrangement::Palmtree}); }
Dragonfly absolute() { return Dragonfly(DragonflyShape{2, 4, 2, 5, Arrangement::Absolute}); }

// True if some global link joins switches x and y (either direction), from the raw wiring.
bool linked(const Dragonfly& t, int x, int y) {
  for (int port = t.first_global_port(); port < t.radix(); ++port) {
    if (t.global_peer(x, port).sw == y) return true;
    if (t.global_peer(y, port).sw == x) return true;
  }
  return false;
}

// The policy definitions of the ACOR paper (sec. 4.1), written independently of
// intermediate_set(): membership tests over the wiring.
bool allowed(const Dragonfly& t, int src, int dst, Misroute pol, bool restricted, int x) {
  const int G = t.group_of(src);
  if (restricted && G == t.group_of(dst)) return src != dst && t.group_of(x) == G && x != src && x != dst;
  switch (pol) {
    case Misroute::RrgSw: return true;
    case Misroute::CrgGr: return t.group_of(x) != G && linked(t, src, x);
    case Misroute::CrgSw:
      for (int port = t.first_global_port(); port < t.radix(); ++port)
        if (t.global_target_group(src, port) == t.group_of(x)) return true;
      return false;
    case Misroute::RrgGr:
      if (t.group_of(x) == G) return false;
      for (int r = 0; r < t.a(); ++r)
        if (linked(t, t.switch_id(G, r), x)) return true;
      return false;
    default: return false;
  }
}

struct PathStats {
  int phase_a = 0, total = 0;
  bool reached_inter = false;
  bool vc_monotone = true;
  int max_local_vc = 0, max_global_vc = 0;
  int inter = -1;
  bool ejected_at_dst = false;
};

// Follows a route decision by decision through the wiring.
PathStats follow(const Dragonfly& t, const RoutingUnit& u, int src_node, int dst_node, Rng& rng,
                 const RouteContext& ctx = {}) {
  PathStats ps;
  RouteHeader h;
  h.dst_switch = t.switch_of_node(dst_node);
  h.dst_host = static_cast<int16_t>(t.host_of_node(dst_node));
  int sw = t.switch_of_node(src_node), in_port = t.host_port(t.host_of_node(src_node));
  int last_local = -1, last_global = -1;
  for (int step = 0; step < 16; ++step) {
    const uint8_t seg_before = h.segment;
    const RouteDecision d = u.route(sw, in_port, h, rng, ctx);
    if (step == 0) ps.inter = h.inter_switch;
    if (h.segment == 1 && seg_before == 0) ps.reached_inter = true;
    const PortClass c = t.port_class(d.port);
    if (c == PortClass::Host) {
      ps.ejected_at_dst = sw == h.dst_switch && d.port == h.dst_host;
      if (ps.inter < 0) ps.reached_inter = true;
      return ps;
    }
    ++ps.total;
    if (h.segment == 0) ++ps.phase_a;
    if (c == PortClass::Local) {
      ps.vc_monotone &= d.vc > last_local && d.vc >= 2 * std::max(0, last_global);
      last_local = d.vc;
      ps.max_local_vc = std::max<int>(ps.max_local_vc, d.vc);
      const int r = t.index_of(sw), r2 = t.local_neighbor(r, d.port);
      sw = t.switch_id(t.group_of(sw), r2);
      in_port = t.local_port(r2, r);
    } else {
      ps.vc_monotone &= d.vc > last_global;
      last_global = d.vc;
      ps.max_global_vc = std::max<int>(ps.max_global_vc, d.vc);
      const GlobalLinkEnd far = t.global_peer(sw, d.port);
      sw = far.sw;
      in_port = far.port;
    }
  }
  ps.total = 99;
  return ps;
}

const Misroute kPolicies[] = {Misroute::RrgSw, Misroute::RrgGr, Misroute::CrgSw, Misroute::CrgGr};

}  // namespace

TEST(Misrouting, EveryPolicySetIsExactlyItsDefinitionOnEverySwitchPair) {
  for (const Dragonfly& t : {tiny(), absolute()}) {
    for (Misroute pol : kPolicies)
      for (bool restricted : {false, true})
        for (int s = 0; s < t.num_switches(); ++s)
          for (int d = 0; d < t.num_switches(); ++d) {
            std::vector<int> want;
            for (int x = 0; x < t.num_switches(); ++x)
              if (allowed(t, s, d, pol, restricted, x)) want.push_back(x);
            ASSERT_EQ(intermediate_set(t, s, d, pol, restricted), want)
                << to_string(pol) << " restricted " << restricted << " " << s << "->" << d;
          }
  }
}

TEST(Misrouting, DrawsCoverTheSetAndNothingElse) {
  const Dragonfly t = tiny();
  Rng rng(3, StreamKind::Traffic, 0);
  for (Misroute pol : kPolicies)
    for (bool restricted : {false, true})
      for (int s : {0, 5, 35})
        for (int d : {1, 3, 12, 35}) {
          const auto set = intermediate_set(t, s, d, pol, restricted);
          std::set<int> seen;
          for (int n = 0; n < 4000; ++n) {
            const Intermediate im = draw_intermediate(t, s, d, pol, restricted, rng);
            if (im.sw < 0) {
              EXPECT_TRUE(set.empty());
              continue;
            }
            seen.insert(im.sw);
            EXPECT_TRUE(std::binary_search(set.begin(), set.end(), im.sw))
                << to_string(pol) << " " << s << "->" << d << " drew " << im.sw;
          }
          EXPECT_EQ(seen.size(), set.size()) << to_string(pol) << " " << s << "->" << d;
        }
}

TEST(Misrouting, RrgSwDrawIsTheOriginalUniformValiantDraw) {
  // Same stream, same values: existing VAL results are unchanged by the policy layer.
  const Dragonfly t = tiny();
  Rng a(9, StreamKind::Switch, 4), b(9, StreamKind::Switch, 4);
  for (int n = 0; n < 1000; ++n)
    EXPECT_EQ(draw_intermediate(t, 4, 30, Misroute::RrgSw, false, a).sw,
              static_cast<int>(b.below(static_cast<uint32_t>(t.num_switches()))));
}

TEST(Valiant, PhaseALengthNeverExceedsTable1AndVcsNeverDecrease) {
  for (const Dragonfly& t : {tiny(), absolute()})
    for (Misroute pol : kPolicies)
      for (bool restricted : {false, true}) {
        RoutingParams prm;
        prm.val.policy = pol;
        prm.val.restricted = restricted;
        const RoutingUnit u(RoutingAlgo::Val, t, prm);
        Rng rng(5, StreamKind::Traffic, 1);
        int longest_a = 0, longest = 0;
        for (int src = 0; src < t.num_nodes(); ++src)
          for (int dst = 0; dst < t.num_nodes(); ++dst)
            for (int rep = 0; rep < 3; ++rep) {
              if (src == dst) continue;
              const PathStats ps = follow(t, u, src, dst, rng);
              SCOPED_TRACE(std::string(to_string(pol)) + " restricted " + std::to_string(restricted) +
                           " " + std::to_string(src) + "->" + std::to_string(dst));
              ASSERT_TRUE(ps.ejected_at_dst);
              ASSERT_TRUE(ps.reached_inter);
              const bool local = restricted && t.group_of(t.switch_of_node(src)) ==
                                                   t.group_of(t.switch_of_node(dst));
              EXPECT_LE(ps.phase_a, max_phase_a_hops(local ? Misroute::Local : pol));
              EXPECT_LE(ps.total, max_phase_a_hops(local ? Misroute::Local : pol) + 3);
              EXPECT_TRUE(ps.vc_monotone);
              EXPECT_LE(ps.max_local_vc, 3);
              EXPECT_LE(ps.max_global_vc, 1);
              longest_a = std::max(longest_a, ps.phase_a);
              longest = std::max(longest, ps.total);
            }
        // The maxima are reached, not just respected (palmtree and absolute alike).
        EXPECT_EQ(longest_a, max_phase_a_hops(pol)) << to_string(pol);
        EXPECT_EQ(longest, max_phase_a_hops(pol) + 3) << to_string(pol);
      }
}

TEST(Valiant, CrgPoliciesLeaveThroughTheSourceSwitchsOwnGlobalLink) {
  // No first local hop for CRG, even with 2 links per group pair (absolute dfly(2,4,2,5)).
  for (const Dragonfly& t : {tiny(), absolute()})
    for (Misroute pol : {Misroute::CrgGr, Misroute::CrgSw}) {
      RoutingParams prm;
      prm.val.policy = pol;
      const RoutingUnit u(RoutingAlgo::Val, t, prm);
      Rng rng(8, StreamKind::Traffic, 2);
      for (int src = 0; src < t.num_nodes(); src += 3)
        for (int n = 0; n < 20; ++n) {
          RouteHeader h;
          const int dst = (src + 17 * n + 5) % t.num_nodes();
          h.dst_switch = t.switch_of_node(dst);
          h.dst_host = 0;
          if (h.dst_switch == t.switch_of_node(src)) continue;
          const RouteDecision d = u.route(t.switch_of_node(src), t.host_port(src % t.p()), h, rng);
          EXPECT_EQ(t.port_class(d.port), PortClass::Global) << to_string(pol) << " from node " << src;
        }
    }
}

TEST(Valiant, RestrictedIntraGroupPathIsLocalLocal) {
  const Dragonfly t = tiny();
  RoutingParams prm;
  prm.val.restricted = true;
  const RoutingUnit u(RoutingAlgo::Val, t, prm);
  Rng rng(1, StreamKind::Traffic, 0);
  // node 0 (switch 0) -> node 3 (switch 1): intermediate switch 2 or 3, path L-L.
  for (int n = 0; n < 50; ++n) {
    const PathStats ps = follow(t, u, 0, 3, rng);
    EXPECT_TRUE(ps.inter == 2 || ps.inter == 3) << ps.inter;
    EXPECT_EQ(ps.total, 2);
  }
  // Hosts of one switch: never misrouted.
  RouteHeader h;
  h.dst_switch = 0;
  h.dst_host = 1;
  const RouteDecision d = u.route(0, 0, h, rng);
  EXPECT_EQ(d.port, 1);
  EXPECT_FALSE(h.nonminimal);
  EXPECT_EQ(h.policy, static_cast<uint8_t>(Misroute::None));
}

TEST(Acor, SequencesAreTable2) {
  Misroute p[3];
  ASSERT_EQ(sequence_policies(AcorSequence::TwoLevelA, p), 2);
  EXPECT_EQ(p[0], Misroute::CrgGr);
  EXPECT_EQ(p[1], Misroute::RrgSw);
  ASSERT_EQ(sequence_policies(AcorSequence::TwoLevelB, p), 2);
  EXPECT_EQ(p[0], Misroute::CrgSw);
  EXPECT_EQ(p[1], Misroute::RrgSw);
  ASSERT_EQ(sequence_policies(AcorSequence::ThreeLevel, p), 3);
  EXPECT_EQ(p[0], Misroute::CrgGr);
  EXPECT_EQ(p[1], Misroute::CrgSw);
  EXPECT_EQ(p[2], Misroute::RrgSw);
}

TEST(Acor, PacketLevelRisesPerBlockedAttemptAndSticksAtRrgSw) {
  EXPECT_EQ(acor_packet_level(0, 3), 0);
  EXPECT_EQ(acor_packet_level(1, 3), 1);
  EXPECT_EQ(acor_packet_level(2, 3), 2);
  EXPECT_EQ(acor_packet_level(50, 3), 2);
  EXPECT_EQ(acor_packet_level(7, 2), 1);
  // Through the unit: the policy recorded in the header follows the attempt count.
  const Dragonfly t = tiny();
  RoutingParams prm;
  prm.acor.sequence = AcorSequence::ThreeLevel;
  const RoutingUnit u(RoutingAlgo::AcorPacket, t, prm);
  Rng rng(2, StreamKind::Traffic, 0);
  const Misroute want[] = {Misroute::CrgGr, Misroute::CrgSw, Misroute::RrgSw, Misroute::RrgSw};
  for (uint16_t a = 0; a < 4; ++a) {
    RouteHeader h;
    h.dst_switch = 20;
    h.dst_host = 0;
    RouteContext ctx;
    ctx.attempt = a;
    u.route(0, 0, h, rng, ctx);
    EXPECT_EQ(h.policy, static_cast<uint8_t>(want[a])) << a;
  }
  EXPECT_TRUE(u.recomputes());
  EXPECT_FALSE(u.needs_level_ctrl());
}

TEST(Acor, SwitchLevelSelectsThePolicyAndIntraGroupIsRestricted) {
  const Dragonfly t = tiny();
  RoutingParams prm;
  prm.acor.sequence = AcorSequence::TwoLevelB;
  const RoutingUnit u(RoutingAlgo::AcorSwitch, t, prm);
  EXPECT_TRUE(u.needs_level_ctrl());
  Rng rng(2, StreamKind::Traffic, 0);
  for (uint8_t lvl : {0, 1, 5}) {
    RouteHeader h;
    h.dst_switch = 20;
    h.dst_host = 0;
    RouteContext ctx;
    ctx.switch_level = lvl;
    u.route(0, 0, h, rng, ctx);
    EXPECT_EQ(h.policy, static_cast<uint8_t>(lvl == 0 ? Misroute::CrgSw : Misroute::RrgSw));
  }
  RouteHeader h;
  h.dst_switch = 2;  // same group
  h.dst_host = 0;
  u.route(0, 0, h, rng, {});
  EXPECT_EQ(h.policy, static_cast<uint8_t>(Misroute::Local));
}

// ---- the hysteresis unit -------------------------------------------------------------

namespace {
AcorLevelParams table3() {
  AcorLevelParams p;
  p.levels = 3;
  p.hi = 500;
  p.it[0] = 15;
  p.it[1] = 500;
  p.dt[0] = 5;
  p.dt[1] = 15;
  return p;
}
}  // namespace

TEST(AcorLevelCtrl, RaisesAtOnceWhenTheCounterReachesIt1NotBefore) {
  AcorLevelCtrl c(table3());
  c.step(14);
  EXPECT_EQ(c.level(), 0u);
  EXPECT_EQ(c.counter(), 14u);
  c.step(1);  // 15 = IT1: up in this very cycle, interval restarts
  EXPECT_EQ(c.level(), 1u);
  EXPECT_EQ(c.counter(), 0u);
  EXPECT_EQ(c.timer(), 0u);
}

TEST(AcorLevelCtrl, SecondTransitionUsesIt2AndTheTopLevelIsSticky) {
  AcorLevelCtrl c(table3());
  c.step(15);
  ASSERT_EQ(c.level(), 1u);
  c.step(499);
  EXPECT_EQ(c.level(), 1u);
  c.step(1);
  EXPECT_EQ(c.level(), 2u);
  c.step(100000);  // never beyond the sequence end
  EXPECT_EQ(c.level(), 2u);
}

TEST(AcorLevelCtrl, LowersOnlyAtTheIntervalEndAndOnlyBelowDt) {
  AcorLevelCtrl c(table3());
  c.step(15);  // level 1; a new interval starts with the next cycle
  for (int i = 0; i < 499; ++i) c.step(0);
  EXPECT_EQ(c.level(), 1u);  // 499 cycles into the interval: no decision yet
  c.step(0);                 // the 500th cycle ends the interval with counter 0 < DT1
  EXPECT_EQ(c.level(), 0u);
  // Counter exactly DT1 at the end: stays.
  AcorLevelCtrl d(table3());
  d.step(15);
  d.step(5);
  for (int i = 0; i < 499; ++i) d.step(0);
  EXPECT_EQ(d.level(), 1u);
  EXPECT_EQ(d.timer(), 0u);    // interval ended ...
  EXPECT_EQ(d.counter(), 0u);  // ... and the counter was reset
  // Counter DT1 - 1 at the end: down.
  AcorLevelCtrl e(table3());
  e.step(15);
  e.step(4);
  for (int i = 0; i < 499; ++i) e.step(0);
  EXPECT_EQ(e.level(), 0u);
}

TEST(AcorLevelCtrl, LevelTwoUsesDt2AndLevelZeroNeverGoesLower) {
  AcorLevelCtrl c(table3());
  c.step(15);
  c.step(500);
  ASSERT_EQ(c.level(), 2u);
  c.step(14);  // 14 < DT2 = 15 at the end of the interval: down to 1
  for (int i = 0; i < 499; ++i) c.step(0);
  EXPECT_EQ(c.level(), 1u);
  AcorLevelCtrl z(table3());
  for (int i = 0; i < 5000; ++i) z.step(0);
  EXPECT_EQ(z.level(), 0u);
}

TEST(AcorLevelCtrl, TheCounterResetsEveryInterval) {
  AcorLevelCtrl c(table3());
  // 14 events per interval never reach IT1 = 15, however many intervals pass.
  for (int k = 0; k < 10; ++k) {
    c.step(14);
    for (int i = 0; i < 499; ++i) c.step(0);
  }
  EXPECT_EQ(c.level(), 0u);
  EXPECT_EQ(c.counter(), 0u);
}

TEST(AcorLevelCtrl, TwoLevelSequenceUsesIt1Dt1Only) {
  AcorLevelParams p = table3();
  p.levels = 2;
  AcorLevelCtrl c(p);
  c.step(15);
  EXPECT_EQ(c.level(), 1u);
  c.step(100000);
  EXPECT_EQ(c.level(), 1u);
}

TEST(AcorLevelCtrl, IdleCatchUpEqualsSteppingWithNoEvents) {
  for (uint64_t gap : {0ULL, 1ULL, 499ULL, 500ULL, 501ULL, 1234ULL, 100000ULL}) {
    AcorLevelCtrl a(table3()), b(table3());
    for (AcorLevelCtrl* x : {&a, &b}) {
      x->step(15);
      x->step(500);
      x->step(3);
      for (int i = 0; i < 17; ++i) x->step(0);
    }
    a.idle(gap);
    for (uint64_t i = 0; i < gap; ++i) b.step(0);
    EXPECT_EQ(a.level(), b.level()) << gap;
    EXPECT_EQ(a.counter(), b.counter()) << gap;
    EXPECT_EQ(a.timer(), b.timer()) << gap;
  }
}

// ---- configuration ----------------------------------------------------------------------

namespace {
std::string cfg_error(const std::vector<std::string>& ov) {
  try {
    parse_config_text("{}", ov);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(AcorConfig, KeysParseValidateAndEcho) {
  const SimConfig c = parse_config_text(
      "routing: acor-switch\nacor: {sequence: 2la, hi: 300, it1: 20, it2: 50, dt1: 8, dt2: 3}\n"
      "val: {policy: crg-sw, restricted: true, recompute: true}",
      {});
  EXPECT_EQ(c.routing, RoutingAlgo::AcorSwitch);
  EXPECT_EQ(c.routing_prm.acor.sequence, AcorSequence::TwoLevelA);
  EXPECT_EQ(c.routing_prm.acor.ctrl.hi, 300u);
  EXPECT_EQ(c.routing_prm.acor.ctrl.it[0], 20u);
  EXPECT_EQ(c.routing_prm.acor.ctrl.dt[1], 3u);
  EXPECT_EQ(c.routing_prm.val.policy, Misroute::CrgSw);
  EXPECT_TRUE(c.routing_prm.val.restricted);
  EXPECT_EQ(c.sw.vcs[1], 4);  // auto VCs: 4 local / 2 global
  EXPECT_EQ(c.sw.vcs[2], 2);
  const auto j = config_to_json(c);
  EXPECT_EQ(j["acor"]["sequence"], "2la");
  EXPECT_EQ(j["val"]["policy"], "crg-sw");
  EXPECT_EQ(config_to_json(parse_config_text(j.dump(), {})), j);
  EXPECT_NE(cfg_error({"val.policy=rrg"}).find("val.policy"), std::string::npos);
  EXPECT_NE(cfg_error({"val.policy=rrg"}).find("rrg-sw, rrg-gr, crg-sw, crg-gr"), std::string::npos);
  EXPECT_NE(cfg_error({"acor.sequence=4l"}).find("acor.sequence"), std::string::npos);
  EXPECT_NE(cfg_error({"acor.hi=0"}).find("acor.hi"), std::string::npos);
  EXPECT_NE(cfg_error({"acor.it1=0"}).find("acor.it1"), std::string::npos);
  EXPECT_NE(cfg_error({"acor.dt1=16"}).find("acor.dt1"), std::string::npos);  // > it1 = 15
  EXPECT_NE(cfg_error({"val.restricted=maybe"}).find("val.restricted"), std::string::npos);
  EXPECT_NE(cfg_error({"routing=acor-switch", "switch.vcs.local=3"}).find("switch.vcs.local"),
            std::string::npos);
}

}  // namespace scfly
