// The deadlock-freedom checker (sc_main/deadlock_check.h): every mechanism on small shapes of
// every topology is deadlock-free at the VC counts config validation requires (acyclic, or
// Duato's condition for the escape-VC schemes), and one VC fewer on any class that needs more
// than one gives a dependency cycle: the checker, built from the routing units, agrees with
// the hand-kept VC table (routing.h, required_vcs / required_link_vcs) in both directions.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/mechanisms.h"
#include "routing_units/routing.h"
#include "sc_main/config.h"
#include "sc_main/deadlock_check.h"
#include "sc_main/deadlock_validation.h"
#include "tests/test_tmp.h"

namespace scfly {
namespace {

using Verdict = DeadlockCheckResult::Verdict;

SimConfig config(const std::string& file, std::vector<std::string> ov) {
  return load_config(std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/" + file, ov);
}

DeadlockCheckOptions quick() {
  DeadlockCheckOptions o;
  o.random_views = 1;  // the extreme views plus one random one: fast enough for the suite
  return o;
}

std::string show(const DeadlockCheckResult& r) { return format(r); }

// The configured (= required) counts are deadlock-free with the expected verdict; one fewer on
// each class that needs more than one is not, and the cycle runs through that class.
void expect_minimal(const SimConfig& c, Verdict expected, const std::string& what) {
  SCOPED_TRACE(what);
  const DeadlockCheckResult ok = check_deadlock(c, quick());
  EXPECT_EQ(ok.verdict, expected) << show(ok);
  EXPECT_TRUE(ok.folded.empty()) << show(ok);
  EXPECT_GT(ok.dependencies, 0u);
  const std::unique_ptr<Topology> t = make_topology(c);
  for (int k = 1; k < t->num_port_classes(); ++k) {
    if (c.sw.vcs[k] <= 1) continue;
    DeadlockCheckOptions o = quick();
    o.vcs[k] = c.sw.vcs[k] - 1;
    const DeadlockCheckResult bad = check_deadlock(c, o);
    EXPECT_EQ(bad.verdict, Verdict::Cycle) << t->port_class_name(k) << " with " << o.vcs[k] << " VCs\n" << show(bad);
    ASSERT_FALSE(bad.cycle.empty());
    ASSERT_FALSE(bad.folded.empty());
    bool through = false;
    for (const std::string& e : bad.cycle) through |= e.find(t->port_class_name(k)) != std::string::npos;
    EXPECT_TRUE(through) << show(bad);
  }
}

TEST(DeadlockCheck, DragonflyMechanismsNeedExactlyTheirVcs) {
  for (const char* shape : {"palmtree", "absolute"})
    // Every registered Dragonfly mechanism; T-UGAL's sets are for the T-UGAL shapes (its VC
    // budget is its UGAL's, DeadlockCheck tests of test_tvlb_balance.cpp on those shapes).
    for (const std::string& r : scfly_test::registered_routings(true, false, {"t-ugal-l", "t-ugal-g", "t-par"})) {
      std::vector<std::string> ov{"routing=" + r};
      if (std::string(shape) == "absolute") ov.insert(ov.end(), {"topology.g=5", "topology.arrangement=absolute"});
      const SimConfig c = config("dfly-tiny.yaml", ov);
      const VcBudget need = required_vcs(c.routing);
      EXPECT_EQ(c.sw.vcs[1], need.local);
      EXPECT_EQ(c.sw.vcs[2], need.global);
      expect_minimal(c, Verdict::Acyclic, r + " on " + shape);
    }
}

// The T-UGAL paper's baseline options (random segment links, intermediates outside the
// source and destination groups) keep the hop-slot VC budget: exactly as many VCs needed.
TEST(DeadlockCheck, UgalBaselineOptionsNeedTheSameVcs) {
  for (const char* r : {"ugal-l", "ugal-g", "par", "pb"})
    expect_minimal(config("dfly-tiny.yaml", {std::string("routing=") + r, "topology.g=5", "topology.arrangement=absolute",
                                             "ugal.segment_link=random", "ugal.intermediate=other-groups"}),
                   Verdict::Acyclic, r);
  // T-UGAL: intermediates from a T-VLB class, fewest-hop segments.
  for (const char* r : {"ugal-l", "par"})
    expect_minimal(config("dfly-tiny.yaml", {std::string("routing=") + r, "topology.g=5", "topology.arrangement=absolute",
                                             "ugal.segment_link=random", "ugal.vlb_set=i5src"}),
                   Verdict::Acyclic, std::string(r) + " i5src");
  // Every intermediate outside the two groups (i6) and a fractional set: still L-G-L segments.
  expect_minimal(config("dfly-tiny.yaml", {"routing=par", "topology.g=5", "topology.arrangement=absolute",
                                           "ugal.segment_link=random", "ugal.vlb_set=i6"}),
                 Verdict::Acyclic, "par i6");
  expect_minimal(config("dfly-tiny.yaml", {"routing=ugal-l", "topology.g=5", "topology.arrangement=absolute",
                                           "ugal.vlb_set=i4", "ugal.vlb_percent=50"}),
                 Verdict::Acyclic, "ugal-l i4 +50 %");
  // The T-UGAL routing names (their default set) and a set less the balance rule's removals.
  for (const char* r : {"t-ugal-l", "t-ugal-g", "t-par"})
    expect_minimal(config("dfly-tiny.yaml", {std::string("routing=") + r, "topology.g=5", "topology.arrangement=absolute",
                                             "tugal.tau_global=1.25", "tugal.tau_local=1.5"}),
                   Verdict::Acyclic, r);
  // T-PAR's second evaluation from the source switch's set: segments still fewest-hop from there.
  expect_minimal(config("dfly-tiny.yaml", {"routing=t-par", "topology.g=5", "topology.arrangement=absolute",
                                           "tugal.par_set=source"}),
                 Verdict::Acyclic, "t-par source set");
}

TEST(DeadlockCheck, TorusAndMeshMechanismsNeedExactlyTheirVcs) {
  struct Shape {
    const char* kind;
    int k, n, w;
  };
  for (const Shape& s : {Shape{"torus", 8, 1, 1}, Shape{"torus", 4, 2, 1}, Shape{"torus", 4, 3, 1},
                         Shape{"torus", 4, 2, 2}, Shape{"mesh", 4, 2, 1}, Shape{"mesh", 3, 3, 1}})
    for (const char* r : {"dor", "val", "min-ad", "goal", "gal"}) {
      const bool mesh = std::string(s.kind) == "mesh";
      if (mesh && (std::string(r) == "goal" || std::string(r) == "gal")) continue;
      if (s.n == 3 && !mesh && std::string(r) != "dor" && std::string(r) != "min-ad") continue;  // 4-ary 3-cube: 3-5 s each
      const SimConfig c =
          config("torus-ring-8.yaml", {std::string("topology.kind=") + s.kind, "topology.k=" + std::to_string(s.k),
                                       "topology.n=" + std::to_string(s.n),
                                       "topology.terminal_ports=" + std::to_string(s.w), std::string("routing=") + r});
      EXPECT_EQ(c.sw.vcs[1], required_link_vcs(c.routing, mesh));
      const bool escape = std::string(r) == "min-ad" || std::string(r) == "goal" || std::string(r) == "gal";
      expect_minimal(c, escape ? Verdict::Duato : Verdict::Acyclic,
                     std::string(r) + " on " + s.kind + " k=" + std::to_string(s.k) + " n=" + std::to_string(s.n) +
                         " w=" + std::to_string(s.w));
    }
}

// torus.dateline traversal (BookSim2's VC set per dimension traversal): DOR, VAL and MIN AD,
// whose traversals are minimal, stay deadlock-free at their VC budgets and need every VC of
// it (odd k too, where no traversal ties).
TEST(DeadlockCheck, TraversalDatelineKeepsTheMinimalMechanismsDeadlockFree) {
  for (const auto& [k, n] : {std::pair{8, 1}, std::pair{4, 2}, std::pair{5, 2}})
    for (const char* r : {"dor", "val", "min-ad"}) {
      const SimConfig c = config("torus-ring-8.yaml", {"topology.k=" + std::to_string(k), "topology.n=" + std::to_string(n),
                                                       std::string("routing=") + r, "torus.dateline=traversal"});
      ASSERT_EQ(c.routing_prm.dateline, TorusDateline::Traversal);
      expect_minimal(c, std::string(r) == "min-ad" ? Verdict::Duato : Verdict::Acyclic,
                     std::string(r) + " traversal k=" + std::to_string(k) + " n=" + std::to_string(n));
    }
}

// On a 3-ary torus a minimal route moves at most one hop per dimension, so it never follows
// a ring's wrap link with another hop of the same ring: DOR, VAL and MIN AD need no dateline
// classes there (the VC table, written for any k, is conservative), while GOAL and GAL, whose
// quadrant may go the long way (2 hops), still do.
TEST(DeadlockCheck, ThreeAryToriNeedNoDatelineForMinimalRoutes) {
  for (const char* r : {"dor", "val", "min-ad", "goal", "gal"}) {
    const SimConfig c = config("torus-ring-8.yaml", {"topology.k=3", "topology.n=3", std::string("routing=") + r});
    DeadlockCheckOptions o = quick();
    o.vcs[1] = c.sw.vcs[1] - 1;
    const DeadlockCheckResult res = check_deadlock(c, o);
    const bool quadrant = std::string(r) == "goal" || std::string(r) == "gal";
    EXPECT_EQ(res.deadlock_free(), !quadrant) << r << "\n" << show(res);
    EXPECT_FALSE(res.folded.empty());
    EXPECT_TRUE(check_deadlock(c, quick()).deadlock_free()) << r;
  }
}

// The longest route the checker finds is each mechanism's hop bound.
TEST(DeadlockCheck, LongestRoutesAreTheMechanismsHopBounds) {
  auto hops = [](const std::string& file, const std::vector<std::string>& ov) {
    return check_deadlock(config(file, ov), quick()).max_hops;
  };
  EXPECT_EQ(hops("dfly-tiny.yaml", {"routing=min"}), 3);  // l g l
  EXPECT_EQ(hops("dfly-tiny.yaml", {"routing=val"}), 6);  // l g l, l g l
  EXPECT_EQ(hops("dfly-tiny.yaml", {"routing=par"}), 7);  // one more local hop before turning
  const std::vector<std::string> t44{"topology.k=4", "topology.n=2"};
  auto with = [&](const char* r) {
    std::vector<std::string> ov = t44;
    ov.push_back(std::string("routing=") + r);
    return ov;
  };
  EXPECT_EQ(hops("torus-ring-8.yaml", with("dor")), 4);   // n * k/2
  EXPECT_EQ(hops("torus-ring-8.yaml", with("val")), 7);   // two DOR phases of 4, to another switch (p = 1)
  EXPECT_EQ(hops("torus-ring-8.yaml", with("goal")), 6);  // n * (k - 1): the far way round in each dimension
  EXPECT_EQ(hops("torus-ring-8.yaml", with("gal")), 6);
}

// Every draw is enumerated: VAL's intermediate over all switches reaches every channel VC,
// and control frames (QCN's CNMs) are checked on their own VCs.
TEST(DeadlockCheck, EnumeratesEveryDrawAndControlFrames) {
  const DeadlockCheckResult val = check_deadlock(config("dfly-tiny.yaml", {"routing=val"}), quick());
  EXPECT_EQ(val.channels_used, val.channels);
  EXPECT_EQ(val.channels, 36u * (3u * 4u + 2u * 2u));  // 36 switches x (3 local x 4 VCs + 2 global x 2)
  const DeadlockCheckResult qcn = check_deadlock(config("qcn-tiny.yaml", {}), quick());
  EXPECT_TRUE(qcn.control);
  EXPECT_EQ(qcn.verdict, Verdict::Acyclic) << show(qcn);
  EXPECT_EQ(qcn.channels_used, qcn.channels);  // data and control VCs alike
}

TEST(DeadlockCheck, IsDeterministic) {
  const SimConfig c = config("dfly-tiny.yaml", {"routing=ugal-l"});
  const DeadlockCheckResult a = check_deadlock(c, quick()), b = check_deadlock(c, quick());
  EXPECT_EQ(a.states, b.states);
  EXPECT_EQ(a.calls, b.calls);
  EXPECT_EQ(a.dependencies, b.dependencies);
  DeadlockCheckOptions o = quick();
  o.vcs[1] = 3;
  EXPECT_EQ(check_deadlock(c, o).cycle, check_deadlock(c, o).cycle);
}

TEST(DeadlockCheck, MinVcsMatchesTheTable) {
  const SimConfig c = config("dfly-tiny.yaml", {"routing=val"});
  const auto m = min_vcs(c, quick());
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0], std::make_pair(std::string("local"), 4));
  EXPECT_EQ(m[1], std::make_pair(std::string("global"), 2));
}

TEST(DeadlockCheck, StateBudgetIsAnError) {
  DeadlockCheckOptions o = quick();
  o.max_states = 100;
  const DeadlockCheckResult r = check_deadlock(config("dfly-tiny.yaml", {"routing=val"}), o);
  EXPECT_EQ(r.verdict, Verdict::Error);
  EXPECT_NE(r.error.find("routing states"), std::string::npos) << r.error;
  EXPECT_TRUE(r.too_large);
  EXPECT_FALSE(r.deadlock_free());
}


// Config validation runs the checker (sc_main/deadlock_validation.h): a configured network
// that can deadlock is a ConfigError naming the cycle; verdicts are cached per routing shape.
class DeadlockValidationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = std::filesystem::path(tmp("dl-cache"));
    std::filesystem::remove_all(m_dir);
    ::setenv("SCFLY_CACHE_DIR", m_dir.c_str(), 1);
  }
  void TearDown() override {
    ::unsetenv("SCFLY_CACHE_DIR");
    std::filesystem::remove_all(m_dir);
  }
  size_t cached_files() const {
    if (!std::filesystem::exists(m_dir / "deadlock")) return 0;
    size_t n = 0;
    for (const auto& e : std::filesystem::directory_iterator(m_dir / "deadlock")) n += e.path().extension() == ".json";
    return n;
  }
  std::filesystem::path m_dir;
};

TEST_F(DeadlockValidationTest, ChecksOnceAndReadsTheVerdictBackPerShape) {
  const SimConfig c = config("dfly-tiny.yaml", {"routing=val"});
  const DeadlockValidation first = validate_deadlock(c);
  EXPECT_EQ(first.verdict, "acyclic");
  EXPECT_FALSE(first.cached);
  EXPECT_GT(first.states, 1000u);
  EXPECT_EQ(cached_files(), 1u);
  // Run-only keys (load, traffic, seed, windows, latencies) share the verdict.
  const DeadlockValidation again =
      validate_deadlock(config("dfly-tiny.yaml", {"routing=val", "load=0.7", "traffic=adv+1", "seed=9",
                                                  "links.global_latency=77", "measure_cycles=5"}));
  EXPECT_TRUE(again.cached);
  EXPECT_EQ(again.verdict, "acyclic");
  EXPECT_EQ(again.states, first.states);
  EXPECT_EQ(cached_files(), 1u);
  // A key that shapes routes or VCs is another shape.
  EXPECT_FALSE(validate_deadlock(config("dfly-tiny.yaml", {"routing=val", "val.policy=crg-gr"})).cached);
  EXPECT_FALSE(validate_deadlock(config("dfly-tiny.yaml", {"routing=val", "switch.vcs.local=5"})).cached);
  EXPECT_EQ(cached_files(), 3u);
  // Escape-VC schemes pass by Duato's condition.
  EXPECT_EQ(validate_deadlock(config("torus-8x8-1port.yaml", {"routing=min-ad"})).verdict, "duato");
}

TEST_F(DeadlockValidationTest, ANetworkThatCanDeadlockIsAConfigErrorWithItsCycle) {
  // The VC table would not let a config file ask for this; a unit whose hop slots outgrow
  // the configured VCs (here: VAL given MIN's local VCs) is what the check exists to catch.
  SimConfig c = config("dfly-tiny.yaml", {"routing=val"});
  c.sw.vcs[static_cast<int>(PortClass::Local)] = 2;
  std::string e;
  try {
    validate_deadlock(c);
  } catch (const ConfigError& err) {
    e = err.what();
  }
  EXPECT_NE(e.find("can deadlock"), std::string::npos) << e;
  EXPECT_NE(e.find("DEADLOCK POSSIBLE"), std::string::npos) << e;
  EXPECT_NE(e.find("local"), std::string::npos) << e;
  // The cached verdict says the same.
  std::string again;
  try {
    validate_deadlock(c);
  } catch (const ConfigError& err) {
    again = err.what();
  }
  EXPECT_EQ(again, e);
}

TEST_F(DeadlockValidationTest, BeyondTheBudgetItSaysNotCheckedAndATornCacheFileIsIgnored) {
  const SimConfig c = config("dfly-tiny.yaml", {"routing=ugal-l"});
  const DeadlockValidation v = validate_deadlock(c, 1000);
  EXPECT_EQ(v.verdict, "too large");
  EXPECT_NE(v.summary().find("NOT checked"), std::string::npos) << v.summary();
  ASSERT_EQ(cached_files(), 1u);
  for (const auto& f : std::filesystem::directory_iterator(m_dir / "deadlock")) std::ofstream(f.path()) << "{\"key\": ";
  const DeadlockValidation w = validate_deadlock(c, 1000);
  EXPECT_FALSE(w.cached);
  EXPECT_EQ(w.verdict, "too large");
}

// The run-time verdict cache is bounded: a cache already over kDeadlockCacheEntries
// entries is cut back to the limit when a verdict is written, the oldest going first and
// the new verdict staying.
TEST(DeadlockCache, WritingAVerdictPrunesTheOldestEntries) {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(tmp("dl-cache"));
  fs::remove_all(root);
  fs::create_directories(root / "deadlock");
  const auto old = fs::file_time_type::clock::now() - std::chrono::hours(24);
  for (size_t i = 0; i < kDeadlockCacheEntries + 40; ++i) {
    const fs::path f = root / "deadlock" / ("old" + std::to_string(i) + ".json");
    std::ofstream(f) << "{}\n";
    fs::last_write_time(f, old + std::chrono::seconds(i));
  }
  ::setenv("SCFLY_CACHE_DIR", root.c_str(), 1);
  const SimConfig c = load_config(std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/dfly-tiny.yaml", {});
  const DeadlockValidation v = validate_deadlock(c);
  ::unsetenv("SCFLY_CACHE_DIR");
  EXPECT_FALSE(v.cached);
  size_t n = 0, olds = 0;
  bool first_old_left = false;
  for (const auto& e : fs::directory_iterator(root / "deadlock")) {
    ++n;
    const std::string name = e.path().filename().string();
    if (name.rfind("old", 0) == 0) ++olds;
    if (name == "old0.json") first_old_left = true;
  }
  EXPECT_EQ(n, kDeadlockCacheEntries);
  EXPECT_EQ(olds, kDeadlockCacheEntries - 1);  // the new verdict is the one beside them
  EXPECT_FALSE(first_old_left);                // the oldest went first
  fs::remove_all(root);
}

}  // namespace
}  // namespace scfly
