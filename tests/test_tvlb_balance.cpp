// T-VLB Step 2's load-balance adjustment and path files (routing_units/tvlb_balance.h): the
// draw skips removed intermediates and stays uniform over the rest; the rules keep every
// pair at or above its floor, remove only members, and never leave the imbalance they act on
// worse; the usage model agrees with an independent count; path files round-trip and every
// kind of bad file is an error naming the file and the entry; the T-UGAL routing names and
// the tugal.* keys resolve and validate.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <fstream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "routing_units/routing.h"
#include "tests/empty_view.h"
#include "routing_units/rtl_widths.h"
#include "routing_units/tvlb_balance.h"
#include "sc_main/config.h"
#include "tests/config_error.h"
#include "tests/test_tmp.h"

namespace scfly {
namespace {

const Dragonfly& g9() {  // dfly(2,4,2,9) palmtree: one link per group pair
  static const Dragonfly t(DragonflyShape{2, 4, 2, 9, Arrangement::Palmtree});
  return t;
}
const Dragonfly& g5() {  // dfly(2,4,2,5) absolute: two links per group pair
  static const Dragonfly t(DragonflyShape{2, 4, 2, 5, Arrangement::Absolute});
  return t;
}
const Dragonfly& w9() {  // dfly(1,4,4,9) absolute: two links per group pair, 36 switches
  static const Dragonfly t(DragonflyShape{1, 4, 4, 9, Arrangement::Absolute});
  return t;
}

std::string write_tmp(const std::string& name, const std::string& text) {
  const std::string path = tmp(name);
  std::ofstream(path) << text;
  return path;
}

std::string read_error(const std::string& path, const Dragonfly& t) {
  try {
    read_tvlb_paths(path, t);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(TvlbBalance, TheDrawSkipsRemovedIntermediatesAndStaysUniform) {
  const Dragonfly& t = w9();
  const TvlbRule rule{TvlbClass::I5Src, 0, 1};
  const int s = 0, d = 20;
  const std::vector<int> set = tvlb_rule_set(t, s, d, rule);
  ASSERT_GE(set.size(), 4u);
  TvlbRemovals rm;
  rm.switches = t.num_switches();
  const std::vector<int> gone = {set[0], set[2], set.back()};
  for (int i : gone) rm.keys.push_back(TvlbRemovals::key(rm.switches, s, d, i));
  rm.keys.push_back(TvlbRemovals::key(rm.switches, s, d + 1, set[1]));  // another pair's: no effect here
  std::sort(rm.keys.begin(), rm.keys.end());
  EXPECT_TRUE(rm.removed(s, d, set[0]));
  EXPECT_FALSE(rm.removed(s, d, set[1]));
  const auto [b, e] = rm.of(s, d);
  EXPECT_EQ(e - b, 3);
  Rng rng(5, StreamKind::Traffic, 0);
  std::map<int, int> n;
  const size_t left = set.size() - gone.size();
  const int draws = 400 * static_cast<int>(left);
  for (int k = 0; k < draws; ++k) ++n[tvlb_draw(t, s, d, rule, rng, &rm)];
  EXPECT_EQ(n.size(), left);
  for (int i : gone) EXPECT_EQ(n.count(i), 0u) << i;
  for (const auto& [i, c] : n) {
    EXPECT_TRUE(std::binary_search(set.begin(), set.end(), i)) << i;
    EXPECT_GT(c, 320) << i;  // 400 expected, sigma 20
    EXPECT_LT(c, 480) << i;
  }
  // No removals: the draw is the old one, draw for draw.
  const TvlbRemovals none;
  Rng r1(9, StreamKind::Traffic, 0), r2(9, StreamKind::Traffic, 0);
  for (int k = 0; k < 200; ++k) EXPECT_EQ(tvlb_draw(t, s, d, rule, r1), tvlb_draw(t, s, d, rule, r2, &none));
}

// The usage model against a direct count: every (pair, intermediate, segment tie) weighted
// as the run-time draw takes it; the mean VLB hops equal enumerate_vlb's over the set.
TEST(TvlbBalance, UsageEqualsADirectCount) {
  const Dragonfly& t = g5();
  const TvlbRule rule{TvlbClass::I5Src, 0, 1};
  const TvlbChannels ch(t);
  std::vector<double> use(static_cast<size_t>(ch.count()), 0.0);
  double hops = 0, size = 0;
  int pairs = 0;
  std::vector<TvlbPath> p1, p2;
  for (int s = 0; s < t.num_switches(); ++s)
    for (int d = 0; d < t.num_switches(); ++d) {
      if (t.group_of(s) == t.group_of(d)) continue;
      ++pairs;
      const std::vector<int> set = tvlb_rule_set(t, s, d, rule);
      const std::vector<VlbRoute> routes = enumerate_vlb(t, s, d);
      size += static_cast<double>(set.size());
      double h = 0;
      for (int i : set) {
        const auto r = std::find_if(routes.begin(), routes.end(), [&](const VlbRoute& x) { return x.inter == i; });
        ASSERT_NE(r, routes.end());
        h += r->hops();
        tvlb_segment_paths(t, ch, s, i, false, p1);
        tvlb_segment_paths(t, ch, i, d, false, p2);
        for (const auto* seg : {&p1, &p2})
          for (const TvlbPath& p : *seg)
            for (int c : p) use[static_cast<size_t>(c)] += 1.0 / static_cast<double>(set.size() * seg->size());
      }
      hops += h / static_cast<double>(set.size());
    }
  auto ratio = [&](int from, int to, bool max) {
    double sum = 0, x = max ? 0 : 1e300;
    for (int c = from; c < to; ++c) {
      sum += use[static_cast<size_t>(c)];
      x = max ? std::max(x, use[static_cast<size_t>(c)]) : std::min(x, use[static_cast<size_t>(c)]);
    }
    return x / (sum / (to - from));
  };
  const TvlbUsage u = tvlb_usage(t, rule);
  EXPECT_NEAR(u.local_max, ratio(0, ch.locals(), true), 1e-9);
  EXPECT_NEAR(u.local_min, ratio(0, ch.locals(), false), 1e-9);
  EXPECT_NEAR(u.global_max, ratio(ch.locals(), ch.count(), true), 1e-9);
  EXPECT_NEAR(u.global_min, ratio(ch.locals(), ch.count(), false), 1e-9);
  EXPECT_NEAR(u.hops, hops / pairs, 1e-9);
  EXPECT_NEAR(u.intermediates, size / pairs, 1e-9);
}

// Invariants of the rules on several shapes and sets: removals are members of their pair's
// set, each pair keeps at least ceil(|T|/2), the counts add up, the global rule never leaves
// the larger max/mean of the two channel classes above where it started, and the usage
// after is the usage of the set less the removals.
TEST(TvlbBalance, RulesKeepTheFloorRemoveMembersAndNeverWorsenTheirObjective) {
  for (const Dragonfly* t : {&g5(), &g9(), &w9()})
    for (const TvlbRule& rule : {TvlbRule{TvlbClass::I5Src, 0, 1}, TvlbRule{TvlbClass::I4, 50, 3},
                                 TvlbRule{TvlbClass::I6, 0, 1}})
      for (const TvlbBalanceOptions& opt : {TvlbBalanceOptions{1.25, 2.0}, TvlbBalanceOptions{1.0, 0},
                                            TvlbBalanceOptions{0, 1.0}}) {
        SCOPED_TRACE(t->describe() + " " + tvlb_rule_overrides(rule) + " tau " + std::to_string(opt.tau_global) + "/" +
                     std::to_string(opt.tau_local));
        TvlbBalanceReport rep;
        const TvlbRemovals rm = tvlb_balance(*t, rule, opt, &rep);
        ASSERT_EQ(rm.switches, t->num_switches());
        EXPECT_TRUE(std::is_sorted(rm.keys.begin(), rm.keys.end()));
        EXPECT_EQ(static_cast<long long>(rm.keys.size()), rep.removed());
        if (opt.tau_local == 0) {
          EXPECT_EQ(rep.removed_local, 0);
        }
        if (opt.tau_global == 0) {
          EXPECT_EQ(rep.removed_global, 0);
        }
        long long pairs = 0, changed = 0;
        for (int s = 0; s < t->num_switches(); ++s)
          for (int d = 0; d < t->num_switches(); ++d) {
            if (t->group_of(s) == t->group_of(d)) continue;
            ++pairs;
            const std::vector<int> set = tvlb_rule_set(*t, s, d, rule);
            const auto [b, e] = rm.of(s, d);
            const size_t gone = static_cast<size_t>(e - b);
            changed += gone > 0;
            ASSERT_GE(set.size() - gone, (set.size() + 1) / 2) << s << "->" << d;
            for (const uint64_t* k = b; k < e; ++k) {
              const int i = static_cast<int>(*k % static_cast<uint64_t>(rm.switches));
              ASSERT_TRUE(std::binary_search(set.begin(), set.end(), i)) << s << "->" << d << " " << i;
            }
          }
        EXPECT_EQ(rep.pairs, pairs);
        EXPECT_EQ(rep.pairs_changed, changed);
        if (opt.tau_local == 0) {
          EXPECT_LE(std::max(rep.after.local_max, rep.after.global_max),
                    std::max(rep.before.local_max, rep.before.global_max) + 1e-9);
        }
        const TvlbUsage again = tvlb_usage(*t, rule, &rm);
        EXPECT_NEAR(again.local_max, rep.after.local_max, 1e-9);
        EXPECT_NEAR(again.global_max, rep.after.global_max, 1e-9);
        EXPECT_NEAR(again.hops, rep.after.hops, 1e-9);
        // Deterministic: a pure function of its inputs.
        EXPECT_EQ(tvlb_balance(*t, rule, opt).keys, rm.keys);
      }
}

// The local rule on a shape where it acts: some pairs are flagged and lose intermediates, and
// no pair is left worse (its flagged groups are reported, not made worse by a removal).
TEST(TvlbBalance, TheLocalRuleActsOnFlaggedPairsOnly) {
  TvlbBalanceReport rep;
  const TvlbRemovals rm = tvlb_balance(w9(), TvlbRule{TvlbClass::I5Src, 0, 1}, TvlbBalanceOptions{0, 1.5}, &rep);
  EXPECT_GT(rep.local_flagged, 0);
  EXPECT_GT(rep.removed_local, 0);
  EXPECT_LE(rep.pairs_changed, rep.local_flagged);
  EXPECT_GE(rep.local_flagged, rep.local_left);
  // A bound no group exceeds: nothing flagged, nothing removed.
  TvlbBalanceReport none;
  EXPECT_TRUE(tvlb_balance(w9(), TvlbRule{TvlbClass::I5Src, 0, 1}, TvlbBalanceOptions{0, 1000}, &none).empty());
  EXPECT_EQ(none.local_flagged, 0);
  const std::string text = format(rep);
  EXPECT_NE(text.find("by the local rule"), std::string::npos) << text;
  EXPECT_EQ(to_json(rep)["removed_local"], rep.removed_local);
}

// T-UGAL's Valiant packets, walked hop by hop through the routing unit with the removals of
// the balance rule: every one reaches its destination through a member of its pair's set
// that was not removed, and every member left is used.
TEST(TvlbBalance, TugalPacketsRouteOnlyThroughTheReducedSet) {
  const Dragonfly& t = w9();
  const TvlbRule rule{TvlbClass::I5Src, 0, 1};
  auto rm = std::make_shared<const TvlbRemovals>(tvlb_balance(t, rule, TvlbBalanceOptions{1.25, 1.5}));
  ASSERT_FALSE(rm->empty());
  for (RoutingAlgo algo : {RoutingAlgo::TugalL, RoutingAlgo::TugalG, RoutingAlgo::TPar}) {
    RoutingParams prm;
    prm.ugal.threshold = kThresholdMin;  // always the Valiant candidate
    prm.ugal.vlb_set = rule.set;
    prm.ugal.removed = rm;
    const RoutingUnit u(algo, t, prm);
    Rng rng(21, StreamKind::Traffic, 0);
    const EmptyView empty(t);
    const RouteContext& ctx = empty.ctx;
    const uint64_t S = static_cast<uint64_t>(t.num_switches());
    const int s = static_cast<int>(rm->keys[0] / S / S), d = static_cast<int>(rm->keys[0] / S % S);  // lost some
    const std::vector<int> set = tvlb_rule_set(t, s, d, rule);
    std::map<int, int> seen;
    int removed_pairs_hit = 0;
    for (int n = 0; n < 4000; ++n) {
      const bool fixed = n < 2000;
      const int a = fixed ? s : static_cast<int>(rng.below(static_cast<uint32_t>(t.num_switches())));
      const int b = fixed ? d : static_cast<int>(rng.below(static_cast<uint32_t>(t.num_switches())));
      if (t.group_of(a) == t.group_of(b)) continue;
      RouteHeader h;
      h.dst_switch = b;
      h.dst_host = 0;
      int at = a, in = 0, inter = -1;
      for (int k = 0; k < 12; ++k) {
        const RouteDecision dec = u.route(at, in, h, rng, ctx);
        if (k == 0) inter = h.inter_switch;
        if (t.port_class(dec.port) == PortClass::Host) break;
        const PortEnd far = t.neighbor(at, dec.port);
        at = far.sw;
        in = far.port;
      }
      ASSERT_EQ(at, b) << to_string(algo);
      const std::vector<int> pset = tvlb_rule_set(t, a, b, rule);
      ASSERT_TRUE(std::binary_search(pset.begin(), pset.end(), inter)) << a << "->" << b << " via " << inter;
      ASSERT_FALSE(rm->removed(a, b, inter)) << to_string(algo) << " " << a << "->" << b << " via " << inter;
      removed_pairs_hit += rm->of(a, b).first != rm->of(a, b).second;
      if (fixed) ++seen[inter];
    }
    const auto [rb, re] = rm->of(s, d);
    ASSERT_GT(re - rb, 0);
    EXPECT_EQ(seen.size(), set.size() - static_cast<size_t>(re - rb)) << to_string(algo);
    EXPECT_GT(removed_pairs_hit, 100);
  }
}

TEST(TvlbBalance, PathFilesRoundTripAndBadFilesNameTheProblem) {
  const Dragonfly& t = w9();
  const TvlbRule rule{TvlbClass::I4, 50, 3};
  TvlbBalanceReport rep;
  const TvlbRemovals rm = tvlb_balance(t, rule, TvlbBalanceOptions{0, 1.5}, &rep);
  ASSERT_FALSE(rm.empty());
  const nlohmann::json j = tvlb_paths_json(t, rule, rm, &rep);
  EXPECT_EQ(j["format"], "scfly-tvlb-paths");
  EXPECT_EQ(j["topology"], t.describe());
  EXPECT_EQ(j["overrides"], "ugal.vlb_set=i4 ugal.vlb_percent=50 ugal.vlb_seed=3");
  const std::string good = write_tmp("good.json", j.dump());
  const TvlbPathFile f = read_tvlb_paths(good, t);
  EXPECT_EQ(f.rule.set, rule.set);
  EXPECT_EQ(f.rule.percent, rule.percent);
  EXPECT_EQ(f.rule.seed, rule.seed);
  EXPECT_EQ(f.removed.keys, rm.keys);

  // Another network.
  const Dragonfly other(DragonflyShape{1, 4, 4, 17, Arrangement::Palmtree});
  EXPECT_NE(read_error(good, other).find("was made for dfly(1,4,4,9) absolute"), std::string::npos)
      << read_error(good, other);
  std::remove(good.c_str());

  auto bad = [&](const std::string& name, const std::function<void(nlohmann::json&)>& edit, const std::string& want) {
    nlohmann::json x = j;
    edit(x);
    const std::string p = write_tmp(name, x.dump());
    const std::string e = read_error(p, t);
    EXPECT_NE(e.find(want), std::string::npos) << name << ": " << e;
    EXPECT_NE(e.find(p), std::string::npos) << name << ": " << e;
    std::remove(p.c_str());
  };
  bad("format", [](nlohmann::json& x) { x["format"] = "other"; }, "is not a T-VLB path file");
  bad("version", [](nlohmann::json& x) { x["version"] = 2; }, "this scfly reads version 1");
  bad("set", [](nlohmann::json& x) { x["set"] = "all"; }, "key 'set'");
  bad("percent", [](nlohmann::json& x) { x["set"] = "i5src"; }, "a fraction needs set i3, i4 or i5");
  const int s = j["removed"][0][0].get<int>(), d = j["removed"][0][1].get<int>();
  bad("member", [&](nlohmann::json& x) { x["removed"][0][2] = {d}; }, "is not in the i4 set of");
  bad("order", [&](nlohmann::json& x) {
        auto& l = x["removed"][0][2];
        l.push_back(l[0]);
      }, "must ascend without repeats");
  bad("twice", [](nlohmann::json& x) { x["removed"].push_back(x["removed"][0]); }, "twice");
  bad("same-group", [&](nlohmann::json& x) { x["removed"][0][1] = s; }, "in different groups");
  bad("every", [&](nlohmann::json& x) {
        nlohmann::json all = nlohmann::json::array();
        for (int i : tvlb_rule_set(t, s, d, rule)) all.push_back(i);
        x["removed"][0][2] = all;
      }, "removes every intermediate");
  const std::string junk = write_tmp("junk.json", "{not json");
  EXPECT_NE(read_error(junk, t).find("is not JSON"), std::string::npos);
  std::remove(junk.c_str());
  EXPECT_NE(read_error("/nonexistent/paths.json", t).find("cannot be read"), std::string::npos);
}

// routing t-ugal-l/g, t-par: UGAL-L/G, PAR with a T-VLB set, the paper's final set by
// default; the tugal.* keys need a set, and a path file must match it.
TEST(TvlbBalance, TugalRoutingsAndKeysResolveAndValidate) {
  const std::string y5 = "topology: {p: 2, a: 4, h: 2, g: 5, arrangement: absolute}\n";
  for (const char* r : {"t-ugal-l", "t-ugal-g", "t-par"}) {
    RoutingAlgo a;
    ASSERT_TRUE(parse_routing(r, a));
    EXPECT_TRUE(is_tugal(a));
    EXPECT_EQ(required_vcs(a).local, required_vcs(ugal_base(a)).local);
    EXPECT_EQ(required_vcs(a).global, required_vcs(ugal_base(a)).global);
    const SimConfig c = parse_config_text(y5 + "routing: " + r, {});
    EXPECT_EQ(c.routing_prm.ugal.vlb_set, TvlbClass::I5Src) << r;  // two links per group pair
    EXPECT_EQ(c.routing_prm.ugal.removed, nullptr);
    EXPECT_EQ(config_to_json(c)["routing"], r);
    const SimConfig one = parse_config_text("topology: {p: 2, a: 4, h: 2, g: 9}\nrouting: " + std::string(r), {});
    EXPECT_EQ(one.routing_prm.ugal.vlb_set, TvlbClass::I6) << r;  // one link: every path (paper sec. 4.2)
  }
  EXPECT_TRUE(RoutingUnit(RoutingAlgo::TugalG, g5(), {}).needs_global_load());
  EXPECT_FALSE(RoutingUnit(RoutingAlgo::TugalL, g5(), {}).needs_global_load());
  EXPECT_EQ(required_vcs(RoutingAlgo::TPar).local, 5);

  EXPECT_NE(config_error_of(y5 + "routing: t-ugal-l\nugal: {vlb_set: all}").find("use i3, i4, i5"), std::string::npos);
  EXPECT_NE(config_error_of("routing: ugal-l\ntugal: {tau_global: 1.25}").find("needs a T-VLB set"), std::string::npos);
  EXPECT_NE(config_error_of(y5 + "routing: t-ugal-l\ntugal: {tau_local: 0.5}").find("'tugal.tau_local': value 0.5"),
            std::string::npos);
  EXPECT_NE(config_error_of("routing: ugal-l\ntugal: {paths: x.json}").find("'tugal.paths'"), std::string::npos);
  EXPECT_NE(config_error_of("topology: {kind: torus}\ntugal: {tau_local: 2}").find("tugal"), std::string::npos);

  // The bounds: the removals of tvlb_balance, shared by every parse of the same configuration.
  const SimConfig b = parse_config_text(y5 + "routing: t-par\ntugal: {tau_local: 1.5, tau_global: 1.25}", {});
  ASSERT_NE(b.routing_prm.ugal.removed, nullptr);
  EXPECT_EQ(b.routing_prm.ugal.removed->keys,
            tvlb_balance(g5(), TvlbRule{TvlbClass::I5Src, 0, 1}, TvlbBalanceOptions{1.25, 1.5}).keys);
  EXPECT_EQ(parse_config_text(y5 + "routing: t-par\ntugal: {tau_local: 1.5, tau_global: 1.25}", {}).routing_prm.ugal.removed,
            b.routing_prm.ugal.removed);
  EXPECT_EQ(config_to_json(b)["tugal"]["tau_local"], 1.5);
  EXPECT_FALSE(config_to_json(parse_config_text(y5 + "routing: t-par", {})).contains("tugal"));

  // A path file: read, checked against the set, and not with the bounds.
  const TvlbRule rule{TvlbClass::I5Src, 0, 1};
  const TvlbRemovals rm = tvlb_balance(g5(), rule, TvlbBalanceOptions{0, 1.5});
  const std::string file = write_tmp("cfg.json", tvlb_paths_json(g5(), rule, rm, nullptr).dump());
  const SimConfig p = parse_config_text(y5 + "routing: t-ugal-l\ntugal: {paths: " + file + "}", {});
  ASSERT_NE(p.routing_prm.ugal.removed, nullptr);
  EXPECT_EQ(p.routing_prm.ugal.removed->keys, rm.keys);
  EXPECT_EQ(config_to_json(p)["tugal"]["paths"], file);
  std::string e = config_error_of(y5 + "routing: t-ugal-l\nugal: {vlb_set: i5dst}\ntugal: {paths: " + file + "}");
  EXPECT_NE(e.find("was made for the set ugal.vlb_set=i5src, not for ugal.vlb_set=i5dst"), std::string::npos) << e;
  e = config_error_of(y5 + "routing: t-ugal-l\ntugal: {paths: " + file + ", tau_local: 2}");
  EXPECT_NE(e.find("not allowed with tugal.paths"), std::string::npos) << e;
  e = config_error_of("topology: {p: 1, a: 4, h: 2, g: 5, arrangement: absolute}\nrouting: t-ugal-l\ntugal: {paths: " +
                      file + "}");
  EXPECT_NE(e.find("config key 'tugal.paths': path file"), std::string::npos) << e;  // another network
  EXPECT_NE(e.find("was made for dfly(2,4,2,5) absolute"), std::string::npos) << e;
  std::remove(file.c_str());
}

}  // namespace scfly
