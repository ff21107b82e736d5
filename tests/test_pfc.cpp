// Ethernet PFC (802.1Qbb) flow control, switch.flow_control: pfc. Lossless at and beyond
// saturation; a receiver's PAUSE reaches its sender exactly one link latency later; at
// moderate load PFC and credits accept the same load; routing reads no credits under PFC.
#include <gtest/gtest.h>
#include <unistd.h>

#include <type_traits>

#include "routing_units/congestion.h"
#include "scfly_run.h"
#include "vcd_parse.h"

namespace {

TEST(Pfc, LosslessAtAndBeyondSaturation) {
  // An overflow of an input buffer is a simulation error (exit 3), so exit 0 means no loss.
  for (const char* args : {"routing=min traffic=adv+1 load=0.6", "routing=min traffic=un load=0.95",
                           "routing=val traffic=adv+1 load=0.9", "routing=ugal-l traffic=adv+1 load=0.7",
                           "routing=acor-switch traffic=advc load=0.8",
                           "routing=min traffic=un load=0.3 drain=true packet_phits=16 switch.input_buffer.local=128"}) {
    const ScflyRun r = run_scfly(tiny_config(), std::string("-q switch.flow_control=pfc ") + args);
    expect_ok(r);
    if (std::string(args).find("drain") != std::string::npos) expect_drained(r);
  }
}

// PFC and control frames together (the Ethernet switch QCN-Switch runs on): lossless beyond
// saturation, every control frame intercepted or still travelling, data counted alone.
TEST(Pfc, WithControlFramesBeyondSaturation) {
  const ScflyRun r = run_scfly(tiny_config(), "-q switch.flow_control=pfc control.probe_interval=100 routing=val "
                                              "traffic=adv+1 load=0.9 drain=true");
  expect_drained(r);
  if (r.json.is_null()) return;
  const auto& m = metrics(r);
  EXPECT_GT(m["control_frames_intercepted"].get<uint64_t>(), 4000u);
  EXPECT_LT(m["control_frames_originated"].get<uint64_t>() - m["control_frames_intercepted"].get<uint64_t>(), 36u * 2);
  // Strict priority on their own VCs: control latency stays near the zero-load path.
  EXPECT_LT(m["control_latency_avg"].get<double>(), 0.2 * m["network_latency_avg"].get<double>());
}

TEST(Pfc, SameAcceptedLoadAsCreditsAtModerateLoad) {
  for (const char* load : {"0.3", "0.5"}) {
    const std::string a = std::string("-q traffic=un load=") + load;
    const ScflyRun credit = run_scfly(tiny_config(), a + " switch.flow_control=credit");
    const ScflyRun pfc = run_scfly(tiny_config(), a + " switch.flow_control=pfc");
    expect_ok(credit);
    expect_ok(pfc);
    if (credit.json.is_null() || pfc.json.is_null()) return;
    const double c = metrics(credit)["accepted_load"], p = metrics(pfc)["accepted_load"];
    EXPECT_NEAR(p, c, 0.02 * c) << "load " << load;
  }
}

// The (cycle, value) changes of one traced variable, from its first sample on.
std::vector<std::pair<uint64_t, uint64_t>> changes(const Waves& w, const std::string& name) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  const std::vector<uint64_t>& v = w.values.at(name);
  for (size_t i = 0; i < v.size(); ++i)
    if (i == 0 || v[i] != v[i - 1]) out.push_back({w.times[i] / 1000, v[i]});  // ps -> cycles at 1 GHz
  return out;
}

TEST(Pfc, PauseReachesTheSenderAfterTheLinkLatency) {
  // ADV+1 on dfly(2,4,2): every switch of a group sends to switch 3 (the group's link to
  // the next group), so sw3's input from sw0 (local port 2) pauses sw0's output port 4.
  const std::string vcd = tmp("pfc.vcd");
  const ScflyRun r = run_scfly(tiny_config(), "-q switch.flow_control=pfc traffic=adv+1 load=0.6 --vcd " + vcd +
                                                   " --trace-switches 0,3 --trace-from 3000 --trace-to 8000");
  expect_ok(r);
  const std::string text = slurp(vcd);
  std::remove(vcd.c_str());
  const Waves w = parse_vcd(text);
  int pauses = 0;
  for (int v = 0; v < 2; ++v) {
    const std::string vc = "vc" + std::to_string(v);
    const auto rx = changes(w, "net.sw3.in2_local_" + vc + "_xoff");
    const auto tx = changes(w, "net.sw0.out4_local_" + vc + "_paused");
    // The initial sample (0 at the first traced cycle) has no message behind it.
    std::vector<std::pair<uint64_t, uint64_t>> rx_moves(rx.begin() + 1, rx.end()), tx_moves(tx.begin() + 1, tx.end());
    for (auto& m : rx_moves) m.first += 10;  // local link latency
    // Every PAUSE/RESUME the receiver sent inside the window lands 10 cycles later.
    while (!rx_moves.empty() && rx_moves.back().first > 8000) rx_moves.pop_back();
    EXPECT_EQ(tx_moves, rx_moves) << vc;
    for (const auto& m : rx_moves) pauses += m.second == 1;
  }
  EXPECT_GT(pauses, 5) << "the traced link never paused; the test would prove nothing";
}

// Under PFC the switch has no credit counters, and the config refuses the credit-based
// congestion measures; the view a PFC-only mechanism is written against has no credit field.
template <typename T, typename = void>
struct HasCredits : std::false_type {};
template <typename T>
struct HasCredits<T, std::void_t<decltype(std::declval<T>().credits_used)>> : std::true_type {};
static_assert(!HasCredits<scfly::OutputQueueView>::value, "the PFC view must not expose credits");
static_assert(HasCredits<scfly::SwitchLoad>::value, "the credit-mode view carries credits");

TEST(Pfc, RoutingCannotReadCredits) {
  for (const char* m : {"credits", "both"}) {
    const ScflyRun r = run_scfly(tiny_config(), std::string("-q routing=ugal-l switch.flow_control=pfc ugal.occupancy=") + m);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("ugal.occupancy"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("pfc"), std::string::npos) << r.err;
  }
  const ScflyRun ok = run_scfly(tiny_config(), "-q routing=ugal-l switch.flow_control=pfc ugal.occupancy=output traffic=adv+1 load=0.4");
  expect_ok(ok);
}

TEST(Pfc, BufferWithoutHeadroomIsAClearError) {
  const ScflyRun r = run_scfly(tiny_config(), "-q switch.flow_control=pfc switch.input_buffer.global=100");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("switch.input_buffer.global"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("headroom"), std::string::npos) << r.err;
  const ScflyRun bad = run_scfly(tiny_config(), "-q switch.flow_control=xon");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("switch.flow_control"), std::string::npos) << bad.err;
}

}  // namespace
