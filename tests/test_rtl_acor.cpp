// RTL == C++: the Verilated acor_level_ctrl (rtl_models/verilog/acor_level_ctrl.sv) and the
// C++ AcorLevelCtrl (routing_units/acor_level_ctrl.h) driven in lockstep with the same
// random stimulus; level, counter and timer must agree after every cycle.
#include <gtest/gtest.h>

#include <memory>

#include "Vacor_level_ctrl.h"
#include "routing_units/acor_level_ctrl.h"
#include "tb/rng.h"
#include "verilated.h"

namespace scfly {
namespace {

struct Dut {
  std::unique_ptr<VerilatedContext> ctx = std::make_unique<VerilatedContext>();
  std::unique_ptr<Vacor_level_ctrl> m = std::make_unique<Vacor_level_ctrl>(ctx.get());
  void tick() {
    m->clk_i = 0;
    m->eval();
    m->clk_i = 1;
    m->eval();
  }
  void reset(const AcorLevelParams& p) {
    m->levels_i = static_cast<uint8_t>(p.levels);
    m->hi_i = p.hi;
    m->it1_i = p.it[0];
    m->it2_i = p.it[1];
    m->dt1_i = p.dt[0];
    m->dt2_i = p.dt[1];
    m->blocked_i = 0;
    m->rst_ni = 0;
    m->clk_i = 0;
    m->eval();
    m->rst_ni = 1;
    m->eval();
  }
};

// Runs `cycles` cycles of stimulus drawn by `draw` and compares every cycle.
template <class Draw>
void lockstep(const AcorLevelParams& p, uint64_t cycles, uint64_t seed, Draw draw) {
  Dut dut;
  dut.reset(p);
  AcorLevelCtrl ref(p);
  Rng rng(seed, StreamKind::Traffic, 99);
  for (uint64_t c = 0; c < cycles; ++c) {
    const uint32_t b = draw(rng, c);
    dut.m->blocked_i = b;
    dut.tick();
    ref.step(b);
    ASSERT_EQ(dut.m->level_o, ref.level()) << "cycle " << c << " blocked " << b;
    ASSERT_EQ(dut.m->counter_o, ref.counter()) << "cycle " << c;
    ASSERT_EQ(dut.m->timer_o, ref.timer()) << "cycle " << c;
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
