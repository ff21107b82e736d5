// T-VLB (routing_units/tvlb.h): the VLB route enumeration against an independent search on
// the switch graph (Dijkstra with the paper's weights, local 1 / global 3), the candidate
// classes against their definitions, their hop bounds, the run-time draw, and T-UGAL's
// Valiant candidates walked hop by hop.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <queue>
#include <set>
#include <vector>

#include "routing_units/routing.h"
#include "tests/empty_view.h"
#include "routing_units/rtl_widths.h"
#include "routing_units/tvlb.h"
#include "sc_main/config.h"
#include "tests/config_error.h"

namespace scfly {
namespace {

std::vector<Dragonfly> shapes() {
  return {Dragonfly(DragonflyShape{2, 4, 2, 9, Arrangement::Palmtree}),
          Dragonfly(DragonflyShape{2, 4, 2, 5, Arrangement::Absolute}),
          Dragonfly(DragonflyShape{1, 4, 2, 3, Arrangement::Absolute}),
          Dragonfly(DragonflyShape{1, 4, 4, 9, Arrangement::Absolute}),
          Dragonfly(DragonflyShape{1, 3, 2, 4, Arrangement::Absolute})};
}

// All-pairs shortest weights over the switch graph, local hop 1, global hop 3.
std::vector<std::vector<int>> weights(const Dragonfly& t) {
  const int n = t.num_switches();
  std::vector<std::vector<int>> w(static_cast<size_t>(n), std::vector<int>(static_cast<size_t>(n), 1 << 20));
  for (int s = 0; s < n; ++s) {
    std::vector<int>& dist = w[static_cast<size_t>(s)];
    using Item = std::pair<int, int>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> q;
    dist[static_cast<size_t>(s)] = 0;
    q.push({0, s});
    while (!q.empty()) {
      const auto [dw, u] = q.top();
      q.pop();
      if (dw > dist[static_cast<size_t>(u)]) continue;
      for (int port = t.p(); port < t.radix(); ++port) {
        const PortEnd far = t.neighbor(u, port);
        if (far.sw < 0) continue;
        const int nw = dw + (t.port_class(port) == PortClass::Global ? 3 : 1);
        if (nw < dist[static_cast<size_t>(far.sw)]) {
          dist[static_cast<size_t>(far.sw)] = nw;
          q.push({nw, far.sw});
        }
      }
    }
  }
  return w;
}

// Hops of the fewest-weight paths between switches of different groups: one global hop
// (weight 3) and the rest local, so hops = weight - 2.
int hops_of(const std::vector<std::vector<int>>& w, int a, int b) {
  const int x = w[static_cast<size_t>(a)][static_cast<size_t>(b)];
  return x >= 3 ? x - 2 : x;
}

// The global links (u, port) on some fewest-weight path from a to b.
std::set<std::pair<int, int>> links_on(const Dragonfly& t, const std::vector<std::vector<int>>& w, int a, int b) {
  std::set<std::pair<int, int>> out;
  for (int u = 0; u < t.num_switches(); ++u)
    for (int j = 0; j < t.h(); ++j) {
      const int port = t.first_global_port() + j;
      const int v = t.global_peer(u, port).sw;
      if (w[static_cast<size_t>(a)][static_cast<size_t>(u)] + 3 + w[static_cast<size_t>(v)][static_cast<size_t>(b)] ==
          w[static_cast<size_t>(a)][static_cast<size_t>(b)])
        out.insert({u, port});
    }
  return out;
}

bool gamma(const Dragonfly& t, int x, int i) {
  for (int j = 0; j < t.h(); ++j)
    if (t.global_peer(x, t.first_global_port() + j).sw == i) return true;
  return false;
}

}  // namespace

TEST(Tvlb, EnumerationEqualsASearchOfTheSwitchGraph) {
  for (const Dragonfly& t : shapes()) {
    SCOPED_TRACE(t.describe());
    const auto w = weights(t);
    int routes = 0;
    for (int s = 0; s < t.num_switches(); ++s)
      for (int d = 0; d < t.num_switches(); ++d) {
        if (t.group_of(s) == t.group_of(d)) continue;
        const std::vector<VlbRoute> rs = enumerate_vlb(t, s, d);
        std::set<int> inters;
        for (int i = 0; i < t.num_switches(); ++i)
          if (t.group_of(i) != t.group_of(s) && t.group_of(i) != t.group_of(d)) inters.insert(i);
        ASSERT_EQ(rs.size(), inters.size());
        for (const VlbRoute& r : rs) {
          ASSERT_TRUE(inters.count(r.inter));
          EXPECT_EQ(r.a.hops, hops_of(w, s, r.inter));
          EXPECT_EQ(r.b.hops, hops_of(w, r.inter, d));
          EXPECT_GE(r.hops(), 2);
          EXPECT_LE(r.hops(), 6);
          // Each segment is L-G-L at most: one global link, within the hop slots' VC budget
          // (4 local / 2 global VCs, minimal.h).
          EXPECT_LE(r.a.hops, 3);
          EXPECT_LE(r.b.hops, 3);
          std::set<std::pair<int, int>> la, lb;
          for (const GlobalLinkEnd& l : r.a.links) la.insert({l.sw, l.port});
          for (const GlobalLinkEnd& l : r.b.links) lb.insert({l.sw, l.port});
          EXPECT_EQ(la, links_on(t, w, s, r.inter));
          EXPECT_EQ(lb, links_on(t, w, r.inter, d));
          ++routes;
        }
      }
    EXPECT_GT(routes, 0);
  }
}

TEST(Tvlb, ClassesFollowTheirDefinitionsAndHopBounds) {
  for (const Dragonfly& t : shapes()) {
    SCOPED_TRACE(t.describe());
    const auto w = weights(t);
    for (int s = 0; s < t.num_switches(); ++s)
      for (int d = 0; d < t.num_switches(); ++d) {
        if (t.group_of(s) == t.group_of(d)) continue;
        for (const VlbRoute& r : enumerate_vlb(t, s, d)) {
          const int i = r.inter;
          const int ds = hops_of(w, s, i), dd = hops_of(w, i, d);
          bool to_both = false, to_s = false, to_d = false;
          for (int j = 0; j < t.h(); ++j) {
            const int g = t.group_of(t.global_peer(i, t.first_global_port() + j).sw);
            to_s |= g == t.group_of(s);
            to_d |= g == t.group_of(d);
          }
          to_both = to_s && to_d;
          const bool i3 = (ds <= 2 && gamma(t, d, i)) || (gamma(t, s, i) && dd <= 2);
          const bool i4 = gamma(t, s, i) || gamma(t, d, i) || to_both;
          EXPECT_EQ(in_tvlb_class(t, s, d, i, TvlbClass::I3), i3);
          EXPECT_EQ(in_tvlb_class(t, s, d, i, TvlbClass::I4), i4);
          EXPECT_EQ(in_tvlb_class(t, s, d, i, TvlbClass::I5), ds <= 2 || dd <= 2);
          EXPECT_EQ(in_tvlb_class(t, s, d, i, TvlbClass::I5Src), ds <= 2);
          EXPECT_EQ(in_tvlb_class(t, s, d, i, TvlbClass::I5Dst), dd <= 2);
          EXPECT_TRUE(in_tvlb_class(t, s, d, i, TvlbClass::All));
          if (i3) {
            EXPECT_LE(r.hops(), 3);
          }
          if (i4) {
            EXPECT_LE(r.hops(), 4);
          }
          if (ds <= 2 || dd <= 2) {
            EXPECT_LE(r.hops(), 5);
          }
        }
        for (TvlbClass c : {TvlbClass::I3, TvlbClass::I4, TvlbClass::I5, TvlbClass::I5Src, TvlbClass::I5Dst})
          EXPECT_FALSE(tvlb_set(t, s, d, c).empty());  // with the fallbacks, never empty when g >= 3
      }
  }
}

TEST(Tvlb, TheDrawIsUniformOverTheSet) {
  const Dragonfly t(DragonflyShape{1, 4, 4, 9, Arrangement::Absolute});
  Rng rng(11, StreamKind::Traffic, 0);
  for (const TvlbRule& r : {TvlbRule{TvlbClass::I4, 0, 1}, TvlbRule{TvlbClass::I5Src, 0, 1},
                            TvlbRule{TvlbClass::All, 0, 1}, TvlbRule{TvlbClass::I4, 50, 3}}) {
    const std::vector<int> set = tvlb_rule_set(t, 0, 20, r);
    ASSERT_FALSE(set.empty());
    if (r.percent == 0) {
      EXPECT_EQ(set, tvlb_set(t, 0, 20, r.set));
    }
    std::map<int, int> n;
    const int draws = 400 * static_cast<int>(set.size());
    for (int k = 0; k < draws; ++k) ++n[tvlb_draw(t, 0, 20, r, rng)];
    EXPECT_EQ(n.size(), set.size()) << to_string(r.set) << " " << r.percent;
    for (int i : set) {
      EXPECT_GT(n[i], 320) << to_string(r.set) << " " << i;  // 400 expected, sigma 20
      EXPECT_LT(n[i], 480) << to_string(r.set) << " " << i;
    }
  }
}

// A fractional rule: its class, plus part of the next class, nested in the percent and a
// different subset for another seed.
TEST(Tvlb, FractionalRulesLieBetweenTheirClassAndTheNext) {
  const Dragonfly t(DragonflyShape{2, 4, 2, 9, Arrangement::Palmtree});
  int strictly = 0, seeds_differ = 0;
  for (int s = 0; s < t.num_switches(); s += 3)
    for (int d = 1; d < t.num_switches(); d += 4) {
      if (t.group_of(s) == t.group_of(d)) continue;
      for (TvlbClass c : {TvlbClass::I3, TvlbClass::I4, TvlbClass::I5}) {
        const std::vector<int> lo = tvlb_rule_set(t, s, d, TvlbRule{c, 0, 1});
        const std::vector<int> mid = tvlb_rule_set(t, s, d, TvlbRule{c, 40, 1});
        const std::vector<int> hi = tvlb_rule_set(t, s, d, TvlbRule{c, 80, 1});
        const std::vector<int> next = tvlb_set(t, s, d, tvlb_next_class(c));
        EXPECT_TRUE(std::includes(mid.begin(), mid.end(), lo.begin(), lo.end()));
        EXPECT_TRUE(std::includes(hi.begin(), hi.end(), mid.begin(), mid.end()));
        if (lo.size() < next.size()) {
          EXPECT_TRUE(std::includes(next.begin(), next.end(), hi.begin(), hi.end()));
        }
        strictly += lo.size() < mid.size() && mid.size() < hi.size();
        seeds_differ += mid != tvlb_rule_set(t, s, d, TvlbRule{c, 40, 2});
      }
    }
  EXPECT_GT(strictly, 20);
  EXPECT_GT(seeds_differ, 20);
}

// T-UGAL's Valiant packets go through their set over fewest-hop segments: walked hop by hop,
// each takes exactly the enumerated route's hops; the minimal candidate's link is random.
TEST(Tvlb, TugalValiantPacketsRouteThroughTheirSet) {
  const Dragonfly t(DragonflyShape{1, 4, 4, 9, Arrangement::Absolute});  // 2 links per group pair
  for (RoutingAlgo algo : {RoutingAlgo::UgalL, RoutingAlgo::UgalG, RoutingAlgo::Par})
  for (const TvlbRule& rule : {TvlbRule{TvlbClass::I5Src, 0, 1}, TvlbRule{TvlbClass::I4, 40, 5}}) {
    RoutingParams prm;
    prm.ugal.threshold = kThresholdMin;  // always the Valiant candidate
    prm.ugal.vlb_set = rule.set;
    prm.ugal.vlb_percent = rule.percent;
    prm.ugal.vlb_seed = rule.seed;
    prm.ugal.segment_link = SegmentLink::Random;
    const RoutingUnit u(algo, t, prm);
    Rng rng(12, StreamKind::Traffic, 0);
    const EmptyView empty(t);
    const RouteContext& ctx = empty.ctx;
    for (int n = 0; n < 3000; ++n) {
      const int s = static_cast<int>(rng.below(static_cast<uint32_t>(t.num_switches())));
      const int d = static_cast<int>(rng.below(static_cast<uint32_t>(t.num_switches())));
      if (t.group_of(s) == t.group_of(d)) continue;
      RouteHeader h;
      h.dst_switch = d;
      h.dst_host = 0;
      int at = s, in = 0, hops = 0, inter = -1;
      for (int k = 0; k < 12; ++k) {
        const RouteDecision dec = u.route(at, in, h, rng, ctx);
        if (k == 0) inter = h.inter_switch;
        if (t.port_class(dec.port) == PortClass::Host) break;
        ++hops;
        const PortEnd far = t.neighbor(at, dec.port);
        at = far.sw;
        in = far.port;
      }
      ASSERT_EQ(at, d);
      ASSERT_GE(inter, 0);
      const std::vector<int> set = tvlb_rule_set(t, s, d, rule);
      ASSERT_TRUE(std::find(set.begin(), set.end(), inter) != set.end()) << s << "->" << d << " via " << inter;
      const std::vector<VlbRoute> rs = enumerate_vlb(t, s, d);
      const auto r = std::find_if(rs.begin(), rs.end(), [&](const VlbRoute& x) { return x.inter == inter; });
      ASSERT_NE(r, rs.end());
      EXPECT_EQ(hops, r->hops()) << to_string(algo) << " " << s << "->" << d << " via " << inter;
    }
  }
}

TEST(Tvlb, ConfigKeyValidatesAndEchoes) {
  const SimConfig c = parse_config_text("routing: ugal-g\nugal: {vlb_set: i5src}", {});
  EXPECT_EQ(c.routing_prm.ugal.vlb_set, TvlbClass::I5Src);
  EXPECT_EQ(config_to_json(c)["ugal"]["vlb_set"], "i5src");
  EXPECT_FALSE(config_to_json(parse_config_text("routing: ugal-g", {}))["ugal"].contains("vlb_set"));
  EXPECT_NE(config_error_of("routing: pb-acor\nugal: {vlb_set: i4}").find("pb-acor"), std::string::npos);
  EXPECT_NE(config_error_of("ugal: {vlb_set: i4, intermediate: other-groups}").find("ugal.vlb_set"), std::string::npos);
  EXPECT_NE(config_error_of("ugal: {vlb_set: i7}").find("all, i3, i4, i5, i5src, i5dst or i6"), std::string::npos);
  const SimConfig f = parse_config_text("routing: par\nugal: {vlb_set: i4, vlb_percent: 60, vlb_seed: 9}", {});
  EXPECT_EQ(f.routing_prm.ugal.vlb_percent, 60);
  EXPECT_EQ(config_to_json(f)["ugal"]["vlb_percent"], 60);
  EXPECT_EQ(config_to_json(f)["ugal"]["vlb_seed"], 9);
  EXPECT_FALSE(config_to_json(c)["ugal"].contains("vlb_percent"));
  const std::string e = config_error_of("ugal: {vlb_set: i5src, vlb_percent: 60}");
  EXPECT_NE(e.find("'ugal.vlb_percent': value '60' needs ugal.vlb_set i3, i4 or i5"), std::string::npos) << e;
  EXPECT_NE(config_error_of("ugal: {vlb_set: i4, vlb_percent: 100}").find("ugal.vlb_percent"), std::string::npos);
}

}  // namespace scfly
