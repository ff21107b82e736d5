// Whole-network behaviour on small tori and meshes (the 8-node ring, 4-ary 2-cube, 3-ary
// 3-cube, 4x4 mesh, 8-ary 2-cube): delivery and conservation with drain for every torus
// routing, exact mean hop counts under UN, determinism, and the analytic throughput bounds
// of the GAL paper (TOR saturates minimal routing at 1/3 and VAL at 1/2; BC bounds every
// routing at 1/2). Each simulation is a child `scfly run` process.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "scfly_run.h"

namespace {

std::string ring_config() { return std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/torus-ring-8.yaml"; }
std::string torus_config() { return std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/torus-8x8-1port.yaml"; }

// Mean minimal distance between distinct switches of a k-ary n-cube (torus) or mesh.
double mean_distance(int k, int n, bool mesh) {
  double ring = 0;  // mean over all k x k coordinate pairs of one dimension
  for (int a = 0; a < k; ++a)
    for (int b = 0; b < k; ++b) {
      const int f = ((b - a) % k + k) % k;
      ring += mesh ? std::abs(a - b) : std::min(f, k - f);
    }
  ring /= k * k;
  double nodes = 1;
  for (int d = 0; d < n; ++d) nodes *= k;
  return n * ring * nodes / (nodes - 1);  // pairs with the source excluded
}

// The small networks the whole-network tests run on: tori of n = 1, 2, 3 and a mesh.
struct Shape {
  const char* topo;  // the topology.* overrides
  int k, n;
  bool mesh;
};
std::vector<Shape> small_shapes() {
  return {Shape{"kind=torus topology.k=8 topology.n=1", 8, 1, false},
          Shape{"kind=torus topology.k=4 topology.n=2", 4, 2, false},
          Shape{"kind=torus topology.k=3 topology.n=3", 3, 3, false},
          Shape{"kind=mesh topology.k=4 topology.n=2", 4, 2, true}};
}

}  // namespace

// Every routing on tori of n = 1, 2, 3 and a mesh, below and above saturation: everything
// is delivered (exit 0 means no credit or buffer invariant fired), and DOR and MIN AD take
// minimal paths: their mean hop count is the mean distance.
TEST(TorusNetwork, EveryRoutingDeliversEverythingOnTheMinimalOrItsOwnPathLength) {
  for (const Shape& s : small_shapes())
    for (const std::string routing : {"dor", "val", "min-ad", "goal", "gal"}) {
      if (s.mesh && (routing == "goal" || routing == "gal")) continue;
      for (const std::string load : {"0.2", "0.9"}) {
        SCOPED_TRACE(std::string(s.topo) + " " + routing + " load " + load);
        const ScflyRun r = run_scfly(torus_config(), std::string("topology.") + s.topo + " routing=" + routing +
                                                         " traffic=un load=" + load +
                                                         " warmup_cycles=500 measure_cycles=3000 drain=true");
        expect_drained(r);
        EXPECT_GT(metrics(r)["packets_delivered"].get<int>(), 500);
        if (load == "0.2" && (routing == "dor" || routing == "min-ad")) {
          EXPECT_NEAR(metrics(r)["hops_avg"].get<double>(), mean_distance(s.k, s.n, s.mesh), 0.05);
          EXPECT_EQ(metrics(r)["nonminimal_fraction"], 0.0);
        }
        if (load == "0.2" && routing == "val") {  // E[d(s,q)] + E[d(q,d)], q uniform over all switches
          EXPECT_NEAR(metrics(r)["hops_avg"].get<double>(),
                      2 * mean_distance(s.k, s.n, s.mesh) * (std::pow(s.k, s.n) - 1) / std::pow(s.k, s.n), 0.1);
        }
      }
    }
}

TEST(TorusNetwork, SameSeedSameMetrics) {
  const std::string args = "routing=goal traffic=un load=0.5 warmup_cycles=500 measure_cycles=2000";
  const ScflyRun a = run_scfly(torus_config(), args + " seed=3");
  const ScflyRun b = run_scfly(torus_config(), args + " seed=3");
  const ScflyRun c = run_scfly(torus_config(), args + " seed=4");
  expect_ok(a);
  expect_ok(b);
  expect_ok(c);
  EXPECT_EQ(a.json["metrics"], b.json["metrics"]);
  EXPECT_NE(a.json["metrics"]["latency_avg"], c.json["metrics"]["latency_avg"]);
  EXPECT_EQ(a.json["config"]["topology"]["kind"], "torus");
  EXPECT_EQ(a.json["config"]["switch"]["vcs"]["link"], 3);
}

// 8-node ring under TOR (i -> i+3): minimal routing loads each + channel with 3 flows, so
// it saturates at 1/3; VAL's two uniform phases (mean 2 hops each on a ring of 8) load
// every one of the 16 channels with 8 x 4 / 16 = 2 per unit rate, so it saturates at 1/2
// (GAL paper sec. II). Below the bound the network accepts what is offered; above it,
// never more than the bound. 8 VCs relieve head-of-line blocking so the network gets close
// to the bound before it saturates.
TEST(TorusNetwork, TornadoOnTheRingRespectsTheAnalyticBounds) {
  const std::string common = " traffic=tor switch.vcs.link=8 warmup_cycles=2000 measure_cycles=8000";
  const ScflyRun below = run_scfly(ring_config(), "routing=dor load=0.25" + common);
  expect_ok(below);
  EXPECT_NEAR(metrics(below)["accepted_load"].get<double>(), 0.25, 0.01);
  for (const std::string routing : {"dor", "min-ad"}) {
    const ScflyRun above = run_scfly(ring_config(), "routing=" + routing + " load=0.6" + common);
    expect_ok(above);
    EXPECT_LT(metrics(above)["accepted_load"].get<double>(), 1.0 / 3 + 0.005) << routing;
  }
  const ScflyRun val_below = run_scfly(ring_config(), "routing=val load=0.4" + common);
  expect_ok(val_below);
  EXPECT_NEAR(metrics(val_below)["accepted_load"].get<double>(), 0.4, 0.015);
  const ScflyRun val_above = run_scfly(ring_config(), "routing=val load=0.9" + common);
  expect_ok(val_above);
  EXPECT_LT(metrics(val_above)["accepted_load"].get<double>(), 0.5 + 0.005);
}

// Past saturation on the ring the output arbiter decides who gets a channel: round-robin
// gives the injection input as much as the transit input carrying every upstream switch's
// traffic, the sources nearest the wrap link take over and throughput collapses to about
// half the bound; oldest-first (age) and transit priority keep DOR at its bound of 1/3.
TEST(TorusNetwork, AgeArbitrationKeepsTheRingAtItsBoundPastSaturation) {
  const std::string common = " routing=dor traffic=tor load=0.6 switch.vcs.link=8 warmup_cycles=2000 measure_cycles=8000";
  const ScflyRun rr = run_scfly(ring_config(), "switch.output_arbiter=round-robin" + common);
  const ScflyRun age = run_scfly(ring_config(), "switch.output_arbiter=age" + common);
  const ScflyRun tp = run_scfly(ring_config(), "switch.output_arbiter=transit-priority" + common);
  expect_ok(rr);
  expect_ok(age);
  expect_ok(tp);
  EXPECT_EQ(age.json["config"]["switch"]["output_arbiter"], "age");
  EXPECT_LT(metrics(rr)["accepted_load"].get<double>(), 0.2);
  for (const ScflyRun* r : {&age, &tp}) {
    EXPECT_GT(metrics(*r)["accepted_load"].get<double>(), 0.3);
    EXPECT_LT(metrics(*r)["accepted_load"].get<double>(), 1.0 / 3 + 0.005);
  }
  // Oldest first is also fair among the sources: every switch gets close to the same share.
  EXPECT_GT(metrics(age)["switch_accepted_min"].get<double>(), 0.25);
  EXPECT_LT(metrics(rr)["switch_accepted_min"].get<double>(), 0.05);
}

// 8-ary 2-cube: VAL saturates at 0.5 of capacity on TOR and on BC; BC bounds every routing
// at 0.5 (every packet crosses the bisection).
TEST(TorusNetwork, ValAndBitComplementBoundsOnTheEightAryTwoCube) {
  const std::string common = " switch.vcs.link=8 warmup_cycles=1000 measure_cycles=4000";
  for (const std::string traffic : {"tor", "bc"}) {
    const ScflyRun below = run_scfly(torus_config(), "routing=val load=0.35 traffic=" + traffic + common);
    expect_ok(below);
    EXPECT_NEAR(metrics(below)["accepted_load"].get<double>(), 0.35, 0.015) << traffic;
    const ScflyRun above = run_scfly(torus_config(), "routing=val load=0.9 traffic=" + traffic + common);
    expect_ok(above);
    EXPECT_LT(metrics(above)["accepted_load"].get<double>(), 0.5 + 0.005) << traffic;
  }
  const ScflyRun dor_bc = run_scfly(torus_config(), "routing=dor load=0.9 traffic=bc" + common);
  expect_ok(dor_bc);
  EXPECT_LT(metrics(dor_bc)["accepted_load"].get<double>(), 0.5 + 0.005);
}

// GAL: every destination-set choice and a fixed threshold run lossless past saturation (the
// conservation check counts the packets waiting in the NIC's injection queues); below
// saturation on UN GAL stays minimal; the injection link has one VC per quadrant.
TEST(TorusNetwork, GalInjectionQueuesAreLosslessAndMinimalWhenUncongested) {
  const ScflyRun low = run_scfly(torus_config(), "routing=gal traffic=un load=0.3 warmup_cycles=1000 measure_cycles=3000");
  expect_ok(low);
  EXPECT_LT(metrics(low)["nonminimal_fraction"].get<double>(), 0.01);
  EXPECT_NEAR(metrics(low)["accepted_load"].get<double>(), 0.3, 0.01);
  EXPECT_EQ(low.json["config"]["switch"]["vcs"]["injection"], 4);
  EXPECT_EQ(low.json["config"]["gal"]["sets"], "all");
  for (const std::string opt : {"gal.sets=1", "gal.sets=2", "gal.sets=4", "gal.adaptive=false gal.threshold=4",
                                "gal.queue_depth=8"}) {
    SCOPED_TRACE(opt);
    const ScflyRun r = run_scfly(torus_config(), "routing=gal traffic=tor load=0.9 warmup_cycles=500 measure_cycles=2000 "
                                                 "drain=true " + opt);
    expect_drained(r);
    EXPECT_GT(metrics(r)["nonminimal_fraction"].get<double>(), 0.1);  // TOR past 1/3 needs the long way
  }
}

// gal.tie (GAL sec. IV.E, docs/repro-gal.md): past saturation on UR the published rule
// (lower) drifts T to T_min and GAL collapses to non-minimal routing; a tie that raises T
// keeps it minimal-first and carries far more, as long as a full minimal queue does not
// pass T. Echoed only away from the default.
TEST(TorusNetwork, GalTieRaiseStaysStablePastSaturation) {
  const std::string common = "routing=gal topology.terminal_ports=4 switch.vcs.injection=4 traffic=un load=1.1 "
                             "warmup_cycles=3000 measure_cycles=3000 ";
  const ScflyRun lower = run_scfly(torus_config(), common);
  const ScflyRun raise = run_scfly(torus_config(), common + "gal.tie=raise");
  expect_ok(lower);
  expect_ok(raise);
  EXPECT_FALSE(lower.json["config"]["gal"].contains("tie"));
  EXPECT_EQ(raise.json["config"]["gal"]["tie"], "raise");
  EXPECT_LT(metrics(lower)["accepted_load"].get<double>(), 0.6);
  EXPECT_GT(metrics(lower)["nonminimal_fraction"].get<double>(), 0.3);
  EXPECT_GT(metrics(raise)["accepted_load"].get<double>(), 0.75);
  EXPECT_LT(metrics(raise)["nonminimal_fraction"].get<double>(), 0.1);
  // Once the minimal injection queues are full (8-packet queues fill within the warm-up)
  // T = T_max = the depth sends the excess the long way; T_max one above the depth lets a
  // full minimal queue hold the head back instead, and GAL stays minimal.
  const ScflyRun full = run_scfly(torus_config(), common + "gal.tie=raise gal.queue_depth=8");
  const ScflyRun above = run_scfly(torus_config(), common + "gal.tie=raise gal.queue_depth=8 gal.t_max=9");
  expect_ok(full);
  expect_ok(above);
  EXPECT_LT(metrics(full)["accepted_load"].get<double>(), 0.7);
  EXPECT_GT(metrics(full)["nonminimal_fraction"].get<double>(), 0.15);
  EXPECT_GT(metrics(above)["accepted_load"].get<double>(), 0.75);
  EXPECT_LT(metrics(above)["nonminimal_fraction"].get<double>(), 0.05);
}

// Terminal bandwidth: with one terminal port a node accepts at most 1 phit/cycle, so NN
// (whose network bound is 4 on the 8-ary 2-cube) is capped at 1; with four it carries more
// than twice that, every port is used both ways, and everything drains. GAL's injection
// queues feed all four links. Loads above 1 need the ports.
TEST(TorusNetwork, TerminalPortsLiftTheOnePhitPerCycleCap) {
  const std::string common = " traffic=nn warmup_cycles=1000 measure_cycles=3000 drain=true";
  const ScflyRun one = run_scfly(torus_config(), "routing=min-ad load=1.0" + common);
  expect_drained(one);
  EXPECT_LT(metrics(one)["accepted_load"].get<double>(), 1.0 + 0.005);
  for (const std::string routing : {"min-ad", "gal", "dor"}) {
    const ScflyRun four = run_scfly(torus_config(), "routing=" + routing + " topology.terminal_ports=4 load=2.2" + common);
    expect_drained(four);
    EXPECT_NEAR(metrics(four)["accepted_load"].get<double>(), 2.2, 0.05) << routing;
    EXPECT_EQ(four.json["config"]["topology"]["terminal_ports"], 4);
  }
  const ScflyRun over = run_scfly(torus_config(), "load=1.5", false);
  EXPECT_EQ(over.code, 2);
  EXPECT_NE(over.err.find("'load'"), std::string::npos) << over.err;
  EXPECT_NE(over.err.find("(0, 1]"), std::string::npos) << over.err;
  const ScflyRun over4 = run_scfly(torus_config(), "topology.terminal_ports=4 load=4.5", false);
  EXPECT_EQ(over4.code, 2);
  EXPECT_NE(over4.err.find("(0, 4] (the terminal_ports)"), std::string::npos) << over4.err;
}

// Per-packet mixes and hot spot run on the torus and drain.
TEST(TorusNetwork, MixAndHotSpotDrain) {
  for (const std::string traffic : {"mix(nn:9,tor:1)", "hs"}) {
    const ScflyRun r = run_scfly(torus_config(), "routing=gal 'traffic=" + traffic + "'" +
                                                     " load=0.3 warmup_cycles=500 measure_cycles=2000 drain=true");
    expect_drained(r);
    EXPECT_EQ(r.json["config"]["traffic"], traffic);
    EXPECT_NEAR(metrics(r)["accepted_load"].get<double>(), 0.3, 0.02) << traffic;
  }
}

// CHAOS (the chaotic router: a multiqueue per switch, derouting when it is full) on tori of
// n = 1, 2, 3 and a mesh, below and far above saturation, and under a random permutation
// past saturation: everything drains (no phit lost, no credit or buffer invariant fired,
// no deadlock: the watchdog would stop the run), packets are minimal when nothing is
// derouted (at 0.2 the mean hop count is the mean distance), and derouting happens once
// the network congests: derouted packets are counted non-minimal and lengthen the mean
// path. Same seed, same metrics.
TEST(TorusNetwork, ChaosDrainsIsMinimalUncongestedAndDeroutesWhenTheMultiqueueFills) {
  for (const Shape& s : small_shapes())
    for (const std::string load : {"0.2", "1.0"}) {
      SCOPED_TRACE(std::string(s.topo) + " load " + load);
      const ScflyRun r = run_scfly(torus_config(), std::string("topology.") + s.topo +
                                                       " routing=chaos traffic=un load=" + load +
                                                       " warmup_cycles=500 measure_cycles=3000 drain=true");
      expect_drained(r);
      EXPECT_EQ(r.json["config"]["switch"]["vcs"]["link"], 1);
      EXPECT_EQ(r.json["config"]["chaos"]["multiqueue"], 5);
      EXPECT_GT(counter(r.json["metrics"], "chaos_multiqueue_entries"), 0);
      if (load == "0.2") {
        EXPECT_EQ(counter(r.json["metrics"], "chaos_deroutes"), 0);
        EXPECT_NEAR(metrics(r)["hops_avg"].get<double>(), mean_distance(s.k, s.n, s.mesh), 0.05);
        EXPECT_EQ(metrics(r)["nonminimal_fraction"], 0.0);
      }
    }
  const std::string perm = "routing=chaos traffic=perm load=0.8 topology.terminal_ports=2 "
                           "warmup_cycles=1000 measure_cycles=3000 drain=true";
  const ScflyRun a = run_scfly(torus_config(), perm + " seed=2");
  expect_drained(a);
  EXPECT_GT(counter(a.json["metrics"], "chaos_deroutes"), 100);
  EXPECT_GT(metrics(a)["nonminimal_fraction"].get<double>(), 0.0);
  EXPECT_GT(metrics(a)["hops_avg"].get<double>(), mean_distance(8, 2, false) + 0.05);
  const ScflyRun b = run_scfly(torus_config(), perm + " seed=2");
  expect_ok(b);
  EXPECT_EQ(a.json["metrics"], b.json["metrics"]);
  // A larger multiqueue derouts less.
  const ScflyRun big = run_scfly(torus_config(), perm + " seed=2 chaos.multiqueue=32");
  expect_drained(big);
  EXPECT_LT(counter(big.json["metrics"], "chaos_deroutes"),
            counter(a.json["metrics"], "chaos_deroutes"));
  // Its deadlock freedom is not a channel-dependency property: the run says so, and
  // check-deadlock prints the cyclic graph with the note and succeeds.
  EXPECT_NE(a.out.find("by derouting out of the multiqueue"), std::string::npos) << a.out;
  const Cmd dl = scfly_cmd("check-deadlock " + ring_config() + " routing=chaos");
  EXPECT_EQ(dl.code, 0) << dl.out << dl.err;
  EXPECT_NE(dl.out.find("rests on derouting"), std::string::npos) << dl.out;
}

TEST(TorusNetwork, ConfigErrorsNameTheKeyAndWhatIsAllowed) {
  const auto err = [](const std::string& args) {
    const ScflyRun r = run_scfly(torus_config(), args, false);
    EXPECT_EQ(r.code, 2) << args << r.out;
    return r.err;
  };
  EXPECT_NE(err("routing=min").find("'routing': value 'min' is not allowed on 8-ary 2-cube"), std::string::npos);
  EXPECT_NE(err("topology.kind=mesh routing=goal").find("need the wrap links of a torus"), std::string::npos);
  EXPECT_NE(err("topology.k=1").find("topology.k"), std::string::npos);
  EXPECT_NE(err("topology.kind=ring").find("dragonfly, torus (k-ary n-cube) or mesh"), std::string::npos);
  EXPECT_NE(err("topology.a=4").find("topology.a"), std::string::npos);
  EXPECT_NE(err("routing=val switch.vcs.link=3").find("needs at least 4 link VCs"), std::string::npos);
  EXPECT_NE(err("traffic=adv+1").find("Dragonfly pattern"), std::string::npos);
  EXPECT_NE(err("topology.n=1 traffic=tp").find("even n"), std::string::npos);
  EXPECT_NE(err("rtl=acor").find("'rtl'"), std::string::npos);
  EXPECT_NE(err("routing=gal switch.vcs.injection=2").find("one per quadrant"), std::string::npos);
  EXPECT_NE(err("routing=gal gal.sets=3").find("gal.sets"), std::string::npos);
  EXPECT_NE(err("routing=gal gal.t_min=9 gal.t_max=4").find("gal.t_min"), std::string::npos);
  EXPECT_NE(err("routing=gal gal.threshold=200").find("gal.threshold"), std::string::npos);
  EXPECT_NE(err("routing=gal gal.tie=up").find("config key 'gal.tie': value 'up'"), std::string::npos);
  EXPECT_NE(err("topology.kind=mesh routing=gal").find("not allowed on 8-ary 2-mesh"), std::string::npos);
  EXPECT_NE(err("topology.terminal_ports=9").find("topology.terminal_ports"), std::string::npos);
  EXPECT_NE(err("'traffic=mix(nn:1,adv+1:1)'").find("mix component adv+1"), std::string::npos);
  EXPECT_NE(err("routing=chaos chaos.multiqueue=0").find("chaos.multiqueue"), std::string::npos);
  EXPECT_NE(err("routing=chaos chaos.multiqueue=65").find("chaos.multiqueue"), std::string::npos);
  EXPECT_NE(err("routing=chaos control.probe_interval=100").find("not allowed with routing chaos"), std::string::npos);
  EXPECT_NE(err("routing=chaos switch.flow_control=pfc").find("'switch.flow_control': value 'pfc'"),
            std::string::npos);
  EXPECT_NE(err("routing=chaos topology.k=2 topology.n=5").find("'topology.n': value 5"), std::string::npos);
}
