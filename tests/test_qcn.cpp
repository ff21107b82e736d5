// QCN-Switch's arithmetic (routing_units/qcn.h) on values worked out by hand from the
// QCN-Switch paper's formulas and FOGSim's quantization, and MIN-COND's table
// (routing_units/min_cond.h): semantics at injection vs in transit, the host-to-port rule
// for p != h, and the L G L G L VC order on every path through the real wiring.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "routing_units/min_cond.h"
#include "routing_units/minimal.h"
#include "routing_units/misrouting.h"
#include "routing_units/qcn.h"
#include "tb/stats.h"
#include "topologies/common/rng.h"
#include "topologies/dragonfly.h"

namespace scfly {
namespace {

// ---- Feedback: sec. 2.3, FOGSim's quantization, Q_eq = 20 packets, w = 0 (Table I) ----------

TEST(QcnFeedback, SpecWorkedValues) {
  // Q <= Q_eq -> 0; Q = 21 -> 3; Q = 30 -> 31; Q = 39 -> 59; Q >= 40 (2 Q_eq) -> 63.
  EXPECT_EQ(qcn_feedback(0, 0, 20, 0), 0u);
  EXPECT_EQ(qcn_feedback(20, 0, 20, 0), 0u);
  EXPECT_EQ(qcn_feedback(21, 0, 20, 0), 3u);
  EXPECT_EQ(qcn_feedback(30, 0, 20, 0), 31u);
  EXPECT_EQ(qcn_feedback(39, 0, 20, 0), 59u);
  EXPECT_EQ(qcn_feedback(40, 0, 20, 0), 63u);
  EXPECT_EQ(qcn_feedback(100000, 0, 20, 0), 63u);
  // In phits the same: 200-phit packets, Q_eq = 4,000 phits.
  EXPECT_EQ(qcn_feedback(21 * 200, 0, 4000, 0), 3u);
  EXPECT_EQ(qcn_feedback(30 * 200, 0, 4000, 0), 31u);
}

TEST(QcnFeedback, WeightAndQuantizationEdges) {
  // w = 2 (QCN's default): raw = Q_off + 2 Q_delta, span = Q_eq (1 + 2w) = 5 Q_eq.
  EXPECT_EQ(qcn_feedback(25, 20, 20, 2), 63u * 15 / 100);  // 5 + 2*5 = 15 of 100 -> 9
  EXPECT_EQ(qcn_feedback(25, 40, 20, 2), 0u);              // a draining queue: 5 - 30 < 0
  EXPECT_EQ(qcn_feedback(120, 20, 20, 2), 63u);            // 100 + 200 clamped to 100
  // Levels: 63 only at the full span; one phit below is 62 when the span is 64.
  EXPECT_EQ(qcn_feedback(64 + 63, 0, 64, 0), 62u);
  EXPECT_EQ(qcn_feedback(64 + 64, 0, 64, 0), 63u);
  EXPECT_EQ(qcn_feedback(64 + 1, 0, 64, 0), 0u);  // floor(63/64)
  EXPECT_EQ(qcn_feedback(64 + 2, 0, 64, 0), 1u);
  // Every value fits 6 bits and never decreases with Q.
  uint32_t last = 0;
  for (uint32_t q = 0; q < 200; ++q) {
    const uint32_t fb = qcn_feedback(q, 0, 37, 0);
    EXPECT_LE(fb, 63u);
    EXPECT_GE(fb, last);
    last = fb;
  }
}

// ---- Port probabilities: AIMD, PC_l increase, feedback comparison ---------------------------

constexpr double kPct = kQcnOne;

TEST(QcnPorts, BaseAimdDecrease) {
  QcnParams q;
  q.feedback_comparison = false;
  QcnPortTable t(6, 17, q);
  EXPECT_EQ(t.p(6), kQcnMax);
  t.on_cnm(7, 63);  // 1 - 63/64: P = 100/64 % = 1.5625 %
  EXPECT_EQ(t.p(7), kQcnMax / 64);
  EXPECT_EQ(t.percent(7), 1);
  t.on_cnm(8, 60);  // the paper's Fig. 4 value: 1 - 60/64 = 0.0625
  EXPECT_DOUBLE_EQ(t.p(8) / kPct, 6.25);
  t.on_cnm(9, 0);   // no congestion: no change
  EXPECT_EQ(t.p(9), kQcnMax);
  EXPECT_EQ(t.p(6), kQcnMax);  // other ports untouched
  // L_f = 1/128: at most halved.
  q.lf_den = 128;
  QcnPortTable h(6, 17, q);
  h.on_cnm(6, 63);
  EXPECT_EQ(h.p(6), kQcnMax / 128 * 65);
  // The floor.
  q.lf_den = 64;
  q.p_min = 5 * kQcnOne;
  QcnPortTable f(6, 17, q);
  f.on_cnm(6, 63);
  EXPECT_EQ(f.p(6), 5 * kQcnOne);
  // An L_f above 1/64 clamps the factor at 0 (then the floor).
  q.lf_den = 32;
  q.p_min = 0;
  QcnPortTable big(6, 17, q);
  big.on_cnm(6, 40);
  EXPECT_EQ(big.p(6), 0u);
}

TEST(QcnPorts, IncreaseEveryPcLPacketsAndCounterResetOnCnm) {
  QcnParams q;
  q.feedback_comparison = false;
  q.pc_limit = 100;
  QcnPortTable t(2, 5, q);
  t.on_cnm(3, 63);
  const uint32_t low = t.p(3);
  t.on_packets(3, 99);
  EXPECT_EQ(t.p(3), low);
  t.on_packets(3, 1);  // the 100th packet: +PI (1 point)
  EXPECT_EQ(t.p(3), low + kQcnOne);
  EXPECT_EQ(t.counter(3), 0u);
  t.on_packets(3, 99);
  t.on_cnm(3, 0);      // a CNM restarts the count even when it changes nothing
  t.on_packets(3, 1);
  EXPECT_EQ(t.p(3), low + kQcnOne);
  t.on_packets(3, 250);  // 2 more increases, 51 counted
  EXPECT_EQ(t.p(3), low + 3 * kQcnOne);
  EXPECT_EQ(t.counter(3), 51u);
  // Capped at 100 %.
  t.on_packets(4, 100000);
  EXPECT_EQ(t.p(4), kQcnMax);
  // A fractional PI (0.5 point) in fixed point.
  q.pi = kQcnOne / 2;
  QcnPortTable h(2, 5, q);
  h.on_cnm(2, 63);
  h.on_packets(2, 200);
  EXPECT_EQ(h.p(2), kQcnMax / 64 + kQcnOne);
}

TEST(QcnPorts, FeedbackComparisonSpecWorkedCases) {
  // 17 transit ports (the paper's network), L_f = 1/64, Th1 = 0, Th2 = 30.
  QcnParams q;
  QcnPortTable adv(6, 17, q);
  // ADV: only one port notified, Fb = 63 -> avg = floor(63 / 17) = 3 -> P x (1 - 60/64).
  adv.on_cnm(6, 63);
  EXPECT_EQ(adv.fb_avg(), 3u);
  EXPECT_DOUBLE_EQ(adv.p(6) / kPct, 6.25);

  QcnPortTable un(6, 17, q);
  for (int port = 7; port < 23; ++port) un.on_cnm(port, 40);  // 16 ports at LastFb 40
  const uint32_t before = un.p(6);
  un.on_cnm(6, 60);  // sum 700 -> avg 41; 60 - 41 = 19 < Th2: unchanged
  EXPECT_EQ(un.fb_avg(), 41u);
  EXPECT_EQ(un.p(6), before);
  // Fb = 30 on a port at 60: sum 670 -> avg 39; 30 <= 39 - Th1: increase by PI.
  un.on_cnm(7, 63);  // first push port 7 below 100 so an increase is visible
  const uint32_t p7 = un.p(7);
  un.on_cnm(7, 30);
  EXPECT_EQ(un.p(7), qcn_increase(p7, kQcnOne));
}

TEST(QcnPorts, FeedbackComparisonWindowBoundaries) {
  // 4 ports; bring the average to exactly 10, then probe the window (avg - Th1, avg + Th2).
  QcnParams q;
  q.th1 = 2;
  q.th2 = 5;
  QcnPortTable t(0, 4, q);
  t.on_cnm(1, 40);  // sum 40, avg 10 (port 1 itself is decreased, ignore it)
  EXPECT_EQ(t.fb_avg(), 10u);
  auto probe = [&](uint32_t fb) {  // port 0 at LastFb 0: sum = 40 + fb
    QcnPortTable c = t;
    c.on_cnm(0, 63);  // start below 100 %
    c.on_cnm(0, 0);   // back to LastFb 0 (increase: 0 <= avg - Th1)
    const uint32_t p = c.p(0);
    c.on_cnm(0, fb);
    return std::make_pair(c.fb_avg(), static_cast<int64_t>(c.p(0)) - static_cast<int64_t>(p));
  };
  // fb = 8: avg = 12 -> 8 <= 12 - 2: increase.
  EXPECT_GT(probe(8).second, 0);
  // fb = 12: avg = 13 -> inside (11, 18): unchanged.
  EXPECT_EQ(probe(12).second, 0);
  // fb = 24: avg = 16 -> 24 >= 16 + 5: decrease by (1 - 8/64).
  EXPECT_EQ(probe(24).first, 16u);
  EXPECT_LT(probe(24).second, 0);
  // fb = 20: avg = 15 -> 20 = 15 + Th2, the closed boundary: decrease (paper's window).
  EXPECT_EQ(probe(20).first, 15u);
  EXPECT_LT(probe(20).second, 0);
  // fb = 19: avg = floor(59 / 4) = 14 -> 19 = 14 + Th2 again: decrease; fb = 18: unchanged.
  EXPECT_LT(probe(19).second, 0);
  EXPECT_EQ(probe(18).first, 14u);
  EXPECT_EQ(probe(18).second, 0);
}

TEST(QcnCongestionPoint, SamplesOneInCpcPackets) {
  QcnCongestionPoint cp;
  int samples = 0;
  for (int i = 0; i < 1000; ++i) samples += cp.count(1, 100);
  EXPECT_EQ(samples, 10);
  // Two packets in one cycle crossing the boundary: one sample, the remainder kept.
  QcnCongestionPoint c2;
  EXPECT_FALSE(c2.count(99, 100));
  EXPECT_TRUE(c2.count(2, 100));
  EXPECT_EQ(*c2.count_ptr(), 1u);
  // Q_old follows the samples (w = 2 sees the trend).
  EXPECT_EQ(c2.sample(30, 20, 2), qcn_feedback(30, 0, 20, 2));
  EXPECT_EQ(c2.sample(30, 20, 2), qcn_feedback(30, 30, 20, 2));
}

// ---- MIN-COND table ---------------------------------------------------------------------------

TEST(MinCondTable, HostToPortRule) {
  // p = h: host i -> global port i.
  for (int x : {1, 2, 4}) {
    const Dragonfly t(DragonflyShape{x, 2 * x, x, 2 * x * x + 1, Arrangement::Palmtree});
    for (int i = 0; i < x; ++i) EXPECT_EQ(min_cond_misroute_ports(t, i), std::vector<int>{t.first_global_port() + i});
  }
  // Any p, h: every host gets at least one own global port, every port is used, and the load
  // is as even as integer division allows.
  for (int p = 1; p <= 7; ++p)
    for (int h = 1; h <= 7; ++h) {
      const Dragonfly t(DragonflyShape{p, 2, h, 2 * h + 1, Arrangement::Palmtree});
      std::vector<int> hosts_per_port(static_cast<size_t>(h), 0);
      std::vector<size_t> sizes;
      for (int i = 0; i < p; ++i) {
        const auto ports = min_cond_misroute_ports(t, i);
        ASSERT_FALSE(ports.empty()) << "p " << p << " h " << h << " host " << i;
        sizes.push_back(ports.size());
        for (int port : ports) {
          ASSERT_GE(port, t.first_global_port());
          ASSERT_LT(port, t.radix());
          ++hosts_per_port[static_cast<size_t>(port - t.first_global_port())];
        }
      }
      const auto [lo, hi] = std::minmax_element(hosts_per_port.begin(), hosts_per_port.end());
      EXPECT_GE(*lo, 1) << "p " << p << " h " << h << ": a global port no host misroutes through";
      EXPECT_LE(*hi - *lo, 1) << "p " << p << " h " << h;
      const auto [slo, shi] = std::minmax_element(sizes.begin(), sizes.end());
      EXPECT_LE(*shi - *slo, 1u) << "p " << p << " h " << h;
    }
}

RouteHeader header_to(const Dragonfly& t, int dst_node) {
  RouteHeader h;
  h.dst_switch = t.switch_of_node(dst_node);
  h.dst_host = static_cast<int16_t>(t.host_of_node(dst_node));
  return h;
}

TEST(MinCondTable, MisroutesAtInjectionExactlyWhenNExceedsP) {
  // The paper's Fig. 3: switch 0 of group 0 in dfly(2,4,2) under ADV; the port toward S_out
  // (switch 3, local port 4 here, the paper's port 5) at 10 %.
  const Dragonfly t(DragonflyShape{2, 4, 2, 9, Arrangement::Palmtree});
  ForwardingTable ft = build_min_cond_table(t, 0);
  const int to_sout = t.local_port(0, 3);
  ft.set_probability(to_sout, 10);
  const int dst = t.node_of(t.switch_id(1, 2), 1);  // a host of group 1
  int misrouted = 0;
  for (uint64_t seed = 0; seed < 400; ++seed) {
    for (int host = 0; host < 2; ++host) {
      Rng rng(seed, StreamKind::Switch, 0);
      Rng copy = rng;
      const uint32_t n = 1 + copy.below(100);  // the lookup's only draw
      RouteHeader h = header_to(t, dst);
      LookupInfo info;
      const RouteDecision d = ft.lookup(host, h, rng, &info);
      ASSERT_TRUE(info.drew_n);
      EXPECT_EQ(static_cast<uint32_t>(info.n), n);
      if (n > 10) {
        ++misrouted;
        EXPECT_EQ(d.port, t.first_global_port() + host);  // host i -> global port i
        EXPECT_EQ(d.vc, 0);
        EXPECT_TRUE(h.nonminimal);
        EXPECT_EQ(h.segment, 1);
        EXPECT_EQ(h.global_done, 0);
        EXPECT_EQ(h.policy, static_cast<uint8_t>(Misroute::CrgGr));
        EXPECT_TRUE(info.skipped);
        EXPECT_EQ(info.skipped_port, to_sout);
      } else {
        EXPECT_EQ(d.port, to_sout);
        EXPECT_EQ(d.vc, 0);
        EXPECT_FALSE(h.nonminimal);
        EXPECT_EQ(h.exit_switch, 3);  // the minimal entry pins S_out's link
      }
    }
  }
  EXPECT_NEAR(misrouted / 800.0, 0.9, 0.05);
}

TEST(MinCondTable, TransitAndIntraGroupAreAlwaysMinimal) {
  const Dragonfly t(DragonflyShape{2, 4, 2, 9, Arrangement::Palmtree});
  for (int sw = 0; sw < t.num_switches(); ++sw) {
    ForwardingTable ft = build_min_cond_table(t, sw);
    for (int port = t.p(); port < t.radix(); ++port) ft.set_probability(port, 0);
    Rng rng(7, StreamKind::Switch, static_cast<uint64_t>(sw));
    Rng ref(7, StreamKind::Switch, static_cast<uint64_t>(sw));
    for (int dst = 0; dst < t.num_nodes(); ++dst) {
      // Transit: a head arriving on any local or global port routes minimally (one match),
      // without a draw, whatever the probabilities.
      for (int in = t.p(); in < t.radix(); ++in) {
        RouteHeader h = header_to(t, dst), hm = h;
        LookupInfo info;
        const RouteDecision d = ft.lookup(in, h, rng, &info);
        const RouteDecision m = route_min(t, sw, hm, ref, nullptr);
        EXPECT_EQ(d.port, m.port);
        EXPECT_FALSE(info.drew_n);
        EXPECT_FALSE(h.nonminimal);
      }
      // Injection toward the own group: unconditional, minimal, no draw.
      if (t.group_of(t.switch_of_node(dst)) == t.group_of(sw)) {
        RouteHeader h = header_to(t, dst), hm = h;
        LookupInfo info;
        const RouteDecision d = ft.lookup(0, h, rng, &info);
        EXPECT_EQ(d.port, route_min(t, sw, hm, ref, nullptr).port);
        EXPECT_FALSE(info.drew_n);
      } else {
        // Toward another group with every P at 0: always the host's global port.
        RouteHeader h = header_to(t, dst);
        const RouteDecision d = ft.lookup(1, h, rng);
        EXPECT_EQ(d.port, t.first_global_port() + 1);
        EXPECT_TRUE(h.nonminimal);
      }
    }
  }
}

// Walks a packet from `src_node` to `dst_node` through the tables and the real wiring; the
// VCs taken per hop are appended to `vcs` as (is_global, vc). False if it does not arrive.
bool walk(const Dragonfly& t, std::vector<ForwardingTable>& tables, int src_node, int dst_node, Rng& rng,
          std::vector<std::pair<bool, int>>& vcs, bool& nonmin) {
  RouteHeader h = header_to(t, dst_node);
  int sw = t.switch_of_node(src_node), in = t.host_of_node(src_node);
  for (int hops = 0; hops < 8; ++hops) {
    const RouteDecision d = tables[static_cast<size_t>(sw)].lookup(in, h, rng);
    if (d.port < 0) return false;
    if (d.port < t.p()) {
      nonmin = h.nonminimal;
      return sw == t.switch_of_node(dst_node) && d.port == t.host_of_node(dst_node);
    }
    vcs.push_back({t.port_class(d.port) == PortClass::Global, d.vc});
    const PortEnd far = t.neighbor(sw, d.port);
    sw = far.sw;
    in = far.port;
  }
  return false;
}

TEST(MinCondTable, EveryPathIsOrderedLGLGL) {
  // All P at 0 (every inter-group packet misrouted) and at 100 (none): every (source, dest)
  // arrives, using local VCs 0..2 and global VCs 0..1 in the order L0 G0 L1 G1 L2.
  for (const DragonflyShape& s : {DragonflyShape{2, 4, 2, 9, Arrangement::Palmtree},
                                  DragonflyShape{3, 4, 2, 9, Arrangement::Palmtree},
                                  DragonflyShape{2, 4, 3, 13, Arrangement::Palmtree},
                                  DragonflyShape{2, 4, 2, 5, Arrangement::Absolute}}) {
    const Dragonfly t(s);
    for (int pct : {0, 100}) {
      std::vector<ForwardingTable> tables;
      for (int sw = 0; sw < t.num_switches(); ++sw) {
        tables.push_back(build_min_cond_table(t, sw));
        for (int port = t.p(); port < t.radix(); ++port) tables.back().set_probability(port, pct);
      }
      Rng rng(3, StreamKind::Switch, 0);
      for (int src = 0; src < t.num_nodes(); ++src)
        for (int dst = 0; dst < t.num_nodes(); ++dst) {
          if (src == dst) continue;
          std::vector<std::pair<bool, int>> vcs;
          bool nonmin = false;
          ASSERT_TRUE(walk(t, tables, src, dst, rng, vcs, nonmin)) << t.describe() << " " << src << " -> " << dst;
          // Rank in L0 G0 L1 G1 L2: 2*vc for local, 2*vc+1 for global; strictly increasing.
          int last = -1;
          for (const auto& [global, vc] : vcs) {
            EXPECT_LE(vc, global ? 1 : 2);
            const int rank = 2 * vc + (global ? 1 : 0);
            EXPECT_GT(rank, last) << t.describe() << " " << src << " -> " << dst;
            last = rank;
          }
          const bool inter = t.group_of(t.switch_of_node(src)) != t.group_of(t.switch_of_node(dst));
          EXPECT_EQ(nonmin, pct == 0 && inter);
          if (pct == 100) {
            EXPECT_EQ(static_cast<int>(vcs.size()), minimal_distance(t, t.switch_of_node(src), t.switch_of_node(dst)));
          }
        }
    }
  }
}

}  // namespace
}  // namespace scfly

// ---- Reaction time (tb/stats.h), the metric of the paper's transients -------------------------

namespace scfly {
namespace {

TimeSeries series(const std::vector<double>& lat, uint64_t bin) {
  TimeSeries ts;
  ts.bin_cycles = bin;
  for (size_t b = 0; b < lat.size(); ++b) {
    ts.t_start.push_back(b * bin);
    ts.t_end.push_back((b + 1) * bin);
    ts.latency_inj_avg.push_back(lat[b]);
  }
  return ts;
}

TEST(ReactionTime, FromThePhaseChangeToTheFirstBinThatStaysInBand) {
  const double nan = std::nan("");
  // Phase 1 starts at bin 4 (cycle 400); latency settles at 200 from bin 7 on; the last bin
  // (in flight at the end) is ignored even though it is low.
  const TimeSeries ts = series({100, 100, 100, 100, 900, 500, 260, 205, 195, nan, 200, 202, 198, 50}, 100);
  const auto r = reaction_times(ts, {0, 400}, 1400);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].phase, 1u);
  // Second half of bins 4..12 = bins 8..12: mean(195, 200, 202, 198) = 198.75; 260 is out
  // of +-10 %, 205 in: the reaction ends at bin 7 = cycle 700, 300 cycles after the change.
  EXPECT_DOUBLE_EQ(r[0].steady_latency, 198.75);
  EXPECT_EQ(r[0].reaction_cycles, 300);
  // Bins whose packets were not all delivered by the end (inj_complete 0) are not judged:
  // their latency is biased low by the slow packets still in flight.
  TimeSeries partial = series({100, 100, 100, 100, 900, 500, 260, 205, 195, 200, 202, 198, 120, 90, 50}, 100);
  partial.inj_complete.assign(15, 1);
  partial.inj_complete[12] = partial.inj_complete[13] = 0;
  const auto rp = reaction_times(partial, {0, 400}, 1500);
  EXPECT_DOUBLE_EQ(rp[0].steady_latency, (200 + 202 + 198) / 3.0);  // second half 9..13, complete 9..11
  EXPECT_EQ(rp[0].reaction_cycles, 300);
  partial.inj_complete.assign(15, 1);  // judged as if complete, 120 and 90 fall out of band
  EXPECT_LT(reaction_times(partial, {0, 400}, 1500)[0].reaction_cycles, 0);
  // Most of the second half incomplete: not measurable.
  for (int b = 9; b < 14; ++b) partial.inj_complete[static_cast<size_t>(b)] = 0;
  const auto rn = reaction_times(partial, {0, 400}, 1500);
  EXPECT_TRUE(std::isnan(rn[0].steady_latency));
  EXPECT_LT(rn[0].reaction_cycles, 0);
  // A phase that is still moving at its end never settled.
  const TimeSeries moving = series({100, 100, 100, 100, 900, 800, 700, 600, 500, 400, 300, 200, 100, 100}, 100);
  EXPECT_LT(reaction_times(moving, {0, 400}, 1400)[0].reaction_cycles, 0);
  // Three phases: each judged within its own bins.
  const TimeSeries three = series({100, 100, 100, 100, 300, 200, 200, 200, 200, 150, 100, 100, 100, 100, 100}, 100);
  const auto r3 = reaction_times(three, {0, 400, 900}, 1500);
  ASSERT_EQ(r3.size(), 2u);
  EXPECT_EQ(r3[0].reaction_cycles, 100);
  EXPECT_EQ(r3[1].reaction_cycles, 100);
}

}  // namespace
}  // namespace scfly
