// T-VLB Step 1, the LP throughput model (sc_main/tvlb_model.h), against values worked out by
// hand and against an independent reimplementation (in Python, outside this repository) of
// the definitions of the T-UGAL paper (Rahman, Bhowmik, Ryasnianskiy, Yuan, Lang,
// "Topology-Custom UGAL Routing on Dragonfly", SC'19):
//  - MIN alone under shift(1,0): the k links of a group pair carry the a*p nodes of the
//    group, x = k / (a p);
//  - every VLB path under shift(1,0): a fraction m of the traffic goes minimally (one global
//    hop, m x <= k / (a p)) and the rest over two global hops; the global links of the
//    network carry x (2 - m) <= 1 per node, so x = (1 + k / (a p)) / 2 (9/16 = 0.5625 on
//    dfly(4,8,4,9), the paper's "UGAL 0.56" of Fig. 4);
//  - T-UGAL's ordering constraint lowers x where a longer VLB class would carry more than a
//    shorter one, and its rows then have nonzero duals; it never raises x;
//  - the set statistics of dfly(4,8,4,9) equal that reimplementation's: intermediates
//    5.5 / 16 / 53 / 42 / 56 for I3 / I4 / I5 / I5src / all, VLB paths
//    9 / 33 / 160 / 104 / 208, mean hops 3.06 / 3.63 / 4.26 / 4.12 / 4.38 and
//    5.50 with the baseline's generic segments;
//  - fractional points are nested in X, near X % of the extra intermediates, and fixed per
//    seed; the patterns are the paper's TYPE_1 and TYPE_2 sets; threads change nothing.
#include <gtest/gtest.h>

#include <array>
#include <set>
#include <string>
#include <utility>

#include "sc_main/tvlb_model.h"

namespace scfly {
namespace {

Dragonfly dfly(int p, int a, int h, int g) {
  DragonflyShape s;
  s.p = p;
  s.a = a;
  s.h = h;
  s.g = g;
  s.arrangement = Arrangement::Absolute;
  return Dragonfly(s);
}

TvlbPoint point(const std::string& name) {
  TvlbPoint p;
  const std::string why = parse_tvlb_point(name, p);
  EXPECT_EQ(why, "") << name;
  return p;
}

TrafficPattern pattern(const Dragonfly& t, const std::string& traffic, uint64_t seed = 1) {
  TrafficSpec spec;
  EXPECT_EQ(parse_traffic(traffic, spec), "");
  return TrafficPattern(spec, t, seed, 0);
}

TEST(TvlbModel, MinAloneAndAllVlbUnderShiftAreTheGlobalLinkBounds) {
  for (const auto& [p, a, h, g] : {std::array<int, 4>{2, 4, 2, 3}, {2, 4, 2, 5}, {4, 8, 4, 9}}) {
    const Dragonfly t = dfly(p, a, h, g);
    const double k = t.links_per_group_pair();
    const TrafficPattern shift = pattern(t, "shift(1,0)");
    SCOPED_TRACE(t.describe());
    const TvlbLpResult min = solve_tvlb_lp(t, shift, point("min"));
    EXPECT_NEAR(min.x, k / (a * p), 1e-7);
    EXPECT_NEAR(min.min_share, 1.0, 1e-9);
    for (const char* name : {"all", "all (generic segments)"}) {
      const TvlbLpResult all = solve_tvlb_lp(t, shift, point(name));
      EXPECT_NEAR(all.x, (1 + k / (a * p)) / 2, 1e-7) << name;
      // At the optimum exactly the MIN share the bound needs: m x = k / (a p).
      EXPECT_NEAR(all.min_share * all.x, k / (a * p), 1e-6) << name;
      EXPECT_GE(all.vlb_hops, 2.0);
      EXPECT_LE(all.vlb_hops, 6.0);
    }
  }
}

TEST(TvlbModel, TerminalLinksCapTheThroughput) {
  // hot on dfly(2,4,2,3) (24 nodes, hot region = nodes 0-2): a hot node receives 0.75 (its
  // uniform share from the 23 others) + 21 * 0.25 / 3 + 2 * 0.25 / 2 = 2.75 times the load,
  // so x = 1 / 2.75; the network (5 input channels into switch 0) allows far more.
  const Dragonfly t = dfly(2, 4, 2, 3);
  EXPECT_NEAR(solve_tvlb_lp(t, pattern(t, "hot"), point("all")).x, 1 / 2.75, 1e-7);
  EXPECT_LE(solve_tvlb_lp(t, pattern(t, "un"), point("all")).x, 1.0 + 1e-9);
}

TEST(TvlbModel, OrderingConstraintBindsWhereALongerClassWouldCarryMore) {
  // On dfly(2,4,2,5) the <=4 set's 4-hop paths are the ones a free LP prefers for some
  // patterns: with the constraint x falls and the ordering rows have nonzero duals.
  const Dragonfly t = dfly(2, 4, 2, 5);
  TvlbLpOptions free;
  free.ordering = false;
  int bound = 0;
  for (const TvlbPattern& pat : tvlb_patterns(t, false, 5)) {
    const TrafficPattern tp(pat.spec, t, pat.seed, 0);
    for (const char* name : {"<=3", "<=4", "<=4 +50% 5-hop", "all", "i5src"}) {
      const TvlbLpResult with = solve_tvlb_lp(t, tp, point(name));
      const TvlbLpResult without = solve_tvlb_lp(t, tp, point(name), free);
      EXPECT_LE(with.x, without.x + 1e-9) << pat.name << " " << name;
      EXPECT_EQ(without.ordering_binding, 0);
      EXPECT_LE(with.ordering_excess, 1e-9) << pat.name << " " << name;
      if (with.x < without.x - 1e-6) {
        ++bound;
        EXPECT_GT(with.ordering_binding, 0) << pat.name << " " << name;
        // Every optimum of the free LP then has a longer class above a shorter one (else
        // it would satisfy the constraint with the larger x).
        EXPECT_GT(without.ordering_excess, 1e-7) << pat.name << " " << name;
      }
    }
    // MIN alone has no VLB class to order: the constraint cannot change it.
    EXPECT_NEAR(solve_tvlb_lp(t, tp, point("min")).x, solve_tvlb_lp(t, tp, point("min"), free).x, 1e-9);
  }
  EXPECT_GT(bound, 5);
}

TEST(TvlbModel, SetStatisticsOfDfly4849AreTheSpecs) {
  const Dragonfly t = dfly(4, 8, 4, 9);
  struct Row {
    const char* name;
    double inter, paths, hops;
  };
  for (const Row& r : {Row{"<=3", 5.5, 9, 3.06}, Row{"<=4", 16.0, 33, 3.63}, Row{"<=5", 53.0, 160, 4.26},
                       Row{"i5src", 42.0, 104, 4.12}, Row{"all", 56.0, 208, 4.38}}) {
    const TvlbSetStats st = tvlb_set_stats(t, point(r.name), 1);
    EXPECT_NEAR(st.intermediates, r.inter, 0.05) << r.name;
    EXPECT_NEAR(st.paths, r.paths, 0.5) << r.name;
    EXPECT_NEAR(st.hops, r.hops, 0.005) << r.name;
  }
  const TvlbSetStats src = tvlb_set_stats(t, point("i5src"), 1);
  EXPECT_EQ(src.min_size, 40);
  EXPECT_EQ(src.max_size, 44);
  EXPECT_NEAR(tvlb_set_stats(t, point("generic"), 1).hops, 5.50, 0.005);
}

TEST(TvlbModel, FractionalPointsAreNestedNearTheirShareAndFixedPerSeed) {
  const Dragonfly t = dfly(4, 8, 4, 9);
  long long extra = 0, in30 = 0, in60 = 0;
  for (int s = 0; s < t.num_switches(); s += 5)
    for (int d = 0; d < t.num_switches(); d += 3) {
      if (t.group_of(s) == t.group_of(d)) continue;
      const std::vector<int> base = tvlb_point_set(t, s, d, point("<=4"), 7);
      const std::vector<int> p30 = tvlb_point_set(t, s, d, point("<=4 +30% 5-hop"), 7);
      const std::vector<int> p60 = tvlb_point_set(t, s, d, point("<=4 +60% 5-hop"), 7);
      const std::vector<int> all5 = tvlb_point_set(t, s, d, point("<=5"), 7);
      const std::set<int> b(base.begin(), base.end()), s30(p30.begin(), p30.end()), s60(p60.begin(), p60.end()),
          s5(all5.begin(), all5.end());
      for (int i : base) EXPECT_TRUE(s30.count(i));
      for (int i : p30) EXPECT_TRUE(s60.count(i)) << "not nested";
      for (int i : p60) EXPECT_TRUE(s5.count(i)) << "outside the next class";
      extra += static_cast<long long>(all5.size() - base.size());
      in30 += static_cast<long long>(p30.size() - base.size());
      in60 += static_cast<long long>(p60.size() - base.size());
      EXPECT_EQ(p30, tvlb_point_set(t, s, d, point("<=4 +30% 5-hop"), 7));
    }
  ASSERT_GT(extra, 1000);
  EXPECT_NEAR(static_cast<double>(in30) / static_cast<double>(extra), 0.30, 0.03);
  EXPECT_NEAR(static_cast<double>(in60) / static_cast<double>(extra), 0.60, 0.03);
  // Another seed draws another subset.
  int differ = 0;
  for (int d = 8; d < 72; ++d)
    differ += tvlb_point_set(t, 0, d, point("<=4 +50% 5-hop"), 7) != tvlb_point_set(t, 0, d, point("<=4 +50% 5-hop"), 8);
  EXPECT_GT(differ, 10);
}

TEST(TvlbModel, PointNamesRoundTripAndBadNamesListWhatIsAllowed) {
  const std::vector<TvlbPoint> pts = tvlb_table1_points();
  EXPECT_EQ(pts.size(), 31u + 3u);  // the paper's 31 Table 1 points, i5src, i5dst, generic
  std::set<std::string> names;
  for (const TvlbPoint& p : pts) {
    TvlbPoint q;
    EXPECT_EQ(parse_tvlb_point(p.name, q), "") << p.name;
    EXPECT_EQ(q.name, p.name);
    EXPECT_EQ(q.percent, p.percent);
    names.insert(p.name);
  }
  EXPECT_EQ(names.size(), pts.size());
  TvlbPoint q;
  for (const auto& [alias, name] : {std::pair<const char*, const char*>{"i6", "all"}, {"i4", "<=4"}, {"generic", "all (generic segments)"}}) {
    EXPECT_EQ(parse_tvlb_point(alias, q), "") << alias;
    EXPECT_EQ(q.name, name);
  }
  const std::string why = parse_tvlb_point("<=6", q);
  EXPECT_NE(why.find("'<=6'"), std::string::npos) << why;
  EXPECT_NE(why.find("i5src"), std::string::npos) << why;
}

TEST(TvlbModel, PatternsAreThePapersTypeOneAndTypeTwoSets) {
  const Dragonfly t = dfly(4, 8, 4, 9);
  const std::vector<TvlbPattern> full = tvlb_patterns(t, false);
  EXPECT_EQ(full.size(), 8u * 8u + 20u);  // (g-1) a shifts and 20 group permutations
  std::set<std::string> names;
  for (const TvlbPattern& p : full) names.insert(p.name);
  EXPECT_EQ(names.size(), full.size());
  EXPECT_TRUE(names.count("shift(8,7)"));
  EXPECT_TRUE(names.count("group-perm seed 20"));
  const std::vector<TvlbPattern> quick = tvlb_patterns(t, true);
  EXPECT_EQ(quick.size(), 4u * 2u + 3u);
  // A TYPE_2 pattern maps every switch into another group, a whole group onto one group.
  for (const TvlbPattern& p : full) {
    if (p.seed == 0) continue;
    const TrafficPattern tp(p.spec, t, p.seed, 0);
    std::vector<std::pair<int, double>> w;
    for (int grp = 0; grp < t.g(); ++grp) {
      std::set<int> to;
      for (int n = grp * t.a() * t.p(); n < (grp + 1) * t.a() * t.p(); ++n) {
        tp.weights(n, w);
        ASSERT_EQ(w.size(), 1u);
        to.insert(t.group_of(w[0].first / t.p()));
      }
      EXPECT_EQ(to.size(), 1u);
      EXPECT_NE(*to.begin(), grp);
    }
  }
}

TEST(TvlbModel, ThreadsDoNotChangeTheResult) {
  const Dragonfly t = dfly(2, 4, 2, 5);
  TvlbStep1Options o;
  o.points = {point("<=3"), point("<=4 +50% 5-hop"), point("i5src"), point("all")};
  o.quick = true;
  o.jobs = 1;
  const TvlbStep1 one = run_tvlb_step1(t, o);
  o.jobs = 3;
  const TvlbStep1 three = run_tvlb_step1(t, o);
  ASSERT_EQ(one.points.size(), three.points.size());
  for (size_t k = 0; k < one.points.size(); ++k) EXPECT_EQ(one.points[k].x, three.points[k].x);
  // The best Table 1 point is "all" (0.625 on every pattern); i5src is not a Table 1 point.
  ASSERT_GE(one.best, 0);
  EXPECT_EQ(one.points[static_cast<size_t>(one.best)].point.name, "all");
  EXPECT_NEAR(one.points[static_cast<size_t>(one.best)].mean, 0.625, 1e-7);
  EXPECT_LT(one.points[0].mean, one.points[1].mean);  // <=3 below <=4 +50 %
  const nlohmann::json j = to_json(one);
  EXPECT_EQ(j["points"].size(), 4u);
  EXPECT_EQ(j["best"], "all");
  EXPECT_EQ(j["points"][0]["x"].size(), one.patterns.size());
}

// Link-usage balance (Step 2's imbalance checks) against that reimplementation's values on
// dfly(4,8,4,9): I5src's global links balanced (max/mean 1.008, min/mean 0.993), its local
// links not (1.40 / 0.47), I5 worse (1.45 / 0.41); generic segments over every link of every
// group pair are perfectly balanced by symmetry.
TEST(TvlbModel, LinkUsageBalanceIsTheSpecs) {
  const Dragonfly t = dfly(4, 8, 4, 9);
  const TvlbBalance src = tvlb_balance(t, point("i5src"), 1);
  EXPECT_NEAR(src.global_max, 1.008, 0.005);
  EXPECT_NEAR(src.global_min, 0.993, 0.005);
  EXPECT_NEAR(src.local_max, 1.40, 0.01);
  EXPECT_NEAR(src.local_min, 0.47, 0.01);
  const TvlbBalance i5 = tvlb_balance(t, point("<=5"), 1);
  EXPECT_NEAR(i5.local_max, 1.45, 0.015);
  EXPECT_NEAR(i5.local_min, 0.41, 0.01);
  const TvlbBalance gen = tvlb_balance(t, point("generic"), 1);
  for (double v : {gen.local_max, gen.local_min, gen.global_max, gen.global_min}) EXPECT_NEAR(v, 1.0, 1e-9);
}

// Step 1's choice: the highest mean, ties to the shorter set; the vicinity is the best and
// the shortest points within 0.01 of it.
TEST(TvlbModel, BestPointTiesGoToTheShorterSetAndTheVicinityIsNearIt) {
  const Dragonfly t = dfly(2, 4, 2, 5);
  TvlbStep1Options o;
  o.points = {point("<=3"), point("<=4"), point("<=4 +50% 5-hop"), point("<=4 +75% 5-hop"), point("<=5"), point("all"),
              point("i5src")};
  o.quick = true;
  const TvlbStep1 r = run_tvlb_step1(t, o);
  ASSERT_GE(r.best, 0);
  // <=5 and all both reach 0.625 on every quick pattern; <=5 has the shorter VLB paths.
  EXPECT_EQ(r.points[static_cast<size_t>(r.best)].point.name, "<=5");
  EXPECT_NEAR(r.points[5].mean, r.points[4].mean, 1e-9);
  ASSERT_FALSE(r.vicinity.empty());
  EXPECT_EQ(r.vicinity[0], r.best);
  std::set<std::string> near;
  for (int k : r.vicinity) {
    near.insert(r.points[static_cast<size_t>(k)].point.name);
    EXPECT_GE(r.points[static_cast<size_t>(k)].mean, r.points[static_cast<size_t>(r.best)].mean - 0.01);
  }
  EXPECT_FALSE(near.count("<=3"));    // far below
  EXPECT_FALSE(near.count("i5src"));  // a strategic point, not a Table 1 one
  EXPECT_TRUE(near.count("<=4 +75% 5-hop")) << "shorter than all and within 0.01";
}

// Each T-VLB point has the run-time overrides that draw from the same sets, and those sets
// are the LP's: i6 for "all", the class and percent and seed for a fraction.
TEST(TvlbModel, PointsMapToTheRunTimeSetsTheLpUses) {
  EXPECT_EQ(tvlb_point_overrides(point("all"), 1), "ugal.vlb_set=i6");
  EXPECT_EQ(tvlb_point_overrides(point("i5src"), 1), "ugal.vlb_set=i5src");
  EXPECT_EQ(tvlb_point_overrides(point("<=4 +60% 5-hop"), 3), "ugal.vlb_set=i4 ugal.vlb_percent=60 ugal.vlb_seed=3");
  EXPECT_EQ(tvlb_point_overrides(point("min"), 1), "");
  EXPECT_EQ(tvlb_point_overrides(point("generic"), 1), "");
  const Dragonfly t = dfly(2, 4, 2, 5);
  for (int s = 0; s < t.num_switches(); ++s)
    for (int d = 0; d < t.num_switches(); ++d) {
      if (t.group_of(s) == t.group_of(d)) continue;
      EXPECT_EQ(tvlb_point_set(t, s, d, point("all"), 1), tvlb_rule_set(t, s, d, TvlbRule{TvlbClass::I6, 0, 1}));
      EXPECT_EQ(tvlb_point_set(t, s, d, point("<=4 +60% 5-hop"), 3), tvlb_rule_set(t, s, d, TvlbRule{TvlbClass::I4, 60, 3}));
      EXPECT_EQ(tvlb_rule_set(t, s, d, TvlbRule{TvlbClass::I6, 0, 1}).size(), 3u * 4u);  // (g - 2) a
    }
}

}  // namespace
}  // namespace scfly
