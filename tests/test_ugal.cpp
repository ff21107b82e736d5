// Source-adaptive selection without a simulator: the UGAL comparison and the Piggyback
// saturation test at their boundaries, the one-cycle-old and delayed observation tables,
// and route_adaptive's choices under synthetic congestion (UGAL-L, UGAL-G, PAR, PB).
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "routing_units/routing.h"
#include "routing_units/ugal.h"
#include "routing_units/rtl_widths.h"
#include "sc_main/config.h"
#include "tests/config_error.h"

namespace scfly {
namespace {

Dragonfly tiny() { return Dragonfly(DragonflyShape{2, 4, 2, 9, Arrangement::Palmtree}); }

// A synthetic switch load: all ports empty unless set.
struct FakeLoad {
  std::vector<uint32_t> out;
  std::vector<int32_t> cred;
  std::vector<uint32_t> flags;
  AdaptiveView view;
  explicit FakeLoad(const Dragonfly& t) : out(t.radix(), 0), cred(t.radix(), 0), flags(t.h(), 0) {
    view.local.out_phits = out.data();
    view.local.credits_used = cred.data();
    view.local.measure = QueueMeasure::Output;
    view.own_flags = flags.data();
  }
};

RouteHeader to(const Dragonfly& t, int dst_node) {
  RouteHeader h;
  h.dst_switch = t.switch_of_node(dst_node);
  h.dst_host = static_cast<int16_t>(t.host_of_node(dst_node));
  return h;
}

}  // namespace

TEST(Ugal, ComparisonBoundaries) {
  EXPECT_TRUE(ugal_prefers_min(0, 3, 0, 6, 0));     // empty queues: minimal
  EXPECT_TRUE(ugal_prefers_min(10, 3, 5, 6, 0));    // tie 30 = 30: minimal
  EXPECT_FALSE(ugal_prefers_min(11, 3, 5, 6, 0));   // 33 > 30
  EXPECT_TRUE(ugal_prefers_min(11, 3, 5, 6, 3));    // T = 3 restores minimal
  EXPECT_FALSE(ugal_prefers_min(10, 3, 5, 6, -1));  // negative T biases to Valiant
  EXPECT_TRUE(ugal_prefers_min(0, 3, 0, 6, -0));
  EXPECT_FALSE(ugal_prefers_min(1, 1, 0, 6, -1));
  EXPECT_TRUE(ugal_prefers_min(1ULL << 40, 3, 1ULL << 40, 6, 0));  // no 32-bit overflow
}

TEST(Piggyback, SaturationIsStrictlyAboveCgTimesAveragePlusTg) {
  // 4 global links, occupancies sum 40 (average 10): threshold 1.2 * 10 + 5 = 17.
  EXPECT_FALSE(pb_saturated(17, 40, 4, 120, 5));
  EXPECT_TRUE(pb_saturated(18, 40, 4, 120, 5));
  EXPECT_FALSE(pb_saturated(0, 0, 4, 120, 5));  // idle switch: nothing saturated
  EXPECT_FALSE(pb_saturated(5, 5, 1, 120, 5));  // a single link never exceeds 1.2x itself + 5
  EXPECT_TRUE(pb_saturated(1, 0, 2, 120, 0));   // T_g = 0: any queue above an empty average
}

TEST(Congestion, DelayedTableReadsTheValueAsOfTheEndOfThePreviousCycle) {
  DelayedTable t;
  t.resize(2);
  t.write(0, 5, 10);
  EXPECT_EQ(t.read(0, 10), 0u);  // same cycle: the old value, whoever ran first
  EXPECT_EQ(t.read(0, 11), 5u);
  t.write(0, 7, 11);
  t.write(0, 9, 11);
  EXPECT_EQ(t.read(0, 11), 5u);
  EXPECT_EQ(t.read(0, 12), 9u);
}

TEST(Congestion, SaturationFlagsReachTheGroupAfterTheDelay) {
  SatFlagTable f(36, 2, 10);
  f.publish(3, 1, true, 100);
  EXPECT_FALSE(f.seen(3, 1, 109));
  EXPECT_TRUE(f.seen(3, 1, 110));
  f.publish(3, 1, false, 120);
  EXPECT_TRUE(f.seen(3, 1, 129));
  EXPECT_FALSE(f.seen(3, 1, 130));
  // Toggling every cycle is remembered exactly for the last `delay` cycles.
  for (uint64_t c = 200; c < 260; ++c) f.publish(4, 0, c % 2 == 1, c);
  for (uint64_t c = 251; c < 260; ++c) EXPECT_EQ(f.seen(4, 0, c + 10), c % 2 == 1) << c;
  EXPECT_FALSE(f.seen(5, 0, 1000));
}

TEST(Ugal, LocalChoiceFollowsTheFirstHopQueues) {
  const Dragonfly t = tiny();
  RoutingParams prm;
  const RoutingUnit u(RoutingAlgo::UgalL, t, prm);
  FakeLoad load(t);
  Rng rng(1, StreamKind::Traffic, 0);
  RouteContext ctx;
  ctx.view = &load.view;
  // Switch 0 -> a node in group 4: empty queues, always minimal.
  int nonmin = 0;
  for (int n = 0; n < 200; ++n) {
    RouteHeader h = to(t, 4 * 8 + 3);
    u.route(0, 0, h, rng, ctx);
    nonmin += h.nonminimal;
  }
  EXPECT_EQ(nonmin, 0);
  // Load every port of switch 0 except one local port: packets whose minimal first hop is
  // loaded go Valiant when the Valiant first hop is that free port.
  for (int p = t.p(); p < t.radix(); ++p) load.out[static_cast<size_t>(p)] = 100;
  load.out[static_cast<size_t>(t.p())] = 0;  // local port to switch 1 stays free
  nonmin = 0;
  for (int n = 0; n < 400; ++n) {
    RouteHeader h = to(t, 4 * 8 + 3);
    const RouteDecision d = u.route(0, 0, h, rng, ctx);
    nonmin += h.nonminimal;
    if (h.nonminimal) {
      EXPECT_EQ(d.port, t.p());  // chose the free port
    }
  }
  EXPECT_GT(nonmin, 20);
  EXPECT_LT(nonmin, 400);
}

TEST(Ugal, ParTurnsNonMinimalAtTheSecondSwitchWithOneMoreLocalVc) {
  const Dragonfly t = tiny();
  RoutingParams prm;
  const RoutingUnit u(RoutingAlgo::Par, t, prm);
  EXPECT_EQ(required_vcs(RoutingAlgo::Par).local, 5);
  FakeLoad quiet(t), busy(t);
  for (int p = t.p(); p < t.radix(); ++p) busy.out[static_cast<size_t>(p)] = 60;
  Rng rng(2, StreamKind::Traffic, 0);
  int turned = 0;
  for (int n = 0; n < 300; ++n) {
    // Source switch 0, destination group 2 via a local hop to switch 3, which owns the link.
    RouteHeader h = to(t, 2 * 8 + 1);
    RouteContext c1;
    c1.view = &quiet.view;
    const RouteDecision d1 = u.route(0, 0, h, rng, c1);
    if (t.port_class(d1.port) != PortClass::Local) continue;
    ASSERT_FALSE(h.nonminimal);
    ASSERT_EQ(d1.vc, 0);
    ASSERT_EQ(h.par_pending, 1);
    // Second switch: its minimal port (the global link) is congested, one local port free.
    const int s2 = t.switch_id(0, t.local_neighbor(0, d1.port));
    const int in2 = t.local_port(t.index_of(s2), 0);
    FakeLoad second(t);
    for (int p = t.p(); p < t.radix(); ++p) second.out[static_cast<size_t>(p)] = 60;
    second.out[static_cast<size_t>(t.p())] = 0;
    RouteContext c2;
    c2.view = &second.view;
    const RouteDecision d2 = u.route(s2, in2, h, rng, c2);
    EXPECT_EQ(h.par_pending, 0);
    if (!h.nonminimal) continue;
    ++turned;
    EXPECT_EQ(h.vc_shift, 1);
    if (t.port_class(d2.port) == PortClass::Local) {
      EXPECT_GE(d2.vc, 1);  // above the first hop's VC 0
    }
    EXPECT_LE(d2.vc, 4);
  }
  EXPECT_GT(turned, 10);
  (void)busy;
}

// UGAL-G sums the queues of every hop of each candidate path from the global table (one
// cycle old): a queue on the minimal path's last local hop, in the destination group and
// invisible to UGAL-L's first-hop view, sends most packets Valiant; the same queue
// published in the current cycle is not seen yet; a queue on a port off every minimal path
// to that destination changes nothing.
TEST(Ugal, GlobalSumsTheQueuesAlongTheWholePath) {
  const Dragonfly t = tiny();
  RoutingParams prm;
  const RoutingUnit ugal_g(RoutingAlgo::UgalG, t, prm), ugal_l(RoutingAlgo::UgalL, t, prm),
      min(RoutingAlgo::Min, t, prm);
  NetworkLoad table(t.num_switches(), t.radix());
  FakeLoad load(t);
  load.view.global = &table;
  RouteContext ctx;
  ctx.view = &load.view;
  Rng rng(6, StreamKind::Traffic, 0);
  // The minimal path from node 0 (switch 0) to a node of group 4 not on its entry switch.
  int dst = -1;
  std::vector<std::pair<int, int>> hops;  // (switch, output port)
  for (int node = 4 * 8; node < 5 * 8 && dst < 0; ++node) {
    hops.clear();
    RouteHeader h = to(t, node);
    int at = 0, in = 0;
    for (int k = 0; k < 8; ++k) {
      const RouteDecision d = min.route(at, in, h, rng, ctx);
      if (t.port_class(d.port) == PortClass::Host) break;
      hops.push_back({at, d.port});
      const PortEnd far = t.neighbor(at, d.port);
      at = far.sw;
      in = far.port;
    }
    if (hops.size() == 3) dst = node;  // local, global, local
  }
  ASSERT_GE(dst, 0);
  const auto [last_sw, last_port] = hops.back();
  ASSERT_EQ(last_sw / t.a(), 4);
  auto nonmin_of = [&](const RoutingUnit& u, uint64_t now) {
    load.view.now = now;
    int n = 0;
    for (int k = 0; k < 400; ++k) {
      RouteHeader h = to(t, dst);
      u.route(0, 0, h, rng, ctx);
      n += h.nonminimal;
    }
    return n;
  };
  EXPECT_EQ(nonmin_of(ugal_g, 10), 0);  // every queue empty: minimal
  table.publish(last_sw, last_port, 200, 10);
  EXPECT_EQ(nonmin_of(ugal_g, 10), 0) << "a value of the current cycle was seen";
  EXPECT_GT(nonmin_of(ugal_g, 11), 200) << "the queue on the last hop did not count";
  EXPECT_EQ(nonmin_of(ugal_l, 11), 0) << "UGAL-L cannot see past its first hop";
  // The same queue moved to the other local port of that switch (on no minimal path from
  // group 0 to dst): UGAL-G stays minimal.
  table.publish(last_sw, last_port, 0, 12);
  const int other = last_port == t.p() ? t.p() + 1 : t.p();
  table.publish(last_sw, other, 200, 12);
  EXPECT_EQ(nonmin_of(ugal_g, 13), 0);
}

TEST(Piggyback, SaturatedMinimalLinkSendsPacketsValiant) {
  const Dragonfly t = tiny();
  RoutingParams prm;
  const RoutingUnit u(RoutingAlgo::Pb, t, prm);
  SatFlagTable flags(t.num_switches(), t.h(), 10);
  FakeLoad load(t);
  load.view.flags = &flags;
  Rng rng(4, StreamKind::Traffic, 0);
  // Node 0 (switch 0) -> group 2: the minimal exit is a link of switch 3 (palmtree).
  RouteHeader probe = to(t, 2 * 8);
  RouteContext ctx;
  ctx.view = &load.view;
  u.route(0, 0, probe, rng, ctx);
  ASSERT_FALSE(probe.nonminimal);
  ASSERT_GE(probe.exit_switch, 0);
  const int owner = probe.exit_switch, j = probe.exit_port - t.first_global_port();
  flags.publish(owner, j, true, 50);
  for (uint64_t now : {55ULL, 60ULL}) {
    load.view.now = now;
    int nonmin = 0;
    for (int n = 0; n < 50; ++n) {
      RouteHeader h = to(t, 2 * 8);
      u.route(0, 0, h, rng, ctx);
      nonmin += h.nonminimal;
    }
    if (now < 60) EXPECT_EQ(nonmin, 0) << "flag visible before the delay";
    else EXPECT_EQ(nonmin, 50) << "flag not honoured after the delay";
  }
  // The source switch's own flag applies at once: group 8 is reached by its global port 0.
  RouteHeader own = to(t, 8 * 8);
  const RouteDecision d = u.route(0, 0, own, rng, ctx);
  ASSERT_EQ(d.port, t.first_global_port());
  ASSERT_FALSE(own.nonminimal);
  load.flags[0] = 1;
  for (int n = 0; n < 20; ++n) {
    RouteHeader h = to(t, 8 * 8);
    u.route(0, 0, h, rng, ctx);
    EXPECT_TRUE(h.nonminimal);
  }
}

TEST(UgalConfig, KeysParseValidateAndEcho) {
  const SimConfig c = parse_config_text(
      "routing: pb-acor\nugal: {threshold: -4, occupancy: credits}\npb: {cg: 150, tg: 3, delay: 7}", {});
  EXPECT_EQ(c.routing_prm.ugal.threshold, -4);
  EXPECT_EQ(c.routing_prm.ugal.measure, QueueMeasure::Credits);
  EXPECT_EQ(c.routing_prm.pb.cg, 150u);
  EXPECT_EQ(c.routing_prm.pb.delay, 7u);
  EXPECT_EQ(c.routing_prm.acor.ctrl.it[1], 50u);  // PB-ACOR's Table 3 IT2
  EXPECT_EQ(parse_config_text("routing: acor-switch", {}).routing_prm.acor.ctrl.it[1], 500u);
  EXPECT_EQ(parse_config_text("routing: pb", {}).routing_prm.pb.delay, 10u);  // local latency
  EXPECT_EQ(parse_config_text("routing: par", {}).sw.vcs[1], 5);
  const auto j = config_to_json(c);
  EXPECT_EQ(config_to_json(parse_config_text(j.dump(), {})), j);
  for (const auto& [ov, key] : std::vector<std::pair<std::string, std::string>>{
           {"ugal.occupancy=queue", "ugal.occupancy"}, {"pb.cg=0", "pb.cg"}, {"pb.tg=-1", "pb.tg"},
           {"ugal.threshold=x", "ugal.threshold"}, {"pb.delay=0", "pb.delay"}}) {
    try {
      parse_config_text("routing: ugal-l", {ov});
      ADD_FAILURE() << ov;
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
    }
  }
  try {
    parse_config_text("routing: par\nswitch: {vcs: {local: 4}}", {});
    ADD_FAILURE() << "PAR with 4 local VCs accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("switch.vcs.local"), std::string::npos);
  }
}


// ---- The T-UGAL paper's baseline options (ugal.h: ugal.intermediate, ugal.segment_link,
// ugal.multiplier).
namespace {
struct Walk {
  std::vector<std::pair<int, int>> hops;  // (switch, output port) of every switch-to-switch hop
  RouteHeader first;                      // the header after the source's decision
};
// Routes a packet from host 0 of switch `src` to node `dst` through `u`, switch by switch.
Walk walk(const Dragonfly& t, const RoutingUnit& u, int src, int dst, Rng& rng, const RouteContext& ctx) {
  Walk w;
  RouteHeader h = to(t, dst);
  int at = src, in = 0;
  for (int k = 0; k < 12; ++k) {
    const RouteDecision d = u.route(at, in, h, rng, ctx);
    if (k == 0) w.first = h;
    if (t.port_class(d.port) == PortClass::Host) break;
    w.hops.push_back({at, d.port});
    const PortEnd far = t.neighbor(at, d.port);
    at = far.sw;
    in = far.port;
  }
  EXPECT_EQ(at, t.switch_of_node(dst));
  return w;
}
}  // namespace

TEST(UgalBaseline, OtherGroupsDrawsUniformlyOutsideTheSourceAndDestinationGroups) {
  const Dragonfly t = tiny();  // g = 9, a = 4: 7 x 4 = 28 candidate intermediates
  RoutingParams prm;
  prm.ugal.threshold = kThresholdMin;  // always the Valiant candidate
  prm.ugal.intermediate = UgalIntermediate::OtherGroups;
  const RoutingUnit u(RoutingAlgo::UgalL, t, prm);
  FakeLoad load(t);
  RouteContext ctx;
  ctx.view = &load.view;
  Rng rng(3, StreamKind::Traffic, 0);
  std::vector<int> seen(static_cast<size_t>(t.num_switches()), 0);
  const int dst = 4 * 8 + 5;  // switch 18, group 4
  for (int n = 0; n < 5600; ++n) {
    const Walk w = walk(t, u, 1, dst, rng, ctx);
    ASSERT_TRUE(w.first.nonminimal);
    const int g = t.group_of(w.first.inter_switch);
    ASSERT_NE(g, 0);
    ASSERT_NE(g, 4);
    ++seen[static_cast<size_t>(w.first.inter_switch)];
    EXPECT_LE(w.hops.size(), 6u);
  }
  for (int sw = 0; sw < t.num_switches(); ++sw) {
    const int g = t.group_of(sw);
    if (g == 0 || g == 4) continue;
    EXPECT_GT(seen[static_cast<size_t>(sw)], 140) << sw;  // 200 expected, sigma 14
    EXPECT_LT(seen[static_cast<size_t>(sw)], 260) << sw;
  }
  // An intra-group pair misroutes through another switch of its group.
  for (int n = 0; n < 200; ++n) {
    const Walk w = walk(t, u, 1, 3 * 2 + 1, rng, ctx);  // switch 1 -> switch 3, group 0
    ASSERT_TRUE(w.first.nonminimal);
    EXPECT_EQ(t.group_of(w.first.inter_switch), 0);
    EXPECT_NE(w.first.inter_switch, 1);
    EXPECT_NE(w.first.inter_switch, 3);
    EXPECT_EQ(w.hops.size(), 2u);
  }
}

TEST(UgalBaseline, RandomSegmentLinksUseEveryLinkOfTheGroupPair) {
  // Absolute dfly(2,4,2,5): a*h/(g-1) = 2 global links join every group pair.
  const Dragonfly t(DragonflyShape{2, 4, 2, 5, Arrangement::Absolute});
  ASSERT_EQ(t.links_per_group_pair(), 2);
  FakeLoad load(t);
  RouteContext ctx;
  ctx.view = &load.view;
  Rng rng(4, StreamKind::Traffic, 0);
  // Minimal packets from a switch that owns one of the two links toward a group: fewest-hop
  // exits always take that link; random exits take either, half the time each.
  const GlobalLinkEnd* links = t.links_between(0, 2);
  const int src = links[0].sw;
  const int dst_sw = t.global_peer(links[0].sw, links[0].port).sw, dst = dst_sw * t.p();
  for (const SegmentLink mode : {SegmentLink::Shortest, SegmentLink::Random}) {
    RoutingParams prm;
    prm.ugal.threshold = kThresholdMax;  // always the minimal candidate
    prm.ugal.segment_link = mode;
    const RoutingUnit u(RoutingAlgo::UgalL, t, prm);
    int via0 = 0, via1 = 0;
    for (int n = 0; n < 1000; ++n) {
      const Walk w = walk(t, u, src, dst, rng, ctx);
      for (const auto& [sw, port] : w.hops)
        if (t.port_class(port) == PortClass::Global) {
          via0 += sw == links[0].sw && port == links[0].port;
          via1 += sw == links[1].sw && port == links[1].port;
        }
    }
    EXPECT_EQ(via0 + via1, 1000);
    if (mode == SegmentLink::Shortest) {
      EXPECT_EQ(via0, 1000);  // one hop, the link owned here and landing on the destination
    } else {
      EXPECT_GT(via0, 430);
      EXPECT_GT(via1, 430);
    }
  }
  // Valiant packets: both segments' links uniform; the second one, drawn at the source,
  // is the one taken.
  RoutingParams prm;
  prm.ugal.threshold = kThresholdMin;  // always the Valiant candidate
  prm.ugal.segment_link = SegmentLink::Random;
  prm.ugal.intermediate = UgalIntermediate::OtherGroups;
  const RoutingUnit u(RoutingAlgo::UgalL, t, prm);
  int second[2] = {0, 0}, vlb = 0;
  for (int n = 0; n < 2000; ++n) {
    const Walk w = walk(t, u, 0, 2 * 8 + 1, rng, ctx);
    std::vector<std::pair<int, int>> globals;
    for (const auto& hp : w.hops)
      if (t.port_class(hp.second) == PortClass::Global) globals.push_back(hp);
    ASSERT_EQ(globals.size(), 2u);
    const int gi = t.group_of(w.first.inter_switch);
    const GlobalLinkEnd* seg2 = t.links_between(gi, 2);
    const int k = globals[1].first == seg2[0].sw && globals[1].second == seg2[0].port ? 0 : 1;
    EXPECT_TRUE(k == 0 || (globals[1].first == seg2[1].sw && globals[1].second == seg2[1].port));
    EXPECT_EQ(k, w.first.seg2_link);  // the link drawn at the source is the link taken
    ++second[k];
    ++vlb;
    EXPECT_LE(w.hops.size(), 6u);
  }
  EXPECT_GT(second[0], vlb * 4 / 10);
  EXPECT_GT(second[1], vlb * 4 / 10);
}

TEST(UgalBaseline, OneVsTwoComparesQueuesWithoutHopCounts) {
  const Dragonfly t = tiny();
  FakeLoad load(t);
  RouteContext ctx;
  ctx.view = &load.view;
  Rng rng(5, StreamKind::Traffic, 0);
  // The minimal first hop from switch 0 toward a node of group 4.
  RoutingParams pmin;
  const RoutingUnit mu(RoutingAlgo::Min, t, pmin);
  RouteHeader h0 = to(t, 4 * 8 + 3);
  const int min_port = mu.route(0, 0, h0, rng, ctx).port;
  for (int p = t.p(); p < t.radix(); ++p) load.out[static_cast<size_t>(p)] = 100;
  auto nonmin = [&](UgalMultiplier m, uint32_t q_min) {
    load.out[static_cast<size_t>(min_port)] = q_min;
    RoutingParams prm;
    prm.ugal.multiplier = m;
    const RoutingUnit u(RoutingAlgo::UgalL, t, prm);
    int n = 0;
    for (int k = 0; k < 400; ++k) {
      RouteHeader h = to(t, 4 * 8 + 3);
      u.route(0, 0, h, rng, ctx);
      n += h.nonminimal;
    }
    return n;
  };
  // q_min 190 vs 100 elsewhere: 190 <= 2 x 100 keeps every packet minimal under one-vs-two,
  // while 190 x H_min > 100 x H_vlb sends every Valiant candidate shorter than 1.9 H_min
  // away under hops.
  EXPECT_EQ(nonmin(UgalMultiplier::OneVsTwo, 190), 0);
  EXPECT_GT(nonmin(UgalMultiplier::Hops, 190), 5);
  // q_min 250 > 2 x 100: one-vs-two prefers any Valiant candidate not leaving by that port.
  EXPECT_GT(nonmin(UgalMultiplier::OneVsTwo, 250), 200);
}

TEST(UgalBaseline, KeysParseValidateAndEchoOnlyAwayFromTheDefaults) {
  const SimConfig d = parse_config_text("routing: ugal-l", {});
  const nlohmann::json jd = config_to_json(d);
  EXPECT_FALSE(jd["ugal"].contains("intermediate"));
  EXPECT_FALSE(jd["ugal"].contains("segment_link"));
  EXPECT_FALSE(jd["ugal"].contains("multiplier"));
  const SimConfig c = parse_config_text(
      "routing: par\nugal: {intermediate: other-groups, segment_link: random, multiplier: one-vs-two}", {});
  EXPECT_EQ(c.routing_prm.ugal.intermediate, UgalIntermediate::OtherGroups);
  EXPECT_EQ(c.routing_prm.ugal.segment_link, SegmentLink::Random);
  EXPECT_EQ(c.routing_prm.ugal.multiplier, UgalMultiplier::OneVsTwo);
  const nlohmann::json j = config_to_json(c);
  EXPECT_EQ(j["ugal"]["intermediate"], "other-groups");
  EXPECT_EQ(j["ugal"]["segment_link"], "random");
  EXPECT_EQ(j["ugal"]["multiplier"], "one-vs-two");
  EXPECT_EQ(config_to_json(parse_config_text(j.dump(), {})), j);
  EXPECT_NE(config_error_of("routing: pb-acor\nugal: {intermediate: other-groups}").find("pb-acor"), std::string::npos);
  EXPECT_NE(config_error_of("routing: ugal-l\nval: {policy: crg-gr}\nugal: {intermediate: other-groups}").find("val.policy"),
            std::string::npos);
  EXPECT_NE(config_error_of("ugal: {segment_link: longest}").find("shortest (a fewest-hop global link) or random"),
            std::string::npos);
  // tugal.par_set: echoed away from current; source needs PAR with a T-VLB set.
  EXPECT_FALSE(config_to_json(parse_config_text("routing: t-par", {})).contains("tugal"));
  const SimConfig ps = parse_config_text("routing: t-par\ntugal: {par_set: source}", {});
  EXPECT_EQ(ps.routing_prm.ugal.par_set, ParSet::Source);
  EXPECT_EQ(config_to_json(ps)["tugal"]["par_set"], "source");
  for (const char* bad : {"routing: t-ugal-l\ntugal: {par_set: source}", "routing: par\ntugal: {par_set: source}"})
    EXPECT_NE(config_error_of(bad).find("config key 'tugal.par_set': value 'source' needs PAR with a T-VLB set"),
              std::string::npos)
        << bad;
  EXPECT_NE(config_error_of("routing: t-par\ntugal: {par_set: here}").find("current"), std::string::npos);
}

}  // namespace scfly

namespace scfly {
namespace {
// ugal.occupancy_scope: vc: a switch that reports one output VC as loaded.
struct OneLoadedVc {
  int port, vc;
  static uint32_t at(const void* self, int port, int vc, QueueMeasure) {
    const auto* s = static_cast<const OneLoadedVc*>(self);
    return port == s->port && vc == s->vc ? 1000u : 0u;
  }
};
}  // namespace

// ugal.occupancy_scope: vc (FOGSim): the comparison reads the output VC each candidate would
// take, through SwitchLoad::at_vc, and nothing else of the port: a loaded minimal (port, VC)
// sends the packets Valiant (unless their Valiant first hop is that VC too), the same port's other VC
// loaded changes nothing, and without vc_fn the per-port sums (all 0 here) rule.
TEST(UgalBaseline, PerVcScopeReadsOnlyTheCandidatesOutputVc) {
  const Dragonfly t = tiny();
  FakeLoad load(t);
  RouteContext ctx;
  ctx.view = &load.view;
  Rng rng(7, StreamKind::Traffic, 0);
  RoutingParams prm;
  prm.ugal.per_vc = true;
  const RoutingUnit u(RoutingAlgo::UgalL, t, prm);
  RouteHeader h0 = to(t, 4 * 8 + 3);
  RoutingParams pmin;
  const RouteDecision mn = RoutingUnit(RoutingAlgo::Min, t, pmin).route(0, 0, h0, rng, ctx);
  auto nonmin = [&](const OneLoadedVc* loaded) {
    load.view.local.vc_fn = loaded ? &OneLoadedVc::at : nullptr;
    load.view.local.vc_ctx = loaded;
    int n = 0;
    for (int k = 0; k < 400; ++k) {
      RouteHeader h = to(t, 4 * 8 + 3);
      const RouteDecision d = u.route(0, 0, h, rng, ctx);
      n += h.nonminimal;
      if (h.nonminimal && loaded) {
        EXPECT_FALSE(d.port == loaded->port && d.vc == loaded->vc);
      }
    }
    return n;
  };
  const OneLoadedVc min_vc{mn.port, mn.vc}, other_vc{mn.port, mn.vc + 1};
  EXPECT_EQ(nonmin(nullptr), 0);
  EXPECT_GT(nonmin(&min_vc), 200);  // those whose Valiant first hop is the same VC stay minimal
  EXPECT_EQ(nonmin(&other_vc), 0);
}

}  // namespace scfly
