// The conditional forwarding table (routing_units/forwarding_table.h). The MIN population is
// checked against route_min itself, hop by hop through the real wiring, on every (source
// switch, destination switch, destination host) of several Dragonflies of both arrangements,
// comparing port, VC, the whole header and the random stream after every hop. The lookup
// rule (the QCN-Switch paper, sec. 3.1.1: Benito, Vallejo, Izu, Beivide, "Non-minimal Adaptive
// Routing Based on Explicit Congestion Notifications", Concurrency and Computation: Practice
// and Experience, 2019) is checked on small hand-built tables whose N is known in advance.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "routing_units/forwarding_table.h"
#include "routing_units/minimal.h"
#include "topologies/common/rng.h"
#include "topologies/dragonfly.h"

namespace scfly {
namespace {

// Every field of the header, so two headers compare equal only if all fields do.
std::string describe(const RouteHeader& h) {
  std::ostringstream os;
  os << "{dst_switch " << h.dst_switch << ", dst_host " << h.dst_host << ", inter "
     << h.inter_switch << ", exit " << h.exit_switch << ":" << h.exit_port << ", segment "
     << int(h.segment) << ", global_done " << int(h.global_done) << ", nonminimal "
     << h.nonminimal << ", policy " << int(h.policy) << ", vc_shift " << int(h.vc_shift)
     << ", par_pending " << int(h.par_pending) << "}";
  return os.str();
}

bool same_header(const RouteHeader& a, const RouteHeader& b) {
  return a.dst_switch == b.dst_switch && a.dst_host == b.dst_host &&
         a.inter_switch == b.inter_switch && a.exit_switch == b.exit_switch &&
         a.exit_port == b.exit_port && a.segment == b.segment && a.global_done == b.global_done &&
         a.nonminimal == b.nonminimal && a.policy == b.policy && a.vc_shift == b.vc_shift &&
         a.par_pending == b.par_pending;
}

// The next draw of a copy: two streams give the same one iff they are in the same state
// (for all practical purposes); neither stream is disturbed.
uint64_t peek(const Rng& r) {
  Rng c = r;
  return c.next();
}

// One routing step by route_min and by the table, from identical headers and streams; on
// success both headers and streams have advanced alike and `out` is the common decision.
testing::AssertionResult same_step(const Dragonfly& t, const ForwardingTable& table, int sw,
                                   int in_port, RouteHeader& hm, RouteHeader& ht, Rng& rm,
                                   Rng& rt, RouteDecision& out, LookupInfo& info) {
  const RouteHeader before = hm;
  const RouteDecision dm = route_min(t, sw, hm, rm, nullptr);
  const RouteDecision dt = table.lookup(in_port, ht, rt, &info);
  out = dt;
  if (dm.port != dt.port || dm.vc != dt.vc || !same_header(hm, ht) || peek(rm) != peek(rt))
    return testing::AssertionFailure()
           << "switch " << sw << " in_port " << in_port << " header " << describe(before)
           << "\n  route_min: port " << dm.port << " vc " << int(dm.vc) << " -> " << describe(hm)
           << "\n  table:     port " << dt.port << " vc " << int(dt.vc) << " -> " << describe(ht)
           << "\n  streams " << (peek(rm) == peek(rt) ? "agree" : "DIFFER") << "\n"
           << table.format(t);
  return testing::AssertionSuccess();
}

struct NetCase {
  const char* name;
  DragonflyShape shape;
};

class MinTableNet : public testing::TestWithParam<NetCase> {
 protected:
  MinTableNet() : topo(GetParam().shape) {
    for (int sw = 0; sw < topo.num_switches(); ++sw) tables.push_back(build_min_table(topo, sw));
  }
  Dragonfly topo;
  std::vector<ForwardingTable> tables;
};

// Walks every (source switch, destination switch, destination host) with both units, from
// identical headers and identical copies of the stream (several seeds when MIN has a choice
// of exit), until ejection; the path must also be minimal_distance() hops long.
TEST_P(MinTableNet, ReproducesRouteMinHopByHop) {
  const Dragonfly& t = topo;
  const int n = t.num_switches();
  const bool choice = t.links_per_group_pair() > 1;
  const int seeds = choice ? 4 : 1;
  long tie_draws = 0;
  int pairs_with_several_exits = 0;
  for (int s = 0; s < n; ++s)
    for (int d = 0; d < n; ++d) {
      std::set<std::pair<int, int>> exits;  // global links taken, over every seed and host
      for (int seed = 0; seed < seeds; ++seed)
        for (int x = 0; x < t.p(); ++x) {
          RouteHeader hm;
          hm.dst_switch = d;
          hm.dst_host = static_cast<int16_t>(x);
          RouteHeader ht = hm;
          const uint64_t id = (static_cast<uint64_t>(s) * n + d) * t.p() + x;
          Rng rm(static_cast<uint64_t>(seed), StreamKind::Switch, id);
          Rng rt = rm;
          int sw = s, in_port = t.host_port((s + d) % t.p()), hops = 0;
          for (;;) {
            RouteDecision dec;
            LookupInfo info;
            ASSERT_TRUE(same_step(t, tables[static_cast<size_t>(sw)], sw, in_port, hm, ht, rm, rt,
                                  dec, info))
                << "seed " << seed << ", switch " << s << " -> switch " << d << " host " << x
                << ", after " << hops << " hops";
            ASSERT_GE(info.entry, 0);
            ASSERT_FALSE(info.drew_n) << "the MIN table has no conditional entry";
            tie_draws += info.tie_draws;
            const PortClass c = t.port_class(dec.port);
            if (c == PortClass::Host) {
              ASSERT_EQ(sw, d);
              ASSERT_EQ(dec.port, x);
              break;
            }
            ASSERT_LT(++hops, 4) << "switch " << s << " -> switch " << d << ": no ejection";
            if (c == PortClass::Local) {
              const int r = t.index_of(sw), r2 = t.local_neighbor(r, dec.port);
              sw = t.switch_id(t.group_of(sw), r2);
              in_port = t.local_port(r2, r);
            } else {
              exits.insert({sw, dec.port});
              const GlobalLinkEnd far = t.global_peer(sw, dec.port);
              sw = far.sw;
              in_port = far.port;
            }
          }
          ASSERT_EQ(hops, minimal_distance(t, s, d)) << "switch " << s << " -> switch " << d;
        }
      pairs_with_several_exits += exits.size() > 1;
    }
  // The walks did exercise the choice of exit (and the table drew for it) where there is one.
  if (choice) {
    EXPECT_GT(tie_draws, 0);
    EXPECT_GT(pairs_with_several_exits, 0);
  } else {
    EXPECT_EQ(tie_draws, 0);
    EXPECT_EQ(pairs_with_several_exits, 0);
  }
}

// One hop from headers a MIN walk never produces but another unit may hand over (Valiant
// pins exits owned by other switches; later segments, a taken global hop, PAR's VC shift):
// the table still does what route_min does, pinned exit included.
TEST_P(MinTableNet, MatchesRouteMinOnAnyPinnedHeader) {
  const Dragonfly& t = topo;
  const int n = t.num_switches();
  struct Flags {
    uint8_t segment, global_done, vc_shift;
  };
  const Flags flags[] = {{0, 0, 0}, {1, 1, 0}, {0, 1, 1}};
  for (int sw = 0; sw < n; ++sw) {
    const ForwardingTable& table = tables[static_cast<size_t>(sw)];
    const int G = t.group_of(sw);
    std::vector<std::pair<int, int>> pins{{-1, -1}};
    for (int i = 0; i < t.a(); ++i)
      for (int j = 0; j < t.h(); ++j) {
        const int owner = t.switch_id(G, i);
        if (owner == sw || j == 0) pins.push_back({owner, t.first_global_port() + j});
      }
    for (int d = 0; d < n; ++d)
      for (const auto& pin : pins)
        for (const Flags& f : flags) {
          RouteHeader hm;
          hm.dst_switch = d;
          hm.dst_host = static_cast<int16_t>(d % t.p());
          hm.exit_switch = pin.first;
          hm.exit_port = static_cast<int16_t>(pin.second);
          hm.segment = f.segment;
          hm.global_done = f.global_done;
          hm.vc_shift = f.vc_shift;
          RouteHeader ht = hm;
          Rng rm(11, StreamKind::Switch, static_cast<uint64_t>(sw * n + d)), rt = rm;
          RouteDecision dec;
          LookupInfo info;
          ASSERT_TRUE(same_step(t, table, sw, t.first_local_port(), hm, ht, rm, rt, dec, info));
        }
  }
}

// Table sizes: palmtree needs exactly one entry per other group; absolute one alternative
// per other group plus a switch-level one only where some exit lands on that switch.
TEST_P(MinTableNet, IsCompact) {
  const Dragonfly& t = topo;
  const int n = t.links_per_group_pair();
  for (int sw = 0; sw < t.num_switches(); ++sw) {
    const ForwardingTable& table = tables[static_cast<size_t>(sw)];
    int group_alts = 0, switch_alts = 0, unpinned_entries = 0;
    std::set<int> sets;
    for (const FlowEntry& e : table.entries()) {
      if (e.match.exit != ExitPin::Unpinned) {
        EXPECT_EQ(e.equal_cost_set, -1);
        continue;
      }
      ++unpinned_entries;
      if (n > 1) {
        EXPECT_GE(e.equal_cost_set, 0) << "route_min draws for every exit choice here";
      } else {
        EXPECT_EQ(e.equal_cost_set, -1) << "route_min never draws with one link per pair";
      }
      const bool first_of_alt = e.equal_cost_set < 0 || sets.insert(e.equal_cost_set).second;
      if (!first_of_alt) continue;
      if (e.match.dst_switch >= 0)
        ++switch_alts;
      else
        ++group_alts;
    }
    EXPECT_EQ(group_alts, t.g() - 1) << "switch " << sw;
    EXPECT_LE(switch_alts, (t.g() - 1) * std::min(n, t.a())) << "switch " << sw;
    if (n == 1) {
      EXPECT_EQ(switch_alts, 0);
      EXPECT_EQ(table.size(), 1 + (t.a() - 1) + 2 + (t.g() - 1));
    }
    EXPECT_EQ(table.size(), 1 + (t.a() - 1) + 2 + unpinned_entries);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Nets, MinTableNet,
    testing::Values(NetCase{"palmtree_2_4_2_9", {2, 4, 2, 9, Arrangement::Palmtree}},
                    NetCase{"palmtree_3_6_3_19", {3, 6, 3, 19, Arrangement::Palmtree}},
                    NetCase{"palmtree_4_8_4_33", {4, 8, 4, 33, Arrangement::Palmtree}},
                    NetCase{"absolute_2_4_2_3", {2, 4, 2, 3, Arrangement::Absolute}},
                    NetCase{"absolute_2_4_2_5", {2, 4, 2, 5, Arrangement::Absolute}},
                    NetCase{"absolute_2_4_2_9", {2, 4, 2, 9, Arrangement::Absolute}},
                    NetCase{"absolute_3_6_3_10", {3, 6, 3, 10, Arrangement::Absolute}},
                    NetCase{"absolute_4_8_4_9", {4, 8, 4, 9, Arrangement::Absolute}},
                    NetCase{"absolute_4_8_4_17", {4, 8, 4, 17, Arrangement::Absolute}},
                    NetCase{"absolute_4_8_4_33", {4, 8, 4, 33, Arrangement::Absolute}}),
    [](const testing::TestParamInfo<NetCase>& info) { return std::string(info.param.name); });

// ---- Lookup semantics on hand-built tables -------------------------------------------------
// dfly(2,4,2,9) palmtree, switch 0: host ports 0-1, local 2-4, global 5-6. Destination
// switch 12 is in group 3.

class ForwardingLookup : public testing::Test {
 protected:
  ForwardingLookup() : topo(DragonflyShape{2, 4, 2, 9, Arrangement::Palmtree}), table(topo, 0) {}
  RouteHeader to(int dst_switch, int dst_host = 0) const {
    RouteHeader h;
    h.dst_switch = dst_switch;
    h.dst_host = static_cast<int16_t>(dst_host);
    return h;
  }
  static FlowMatch group(int g) {
    FlowMatch m;
    m.dst_group = g;
    return m;
  }
  Dragonfly topo;
  ForwardingTable table;
};

TEST_F(ForwardingLookup, SingleMatchAppliesRegardlessOfItsCondition) {
  table.add(group(3), 10, FlowAction::to_port(5), FlowCondition::PortProbability);
  table.add(group(4), 1, FlowAction::to_port(6));  // does not match: no alternative
  table.set_probability(5, 0);
  for (uint64_t seed = 0; seed < 200; ++seed) {
    Rng rng(seed, StreamKind::Switch, 0);
    const uint64_t untouched = peek(rng);
    RouteHeader h = to(12);
    LookupInfo info;
    EXPECT_EQ(table.lookup(0, h, rng, &info).port, 5);
    EXPECT_FALSE(info.drew_n);
    EXPECT_FALSE(info.skipped);
    EXPECT_EQ(info.alternatives, 1);
    EXPECT_EQ(peek(rng), untouched) << "N drawn without an alternative";
  }
}

// With a known N (drawn from a copy of the stream), P = N takes the conditional entry and
// P = N - 1 falls through to the lower-priority one; LookupInfo reports N and the skip.
TEST_F(ForwardingLookup, NAboveProbabilityFallsThroughToTheLowerPriority) {
  const int high = table.add(group(3), 10, FlowAction::to_port(5), FlowCondition::PortProbability);
  FlowMatch from_host;
  from_host.in_class = PortClass::Host;
  const int low = table.add(from_host, 1, FlowAction::to_port(6));
  int tried_both = 0;
  for (uint64_t seed = 0; seed < 500; ++seed) {
    const Rng start(seed, StreamKind::Switch, 3);
    Rng expect = start;
    const int N = 1 + static_cast<int>(expect.below(100));
    for (const int P : {N - 1, N}) {
      if (P < 0) continue;
      tried_both += P == N - 1;
      table.set_probability(5, P);
      Rng rng = start;
      RouteHeader h = to(12);
      LookupInfo info;
      const RouteDecision d = table.lookup(1, h, rng, &info);
      ASSERT_TRUE(info.drew_n);
      ASSERT_EQ(info.n, N);
      EXPECT_EQ(peek(rng), peek(expect)) << "exactly one draw, N";
      const bool misrouted = N > P;
      EXPECT_EQ(d.port, misrouted ? 6 : 5) << "N " << N << " P " << P;
      EXPECT_EQ(info.entry, misrouted ? low : high);
      EXPECT_EQ(info.skipped, misrouted);
      EXPECT_EQ(info.skipped_entry, misrouted ? high : -1);
      EXPECT_EQ(info.skipped_port, misrouted ? 5 : -1);
    }
  }
  EXPECT_GT(tried_both, 400);
}

TEST_F(ForwardingLookup, MisrouteFractionFollowsTheProbability) {
  table.add(group(3), 10, FlowAction::to_port(5), FlowCondition::PortProbability);
  table.add(FlowMatch{}, 1, FlowAction::to_port(6));
  const int draws = 20000;
  auto misroutes = [&](int P) {
    table.set_probability(5, P);
    Rng rng(77, StreamKind::Switch, 5);
    int count = 0;
    for (int i = 0; i < draws; ++i) {
      RouteHeader h = to(12);
      count += table.lookup(0, h, rng).port == 6;
    }
    return count;
  };
  EXPECT_EQ(misroutes(0), draws) << "P = 0 always falls through";
  EXPECT_EQ(misroutes(100), 0) << "P = 100 never does";
  // P = 30: 70 % misrouted; the band is about 6 standard deviations wide.
  EXPECT_NEAR(static_cast<double>(misroutes(30)) / draws, 0.70, 0.02);
  EXPECT_NEAR(static_cast<double>(misroutes(99)) / draws, 0.01, 0.005);
}

// Two conditional alternatives both failing: the lowest-priority one applies anyway, and N
// is drawn once for the whole lookup.
TEST_F(ForwardingLookup, LastAlternativeIgnoresItsCondition) {
  const int first = table.add(group(3), 10, FlowAction::to_port(5), FlowCondition::PortProbability);
  const int last =
      table.add(FlowMatch{}, 5, FlowAction::to_port(6), FlowCondition::PortProbability);
  table.set_probability(5, 0);
  table.set_probability(6, 0);
  Rng rng(4, StreamKind::Switch, 0), expect = rng;
  const int N = 1 + static_cast<int>(expect.below(100));
  RouteHeader h = to(12);
  LookupInfo info;
  EXPECT_EQ(table.lookup(0, h, rng, &info).port, 6);
  EXPECT_EQ(info.entry, last);
  EXPECT_EQ(info.n, N);
  EXPECT_EQ(info.skipped_entry, first);
  EXPECT_EQ(info.alternatives, 2);
  EXPECT_EQ(peek(rng), peek(expect));
  // A third, unconditional alternative below them takes the packet instead.
  const int third = table.add(FlowMatch{}, 1, FlowAction::to_port(2));
  rng = Rng(4, StreamKind::Switch, 0);
  h = to(12);
  EXPECT_EQ(table.lookup(0, h, rng, &info).port, 2);
  EXPECT_EQ(info.entry, third);
  EXPECT_EQ(info.skipped_entry, first);
  EXPECT_EQ(peek(rng), peek(expect)) << "still one N for the whole lookup";
}

// Overlapping unconditional entries in every bucket (destination switch, destination group,
// wildcard), every priority order and insertion order: the highest priority wins, ties go
// to the first inserted, and the stream is never touched.
TEST_F(ForwardingLookup, HighestPriorityWinsAcrossBucketsWithoutDrawing) {
  FlowMatch by_switch, by_group = group(3), any;
  by_switch.dst_switch = 12;
  const FlowMatch matches[3] = {by_switch, by_group, any};
  const int ports[3] = {2, 5, 6};
  int prio[3] = {1, 2, 3};
  do {
    int order[3] = {0, 1, 2};
    do {
      ForwardingTable t(topo, 0);
      for (int k : order) t.add(matches[k], prio[k], FlowAction::to_port(ports[k]));
      const int top = static_cast<int>(std::max_element(prio, prio + 3) - prio);
      Rng rng(1, StreamKind::Switch, 0);
      const uint64_t untouched = peek(rng);
      RouteHeader h = to(12);
      LookupInfo info;
      EXPECT_EQ(t.lookup(0, h, rng, &info).port, ports[top]);
      EXPECT_FALSE(info.drew_n);
      EXPECT_EQ(info.tie_draws, 0);
      EXPECT_EQ(peek(rng), untouched);
      // Another destination of group 3 misses the switch entry.
      h = to(13);
      const int top_no_switch = prio[1] > prio[2] ? 1 : 2;
      EXPECT_EQ(t.lookup(0, h, rng).port, ports[top_no_switch]);
    } while (std::next_permutation(order, order + 3));
  } while (std::next_permutation(prio, prio + 3));
  // Equal priorities: insertion order, across buckets too.
  ForwardingTable t(topo, 0);
  t.add(any, 7, FlowAction::to_port(4));
  t.add(by_switch, 7, FlowAction::to_port(3));
  Rng rng;
  RouteHeader h = to(12);
  EXPECT_EQ(t.lookup(0, h, rng).port, 4);
}

TEST_F(ForwardingLookup, WildcardsInputClassAndExitLabelMatch) {
  FlowMatch m;
  m.in_class = PortClass::Global;
  table.add(m, 50, FlowAction::to_port(2));
  m = FlowMatch{};
  m.in_class = PortClass::Local;
  m.dst_host = 1;
  table.add(m, 40, FlowAction::to_port(3));
  m = FlowMatch{};
  m.in_port = 0;
  table.add(m, 30, FlowAction::to_port(4));
  m = FlowMatch{};
  m.exit = ExitPin::Here;
  table.add(m, 20, FlowAction::take_pinned_exit());
  m.exit = ExitPin::Elsewhere;
  table.add(m, 20, FlowAction::toward_pinned_exit());
  table.add(FlowMatch{}, 10, FlowAction::to_port(6));
  Rng rng;
  struct Case {
    int in_port, dst_host, exit_switch, exit_port, want;
  };
  const Case cases[] = {
      {5, 0, -1, -1, 2},  {6, 1, -1, -1, 2},  // any global input port
      {2, 1, -1, -1, 3},  {4, 1, -1, -1, 3},  // local input, host 1
      {2, 0, -1, -1, 6},                      // local input, host 0: only the wildcard
      {0, 0, -1, -1, 4},  {1, 0, -1, -1, 6},  // input port 0 only
      {1, 0, 0, 5, 5},                        // exit pinned here: its port
      {1, 0, 2, 5, 3},                        // pinned at switch 2: local port to index 2
      {1, 0, 3, 6, 4},    {-1, 0, -1, -1, 6}, // pinned at switch 3; unknown input port
  };
  for (const Case& c : cases) {
    RouteHeader h = to(12, c.dst_host);
    h.exit_switch = c.exit_switch;
    h.exit_port = static_cast<int16_t>(c.exit_port);
    EXPECT_EQ(table.lookup(c.in_port, h, rng).port, c.want)
        << "in_port " << c.in_port << " dst_host " << c.dst_host << " exit " << c.exit_switch;
  }
}

// An equal-cost set takes member Rng::scale(word, count); the builder says whether a set
// of one draws; a conditional set draws its word before N.
TEST_F(ForwardingLookup, EqualCostSetsDrawAsTheBuilderSays) {
  const std::vector<FlowAction> three{FlowAction::to_port(2), FlowAction::to_port(3),
                                      FlowAction::to_port(5)};
  const int set = table.add_equal_cost(group(3), 10, three, TieDraw::IfSeveral);
  table.add_equal_cost(group(4), 10, {FlowAction::to_port(6)}, TieDraw::IfSeveral);
  table.add_equal_cost(group(5), 10, {FlowAction::to_port(6)}, TieDraw::Always);
  std::set<int> seen;
  for (uint64_t seed = 0; seed < 64; ++seed) {
    Rng rng(seed, StreamKind::Switch, 9), expect = rng;
    const int nth = static_cast<int>(Rng::scale(expect.next32(), 3));
    RouteHeader h = to(12);
    LookupInfo info;
    const int port = table.lookup(0, h, rng, &info).port;
    EXPECT_EQ(port, three[static_cast<size_t>(nth)].port);
    EXPECT_EQ(table.entries()[static_cast<size_t>(info.entry)].equal_cost_set, set);
    EXPECT_EQ(info.tie_draws, 1);
    EXPECT_EQ(peek(rng), peek(expect));
    seen.insert(port);

    Rng one(seed, StreamKind::Switch, 9);
    const uint64_t untouched = peek(one);
    h = to(4 * 4);  // group 4: a set of one, IfSeveral: no draw
    EXPECT_EQ(table.lookup(0, h, one).port, 6);
    EXPECT_EQ(peek(one), untouched);
    h = to(5 * 4);  // group 5: a set of one, Always: one word
    EXPECT_EQ(table.lookup(0, h, one, &info).port, 6);
    EXPECT_EQ(info.tie_draws, 1);
    EXPECT_EQ(peek(one), peek(expect));
  }
  EXPECT_EQ(seen.size(), 3u);

  // Conditional set with an alternative: the word first, then N, tested on the member's port.
  ForwardingTable t(topo, 0);
  t.add_equal_cost(group(3), 10, three, TieDraw::IfSeveral, FlowCondition::PortProbability);
  t.add(FlowMatch{}, 1, FlowAction::to_port(6));
  t.set_probability(2, 0);
  t.set_probability(3, 100);
  t.set_probability(5, 0);
  for (uint64_t seed = 0; seed < 64; ++seed) {
    Rng rng(seed, StreamKind::Switch, 2), expect = rng;
    const int nth = static_cast<int>(Rng::scale(expect.next32(), 3));
    const int N = 1 + static_cast<int>(expect.below(100));
    RouteHeader h = to(12);
    LookupInfo info;
    const int port = t.lookup(0, h, rng, &info).port;
    EXPECT_EQ(info.n, N);
    EXPECT_EQ(port, nth == 1 ? 3 : 6) << "member " << nth;
    EXPECT_EQ(peek(rng), peek(expect));
  }
}

TEST_F(ForwardingLookup, ActionsSetTheVcAndUpdateTheHeader) {
  FlowMatch m;
  m.dst_switch = 0;
  table.add(m, 9, FlowAction::eject());
  m.dst_switch = 1;
  table.add(m, 9, FlowAction::to_port(2));  // local, hop-slot
  m.dst_switch = 2;
  table.add(m, 9, FlowAction::to_port(3, VcRule::Fixed, 3));
  m.dst_switch = 12;
  FlowAction take = FlowAction::to_port(5);
  take.op = HeaderOp::TakeGlobal;
  table.add(m, 9, take);
  m.dst_switch = 13;
  FlowAction pin = FlowAction::to_port(4);
  pin.op = HeaderOp::PinExit;
  pin.pin_switch = 3;
  pin.pin_port = 6;
  table.add(m, 9, pin);
  Rng rng;
  RouteHeader h = to(0, 1);
  h.segment = 1;
  RouteDecision d = table.lookup(0, h, rng);
  EXPECT_EQ(d.port, 1);
  EXPECT_EQ(d.vc, 0);
  h = to(1);
  h.segment = 1;
  h.global_done = 1;
  h.vc_shift = 1;
  d = table.lookup(0, h, rng);
  EXPECT_EQ(d.vc, 2 * 1 + 1 + 1);
  h = to(2);
  EXPECT_EQ(table.lookup(0, h, rng).vc, 3);
  h = to(12);
  h.segment = 1;
  h.exit_switch = 0;
  h.exit_port = 5;
  d = table.lookup(0, h, rng);
  EXPECT_EQ(d.port, 5);
  EXPECT_EQ(d.vc, 1) << "a global hop uses VC = segment";
  EXPECT_EQ(h.global_done, 1);
  EXPECT_EQ(h.exit_switch, -1);
  EXPECT_EQ(h.exit_port, -1);
  h = to(13);
  d = table.lookup(0, h, rng);
  EXPECT_EQ(d.vc, 0) << "the VC is computed before the header update";
  EXPECT_EQ(h.exit_switch, 3);
  EXPECT_EQ(h.exit_port, 6);
  EXPECT_EQ(h.global_done, 0);
}

TEST_F(ForwardingLookup, MissReturnsNoPort) {
  table.add(group(3), 1, FlowAction::to_port(5));
  Rng rng;
  RouteHeader h = to(20);
  LookupInfo info;
  EXPECT_EQ(table.lookup(0, h, rng, &info).port, -1);
  EXPECT_EQ(info.entry, -1);
  h = to(-1);
  EXPECT_EQ(table.lookup(0, h, rng).port, -1);
}

TEST_F(ForwardingLookup, ProbabilityRegisterAndBadEntries) {
  for (int port = 0; port < topo.radix(); ++port) EXPECT_EQ(table.probability(port), 100);
  table.set_probability(6, 37);
  EXPECT_EQ(table.probability(6), 37);
  EXPECT_EQ(table.probabilities()[6], 37);
  EXPECT_THROW(table.set_probability(7, 50), std::out_of_range);
  EXPECT_THROW(table.set_probability(3, 101), std::invalid_argument);
  EXPECT_THROW(table.set_probability(3, -1), std::invalid_argument);
  EXPECT_THROW(table.add(FlowMatch{}, 0, FlowAction::to_port(7)), std::invalid_argument);
  FlowMatch m;
  m.dst_switch = 12;
  m.dst_group = 2;  // switch 12 is in group 3
  EXPECT_THROW(table.add(m, 0, FlowAction::to_port(2)), std::invalid_argument);
  FlowAction pin = FlowAction::to_port(2);
  pin.op = HeaderOp::PinExit;
  pin.pin_switch = 5;  // another group
  pin.pin_port = 5;
  EXPECT_THROW(table.add(FlowMatch{}, 0, pin), std::invalid_argument);
  EXPECT_THROW(table.add_equal_cost(FlowMatch{}, 0, {}, TieDraw::Always), std::invalid_argument);
  EXPECT_EQ(table.size(), 0);
}

TEST(ForwardingTableFormat, NamesPortClassesAndWildcards) {
  const Dragonfly t(DragonflyShape{2, 4, 2, 9, Arrangement::Palmtree});
  ForwardingTable table = build_min_table(t, 0);
  table.set_probability(5, 10);
  const std::string s = table.format(t);
  for (const char* want : {"switch 0 (group 0, index 0)", "dfly(2,4,2,9) palmtree", "prio",
                           "dst_group", "(global 0 -> g", "(local 0 -> sw1)", "dst_host",
                           "pinned exit port", "take global", "pin exit sw", "hop-slot",
                           "fixed 0", "unpinned", "port probability", "5 (global 0 -> g8) 10",
                           "4 (local 2 -> sw3) 100"})
    EXPECT_NE(s.find(want), std::string::npos) << "missing \"" << want << "\" in\n" << s;
  // One line per entry, plus the title, the column heads and the register.
  EXPECT_EQ(static_cast<int>(std::count(s.begin(), s.end(), '\n')), table.size() + 3) << s;
  // Wildcards: the ejection line matches on nothing but the destination switch.
  std::istringstream lines(s);
  std::string line;
  int eject_lines = 0;
  while (std::getline(lines, line)) {
    std::istringstream cells(line);
    std::vector<std::string> c;
    for (std::string w; cells >> w;) c.push_back(w);
    if (c.size() < 10 || c[9] != "dst_host") continue;  // the out_port column
    ++eject_lines;
    EXPECT_EQ(c[2], "*") << line;  // dst_group
    EXPECT_EQ(c[3], "0") << line;  // dst_switch
    for (size_t k = 4; k < 8; ++k) EXPECT_EQ(c[k], "*") << line;  // host, in_port, class, exit
    EXPECT_EQ(c[8], "->") << line;
  }
  EXPECT_EQ(eject_lines, 1) << s;

  const Dragonfly abs(DragonflyShape{2, 4, 2, 5, Arrangement::Absolute});
  const std::string sa = build_min_table(abs, 1).format(abs);
  EXPECT_NE(sa.find("ecmp#"), std::string::npos) << sa;
  EXPECT_NE(sa.find("draws"), std::string::npos) << sa;
}

}  // namespace
}  // namespace scfly
