// Safety checks proven to fire (issue 16 sec. 5): each fault a check guards against is
// injected on one channel with `scfly run --fault` (rtl_models/switch/fault_link.h), and the
// run must stop with exit 3 and a message naming the switch, the port and the VC. Every
// faulted run has a twin without the fault that exits 0, so a check that fired for another
// reason would show, and reports in its JSON that the fault injected events (a fault that
// never fired tests nothing). Issue 50: a fault that cannot apply is refused before the
// network is built (exit 2); one that never fires fails the run (exit 3) and says so.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "tests/mechanisms.h"
#include "scfly_run.h"

namespace {

std::string qcn_tiny() { return std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/qcn-tiny.yaml"; }

// Each fault on the SystemC kernel and on the block scheduler with one thread and with two
// (the faulty channel then joins two switches of different threads when they are in
// different shards): the same exit and messages on each.
void expect_fires(const std::string& config, const std::string& args, const std::string& fault,
                  const std::vector<std::string>& must_say) {
  SCOPED_TRACE(fault);
  const Cmd clean = scfly_cmd("run " + config + " " + args + " -q");
  EXPECT_EQ(clean.code, 0) << clean.err;
  for (const char* driver : {"sim.scheduler=kernel", "sim.threads=1", "sim.threads=2"}) {
    SCOPED_TRACE(driver);
    const ScflyRun bad = run_scfly(config, args + " " + driver + " -q --fault " + fault);
    EXPECT_EQ(bad.code, 3) << bad.out << bad.err;
    for (const std::string& s : must_say) EXPECT_NE(bad.err.find(s), std::string::npos) << s << "\n" << bad.err;
    EXPECT_EQ(bad.err.find("Segmentation"), std::string::npos);
    // The fault fired: the JSON names it and counts its events.
    ASSERT_TRUE(bad.json.contains("fault")) << bad.err;
    EXPECT_EQ(bad.json["fault"]["kind"], fault.substr(0, fault.find(':')));
    EXPECT_GT(bad.json["fault"]["injected"].get<uint64_t>(), 0u) << bad.json["fault"];
    EXPECT_EQ(bad.json["run"]["status"], "error");
    EXPECT_EQ(bad.err.find("never fired"), std::string::npos) << bad.err;
    const std::string sched = bad.json["run"]["scheduler"].get<std::string>();
    EXPECT_EQ(sched.rfind(std::string(driver) == "sim.scheduler=kernel" ? "kernel" : "blocks", 0), 0u) << sched;
  }
}

// A fault refused before the network is built: exit 2, the message, no summary, no JSON.
void expect_refused(const std::string& config, const std::string& args, const std::vector<std::string>& must_say) {
  SCOPED_TRACE(args);
  const ScflyRun r = run_scfly(config, args);
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_EQ(r.err.rfind("scfly: error: --fault '", 0), 0u) << r.err;
  for (const std::string& s : must_say) EXPECT_NE(r.err.find(s), std::string::npos) << s << "\n" << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_TRUE(r.json.is_null());
}

std::string torus_ring() { return std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/torus-ring-8.yaml"; }

}  // namespace

// A duplicated credit: once the channel is idle the sender holds more credits than the
// receiver's buffer has slots. (This one message names the switch and port, not the VC:
// adding it to the credit loop cost 0.25-0.45 % of all instructions, measured by callgrind.)
TEST(Safety, DuplicatedCreditFiresTheCreditRangeCheck) {
  expect_fires(tiny_config(), "load=0.05 warmup_cycles=500 measure_cycles=3000", "extra-credit:0:5:0:100",
               {"net.sw0: credits of output port 5 exceed the downstream buffer size 128"});
}

// Every credit doubled on a channel into the congested exit switch of group 0 (MIN under
// ADV+1): the sender overruns the input buffer.
TEST(Safety, DoubledCreditsOverflowTheInputBuffer) {
  expect_fires(tiny_config(), "routing=min traffic=adv+1 load=0.9 warmup_cycles=500 measure_cycles=2000",
               "double-credits:0:4:0:1000", {"net.sw3: credit violation, input buffer port 2 VC 0 overflows (64 phits)"});
}

// A phit on a VC the receiving port does not have.
TEST(Safety, WrongVcFiresTheVcRangeCheck) {
  expect_fires(tiny_config(), "load=0.3 warmup_cycles=500 measure_cycles=3000", "wrong-vc:0:5:0:100",
               {": phit on port ", " names VC 1 but the port has 1"});
}

// Every credit lost: the output VC wedges, the network backs up behind it and the watchdog
// stops the run with a dump naming the wedged output (no credits) and the inputs behind it.
TEST(Safety, LostCreditsWedgeAnOutputAndTheWatchdogDumpsIt) {
  expect_fires(tiny_config(), "load=0.3 warmup_cycles=500 measure_cycles=3000 watchdog_cycles=2000 drain=true",
               "lose-credits:0:5:0:1000",
               {"watchdog: no phit moved for 2000 cycles", "net.sw0 out[5].vc0: 32/32 phits; credits 0/128",
                "routed to out[5].vc0"});
}

// The same fault with the watchdog out of the way: the drain times out, and the credit
// balance names the channel.
TEST(Safety, LostCreditsLeaveTheDrainIncomplete) {
  expect_fires(tiny_config(),
               "load=0.3 warmup_cycles=500 measure_cycles=3000 watchdog_cycles=1000000 drain=true "
               "drain_timeout_cycles=5000",
               "lose-credits:0:5:0:1000",
               {"drain incomplete after 5000 cycles", "credit balance broken on the channel net.sw0 port 5"});
}

// A few credits lost near the end of a run (no drain, the watchdog far away): nothing
// wedges before the run ends, yet the end-of-run credit balance of the channel names it.
TEST(Safety, LostCreditsBreakTheEndOfRunCreditBalance) {
  expect_fires(tiny_config(), "load=0.05 warmup_cycles=500 measure_cycles=3000", "lose-credits:0:5:0:3300",
               {"credit balance broken on the channel net.sw0 port 5 -> net.sw35 port 6, VC 0",
                "(credits lost)"});
}

// PFC: PAUSE frames lost on a channel into the congested switch: its headroom overflows.
TEST(Safety, LostPauseFramesExceedThePfcHeadroom) {
  expect_fires(qcn_tiny(), "routing=min traffic=adv+1 load=0.9 warmup_cycles=2000 measure_cycles=10000",
               "drop-pause:0:4:0:1000",
               {"net.sw3: PFC headroom exceeded (frame loss), input buffer port 2 VC 0 overflows (2000 phits)"});
}

// A duplicated phit (its credit dropped, so the flow control stays balanced and no buffer
// check sees it): the packet reaches its NIC with one phit twice, and the sink's phit-order
// check stops the run naming the ejection link (switch, port, VC) and the packet.
TEST(Safety, DuplicatedPhitFiresThePhitOrderCheck) {
  expect_fires(tiny_config(), "load=0.3 warmup_cycles=500 measure_cycles=3000", "dup-phit:0:5:0:100",
               {"phit-order violation on the ejection link from switch ", " VC 0: phit ", " arrived where phit ",
                "(a phit lost, repeated or interleaved)"});
}

// dup-phit on a torus with packets of more than one phit. With 4 a body phit is repeated and
// the sink's phit-order check names it; with 2 the repeated phit is a second tail: the next
// switch's crossbar moves the packet up to its first tail and leaves the repeat alone at
// the front of the input VC, where the route stage finds a body phit in a head's place and
// stops the run (no drain or watchdog needed; the same with assertions compiled in).
TEST(Safety, DuplicatedPhitOnATorus) {
  const std::string torus = std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/torus-ring-8.yaml";
  expect_fires(torus, "packet_phits=4 warmup_cycles=500 measure_cycles=3000", "dup-phit:0:1:0:100",
               {"phit-order violation on the ejection link from switch ", "(a phit lost, repeated or interleaved)"});
  expect_fires(torus, "packet_phits=2 warmup_cycles=500 measure_cycles=3000", "dup-phit:0:1:0:100",
               {"net.sw1: phit-order violation at input port 2 VC 0: phit 1 (tail) of packet #",
                " is at the front of the buffer where a head was expected (a phit lost, repeated or interleaved)"});
}

// sim.check_vc_order: every Dragonfly mechanism (control frames included: QCN's CNMs) runs
// clean with it past saturation, with the same metrics as without it.
TEST(Safety, VcOrderCheckPassesEveryDragonflyMechanism) {
  std::vector<std::pair<std::string, std::string>> cases;
  // Every registered Dragonfly mechanism; MIN-COND on its Ethernet network below, T-UGAL's
  // sets on the T-UGAL shapes (test_tvlb_balance.cpp).
  for (const std::string& r : scfly_test::registered_routings(true, false, {"min-cond", "t-ugal-l", "t-ugal-g", "t-par"}))
    cases.push_back({tiny_config(), "routing=" + r + " traffic=adv+1 load=0.6"});
  cases.push_back({tiny_config(), "routing=val val.policy=crg-gr traffic=un load=0.9"});
  cases.push_back({tiny_config(), "routing=ugal-l switch.vcs.local=6 switch.vcs.global=3 traffic=un load=0.9"});
  cases.push_back({qcn_tiny(), "routing=min-cond traffic=adv+1 load=0.6"});
  for (const auto& [config, args] : cases) {
    SCOPED_TRACE(args);
    const ScflyRun plain = run_scfly(config, args + " warmup_cycles=500 measure_cycles=3000");
    const ScflyRun checked = run_scfly(config, args + " warmup_cycles=500 measure_cycles=3000 sim.check_vc_order=true");
    expect_ok(plain);
    expect_ok(checked);
    EXPECT_EQ(plain.json["metrics"], checked.json["metrics"]);
    EXPECT_EQ(checked.json["config"]["sim"]["check_vc_order"], true);
  }
  const Cmd torus = scfly_cmd("run " + std::string(SCFLY_SOURCE_DIR) +
                              "/sc_main/configs/torus-ring-8.yaml -q sim.check_vc_order=true");
  EXPECT_EQ(torus.code, 2);
  EXPECT_NE(torus.err.find("'sim.check_vc_order'"), std::string::npos) << torus.err;
}

// A route header that loses its "global hop taken" bit in flight: the next switch gives the
// packet's last local hop the local VC its first hop used, and the check stops the run.
TEST(Safety, CorruptedHeaderFiresTheVcOrderCheck) {
  expect_fires(tiny_config(), "routing=min load=0.3 warmup_cycles=500 measure_cycles=3000 sim.check_vc_order=true",
               "clear-global-done:0:5:0:100",
               {": VC order violated: packet #", "(local) on VC 0 after VC 0 on an earlier local hop"});
}

TEST(Safety, BadFaultsAreConfigErrors) {
  const Cmd host = scfly_cmd("run " + tiny_config() + " -q --fault lose-credits:0:1:0:10");
  EXPECT_EQ(host.code, 2);
  EXPECT_NE(host.err.find("port 1 is not a switch-to-switch link"), std::string::npos) << host.err;
  const Cmd vc = scfly_cmd("run " + tiny_config() + " -q --fault lose-credits:0:5:7:10");
  EXPECT_EQ(vc.code, 2);
  EXPECT_NE(vc.err.find("--fault 'lose-credits:0:5:7:10': VC 7 of switch 0 port 5: the port has 1 VC (allowed: 0)"),
            std::string::npos)
      << vc.err;
  const Cmd kind = scfly_cmd("run " + tiny_config() + " -q --fault melt:0:5:0:10");
  EXPECT_EQ(kind.code, 2);
  EXPECT_NE(kind.err.find("KIND one of extra-credit"), std::string::npos) << kind.err;
}

// A SWITCH, PORT or VC beyond int used to wrap (4294967296 was switch 0): refused.
TEST(Safety, FaultFieldsDoNotWrap) {
  const Cmd c = scfly_cmd("run " + tiny_config() + " -q --fault lose-credits:4294967296:5:0:10");
  EXPECT_EQ(c.code, 2);
  EXPECT_NE(c.err.find("SWITCH, PORT, VC and CYCLE are non-negative integers"), std::string::npos) << c.err;
}

// Faults that cannot apply to the network, or cannot fire within the run, are refused
// before anything is built, naming --fault, the value and what is allowed.
TEST(Safety, FaultsThatCannotFireAreRefused) {
  // Credit faults on a PFC network: its switch-to-switch links carry no credits.
  for (const char* k : {"extra-credit", "double-credits", "lose-credits"})
    expect_refused(qcn_tiny(), std::string("-q --fault ") + k + ":0:4:0:100",
                   {std::string(k) + " acts on credits", "(switch.flow_control: pfc",
                    "on it the allowed kinds are drop-pause, wrong-vc, dup-phit and clear-global-done"});
  // PAUSE frames on a credit network.
  expect_refused(tiny_config(), "-q --fault drop-pause:0:5:0:100",
                 {"--fault 'drop-pause:0:5:0:100': drop-pause drops PFC PAUSE frames", "(switch.flow_control: credit)",
                  "it needs switch.flow_control: pfc"});
  // The Dragonfly header bit on a torus, where no routing sets or reads it.
  expect_refused(torus_ring(), "-q --fault clear-global-done:0:1:0:100",
                 {"clear-global-done clears the Dragonfly route header's \"global hop taken\" bit, which no "
                  "8-ary 1-cube routing sets or reads",
                  "it is allowed on a Dragonfly"});
  // A body phit where every packet is one phit (torus-ring-8), or every control frame is.
  expect_refused(torus_ring(), "-q --fault dup-phit:0:1:0:100",
                 {"every packet here is 1 phit long (packet_phits 1)", "allowed with packet_phits >= 2"});
  expect_refused(qcn_tiny(), "-q qcn.cnm_phits=1 --fault dup-phit:0:4:4:100",
                 {"VC 4 is a control VC whose frames are all 1 phit long", "pick a data VC (0-2)"});
  // A fault cycle at or after the run's end: the window, plus the drain's timeout with drain.
  expect_refused(tiny_config(), "-q warmup_cycles=500 measure_cycles=3000 --fault lose-credits:0:5:0:3500",
                 {"cycle 3500 is not within the run, which simulates cycles 0-3499 (warmup_cycles 500 + "
                  "measure_cycles 3000)",
                  "allowed: a cycle in [0, 3499]"});
  expect_refused(tiny_config(),
                 "-q warmup_cycles=500 measure_cycles=3000 drain=true drain_timeout_cycles=1000 "
                 "--fault lose-credits:0:5:0:4500",
                 {"cycles 0-4499 (warmup_cycles 500 + measure_cycles 3000 + drain_timeout_cycles 1000 at most"});
  // A mesh edge port is connected to nothing.
  expect_refused(torus_ring(), "-q topology.kind=mesh --fault lose-credits:0:2:0:100",
                 {"switch 0 port 2 is not a switch-to-switch link of 8-ary 1-mesh: it is a mesh edge"});
  // The window's last cycle is not refused (whether anything crosses then is the run's to say).
  const ScflyRun last =
      run_scfly(tiny_config(), "-q warmup_cycles=500 measure_cycles=3000 --fault lose-credits:0:5:0:3499");
  EXPECT_NE(last.code, 2) << last.err;
  EXPECT_EQ(last.err.find("is not within the run"), std::string::npos) << last.err;
}

// A fault that injected nothing tested nothing: the run fails (exit 3), the summary's fault
// line says it never fired, the error says what had to cross the channel, and the JSON
// counts 0 events. Two that cannot fire on dfly-tiny under MIN: a local VC the routing never
// uses (VC 2 of 3), and clear-global-done on local VC 0 (MIN gives a head that has taken its
// global hop local VC 1). The runs are otherwise clean (their twins exit 0).
TEST(Safety, FaultThatNeverFiredFailsTheRun) {
  const std::string args = "routing=min load=0.3 warmup_cycles=500 measure_cycles=3000 switch.vcs.local=3";
  expect_ok(run_scfly(tiny_config(), args));
  const ScflyRun r = run_scfly(tiny_config(), args + " --fault lose-credits:0:2:2:100");
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.out.find("  fault             lose-credits at switch 0 port 2 VC 2 from cycle 100: injected 0 events "
                       "(it never fired)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("ERROR: --fault 'lose-credits:0:2:2:100' never fired (0 events injected): on the channel from "
                       "switch 0 port 2 (to switch 1 port 2), from cycle 100 to the end of the run (cycle 3500), no "
                       "credit of VC 2 came back"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("A fault run that injected nothing tested nothing"), std::string::npos) << r.out;
  ASSERT_FALSE(r.json.is_null());
  EXPECT_EQ(r.json["fault"]["injected"], 0);
  EXPECT_EQ(r.json["run"]["status"], "error");
  EXPECT_NE(r.json["run"]["error"].get<std::string>().find("never fired"), std::string::npos);

  const ScflyRun g = run_scfly(tiny_config(), args + " -q sim.check_vc_order=true --fault clear-global-done:0:2:0:100");
  EXPECT_EQ(g.code, 3) << g.err;
  EXPECT_NE(g.err.find("scfly: error: --fault 'clear-global-done:0:2:0:100' never fired (0 events injected)"),
            std::string::npos)
      << g.err;
  EXPECT_NE(g.err.find("no head of VC 0 crossed with its \"global hop taken\" bit set"), std::string::npos) << g.err;
  EXPECT_EQ(g.json["fault"]["injected"], 0);
}

// A fault that fired with no check stopping the run is the run's finding: exit 0, the count
// in the summary and the JSON, and a warning (here: clear-global-done without
// sim.check_vc_order, the one check that sees it). A run without --fault has no "fault" key.
TEST(Safety, FaultThatFiredUndetectedIsReported) {
  const std::string args = "routing=min load=0.3 warmup_cycles=500 measure_cycles=3000";
  const ScflyRun clean = run_scfly(tiny_config(), args);
  expect_ok(clean);
  EXPECT_FALSE(clean.json.contains("fault"));
  EXPECT_EQ(clean.out.find("  fault "), std::string::npos);
  const ScflyRun r = run_scfly(tiny_config(), args + " --fault clear-global-done:0:5:0:100");
  expect_ok(r);
  const uint64_t n = r.json["fault"]["injected"].get<uint64_t>();
  EXPECT_GT(n, 0u);
  EXPECT_NE(r.out.find("  fault             clear-global-done at switch 0 port 5 VC 0 from cycle 100: injected " +
                       std::to_string(n) + " events\n"),
            std::string::npos)
      << r.out;
  const std::string warning = "scfly: warning: --fault 'clear-global-done:0:5:0:100' injected " + std::to_string(n) +
                              " events and no check stopped the run (only sim.check_vc_order=true sees";
  EXPECT_NE(r.err.find(warning), std::string::npos) << r.err;
  EXPECT_EQ(r.json["run"]["warnings"].back().get<std::string>().rfind("--fault 'clear-global-done:0:5:0:100'", 0), 0u);
}
