// Whole-network RTL co-simulation: every switch drives the Verilated acor_level_ctrl
// instead of the C++ AcorLevelCtrl (--rtl acor); the metrics and the per-switch level
// series must be identical to the C++ run, at loads where the levels move through the
// whole sequence, for ACOR-Switch and PB-ACOR.
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

TEST(RtlNetwork, RtlRequestsAreValidated) {
  const ScflyRun a = run_scfly(tiny_config(), "routing=min --rtl acor", false);
  EXPECT_EQ(a.code, 2);
  EXPECT_NE(a.err.find("rtl"), std::string::npos) << a.err;
  const ScflyRun b = run_scfly(tiny_config(), "routing=acor-switch --rtl ugal", false);
  EXPECT_EQ(b.code, 2);
  EXPECT_NE(b.err.find("not co-simulated"), std::string::npos) << b.err;
  const ScflyRun c = run_scfly(tiny_config(), "routing=acor-switch --rtl nosuchblock", false);
  EXPECT_EQ(c.code, 2);
}
