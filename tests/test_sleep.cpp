// Sleeping is an optimization, never a model change: every mechanism, under every
// congestion measure it can read, gives identical metrics and time series with idle
// switches and NICs sleeping (the default) and with every block clocked every cycle
// (sim.sleep=false). The runs alternate busy and nearly idle phases so that switches do
// fall asleep while credits are still returning, which is where a sleeping switch once
// published stale (phantom) occupancy to UGAL-G and the Piggyback flags.
#include <gtest/gtest.h>

#include "scfly_run.h"

namespace {

struct SleepCase {
  const char* name;
  const char* args;
};

class SleepEquivalence : public ::testing::TestWithParam<SleepCase> {};

TEST_P(SleepEquivalence, SameResultsAwakeOrAsleep) {
  const std::string common =
      std::string(GetParam().args) +
      " warmup_cycles=1000 measure_cycles=5000 timeseries.bin_cycles=500 timeseries.per_switch=true"
      " 'phases=[{start: 0, traffic: un, load: 0.25}, {start: 1500, traffic: adv+1, load: 0.02},"
      " {start: 3000, traffic: adv+1, load: 0.35}, {start: 4500, traffic: un, load: 0.03}]'";
  const ScflyRun asleep = run_scfly(tiny_config(), "-q " + common);
  const ScflyRun awake = run_scfly(tiny_config(), "-q sim.sleep=false " + common);
  expect_ok(asleep);
  expect_ok(awake);
  if (asleep.json.is_null() || awake.json.is_null()) return;
  EXPECT_GT(metrics(asleep)["packets_delivered"].get<double>(), 1000);
  if (asleep.json["metrics"] != awake.json["metrics"])
    ADD_FAILURE() << "metrics differ (asleep -> awake): "
                  << nlohmann::json::diff(asleep.json["metrics"], awake.json["metrics"]).dump(1).substr(0, 3000);
  if (asleep.json["timeseries"] != awake.json["timeseries"])
    ADD_FAILURE() << "time series differ (asleep -> awake): "
                  << nlohmann::json::diff(asleep.json["timeseries"], awake.json["timeseries"]).dump(1).substr(0, 3000);
}

const SleepCase kCases[] = {
    {"min", "routing=min"},
    {"val", "routing=val"},
    {"val_recompute", "routing=val val.recompute=true val.policy=crg-gr"},
    {"acor_packet", "routing=acor-packet"},
    {"acor_switch", "routing=acor-switch"},
    {"ugal_l_output", "routing=ugal-l ugal.occupancy=output"},
    {"ugal_l_credits", "routing=ugal-l ugal.occupancy=credits"},
    {"ugal_l_both", "routing=ugal-l ugal.occupancy=both"},
    {"ugal_g_output", "routing=ugal-g ugal.occupancy=output"},
    {"ugal_g_credits", "routing=ugal-g ugal.occupancy=credits"},
    {"ugal_g_both", "routing=ugal-g ugal.occupancy=both"},
    {"par_output", "routing=par ugal.occupancy=output"},
    {"par_both", "routing=par ugal.occupancy=both"},
    {"pb_output", "routing=pb ugal.occupancy=output"},
    {"pb_credits", "routing=pb ugal.occupancy=credits"},
    {"pb_both", "routing=pb ugal.occupancy=both"},
    {"pb_acor_output", "routing=pb-acor ugal.occupancy=output"},
    {"pb_acor_both", "routing=pb-acor ugal.occupancy=both"},
    {"ugal_g_both_absolute", "routing=ugal-g ugal.occupancy=both topology.g=5 topology.arrangement=absolute"},
    // QCN-Switch: CNMs, local updates and the probability register (cpc 5 so that the
    // tiny network samples often), paced by packets and by time, on both sides, and the
    // pause trigger.
    {"min_cond_qcn_out", "routing=min-cond qcn.cpc=5"},
    {"min_cond_qcn_out_time", "routing=min-cond qcn.cpc=5 qcn.sampling_clock=time"},
    {"min_cond_qcn_in_sp", "routing=min-cond qcn.cpc=5 qcn.sampling=input qcn.source_processing=true"},
    {"min_cond_qcn_in_time_pfc",
     "routing=min-cond qcn.cpc=5 qcn.sampling=input qcn.sampling_clock=time switch.flow_control=pfc"},
    {"min_cond_pause", "routing=min-cond min_cond.trigger=pause"},
    {"min_cond_pause_pfc", "routing=min-cond min_cond.trigger=pause switch.flow_control=pfc"},
};

INSTANTIATE_TEST_SUITE_P(Mechanisms, SleepEquivalence, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<SleepCase>& i) { return std::string(i.param.name); });

}  // namespace
