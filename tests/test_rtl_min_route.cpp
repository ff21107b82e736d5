// RTL == C++ for the minimal route unit: min_route.sv (palmtree) against
// dragonfly_minimal_hop() exhaustively on dfly(2,4,2) and dfly(4,8,4): every current
// switch, every other target switch, both segments, global hop done or not, VC shift or
// not, exit link free or pinned; port, VC and header updates must agree.
#include <gtest/gtest.h>

#include "Vmin_route.h"
#include "Vmin_route_4_8_4.h"
#include "routing_units/minimal.h"
#include "verilated.h"

namespace scfly {
namespace {

template <class Dut>
void exhaustive(const DragonflyShape& shape) {
  const Dragonfly t(shape);
  VerilatedContext ctx;
  Dut dut(&ctx);
  Rng rng(1, StreamKind::Traffic, 0);  // unused with one link per group pair
  long checked = 0;
  for (int sw = 0; sw < t.num_switches(); ++sw)
    for (int target = 0; target < t.num_switches(); ++target) {
      if (target == sw) continue;
      for (int seg = 0; seg < 2; ++seg)
        for (int gd = 0; gd < 2; ++gd)
          for (int shift = 0; shift < 2; ++shift)
            for (int pinned = 0; pinned < 2; ++pinned) {
              RouteHeader h;
              h.segment = static_cast<uint8_t>(seg);
              h.global_done = static_cast<uint8_t>(gd);
              h.vc_shift = static_cast<uint8_t>(shift);
              if (pinned) {
                if (t.group_of(sw) == t.group_of(target)) continue;
                const GlobalLinkEnd l = t.links_between(t.group_of(sw), t.group_of(target))[0];
                h.exit_switch = l.sw;
                h.exit_port = l.port;
              }
              dut.cur_group_i = static_cast<uint32_t>(t.group_of(sw));
              dut.cur_index_i = static_cast<uint32_t>(t.index_of(sw));
              dut.tgt_group_i = static_cast<uint32_t>(t.group_of(target));
              dut.tgt_index_i = static_cast<uint32_t>(t.index_of(target));
              dut.segment_i = static_cast<uint8_t>(seg);
              dut.global_done_i = static_cast<uint8_t>(gd);
              dut.vc_shift_i = static_cast<uint8_t>(shift);
              dut.exit_valid_i = pinned;
              dut.exit_index_i = pinned ? static_cast<uint32_t>(t.index_of(h.exit_switch)) : 0;
              dut.exit_port_i = pinned ? static_cast<uint32_t>(h.exit_port) : 0;
              dut.eval();
              const RouteDecision d = dragonfly_minimal_hop(t, sw, target, h, rng);
              SCOPED_TRACE("sw " + std::to_string(sw) + " target " + std::to_string(target) + " seg " +
                           std::to_string(seg) + " gd " + std::to_string(gd) + " shift " +
                           std::to_string(shift) + " pinned " + std::to_string(pinned));
              ASSERT_EQ(dut.port_o, static_cast<uint32_t>(d.port));
              ASSERT_EQ(dut.vc_o, d.vc);
              ASSERT_EQ(dut.global_done_o, h.global_done);
              ASSERT_EQ(dut.exit_valid_o != 0, h.exit_switch >= 0);
              if (h.exit_switch >= 0) {
                ASSERT_EQ(dut.exit_index_o, static_cast<uint32_t>(t.index_of(h.exit_switch)));
                ASSERT_EQ(dut.exit_port_o, static_cast<uint32_t>(h.exit_port));
              }
              ++checked;
            }
    }
  EXPECT_GT(checked, 0);
}

}  // namespace

TEST(RtlMinRoute, ExhaustiveOnDfly242) { exhaustive<Vmin_route>(DragonflyShape{2, 4, 2, 9, Arrangement::Palmtree}); }
TEST(RtlMinRoute, ExhaustiveOnDfly484) {
  exhaustive<Vmin_route_4_8_4>(DragonflyShape{4, 8, 4, 33, Arrangement::Palmtree});
}

}  // namespace scfly
