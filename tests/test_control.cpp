// Traffic classes: control frames (TrafficClass::Control) originated by switches toward
// hosts (control.probe_interval), carried on their own VCs above the data VCs with strict
// priority, intercepted by the destination host's switch, and never counted as data.
#include <gtest/gtest.h>

#include "scfly_run.h"

namespace {

// Long data packets and many data VCs: without strict priority a control frame would wait
// behind up to (data VCs - 1) whole data packets at every output link, round-robin.
const std::string kLong =
    " control.probe_interval=100 packet_phits=32 switch.vcs.local=8 switch.vcs.global=4"
    " switch.output_buffer.local=64 switch.output_buffer.global=64 switch.output_buffer.ejection=64"
    " warmup_cycles=2000 measure_cycles=8000";

TEST(ControlFrames, InterceptedAtTheHostsSwitchAndNeverCountedAsData) {
  const ScflyRun r = run_scfly(tiny_config(), "-q traffic=un load=0.3 control.probe_interval=50");
  expect_ok(r);  // conservation: data generated = injected + queued, injected = delivered + in network
  if (r.json.is_null()) return;
  const auto& m = metrics(r);
  // 36 switches, one frame each per 50 cycles over 13,000 cycles.
  EXPECT_EQ(m["control_frames_originated"].get<uint64_t>(), 36u * 13000 / 50);
  const uint64_t in_flight = m["control_frames_originated"].get<uint64_t>() - m["control_frames_intercepted"].get<uint64_t>();
  EXPECT_LT(in_flight, 36u * 3);  // only the last few are still travelling
  EXPECT_GT(m["control_latency_avg"].get<double>(), 0.0);
  // No control frame reached a NIC (a NIC fails the run on a frame not meant for it) nor the
  // data statistics: the data conservation equations hold exactly (expect_ok), and the
  // delivered count is what the NICs received.
  EXPECT_EQ(m["packets_injected"], m["packets_delivered"].get<uint64_t>() + m["packets_in_network"].get<uint64_t>());
  EXPECT_NE(r.json["run"]["conservation"].get<std::string>().find("control frames in flight"), std::string::npos);
  // Without probes the data metrics carry no control keys at all.
  const ScflyRun plain = run_scfly(tiny_config(), "-q traffic=un load=0.3");
  expect_ok(plain);
  if (!plain.json.is_null()) {
    EXPECT_FALSE(metrics(plain).contains("control_frames_originated"));
  }
}

TEST(ControlFrames, OvertakeQueuedDataByStrictPriority) {
  const ScflyRun idle = run_scfly(tiny_config(), "-q traffic=un load=0.02" + kLong);
  const ScflyRun busy = run_scfly(tiny_config(), "-q traffic=un load=0.95" + kLong);
  expect_ok(idle);
  expect_ok(busy);
  if (idle.json.is_null() || busy.json.is_null()) return;
  const auto &mi = metrics(idle), &mb = metrics(busy);
  // The data network is congested: its latency grows threefold.
  EXPECT_GT(mb["network_latency_avg"].get<double>(), 3 * mi["network_latency_avg"].get<double>());
  // Control frames barely notice: at most one data packet in progress per link of their
  // (at most 3-hop) path. Measured 127.7 / 324 against 105.9 / 252 idle; with round-robin
  // instead of priority they took 142.6 / 482.
  EXPECT_LT(mb["control_latency_avg"].get<double>(), 1.25 * mi["control_latency_avg"].get<double>());
  EXPECT_LE(mb["control_latency_max"].get<double>(), mi["control_latency_max"].get<double>() + 3 * 32);
}

TEST(ControlFrames, MustFitEveryBuffer) {
  const ScflyRun r = run_scfly(tiny_config(), "-q control.probe_interval=100 control.frame_phits=48");
  EXPECT_EQ(r.code, 2);  // 48 phits > the 32-phit output buffers: frames would never move
  EXPECT_NE(r.err.find("control.frame_phits"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("48"), std::string::npos) << r.err;
}

TEST(ControlFrames, NeedRoomForTheirVcs) {
  const ScflyRun r = run_scfly(tiny_config(), "-q control.probe_interval=100 switch.vcs.local=16");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("switch.vcs.local"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("control VCs"), std::string::npos) << r.err;
}

}  // namespace
