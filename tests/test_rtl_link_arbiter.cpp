// RTL == C++ for the output unit's link arbiter: link_arbiter.sv (Verilated with 16 VCs)
// against LinkArbiter (rtl_models/switch/parts/link_arbiter.h) in lockstep, 10^5 cycles over
// random port configurations (1-16 VCs, 0-3 of them control VCs), ready sets of every
// density and free or busy links: every cycle the same pick (or none), and after every clock
// edge the same round-robin pointer.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "Vlink_arbiter_v16.h"
#include "rtl_models/switch/parts/link_arbiter.h"
#include "verilated.h"

namespace {

void clock(Vlink_arbiter_v16& dut) {
  dut.clk_i = 1;
  dut.eval();
  dut.clk_i = 0;
  dut.eval();
}

void reset(Vlink_arbiter_v16& dut) {
  dut.rst_ni = 0;
  dut.eval();
  dut.rst_ni = 1;
  dut.eval();
}

}  // namespace

TEST(RtlLinkArbiter, MatchesTheCppPartInLockstep) {
  Vlink_arbiter_v16 dut(Verilated::threadContextp());  // the thread's context (see test_rtl_min_route.cpp)
  std::mt19937_64 rng(11);
  long picks = 0, data_picks = 0, ctl_picks = 0, idle = 0;
  int configs = 0;
  for (int it = 0; it < 100000;) {
    // A port configuration, held for a run of cycles (the arbiter starts from reset).
    const int nd = 1 + static_cast<int>(rng() % 13);
    const int nv = nd + static_cast<int>(rng() % 4);
    scfly::LinkArbiter cpp(1);
    dut.nv_i = static_cast<uint8_t>(nv);
    dut.nd_i = static_cast<uint8_t>(nd);
    dut.arb_i = 0;
    dut.ready_i = 0;
    reset(dut);
    ++configs;
    const int run = 100 + static_cast<int>(rng() % 2000);
    for (int t = 0; t < run && it < 100000; ++t, ++it) {
      const unsigned density = static_cast<unsigned>(rng() % 5);  // 0: all ready ... 4: rarely
      uint32_t ready = 0;
      for (int c = 0; c < nv; ++c)
        if (density == 0 || rng() % (1 + density * density) == 0) ready |= 1u << c;
      const bool arb = rng() % 4 != 0;  // the link is free three cycles in four
      dut.ready_i = static_cast<uint16_t>(ready);
      dut.arb_i = arb;
      dut.eval();
      // What the C++ part would pick now (a copy when the switch does not arbitrate).
      scfly::LinkArbiter probe = cpp;
      scfly::LinkArbiter& use = arb ? cpp : probe;
      const auto is_ready = [&](int c) { return (ready >> c & 1u) != 0; };
      const int want = nv > nd ? use.pick<true>(0, nv, nd, is_ready) : use.pick<false>(0, nv, nd, is_ready);
      SCOPED_TRACE("cycle " + std::to_string(it) + ": nv " + std::to_string(nv) + " nd " + std::to_string(nd) +
                   " ready " + std::to_string(ready) + (arb ? " arb" : ""));
      ASSERT_EQ(dut.valid_o != 0, want >= 0);
      if (want >= 0) {
        ASSERT_EQ(static_cast<int>(dut.vc_o), want);
      }
      clock(dut);
      ASSERT_EQ(static_cast<int>(dut.rr_o), static_cast<int>(cpp.pointers()[0]));
      if (want < 0) {
        ++idle;
      } else if (arb) {
        ++picks;
        ++(want < nd ? data_picks : ctl_picks);
      }
    }
  }
  std::printf("[          ] %d configurations: %ld picks taken (%ld data, %ld control), %ld cycles with none ready\n",
              configs, picks, data_picks, ctl_picks, idle);
  EXPECT_GT(data_picks, 10000);
  EXPECT_GT(ctl_picks, 1000);
  EXPECT_GT(idle, 1000);
}

// The contract's assertions are compiled in (--assert) and stop the model: more data VCs than
// VCs.
TEST(RtlLinkArbiterDeathTest, AssertionsStopTheModel) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        std::fflush(stdout);
        dup2(STDERR_FILENO, STDOUT_FILENO);  // Verilator prints the message on stdout
        VerilatedContext ctx;
        Vlink_arbiter_v16 dut(&ctx);
        dut.nv_i = 2;
        dut.nd_i = 3;
        dut.rst_ni = 0;
        dut.eval();
        dut.rst_ni = 1;
        dut.eval();
      },
      "needs 1 <= nd <= nv <= V");
}
