// Whole-network RTL co-simulation: every switch drives the Verilated blocks instead of
// the C++ units (--rtl min_route,acor,ugal,pb); metrics and time series must be identical to the
// C++ run, at loads where the blocks' outputs actually change (levels move through the
// sequence, adaptive choices split, saturation flags toggle).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "scfly_run.h"
#include "vcd_parse.h"

TEST(RtlNetwork, AcorLevelControllerRtlGivesIdenticalResults) {
  for (const std::string args :
       {"routing=acor-switch traffic=adv+1 load=0.45", "routing=acor-switch traffic=adv+1 load=0.7",
        "routing=acor-switch acor.sequence=2lb traffic=advc load=0.5",
        "routing=pb-acor traffic=adv+1 load=0.6"}) {
    SCOPED_TRACE(args);
    const std::string common =
        args + " warmup_cycles=1000 measure_cycles=4000 timeseries.bin_cycles=500 timeseries.per_switch=true";
    const ScflyRun cpp = run_scfly(tiny_config(), common);
    const ScflyRun rtl = run_scfly(tiny_config(), common + " --rtl acor");
    expect_ok(cpp);
    expect_ok(rtl);
    EXPECT_EQ(rtl.json["config"]["rtl"], nlohmann::json::array({"acor"}));
    EXPECT_NE(rtl.out.find("rtl: acor_level_ctrl.sv (in process per switch)"), std::string::npos) << rtl.out;
    EXPECT_EQ(cpp.out.find("rtl:"), std::string::npos) << cpp.out;
    EXPECT_EQ(cpp.json["metrics"], rtl.json["metrics"]);
    EXPECT_EQ(cpp.json["timeseries"], rtl.json["timeseries"]);
    // The comparison means something only if the levels moved.
    double top = 0;
    for (const auto& row : rtl.json["timeseries"]["per_switch"]["acor_level"])
      for (const auto& v : row) top = std::max(top, v.get<double>());
    EXPECT_GE(top, 1.0);
  }
}

TEST(RtlNetwork, UgalAndPiggybackRtlGiveIdenticalResults) {
  for (const std::string args :
       {"routing=ugal-l traffic=adv+1 load=0.4 --rtl ugal", "routing=par traffic=adv+1 load=0.45 --rtl ugal",
        "routing=ugal-g traffic=un load=0.6 --rtl ugal", "routing=pb traffic=adv+1 load=0.45 --rtl ugal,pb",
        "routing=pb traffic=adv+1 load=0.45 topology.a=2 topology.h=6 topology.g=13 --rtl pb",
        "routing=pb-acor traffic=adv+1 load=0.6 --rtl acor,ugal,pb"}) {
    SCOPED_TRACE(args);
    const std::string rtl_flag = args.substr(args.find("--rtl"));
    const std::string plain = args.substr(0, args.find(" --rtl"));
    const std::string common = " warmup_cycles=1000 measure_cycles=4000 timeseries.bin_cycles=500";
    const ScflyRun cpp = run_scfly(tiny_config(), plain + common);
    const ScflyRun rtl = run_scfly(tiny_config(), plain + common + " " + rtl_flag);
    expect_ok(cpp);
    expect_ok(rtl);
    EXPECT_EQ(cpp.json["metrics"], rtl.json["metrics"]);
    EXPECT_EQ(cpp.json["timeseries"], rtl.json["timeseries"]);
    // Both minimal and non-minimal choices were made: the selector was exercised.
    const double nm = rtl.json["metrics"]["nonminimal_fraction"].get<double>();
    EXPECT_GT(nm, 0.05);
    EXPECT_LT(nm, 0.99);
  }
}

TEST(RtlNetwork, MinimalRouteUnitRtlGivesIdenticalResults) {
  for (const std::string args :
       {"routing=min traffic=un load=0.5", "routing=val traffic=adv+1 load=0.5",
        "routing=ugal-l traffic=adv+1 load=0.4", "routing=pb-acor traffic=adv+1 load=0.6"}) {
    SCOPED_TRACE(args);
    const std::string common = args + " warmup_cycles=1000 measure_cycles=3000 timeseries.bin_cycles=500";
    const std::string blocks = args.find("pb-acor") != std::string::npos ? "min_route,acor,ugal,pb" : "min_route";
    const ScflyRun cpp = run_scfly(tiny_config(), common);
    const ScflyRun rtl = run_scfly(tiny_config(), common + " --rtl " + blocks);
    expect_ok(cpp);
    expect_ok(rtl);
    EXPECT_EQ(cpp.json["metrics"], rtl.json["metrics"]);
    EXPECT_EQ(cpp.json["timeseries"], rtl.json["timeseries"]);
  }
}

// The absolute arrangement, two global links per group pair: the route unit draws its
// tie-break word from the switch's Rng exactly when the C++ unit would (MIN, UGAL-L's
// minimal and Valiant candidates, VAL's two segments), so the runs stay identical.
TEST(RtlNetwork, MinimalRouteUnitRtlGivesIdenticalResultsOnAbsolute) {
  for (const std::string args :
       {"routing=min traffic=un load=0.5", "routing=ugal-l traffic=adv+1 load=0.4",
        "routing=val traffic=un load=0.4"})
    expect_rtl_identical(tiny_config(),
                         args + " topology.arrangement=absolute topology.g=5" +
                             " warmup_cycles=1000 measure_cycles=3000 timeseries.bin_cycles=500",
                         "min_route", 1000);
}

// A shape that no build Verilated on its own (one model serves every shape within its
// widths): palmtree dfly(3,6,3,19), the shape register written when the network is built.
TEST(RtlNetwork, MinimalRouteUnitRtlServesAUsersOwnShape) {
  expect_rtl_identical(tiny_config(),
                       "routing=ugal-l traffic=adv+1 load=0.3 topology.p=3 topology.a=6 topology.h=3 "
                       "topology.g=19 warmup_cycles=500 measure_cycles=1500 timeseries.bin_cycles=500",
                       "min_route", 1000);
}

// One pb_sat_detector.sv model serves every h = 1..16 (h_i held at reset): a Dragonfly with
// 8 global ports per switch (palmtree dfly(1,2,8,17), 34 switches), which no build had its
// own model for, gives the C++ rule's metrics and time series, PB and PB-ACOR past the point
// where flags are raised; so does h = 16 (dfly(1,1,16,17)), the most the model holds, and
// h = 1 (dfly(2,4,1,5)).
TEST(RtlNetwork, PbDetectorRtlServesEveryGlobalPortCount) {
  const std::string h8 = " topology.p=1 topology.a=2 topology.h=8 topology.g=17";
  for (const std::string args : {"routing=pb traffic=adv+1 load=0.5", "routing=pb-acor traffic=adv+4 load=0.7"})
    expect_rtl_identical(tiny_config(), args + h8 + " warmup_cycles=500 measure_cycles=2000 timeseries.bin_cycles=500",
                         "pb", 500);
  expect_rtl_identical(tiny_config(),
                       "routing=pb traffic=adv+1 load=0.5 topology.p=1 topology.a=1 topology.h=16 topology.g=17 "
                       "warmup_cycles=500 measure_cycles=1500 timeseries.bin_cycles=500",
                       "pb", 200);
  expect_rtl_identical(tiny_config(),
                       "routing=pb traffic=adv+1 load=0.5 topology.h=1 topology.g=5 "
                       "warmup_cycles=500 measure_cycles=1500 timeseries.bin_cycles=500",
                       "pb", 200);
}

// Past the model's widths: h = 17 is refused (exit 2), naming the key and the limit.
TEST(RtlNetwork, PbDetectorRtlRefusesMoreGlobalPortsThanItHolds) {
  const ScflyRun r = run_scfly(tiny_config(),
                               "routing=pb topology.p=1 topology.a=1 topology.h=17 topology.g=18 --rtl pb", false);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("config key 'rtl'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("h = 1..16"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("topology.h = 17"), std::string::npos) << r.err;
  // The same network without the block runs.
  expect_ok(run_scfly(tiny_config(), "routing=pb topology.p=1 topology.a=1 topology.h=17 topology.g=18 "
                                     "warmup_cycles=100 measure_cycles=200"));
}

TEST(RtlNetwork, RtlRequestsAreValidated) {
  const ScflyRun a = run_scfly(tiny_config(), "routing=min --rtl acor", false);
  EXPECT_EQ(a.code, 2);
  EXPECT_NE(a.err.find("rtl"), std::string::npos) << a.err;
  // A shape beyond min_route.sv's widths: the message names the shape and the limits.
  const ScflyRun b = run_scfly(tiny_config(),
                               "routing=min topology.arrangement=absolute topology.p=4 topology.a=8 topology.h=4 "
                               "topology.g=2 --rtl min_route",
                               false);
  EXPECT_EQ(b.code, 2);
  EXPECT_NE(b.err.find("absolute dfly(4,8,4,2)"), std::string::npos) << b.err;
  EXPECT_NE(b.err.find("a*h/(g-1) <= 16 links between two groups"), std::string::npos) << b.err;
  EXPECT_NE(b.err.find("g <= 1023"), std::string::npos) << b.err;
  const ScflyRun d = run_scfly(tiny_config(), "routing=ugal-l --rtl pb", false);
  EXPECT_EQ(d.code, 2);
  EXPECT_NE(d.err.find("pb"), std::string::npos) << d.err;
  const ScflyRun c = run_scfly(tiny_config(), "routing=acor-switch --rtl nosuchblock", false);
  EXPECT_EQ(c.code, 2);
}

// The Verilated blocks trace into the switch's VCD: their ports and internal nets appear
// under net.swN.<block>, and the RTL's registers equal the values the switch traces from
// the block at every sampled cycle (the level the switch routes with is the RTL's level_q).
TEST(RtlNetwork, VerilatedBlocksTraceIntoTheSameVcd) {
  const std::string vcd = tmp("rtl.vcd");
  const ScflyRun r = run_scfly(tiny_config(), "routing=pb-acor traffic=adv+1 load=0.6 warmup_cycles=0 "
                                              "measure_cycles=3000 --rtl acor,pb --vcd " + vcd + " --trace-switches 0");
  expect_ok(r);
  const Waves w = parse_vcd(slurp(vcd));
  std::remove(vcd.c_str());
  ASSERT_GT(w.times.size(), 100U);
  const std::string sw = "net.sw0.", acor = sw + "acor_rtl.u_acor_level_ctrl.acor_level_ctrl.",
                    pb = sw + "pb_rtl.u_pb_sat_detector.pb_sat_detector.";
  for (const std::string n : {"level_q", "counter_q", "timer_q", "blocked_i", "rise", "fall", "sum"})
    ASSERT_TRUE(w.values.count(acor + n)) << acor + n;
  // q_i (16 ports x 16 bits) is wider than the VCD writer's 64-bit signals; the sum of the
  // h ports in use, the threshold and the flags are traced, and h_i holds dfly-tiny's h = 2.
  for (const std::string n : {"h_i", "used", "sat_o", "sum", "rhs"}) ASSERT_TRUE(w.values.count(pb + n)) << pb + n;
  for (uint64_t v : w.values.at(pb + "h_i")) ASSERT_EQ(v, 2U);
  for (uint64_t v : w.values.at(pb + "used")) ASSERT_EQ(v, 3U);
  EXPECT_EQ(w.values.at(acor + "level_q"), w.values.at(sw + "acor_level"));
  EXPECT_EQ(w.values.at(acor + "counter_q"), w.values.at(sw + "acor_blocked_counter"));
  EXPECT_EQ(w.values.at(acor + "blocked_i"), w.values.at(sw + "blocked_injections"));
  const auto& sat = w.values.at(pb + "sat_o");
  uint64_t flagged = 0;
  for (int j = 0; j < 2; ++j) {
    const auto& flag = w.values.at(sw + "pb_sat_g" + std::to_string(j));
    for (size_t t = 0; t < sat.size(); ++t) {
      ASSERT_EQ((sat[t] >> j) & 1U, flag[t]) << "global port " << j << " at " << w.times[t] << " ps";
      flagged += flag[t];
    }
  }
  // Something happened in the window: the level rose and flags were raised.
  const auto& level = w.values.at(acor + "level_q");
  EXPECT_GT(*std::max_element(level.begin(), level.end()), 0U);
  EXPECT_GT(flagged, 0U);
}

// The torus blocks (--rtl quadrant, gal_threshold): the in-quadrant selector in every
// switch and GAL's threshold controllers in every NIC give the C++ run's metrics and time
// series, on tori of n = 1, 2, 3 and a mesh, below and past saturation.
namespace {
std::string torus_config() { return std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/torus-8x8-1port.yaml"; }
}  // namespace

TEST(RtlNetwork, TorusBlocksRtlGiveIdenticalResults) {
  for (const std::string args :
       {"routing=min-ad traffic=perm load=0.6 --rtl quadrant",
        "routing=goal traffic=tor load=0.3 topology.k=4 topology.n=3 --rtl quadrant",
        "routing=chaos traffic=un load=0.9 topology.k=5 topology.n=1 --rtl quadrant",
        "routing=min-ad traffic=un load=0.5 topology.kind=mesh topology.k=4 --rtl quadrant",
        "routing=gal traffic=un load=0.9 topology.k=4 --rtl gal_threshold",
        "routing=gal traffic=tor load=0.4 topology.k=4 gal.sets=4 --rtl quadrant,gal_threshold"}) {
    SCOPED_TRACE(args);
    const std::string rtl_flag = args.substr(args.find("--rtl"));
    const std::string plain = args.substr(0, args.find(" --rtl"));
    const std::string common = " warmup_cycles=500 measure_cycles=2000 timeseries.bin_cycles=250";
    const ScflyRun cpp = run_scfly(torus_config(), plain + common);
    const ScflyRun rtl = run_scfly(torus_config(), plain + common + " " + rtl_flag);
    expect_ok(cpp);
    expect_ok(rtl);
    EXPECT_EQ(cpp.json["metrics"], rtl.json["metrics"]);
    EXPECT_EQ(cpp.json["timeseries"], rtl.json["timeseries"]);
    EXPECT_GT(rtl.json["metrics"]["packets_delivered"].get<int>(), 500);
    if (rtl_flag.find("quadrant") != std::string::npos) {
      EXPECT_NE(rtl.out.find("quadrant_sel.sv (in process)"), std::string::npos) << rtl.out;
    }
    if (rtl_flag.find("gal_threshold") != std::string::npos) {
      EXPECT_NE(rtl.out.find("gal_threshold.sv (per NIC and set"), std::string::npos) << rtl.out;
    }
  }
}

TEST(RtlNetwork, TorusRtlRequestsAreValidated) {
  const auto refused = [](const std::string& cfg, const std::string& args, const std::string& needle) {
    const ScflyRun r = run_scfly(cfg, args, false);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_NE(r.err.find(needle), std::string::npos) << args << ": " << r.err;
  };
  refused(torus_config(), "routing=dor --rtl quadrant", "needs routing min-ad, goal, gal or chaos, not dor");
  refused(torus_config(), "routing=min-ad --rtl gal_threshold", "needs routing gal, not min-ad");
  refused(torus_config(), "routing=min-ad --rtl acor", "block 'acor' is a Dragonfly unit");
  refused(tiny_config(), "routing=min --rtl quadrant", "block 'quadrant' is a torus/mesh unit");
  refused(torus_config(), "routing=min-ad topology.k=300 topology.n=1 --rtl quadrant", "topology.k <= 255");
  refused(torus_config(), "routing=gal gal.n1=257 --rtl gal_threshold", "config key 'gal.n1': value 257");
  refused(torus_config(), "routing=gal gal.tie=raise --rtl gal_threshold", "config key 'gal.tie': value 'raise'");
}

// GAL's RTL threshold controllers trace into the VCD under their NIC
// (net.nicN.gal_rtlK.gal_threshold.*): T moves inside its clamps past saturation, and the
// window sum never exceeds n1 departures per terminal port.
TEST(RtlNetwork, GalThresholdRtlTracesIntoTheVcd) {
  const std::string vcd = tmp("rtl_gal.vcd");
  const ScflyRun r = run_scfly(torus_config(), "routing=gal traffic=un load=0.9 topology.k=4 gal.sets=1 "
                                               "warmup_cycles=0 measure_cycles=2000 --rtl gal_threshold --vcd " +
                                                   vcd + " --trace-switches 5");
  expect_ok(r);
  const Waves w = parse_vcd(slurp(vcd));
  std::remove(vcd.c_str());
  ASSERT_GT(w.times.size(), 100U);
  const std::string g = "net.nic5.gal_rtl0.gal_threshold.";
  for (const std::string n : {"t_q", "t_o", "sum_q", "prev_q", "cnt_q", "dep_i", "instant"})
    ASSERT_TRUE(w.values.count(g + n)) << g + n;
  const auto& t = w.values.at(g + "t_q");
  EXPECT_EQ(t, w.values.at(g + "t_o"));
  const uint64_t lo = *std::min_element(t.begin(), t.end()), hi = *std::max_element(t.begin(), t.end());
  EXPECT_GE(lo, 2U);
  EXPECT_LE(hi, 128U);
  EXPECT_GT(hi, lo);  // it moved
  for (uint64_t s : w.values.at(g + "sum_q")) ASSERT_LE(s, 50U);
}

// QCN-Switch's port-probability unit (--rtl qcn) in every switch of qcn-tiny: identical
// metrics and per-switch time series (the port probabilities among them) under ADV+1,
// where the probabilities fall, with feedback comparison, base AIMD and source processing.
TEST(RtlNetwork, QcnRtlGivesIdenticalResults) {
  const std::string qcn_tiny = std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/qcn-tiny.yaml";
  for (const std::string args :
       {"traffic=adv+1 load=0.4 --rtl qcn", "traffic=adv+1 load=0.4 qcn.feedback_comparison=false --rtl qcn,qcn_cp",
        "traffic=adv+1 load=0.5 qcn.sampling=input qcn.source_processing=true --rtl qcn,qcn_cp",
        "traffic=adv+1 load=0.4 qcn.sampling_clock=time qcn.w=2 --rtl qcn_cp", "traffic=un load=0.6 --rtl qcn,qcn_cp"}) {
    SCOPED_TRACE(args);
    const std::string rtl_flag = args.substr(args.find("--rtl"));
    const std::string plain = args.substr(0, args.find(" --rtl"));
    const std::string common =
        plain + " warmup_cycles=5000 measure_cycles=15000 timeseries.bin_cycles=2500 timeseries.per_switch=true";
    const ScflyRun cpp = run_scfly(qcn_tiny, common);
    const ScflyRun rtl = run_scfly(qcn_tiny, common + " " + rtl_flag);
    expect_ok(cpp);
    expect_ok(rtl);
    if (rtl_flag.find("qcn,") != std::string::npos || rtl_flag == "--rtl qcn") {
      EXPECT_NE(rtl.out.find("qcn_port_prob.sv (in process per switch)"), std::string::npos) << rtl.out;
    }
    if (rtl_flag.find("qcn_cp") != std::string::npos) {
      EXPECT_NE(rtl.out.find("qcn_cp.sv (in process per switch)"), std::string::npos) << rtl.out;
    }
    EXPECT_EQ(cpp.json["metrics"], rtl.json["metrics"]);
    EXPECT_EQ(cpp.json["timeseries"], rtl.json["timeseries"]);
    if (args.find("adv+1") != std::string::npos) {
      // The comparison means something only if probabilities moved.
      double min_p = 100;
      for (const auto& [name, rows] : rtl.json["timeseries"]["per_switch"].items())
        if (name.rfind("qcn_p", 0) == 0 && name.find("lastfb") == std::string::npos)
          for (const auto& row : rows)
            for (const auto& v : row) min_p = std::min(min_p, v.get<double>());
      EXPECT_LT(min_p, 90.0);
    }
  }
  const ScflyRun bad = run_scfly(qcn_tiny, "routing=min --rtl qcn", false);
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("block 'qcn'"), std::string::npos) << bad.err;
  const ScflyRun bad2 = run_scfly(qcn_tiny, "min_cond.trigger=pause --rtl qcn_cp", false);
  EXPECT_EQ(bad2.code, 2);
  EXPECT_NE(bad2.err.find("block 'qcn_cp'"), std::string::npos) << bad2.err;
  const ScflyRun bad3 = run_scfly(qcn_tiny, "switch.output_buffer.local=400000 qcn.qeq=0.5 --rtl qcn_cp", false);
  EXPECT_EQ(bad3.code, 2);
  EXPECT_NE(bad3.err.find("config key 'qcn.qeq'"), std::string::npos) << bad3.err;
}

// The QCN blocks trace into the VCD under their switch (net.swN.qcn_rtl.qcn_port_prob.*,
// net.swN.qcn_cp_rtl.qcn_cp.*): the last update's datapath (the register files are arrays,
// which the VCD writer skips; the switch traces every port's P and LastFb itself).
TEST(RtlNetwork, QcnRtlTracesIntoTheVcd) {
  const std::string qcn_tiny = std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/qcn-tiny.yaml";
  const std::string vcd = tmp("rtl_qcn.vcd");
  const ScflyRun r = run_scfly(qcn_tiny, "traffic=adv+1 load=0.4 warmup_cycles=0 measure_cycles=3000 "
                                         "--rtl qcn,qcn_cp --vcd " + vcd + " --trace-switches 3");
  expect_ok(r);
  const Waves w = parse_vcd(slurp(vcd));
  std::remove(vcd.c_str());
  // Switch 3 owns the group's global link ADV+1 saturates.
  const std::string pp = "net.sw3.qcn_rtl.qcn_port_prob.", cp = "net.sw3.qcn_cp_rtl.qcn_cp.";
  for (const std::string n : {"p_cur", "p_next", "fb_i", "avg_q", "sum_q", "cnt_o"}) EXPECT_TRUE(w.values.count(pp + n)) << pp + n;
  for (const std::string n : {"q_i", "fb_o", "raw", "span", "due_o", "count_o"}) EXPECT_TRUE(w.values.count(cp + n)) << cp + n;
  ASSERT_TRUE(w.values.count(cp + "last_fb_o"));
  const auto& fb = w.values.at(cp + "last_fb_o");
  EXPECT_EQ(*std::max_element(fb.begin(), fb.end()), 63U);  // a saturated sample in the window
}

// The conditional forwarding table (--rtl table) in every switch: min-table on palmtree and
// absolute tiny Dragonflies (equal-cost sets with draws), and MIN-COND under QCN (its
// probabilities written into the Verilated register, conditional entries falling to
// misroutes) also with every QCN block: identical metrics and time series.
TEST(RtlNetwork, ForwardingTableRtlGivesIdenticalResults) {
  const std::string qcn_tiny = std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/qcn-tiny.yaml";
  struct Case {
    std::string cfg, args;
  };
  const std::vector<Case> cases = {
      {tiny_config(), "routing=min-table traffic=un load=0.5 --rtl table"},
      {tiny_config(), "routing=min-table traffic=un load=0.4 topology.arrangement=absolute topology.g=5 --rtl table"},
      {qcn_tiny, "traffic=adv+1 load=0.4 --rtl table"},
      {qcn_tiny, "traffic=adv+1 load=0.5 qcn.sampling=input qcn.source_processing=true --rtl table,qcn,qcn_cp"}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    const std::string rtl_flag = c.args.substr(c.args.find("--rtl"));
    const std::string plain = c.args.substr(0, c.args.find(" --rtl"));
    const std::string common = plain + " warmup_cycles=3000 measure_cycles=9000 timeseries.bin_cycles=1500";
    const ScflyRun cpp = run_scfly(c.cfg, common);
    const ScflyRun rtl = run_scfly(c.cfg, common + " " + rtl_flag);
    expect_ok(cpp);
    expect_ok(rtl);
    EXPECT_NE(rtl.out.find("ft_lookup.sv (in process per switch)"), std::string::npos) << rtl.out;
    EXPECT_EQ(cpp.json["metrics"], rtl.json["metrics"]);
    EXPECT_EQ(cpp.json["timeseries"], rtl.json["timeseries"]);
    EXPECT_GT(rtl.json["metrics"]["packets_delivered"].get<int>(), 1000);
  }
  // MIN-COND under ADV+1 misroutes through its conditional entries: the RTL took that path.
  const ScflyRun r = run_scfly(qcn_tiny, "traffic=adv+1 load=0.4 warmup_cycles=3000 measure_cycles=9000 --rtl table");
  EXPECT_GT(r.json["metrics"]["nonminimal_fraction"].get<double>(), 0.01);
  const ScflyRun bad = run_scfly(tiny_config(), "routing=min --rtl table", false);
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("block 'table'"), std::string::npos) << bad.err;
}

// The switch's separable allocator (--rtl allocator) in every switch: the Verilated
// sep_allocator decides every allocation, the switch records its grants. Identical metrics
// and time series on dfly-tiny (MIN, VAL, UGAL-L; one, two and three passes; transit
// priority; PFC; the crossbar's transfer mode; probes, whose control VCs go before the data
// VCs from the switch's internal port) and 4-ary tori under age priority (DOR; MIN AD, whose
// heads have several candidates, so that a later pass can offer another one: one
// evaluation per pass; DOR with 4 link VCs, a range of 2 per class; CHAOS, whose multiqueue
// is the round-robin internal port). dfly-tiny's 7 ports (8 with the probes' internal port)
// and the 2-cube's 5 (6 with the multiqueue) get the radix-8 instance, the 4-ary 1-cube's 3
// ports with 2 VCs the radix-4 one (the radix-16 one, dfly(4,8,4)'s, is checked through the
// same adapter in test_rtl_allocator.cpp).
namespace {
void expect_allocator_rtl_identical(const std::string& cfg, const std::vector<std::string>& cases,
                                    const std::string& sv = "sep_allocator.sv", bool late_grants = true) {
  for (const std::string& args : cases) {
    SCOPED_TRACE(args);
    const std::string common = args + " warmup_cycles=500 measure_cycles=2000 timeseries.bin_cycles=500";
    const ScflyRun cpp = run_scfly(cfg, common);
    const ScflyRun rtl = run_scfly(cfg, common + " --rtl allocator");
    expect_ok(cpp);
    expect_ok(rtl);
    EXPECT_EQ(rtl.json["config"]["rtl"], nlohmann::json::array({"allocator"}));
    EXPECT_NE(rtl.out.find("rtl: " + sv + " (in process per switch)"), std::string::npos) << rtl.out;
    EXPECT_EQ(cpp.json["metrics"], rtl.json["metrics"]);
    EXPECT_EQ(cpp.json["timeseries"], rtl.json["timeseries"]);
    EXPECT_GT(rtl.json["metrics"]["packets_delivered"].get<int>(), 500);
    // Where a later pass is run at a load that needs it, it granted something.
    if (late_grants && args.find("allocator_iterations") != std::string::npos &&
        args.find("speedup=1") != std::string::npos) {
      EXPECT_GT(counter(metrics(rtl), "allocator_late_grants"), 10.0);
    }
  }
}
}  // namespace

TEST(RtlNetwork, AllocatorRtlGivesIdenticalResultsOnDragonflies) {
  expect_allocator_rtl_identical(
      tiny_config(),
      {"routing=min traffic=un load=0.6", "routing=val traffic=un load=0.5 switch.speedup=1 switch.allocator_iterations=2",
       "routing=ugal-l traffic=adv+1 load=0.4 switch.output_arbiter=transit-priority",
       "routing=ugal-l traffic=adv+1 load=0.5 switch.speedup=1 switch.allocator_iterations=3",
       "routing=min traffic=un load=0.5 switch.flow_control=pfc switch.speedup=3 switch.allocator_iterations=2",
       "routing=min traffic=un load=0.5 switch.crossbar=transfer switch.allocator_iterations=2",
       "routing=min traffic=un load=0.6 control.probe_interval=50 switch.speedup=1 switch.allocator_iterations=2"});
}

TEST(RtlNetwork, AllocatorRtlGivesIdenticalResultsOnTori) {
  expect_allocator_rtl_identical(
      torus_config(),
      {"routing=dor traffic=un load=0.6 topology.k=4",
       "routing=min-ad traffic=un load=0.9 topology.k=4 switch.speedup=1 switch.allocator_iterations=2",
       "routing=dor traffic=un load=0.9 topology.k=4 switch.vcs.link=4 switch.speedup=1 switch.allocator_iterations=2",
       "routing=dor traffic=un load=0.9 topology.k=4 topology.n=1 switch.speedup=1 switch.allocator_iterations=2",
       "routing=chaos chaos.multiqueue=4 traffic=un load=0.9 topology.k=4"});
}

// The allocator variants of switch.allocator as RTL (--rtl allocator with output-first,
// wavefront or iSLIP: alloc_output_first.sv, alloc_wavefront.sv, alloc_islip.sv in every
// switch): identical metrics and time series. Each under UGAL-L ADV+1 with 3 passes (its
// heads have several candidates, so a later pass may offer another one: one evaluation per
// pass, with the variant's own rule for what its registers hold between passes), with
// transit priority (read by the output-first one only) and probes (control VCs first, from
// the internal port), and on tori under MIN AD with 2 passes, DOR on the 4-ary 1-cube with
// 3 and CHAOS (the multiqueue's round-robin internal port). dfly-tiny's 7 ports and the
// 2-cube's 5 take the radix-16 instances, the 1-cube's 3 ports with 2 VCs the radix-4 one.
// A wavefront pass is a maximal matching of its cells: with one connection per port a later
// pass grants only what a head's other candidate asks for, none in these runs.
namespace {
void expect_variant_rtl_identical(const std::string& kind, const std::string& sv) {
  const std::string a = " switch.allocator=" + kind;
  const bool late = kind != "wavefront";
  expect_allocator_rtl_identical(
      tiny_config(),
      {"routing=ugal-l traffic=adv+1 load=0.5 switch.speedup=1 switch.allocator_iterations=3" + a,
       "routing=min traffic=un load=0.6 switch.output_arbiter=transit-priority control.probe_interval=50 "
       "switch.allocator_iterations=2" + a},
      sv, late);
  expect_allocator_rtl_identical(
      torus_config(),
      {"routing=min-ad traffic=un load=0.9 topology.k=4 switch.speedup=1 switch.allocator_iterations=2" + a,
       "routing=dor traffic=un load=0.9 topology.k=4 topology.n=1 switch.speedup=1 switch.allocator_iterations=3" + a,
       "routing=chaos chaos.multiqueue=4 traffic=un load=0.9 topology.k=4" + a},
      sv, late);
}
}  // namespace

TEST(RtlNetwork, AllocatorOutputFirstRtlGivesIdenticalResults) {
  expect_variant_rtl_identical("separable-output", "alloc_output_first.sv");
}
TEST(RtlNetwork, AllocatorWavefrontRtlGivesIdenticalResults) {
  expect_variant_rtl_identical("wavefront", "alloc_wavefront.sv");
}
TEST(RtlNetwork, AllocatorIslipRtlGivesIdenticalResults) { expect_variant_rtl_identical("islip", "alloc_islip.sv"); }

// A switch the build's instances do not hold, and the allocator options the RTL does not
// implement: exit 2 naming the block, what the switch needs and what is allowed.
TEST(RtlNetwork, AllocatorRtlRequestsAreValidated) {
  const auto refused = [](const std::string& cfg, const std::string& args, const std::string& needle) {
    const ScflyRun r = run_scfly(cfg, args, false);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_NE(r.err.find("config key 'rtl': block 'allocator'"), std::string::npos) << args << ": " << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << args << ": " << r.err;
  };
  const std::string r16 = "16 ports (internal ones included), 4 VCs per port, 4 connections per port";
  const std::string limits = "up to " + r16 + ", or 64 ports (internal ones included), 2 VCs per port, 2 connections per port";
  refused(tiny_config(), "topology.p=6 topology.a=12 topology.h=6 topology.g=73 switch.vcs.local=3 --rtl allocator",
          limits + "; dfly(6,12,6,73)");
  refused(tiny_config(), "topology.p=6 topology.a=12 topology.h=6 topology.g=73 switch.vcs.local=3 --rtl allocator",
          "needs 23 ports");
  refused(tiny_config(), "switch.speedup=5 --rtl allocator", "5 connections per port (switch.speedup)");
  refused(tiny_config(), "switch.vcs.local=5 --rtl allocator", "5 VCs on a port");
  refused(tiny_config(), "switch.allocator=islip switch.vcs.local=5 --rtl allocator",
          "(the switch's allocator, switch.allocator islip) is Verilated in this build for " + limits + ";");
  refused(torus_config(), "routing=chaos --rtl allocator", "5 VCs on a port (chaos.multiqueue slots)");
  refused(tiny_config(), "switch.output_sharing=port --rtl allocator", "not allowed with switch.output_sharing: port");
  refused(tiny_config(), "switch.ejection_grant=host-idle --rtl allocator",
          "not allowed with switch.ejection_grant: host-idle");
  // Any network and routing otherwise.
  const ScflyRun ok = run_scfly(torus_config(), "routing=gal warmup_cycles=100 measure_cycles=200 --rtl allocator");
  expect_ok(ok);
}

// The allocator's ports and nets trace into the switch's VCD (net.swN.alloc_rtl.sep_allocator.*):
// at every sampled cycle it granted only input VCs that requested, and each one it granted
// holds its crossbar connection in the switch's own trace (in<p>_<class>_vc<v>_xbar_out).
TEST(RtlNetwork, AllocatorRtlTracesIntoTheVcd) {
  const std::string vcd = tmp("rtl_alloc.vcd");
  const ScflyRun r = run_scfly(tiny_config(), "routing=min traffic=un load=0.6 warmup_cycles=0 measure_cycles=2000 "
                                              "--rtl allocator --vcd " + vcd + " --trace-switches 0");
  expect_ok(r);
  const Waves w = parse_vcd(slurp(vcd));
  std::remove(vcd.c_str());
  ASSERT_GT(w.times.size(), 100U);
  const std::string a = "net.sw0.alloc_rtl.sep_allocator.";
  for (const std::string n : {"req_i", "grant_o", "in_ptr_q", "out_ptr_q", "granted", "taken", "iters_i", "cap_i"})
    ASSERT_TRUE(w.values.count(a + n)) << a + n;
  // Input VC (p, v) is entry p * 4 + v of the radix-16 instance (4 VCs per port).
  std::map<int, const std::vector<uint64_t>*> conn;
  for (const auto& [name, vals] : w.values) {
    int p = -1, v = -1;
    char cls[32];
    if (name.rfind("net.sw0.in", 0) == 0 && name.size() > 9 && name.find("_xbar_out") != std::string::npos &&
        std::sscanf(name.c_str() + 10, "%d_%31[a-z]_vc%d_xbar_out", &p, cls, &v) == 3)
      conn[p * 4 + v] = &vals;
  }
  ASSERT_GE(conn.size(), 7U);
  const auto& grant = w.values.at(a + "grant_o");
  const auto& req = w.values.at(a + "req_i");
  uint64_t grants = 0;
  for (size_t t = 0; t < w.times.size(); ++t) {
    ASSERT_EQ(grant[t] & ~req[t], 0U) << "at " << w.times[t] << " ps";
    for (uint64_t g = grant[t]; g; g &= g - 1) {
      const int e = __builtin_ctzll(g);
      ASSERT_TRUE(conn.count(e)) << "entry " << e;
      EXPECT_NE(conn.at(e)->at(t), 0xFFFFFFFFU) << "input VC " << e / 4 << "," << e % 4 << " at " << w.times[t] << " ps";
      ++grants;
    }
  }
  EXPECT_GT(grants, 100U);
}

// A variant's nets trace under its module (net.swN.alloc_rtl.alloc_wavefront.*): it grants
// only what was requested, and its first diagonal moves (once per allocation cycle, through
// every value of dfly-tiny's 7 ports).
TEST(RtlNetwork, AllocatorVariantRtlTracesIntoTheVcd) {
  const std::string vcd = tmp("rtl_alloc_wf.vcd");
  const ScflyRun r = run_scfly(tiny_config(), "routing=min traffic=un load=0.6 warmup_cycles=0 measure_cycles=1000 "
                                              "switch.allocator=wavefront --rtl allocator --vcd " + vcd +
                                              " --trace-switches 0");
  expect_ok(r);
  const Waves w = parse_vcd(slurp(vcd));
  std::remove(vcd.c_str());
  ASSERT_GT(w.times.size(), 100U);
  const std::string a = "net.sw0.alloc_rtl.alloc_wavefront.";
  for (const std::string n : {"req_i", "grant_o", "in_ptr_q", "diag_q"}) ASSERT_TRUE(w.values.count(a + n)) << a + n;
  const auto& grant = w.values.at(a + "grant_o");
  const auto& req = w.values.at(a + "req_i");
  std::set<uint64_t> diags;
  uint64_t grants = 0;
  for (size_t t = 0; t < w.times.size(); ++t) {
    ASSERT_EQ(grant[t] & ~req[t], 0U) << "at " << w.times[t] << " ps";
    grants += static_cast<uint64_t>(__builtin_popcountll(grant[t]));
    diags.insert(w.values.at(a + "diag_q")[t]);
  }
  EXPECT_GT(grants, 100U);
  EXPECT_EQ(diags.size(), 7U);
}

// The in-process blocks run on the block scheduler: each is stepped inside its switch's
// (or NIC's) cycle, and the network-wide ones (min_route, quadrant, ugal) have a model per
// shard of switches. On one thread and on two, the run is the kernel's: the same metrics,
// time series and per-switch series, and the same VCD (the blocks' nets among its
// variables) but for its $date line.
TEST(RtlNetwork, InProcessBlocksRunOnTheBlockSchedulerWithTheKernelsResults) {
  const std::string qcn_tiny = std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/qcn-tiny.yaml";
  const std::string w = " warmup_cycles=300 measure_cycles=1200 timeseries.bin_cycles=300 timeseries.per_switch=true";
  const auto body = [](const std::string& f) {  // the VCD without its $date line
    std::string t = slurp(f);
    const size_t a = t.find("$date"), b = t.find("$end", a);
    if (a != std::string::npos && b != std::string::npos) t.erase(a, b - a);
    return t;
  };
  const std::vector<std::tuple<std::string, std::string, std::string>> cases{
      {tiny_config(),
       "routing=ugal-l traffic=adv+1 load=0.45 switch.allocator=wavefront "
       "--rtl ugal,min_route,allocator,flow_control,link_arbiter --trace-switches 0,7",
       "blocks of 10 cycles"},
      {qcn_tiny, "traffic=adv+1 load=0.5 qcn.sampling=input --rtl table,qcn,qcn_cp --trace-switches 3",
       "blocks of 4 cycles"},
      {torus_config(), "routing=gal traffic=tor load=0.4 topology.k=4 gal.sets=4 --rtl quadrant,gal_threshold "
                       "--trace-switches 0,5",
       "blocks of 1 cycle"},
      {tiny_config(), "routing=pb-acor traffic=adv+1 load=0.6 --rtl acor,pb,min_route --trace-switches 0,7",
       "blocks of 10 cycles"}};
  for (const auto& [config, args, block] : cases) {
    SCOPED_TRACE(args);
    const std::string k = tmp("k.vcd"), b1 = tmp("b1.vcd"), b2 = tmp("b2.vcd");
    const ScflyRun rk = run_scfly(config, args + w + " sim.scheduler=kernel --vcd " + k);
    const ScflyRun r1 = run_scfly(config, args + w + " sim.threads=1 --vcd " + b1);
    const ScflyRun r2 = run_scfly(config, args + w + " sim.threads=2 --vcd " + b2);
    expect_ok(rk);
    expect_ok(r1);
    expect_ok(r2);
    EXPECT_EQ(rk.json["run"]["scheduler"], "kernel (sim.scheduler: kernel)");
    EXPECT_EQ(r1.json["run"]["scheduler"], block);
    EXPECT_EQ(r2.json["run"]["scheduler"], block + " on 2 threads");
    for (const ScflyRun* r : {&r1, &r2}) {
      EXPECT_EQ(rk.json["metrics"], r->json["metrics"]);
      EXPECT_EQ(rk.json["timeseries"], r->json["timeseries"]);
    }
    const std::string kt = body(k);
    EXPECT_NE(kt.find("_rtl"), std::string::npos);  // the blocks' nets are traced
    EXPECT_TRUE(kt == body(b1));
    EXPECT_TRUE(kt == body(b2));
    EXPECT_GT(metrics(rk)["packets_delivered"].get<int>(), 500);
    for (const auto& f : {k, b1, b2}) std::remove(f.c_str());
  }
}
