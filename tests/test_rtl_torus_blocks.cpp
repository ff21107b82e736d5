// RTL == C++ for the torus blocks of the second RTL wave:
// - quadrant_sel.sv (the in-quadrant selector, in process) against the C++ unit
//   (torus_productive_ports without a block), exhaustively over every (switch, destination,
//   quadrant) of small tori and meshes, with random output queues (saturated ones included)
//   and the same Rng on both sides: same ports in the same order, same draws;
// - gal_threshold.sv (GAL's threshold controller, clocked per cycle) against GalThreshold
//   (event driven) in lockstep over random departure streams with bursts and idle spans,
//   on a grid of windows, periods and clamps, the C++ unit asked at random cycles only.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "routing_units/gal_threshold.h"
#include "routing_units/rtl_widths.h"
#include "routing_units/torus_routing.h"
#include "rtl_models/verilog/rtl_blocks.h"
#include "topologies/common/rng.h"
#include "topologies/torus.h"

namespace scfly {

namespace {

::testing::AssertionResult same_order(const Torus& t, const QuadrantBlock& blk, int sw, int dst, uint8_t dir_set,
                                      uint8_t minus, const SwitchLoad& load, uint64_t seed) {
  Rng a(seed, StreamKind::Switch, 1), b(seed, StreamKind::Switch, 1);
  int pc[2 * Torus::kMaxDims], pr[2 * Torus::kMaxDims];
  const int nc = torus_productive_ports(t, sw, dst, dir_set, minus, a, load, pc, nullptr);
  const int nr = torus_productive_ports(t, sw, dst, dir_set, minus, b, load, pr, &blk);
  const auto where = [&] {
    return t.describe() + " sw " + std::to_string(sw) + " -> " + std::to_string(dst) + " dir_set " +
           std::to_string(dir_set) + " minus " + std::to_string(minus);
  };
  if (nc != nr) return ::testing::AssertionFailure() << where() << ": C++ " << nc << " ports, RTL " << nr;
  for (int i = 0; i < nc; ++i)
    if (pc[i] != pr[i])
      return ::testing::AssertionFailure() << where() << ": rank " << i << " C++ port " << pc[i] << ", RTL " << pr[i];
  if (a.next() != b.next()) return ::testing::AssertionFailure() << where() << ": the Rng draws differ";
  return ::testing::AssertionSuccess();
}

}  // namespace

TEST(RtlQuadrantSelector, MatchesTheCppUnitOnEveryPositionAndQuadrant) {
  struct Shape {
    int k, n;
    bool mesh;
  };
  const std::vector<Shape> shapes = {{3, 1, false}, {4, 1, false}, {5, 1, false}, {8, 1, false}, {3, 2, false},
                                     {4, 2, false}, {5, 2, false}, {8, 2, false}, {3, 3, false}, {4, 3, false},
                                     {4, 1, true},  {4, 2, true},  {3, 3, true},  {2, 2, false}, {2, 4, false},
                                     {3, 4, false}, {3, 5, false}, {2, 6, false}};
  Rng qr(7, StreamKind::Traffic, 3);
  long checked = 0;
  for (const Shape& s : shapes) {
    TorusShape ts;
    ts.k = s.k;
    ts.n = s.n;
    ts.mesh = s.mesh;
    Torus t(ts);
    SCOPED_TRACE(t.describe());
    const std::unique_ptr<QuadrantBlock> blk = make_rtl_quadrant(t);
    const int S = t.num_switches(), masks = 1 << s.n;
    std::vector<uint32_t> q(static_cast<size_t>(t.radix()));
    SwitchLoad load;
    load.out_phits = q.data();
    // n <= 3: every pair and quadrant (dir_set x minus); n >= 4: a sample of pairs, each
    // with a few random quadrants.
    const bool every = s.n <= 3;
    const int stride = every ? 1 : 5;
    for (int sw = 0; sw < S; sw += stride)
      for (int dst = 0; dst < S; dst += stride)
        for (int ds = 0; ds < (every ? masks : 4); ++ds)
          for (int mi0 = 0; mi0 < (every ? masks : 1); ++mi0) {
            const int ds_now = every ? ds : static_cast<int>(qr.below(static_cast<uint32_t>(masks)));
            const int mi = every ? mi0 : static_cast<int>(qr.below(static_cast<uint32_t>(masks)));
            if (every && ds == 0 && mi != 0) continue;  // minus bits only matter where dir_set is
            // Queues: mostly few values (ties for the order words), sometimes large and saturating.
            for (auto& x : q) {
              const uint32_t r = qr.below(8);
              x = r < 5 ? qr.below(3) : r < 7 ? qr.below(100000) : 0xFFFFFFFFu;
            }
            ASSERT_TRUE(same_order(t, *blk, sw, dst, static_cast<uint8_t>(ds_now), static_cast<uint8_t>(mi), load,
                                   static_cast<uint64_t>(checked)));
            ++checked;
          }
  }
  EXPECT_GT(checked, 100000);
}

TEST(RtlQuadrantSelector, RefusesWhatItCannotHold) {
  TorusShape big;
  big.k = 256;
  big.n = 1;
  EXPECT_THROW(make_rtl_quadrant(Torus(big)), std::invalid_argument);
}

namespace {

// One lockstep run: `cycles` cycles of departures drawn from `rng` (bursts, idle spans);
// the RTL asked every cycle, the C++ unit at random cycles (and at the end).
::testing::AssertionResult lockstep(const GalThresholdParams& p, int cycles, Rng& rng, int max_dep,
                                    uint32_t& moved) {
  GalThreshold cpp(p);
  const std::unique_ptr<GalThresholdBlock> rtl = make_rtl_gal_threshold(p, "gal_rtl_lockstep");
  uint32_t lo = p.t0, hi = p.t0;
  int mode = 0;
  for (int t = 0; t < cycles; ++t) {
    if (t % 97 == 0) mode = static_cast<int>(rng.below(4));  // 0 idle, 1 light, 2 heavy, 3 bursts
    const uint32_t rv = rtl->value(static_cast<uint64_t>(t));
    if (rng.below(5) == 0 || t == cycles - 1) {
      const uint32_t cv = cpp.value(static_cast<uint64_t>(t), p);
      if (cv != rv)
        return ::testing::AssertionFailure() << "cycle " << t << ": C++ T " << cv << ", RTL T " << rv << " (n1 "
                                             << p.n1 << " n2 " << p.n2 << " T [" << p.t_min << ", " << p.t_max
                                             << "] t0 " << p.t0 << (p.adaptive ? "" : " fixed") << ")";
    }
    lo = std::min(lo, rv);
    hi = std::max(hi, rv);
    int dep = 0;
    switch (mode) {
      case 0: dep = 0; break;
      case 1: dep = rng.below(4) == 0 ? 1 : 0; break;
      case 2: dep = static_cast<int>(rng.below(static_cast<uint32_t>(max_dep) + 1)); break;
      default: dep = (t / 13) % 2 == 0 ? max_dep : 0; break;
    }
    for (int k = 0; k < dep; ++k) {
      cpp.departure(static_cast<uint64_t>(t));
      rtl->departure(static_cast<uint64_t>(t));
    }
  }
  moved += hi - lo;
  return ::testing::AssertionSuccess();
}

}  // namespace

TEST(RtlGalThreshold, MatchesTheCppControllerInLockstep) {
  Rng rng(3, StreamKind::Traffic, 9);
  uint32_t moved = 0;
  int runs = 0;
  for (uint32_t n1 : {1u, 2u, 3u, 7u, 50u, 255u, 256u})
    for (uint32_t n2 : {1u, 2u, 5u, 20u, 64u})
      for (int clamp = 0; clamp < 3; ++clamp)
        for (bool adaptive : {true, false}) {
          GalThresholdParams p;
          p.n1 = n1;
          p.n2 = n2;
          p.adaptive = adaptive;
          // Clamps: the paper's (2..128, from T_min), a narrow band from T_max, and the
          // 16-bit edges (0 and 65535).
          if (clamp == 0) p.t_min = 2, p.t_max = 128, p.t0 = 2;
          if (clamp == 1) p.t_min = 5, p.t_max = 9, p.t0 = 9;
          if (clamp == 2) p.t_min = 0, p.t_max = kGalTMax, p.t0 = 3;
          ASSERT_TRUE(lockstep(p, 2500, rng, clamp == 2 ? static_cast<int>(kGalDepMax) : 4, moved));
          ++runs;
        }
  EXPECT_EQ(runs, 7 * 5 * 3 * 2);
  EXPECT_GT(moved, 1000U);  // T moved up and down: the comparison exercised the updates
}

TEST(RtlGalThreshold, FixedThresholdNeverMoves) {
  GalThresholdParams p;
  p.adaptive = false;
  p.t0 = 17;
  const std::unique_ptr<GalThresholdBlock> rtl = make_rtl_gal_threshold(p, "gal_rtl_fixed");
  for (uint64_t t = 0; t < 500; ++t) {
    if (t % 3 == 0) rtl->departure(t);
    ASSERT_EQ(rtl->value(t), 17U);
  }
}

TEST(RtlGalThreshold, RefusesParametersOutsideItsWidths) {
  GalThresholdParams p;
  p.n1 = static_cast<uint32_t>(kGalN1Max) + 1;
  EXPECT_THROW(make_rtl_gal_threshold(p, "x1"), std::invalid_argument);
  p.n1 = 50;
  p.t_max = kGalTMax + 1;
  EXPECT_THROW(make_rtl_gal_threshold(p, "x2"), std::invalid_argument);
}

}  // namespace scfly
