// k-ary n-cubes: the topology's port map, the torus traffic patterns, and the routing units
// DOR, VAL, MIN AD and GOAL walked hop by hop through the real wiring on every (source,
// destination) pair of small tori and meshes (k = 2..5, n = 1..3), with random output
// occupancies and a random choice among the candidates a unit offers (any allocator outcome
// must be a correct route). The walk recomputes each hop's dateline class itself, so a VC
// rule that disagrees with the header comment fails here, and it builds the channel
// dependency graph of each VC scheme and checks it is acyclic (for MIN AD and GOAL: the
// escape sub-network, Duato's condition).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "routing_units/gal_threshold.h"
#include "routing_units/routing.h"
#include "routing_units/torus_routing.h"
#include "tb/traffic.h"
#include "tests/mechanisms.h"
#include "topologies/common/rng.h"
#include "topologies/dragonfly.h"
#include "topologies/torus.h"

namespace scfly {
namespace {

std::vector<TorusShape> small_shapes() {
  std::vector<TorusShape> out;
  for (bool mesh : {false, true})
    for (int n = 1; n <= 3; ++n)
      for (int k = 2; k <= 5; ++k) {
        if (n == 3 && k == 5) continue;  // 125 switches: the walk stays fast without it
        out.push_back(TorusShape{k, n, 1, mesh});
      }
  out.push_back(TorusShape{5, 3, 1, false});
  out.push_back(TorusShape{3, 2, 2, false});  // two hosts per switch
  return out;
}

std::string name_of(const TorusShape& s) {
  return std::to_string(s.k) + "-ary " + std::to_string(s.n) + (s.mesh ? "-mesh" : "-cube") +
         (s.p > 1 ? " p=" + std::to_string(s.p) : "");
}

TEST(TorusTopology, NeighboursAreAnInvolutionOneStepAlongOneDimension) {
  for (const TorusShape& s : small_shapes()) {
    SCOPED_TRACE(name_of(s));
    const Torus t(s);
    EXPECT_EQ(t.radix(), s.p + 2 * s.n);
    EXPECT_EQ(t.num_port_classes(), 2);
    EXPECT_STREQ(t.port_class_name(1), "link");
    int unconnected = 0;
    for (int sw = 0; sw < t.num_switches(); ++sw) {
      for (int host = 0; host < s.p; ++host) EXPECT_EQ(t.port_class_of(host), kHostClass);
      for (int port = s.p; port < t.radix(); ++port) {
        EXPECT_EQ(t.port_class_of(port), 1);
        const int d = t.dim_of(port);
        const bool minus = t.minus_of(port);
        const int x = t.coord(sw, d);
        const bool edge = t.crosses_wrap(x, minus);
        if (s.mesh && edge) {
          EXPECT_FALSE(t.connected(sw, port));
          EXPECT_EQ(t.neighbor(sw, port).sw, -1);
          ++unconnected;
          continue;
        }
        ASSERT_TRUE(t.connected(sw, port));
        const PortEnd far = t.neighbor(sw, port);
        ASSERT_GE(far.sw, 0);
        ASSERT_LT(far.sw, t.num_switches());
        EXPECT_EQ(t.coord(far.sw, d), (x + (minus ? s.k - 1 : 1)) % s.k);
        for (int e = 0; e < s.n; ++e)
          if (e != d) {
            EXPECT_EQ(t.coord(far.sw, e), t.coord(sw, e));
          }
        EXPECT_EQ(far.port, t.port(d, !minus));  // the + output lands on the - input
        const PortEnd back = t.neighbor(far.sw, far.port);
        EXPECT_EQ(back.sw, sw);
        EXPECT_EQ(back.port, port);
      }
    }
    // A mesh leaves exactly the two ends of every line open in every dimension.
    const int lines = t.num_switches() / s.k * s.n;
    EXPECT_EQ(unconnected, s.mesh ? 2 * lines : 0);
  }
}

TEST(TorusTopology, CoordinatesDistanceAndCapacity) {
  const Torus t(TorusShape{8, 2, 1, false});
  EXPECT_EQ(t.num_switches(), 64);
  EXPECT_EQ(t.coord(8 * 3 + 1, 0), 1);  // id = x + 8 y
  EXPECT_EQ(t.coord(8 * 3 + 1, 1), 3);
  EXPECT_EQ(t.distance(0, 8 * 3 + 1), 4);          // (0,0) -> (1,3)
  EXPECT_EQ(t.distance(0, 8 * 4 + 4), 8);          // the farthest node
  EXPECT_EQ(t.distance(8 * 7 + 7, 0), 2);          // across both wrap links
  EXPECT_DOUBLE_EQ(t.capacity(), 1.0);             // 8/k
  EXPECT_DOUBLE_EQ(Torus(TorusShape{8, 1, 1, false}).capacity(), 1.0);
  EXPECT_DOUBLE_EQ(Torus(TorusShape{4, 3, 1, false}).capacity(), 2.0);
  EXPECT_DOUBLE_EQ(Torus(TorusShape{8, 2, 1, true}).capacity(), 0.5);  // mesh: 4/k
  EXPECT_DOUBLE_EQ(Torus(TorusShape{8, 2, 2, false}).capacity(), 0.5);  // per host
  // Odd k: every channel carries lambda (k^2-1)/(8k) per unit rate: capacity 8k/(k^2-1).
  EXPECT_NEAR(Torus(TorusShape{5, 2, 1, false}).capacity(), 40.0 / 24.0, 1e-12);
  const Torus mesh(TorusShape{8, 2, 1, true});
  EXPECT_EQ(mesh.distance(8 * 7 + 7, 0), 14);
  EXPECT_NE(check_shape(TorusShape{1, 2, 1, false}), "");
  EXPECT_NE(check_shape(TorusShape{8, 0, 1, false}), "");
  EXPECT_NE(check_shape(TorusShape{8, 7, 1, false}), "");
  EXPECT_NE(check_shape(TorusShape{2, 6, 300, false}), "");
  EXPECT_EQ(check_shape(TorusShape{2, 6, 1, false}), "");
}

// ---- Path walks ----------------------------------------------------------------------

struct Channel {
  int sw, port, vc;
  bool operator<(const Channel& o) const { return std::tie(sw, port, vc) < std::tie(o.sw, o.port, o.vc); }
};
using Cdg = std::map<Channel, std::set<Channel>>;

// A cycle in the dependency graph, as text; empty if it is acyclic.
std::string find_cycle(const Cdg& g) {
  std::map<Channel, int> state;  // 0 new, 1 on stack, 2 done
  std::vector<Channel> stack;
  std::string found;
  std::function<bool(const Channel&)> dfs = [&](const Channel& c) {
    state[c] = 1;
    stack.push_back(c);
    auto it = g.find(c);
    if (it != g.end())
      for (const Channel& n : it->second) {
        if (state[n] == 1) {
          for (const Channel& x : stack)
            found += "(" + std::to_string(x.sw) + "," + std::to_string(x.port) + "," + std::to_string(x.vc) + ") ";
          return true;
        }
        if (state[n] == 0 && dfs(n)) return true;
      }
    stack.pop_back();
    state[c] = 2;
    return false;
  };
  for (const auto& [c, next] : g)
    if (state[c] == 0 && dfs(c)) return found;
  return {};
}

struct WalkCase {
  RoutingAlgo algo;
  int vcs;  // link VCs configured (0 = the minimum)
  TorusDateline dateline = TorusDateline::Wrap;  // torus.dateline (GOAL and GAL keep wrap whatever it says)
};

class TorusWalk : public testing::TestWithParam<WalkCase> {};

TEST_P(TorusWalk, EveryRouteArrivesWithinItsBoundInItsQuadrantOnItsVcs) {
  const RoutingAlgo algo = GetParam().algo;
  for (const TorusShape& s : small_shapes()) {
    if (!routes_torus(algo, s.mesh)) continue;
    SCOPED_TRACE(name_of(s) + " " + to_string(algo));
    const Torus t(s);
    RoutingParams prm;
    const int need = required_link_vcs(algo, s.mesh);
    prm.link_vcs = GetParam().vcs;
    prm.dateline = GetParam().dateline;
    const bool traversal = prm.dateline == TorusDateline::Traversal &&
                           (algo == RoutingAlgo::Dor || algo == RoutingAlgo::Val || algo == RoutingAlgo::MinAd);
    const int V = prm.link_vcs ? prm.link_vcs : need;
    const RoutingUnit unit(algo, t, prm);
    Rng rng(7, StreamKind::Switch, static_cast<uint64_t>(s.k * 10 + s.n));
    std::vector<uint32_t> occ(static_cast<size_t>(t.radix()));
    SwitchLoad load;
    load.out_phits = occ.data();
    AdaptiveView view;
    view.local = load;
    RouteContext ctx;
    ctx.view = &view;
    Cdg cdg;
    const int seeds = algo == RoutingAlgo::Dor ? 2 : 6;
    for (int src = 0; src < t.num_nodes(); ++src)
      for (int dst = 0; dst < t.num_nodes(); ++dst) {
        if (src == dst) continue;
        for (int draw = 0; draw < seeds; ++draw) {
          RouteHeader h;
          h.dst_switch = t.switch_of_node(dst);
          h.dst_host = static_cast<int16_t>(t.host_of_node(dst));
          int sw = t.switch_of_node(src), in_port = t.host_of_node(src);
          int hops = 0;
          int dir[Torus::kMaxDims];  // per dimension: 0 none yet, +1 / -1 (this segment)
          bool crossed[Torus::kMaxDims];
          for (int d = 0; d < s.n; ++d) dir[d] = 0, crossed[d] = false;
          int quadrant_hops = -1;  // GOAL, GAL: the quadrant's length
          if (algo == RoutingAlgo::Gal) {  // the NIC's choice: here any usable quadrant
            int q = static_cast<int>(rng.below(1u << s.n));
            for (int d = 0; d < s.n; ++d)
              if (t.coord(sw, d) == t.coord(h.dst_switch, d)) q &= ~(1 << d);
            set_quadrant(t, sw, h.dst_switch, q, h);
          }
          int seg_hops[2] = {0, 0};
          bool prev_escape = false;
          Channel prev{-1, -1, -1};
          for (;;) {
            for (auto& o : occ) o = rng.below(40);
            const int seg_before = h.segment;
            const RouteCandidates c = unit.route_candidates(sw, in_port, h, rng, ctx);
            ASSERT_GE(c.n, 1);
            if (h.segment != seg_before) {  // VAL: reached the intermediate
              ASSERT_EQ(sw, h.inter_switch);
              for (int d = 0; d < s.n; ++d) dir[d] = 0, crossed[d] = false;
            }
            if (hops == 0 && (algo == RoutingAlgo::Goal || algo == RoutingAlgo::Gal)) {
              quadrant_hops = 0;
              for (int d = 0; d < s.n; ++d) {
                const int D = t.ring_hops(t.coord(sw, d), t.coord(h.dst_switch, d), false);
                if (D == 0) continue;
                ASSERT_TRUE((h.dir_set >> d) & 1);
                quadrant_hops += ((h.minus >> d) & 1) ? s.k - D : D;
              }
            }
            if (c.c[0].port < s.p) {  // ejection: the only candidate, at the destination
              ASSERT_EQ(c.n, 1);
              ASSERT_EQ(sw, h.dst_switch);
              ASSERT_EQ(c.c[0].port, h.dst_host);
              ASSERT_EQ(c.c[0].vc_lo, 0);
              break;
            }
            ASSERT_LE(hops, 2 * s.n * s.k) << "routing loop";
            const int pick = static_cast<int>(rng.below(c.n));
            const RouteCandidate& cand = c.c[pick];
            ASSERT_TRUE(t.connected(sw, cand.port)) << "switch " << sw << " port " << cand.port;
            ASSERT_LE(cand.vc_lo, cand.vc_hi);
            ASSERT_LT(cand.vc_hi, V);
            const int vc = cand.vc_lo + static_cast<int>(rng.below(cand.vc_hi - cand.vc_lo + 1));
            const int d = t.dim_of(cand.port);
            const bool minus = t.minus_of(cand.port);
            const int x = t.coord(sw, d);
            // Direction fixed per dimension and segment (a quadrant), and productive.
            if (dir[d] == 0) dir[d] = minus ? -1 : 1;
            ASSERT_EQ(dir[d], minus ? -1 : 1) << "direction changed in dimension " << d;
            const int target = h.segment == 0 && h.inter_switch >= 0 ? h.inter_switch : h.dst_switch;
            ASSERT_NE(x, t.coord(target, d)) << "hop in a finished dimension " << d;
            const bool cross = !s.mesh && t.crosses_wrap(x, minus);
            // wrap: class 1 from the wrap link on; traversal: for the whole traversal of d
            // that crosses it (the remaining path to the target's coordinate wraps).
            const int y = t.coord(target, d);
            const bool wraps_ahead = !s.mesh && (minus ? y > x : y < x);
            const int cls = crossed[d] || cross || (traversal && wraps_ahead) ? 1 : 0;
            ASSERT_FALSE(s.mesh && t.crosses_wrap(x, minus));
            // The VC rule of the header comment, recomputed here.
            const bool adaptive_algo = algo == RoutingAlgo::MinAd || algo == RoutingAlgo::Goal || algo == RoutingAlgo::Gal;
            const bool escape = adaptive_algo && pick == c.n - 1;
            switch (algo) {
              case RoutingAlgo::Dor: {
                // DOR: the lowest dimension not done; the dateline range.
                for (int e = 0; e < d; ++e) ASSERT_EQ(t.coord(sw, e), t.coord(target, e));
                const int parts = s.mesh ? 1 : 2, idx = s.mesh ? 0 : cls;
                const int lo = idx * (V / parts) + std::min(idx, V % parts);
                ASSERT_EQ(cand.vc_lo, lo);
                break;
              }
              case RoutingAlgo::Val: {
                for (int e = 0; e < d; ++e) ASSERT_EQ(t.coord(sw, e), t.coord(target, e));
                const int parts = s.mesh ? 2 : 4, idx = s.mesh ? h.segment : 2 * h.segment + cls;
                const int lo = idx * (V / parts) + std::min(idx, V % parts);
                ASSERT_EQ(cand.vc_lo, lo);
                break;
              }
              default: {
                const int esc = s.mesh ? 1 : 2;
                if (escape) {
                  ASSERT_EQ(cand.vc_lo, V - esc + (s.mesh ? 0 : cls));
                  ASSERT_EQ(cand.vc_hi, cand.vc_lo);
                  for (int e = 0; e < d; ++e) ASSERT_EQ(t.coord(sw, e), t.coord(target, e));
                } else {
                  ASSERT_EQ(cand.vc_lo, 0);
                  ASSERT_EQ(cand.vc_hi, V - esc - 1);
                }
                // Candidates before the escape are sorted by output queue.
                for (int i = 1; i + 1 < c.n; ++i) ASSERT_LE(occ[c.c[i - 1].port], occ[c.c[i].port]);
              }
            }
            const Channel ch{sw, cand.port, vc};
            const bool in_scheme = !adaptive_algo || escape;
            if (in_scheme && prev.sw >= 0 && (prev_escape || algo == RoutingAlgo::Dor || algo == RoutingAlgo::Val))
              cdg[prev].insert(ch);
            prev = in_scheme ? ch : Channel{-1, -1, -1};
            prev_escape = escape;
            if (cross) crossed[d] = true;
            const PortEnd far = t.neighbor(sw, cand.port);
            sw = far.sw;
            in_port = far.port;
            ++hops;
            ++seg_hops[h.segment];
          }
          // Hop counts.
          switch (algo) {
            case RoutingAlgo::Dor:
            case RoutingAlgo::MinAd:
              ASSERT_EQ(hops, t.distance(t.switch_of_node(src), h.dst_switch));
              ASSERT_FALSE(h.nonminimal);
              break;
            case RoutingAlgo::Val:
              ASSERT_EQ(seg_hops[0], t.distance(t.switch_of_node(src), h.inter_switch));
              ASSERT_EQ(seg_hops[1], t.distance(h.inter_switch, h.dst_switch));
              ASSERT_EQ(h.nonminimal, hops > t.distance(t.switch_of_node(src), h.dst_switch));
              break;
            case RoutingAlgo::Goal:
            case RoutingAlgo::Gal:
              ASSERT_EQ(hops, quadrant_hops);
              ASSERT_EQ(h.nonminimal, hops > t.distance(t.switch_of_node(src), h.dst_switch));
              ASSERT_LE(hops, s.n * (s.k - 1));
              break;
            default: break;
          }
        }
      }
    const std::string cycle = find_cycle(cdg);
    EXPECT_EQ(cycle, "") << "channel dependency cycle: " << cycle;
    // Routes of two hops or more exist (so the graph has edges) unless every route is 1 hop.
    const int longest = algo == RoutingAlgo::Dor || algo == RoutingAlgo::MinAd
                            ? s.n * (s.mesh ? s.k - 1 : s.k / 2)
                            : s.n * (s.k - 1);
    if (longest >= 2) {
      EXPECT_FALSE(cdg.empty());
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Algos, TorusWalk,
                         testing::Values(WalkCase{RoutingAlgo::Dor, 0}, WalkCase{RoutingAlgo::Val, 0},
                                         WalkCase{RoutingAlgo::MinAd, 0}, WalkCase{RoutingAlgo::Goal, 0},
                                         WalkCase{RoutingAlgo::Gal, 0}, WalkCase{RoutingAlgo::Gal, 6},
                                         WalkCase{RoutingAlgo::Dor, 5}, WalkCase{RoutingAlgo::Val, 6},
                                         WalkCase{RoutingAlgo::MinAd, 5}, WalkCase{RoutingAlgo::Goal, 4},
                                         WalkCase{RoutingAlgo::Dor, 0, TorusDateline::Traversal},
                                         WalkCase{RoutingAlgo::Val, 0, TorusDateline::Traversal},
                                         WalkCase{RoutingAlgo::MinAd, 0, TorusDateline::Traversal},
                                         WalkCase{RoutingAlgo::Dor, 5, TorusDateline::Traversal},
                                         WalkCase{RoutingAlgo::MinAd, 5, TorusDateline::Traversal},
                                         WalkCase{RoutingAlgo::Goal, 0, TorusDateline::Traversal}),
                         [](const testing::TestParamInfo<WalkCase>& i) {
                           std::string n = to_string(i.param.algo);
                           for (char& ch : n)
                             if (ch == '-') ch = '_';
                           return n + "_vcs" + std::to_string(i.param.vcs) +
                                  (i.param.dateline == TorusDateline::Traversal ? "_traversal" : "");
                         });

// The two dateline rules differ where they should: under traversal a packet that will wrap
// starts on class 1 (BookSim2's dim_order_torus), under wrap it switches at the wrap link.
TEST(TorusWalk, TraversalDatelineStartsAWrappingTraversalOnClassOne) {
  const Torus t(TorusShape{8, 1, 1, false});
  for (const TorusDateline dl : {TorusDateline::Wrap, TorusDateline::Traversal}) {
    RoutingParams prm;
    prm.dateline = dl;
    const RoutingUnit unit(RoutingAlgo::Dor, t, prm);
    Rng rng(3, StreamKind::Switch, 0);
    // 6 -> 1 goes + over the wrap link 7 -> 0: hops from 6, 7, 0.
    RouteHeader h;
    h.dst_switch = 1;
    h.dst_host = 0;
    int sw = 6, in_port = 0;
    std::vector<int> classes;
    while (sw != 1) {
      const RouteCandidates c = unit.route_candidates(sw, in_port, h, rng, {});
      ASSERT_EQ(c.n, 1);
      classes.push_back(c.c[0].vc_lo);  // 2 VCs: the class is the VC
      const PortEnd far = t.neighbor(sw, c.c[0].port);
      sw = far.sw;
      in_port = far.port;
    }
    const std::vector<int> want = dl == TorusDateline::Wrap ? std::vector<int>{0, 1, 1} : std::vector<int>{1, 1, 1};
    EXPECT_EQ(classes, want);
    // 1 -> 3 never wraps: class 0 under either rule.
    RouteHeader g;
    g.dst_switch = 3;
    g.dst_host = 0;
    EXPECT_EQ(unit.route_candidates(1, 0, g, rng, {}).c[0].vc_lo, 0);
  }
  // GOAL keeps the wrap rule whatever the key says (its quadrant traversals may be long).
  RoutingParams prm;
  prm.dateline = TorusDateline::Traversal;
  EXPECT_EQ(RoutingUnit(RoutingAlgo::Goal, t, prm).params().dateline, TorusDateline::Wrap);
  EXPECT_EQ(RoutingUnit(RoutingAlgo::Dor, t, prm).params().dateline, TorusDateline::Traversal);
}

// The acyclicity check is not vacuous: DOR's dependencies on a ring with the dateline
// classes merged (one VC) close the ring.
TEST(TorusWalk, OneVcDorOnARingHasADependencyCycle) {
  const Torus t(TorusShape{4, 1, 1, false});
  Cdg g;
  for (int s = 0; s < 4; ++s)  // 2-hop routes in the + direction, all on VC 0
    g[Channel{s, t.port(0, false), 0}].insert(Channel{(s + 1) % 4, t.port(0, false), 0});
  EXPECT_NE(find_cycle(g), "");
}

// GAL paper sec. IV.D on the 8-ary 2-cube: from A = (0,0) to C = (1,3) GOAL's hop count is
// 4, 6, 10 or 12 with mean 5.5; VAL's is an even number 4..12 with mean 8.
TEST(TorusWalk, GoalAndValHopCountsFromAToC) {
  const Torus t(TorusShape{8, 2, 1, false});
  const int C = 8 * 3 + 1;
  for (RoutingAlgo algo : {RoutingAlgo::Goal, RoutingAlgo::Val}) {
    const RoutingUnit unit(algo, t);
    Rng rng(3, StreamKind::Switch, 0);
    const int draws = 40000;
    double sum = 0;
    std::map<int, int> hist;
    for (int i = 0; i < draws; ++i) {
      RouteHeader h;
      h.dst_switch = C;
      h.dst_host = 0;
      int sw = 0, in_port = 0, hops = 0;
      for (;;) {
        const RouteCandidates c = unit.route_candidates(sw, in_port, h, rng, {});
        if (c.c[0].port < 1) break;
        const PortEnd far = t.neighbor(sw, c.c[0].port);
        sw = far.sw;
        in_port = far.port;
        ++hops;
      }
      sum += hops;
      ++hist[hops];
    }
    if (algo == RoutingAlgo::Goal) {
      EXPECT_NEAR(sum / draws, 5.5, 0.03);
      EXPECT_EQ(hist.size(), 4u);
      // P(H = 4, 6, 10, 12) = 35/64, 21/64, 5/64, 3/64.
      EXPECT_NEAR(hist[4] / double(draws), 35.0 / 64, 0.01);
      EXPECT_NEAR(hist[6] / double(draws), 21.0 / 64, 0.01);
      EXPECT_NEAR(hist[10] / double(draws), 5.0 / 64, 0.01);
      EXPECT_NEAR(hist[12] / double(draws), 3.0 / 64, 0.01);
    } else {
      EXPECT_NEAR(sum / draws, 8.0, 0.05);
      for (const auto& [hh, n] : hist) {
        EXPECT_EQ(hh % 2, 0);
        EXPECT_GE(hh, 4);
        EXPECT_LE(hh, 12);
      }
    }
  }
}

TEST(TorusRouting, MechanismsRouteOnlyWhereTheyCan) {
  const Torus torus(TorusShape{4, 2, 1, false}), mesh(TorusShape{4, 2, 1, true});
  const Dragonfly dfly(DragonflyShape{});
  EXPECT_THROW(RoutingUnit(RoutingAlgo::Min, torus), std::invalid_argument);
  EXPECT_THROW(RoutingUnit(RoutingAlgo::Goal, mesh), std::invalid_argument);
  EXPECT_THROW(RoutingUnit(RoutingAlgo::Dor, dfly), std::invalid_argument);
  EXPECT_NO_THROW(RoutingUnit(RoutingAlgo::Val, torus));
  EXPECT_NO_THROW(RoutingUnit(RoutingAlgo::Val, dfly));
  EXPECT_EQ(required_link_vcs(RoutingAlgo::Dor, false), 2);
  EXPECT_EQ(required_link_vcs(RoutingAlgo::Dor, true), 1);
  EXPECT_EQ(required_link_vcs(RoutingAlgo::Val, false), 4);
  EXPECT_EQ(required_link_vcs(RoutingAlgo::MinAd, false), 3);
  EXPECT_EQ(required_link_vcs(RoutingAlgo::MinAd, true), 2);
}

// A stand-in for the co-simulated in-quadrant selector (--rtl quadrant): the C++ rule, counted.
class CountingQuadrant final : public QuadrantBlock {
 public:
  int order(const Torus& t, int sw, int dst, uint8_t dir_set, uint8_t minus, Rng& rng, const SwitchLoad& load,
            int* ports) const override {
    ++m_calls;
    return torus_productive_ports(t, sw, dst, dir_set, minus, rng, load, ports, nullptr);
  }
  long calls() const { return m_calls; }

 private:
  mutable long m_calls = 0;
};

// The co-simulated in-quadrant selector reaches the torus mechanisms through
// RouteContext::quadrant (the torus holds none): given one that answers as the C++ rule,
// every first hop is the same, with the same draws, and the adaptive mechanisms (MIN AD,
// GOAL, GAL, CHAOS) ask it for their order; DOR and VAL never do.
TEST(TorusRouting, QuadrantBlockReachesTheAdaptiveMechanismsThroughTheContext) {
  for (const TorusShape& s : {TorusShape{4, 2, 1, false}, TorusShape{3, 3, 1, false}, TorusShape{4, 2, 1, true}}) {
    const Torus t(s);
    for (const std::string& name : scfly_test::registered_routings(false, s.mesh)) {
      SCOPED_TRACE(name_of(s) + " " + name);
      RoutingAlgo algo;
      ASSERT_TRUE(parse_routing(name, algo));
      const RoutingUnit unit(algo, t);
      std::vector<uint32_t> occ(static_cast<size_t>(t.radix()));
      AdaptiveView view;
      view.local.out_phits = occ.data();
      const CountingQuadrant block;
      RouteContext cpp, rtl;
      cpp.view = rtl.view = &view;
      rtl.quadrant = &block;
      Rng pick(3, StreamKind::Traffic, 1);
      for (int src = 0; src < t.num_nodes(); ++src)
        for (int dst = 0; dst < t.num_nodes(); ++dst) {
          const int sw = t.switch_of_node(src), in_port = t.host_of_node(src);
          if (sw == t.switch_of_node(dst)) continue;
          for (uint32_t& q : occ) q = pick.below(4);  // queues to order by, with ties
          RouteHeader h;
          h.dst_switch = t.switch_of_node(dst);
          h.dst_host = static_cast<int16_t>(t.host_of_node(dst));
          if (algo == RoutingAlgo::Gal) {  // the NIC's choice: here any usable quadrant
            int q = static_cast<int>(pick.below(1u << s.n));
            for (int d = 0; d < s.n; ++d)
              if (t.coord(sw, d) == t.coord(h.dst_switch, d)) q &= ~(1 << d);
            set_quadrant(t, sw, h.dst_switch, q, h);
          }
          RouteHeader hc = h, hr = h;
          const uint64_t id = static_cast<uint64_t>(src * t.num_nodes() + dst);
          Rng a(13, StreamKind::Switch, id), b(13, StreamKind::Switch, id);
          const RouteCandidates cc = unit.route_candidates(sw, in_port, hc, a, cpp);
          const RouteCandidates cr = unit.route_candidates(sw, in_port, hr, b, rtl);
          ASSERT_EQ(cc.n, cr.n) << src << " -> " << dst;
          for (int i = 0; i < cc.n; ++i) {
            EXPECT_EQ(cc.c[i].port, cr.c[i].port) << src << " -> " << dst << " candidate " << i;
            EXPECT_EQ(cc.c[i].vc_lo, cr.c[i].vc_lo);
            EXPECT_EQ(cc.c[i].vc_hi, cr.c[i].vc_hi);
          }
          EXPECT_EQ(hc.dir_set, hr.dir_set);
          EXPECT_EQ(hc.minus, hr.minus);
          EXPECT_EQ(hc.nonminimal, hr.nonminimal);
          ASSERT_EQ(a.next32(), b.next32()) << src << " -> " << dst << ": the draws differ";
        }
      EXPECT_EQ(block.calls() > 0, unit.is_adaptive()) << block.calls() << " calls";
    }
  }
}

// CHAOS (torus_routing.h): minimal candidates recomputed from the coordinates (the header's
// direction state is ignored), ordered by output queue, on the one link VC range; at the
// destination the ejection port; derouted, every connected link port once in a random order
// and the header marked non-minimal.
TEST(TorusRouting, ChaosIsMinimalByQueueAndDeroutesToEveryLink) {
  EXPECT_EQ(required_link_vcs(RoutingAlgo::Chaos, false), 1);
  EXPECT_EQ(required_link_vcs(RoutingAlgo::Chaos, true), 1);
  const Dragonfly dfly(DragonflyShape{});
  EXPECT_THROW(RoutingUnit(RoutingAlgo::Chaos, dfly), std::invalid_argument);
  for (const TorusShape& sh : small_shapes()) {
    SCOPED_TRACE(name_of(sh));
    const Torus t(sh);
    Rng rng(7, StreamKind::Switch, 0);
    std::vector<uint32_t> occ(static_cast<size_t>(t.radix()));
    SwitchLoad load;
    load.out_phits = occ.data();
    for (int src = 0; src < t.num_switches(); ++src)
      for (int dst = 0; dst < t.num_switches(); ++dst) {
        for (auto& o : occ) o = rng.below(4);
        RouteHeader h;
        h.dst_switch = dst;
        h.dst_host = 0;
        h.dir_set = 0xFF;  // stale direction state must not matter
        h.minus = 0x55;
        RouteCandidates c = route_chaos(t, src, h, rng, load, 3, false, nullptr);
        if (src == dst) {
          ASSERT_GE(c.n, 1);
          EXPECT_TRUE(t.is_host_port(c.c[0].port));
          continue;
        }
        // Expected: the productive ports in a minimal direction.
        std::set<int> want;
        for (int d = 0; d < t.n(); ++d) {
          const int x = t.coord(src, d), y = t.coord(dst, d);
          if (x == y) continue;
          if (sh.mesh) {
            want.insert(t.port(d, y < x));
            continue;
          }
          const int fwd = t.ring_hops(x, y, false), back = t.k() - fwd;
          if (fwd <= back) want.insert(t.port(d, false));
          if (back <= fwd) want.insert(t.port(d, true));
        }
        std::set<int> got;
        for (int i = 0; i < c.n; ++i) {
          got.insert(c.c[i].port);
          EXPECT_EQ(c.c[i].vc_lo, 0);
          EXPECT_EQ(c.c[i].vc_hi, 2);
          if (i > 0) {
            EXPECT_LE(occ[static_cast<size_t>(c.c[i - 1].port)], occ[static_cast<size_t>(c.c[i].port)]);
          }
        }
        EXPECT_EQ(got, want);
        EXPECT_EQ(static_cast<size_t>(c.n), want.size());
        EXPECT_FALSE(h.nonminimal);
        // Derouted: every connected link port once.
        c = route_chaos(t, src, h, rng, load, 1, true, nullptr);
        std::multiset<int> links;
        for (int i = 0; i < c.n; ++i) {
          links.insert(c.c[i].port);
          EXPECT_EQ(c.c[i].vc_hi, 0);
        }
        std::multiset<int> all;
        for (int d = 0; d < t.n(); ++d)
          for (bool m : {false, true})
            if (t.connected(src, t.port(d, m))) all.insert(t.port(d, m));
        EXPECT_EQ(links, all);
        EXPECT_TRUE(h.nonminimal);
      }
  }
}

// ---- Traffic -----------------------------------------------------------------------------

TrafficSpec spec(const std::string& s) {
  TrafficSpec t;
  EXPECT_EQ(parse_traffic(s, t), "") << s;
  EXPECT_EQ(to_string(t), s);
  return t;
}

TEST(TorusTraffic, PatternsMapAsDefined) {
  const Torus t(TorusShape{8, 2, 1, false});
  Rng rng(1, StreamKind::Nic, 0);
  const TrafficPattern nn(spec("nn"), t), nnc(spec("nnc"), t), tor(spec("tor"), t), bc(spec("bc"), t),
      tp(spec("tp"), t);
  for (int s = 0; s < 64; ++s) {
    std::set<int> seen;
    for (int i = 0; i < 200; ++i) {
      const int d = nn.dest(s, rng);
      EXPECT_EQ(t.distance(s, d), 1);
      seen.insert(d);
    }
    EXPECT_EQ(seen.size(), 4u);
    EXPECT_EQ(nnc.dest(s, rng), t.with_coord(s, 0, (t.coord(s, 0) + 1) % 8));
    EXPECT_EQ(tor.dest(s, rng), t.with_coord(s, 0, (t.coord(s, 0) + 3) % 8));  // ceil(8/2) - 1
    EXPECT_EQ(bc.dest(s, rng), 63 - s);  // k a power of two: the complement of the id bits
    const int x = t.coord(s, 0), y = t.coord(s, 1);
    EXPECT_EQ(tp.dest(s, rng), x * 8 + y);
    EXPECT_EQ(tp.silent(s), x == y);
    EXPECT_FALSE(bc.silent(s));
  }
  // Odd k: the centre is bc's fixed point, silent.
  const Torus t3(TorusShape{3, 2, 1, false});
  const TrafficPattern bc3(spec("bc"), t3);
  for (int s = 0; s < 9; ++s) EXPECT_EQ(bc3.silent(s), s == 4);
  // A mesh corner has two neighbours.
  const Torus m(TorusShape{4, 2, 1, true});
  const TrafficPattern nnm(spec("nn"), m);
  std::set<int> corner;
  for (int i = 0; i < 100; ++i) corner.insert(nnm.dest(0, rng));
  EXPECT_EQ(corner, (std::set<int>{1, 4}));
}

// HS: the centre switch (4,4) of the 8-ary 2-cube and its four neighbours are hot; half
// the packets go to the bc partner, the rest by weight 5 per hot node and 1 per other node.
TEST(TorusTraffic, HotSpotHasFiveHotNodesAroundTheCentre) {
  const Torus t(TorusShape{8, 2, 1, false});
  const TrafficPattern hs(spec("hs"), t);
  auto node = [](int x, int y) { return y * 8 + x; };
  const std::set<int> hot{node(4, 4), node(3, 4), node(5, 4), node(4, 3), node(4, 5)};
  std::vector<std::pair<int, double>> w;
  hs.weights(node(0, 0), w);
  std::map<int, double> law(w.begin(), w.end());
  EXPECT_NEAR(law[63], 0.5 + 0.5 / (63 + 4 * 5), 1e-12);  // bc partner (7,7)
  for (int d = 1; d < 63; ++d) EXPECT_NEAR(law[d], 0.5 * (hot.count(d) ? 5.0 : 1.0) / 83, 1e-12) << d;
  // A hot source does not send to itself: 62 others + 4 x 4 extra tickets.
  hs.weights(node(4, 4), w);
  law = std::map<int, double>(w.begin(), w.end());
  EXPECT_EQ(law.count(node(4, 4)), 0u);
  EXPECT_NEAR(law[node(3, 4)], 0.5 * 5 / (63 + 16), 1e-12);
  // Odd k: the centre is its own bc partner and always takes the weighted draw.
  const Torus t3(TorusShape{3, 2, 1, false});
  const TrafficPattern hs3(spec("hs"), t3);
  EXPECT_FALSE(hs3.silent(4));
  hs3.weights(4, w);
  double sum = 0;
  for (const auto& [d, p] : w) sum += p;
  EXPECT_NEAR(sum, 1.0, 1e-12);
  EXPECT_NEAR(w.front().second, 1.0 / (8 + 4 * 4), 1e-12);  // node 0 is cold; 4 other hot nodes
}

// mix(...): round trip, components checked against the topology, clear errors, and a node
// silent under one component (a tp fixed point) draws from the others only.
TEST(TorusTraffic, MixParsesChecksAndRenormalizesAroundSilentComponents) {
  spec("mix(nn:9,tor:1)");
  spec("mix(shift(2,1):1,un:3)");
  spec("mix(un:1,mixed(50,50):2,adv+3:1)");
  TrafficSpec t;
  for (const char* bad : {"mix(nn)", "mix(nn:0,tor:1)", "mix(nn:1)", "mix(nn:1,tor:1", "mix(nn:1,mix(un:1,tor:1):1)",
                          "mix(nn:1,tor:01)", "mix(nn:1,foo:2)", "mix(nn:1,tor:1,un:1,bc:1,tp:1,hs:1,nnc:1,perm:1,hot:1)"})
    EXPECT_NE(parse_traffic(bad, t), "") << bad;
  EXPECT_NE(parse_traffic("mix(nn:1,foo:2)", t).find("unknown pattern 'foo'"), std::string::npos);
  const Torus ring(TorusShape{8, 1, 1, false}), t2(TorusShape{8, 2, 1, false});
  EXPECT_NE(check_traffic(spec("mix(nn:1,adv+1:1)"), ring).find("mix component adv+1"), std::string::npos);
  EXPECT_NE(check_traffic(spec("mix(nn:1,tp:1)"), ring).find("even n"), std::string::npos);
  const TrafficPattern m(spec("mix(tp:3,nnc:1)"), t2);
  Rng rng(4, StreamKind::Nic, 0);
  for (int i = 0; i < 200; ++i) EXPECT_EQ(m.dest(9, rng), 10);  // (1,1) is tp's fixed point: only nnc
  EXPECT_FALSE(m.silent(9));
  const TrafficPattern only_tp(spec("mix(tp:3,tp:1)"), t2);
  EXPECT_TRUE(only_tp.silent(9));
  EXPECT_FALSE(only_tp.silent(1));
}

TEST(TorusTraffic, PatternsAreCheckedAgainstTheTopology) {
  const Torus ring(TorusShape{8, 1, 1, false}), two(TorusShape{2, 2, 1, false});
  const Dragonfly dfly(DragonflyShape{});
  EXPECT_NE(check_traffic(spec("tp"), ring).find("even n"), std::string::npos);
  EXPECT_NE(check_traffic(spec("tor"), two).find("k >= 3"), std::string::npos);
  EXPECT_NE(check_traffic(spec("nn"), dfly).find("torus pattern"), std::string::npos);
  EXPECT_NE(check_traffic(spec("adv+1"), ring).find("Dragonfly pattern"), std::string::npos);
  EXPECT_EQ(check_traffic(spec("un"), ring), "");
  EXPECT_EQ(check_traffic(spec("perm"), ring), "");
  // un and perm keep their meaning: never the source, perm a derangement.
  const TrafficPattern perm(spec("perm"), ring, 5);
  Rng rng(2, StreamKind::Nic, 0);
  std::set<int> image;
  for (int s = 0; s < 8; ++s) {
    EXPECT_NE(perm.dest(s, rng), s);
    image.insert(perm.dest(s, rng));
  }
  EXPECT_EQ(image.size(), 8u);
}


// ---- GAL ---------------------------------------------------------------------------------

// The clocked definition of gal_threshold.h, evaluated every cycle: the reference.
struct NaiveThreshold {
  GalThresholdParams p;
  std::vector<int> dep;  // departures per cycle
  uint32_t t;
  explicit NaiveThreshold(const GalThresholdParams& prm, size_t cycles) : p(prm), dep(cycles + 1, 0), t(prm.t0) {}
  int64_t sum(int64_t from, int64_t to) const {  // departures in [from, to)
    int64_t s = 0;
    for (int64_t c = std::max<int64_t>(from, 0); c < to; ++c) s += dep[static_cast<size_t>(c)];
    return s;
  }
  // T in force during cycle `c` (updates at multiples of n2 apply from that cycle on).
  void step(uint64_t c) {
    if (!p.adaptive || c == 0 || c % p.n2 != 0) return;
    const int64_t u = static_cast<int64_t>(c);
    const int64_t dD = sum(u - p.n1, u) - sum(u - p.n2 - p.n1, u - p.n2);
    if (dD < 0 || (dD == 0 && p.tie == GalTie::Raise)) t = std::min(t + 1, p.t_max);
    else if (dD > 0 || p.tie == GalTie::Lower) t = t > p.t_min ? t - 1 : p.t_min;
  }
};

TEST(GalThreshold, EqualsTheClockedDefinitionWhateverTheQueryPattern) {
  struct Case {
    GalThresholdParams p;
    const char* what;
  };
  std::vector<Case> cases;
  cases.push_back({GalThresholdParams{2, 128, 50, 20, 2, true}, "paper (Fig. 14)"});
  cases.push_back({GalThresholdParams{2, 128, 50, 20, 64, true}, "paper, T0 64"});
  cases.push_back({GalThresholdParams{0, 5, 7, 13, 3, true}, "n2 > n1, narrow clamps"});
  cases.push_back({GalThresholdParams{1, 9, 4, 1, 5, true}, "n2 = 1"});
  cases.push_back({GalThresholdParams{2, 128, 50, 20, 17, false}, "fixed"});
  cases.push_back({GalThresholdParams{2, 128, 50, 20, 2, true, GalTie::Hold}, "paper, tie holds"});
  cases.push_back({GalThresholdParams{2, 128, 50, 20, 2, true, GalTie::Raise}, "paper, tie raises"});
  cases.push_back({GalThresholdParams{0, 5, 7, 13, 3, true, GalTie::Raise}, "tie raises, n2 > n1"});
  const size_t cycles = 6000;
  for (const Case& cs : cases)
    for (int pattern = 0; pattern < 4; ++pattern) {
      SCOPED_TRACE(std::string(cs.what) + " pattern " + std::to_string(pattern));
      Rng rng(11, StreamKind::Traffic, static_cast<uint64_t>(pattern));
      NaiveThreshold ref(cs.p, cycles);
      // Departure processes: bursty on/off, rising then falling rate, sparse, dense.
      for (size_t c = 0; c < cycles; ++c) {
        double rate = 0;
        switch (pattern) {
          case 0: rate = (c / 300) % 2 ? 0.9 : 0.05; break;
          case 1: rate = c < cycles / 2 ? static_cast<double>(c) / cycles : 1.0 - static_cast<double>(c) / cycles; break;
          case 2: rate = 0.01; break;
          default: rate = 0.7; break;
        }
        ref.dep[c] = static_cast<int>(rng.uniform() < rate) + static_cast<int>(rng.uniform() < rate / 2);
      }
      GalThreshold every(cs.p), sparse(cs.p);
      uint32_t lo = UINT32_MAX, hi = 0;
      for (size_t c = 0; c < cycles; ++c) {
        ref.step(c);
        // Departures of cycle c are recorded during c; the value read in c must not see them.
        const uint32_t v = every.value(c, cs.p);
        ASSERT_EQ(v, ref.t) << "cycle " << c;
        if (rng.below(37) == 0) {
          ASSERT_EQ(sparse.value(c, cs.p), ref.t) << "sparse, cycle " << c;
        }
        for (int i = 0; i < ref.dep[c]; ++i) {
          every.departure(c);
          sparse.departure(c);
        }
        lo = std::min(lo, ref.t);
        hi = std::max(hi, ref.t);
      }
      EXPECT_EQ(sparse.value(cycles, cs.p), every.value(cycles, cs.p));
      EXPECT_GE(lo, cs.p.t_min);
      EXPECT_LE(hi, cs.p.t_max);
      if (cs.p.adaptive && pattern == 0) {
        EXPECT_LT(lo, hi) << "the threshold never moved";
      }
    }
}

// gal.tie: an idle set sees dD = 0 at every update; `hold` keeps T, `raise` raises it to
// T_max. Under a constant departure rate `raise` drifts T to T_max (the tie is the most
// likely outcome at S = N rates), `hold` leaves it a driftless walk (away from T_min most
// of the time, where the published rule `lower` pins it).
TEST(GalThreshold, TieReadingsHoldOrRaiseT) {
  const GalThresholdParams hold{2, 128, 50, 20, 100, true, GalTie::Hold};
  const GalThresholdParams raise{2, 128, 50, 20, 100, true, GalTie::Raise};
  GalThreshold h(hold), r(raise);
  EXPECT_EQ(h.value(1000000, hold), 100u);
  EXPECT_EQ(r.value(20 * 10, raise), 110u);
  EXPECT_EQ(r.value(1000000, raise), 128u);
  for (const double rate : {0.007, 0.44}) {
    SCOPED_TRACE("departure rate " + std::to_string(rate));
    GalThresholdParams pr = raise, ph = hold, pl = hold;
    pr.t0 = 2;
    ph.t0 = pl.t0 = 64;
    pl.tie = GalTie::Lower;
    GalThreshold tr(pr), th(ph), tl(pl);
    Rng rng(3, StreamKind::Traffic, static_cast<uint64_t>(rate * 1000));
    uint64_t t_max_at = 0, hold_at_min = 0, lower_at_min = 0;
    const uint64_t cycles = 60000;
    for (uint64_t c = 0; c < cycles; ++c) {
      if (tr.value(c, pr) == pr.t_max && t_max_at == 0) t_max_at = c;
      hold_at_min += th.value(c, ph) == ph.t_min;
      lower_at_min += tl.value(c, pl) == pl.t_min;
      if (rng.uniform() < rate) {
        tr.departure(c);
        th.departure(c);
        tl.departure(c);
      }
    }
    EXPECT_GT(t_max_at, 0u) << "raise: T never reached T_max from T_min";
    if (rate < 0.1) {
      EXPECT_LT(t_max_at, 5000u);
    }
    EXPECT_LT(hold_at_min * 4, cycles) << "hold: T pinned at T_min";
    EXPECT_GT(lower_at_min, 2 * hold_at_min + cycles / 10) << "lower: expected at T_min far more often than hold";
  }
}

// An idle set: every update sees dD = 0 and lowers T by one down to T_min; a falling
// departure rate raises it.
TEST(GalThreshold, IdleLowersFallingThroughputRaises) {
  const GalThresholdParams p{2, 128, 50, 20, 100, true};
  GalThreshold idle(p);
  EXPECT_EQ(idle.value(19, p), 100u);
  EXPECT_EQ(idle.value(20, p), 99u);
  EXPECT_EQ(idle.value(20 * 50, p), 50u);
  EXPECT_EQ(idle.value(1000000, p), 2u);
  GalThreshold falling(p);
  for (uint64_t c = 0; c < 200; ++c) falling.departure(c);  // one per cycle, then none
  const uint32_t at200 = falling.value(200, p);
  const uint32_t at260 = falling.value(260, p);
  EXPECT_GT(at260, at200);  // the departures stopped: dD < 0 at 220, 240, 260
}

// The paper's rule in a steady state (docs/experiments.md, Tori, "Why the rule cannot hold T
// up"): dD is the difference of two disjoint n2-cycle departure counts with the same mean, so
// a tie lowers T and P(dD < 0) < 1/2; from T_max the threshold drifts to T_min whatever the
// constant rate, by about P(tie) per update: at S = N rates (0.007 per cycle, P(tie) 0.77)
// within about 3,300 cycles, at S = 1 rates (0.44 per cycle; with at most one departure per
// cycle the counts are binomial, P(tie) about 0.13) within about 20,000.
TEST(GalThreshold, AConstantDepartureRateDrivesTToTMin) {
  const GalThresholdParams p{2, 128, 50, 20, 128, true};
  for (const double rate : {0.007, 0.44}) {
    SCOPED_TRACE("departure rate " + std::to_string(rate));
    Rng rng(3, StreamKind::Traffic, static_cast<uint64_t>(rate * 1000));
    GalThreshold thr(p);
    const uint64_t cycles = rate < 0.1 ? 8000 : 60000;
    uint64_t t_min_at = 0;
    long ups = 0, updates = 0;
    uint32_t last = p.t0;
    for (uint64_t c = 0; c < cycles; ++c) {
      const uint32_t v = thr.value(c, p);
      if (v != last) {
        ++updates;
        if (v > last) ++ups;
        last = v;
      }
      if (v == p.t_min && t_min_at == 0) t_min_at = c;
      if (rng.uniform() < rate) thr.departure(c);
    }
    EXPECT_GT(t_min_at, 0u) << "T never reached T_min";
    // Mean drift P(tie) per update: about 126 / 0.77 and 126 / 0.13 updates of 20 cycles.
    if (rate < 0.1) {
      EXPECT_LT(t_min_at, 5000u);
    } else {
      EXPECT_LT(t_min_at, 50000u);
      EXPECT_GT(t_min_at, 12000u) << "faster than the tie probability allows";
    }
    EXPECT_LT(ups * 2, updates) << "rises must be the minority of the moves";
    EXPECT_LE(thr.value(cycles, p), p.t_min + 20);
  }
}

TEST(GalChoose, MinimalBelowThresholdElseShortestWithItsTieRules) {
  const Torus t(TorusShape{8, 2, 1, false});
  Rng rng(5, StreamKind::Traffic, 0);
  const int src = 0, dst = 8 * 3 + 2;  // (0,0) -> (2,3): quadrant 0 (+,+) minimal, 5 hops
  uint16_t occ[4] = {3, 1, 1, 1};
  bool minimal = false;
  EXPECT_EQ(gal_choose(t, src, dst, occ, 4, rng, minimal), 0);  // 3 < T = 4
  EXPECT_TRUE(minimal);
  EXPECT_EQ(gal_choose(t, src, dst, occ, 3, rng, minimal), 2);  // 3 >= T: shortest, ties by hops:
  EXPECT_FALSE(minimal);                                         // q1 (-,+) 9 hops, q2 (+,-) 7, q3 11
  uint16_t occ2[4] = {3, 1, 2, 1};
  EXPECT_EQ(gal_choose(t, src, dst, occ2, 3, rng, minimal), 1);  // q1 and q3 tie at 1: q1 has fewer hops
  uint16_t occ3[4] = {1, 1, 1, 1};
  EXPECT_EQ(gal_choose(t, src, dst, occ3, 0, rng, minimal), 0);  // all tie: the minimal one
  EXPECT_TRUE(minimal);
  // D = 0 in y: only the + queue of y is usable.
  const int dst_x = 3;  // (3,0)
  uint16_t occ4[4] = {9, 4, 0, 0};
  EXPECT_EQ(gal_choose(t, src, dst_x, occ4, 1, rng, minimal), 1);  // q2/q3 move in y: not usable
  // A k/2 tie: both directions minimal, the shorter minimal queue is q_min.
  const int dst_far = 4;  // (4,0)
  uint16_t occ5[4] = {5, 2, 0, 0};
  EXPECT_EQ(gal_choose(t, src, dst_far, occ5, 3, rng, minimal), 1);
  EXPECT_TRUE(minimal);
  RouteHeader h;
  set_quadrant(t, src, dst, 2, h);  // (+,-): 2 + 5 = 7 hops > 5
  EXPECT_EQ(h.dir_set, 3);
  EXPECT_EQ(h.minus, 2);
  EXPECT_TRUE(h.nonminimal);
  set_quadrant(t, src, dst_x, 0, h);
  EXPECT_EQ(h.dir_set, 1);
  EXPECT_FALSE(h.nonminimal);
}

TEST(GalChoose, DestinationSets) {
  const Torus t(TorusShape{8, 2, 1, false});
  EXPECT_EQ(gal_num_sets(t, GalSets::All), 64);
  EXPECT_EQ(gal_num_sets(t, GalSets::Quadrant), 4);
  EXPECT_EQ(gal_set(t, GalSets::All, 0, 37), 37);
  EXPECT_EQ(gal_set(t, GalSets::One, 0, 37), 0);
  EXPECT_EQ(gal_set(t, GalSets::Two, 0, 8 * 2 + 2), 0);  // (2,2): m = 2, 2 <= k/4
  EXPECT_EQ(gal_set(t, GalSets::Two, 0, 8 * 0 + 3), 1);  // (3,0): m_x = 3 > 2
  EXPECT_EQ(gal_set(t, GalSets::Two, 0, 8 * 5 + 0), 1);  // (0,5): m_y = 3
  EXPECT_EQ(gal_set(t, GalSets::Quadrant, 0, 8 * 3 + 6), 1);  // (6,3): x the - way
  EXPECT_EQ(gal_set(t, GalSets::Quadrant, 0, 8 * 4 + 4), 0);  // k/2 ties count as +
}

}  // namespace
}  // namespace scfly
