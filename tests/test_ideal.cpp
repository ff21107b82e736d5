// Throughput bounds (sc_main/ideal.h) against the numbers of the GAL paper (Singh, Dally,
// Towles, Gupta, "Globally Adaptive Load-Balanced Routing on k-ary n-cubes"; published as
// "... on Tori", IEEE Computer Architecture Letters, 2004) and values derived from its
// definitions by hand or with an independent LP (8-ary 2-cube, capacity 1): TOR's ideal is
// 8/15 (optimal ring routing), DOR's 1/3, VAL's 1/2; BC caps everything at 1/2 (a cut);
// TP: DOR 2/7, VAL 8/15, ideal 10/11; NN's flow is 4 but one terminal link allows 1.
// Dragonfly: MIN under ADV+1 is 1/(a p). And every pattern's exact destination distribution
// (TrafficPattern::weights, what the bounds are computed from) matches its sampler.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "sc_main/config.h"
#include "sc_main/ideal.h"
#include "tb/traffic.h"

namespace scfly {
namespace {

SimConfig config(const std::string& file, const std::vector<std::string>& ov) {
  return load_config(std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/" + file, ov);
}

double bound(const IdealResult& r, const std::string& routing) {
  for (const auto& o : r.oblivious)
    if (o.routing == routing) return o.theta;
  ADD_FAILURE() << "no bound for " << routing;
  return -1;
}

TEST(Ideal, EightAryTwoCubeMatchesTheHandWorkedBounds) {
  const IdealResult tor = ideal_throughput(config("torus-8x8-1port.yaml", {"traffic=tor"}));
  EXPECT_NEAR(tor.ideal, 8.0 / 15, 1e-6);
  EXPECT_NEAR(bound(tor, "dor"), 1.0 / 3, 1e-9);
  EXPECT_NEAR(bound(tor, "val"), 0.5, 1e-9);
  const IdealResult bc = ideal_throughput(config("torus-8x8-1port.yaml", {"traffic=bc"}));
  EXPECT_NEAR(bc.ideal, 0.5, 1e-6);
  EXPECT_NEAR(bound(bc, "dor"), 0.5, 1e-9);
  const IdealResult tp = ideal_throughput(config("torus-8x8-1port.yaml", {"traffic=tp"}), false);
  EXPECT_NEAR(bound(tp, "dor"), 2.0 / 7, 1e-9);
  EXPECT_NEAR(bound(tp, "val"), 8.0 / 15, 1e-9);
  const IdealResult nn = ideal_throughput(config("torus-8x8-1port.yaml", {"traffic=nn"}));
  EXPECT_NEAR(nn.lp, 4.0, 1e-6);
  EXPECT_NEAR(nn.terminal, 1.0, 1e-9);
  EXPECT_NEAR(nn.ideal, 1.0, 1e-9);
  EXPECT_NEAR(nn.capacity, 1.0, 1e-12);
  // Four terminal ports per node lift the terminal bound to the network's 4.
  const IdealResult nn4 = ideal_throughput(config("torus-8x8-1port.yaml", {"traffic=nn", "topology.terminal_ports=4"}));
  EXPECT_NEAR(nn4.terminal, 4.0, 1e-9);
  EXPECT_NEAR(nn4.ideal, 4.0, 1e-6);
  EXPECT_NEAR(nn4.capacity, 1.0, 1e-12);
}

// The GAL paper's ring mix (sec. V.A), 0.9 NNc + 0.1 TOR with two terminal ports: the optimum
// splits the flows so both directions carry 0.85 per unit rate (theta = 1/0.85 = 1.176, the
// paper's worked value); DOR sends everything clockwise, 0.9 + 3 x 0.1 = 1.2 per unit rate.
TEST(Ideal, RingMixOfNeighbourAndTornado) {
  const IdealResult mix =
      ideal_throughput(config("torus-ring-8.yaml", {"traffic=mix(nnc:9,tor:1)", "topology.terminal_ports=2"}));
  EXPECT_NEAR(mix.ideal, 1.0 / 0.85, 1e-6);
  EXPECT_NEAR(bound(mix, "dor"), 1.0 / 1.2, 1e-9);
  EXPECT_NEAR(mix.terminal, 2.0, 1e-12);
}

TEST(Ideal, RingTornadoAndSmallTranspose) {
  const IdealResult ring = ideal_throughput(config("torus-ring-8.yaml", {"traffic=tor"}));
  EXPECT_NEAR(ring.ideal, 8.0 / 15, 1e-6);  // 5/8 minimal, 3/8 the long way (Fig. 2)
  EXPECT_NEAR(bound(ring, "dor"), 1.0 / 3, 1e-9);
  const IdealResult tp = ideal_throughput(config("torus-8x8-1port.yaml", {"topology.k=4", "traffic=tp"}));
  EXPECT_GE(tp.ideal + 1e-9, bound(tp, "dor"));
  EXPECT_GE(tp.ideal + 1e-9, bound(tp, "val"));
}

// No routing beats the ideal; MIN under ADV+1 on dfly(2,4,2) is 1/(a p) = 1/8.
TEST(Ideal, DragonflyBoundsAndTheIdealIsAnUpperBound) {
  const IdealResult adv = ideal_throughput(config("dfly-tiny.yaml", {"traffic=adv+1"}));
  EXPECT_NEAR(bound(adv, "min"), 0.125, 1e-9);
  EXPECT_GT(adv.ideal, bound(adv, "val") - 1e-9);
  EXPECT_GT(bound(adv, "val"), 0.125);
  for (const std::string tr : {"un", "adv+4", "advc", "hot", "perm", "shift(1,1)", "tmixed(50,50)"}) {
    SCOPED_TRACE(tr);
    const IdealResult r = ideal_throughput(config("dfly-tiny.yaml", {"traffic=" + tr}));
    ASSERT_TRUE(r.lp_solved);
    for (const auto& o : r.oblivious) EXPECT_LE(o.theta, r.ideal + 1e-6) << o.routing;
    EXPECT_LE(r.ideal, r.terminal + 1e-12);
  }
  // Several global links per group pair: MIN's ties are enumerated, not one of them.
  const IdealResult abs = ideal_throughput(
      config("dfly-tiny.yaml", {"topology.g=3", "topology.arrangement=absolute", "traffic=adv+1"}));
  EXPECT_GT(bound(abs, "min"), 0.125);
  EXPECT_LE(bound(abs, "min"), abs.ideal + 1e-6);
}

// weights() is the exact law of dest(): frequencies over many draws agree with it.
TEST(Ideal, PatternWeightsAreTheSamplersLaw) {
  struct Case {
    const char* file;
    const char* traffic;
  };
  for (const Case& c : {Case{"dfly-tiny.yaml", "un"}, Case{"dfly-tiny.yaml", "adv+2"}, Case{"dfly-tiny.yaml", "advc"},
                        Case{"dfly-tiny.yaml", "advl"}, Case{"dfly-tiny.yaml", "hot"}, Case{"dfly-tiny.yaml", "perm"},
                        Case{"dfly-tiny.yaml", "group-perm"}, Case{"dfly-tiny.yaml", "mixed(50,50)"},
                        Case{"dfly-tiny.yaml", "tmixed(30,70,2,1)"}, Case{"torus-8x8-1port.yaml", "nn"},
                        Case{"torus-8x8-1port.yaml", "tor"}, Case{"torus-8x8-1port.yaml", "tp"},
                        Case{"torus-8x8-1port.yaml", "topology.kind=mesh traffic=nn"}, Case{"torus-8x8-1port.yaml", "hs"},
                        Case{"torus-8x8-1port.yaml", "topology.k=3 traffic=hs"}, Case{"torus-8x8-1port.yaml", "mix(nn:3,tor:1)"},
                        Case{"torus-8x8-1port.yaml", "mix(tp:1,nn:1)"}, Case{"dfly-tiny.yaml", "mix(un:1,adv+1:2,perm:1)"}}) {
    SCOPED_TRACE(std::string(c.file) + " " + c.traffic);
    std::vector<std::string> ov;
    std::string tr = c.traffic;
    if (tr.find(' ') != std::string::npos) {
      ov.push_back(tr.substr(0, tr.find(' ')));
      tr = tr.substr(tr.find(' ') + 1);
      ov.push_back(tr);
    } else {
      ov.push_back("traffic=" + tr);
    }
    const SimConfig cfg = config(c.file, ov);
    const std::unique_ptr<Topology> t = make_topology(cfg);
    const TrafficPattern pat(cfg.traffic, *t, 3, 0);
    Rng rng(9, StreamKind::Nic, 1);
    std::vector<std::pair<int, double>> w;
    for (int src : {0, 5, t->num_nodes() - 1}) {
      pat.weights(src, w);
      double sum = 0;
      for (const auto& [d, p] : w) {
        sum += p;
        EXPECT_NE(d, src);
      }
      if (pat.silent(src)) {
        EXPECT_TRUE(w.empty());
        continue;
      }
      EXPECT_NEAR(sum, 1.0, 1e-12);
      const int draws = 40000;
      std::map<int, int> freq;
      for (int i = 0; i < draws; ++i) ++freq[pat.dest(src, rng)];
      std::map<int, double> law(w.begin(), w.end());
      for (const auto& [d, n] : freq) EXPECT_GT(law[d], 0.0) << "drawn " << d << " has no weight";
      for (const auto& [d, p] : w) EXPECT_NEAR(freq[d] / static_cast<double>(draws), p, 4 * std::sqrt(p / draws) + 1e-3) << d;
    }
  }
}

}  // namespace
}  // namespace scfly
