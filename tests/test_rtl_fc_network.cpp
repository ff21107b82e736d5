// Whole-network co-simulation of the switch's output side: the link-level flow control
// (--rtl flow_control: every switch port's credit counters and PFC state are the Verilated
// flow_control.sv's) and the link arbiter (--rtl link_arbiter: link_arbiter.sv per port),
// both in rtl_models/switch/switch_rtl_fc.cpp, and rtl_switches. Metrics and time series must
// be identical to the C++ run: for flow control in every mode that lands several credits of
// a VC in one cycle (a packet's credits at once, a transfer crossbar at speedup 3, the CHAOS
// multiqueue, a switch waking up), with routings that read the credits (UGAL-L counting them
// per port and per VC), and under PFC; for the arbiter on every kind of port. Kept small.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "scfly_run.h"
#include "vcd_parse.h"

namespace {

std::string preset(const char* name) { return std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/" + name; }

void expect_identical(const std::string& cfg, const std::string& args, int min_delivered) {
  const ScflyRun rtl = expect_rtl_identical(cfg, args, "flow_control", min_delivered);
  EXPECT_NE(rtl.out.find("flow_control.sv (in process per switch port)"), std::string::npos) << rtl.out;
}

}  // namespace

TEST(RtlFcNetwork, CreditFlowControlRtlGivesIdenticalResultsOnDragonflies) {
  const std::string common = " warmup_cycles=500 measure_cycles=2000 timeseries.bin_cycles=500";
  for (const std::string args :
       {"routing=min traffic=un load=0.6",
        "routing=ugal-l traffic=adv+1 load=0.4 ugal.occupancy=credits",
        "routing=ugal-l traffic=adv+1 load=0.4 ugal.occupancy=both ugal.occupancy_scope=vc",
        "routing=min traffic=un load=0.7 switch.output_credits=inside switch.credit_return=packet",
        "routing=ugal-l traffic=adv+1 load=0.45 switch.crossbar=transfer switch.speedup=3"})
    expect_identical(tiny_config(), args + common, 1000);
}

TEST(RtlFcNetwork, PfcRtlGivesIdenticalResults) {
  // PAUSE and RESUME from the block's pulses: MIN under PFC past saturation on dfly-tiny,
  // and qcn-tiny (PFC, MIN-COND with QCN) at its adversarial load.
  expect_identical(tiny_config(),
                   "routing=min traffic=adv+1 load=0.5 switch.flow_control=pfc warmup_cycles=500 measure_cycles=2000 "
                   "timeseries.bin_cycles=500",
                   500);
  expect_identical(preset("qcn-tiny.yaml"),
                   "traffic=adv+1 load=0.4 warmup_cycles=2000 measure_cycles=4000 timeseries.bin_cycles=1000", 500);
}

TEST(RtlFcNetwork, ChaosMultiqueueRtlGivesIdenticalResultsOnATorus) {
  expect_identical(preset("torus-8x8-1port.yaml"),
                   "routing=chaos traffic=un load=0.9 topology.k=4 topology.n=2 warmup_cycles=500 measure_cycles=2000 "
                   "timeseries.bin_cycles=500",
                   500);
}

// The block drains one phit per input VC per cycle: PFC with a transfer crossbar at S > 1
// is refused, naming the key and why.
TEST(RtlFcNetwork, PfcWithATransferCrossbarIsRefused) {
  const ScflyRun r = run_scfly(tiny_config(),
                               "routing=min switch.flow_control=pfc switch.crossbar=transfer switch.speedup=3 "
                               "--rtl flow_control",
                               false);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("config key 'rtl'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("block 'flow_control'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("drains one phit per input VC per cycle"), std::string::npos) << r.err;
  // At speedup 1 the transfer crossbar moves one phit a cycle: taken.
  const ScflyRun ok = run_scfly(tiny_config(),
                                "routing=min switch.flow_control=pfc switch.crossbar=transfer switch.speedup=1 "
                                "warmup_cycles=0 measure_cycles=500 --rtl flow_control");
  expect_ok(ok);
}

// Each port's block traces into the switch's VCD (net.swN.fc_rtlP.flow_control.*): the
// paused flag the switch traces for an input VC (in<p>_<class>_vc<v>_xoff) is the block's
// register xoff_q at every sampled cycle, and it rose in the window.
TEST(RtlFcNetwork, FlowControlRtlTracesIntoTheVcd) {
  const std::string vcd = tmp("rtl_fc.vcd");
  const ScflyRun r = run_scfly(preset("qcn-tiny.yaml"), "traffic=adv+1 load=0.5 warmup_cycles=0 measure_cycles=3000 "
                                                        "--rtl flow_control --vcd " + vcd + " --trace-switches 3");
  expect_ok(r);
  const Waves w = parse_vcd(slurp(vcd));
  std::remove(vcd.c_str());
  ASSERT_GT(w.times.size(), 100U);
  int ports = 0;
  uint64_t paused = 0;
  for (int p = 0; p < 16; ++p) {
    const std::string fc = "net.sw3.fc_rtl" + std::to_string(p) + ".flow_control.";
    if (!w.values.count(fc + "xoff_q")) continue;
    ++ports;
    for (const std::string n : {"fill_i", "drain_i", "pause_o", "resume_o", "xoff_o"})
      EXPECT_TRUE(w.values.count(fc + n)) << fc + n;
    const auto& reg = w.values.at(fc + "xoff_q");
    for (const auto& [name, vals] : w.values) {
      int q = -1, v = -1;
      char cls[32];
      const std::string pre = "net.sw3.in";
      if (name.rfind(pre, 0) != 0 || name.find("_xoff") == std::string::npos ||
          std::sscanf(name.c_str() + pre.size(), "%d_%31[a-z]_vc%d_xoff", &q, cls, &v) != 3 || q != p)
        continue;
      for (size_t t = 0; t < w.times.size(); ++t) {
        ASSERT_EQ((reg[t] >> v) & 1U, vals[t]) << name << " at " << w.times[t] << " ps";
        paused += vals[t];
      }
    }
  }
  EXPECT_GE(ports, 3);
  EXPECT_GT(paused, 0U);
}

// A spurious credit (--fault extra-credit) raises the block's overflow_o, which stops the run
// with the C++ check's message (exit 3, a detected simulation fault), naming the RTL flag.
TEST(RtlFcNetwork, TheBlocksOverflowFlagStopsTheRun) {
  const std::string args =
      "routing=min traffic=un load=0.4 warmup_cycles=0 measure_cycles=2000 --fault extra-credit:0:2:0:500";
  const ScflyRun cpp = run_scfly(tiny_config(), args, false);
  const ScflyRun rtl = run_scfly(tiny_config(), args + " --rtl flow_control", false);
  EXPECT_EQ(cpp.code, 3);
  EXPECT_EQ(rtl.code, 3);
  const std::string msg = "net.sw0: credits of output port 2 exceed the downstream buffer size 64";
  EXPECT_NE((cpp.out + cpp.err).find(msg), std::string::npos) << cpp.out << cpp.err;
  EXPECT_NE((rtl.out + rtl.err).find(msg + " (the RTL flow control's overflow flag, output VC 0)"), std::string::npos)
      << rtl.out << rtl.err;
}

// --- --rtl link_arbiter: each port's link arbiter is the Verilated link_arbiter.sv --------

namespace {

void expect_identical_la(const std::string& cfg, const std::string& args, int min_delivered,
                         const std::string& blocks = "link_arbiter") {
  const ScflyRun rtl = expect_rtl_identical(cfg, args, blocks, min_delivered);
  EXPECT_NE(rtl.out.find("link_arbiter.sv (in process per switch port)"), std::string::npos) << rtl.out;
}

}  // namespace

// Every kind of port the arbiter meets: data VCs only (2 local, 1 global, 1 ejection), 6
// local VCs (the 16-VC instance), control VCs above the data ones (qcn-tiny's CNMs: strict
// priority), PFC, a torus with CHAOS, and an output pipeline delay (ready waits for it).
TEST(RtlLaNetwork, LinkArbiterRtlGivesIdenticalResults) {
  const std::string common = " warmup_cycles=500 measure_cycles=2000 timeseries.bin_cycles=500";
  for (const std::string args :
       {"routing=min traffic=un load=0.6", "routing=ugal-l traffic=adv+1 load=0.4",
        "routing=val traffic=un load=0.3 switch.vcs.local=6 switch.vcs.global=3",
        "routing=min traffic=adv+1 load=0.5 switch.flow_control=pfc",
        "routing=min traffic=un load=0.5 switch.pipeline_cycles=2 switch.pipeline_position=output"})
    expect_identical_la(tiny_config(), args + common, 1000);
  expect_identical_la(preset("qcn-tiny.yaml"),
                      "traffic=adv+1 load=0.4 warmup_cycles=2000 measure_cycles=4000 timeseries.bin_cycles=1000", 500);
  expect_identical_la(preset("torus-8x8-1port.yaml"),
                      "routing=chaos traffic=un load=0.9 topology.k=4 topology.n=2 warmup_cycles=500 "
                      "measure_cycles=2000 timeseries.bin_cycles=500",
                      500);
}

// The switch's three RTL stages at once (allocator, flow control, link arbiter): the same run.
TEST(RtlLaNetwork, AllThreeSwitchStagesTogetherGiveIdenticalResults) {
  expect_identical_la(tiny_config(),
                      "routing=ugal-l traffic=adv+1 load=0.4 warmup_cycles=500 measure_cycles=2000 "
                      "timeseries.bin_cycles=500",
                      1000, "allocator,flow_control,link_arbiter");
}

// Each port's block traces into the switch's VCD (net.swN.la_rtlP.link_arbiter.*): its
// pointer stays a data VC, moves, and every pick is a ready VC.
TEST(RtlLaNetwork, LinkArbiterRtlTracesIntoTheVcd) {
  const std::string vcd = tmp("rtl_la.vcd");
  const ScflyRun r = run_scfly(tiny_config(), "routing=val traffic=un load=0.5 warmup_cycles=0 measure_cycles=3000 "
                                              "--rtl link_arbiter --vcd " + vcd + " --trace-switches 3");
  expect_ok(r);
  const Waves w = parse_vcd(slurp(vcd));
  std::remove(vcd.c_str());
  ASSERT_GT(w.times.size(), 100U);
  int ports = 0, moved = 0;
  for (int p = 0; p < 7; ++p) {  // dfly(2,4,2): 2 host, 3 local and 2 global ports
    const std::string la = "net.sw3.la_rtl" + std::to_string(p) + ".link_arbiter.";
    ASSERT_TRUE(w.values.count(la + "rr_q")) << la;
    ++ports;
    for (const std::string n : {"ready_i", "arb_i", "valid_o", "vc_o", "nd_i", "nv_i"})
      ASSERT_TRUE(w.values.count(la + n)) << la + n;
    const auto& rr = w.values.at(la + "rr_q");
    const auto& nd = w.values.at(la + "nd_i");
    for (size_t t = 0; t < w.times.size(); ++t) {
      ASSERT_LT(rr[t], nd[t]) << la << " at " << w.times[t] << " ps";
      moved += t > 0 && rr[t] != rr[t - 1];
    }
  }
  EXPECT_EQ(ports, 7);
  EXPECT_GT(moved, 100);
}

// rtl_switches: the blocks in the named switches only (their nets in the VCD, not the
// others'), and the run still identical to the C++ one.
TEST(RtlLaNetwork, RtlSwitchesCoSimulatesOnlyThoseSwitches) {
  const std::string args = "routing=ugal-l traffic=adv+1 load=0.4 warmup_cycles=500 measure_cycles=2000 "
                           "timeseries.bin_cycles=500";
  const std::string vcd = tmp("rtl_sw.vcd");
  const ScflyRun cpp = run_scfly(tiny_config(), args);
  const ScflyRun rtl = run_scfly(tiny_config(), args + " --rtl allocator,flow_control,link_arbiter,ugal,min_route "
                                                       "--rtl-switches 5,0 --vcd " + vcd + " --trace-switches 0,1");
  expect_ok(cpp);
  expect_ok(rtl);
  EXPECT_EQ(cpp.json["metrics"], rtl.json["metrics"]);
  EXPECT_EQ(cpp.json["timeseries"], rtl.json["timeseries"]);
  EXPECT_EQ(rtl.json["config"]["rtl_switches"], nlohmann::json::array({0, 5}));
  EXPECT_FALSE(cpp.json["config"].contains("rtl_switches"));
  EXPECT_NE(rtl.out.find("in switches 0, 5 only"), std::string::npos) << rtl.out;
  const Waves w = parse_vcd(slurp(vcd));
  std::remove(vcd.c_str());
  EXPECT_TRUE(w.values.count("net.sw0.la_rtl0.link_arbiter.rr_q"));
  EXPECT_TRUE(w.values.count("net.sw0.fc_rtl0.flow_control.xoff_q"));
  for (const auto& [name, vals] : w.values) EXPECT_EQ(name.find("net.sw1.la_rtl"), std::string::npos) << name;
  for (const auto& [name, vals] : w.values) EXPECT_EQ(name.find("net.sw1.fc_rtl"), std::string::npos) << name;
}

TEST(RtlLaNetwork, BadRtlSwitchesAreClearErrors) {
  const std::string q = " warmup_cycles=0 measure_cycles=100";
  for (const auto& [args, want] : std::vector<std::pair<std::string, std::string>>{
           {"--rtl-switches 3", "'rtl' names none"},
           {"--rtl link_arbiter --rtl-switches 3,3", "switch 3 is named twice"},
           {"--rtl link_arbiter --rtl-switches 36", "value '36' is not allowed; expected a list of distinct switch "
                                                    "ids in [0, 35]"},
           {"--rtl link_arbiter --rtl-switches a", "value 'a' is not allowed"},
           {"--rtl link_arbiter rtl_switches={x:1}", "config key 'rtl_switches'"}}) {
    const ScflyRun r = run_scfly(tiny_config(), args + q, false);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_NE(r.err.find(want), std::string::npos) << args << ": " << r.err;
  }
}
