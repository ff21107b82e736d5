// RTL == C++ for the combinational selection blocks: ugal_selector.sv against
// ugal_prefers_min() and pb_sat_detector.sv (H = 4 and H = 2) against pb_saturated(), on
// random and edge-case inputs (saturated queues, zero hops, extreme thresholds, ties).
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "Vpb_sat_detector.h"
#include "Vpb_sat_detector_h2.h"
#include "Vugal_selector.h"
#include "routing_units/ugal.h"
#include "tb/rng.h"
#include "verilated.h"

namespace scfly {

TEST(RtlUgalSelector, MatchesTheCppRuleOn300kInputs) {
  VerilatedContext ctx;
  Vugal_selector dut(&ctx);
  Rng rng(11, StreamKind::Traffic, 5);
  auto check = [&](uint32_t qm, uint32_t hm, uint32_t qv, uint32_t hv, int32_t t) {
    dut.q_min_i = qm;
    dut.h_min_i = hm;
    dut.q_vlb_i = qv;
    dut.h_vlb_i = hv;
    dut.threshold_i = static_cast<uint32_t>(t) & 0xFFFFFF;
    dut.eval();
    ASSERT_EQ(dut.min_o != 0, ugal_prefers_min(qm, hm, qv, hv, t))
        << qm << "*" << hm << " vs " << qv << "*" << hv << " + " << t;
  };
  for (int n = 0; n < 300000; ++n) {
    const uint32_t qm = n % 7 == 0 ? kQueueMax : rng.below(n % 3 == 0 ? 64 : 65536);
    const uint32_t qv = n % 11 == 0 ? kQueueMax : rng.below(n % 3 == 0 ? 64 : 65536);
    const int32_t t = n % 5 == 0 ? 0
                      : n % 13 == 0 ? static_cast<int32_t>(kThresholdMin)
                      : n % 17 == 0 ? static_cast<int32_t>(kThresholdMax)
                                    : static_cast<int32_t>(rng.below(2000)) - 1000;
    check(qm, rng.below(16), qv, rng.below(16), t);
  }
  for (uint32_t q = 0; q < 40; ++q)  // ties and near-ties, exhaustively small
    for (int32_t t = -3; t <= 3; ++t) check(q, 3, q / 2, 6, t);
}

template <class Dut>
void pb_lockstep(int h, uint64_t seed) {
  VerilatedContext ctx;
  Dut dut(&ctx);
  Rng rng(seed, StreamKind::Traffic, 6);
  for (int n = 0; n < 100000; ++n) {
    std::vector<uint32_t> q(static_cast<size_t>(h));
    uint64_t sum = 0;
    for (auto& x : q) {
      x = n % 9 == 0 ? kQueueMax : rng.below(n % 2 ? 64 : 65536);
      sum += x;
    }
    if (n % 4 == 0)  // near the threshold, where an off-by-one would show
      q[0] = sat_queue(sum / static_cast<uint64_t>(h) * 6 / 5 + rng.below(12));
    sum = 0;
    for (uint32_t x : q) sum += x;
    const uint32_t cg = n % 3 == 0 ? 120 : 1 + rng.below(kCgMax);
    const uint32_t tg = n % 3 == 0 ? 5 : rng.below(n % 5 ? 64 : kTgMax + 1);
    uint64_t packed = 0;
    for (int j = 0; j < h; ++j) packed |= static_cast<uint64_t>(q[static_cast<size_t>(j)]) << (16 * j);
    dut.q_i = packed;
    dut.cg_i = cg;
    dut.tg_i = tg;
    dut.eval();
    for (int j = 0; j < h; ++j)
      ASSERT_EQ((dut.sat_o >> j) & 1U,
                pb_saturated(q[static_cast<size_t>(j)], sum, static_cast<uint32_t>(h), cg, tg) ? 1U : 0U)
          << "link " << j << " q " << q[static_cast<size_t>(j)] << " sum " << sum << " cg " << cg << " tg " << tg;
  }
}

TEST(RtlPbSatDetector, FourGlobalPortsMatchTheCppRule) { pb_lockstep<Vpb_sat_detector>(4, 1); }
TEST(RtlPbSatDetector, TwoGlobalPortsMatchTheCppRule) { pb_lockstep<Vpb_sat_detector_h2>(2, 2); }

}  // namespace scfly
