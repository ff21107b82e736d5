// QCN-Switch on a whole Ethernet Dragonfly (sc_main/configs/qcn-tiny.yaml: dfly(2,4,2),
// PFC, the paper's Table I in ns and bytes on 50-byte phits): what MIN-COND does with and
// without notifications, where CNMs go, and that every variant is lossless and drains.
#include <gtest/gtest.h>

#include <string>

#include "scfly_run.h"

namespace {

std::string qcn_tiny() { return std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/qcn-tiny.yaml"; }

// The six variants of the paper's sec. 4.2 and the pause-triggered predecessor.
const char* const kVariants[] = {
    "qcn.sampling=input qcn.feedback_comparison=false",
    "qcn.sampling=input qcn.feedback_comparison=false qcn.source_processing=true",
    "qcn.sampling=input qcn.feedback_comparison=true",
    "qcn.sampling=input qcn.feedback_comparison=true qcn.source_processing=true",
    "qcn.sampling=output qcn.feedback_comparison=false",
    "qcn.sampling=output qcn.feedback_comparison=true",
    "qcn.sampling=output qcn.feedback_comparison=true qcn.sampling_clock=time",
    "qcn.sampling=input qcn.feedback_comparison=true qcn.sampling_clock=time",
    "min_cond.trigger=pause",
};

double num(const ScflyRun& r, const char* key) { return metrics(r)[key].get<double>(); }

TEST(QcnNetwork, WithoutNotificationsMinCondIsMin) {
  // No sample ever emits a CNM (cnm_percent 0), so every probability stays at 100 and MIN-COND
  // forwards exactly as MIN: identical metrics, under UN and under ADV+1 (where MIN saturates).
  for (const char* tr : {"un", "adv+1"}) {
    const std::string common = std::string("-q traffic=") + tr + " load=0.3 warmup_cycles=5000 measure_cycles=10000";
    const ScflyRun mc = run_scfly(qcn_tiny(), common + " qcn.cnm_percent=0");
    const ScflyRun mn = run_scfly(qcn_tiny(), common + " routing=min");
    expect_ok(mc);
    expect_ok(mn);
    if (mc.json.is_null() || mn.json.is_null()) return;
    for (const char* k : {"accepted_load", "latency_avg", "latency_max", "hops_avg", "packets_delivered",
                          "packets_generated", "jain_fairness"})
      EXPECT_EQ(metrics(mc)[k], metrics(mn)[k]) << tr << " " << k;
    EXPECT_EQ(num(mc, "nonminimal_fraction"), 0.0);
    if (std::string(tr) == "adv+1") {  // congestion was sampled, and silenced
      EXPECT_GT(static_cast<uint64_t>(counter(metrics(mc), "qcn_congested_samples")), 0u);
    }
  }
}

TEST(QcnNetwork, AdversarialCarriesFarMoreThanMin) {
  // ADV+1 at 0.4: MIN is bound by the single group-to-group link, 1/(a p) = 1/8 of the
  // injection bandwidth; QCN-Switch spreads the excess over the other groups' links. 1 ms
  // warm-up (the paper's UN->ADV reaction time is 0.4 ms), then 0.5 ms measured.
  const std::string common = "-q traffic=adv+1 load=0.4 warmup_cycles=100000 measure_cycles=50000";
  const ScflyRun mn = run_scfly(qcn_tiny(), common + " routing=min");
  const ScflyRun qc = run_scfly(qcn_tiny(), common);
  expect_ok(mn);
  expect_ok(qc);
  if (mn.json.is_null() || qc.json.is_null()) return;
  EXPECT_LE(num(mn, "accepted_load"), 1.0 / 8 + 0.005);
  EXPECT_GT(num(qc, "accepted_load"), 0.38);  // measured 0.397, latency 303 cycles, Jain 0.9995
  EXPECT_GT(num(qc, "nonminimal_fraction"), 0.6);
  EXPECT_GT(metrics(qc)["policy_fractions"]["crg-gr"].get<double>(), 0.6);  // misroutes are G-first
  // CNMs were sent and every one was intercepted (a NIC receiving one fails the run).
  const auto& c = metrics(qc)["counters"];
  EXPECT_GT(c["qcn_cnms_sent"].get<uint64_t>(), 10u);
  EXPECT_LE(metrics(qc)["control_frames_originated"].get<uint64_t>() - metrics(qc)["control_frames_intercepted"].get<uint64_t>(), 2u);
  EXPECT_EQ(c["qcn_cnms_sent"], metrics(qc)["control_frames_originated"]);
  // CNMs overtake the queued data: at most 3 hops, each at most link (40) + pipeline (20) +
  // one data packet already on the link (20), plus their own 20 phits; queued data waits
  // far longer (measured: CNM max 168, data max 3,985 cycles).
  EXPECT_LE(num(qc, "control_latency_max"), 3 * (40 + 20 + 20) + 20);
  EXPECT_GT(num(qc, "network_latency_max"), 4 * num(qc, "control_latency_max"));
}

TEST(QcnNetwork, UniformStaysMinimal) {
  const ScflyRun r = run_scfly(qcn_tiny(), "-q traffic=un load=0.4 warmup_cycles=20000 measure_cycles=20000");
  expect_ok(r);
  if (r.json.is_null()) return;
  EXPECT_LT(num(r, "nonminimal_fraction"), 0.02);
  EXPECT_NEAR(num(r, "accepted_load"), 0.4, 0.01);
}

TEST(QcnNetwork, CnmUpdatesThePortItArrivedOn) {
  // Input sampling: S_out (switch 3 of group 0) samples its input from switch 0 and sends
  // CNMs to switch 0's hosts; switch 0 intercepts them on its local port toward switch 3 and
  // lowers exactly that port. (Switch 0's own congestion points see only transit traffic,
  // so nothing else lowers that port.)
  const ScflyRun r = run_scfly(qcn_tiny(), "-q traffic=adv+1 load=0.4 warmup_cycles=20000 measure_cycles=40000 "
                                           "qcn.sampling=input timeseries.bin_cycles=5000 timeseries.per_switch=true");
  expect_ok(r);
  if (r.json.is_null()) return;
  const auto& ps = r.json["timeseries"]["per_switch"];
  ASSERT_TRUE(ps.contains("qcn_p4_local"));
  ASSERT_TRUE(ps.contains("qcn_cnms_received"));
  const auto& p_to_sout = ps["qcn_p4_local"];        // [bin][switch]; switch 0's port 4 -> switch 3
  const auto& received = ps["qcn_cnms_received"];
  const size_t last = p_to_sout.size() - 1;
  EXPECT_GT(received[last][0].get<double>(), 0.0);
  double min_p = 100;
  for (const auto& row : p_to_sout) min_p = std::min(min_p, row[0].get<double>());
  EXPECT_LT(min_p, 50.0);
  // Its other local ports (toward switches 1 and 2) were never notified.
  for (const char* other : {"qcn_p2_local", "qcn_p3_local"})
    for (const auto& row : ps[other]) EXPECT_EQ(row[0].get<double>(), 100.0) << other;
}

TEST(QcnNetwork, EveryVariantIsLosslessAndDrainsBeyondSaturation) {
  for (const char* tr : {"adv+1", "un"})
    for (const char* v : kVariants) {
      const ScflyRun r = run_scfly(qcn_tiny(), std::string("-q load=0.9 warmup_cycles=5000 measure_cycles=10000 drain=true traffic=") +
                                                   tr + " " + v);
      expect_ok(r);  // no PFC overflow, conservation exact
      if (r.json.is_null()) continue;
      EXPECT_TRUE(r.json["run"]["drained"].get<bool>()) << tr << " " << v;
      EXPECT_EQ(metrics(r)["packets_in_network"], 0) << tr << " " << v;
      if (metrics(r).contains("control_frames_originated")) {
        EXPECT_EQ(metrics(r)["control_frames_originated"], metrics(r)["control_frames_intercepted"]) << tr << " " << v;
      }
    }
}

TEST(QcnNetwork, PauseTriggeredBaselineMisroutesUnderAdversarial) {
  const ScflyRun r = run_scfly(qcn_tiny(), "-q traffic=adv+1 load=0.3 warmup_cycles=20000 measure_cycles=20000 min_cond.trigger=pause");
  expect_ok(r);
  if (r.json.is_null()) return;
  EXPECT_GT(num(r, "accepted_load"), 0.2);  // beyond MIN's 1/8
  EXPECT_GT(num(r, "nonminimal_fraction"), 0.3);
  EXPECT_FALSE(metrics(r).contains("control_frames_originated"));  // no CNMs in this mode
}

TEST(QcnNetwork, SameSeedSameResult) {
  const std::string a = "-q traffic=adv+1 load=0.4 warmup_cycles=10000 measure_cycles=10000 seed=5";
  const ScflyRun r1 = run_scfly(qcn_tiny(), a), r2 = run_scfly(qcn_tiny(), a);
  expect_ok(r1);
  expect_ok(r2);
  if (r1.json.is_null() || r2.json.is_null()) return;
  nlohmann::json m1 = metrics(r1), m2 = metrics(r2);
  EXPECT_EQ(m1, m2);
  const ScflyRun r3 = run_scfly(qcn_tiny(), "-q traffic=adv+1 load=0.4 warmup_cycles=10000 measure_cycles=10000 seed=6");
  expect_ok(r3);
  if (!r3.json.is_null()) {
    EXPECT_NE(metrics(r3)["latency_avg"], m1["latency_avg"]);
  }
}

TEST(QcnNetwork, AnyHostsPerGlobalPortRunsAndMisroutes) {
  // p != h (4 hosts, 2 global ports per switch): two hosts share each global port.
  const ScflyRun r = run_scfly(qcn_tiny(), "-q topology.p=4 traffic=adv+1 load=0.3 warmup_cycles=30000 measure_cycles=20000");
  expect_ok(r);
  if (r.json.is_null()) return;
  EXPECT_GT(num(r, "accepted_load"), 1.0 / 16 + 0.05);  // MIN's bound is 1/(a p) = 1/16
  EXPECT_GT(num(r, "nonminimal_fraction"), 0.3);
}

std::string qcn_fogsim_tiny() { return std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/qcn-fogsim-tiny.yaml"; }

// Per-switch series of a qcn-fogsim-tiny run under ADV+1 from cold (1,000-cycle bins).
nlohmann::json fogsim_tiny_series(const std::string& keys, int cycles) {
  const ScflyRun r = run_scfly(qcn_fogsim_tiny(), "-q traffic=adv+1 warmup_cycles=0 measure_cycles=" +
                                                      std::to_string(cycles) +
                                                      " timeseries.bin_cycles=1000 timeseries.per_switch=true " + keys);
  expect_ok(r);
  return r.json.is_null() ? nlohmann::json() : r.json["timeseries"]["per_switch"];
}

// qcn.cp_queue: under ADV+1 on qcn-fogsim-tiny (output FIFOs inside the credit loop) the
// mid switches' (0-2 of each group) hosts fill their injection buffers waiting for the
// port toward S_out (switch 3), whose downstream buffer is full. `waiting` counts those
// waiting packets in that port's Q: mid switches lower their port 4 before receiving any
// CNM (local updates) and send CNMs themselves. `output` reads the port's output FIFO only,
// which holds just what has credits: only the S_out switches, whose global port toward G+1
// has a FIFO fed faster than its link, send CNMs, and a mid switch's port 4 falls only once
// a CNM has arrived.
TEST(QcnNetwork, OutputCpQueueFiresOnlyWhereTheOutputFifoFills) {
  int mid_local[2] = {0, 0};
  double mid_sent[2] = {0, 0}, sout_sent[2] = {0, 0};
  const char* const modes[2] = {"waiting", "output"};
  for (int m = 0; m < 2; ++m) {
    const nlohmann::json ps = fogsim_tiny_series(std::string("qcn.cp_queue=") + modes[m], 30000);
    if (ps.is_null()) return;
    const auto &p = ps["qcn_p4_local"], &recv = ps["qcn_cnms_received"], &sent = ps["qcn_cnms_sent"];
    for (size_t sw = 0; sw < 36; ++sw) {
      (sw % 4 == 3 ? sout_sent : mid_sent)[m] += sent[sent.size() - 1][sw].get<double>();
      if (sw % 4 == 3) continue;
      for (size_t i = 0; i < p.size(); ++i)
        if (p[i][sw].get<double>() < 100 && recv[i][sw].get<double>() == 0) {
          ++mid_local[m];
          break;
        }
    }
  }
  EXPECT_GE(mid_local[0], 3) << "waiting: mid switches lowering port 4 with no CNM received";
  EXPECT_GT(mid_sent[0], 3.0);
  EXPECT_EQ(mid_local[1], 0);
  EXPECT_EQ(mid_sent[1], 0.0);
  EXPECT_GT(sout_sent[1], 10.0);
}

// qcn.local_update_port: a P decrease at a switch that received no CNM in that bin is a
// local update. Under ADV+1 every host's minimal port is port 6 (toward G+1) at S_out and
// port 4 (toward S_out) at the mid switches. `minimal` lands every local update there;
// `sampled` also lowers the port whose point fired when the culprit was misrouted through it.
TEST(QcnNetwork, MinimalLocalUpdatesLandOnTheCulpritsMinimalPort) {
  int at_min[2] = {0, 0}, elsewhere[2] = {0, 0};
  const char* const modes[2] = {"sampled", "minimal"};
  for (int m = 0; m < 2; ++m) {
    const nlohmann::json ps =
        fogsim_tiny_series(std::string("qcn.cp_queue=output qcn.local_update_port=") + modes[m], 80000);
    if (ps.is_null()) return;
    const auto& recv = ps["qcn_cnms_received"];
    const std::pair<const char*, int> ports[] = {
        {"qcn_p2_local", 2}, {"qcn_p3_local", 3}, {"qcn_p4_local", 4}, {"qcn_p5_global", 5}, {"qcn_p6_global", 6}};
    for (const auto& [key, port] : ports) {
      const auto& p = ps[key];
      for (size_t sw = 0; sw < 36; ++sw)
        for (size_t i = 1; i < p.size(); ++i)
          if (p[i][sw].get<double>() < p[i - 1][sw].get<double>() &&
              recv[i][sw].get<double>() == recv[i - 1][sw].get<double>())
            ++(port == (sw % 4 == 3 ? 6 : 4) ? at_min : elsewhere)[m];
    }
  }
  EXPECT_GT(at_min[0], 10);
  EXPECT_GE(elsewhere[0], 3) << "sampled: local updates of a port that is not the culprit's minimal one";
  EXPECT_GT(at_min[1], 10);
  EXPECT_EQ(elsewhere[1], 0);
}

TEST(QcnNetwork, BadQcnKeysAreClearErrors) {
  struct Case {
    const char* args;
    const char* key;
  } cases[] = {
      {"qcn.source_processing=true", "qcn.source_processing"},  // output sampling
      {"qcn.lf=0.02", "qcn.lf"},
      {"qcn.lf=1/0", "qcn.lf"},
      {"qcn.sampling=middle", "qcn.sampling"},
      {"qcn.cnm_percent=101", "qcn.cnm_percent"},
      {"qcn.qeq=0", "qcn.qeq"},
      {"qcn.cnm_phits=3000", "qcn.cnm_phits"},  // larger than the 2,000-phit buffers
      {"min_cond.trigger=credits", "min_cond.trigger"},
      {"qcn.th2=64", "qcn.th2"},
      {"qcn.sampling_clock=sometimes", "qcn.sampling_clock"},
      {"qcn.cp_queue=fifo", "qcn.cp_queue"},
      {"qcn.sampling=input qcn.cp_queue=output", "qcn.cp_queue"},
      {"qcn.local_update_port=nearest", "qcn.local_update_port"},
  };
  for (const Case& c : cases) {
    const ScflyRun r = run_scfly(qcn_tiny(), std::string("-q ") + c.args, false);
    EXPECT_EQ(r.code, 2) << c.args;
    EXPECT_NE(r.err.find(c.key), std::string::npos) << c.args << ": " << r.err;
  }
}

TEST(QcnNetwork, TableCommandShowsLiveProbabilities) {
  const std::string file = tmp("qcn_table.txt");
  const std::string cmd = std::string(SCFLY_BIN) + " table " + qcn_tiny() +
                          " traffic=adv+1 --switch 0 --at 40000 > " + file + " 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << slurp(file);
  const std::string out = slurp(file);
  EXPECT_NE(out.find("at cycle 40000"), std::string::npos) << out;
  EXPECT_NE(out.find("misroute (segment 1)"), std::string::npos) << out;
  // The entries through the port toward S_out show a lowered probability.
  EXPECT_NE(out.find("N <= P[out] = 100"), std::string::npos) << out;
  const size_t at = out.find("pin exit sw3:");  // the group-1 entry, through switch 3's link
  ASSERT_NE(at, std::string::npos) << out;
  const size_t eol = out.find('\n', at);
  const size_t eq = out.find("N <= P[out] = ", at);
  ASSERT_LT(eq, eol) << out;
  EXPECT_LT(std::stoi(out.substr(eq + 14)), 100) << out;
}

}  // namespace
