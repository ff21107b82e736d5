// Whole-network RTL co-simulation: every switch drives the Verilated blocks instead of
// the C++ units (--rtl min_route,acor,ugal,pb); metrics and time series must be identical to the
// C++ run, at loads where the blocks' outputs actually change (levels move through the
// sequence, adaptive choices split, saturation flags toggle).
#include <gtest/gtest.h>

#include "scfly_run.h"

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
        "routing=val traffic=un load=0.4"}) {
    SCOPED_TRACE(args);
    const std::string common = args + " topology.arrangement=absolute topology.g=5" +
                               " warmup_cycles=1000 measure_cycles=3000 timeseries.bin_cycles=500";
    const ScflyRun cpp = run_scfly(tiny_config(), common);
    const ScflyRun rtl = run_scfly(tiny_config(), common + " --rtl min_route");
    expect_ok(cpp);
    expect_ok(rtl);
    EXPECT_EQ(rtl.json["config"]["rtl"], nlohmann::json::array({"min_route"}));
    EXPECT_EQ(cpp.json["metrics"], rtl.json["metrics"]);
    EXPECT_EQ(cpp.json["timeseries"], rtl.json["timeseries"]);
    EXPECT_GT(rtl.json["metrics"]["packets_delivered"].get<int>(), 1000);
  }
}

TEST(RtlNetwork, RtlRequestsAreValidated) {
  const ScflyRun a = run_scfly(tiny_config(), "routing=min --rtl acor", false);
  EXPECT_EQ(a.code, 2);
  EXPECT_NE(a.err.find("rtl"), std::string::npos) << a.err;
  // A shape without a Verilated min_route: the message names the shapes there are.
  const ScflyRun b = run_scfly(
      tiny_config(), "routing=min topology.p=3 topology.a=6 topology.h=3 topology.g=19 --rtl min_route", false);
  EXPECT_EQ(b.code, 2);
  EXPECT_NE(b.err.find("dfly(3,6,3,19)"), std::string::npos) << b.err;
  EXPECT_NE(b.err.find("palmtree dfly(2,4,2,9)"), std::string::npos) << b.err;
  EXPECT_NE(b.err.find("absolute dfly(2,4,2,3)"), std::string::npos) << b.err;
  EXPECT_NE(b.err.find("dfly(4,8,4,9)"), std::string::npos) << b.err;
  const ScflyRun d = run_scfly(tiny_config(), "routing=ugal-l --rtl pb", false);
  EXPECT_EQ(d.code, 2);
  EXPECT_NE(d.err.find("pb"), std::string::npos) << d.err;
  const ScflyRun c = run_scfly(tiny_config(), "routing=acor-switch --rtl nosuchblock", false);
  EXPECT_EQ(c.code, 2);
}
