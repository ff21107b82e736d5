// RTL == C++ for the UGAL selector: ugal_selector.sv (the Verilated C++ model the switch
// calls per routed head) against ugal_prefers_min(), on random and edge-case inputs
// (saturated queues, zero hops, extreme thresholds, ties). The PB detector is checked in
// test_rtl_acor_pb.cpp.
#include <gtest/gtest.h>

#include <memory>

#include "Vugal_selector.h"
#include "routing_units/ugal.h"
#include "topologies/common/rng.h"
#include "verilated.h"

namespace scfly {

TEST(RtlUgalSelector, MatchesTheCppRuleOn300kInputs) {
  Vugal_selector dut(Verilated::threadContextp());  // the thread's context (see test_rtl_min_route.cpp)
  Rng rng(11, StreamKind::Traffic, 5);
  // An AssertionResult, so the test stops at the first mismatch (an ASSERT inside the
  // lambda would return from the lambda only and let the loop go on).
  auto check = [&](uint32_t qm, uint32_t hm, uint32_t qv, uint32_t hv, int32_t t) -> ::testing::AssertionResult {
    dut.q_min_i = qm;
    dut.h_min_i = hm;
    dut.q_vlb_i = qv;
    dut.h_vlb_i = hv;
    dut.threshold_i = static_cast<uint32_t>(t) & 0xFFFFFF;
    dut.eval();
    if ((dut.min_o != 0) == ugal_prefers_min(qm, hm, qv, hv, t)) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "RTL min_o " << static_cast<int>(dut.min_o) << " for " << qm << "*" << hm
                                         << " vs " << qv << "*" << hv << " + " << t;
  };
  for (int n = 0; n < 300000; ++n) {
    const uint32_t qm = n % 7 == 0 ? kQueueMax : rng.below(n % 3 == 0 ? 64 : 65536);
    const uint32_t qv = n % 11 == 0 ? kQueueMax : rng.below(n % 3 == 0 ? 64 : 65536);
    const int32_t t = n % 5 == 0 ? 0
                      : n % 13 == 0 ? static_cast<int32_t>(kThresholdMin)
                      : n % 17 == 0 ? static_cast<int32_t>(kThresholdMax)
                                    : static_cast<int32_t>(rng.below(2000)) - 1000;
    ASSERT_TRUE(check(qm, rng.below(16), qv, rng.below(16), t));
  }
  for (uint32_t q = 0; q < 40; ++q)  // ties and near-ties, exhaustively small
    for (int32_t t = -3; t <= 3; ++t) ASSERT_TRUE(check(q, 3, q / 2, 6, t));
}

}  // namespace scfly
