// Valiant family and ACOR in whole networks (small Dragonflies, short windows): the
// paper's pathologies (MIN under ADVl at 1/p, CRG-Gr/RRG-Gr under ADV+h near 1/h while
// RRG-Sw is not), restricted Valiant under ADVl, ACOR-Switch levels across a transient,
// drain at and beyond saturation for every mechanism, and determinism with recomputation.
#include <gtest/gtest.h>

#include "scfly_run.h"
#include "vcd_parse.h"

namespace {

double accepted(const ScflyRun& r) { return metrics(r)["accepted_load"].get<double>(); }


// dfly(3,6,3): balanced p = h = 3, 19 groups, 114 switches; ADV+h has its pathology here.
const char* kP3 = "topology.p=3 topology.a=6 topology.h=3 topology.g=19 ";
// dfly(4,8,4,9) absolute: 8 switches per group (6 intermediates for restricted VAL), one
// global link per node, so unrestricted VAL tops out near 0.5.
const char* kP4 = "topology.p=4 topology.a=8 topology.h=4 topology.g=9 topology.arrangement=absolute ";

}  // namespace

// ADVl: all p hosts of a switch send to the next switch over one local link: MIN is bound
// to 1/p; restricted VAL spreads it over the group's other switches (paper Fig. 4), far
// above unrestricted VAL, which sends every packet through two global links.
TEST(ValiantNet, AdvlMinAtOneOverPRestrictedFarAboveUnrestricted) {
  const std::string w = std::string(kP4) + "traffic=advl load=0.95 warmup_cycles=2000 measure_cycles=4000 ";
  const ScflyRun mn = run_scfly(tiny_config(), w + "routing=min");
  const ScflyRun val = run_scfly(tiny_config(), w + "routing=val");
  const ScflyRun rval = run_scfly(tiny_config(), w + "routing=val val.restricted=true");
  expect_ok(mn);
  expect_ok(val);
  expect_ok(rval);
  EXPECT_NEAR(accepted(mn), 0.25, 0.01);
  EXPECT_GT(accepted(rval), 1.3 * accepted(val)) << accepted(rval) << " vs " << accepted(val);
  EXPECT_GT(accepted(rval), 0.55);
  EXPECT_NEAR(metrics(rval)["policy_fractions"]["local"].get<double>(), 1.0, 1e-12);
  EXPECT_NEAR(metrics(rval)["global_hops_avg"].get<double>(), 0.0, 1e-12);  // never leaves the group
  EXPECT_NEAR(metrics(val)["policy_fractions"]["rrg-sw"].get<double>(), 1.0, 1e-12);
}

// ADV+h (sec. 2.3): without the second local hop of Phase A, the traffic of h source groups
// meets on one local link of the intermediate group: CRG-Gr and RRG-Gr saturate near 1/h;
// RRG-Sw (and CRG-Sw) do not.
TEST(ValiantNet, AdvPlusHGroupPoliciesSaturateNearOneOverH) {
  const std::string w = std::string(kP3) + "traffic=adv+3 load=0.6 warmup_cycles=2000 measure_cycles=4000 routing=val ";
  const ScflyRun crg_gr = run_scfly(tiny_config(), w + "val.policy=crg-gr");
  const ScflyRun rrg_gr = run_scfly(tiny_config(), w + "val.policy=rrg-gr");
  const ScflyRun rrg_sw = run_scfly(tiny_config(), w + "val.policy=rrg-sw");
  expect_ok(crg_gr);
  expect_ok(rrg_gr);
  expect_ok(rrg_sw);
  const double h_bound = 1.0 / 3;
  EXPECT_LT(accepted(crg_gr), h_bound + 0.02) << accepted(crg_gr);
  EXPECT_GT(accepted(crg_gr), 0.6 * h_bound) << accepted(crg_gr);
  EXPECT_LT(accepted(rrg_gr), h_bound + 0.02) << accepted(rrg_gr);
  // ... and from below: the shared local link caps RRG-Gr near 1/h (0.230 measured), it does
  // not collapse towards MIN's 1/(a·p) = 0.056.
  EXPECT_GT(accepted(rrg_gr), 0.6 * h_bound) << accepted(rrg_gr);
  EXPECT_GT(accepted(rrg_sw), h_bound + 0.08) << accepted(rrg_sw);
  // Hop counts follow Table 1: CRG-Gr Phase A is one global hop, G-LGL at most.
  EXPECT_LE(metrics(crg_gr)["hops_avg"].get<double>(), 4.0);
  EXPECT_GT(metrics(rrg_sw)["hops_avg"].get<double>(), metrics(crg_gr)["hops_avg"].get<double>());
}

// ACOR-Switch 3L under ADV+h: at 0.05 every switch stays at level 0 (CRG-Gr); when the load
// steps to 0.3 (near CRG-Gr's 1/h bound) the blocked injections raise the levels within
// two 1,000-cycle bins; when it steps back to 0.05 they return to 0 within two bins.
TEST(AcorNet, SwitchLevelsRiseAndFallBackAcrossATransient) {
  const ScflyRun r = run_scfly(
      tiny_config(),
      std::string(kP3) +
          "routing=acor-switch traffic=adv+3 "
          "'phases=[{start: 0, load: 0.05}, {start: 8000, load: 0.3}, {start: 20000, load: 0.05}]' "
          "timeseries.bin_cycles=1000 timeseries.per_switch=true warmup_cycles=0 measure_cycles=28000");
  expect_ok(r);
  const auto& lv = r.json["timeseries"]["per_switch"]["acor_level"];
  ASSERT_EQ(lv.size(), 28u);
  auto mean = [&](int b) {
    double s = 0;
    for (const auto& x : lv[b]) s += x.get<double>();
    return s / static_cast<double>(lv[b].size());
  };
  for (int b = 0; b < 8; ++b) EXPECT_EQ(mean(b), 0.0) << "bin " << b;
  for (int b = 10; b < 20; ++b) EXPECT_GT(mean(b), 0.7) << "bin " << b;
  for (int b = 22; b < 28; ++b) EXPECT_LT(mean(b), 0.05) << "bin " << b;
  // The policies used follow the levels: both CRG-Gr and CRG-Sw packets were delivered.
  const auto& pf = metrics(r)["policy_fractions"];
  EXPECT_GT(pf["crg-gr"].get<double>(), 0.1);
  EXPECT_GT(pf["crg-sw"].get<double>(), 0.1);
  // Latency is back to its low-load value after the transient.
  const auto& lat = r.json["timeseries"]["latency_avg"];
  EXPECT_LT(lat[26].get<double>(), 1.2 * lat[4].get<double>());
}

// ACOR-Packet: packets start at CRG-Gr and climb only when blocked, so at low load almost
// all use the shortest policy and at high load many climb.
TEST(AcorNet, PacketLevelsClimbWithLoad) {
  const std::string w = std::string(kP3) + "routing=acor-packet traffic=adv+3 warmup_cycles=2000 measure_cycles=4000 ";
  const ScflyRun lo = run_scfly(tiny_config(), w + "load=0.05");
  const ScflyRun hi = run_scfly(tiny_config(), w + "load=0.5");
  expect_ok(lo);
  expect_ok(hi);
  EXPECT_GT(metrics(lo)["policy_fractions"]["crg-gr"].get<double>(), 0.9);
  EXPECT_GT(metrics(hi)["policy_fractions"]["rrg-sw"].get<double>() +
                metrics(hi)["policy_fractions"]["crg-sw"].get<double>(),
            0.2);
  // Shorter paths at low load than VAL's RRG-Sw (the point of ACOR).
  const ScflyRun val = run_scfly(tiny_config(), std::string(kP3) + "routing=val traffic=adv+3 load=0.05 "
                                                                   "warmup_cycles=2000 measure_cycles=4000");
  expect_ok(val);
  EXPECT_LT(metrics(lo)["latency_avg"].get<double>(), 0.9 * metrics(val)["latency_avg"].get<double>());
}

// No deadlock at and beyond saturation: every packet is delivered after the sources stop.
TEST(AcorNet, EveryMechanismDrainsAtAndBeyondSaturation) {
  for (const std::string args :
       {"routing=val val.policy=crg-gr traffic=adv+2 load=0.9",
        "routing=val val.policy=rrg-gr traffic=adv+1 load=0.9",
        "routing=val val.policy=crg-sw val.restricted=true val.recompute=true traffic=advl load=0.9",
        "routing=val val.restricted=true val.recompute=true traffic=un load=0.9",
        "routing=acor-packet traffic=advc load=0.9", "routing=acor-switch traffic=adv+2 load=0.9",
        "routing=acor-switch acor.sequence=2la traffic=hot load=0.9",
        "routing=acor-switch acor.sequence=2lb traffic=perm load=0.9 packet_phits=1"}) {
    SCOPED_TRACE(args);
    expect_drained(run_scfly(tiny_config(), args + " warmup_cycles=1000 measure_cycles=3000 drain=true"));
  }
}

TEST(AcorNet, RecomputationIsDeterministic) {
  const std::string args =
      "routing=acor-switch traffic=adv+1 load=0.5 warmup_cycles=1000 measure_cycles=3000 seed=5";
  const ScflyRun a = run_scfly(tiny_config(), args), b = run_scfly(tiny_config(), args);
  expect_ok(a);
  EXPECT_EQ(a.json["metrics"], b.json["metrics"]);
}

// The traced level controller is the switch's: its level at every cycle equals the
// per-switch time series with one-cycle bins (sampled from the controller itself), and the
// traced values obey the controller's rule (acor_level_ctrl.h): a level changes only with
// its counter reset to 0, and below the top level the counter never reaches the increase
// threshold IT[level] (it would have raised the level). The load drops mid-run, so the
// level rises and falls back.
TEST(AcorNet, VcdTracesTheLevelControllerWithItsValues) {
  const std::string vcd = tmp("acor.vcd");
  const int sw = 7;
  const ScflyRun r = run_scfly(tiny_config(), "routing=acor-switch traffic=adv+1 "
                                              "'phases=[{start: 0, load: 0.4}, {start: 1200, load: 0.02}]' "
                                              "warmup_cycles=500 measure_cycles=2500 timeseries.bin_cycles=1 "
                                              "timeseries.per_switch=true --vcd " + vcd +
                                              " --trace-switches " + std::to_string(sw));
  expect_ok(r);
  const Waves w = parse_vcd(slurp(vcd));
  std::remove(vcd.c_str());
  const std::string pre = "net.sw" + std::to_string(sw) + ".";
  const auto& level = w.values.at(pre + "acor_level");
  const auto& counter = w.values.at(pre + "acor_blocked_counter");
  ASSERT_TRUE(w.values.count(pre + "blocked_injections"));
  const uint64_t it[2] = {15, 500};  // Table 3 defaults, 3 levels
  int ups = 0, downs = 0;
  for (size_t i = 0; i < w.times.size(); ++i) {
    if (level[i] < 2) {
      ASSERT_LT(counter[i], it[level[i]]) << "t=" << w.times[i] << " level " << level[i];
    }
    if (i > 0 && level[i] != level[i - 1]) {
      (level[i] > level[i - 1] ? ups : downs)++;
      ASSERT_EQ(counter[i], 0u) << "t=" << w.times[i] << " level " << level[i - 1] << " -> " << level[i];
    }
  }
  EXPECT_GE(ups, 1) << "the level never rose; the test would prove little";
  EXPECT_GE(downs, 1) << "the level never fell back";
  // Cycle by cycle against the time series: the VCD's time stamp c (1 ns cycles, ps
  // stamps) holds the state after cycle c, as the series' bin c does.
  const auto& series = r.json["timeseries"]["per_switch"]["acor_level"];
  ASSERT_EQ(series.size(), 3000u);
  size_t k = 0;
  for (size_t c = 0; c < series.size(); ++c) {
    while (k + 1 < w.times.size() && w.times[k + 1] <= c * 1000) ++k;
    ASSERT_EQ(level[k], static_cast<uint64_t>(series[c][sw].get<double>())) << "cycle " << c;
  }
}
