// Dragonfly topology: the port map, the global-link wiring of both arrangements and the shape
// checks. Every property is checked on every (switch, port) of several shapes, because a
// wiring error usually shows on a single link of a single shape (e.g. when (g-1) < a*h).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <ostream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "topologies/dragonfly.h"

namespace scfly {
namespace {

struct ShapeCase {
  int p, a, h, g;
  Arrangement arr;
};

std::string case_name(const testing::TestParamInfo<ShapeCase>& info) {
  const ShapeCase& c = info.param;
  return std::string(c.arr == Arrangement::Palmtree ? "palmtree" : c.arr == Arrangement::Absolute ? "absolute" : "fsu") + "_" +
         std::to_string(c.p) + "_" + std::to_string(c.a) + "_" + std::to_string(c.h) + "_" +
         std::to_string(c.g);
}

void PrintTo(const ShapeCase& c, std::ostream* os) {
  *os << "dfly(" << c.p << "," << c.a << "," << c.h << "," << c.g << ") " << to_string(c.arr);
}

DragonflyShape shape_of(const ShapeCase& c) { return DragonflyShape{c.p, c.a, c.h, c.g, c.arr}; }

using End = std::pair<int, int>;  // (switch, port), comparable
End end_of(const GlobalLinkEnd& e) { return {e.sw, e.port}; }

// Global link index t = r*h + j of the global port `port` on switch `sw`, within its group.
int link_index(const Dragonfly& t, int sw, int port) {
  return t.index_of(sw) * t.h() + (port - t.first_global_port());
}

class TopologyShape : public testing::TestWithParam<ShapeCase> {
 protected:
  TopologyShape() : topo(shape_of(GetParam())) {}
  Dragonfly topo;
};

// A global link is one cable: its two ends must name each other, and no port may be the far
// end of two links (that would be two cables plugged into one socket).
TEST_P(TopologyShape, GlobalLinksAreSymmetricAndUseEachPortOnce) {
  const Dragonfly& t = topo;
  std::set<End> far_ends;
  for (int sw = 0; sw < t.num_switches(); ++sw) {
    for (int port = t.first_global_port(); port < t.radix(); ++port) {
      const GlobalLinkEnd far = t.global_peer(sw, port);
      ASSERT_GE(far.sw, 0) << "switch " << sw << " port " << port;
      ASSERT_LT(far.sw, t.num_switches()) << "switch " << sw << " port " << port;
      ASSERT_GE(far.port, 0);
      ASSERT_LT(far.port, t.radix());
      EXPECT_EQ(t.port_class(far.port), PortClass::Global)
          << "switch " << sw << " port " << port << " lands on non-global port " << far.port;
      EXPECT_NE(t.group_of(far.sw), t.group_of(sw))
          << "switch " << sw << " port " << port << " loops back into its own group";
      const GlobalLinkEnd back = t.global_peer(far.sw, far.port);
      EXPECT_EQ(back.sw, sw) << "switch " << sw << " port " << port;
      EXPECT_EQ(back.port, port) << "switch " << sw << " port " << port;
      EXPECT_TRUE(far_ends.insert(end_of(far)).second)
          << "(" << far.sw << "," << far.port << ") is the far end of two links";
      EXPECT_EQ(t.global_target_group(sw, port), t.group_of(far.sw));
    }
  }
  // Every global port of the network is the far end of exactly one link.
  EXPECT_EQ(far_ends.size(), static_cast<size_t>(t.num_switches() * t.h()));
}

TEST_P(TopologyShape, EveryGroupPairHasTheSameNumberOfLinks) {
  const Dragonfly& t = topo;
  ASSERT_EQ(t.links_per_group_pair() * (t.g() - 1), t.a() * t.h());
  std::map<std::pair<int, int>, int> count;
  for (int sw = 0; sw < t.num_switches(); ++sw)
    for (int port = t.first_global_port(); port < t.radix(); ++port)
      ++count[{t.group_of(sw), t.global_target_group(sw, port)}];
  for (int G = 0; G < t.g(); ++G)
    for (int G2 = 0; G2 < t.g(); ++G2)
      if (G != G2) {
        EXPECT_EQ(count[std::make_pair(G, G2)], t.links_per_group_pair()) << G << "->" << G2;
      }
  EXPECT_EQ(count.size(), static_cast<size_t>(t.g() * (t.g() - 1)));
}

// links_between() is what routing uses to find the exits toward a group, so it must list
// exactly the links the wiring sends there: no missing link, no stranger, no duplicate.
TEST_P(TopologyShape, LinksBetweenListsExactlyTheLinksTowardThatGroup) {
  const Dragonfly& t = topo;
  const int n = t.links_per_group_pair();
  for (int G = 0; G < t.g(); ++G) {
    std::map<int, std::vector<End>> by_target;  // from the wiring itself
    for (int r = 0; r < t.a(); ++r) {
      const int sw = t.switch_id(G, r);
      for (int port = t.first_global_port(); port < t.radix(); ++port)
        by_target[t.global_target_group(sw, port)].push_back({sw, port});
    }
    for (int G2 = 0; G2 < t.g(); ++G2) {
      if (G2 == G) continue;
      const GlobalLinkEnd* links = t.links_between(G, G2);
      std::vector<End> listed;
      for (int k = 0; k < n; ++k) {
        EXPECT_EQ(t.group_of(links[k].sw), G) << G << "->" << G2 << " entry " << k;
        EXPECT_EQ(t.port_class(links[k].port), PortClass::Global) << G << "->" << G2;
        listed.push_back(end_of(links[k]));
      }
      std::sort(listed.begin(), listed.end());
      std::vector<End> expected = by_target[G2];
      std::sort(expected.begin(), expected.end());
      EXPECT_EQ(listed, expected) << "links_between(" << G << "," << G2 << ")";
    }
  }
}

TEST_P(TopologyShape, LocalPortsAndNeighborsAreInverse) {
  const Dragonfly& t = topo;
  for (int from = 0; from < t.a(); ++from) {
    std::set<int> used;
    for (int to = 0; to < t.a(); ++to) {
      if (to == from) continue;
      const int port = t.local_port(from, to);
      EXPECT_GE(port, t.first_local_port());
      EXPECT_LT(port, t.first_global_port());
      EXPECT_EQ(t.port_class(port), PortClass::Local) << from << "->" << to;
      EXPECT_EQ(t.local_neighbor(from, port), to) << from << "->" << to;
      EXPECT_TRUE(used.insert(port).second) << "two neighbours of " << from << " share port " << port;
    }
    for (int port = t.first_local_port(); port < t.first_global_port(); ++port) {
      const int to = t.local_neighbor(from, port);
      EXPECT_NE(to, from) << "port " << port << " of " << from << " loops to itself";
      EXPECT_GE(to, 0);
      EXPECT_LT(to, t.a());
      EXPECT_EQ(t.local_port(from, to), port);
    }
  }
}

TEST_P(TopologyShape, PortClassBoundariesAndRadix) {
  const Dragonfly& t = topo;
  const int p = t.p(), a = t.a(), h = t.h();
  EXPECT_EQ(t.radix(), p + a - 1 + h);
  EXPECT_EQ(t.first_local_port(), p);
  EXPECT_EQ(t.first_global_port(), p + a - 1);
  int hosts = 0, locals = 0, globals = 0;
  for (int port = 0; port < t.radix(); ++port) {
    const PortClass c = t.port_class(port);
    const PortClass want =
        port < p ? PortClass::Host : (port < p + a - 1 ? PortClass::Local : PortClass::Global);
    EXPECT_EQ(c, want) << "port " << port;
    hosts += c == PortClass::Host;
    locals += c == PortClass::Local;
    globals += c == PortClass::Global;
  }
  EXPECT_EQ(hosts, p);
  EXPECT_EQ(locals, a - 1);
  EXPECT_EQ(globals, h);
  for (int host = 0; host < p; ++host) EXPECT_EQ(t.port_class(t.host_port(host)), PortClass::Host);
}

TEST_P(TopologyShape, NodeAndSwitchNumberingIsConsistent) {
  const Dragonfly& t = topo;
  EXPECT_EQ(t.num_switches(), t.g() * t.a());
  EXPECT_EQ(t.num_nodes(), t.g() * t.a() * t.p());
  for (int n = 0; n < t.num_nodes(); ++n) {
    const int sw = t.switch_of_node(n), host = t.host_of_node(n);
    ASSERT_GE(sw, 0);
    ASSERT_LT(sw, t.num_switches());
    ASSERT_GE(host, 0);
    ASSERT_LT(host, t.p());
    EXPECT_EQ(sw * t.p() + host, n);
  }
  for (int G = 0; G < t.g(); ++G)
    for (int r = 0; r < t.a(); ++r) {
      const int sw = t.switch_id(G, r);
      EXPECT_EQ(sw, G * t.a() + r);
      EXPECT_EQ(t.group_of(sw), G);
      EXPECT_EQ(t.index_of(sw), r);
    }
}

class PalmtreeShape : public TopologyShape {};
class AbsoluteShape : public TopologyShape {};

// The palmtree formula of dragonfly.h, link by link.
TEST_P(PalmtreeShape, LinkTReachesGroupGMinusTMinus1AndLandsOnLinkAhMinus1MinusT) {
  const Dragonfly& t = topo;
  const int ah = t.a() * t.h();
  for (int G = 0; G < t.g(); ++G)
    for (int tl = 0; tl < ah; ++tl) {
      const int sw = t.switch_id(G, tl / t.h());
      const int port = t.first_global_port() + tl % t.h();
      const GlobalLinkEnd far = t.global_peer(sw, port);
      EXPECT_EQ(t.group_of(far.sw), ((G - tl - 1) % t.g() + t.g()) % t.g()) << "group " << G << " link " << tl;
      EXPECT_EQ(link_index(t, far.sw, far.port), ah - 1 - tl) << "group " << G << " link " << tl;
    }
}

// ADVc (ACOR paper sec. 2.3 / 5.2, Fig. 8): traffic to the h consecutive groups G+1..G+h
// must concentrate on one switch of the source group, the last one, for the paper's
// per-switch unfairness results to be reproducible.
TEST_P(PalmtreeShape, AdvcBottleneckIsTheLastSwitch) {
  const Dragonfly& t = topo;
  ASSERT_EQ(t.links_per_group_pair(), 1);
  std::ostringstream wrong;  // one line per offending (group, offset), to keep failures short
  int n_wrong = 0;
  for (int G = 0; G < t.g(); ++G)
    for (int i = 1; i <= t.h(); ++i) {
      const GlobalLinkEnd exit = t.links_between(G, (G + i) % t.g())[0];
      if (t.index_of(exit.sw) != t.a() - 1 && n_wrong++ < 4)
        wrong << "  ADV+" << i << " from group " << G << " leaves through switch index "
              << t.index_of(exit.sw) << " (link " << link_index(t, exit.sw, exit.port) << ")\n";
    }
  EXPECT_EQ(n_wrong, 0) << "want switch index " << t.a() - 1 << " for every ADV+1..ADV+"
                        << t.h() << "; first offenders:\n" << wrong.str();
}

// The absolute formula of dragonfly.h: link t goes to the (t mod (g-1))-th other group (in
// increasing order), being the k = t div (g-1)-th link to it, and lands on the k-th link of
// that group pointing back.
TEST_P(AbsoluteShape, LinksAreDealtRoundRobinOverTheOtherGroups) {
  const Dragonfly& t = topo;
  const int ah = t.a() * t.h(), g = t.g();
  // links_to[G][G2] = link indices of G toward G2, increasing.
  std::vector<std::vector<std::vector<int>>> links_to(g, std::vector<std::vector<int>>(g));
  for (int G = 0; G < g; ++G)
    for (int tl = 0; tl < ah; ++tl) {
      const int sw = t.switch_id(G, tl / t.h());
      links_to[G][t.global_target_group(sw, t.first_global_port() + tl % t.h())].push_back(tl);
    }
  for (int G = 0; G < g; ++G) {
    std::vector<int> others;
    for (int G2 = 0; G2 < g; ++G2)
      if (G2 != G) others.push_back(G2);
    for (int tl = 0; tl < ah; ++tl) {
      const int sw = t.switch_id(G, tl / t.h());
      const GlobalLinkEnd far = t.global_peer(sw, t.first_global_port() + tl % t.h());
      const int G2 = t.group_of(far.sw), k = tl / (g - 1);
      EXPECT_EQ(G2, others[static_cast<size_t>(tl % (g - 1))]) << "group " << G << " link " << tl;
      const std::vector<int>& back = links_to[G2][G];
      ASSERT_EQ(back.size(), static_cast<size_t>(t.links_per_group_pair()));
      EXPECT_EQ(link_index(t, far.sw, far.port), back[static_cast<size_t>(k)])
          << "group " << G << " link " << tl;
    }
  }
}

TEST_P(TopologyShape, ShapeIsAccepted) { EXPECT_EQ(check_shape(shape_of(GetParam())), ""); }

const std::vector<ShapeCase> kPalmtree = {
    {1, 2, 1, 3, Arrangement::Palmtree},  {2, 4, 2, 9, Arrangement::Palmtree},
    {4, 8, 4, 33, Arrangement::Palmtree}, {3, 6, 3, 19, Arrangement::Palmtree},
    {1, 1, 1, 2, Arrangement::Palmtree},  // degenerate but legal: no local ports at all
};
const std::vector<ShapeCase> kAbsolute = {
    {2, 4, 2, 2, Arrangement::Absolute},  {2, 4, 2, 3, Arrangement::Absolute},
    {2, 4, 2, 5, Arrangement::Absolute},  {2, 4, 2, 9, Arrangement::Absolute},
    {4, 8, 4, 9, Arrangement::Absolute},  {4, 8, 4, 17, Arrangement::Absolute},
    {4, 8, 4, 33, Arrangement::Absolute},
};
const std::vector<ShapeCase> kFsu = {
    {4, 8, 4, 9, Arrangement::AbsoluteFsu},  {4, 8, 4, 17, Arrangement::AbsoluteFsu},
    {4, 8, 4, 33, Arrangement::AbsoluteFsu}, {2, 4, 2, 5, Arrangement::AbsoluteFsu},
    {2, 4, 2, 9, Arrangement::AbsoluteFsu},
};
std::vector<ShapeCase> all_shapes() {
  std::vector<ShapeCase> v = kPalmtree;
  v.insert(v.end(), kAbsolute.begin(), kAbsolute.end());
  v.insert(v.end(), kFsu.begin(), kFsu.end());
  return v;
}

INSTANTIATE_TEST_SUITE_P(Shapes, TopologyShape, testing::ValuesIn(all_shapes()), case_name);
INSTANTIATE_TEST_SUITE_P(Shapes, PalmtreeShape, testing::ValuesIn(kPalmtree), case_name);
INSTANTIATE_TEST_SUITE_P(Shapes, AbsoluteShape, testing::ValuesIn(kAbsolute), case_name);

// Bad shapes: check_shape explains, naming the config key to change, and the constructor
// refuses with the same message rather than building a half-wired network.
struct BadShape {
  DragonflyShape shape;
  const char* key;
};

TEST(TopologyCheck, ImpossibleShapesAreRejectedNamingTheKey) {
  const Arrangement P = Arrangement::Palmtree, A = Arrangement::Absolute;
  const BadShape cases[] = {
      {{2, 4, 2, 10, P}, "topology.g"},   // g > a*h+1
      {{2, 4, 2, 10, A}, "topology.g"},   // g > a*h+1
      {{2, 4, 2, 1, A}, "topology.g"},    // g < 2
      {{2, 4, 2, 0, A}, "topology.g"},
      {{2, 4, 2, -3, P}, "topology.g"},
      {{2, 4, 2, 5, P}, "topology.g"},    // palmtree needs g = a*h+1
      {{2, 4, 2, 8, P}, "topology.g"},
      {{2, 4, 2, 4, A}, "topology.g"},    // 3 does not divide 8
      {{4, 8, 4, 8, A}, "topology.g"},    // 7 does not divide 32
      {{0, 4, 2, 9, P}, "topology.p"},
      {{-1, 4, 2, 9, P}, "topology.p"},
      {{2, 0, 2, 9, P}, "topology.a"},
      {{2, 4, 0, 9, P}, "topology.h"},
      {{2, 4, 0, 2, A}, "topology.h"},
  };
  for (const BadShape& c : cases) {
    const DragonflyShape& s = c.shape;
    SCOPED_TRACE("dfly(" + std::to_string(s.p) + "," + std::to_string(s.a) + "," +
                 std::to_string(s.h) + "," + std::to_string(s.g) + ") " + to_string(s.arrangement));
    const std::string why = check_shape(s);
    EXPECT_NE(why.find(c.key), std::string::npos) << "message: \"" << why << "\"";
    try {
      const Dragonfly d(s);
      ADD_FAILURE() << "constructor accepted the shape (" << d.num_switches() << " switches)";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()), why);
    }
  }
}

// The messages must also say what would be accepted, so the user can fix the config.
TEST(TopologyCheck, MessagesSayWhatIsAllowed) {
  EXPECT_NE(check_shape({2, 4, 2, 5, Arrangement::Palmtree}).find("absolute"), std::string::npos);
  EXPECT_NE(check_shape({2, 4, 2, 5, Arrangement::Palmtree}).find("9"), std::string::npos);
  // Divisors of a*h=8 plus one.
  EXPECT_NE(check_shape({2, 4, 2, 4, Arrangement::Absolute}).find("2, 3, 5, 9"),
            std::string::npos)
      << check_shape({2, 4, 2, 4, Arrangement::Absolute});
}

TEST(TopologyCheck, RadixLimit) {
  // p+a-1+h = 1+100-1+200 = 300 ports.
  const std::string why = check_shape({1, 100, 200, 2, Arrangement::Absolute});
  EXPECT_NE(why.find("250"), std::string::npos) << why;
  EXPECT_EQ(check_shape({1, 100, 150, 2, Arrangement::Absolute}), "");  // exactly 250 ports
}

// absolute-fsu, the T-UGAL authors' BookSim wiring (`absolute_improved` in their artifact):
// facts about dfly(4,8,4,9) computed from the artifact's code independently of scfly: 127 of
// its 144 global links differ from absolute's, and under shift(2,0) 8 % of the switches own a
// link that lands on their destination switch (absolute: a third). The first links follow the
// cursor by hand: switch 0 to (1,0), (2,0), (3,0), (4,0).
TEST(TopologyFsu, TheAuthorsWiringOfDfly4849) {
  const Dragonfly f(DragonflyShape{4, 8, 4, 9, Arrangement::AbsoluteFsu});
  const Dragonfly abs(DragonflyShape{4, 8, 4, 9, Arrangement::Absolute});
  for (int j = 0; j < 4; ++j) {
    EXPECT_EQ(f.global_peer(0, f.first_global_port() + j).sw, (j + 1) * 8) << j;
  }
  auto links = [](const Dragonfly& t) {
    std::set<std::pair<int, int>> out;
    for (int s = 0; s < t.num_switches(); ++s)
      for (int j = 0; j < t.h(); ++j) {
        const int o = t.global_peer(s, t.first_global_port() + j).sw;
        out.insert({std::min(s, o), std::max(s, o)});
      }
    return out;
  };
  const auto lf = links(f), la = links(abs);
  ASSERT_EQ(lf.size(), 144u);
  int same = 0;
  for (const auto& l : lf) same += la.count(l) > 0 ? 1 : 0;
  EXPECT_EQ(144 - same, 127);
  auto direct = [](const Dragonfly& t) {
    int n = 0;
    for (int s = 0; s < t.num_switches(); ++s) {
      const int d = t.switch_id((t.group_of(s) + 2) % 9, t.index_of(s));
      for (int j = 0; j < t.h(); ++j) n += t.global_peer(s, t.first_global_port() + j).sw == d ? 1 : 0;
    }
    return n;
  };
  EXPECT_EQ(direct(abs), 72 / 3);  // a third of the switches
  EXPECT_EQ(direct(f), 6);         // 8 %
}

TEST(TopologyFsu, ShapesItCannotWireAreRejected) {
  EXPECT_NE(check_shape({2, 4, 2, 4, Arrangement::AbsoluteFsu}).find("topology.g"), std::string::npos);
  EXPECT_EQ(to_string(Arrangement::AbsoluteFsu), std::string("absolute-fsu"));
  // Every shape absolute takes is either wired (with k links per pair) or refused with a reason.
  int built = 0;
  for (int a = 1; a <= 6; ++a)
    for (int h = 1; h <= 4; ++h)
      for (int g = 2; g <= a * h + 1; ++g) {
        if ((a * h) % (g - 1) != 0) continue;
        const DragonflyShape sh{1, a, h, g, Arrangement::AbsoluteFsu};
        const std::string why = check_shape(sh);
        if (!why.empty()) {
          EXPECT_NE(why.find("topology.arrangement=absolute-fsu"), std::string::npos) << why;
          continue;
        }
        ++built;
        const Dragonfly t(sh);
        for (int x = 0; x < g; ++x)
          for (int y = 0; y < g; ++y) {
            if (x == y) continue;
            const GlobalLinkEnd* l = t.links_between(x, y);
            const GlobalLinkEnd* back = t.links_between(y, x);
            for (int k = 0; k < t.links_per_group_pair(); ++k) {
              ASSERT_EQ(t.group_of(t.global_peer(l[k].sw, l[k].port).sw), y);
              EXPECT_EQ(t.global_peer(l[k].sw, l[k].port).sw, back[k].sw);  // same position both ways
            }
          }
      }
  EXPECT_GT(built, 20);
}

TEST(TopologyCheck, ToStringNames) {
  EXPECT_STREQ(to_string(Arrangement::Palmtree), "palmtree");
  EXPECT_STREQ(to_string(Arrangement::Absolute), "absolute");
  EXPECT_STREQ(to_string(PortClass::Host), "host");
  EXPECT_STREQ(to_string(PortClass::Local), "local");
  EXPECT_STREQ(to_string(PortClass::Global), "global");
}

}  // namespace
}  // namespace scfly
