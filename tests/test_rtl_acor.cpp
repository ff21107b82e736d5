// RTL == C++: the Verilated acor_level_ctrl (rtl_models/verilog/acor_level_ctrl.sv, through
// the adapter --rtl acor uses) and the C++ AcorLevelCtrl (routing_units/acor_level_ctrl.h)
// driven in lockstep with the same random stimulus; level, counter and timer must agree
// after every cycle.
#include <gtest/gtest.h>

#include <memory>

#include "routing_units/acor_level_ctrl.h"
#include "rtl_models/verilog/rtl_blocks.h"
#include "tb/rng.h"

namespace scfly {
namespace {

// Runs `cycles` cycles of stimulus drawn by `draw` and compares every cycle.
template <class Draw>
void lockstep(const AcorLevelParams& p, uint64_t cycles, uint64_t seed, Draw draw) {
  // The Verilated block through the same adapter the switch uses for --rtl acor.
  const std::unique_ptr<LevelCtrl> dut = make_rtl_level_ctrl(p);
  AcorLevelCtrl ref(p);
  Rng rng(seed, StreamKind::Traffic, 99);
  for (uint64_t c = 0; c < cycles; ++c) {
    const uint32_t b = draw(rng, c);
    dut->step(b);
    ref.step(b);
    ASSERT_EQ(dut->level(), ref.level()) << "cycle " << c << " blocked " << b;
    ASSERT_EQ(dut->counter(), ref.counter()) << "cycle " << c;
    ASSERT_EQ(dut->timer(), ref.timer()) << "cycle " << c;
  }
}

AcorLevelParams params(uint32_t levels, uint32_t hi, uint32_t it1, uint32_t it2, uint32_t dt1, uint32_t dt2) {
  AcorLevelParams p;
  p.levels = levels;
  p.hi = hi;
  p.it[0] = it1;
  p.it[1] = it2;
  p.dt[0] = dt1;
  p.dt[1] = dt2;
  return p;
}

}  // namespace

TEST(RtlAcorLevelCtrl, Table3ParamsBurstyTraffic200kCycles) {
  // Bursts of blocking separated by quiet stretches: the level climbs and falls many times.
  lockstep(params(3, 500, 15, 500, 5, 15), 200000, 1, [](Rng& r, uint64_t c) {
    const bool burst = (c / 3000) % 2 == 1;
    return burst ? r.below(8) : (r.below(100) == 0 ? 1u : 0u);
  });
}

TEST(RtlAcorLevelCtrl, TwoLevelSequencesAndShortIntervals100kCycles) {
  lockstep(params(2, 7, 3, 1000, 1, 1000), 100000, 2, [](Rng& r, uint64_t) { return r.below(3) == 0 ? 1u : 0u; });
  lockstep(params(2, 1, 2, 2, 0, 0), 100000, 3, [](Rng& r, uint64_t) { return r.below(2); });
}

TEST(RtlAcorLevelCtrl, RandomThresholdsAndSaturatingCounts) {
  Rng pr(7, StreamKind::Traffic, 1);
  for (int k = 0; k < 20; ++k) {
    const uint32_t it1 = 1 + pr.below(40), it2 = 1 + pr.below(400);
    const AcorLevelParams p = params(2 + pr.below(2), 1 + pr.below(64), it1, it2, pr.below(it1 + 1), pr.below(it2 + 1));
    lockstep(p, 10000, 100 + static_cast<uint64_t>(k), [](Rng& r, uint64_t c) {
      if (c % 997 == 5) return 0xFFFF'FFF0u;  // saturating sums at the 32-bit edge
      return r.below(6) == 0 ? r.below(20) : 0u;
    });
  }
}

}  // namespace scfly
