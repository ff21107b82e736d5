// Traffic patterns beyond un/adv+i: destination sets, never self, frequencies, per-run
// permutations, parsing and round-tripping. Fast: plain draws, no simulator.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "topologies/common/rng.h"
#include "tb/traffic.h"

using namespace scfly;

namespace {

TrafficSpec spec_of(const std::string& s) {
  TrafficSpec t;
  const std::string why = parse_traffic(s, t);
  EXPECT_EQ(why, "") << s;
  return t;
}

// dfly(2,4,2,9) palmtree: 72 nodes, 8 per group (the unit tests' usual shape).
const Dragonfly& palm() {
  static const Dragonfly t(DragonflyShape{2, 4, 2, 9, Arrangement::Palmtree});
  return t;
}
// dfly(2,4,4,5) absolute: 40 nodes, 4 links per group pair.
const Dragonfly& absolute() {
  static const Dragonfly t(DragonflyShape{2, 4, 4, 5, Arrangement::Absolute});
  return t;
}

struct Node {
  int group, index, host;
};
Node split(const Dragonfly& t, int n) {
  const int s = t.switch_of_node(n);
  return {t.group_of(s), t.index_of(s), t.host_of_node(n)};
}

// A deterministic pattern's map over all nodes (draws nothing from rng).
std::vector<int> table(const TrafficPattern& tp, const Dragonfly& t) {
  Rng r(0, StreamKind::Nic, 0);
  std::vector<int> m;
  for (int n = 0; n < t.num_nodes(); ++n) m.push_back(tp.dest(n, r));
  return m;
}

bool is_derangement(const std::vector<int>& m) {
  std::set<int> image(m.begin(), m.end());
  if (image.size() != m.size()) return false;
  for (size_t i = 0; i < m.size(); ++i)
    if (m[i] == static_cast<int>(i) || m[i] < 0 || m[i] >= static_cast<int>(m.size()))
      return false;
  return true;
}

}  // namespace

TEST(TrafficPatterns, AdvcTargetsEveryNodeOfTheNextHGroupsEvenly) {
  for (const Dragonfly* t : {&palm(), &absolute()}) {
    const TrafficPattern tp(spec_of("advc"), *t);
    const int per_group = t->a() * t->p();
    Rng r(5, StreamKind::Nic, 1);
    for (int src : {0, 13, t->num_nodes() - 1}) {
      const int G = src / per_group;
      std::map<int, int> hits;
      const int draws = 4000;
      for (int k = 0; k < draws; ++k) {
        const int d = tp.dest(src, r);
        const int off = ((d / per_group - G) % t->g() + t->g()) % t->g();
        ASSERT_GE(off, 1) << "from " << src << " to " << d;
        ASSERT_LE(off, t->h()) << "from " << src << " to " << d;
        ++hits[d];
      }
      EXPECT_EQ(static_cast<int>(hits.size()), t->h() * per_group);
      const double expect = static_cast<double>(draws) / (t->h() * per_group);
      for (const auto& [d, c] : hits) EXPECT_NEAR(c, expect, 0.6 * expect) << d;
    }
  }
}

TEST(TrafficPatterns, AdvcLeavesThroughOneSwitchUnderPalmtree) {
  // The bottleneck of the ACOR paper: every group G+1..G+h is directly linked to switch
  // a-1 of the source group.
  const Dragonfly& t = palm();
  for (int G = 0; G < t.g(); ++G)
    for (int off = 1; off <= t.h(); ++off) {
      const GlobalLinkEnd* l = t.links_between(G, (G + off) % t.g());
      for (int k = 0; k < t.links_per_group_pair(); ++k)
        EXPECT_EQ(l[k].sw, t.switch_id(G, t.a() - 1));
    }
}

TEST(TrafficPatterns, AdvlTargetsEveryHostOfTheNextSwitchInTheGroup) {
  const Dragonfly& t = palm();
  const TrafficPattern tp(spec_of("advl"), t);
  Rng r(6, StreamKind::Nic, 2);
  for (int src = 0; src < t.num_nodes(); ++src) {
    const Node s = split(t, src);
    std::set<int> seen;
    for (int k = 0; k < 40; ++k) {
      const int d = tp.dest(src, r);
      const Node n = split(t, d);
      ASSERT_EQ(n.group, s.group);
      ASSERT_EQ(n.index, (s.index + 1) % t.a());
      seen.insert(d);
    }
    EXPECT_EQ(static_cast<int>(seen.size()), t.p());
  }
}

TEST(TrafficPatterns, AdvsTargetsEveryHostOfTheSameIndexSwitchInGroupPlusI) {
  // FOGSim's ADV: switch index kept, group + i, host uniform; weights() agrees.
  for (const Dragonfly* t : {&palm(), &absolute()}) {
    for (int off : {1, 3}) {
      const TrafficPattern tp(spec_of("advs+" + std::to_string(off)), *t);
      Rng r(8, StreamKind::Nic, 4);
      std::vector<std::pair<int, double>> w;
      for (int src = 0; src < t->num_nodes(); ++src) {
        const Node s = split(*t, src);
        std::set<int> seen;
        for (int k = 0; k < 40; ++k) {
          const int d = tp.dest(src, r);
          const Node n = split(*t, d);
          ASSERT_EQ(n.group, (s.group + off) % t->g());
          ASSERT_EQ(n.index, s.index);
          seen.insert(d);
        }
        EXPECT_EQ(static_cast<int>(seen.size()), t->p());
        tp.weights(src, w);
        ASSERT_EQ(static_cast<int>(w.size()), t->p());
        for (const auto& [d, p] : w) {
          EXPECT_TRUE(seen.count(d)) << d;
          EXPECT_DOUBLE_EQ(p, 1.0 / t->p());
        }
      }
    }
  }
  TrafficSpec bad;
  EXPECT_NE(parse_traffic("advs+0", bad).find("advs+N needs an integer group offset"), std::string::npos);
  EXPECT_NE(parse_traffic("advs+x", bad).find("'advs+x'"), std::string::npos);
  EXPECT_NE(check_traffic(spec_of("advs+9"), palm()).find("advs+9 maps every group onto itself"),
            std::string::npos);
}

TEST(TrafficPatterns, HotSendsAQuarterToTheFirstEighthPlusItsUniformShare) {
  const Dragonfly& t = palm();  // N = 72: hot region = nodes 0..8
  const TrafficPattern tp(spec_of("hot"), t);
  ASSERT_EQ(tp.hot_nodes(), 9);
  const int N = t.num_nodes(), H = tp.hot_nodes();
  Rng r(7, StreamKind::Nic, 3);
  for (int src : {3, 40}) {  // a hot and a cold source
    const int draws = 40000;
    int hot = 0;
    std::set<int> seen;
    for (int k = 0; k < draws; ++k) {
      const int d = tp.dest(src, r);
      ASSERT_NE(d, src);
      ASSERT_GE(d, 0);
      ASSERT_LT(d, N);
      hot += d < H;
      seen.insert(d);
    }
    EXPECT_EQ(static_cast<int>(seen.size()), N - 1);
    // 1/4 to the hot region, plus the hot share of the uniform 3/4.
    const int hot_others = src < H ? H - 1 : H;
    const double expect = 0.25 + 0.75 * hot_others / (N - 1.0);
    EXPECT_NEAR(static_cast<double>(hot) / draws, expect, 0.01) << "source " << src;
  }
}

TEST(TrafficPatterns, PermIsAFixedDerangementPerSeedAndPhase) {
  const Dragonfly& t = palm();
  const TrafficSpec s = spec_of("perm");
  const std::vector<int> a = table(TrafficPattern(s, t, 11, 0), t);
  EXPECT_TRUE(is_derangement(a));
  EXPECT_EQ(a, table(TrafficPattern(s, t, 11, 0), t));  // same seed, same permutation
  EXPECT_NE(a, table(TrafficPattern(s, t, 12, 0), t));  // another seed
  EXPECT_NE(a, table(TrafficPattern(s, t, 11, 1), t));  // another phase
  for (uint64_t seed = 0; seed < 50; ++seed)
    EXPECT_TRUE(is_derangement(table(TrafficPattern(s, t, seed, 0), t))) << seed;
  // dest draws nothing from the caller's stream.
  Rng r1(1, StreamKind::Nic, 0), r2(1, StreamKind::Nic, 0);
  TrafficPattern(s, t, 11, 0).dest(5, r1);
  EXPECT_EQ(r1.next(), r2.next());
}

TEST(TrafficPatterns, ShiftMovesGroupAndSwitchAndKeepsTheHost) {
  for (const Dragonfly* t : {&palm(), &absolute()}) {
    for (const char* str : {"shift(1,0)", "shift(2,0)", "shift(0,1)", "shift(3,2)",
                            "shift(13,5)"}) {
      const TrafficSpec s = spec_of(str);
      ASSERT_EQ(check_traffic(s, *t), "") << str;
      const std::vector<int> m = table(TrafficPattern(s, *t), *t);
      EXPECT_TRUE(is_derangement(m)) << str;
      for (int n = 0; n < t->num_nodes(); ++n) {
        const Node a = split(*t, n), b = split(*t, m[static_cast<size_t>(n)]);
        EXPECT_EQ(b.group, (a.group + s.shift_groups) % t->g()) << str;
        EXPECT_EQ(b.index, (a.index + s.shift_switches) % t->a()) << str;
        EXPECT_EQ(b.host, a.host) << str;
      }
    }
  }
  // Identity shifts are refused, naming what is allowed.
  EXPECT_NE(check_traffic(spec_of("shift(9,4)"), palm()).find("not divisible"),
            std::string::npos);
  EXPECT_NE(check_traffic(spec_of("shift(9,0)"), palm()), "");
  EXPECT_EQ(check_traffic(spec_of("shift(9,1)"), palm()), "");
}

TEST(TrafficPatterns, GroupPermIsAGroupDerangementWithSwitchPermutations) {
  for (const Dragonfly* t : {&palm(), &absolute()}) {
    const TrafficSpec s = spec_of("group-perm");
    const std::vector<int> m = table(TrafficPattern(s, *t, 21, 0), *t);
    EXPECT_TRUE(is_derangement(m));
    std::map<int, int> group_to;  // source group -> destination group
    std::map<int, std::set<int>> group_from;
    for (int n = 0; n < t->num_nodes(); ++n) {
      const Node a = split(*t, n), b = split(*t, m[static_cast<size_t>(n)]);
      EXPECT_EQ(b.host, a.host);
      EXPECT_NE(b.group, a.group);
      const auto [it, fresh] = group_to.emplace(a.group, b.group);
      EXPECT_EQ(it->second, b.group) << "group " << a.group << " sends to two groups";
      (void)fresh;
      group_from[b.group].insert(a.group);
      // Hosts of one switch go to one switch.
      EXPECT_EQ(t->switch_of_node(m[static_cast<size_t>(n)]),
                t->switch_of_node(m[static_cast<size_t>(t->switch_of_node(n) * t->p())]));
    }
    for (const auto& [g, from] : group_from) EXPECT_EQ(from.size(), 1u) << g;
    EXPECT_EQ(m, table(TrafficPattern(s, *t, 21, 0), *t));
    EXPECT_NE(m, table(TrafficPattern(s, *t, 22, 0), *t));
  }
}

TEST(TrafficPatterns, MixedSplitsNodesOnceAndTheRestShift) {
  const Dragonfly& t = palm();
  const int N = t.num_nodes();
  for (const char* str : {"mixed(25,75)", "mixed(50,50,2,0)", "mixed(100,0)", "mixed(0,100)"}) {
    const TrafficSpec s = spec_of(str);
    const TrafficPattern tp(s, t, 31, 0);
    int uniform_nodes = 0;
    Rng r(8, StreamKind::Nic, 4);
    for (int src = 0; src < N; ++src) {
      std::set<int> seen;
      for (int k = 0; k < 30; ++k) {
        const int d = tp.dest(src, r);
        ASSERT_NE(d, src);
        ASSERT_GE(d, 0);
        ASSERT_LT(d, N);
        seen.insert(d);
      }
      if (tp.sends_uniform(src)) {
        ++uniform_nodes;
        EXPECT_GT(seen.size(), 10u) << str << " node " << src;
      } else {
        ASSERT_EQ(seen.size(), 1u) << str << " node " << src;
        const Node a = split(t, src), b = split(t, *seen.begin());
        EXPECT_EQ(b.group, (a.group + s.shift_groups) % t.g());
        EXPECT_EQ(b.index, (a.index + s.shift_switches) % t.a());
        EXPECT_EQ(b.host, a.host);
      }
    }
    EXPECT_EQ(uniform_nodes, (N * s.uniform_percent + 50) / 100) << str;
  }
  // The subset is fixed by the seed.
  const TrafficSpec s = spec_of("mixed(50,50)");
  const TrafficPattern a(s, t, 31, 0), b(s, t, 31, 0), c(s, t, 32, 0);
  bool differ = false;
  for (int n = 0; n < N; ++n) {
    EXPECT_EQ(a.sends_uniform(n), b.sends_uniform(n));
    differ |= a.sends_uniform(n) != c.sends_uniform(n);
  }
  EXPECT_TRUE(differ);
}

TEST(TrafficPatterns, TmixedMixesPerPacket) {
  const Dragonfly& t = palm();
  const TrafficSpec s = spec_of("tmixed(30,70)");
  const TrafficPattern tp(s, t);
  Rng r(9, StreamKind::Nic, 5);
  for (int src : {0, 37}) {
    const Node a = split(t, src);
    const int shifted = ((a.group + 1) % t.g() * t.a() + a.index) * t.p() + a.host;
    const int draws = 20000;
    int to_shift = 0;
    std::set<int> seen;
    for (int k = 0; k < draws; ++k) {
      const int d = tp.dest(src, r);
      ASSERT_NE(d, src);
      to_shift += d == shifted;
      seen.insert(d);
    }
    EXPECT_EQ(static_cast<int>(seen.size()), t.num_nodes() - 1);
    const double expect = 0.7 + 0.3 / (t.num_nodes() - 1);
    EXPECT_NEAR(static_cast<double>(to_shift) / draws, expect, 0.015);
  }
}

TEST(TrafficPatterns, ExistingPatternsDrawAsBefore) {
  // un and adv+i: the same draws as the original implementation, whatever the seed.
  const Dragonfly& t = palm();
  const TrafficPattern un(spec_of("un"), t, 99, 3), adv(spec_of("adv+2"), t, 99, 3);
  Rng r(3, StreamKind::Nic, 0), ref(3, StreamKind::Nic, 0);
  for (int k = 0; k < 1000; ++k) {
    const int src = k % t.num_nodes();
    int d = static_cast<int>(ref.below(static_cast<uint32_t>(t.num_nodes() - 1)));
    EXPECT_EQ(un.dest(src, r), d >= src ? d + 1 : d);
    const int g = (src / 8 + 2) % 9;
    EXPECT_EQ(adv.dest(src, r), g * 8 + static_cast<int>(ref.below(8)));
  }
}

TEST(TrafficParsing, EveryAcceptedStringRoundTrips) {
  for (const char* str :
       {"un", "adv+1", "adv+10", "advs+1", "advs+7", "advc", "advl", "hot", "perm", "group-perm", "shift(2,0)",
        "shift(0,1)", "shift(12,7)", "mixed(50,50)", "mixed(25,75)", "mixed(100,0)",
        "mixed(0,100)", "mixed(75,25,2,1)", "mixed(50,50,0,3)", "tmixed(50,50)",
        "tmixed(10,90,3,0)"}) {
    TrafficSpec s;
    ASSERT_EQ(parse_traffic(str, s), "") << str;
    EXPECT_EQ(to_string(s), str);
    TrafficSpec again;
    ASSERT_EQ(parse_traffic(to_string(s), again), "");
    EXPECT_EQ(again.kind, s.kind);
  }
  TrafficSpec s = spec_of("mixed(25,75)");
  EXPECT_EQ(s.kind, TrafficKind::Mixed);
  EXPECT_EQ(s.uniform_percent, 25);
  EXPECT_EQ(s.shift_groups, 1);  // the default adversarial pattern is shift(1,0)
  EXPECT_EQ(s.shift_switches, 0);
  s = spec_of("tmixed(10,90,3,2)");
  EXPECT_EQ(s.kind, TrafficKind::TimeMixed);
  EXPECT_EQ(s.shift_groups, 3);
  EXPECT_EQ(s.shift_switches, 2);
}

TEST(TrafficParsing, BadStringsAreRejectedWithAReason) {
  const std::pair<const char*, const char*> bad[] = {
      {"shift(0,0)", "DG > 0 or DS > 0"},
      {"shift(a,b)", "two integers"},
      {"shift(1.5,0)", "two integers"},
      {"shift(-1,0)", "two integers"},
      {"shift(1)", "two integers"},
      {"shift(1,0,0)", "two integers"},
      {"shift(1, 0)", "no spaces"},
      {"shift(01,0)", "two integers"},
      {"shift(2,0", "two integers"},
      {"shift()", "two integers"},
      {"mixed(30,30)", "sum to 100"},
      {"mixed(150,-50)", "UR + ADV = 100"},
      {"mixed(50)", "UR + ADV = 100"},
      {"mixed(50,50,1)", "UR + ADV = 100"},
      {"mixed(50,50,1,0)", "write mixed(50,50)"},
      {"mixed(50,50,0,0)", "every node onto itself"},
      {"tmixed(60,60)", "sum to 100"},
      {"tmixed(x,y)", "UR + ADV = 100"},
      {"hotspot", "allowed: un, adv+N"},
      {"ADVC", "allowed:"},
      {"perm ", "allowed:"},
      {"groupperm", "group-perm"},
      {"", "allowed:"},
  };
  for (const auto& [str, why] : bad) {
    TrafficSpec s;
    const std::string got = parse_traffic(str, s);
    EXPECT_NE(got.find(why), std::string::npos) << "'" << str << "' gave: " << got;
  }
}

TEST(TrafficParsing, TopologyChecksNameWhatIsAllowed) {
  // dfly(1,1,6,4) absolute: h = 6 >= g = 4, a single switch per group, 4 nodes.
  const Dragonfly big_h(DragonflyShape{1, 1, 6, 4, Arrangement::Absolute});
  EXPECT_NE(check_traffic(spec_of("advc"), big_h).find("h < g"), std::string::npos);
  EXPECT_NE(check_traffic(spec_of("advl"), big_h).find("a >= 2"), std::string::npos);
  EXPECT_EQ(check_traffic(spec_of("advc"), palm()), "");
  EXPECT_EQ(check_traffic(spec_of("advl"), palm()), "");
  EXPECT_EQ(check_traffic(spec_of("hot"), palm()), "");
  EXPECT_NE(check_traffic(spec_of("hot"), big_h).find("at least 9 nodes"), std::string::npos);
  EXPECT_EQ(check_traffic(spec_of("mixed(50,50)"), palm()), "");
  EXPECT_NE(check_traffic(spec_of("mixed(50,50,9,0)"), palm()), "");  // a = 4, g = 9
  EXPECT_NE(check_traffic(spec_of("tmixed(50,50,0,4)"), palm()), "");
  EXPECT_THROW(TrafficPattern(spec_of("advc"), big_h), std::invalid_argument);
}
