// RTL == C++ for the minimal route unit: min_route.sv (one Verilated model, the shape in its
// shape registers) against the C++ unit (dragonfly_minimal_hop_word, the tie-break word
// given) exhaustively on palmtree dfly(2,4,2,9), dfly(4,8,4,33), dfly(3,6,3,19) and
// dfly(1,2,1,3), absolute dfly(2,4,2,g) g = 2, 3, 5, 9, dfly(4,8,4,g) g = 3 (16 links
// between two groups, the widths' limit), 9, 17, 33 and dfly(3,6,3,10): every current switch, every other target switch, both
// segments, global hop done or not, VC shift or not, exit link free or pinned to each of the
// links joining the two groups, and tie-break words at both ends, at every nth boundary for
// 2..4 candidates and random; port, VC and header updates must agree. Then the block behind
// the MinHopBlock interface inside dragonfly_minimal_hop, against the C++ unit fed an
// identically seeded Rng, along whole paths: same hops, and both Rngs still in step.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "Vmin_route.h"
#include "routing_units/minimal.h"
#include "rtl_models/verilog/rtl_blocks.h"
#include "verilated.h"

namespace scfly {
namespace {

// Tie-break words: both ends, both sides of every nth boundary for 2, 3 and 4 equally short
// links (nth = word * count >> 32), and random words.
std::vector<uint32_t> tie_words() {
  std::vector<uint32_t> w = {0u,          0xFFFFFFFFu, 0x7FFFFFFFu, 0x80000000u, 0x55555555u, 0x55555556u,
                             0xAAAAAAAAu, 0xAAAAAAABu, 0x3FFFFFFFu, 0x40000000u, 0xBFFFFFFFu, 0xC0000000u};
  Rng r(42, StreamKind::Traffic, 7);
  for (int i = 0; i < 4; ++i) w.push_back(r.next32());
  return w;
}

std::string shape_name(const DragonflyShape& s) {
  return std::string(to_string(s.arrangement)) + " dfly(" + std::to_string(s.p) + "," + std::to_string(s.a) + "," +
         std::to_string(s.h) + "," + std::to_string(s.g) + ")";
}

// The shape registers, loaded on one clock edge as a network does at reset.
void configure(Vmin_route& dut, const DragonflyShape& s) {
  dut.cfg_p_i = static_cast<uint32_t>(s.p);
  dut.cfg_a_i = static_cast<uint32_t>(s.a);
  dut.cfg_h_i = static_cast<uint32_t>(s.h);
  dut.cfg_g_i = static_cast<uint32_t>(s.g);
  dut.cfg_absolute_i = s.arrangement == Arrangement::Absolute;
  dut.cfg_we_i = 1;
  dut.clk_i = 0;
  dut.eval();
  dut.clk_i = 1;
  dut.eval();
  dut.cfg_we_i = 0;
}

void exhaustive(const DragonflyShape& shape) {
  ASSERT_TRUE(rtl_min_route_supports(shape));
  const Dragonfly t(shape);
  // The thread's context, which the other tests' models use too: a local context left as
  // the thread's after its destruction would break the next model made in this process.
  Vmin_route dut(Verilated::threadContextp());
  configure(dut, shape);
  const int n = t.links_per_group_pair();
  const std::vector<uint32_t> all_words = tie_words();
  // Where the word is a don't-care (same group, exit pinned, one link): still vary it.
  const std::vector<uint32_t> some_words = {0u, 0xFFFFFFFFu, all_words.back()};
  long checked = 0, tie_broken = 0;
  for (int sw = 0; sw < t.num_switches(); ++sw)
    for (int target = 0; target < t.num_switches(); ++target) {
      if (target == sw) continue;
      const bool other_group = t.group_of(sw) != t.group_of(target);
      const GlobalLinkEnd* links = other_group ? t.links_between(t.group_of(sw), t.group_of(target)) : nullptr;
      for (int seg = 0; seg < 2; ++seg)
        for (int gd = 0; gd < 2; ++gd)
          for (int shift = 0; shift < 2; ++shift)
            for (int pinned = -1; pinned < (other_group ? n : 0); ++pinned) {  // -1: free
              RouteHeader h0;
              h0.segment = static_cast<uint8_t>(seg);
              h0.global_done = static_cast<uint8_t>(gd);
              h0.vc_shift = static_cast<uint8_t>(shift);
              if (pinned >= 0) {
                h0.exit_switch = links[pinned].sw;
                h0.exit_port = links[pinned].port;
              }
              const bool draws = minimal_hop_draws(t, sw, target, h0);
              ASSERT_EQ(draws, pinned < 0 && other_group && n > 1);
              int first_pick = -1;
              for (const uint32_t word : draws ? all_words : some_words) {
                RouteHeader h = h0;
                dut.cur_group_i = static_cast<uint32_t>(t.group_of(sw));
                dut.cur_index_i = static_cast<uint32_t>(t.index_of(sw));
                dut.tgt_group_i = static_cast<uint32_t>(t.group_of(target));
                dut.tgt_index_i = static_cast<uint32_t>(t.index_of(target));
                dut.segment_i = static_cast<uint8_t>(seg);
                dut.global_done_i = static_cast<uint8_t>(gd);
                dut.vc_shift_i = static_cast<uint8_t>(shift);
                dut.exit_valid_i = pinned >= 0;
                dut.exit_index_i = pinned >= 0 ? static_cast<uint32_t>(t.index_of(h.exit_switch)) : 0;
                dut.exit_port_i = pinned >= 0 ? static_cast<uint32_t>(h.exit_port) : 0;
                dut.rand_i = word;
                dut.eval();
                const RouteDecision d = dragonfly_minimal_hop_word(t, sw, target, h, word);
                SCOPED_TRACE(shape_name(shape) + ": sw " + std::to_string(sw) + " target " + std::to_string(target) +
                             " seg " + std::to_string(seg) + " gd " + std::to_string(gd) + " shift " +
                             std::to_string(shift) + " pinned " + std::to_string(pinned) + " word " +
                             std::to_string(word));
                ASSERT_EQ(dut.port_o, static_cast<uint32_t>(d.port));
                ASSERT_EQ(dut.vc_o, d.vc);
                ASSERT_EQ(dut.global_done_o, h.global_done);
                ASSERT_EQ(dut.exit_valid_o != 0, h.exit_switch >= 0);
                if (h.exit_switch >= 0) {
                  ASSERT_EQ(dut.exit_index_o, static_cast<uint32_t>(t.index_of(h.exit_switch)));
                  ASSERT_EQ(dut.exit_port_o, static_cast<uint32_t>(h.exit_port));
                }
                // Which link the hop leaves by (the pinned exit, or the global port taken now).
                const int pick = h.exit_switch >= 0 ? h.exit_switch * 256 + h.exit_port : d.port;
                if (draws && first_pick >= 0 && pick != first_pick) ++tie_broken;
                if (first_pick < 0) first_pick = pick;
                ++checked;
              }
            }
    }
  std::printf("[          ] %s: %ld cases, %ld where the tie-break word changed the exit\n",
              shape_name(shape).c_str(), checked, tie_broken);
  ::testing::Test::RecordProperty("cases", static_cast<int>(checked));
  EXPECT_GT(checked, 0);
  // With several links per group pair, the random choice was exercised (not always link 0).
  if (n > 1) {
    EXPECT_GT(tie_broken, 0);
  }
}

}  // namespace

constexpr Arrangement kPalm = Arrangement::Palmtree, kAbs = Arrangement::Absolute;

TEST(RtlMinRoute, ExhaustiveOnPalmtreeShapes) {
  for (const DragonflyShape& s : {DragonflyShape{2, 4, 2, 9, kPalm}, DragonflyShape{4, 8, 4, 33, kPalm},
                                  DragonflyShape{3, 6, 3, 19, kPalm}, DragonflyShape{1, 2, 1, 3, kPalm}})
    exhaustive(s);
}
TEST(RtlMinRoute, ExhaustiveOnAbsoluteShapes) {
  for (const DragonflyShape& s : {DragonflyShape{2, 4, 2, 2, kAbs}, DragonflyShape{2, 4, 2, 3, kAbs},
                                  DragonflyShape{2, 4, 2, 5, kAbs}, DragonflyShape{2, 4, 2, 9, kAbs},
                                  DragonflyShape{3, 6, 3, 10, kAbs}})
    exhaustive(s);
}
TEST(RtlMinRoute, ExhaustiveOnAbsoluteDfly484) {
  for (const DragonflyShape& s : {DragonflyShape{4, 8, 4, 3, kAbs}, DragonflyShape{4, 8, 4, 9, kAbs},
                                  DragonflyShape{4, 8, 4, 17, kAbs}, DragonflyShape{4, 8, 4, 33, kAbs}})
    exhaustive(s);
}

// The shapes the widths hold (widths.def Mr*), and a clear refusal beyond them.
TEST(RtlMinRoute, ShapesWithinTheWidthsAreHeld) {
  EXPECT_TRUE(rtl_min_route_supports({16, 32, 16, 513, kPalm}));  // the largest preset
  EXPECT_TRUE(rtl_min_route_supports({4, 8, 4, 3, kAbs}));        // 16 links between two groups
  EXPECT_FALSE(rtl_min_route_supports({4, 8, 4, 2, kAbs}));       // 32
  EXPECT_FALSE(rtl_min_route_supports({1, 64, 1, 65, kPalm}));    // a = 64 > 63
  EXPECT_FALSE(rtl_min_route_supports({64, 32, 32, 1025, kPalm}));  // g = 1025, 127 ports
  EXPECT_FALSE(rtl_min_route_supports({2, 4, 2, 4, kAbs}));       // (g-1) = 3 does not divide a*h = 8
  EXPECT_TRUE(rtl_min_route_supports({64, 32, 31, 993, kPalm}));   // 64 + 31 + 31 = 126 ports, g = 993
  EXPECT_FALSE(rtl_min_route_supports({66, 32, 31, 993, kPalm}));  // 128 ports
  try {
    (void)make_rtl_min_route(Dragonfly(DragonflyShape{4, 8, 4, 2, kAbs}));
    ADD_FAILURE() << "made a unit for 32 links between two groups";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("a*h/(g-1) <= 16"), std::string::npos) << e.what();
  }
}

// The simulation-only assertions are compiled in (--assert) and stop the model on a broken
// contract: routing to itself, or a pinned exit that is not a global port.
TEST(RtlMinRouteDeathTest, AssertionsStopTheModel) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  // Verilator prints the assertion message on stdout; the death test reads stderr.
  const auto drive = [](int cur, int tgt, bool pinned, int exit_port) {
    std::fflush(stdout);
    dup2(STDERR_FILENO, STDOUT_FILENO);
    VerilatedContext ctx;
    Vmin_route dut(&ctx);
    configure(dut, {2, 4, 2, 5, kAbs});
    dut.cur_group_i = static_cast<uint32_t>(cur / 4);
    dut.cur_index_i = static_cast<uint32_t>(cur % 4);
    dut.tgt_group_i = static_cast<uint32_t>(tgt / 4);
    dut.tgt_index_i = static_cast<uint32_t>(tgt % 4);
    dut.exit_valid_i = pinned;
    dut.exit_index_i = 0;
    dut.exit_port_i = static_cast<uint32_t>(exit_port);
    dut.eval();
  };
  EXPECT_EXIT(
      {
        drive(5, 9, true, 5);  // a valid pinned exit (switch index 0, global port 5): no stop
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "");
  EXPECT_DEATH(drive(5, 5, false, 0), "routing to itself");
  EXPECT_DEATH(drive(5, 9, true, 2), "pinned exit is not a global port");
  // Shape registers that hold no buildable shape: 4 groups of 4 switches with 2 global
  // ports each cannot be absolute ((g-1) = 3 does not divide a*h = 8).
  EXPECT_DEATH(
      {
        std::fflush(stdout);
        dup2(STDERR_FILENO, STDOUT_FILENO);
        VerilatedContext ctx;
        Vmin_route dut(&ctx);
        configure(dut, {2, 4, 2, 4, kAbs});
      },
      "shape registers hold no buildable shape");
}

// dragonfly_minimal_hop with the Verilated block plugged in (as --rtl min_route does) against
// the C++ unit, each with its own Rng seeded alike, along whole one- and two-segment paths
// (Valiant-like: to an intermediate switch, then to the destination) between random
// switches: every hop equal, and the block's caller consumed its Rng exactly as the C++ unit.
TEST(RtlMinRoute, BlockConsumesTheRngLikeTheCppUnit) {
  const DragonflyShape shapes[] = {{2, 4, 2, 9, kPalm},  {4, 8, 4, 33, kPalm}, {2, 4, 2, 3, kAbs},
                                   {2, 4, 2, 5, kAbs},   {2, 4, 2, 9, kAbs},   {4, 8, 4, 9, kAbs},
                                   {4, 8, 4, 17, kAbs},  {4, 8, 4, 33, kAbs},  {4, 8, 4, 3, kAbs},
                                   {16, 32, 16, 513, kPalm}, {8, 16, 8, 17, kAbs}, {6, 12, 6, 73, kPalm}};
  for (const DragonflyShape& shape : shapes) {
    SCOPED_TRACE(shape_name(shape));
    ASSERT_TRUE(rtl_min_route_supports(shape));
    const Dragonfly cpp(shape);
    const std::unique_ptr<MinHopBlock> block = make_rtl_min_route(cpp);
    Rng pick(3, StreamKind::Traffic, 1), r_cpp(5, StreamKind::Switch, 2), r_rtl(5, StreamKind::Switch, 2);
    long hops = 0, draws = 0;
    for (int path = 0; path < 4000; ++path) {
      const int src = static_cast<int>(pick.below(static_cast<uint32_t>(cpp.num_switches())));
      const int inter = static_cast<int>(pick.below(static_cast<uint32_t>(cpp.num_switches())));
      const int dst = static_cast<int>(pick.below(static_cast<uint32_t>(cpp.num_switches())));
      RouteHeader hc, hr;
      hc.vc_shift = hr.vc_shift = static_cast<uint8_t>(path % 2);
      int at = src;
      for (int seg = path % 3 == 0 ? 0 : 1; seg < 2; ++seg) {  // a third of the paths via `inter`
        const int target = seg == 0 ? inter : dst;
        hc.segment = hr.segment = static_cast<uint8_t>(seg);
        hc.global_done = hr.global_done = 0;
        hc.exit_switch = hr.exit_switch = -1;
        hc.exit_port = hr.exit_port = -1;
        for (int step = 0; at != target; ++step) {
          ASSERT_LT(step, 3);
          draws += minimal_hop_draws(cpp, at, target, hc);
          const RouteDecision dc = dragonfly_minimal_hop(cpp, at, target, hc, r_cpp, nullptr);
          const RouteDecision dr = dragonfly_minimal_hop(cpp, at, target, hr, r_rtl, block.get());
          ASSERT_EQ(dr.port, dc.port) << "path " << path << " at " << at;
          ASSERT_EQ(dr.vc, dc.vc);
          ASSERT_EQ(hr.global_done, hc.global_done);
          ASSERT_EQ(hr.exit_switch, hc.exit_switch);
          ASSERT_EQ(hr.exit_port, hc.exit_port);
          at = cpp.port_class(dc.port) == PortClass::Global
                   ? cpp.global_peer(at, dc.port).sw
                   : cpp.switch_id(cpp.group_of(at), cpp.local_neighbor(cpp.index_of(at), dc.port));
          ++hops;
        }
      }
    }
    std::printf("[          ] %s: %ld hops, %ld tie-break draws\n", shape_name(shape).c_str(), hops, draws);
    EXPECT_GT(hops, 0);
    if (cpp.links_per_group_pair() > 1) {
      EXPECT_GT(draws, 0);
    }
    EXPECT_EQ(r_rtl.next(), r_cpp.next());  // same number of draws
  }
}

}  // namespace scfly
