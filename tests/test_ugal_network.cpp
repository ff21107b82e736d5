// Source-adaptive routing in whole networks on dfly(2,4,2): under UN at moderate load
// UGAL-L and PB route (almost) all packets minimally and accept the offered load; under
// ADV+1 every adaptive mechanism sends most packets non-minimally and sustains far more
// than MIN's 1/(a*p); no deadlock at and beyond saturation (all packets drained);
// determinism with congestion-dependent decisions.
#include <gtest/gtest.h>

#include "scfly_run.h"

namespace {

double m(const ScflyRun& r, const char* k) { return metrics(r)[k].get<double>(); }


const char* kAdaptive[] = {"ugal-l", "ugal-g", "par", "pb", "pb-acor"};

}  // namespace

TEST(AdaptiveNet, UniformAtModerateLoadStaysMinimal) {
  for (const char* r : {"ugal-l", "pb"}) {
    SCOPED_TRACE(r);
    const ScflyRun x = run_scfly(tiny_config(), std::string("routing=") + r +
                                                   " traffic=un load=0.3 warmup_cycles=2000 measure_cycles=5000");
    expect_ok(x);
    EXPECT_LT(m(x, "nonminimal_fraction"), 0.1);
    EXPECT_NEAR(m(x, "accepted_load"), 0.3, 0.015);
  }
}

TEST(AdaptiveNet, AdvPlus1GoesMostlyNonMinimalAndBeatsMin) {
  for (const char* r : kAdaptive) {
    SCOPED_TRACE(r);
    const ScflyRun x = run_scfly(tiny_config(), std::string("routing=") + r +
                                                   " traffic=adv+1 load=0.4 warmup_cycles=2000 measure_cycles=5000");
    expect_ok(x);
    EXPECT_GT(m(x, "nonminimal_fraction"), 0.5);
    EXPECT_GT(m(x, "accepted_load"), 2.4 * 0.125);  // MIN saturates at 1/(a*p) = 0.125
  }
}

TEST(AdaptiveNet, EveryMechanismDrainsAtAndBeyondSaturation) {
  for (const char* r : kAdaptive)
    for (const char* tr : {"traffic=adv+1 load=0.9", "traffic=un load=0.9",
                           "'traffic=shift(2,0)' load=0.9 packet_phits=1"}) {
      SCOPED_TRACE(std::string(r) + " " + tr);
      expect_drained(run_scfly(tiny_config(), std::string("routing=") + r + " " + tr +
                                                  " warmup_cycles=1000 measure_cycles=3000 drain=true"));
    }
  // PB with restriction and recomputation, as in the ACOR paper's evaluation.
  expect_drained(run_scfly(tiny_config(), "routing=pb val.restricted=true val.recompute=true traffic=advl "
                                          "load=0.9 warmup_cycles=1000 measure_cycles=3000 drain=true"));
}

TEST(AdaptiveNet, SameSeedSameResult) {
  for (const char* r : {"ugal-g", "par", "pb-acor"}) {
    const std::string args = std::string("routing=") + r + " traffic=adv+1 load=0.5 warmup_cycles=1000 measure_cycles=3000";
    const ScflyRun a = run_scfly(tiny_config(), args), b = run_scfly(tiny_config(), args);
    expect_ok(a);
    EXPECT_EQ(a.json["metrics"], b.json["metrics"]) << r;
  }
}

TEST(AdaptiveNet, PiggybackFlagsAreTraced) {
  const std::string vcd = "/tmp/scfly_pb_" + std::to_string(getpid()) + ".vcd";
  const ScflyRun r = run_scfly(tiny_config(), "routing=pb traffic=adv+1 load=0.5 warmup_cycles=500 "
                                              "measure_cycles=1500 --vcd " + vcd + " --trace-switches 3");
  expect_ok(r);
  const std::string text = slurp(vcd);
  EXPECT_NE(text.find("pb_sat_g0"), std::string::npos);
  std::remove(vcd.c_str());
}
