// Safety checks proven to fire (issue 16 sec. 5): each fault a check guards against is
// injected on one channel with `scfly run --fault` (rtl_models/switch/fault_link.h), and the
// run must stop with exit 3 and a message naming the switch, the port and the VC. Every
// faulted run has a twin without the fault that exits 0, so a check that fired for another
// reason would show.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "tests/mechanisms.h"
#include "scfly_run.h"

namespace {

std::string qcn_tiny() { return std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/qcn-tiny.yaml"; }

void expect_fires(const std::string& config, const std::string& args, const std::string& fault,
                  const std::vector<std::string>& must_say) {
  SCOPED_TRACE(fault);
  const Cmd clean = scfly_cmd("run " + config + " " + args + " -q");
  EXPECT_EQ(clean.code, 0) << clean.err;
  const Cmd bad = scfly_cmd("run " + config + " " + args + " -q --fault " + fault);
  EXPECT_EQ(bad.code, 3) << bad.out << bad.err;
  for (const std::string& s : must_say) EXPECT_NE(bad.err.find(s), std::string::npos) << s << "\n" << bad.err;
  EXPECT_EQ(bad.err.find("Segmentation"), std::string::npos);
}

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
  EXPECT_NE(vc.err.find("VC 7 of switch 0 port 5: the port has 1 VCs"), std::string::npos) << vc.err;
  const Cmd kind = scfly_cmd("run " + tiny_config() + " -q --fault melt:0:5:0:10");
  EXPECT_EQ(kind.code, 2);
  EXPECT_NE(kind.err.find("KIND one of extra-credit"), std::string::npos) << kind.err;
}
