// The output unit's link arbiter (rtl_models/switch/parts/link_arbiter.h) alone: against a
// reference model of its rule over random ready sets, and its fairness and priority.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "rtl_models/switch/parts/link_arbiter.h"

namespace {

// The rule written out as a list: the VCs in the order the arbiter considers them.
std::vector<int> rule_order(int nv, int nd, int ptr) {
  std::vector<int> order;
  for (int c = nd; c < nv; ++c) order.push_back(c);
  for (int n = 0; n < nd; ++n) order.push_back((ptr + n) % nd);
  return order;
}

}  // namespace

// 10^5 random picks over ports of 1-8 VCs with 0-3 control VCs: the same VC as the
// reference, the same pointer after, and ready() asked in the rule's order up to the pick.
TEST(LinkArbiter, PicksAsTheReferenceRuleOverRandomReadySets) {
  std::mt19937_64 rng(7);
  const int ports = 6;
  scfly::LinkArbiter arb(ports);
  std::vector<int> ref_ptr(ports, 0);
  std::vector<int> nv(ports), nd(ports);
  for (int p = 0; p < ports; ++p) {
    nd[p] = 1 + static_cast<int>(rng() % 8);
    nv[p] = nd[p] + static_cast<int>(rng() % 4);
  }
  for (int it = 0; it < 100000; ++it) {
    const int p = static_cast<int>(rng() % ports);
    std::vector<bool> ready(static_cast<size_t>(nv[p]));
    const unsigned density = static_cast<unsigned>(rng() % 4);  // 0: all ready ... 3: rarely ready
    for (auto&& r : ready) r = density == 0 || rng() % (1 + density * density) == 0;
    std::vector<int> asked;
    const bool ctl = nv[p] > nd[p];
    auto ask = [&](int c) {
      asked.push_back(c);
      return static_cast<bool>(ready[static_cast<size_t>(c)]);
    };
    const int got = ctl ? arb.pick<true>(p, nv[p], nd[p], ask) : arb.pick<false>(p, nv[p], nd[p], ask);
    const std::vector<int> order = rule_order(nv[p], nd[p], ref_ptr[static_cast<size_t>(p)]);
    int want = -1;
    std::vector<int> want_asked;
    for (int c : order) {
      want_asked.push_back(c);
      if (ready[static_cast<size_t>(c)]) {
        want = c;
        break;
      }
    }
    ASSERT_EQ(got, want) << "iteration " << it;
    ASSERT_EQ(asked, want_asked) << "iteration " << it;
    if (want >= 0 && want < nd[p]) ref_ptr[static_cast<size_t>(p)] = (want + 1) % nd[p];
    ASSERT_EQ(arb.pointers()[static_cast<size_t>(p)], ref_ptr[static_cast<size_t>(p)]) << "iteration " << it;
  }
}

// Every data VC always ready: each gets the link in turn (round-robin), and a ready control
// VC wins every time without moving the pointer.
TEST(LinkArbiter, RoundRobinOverDataAndStrictPriorityForControl) {
  scfly::LinkArbiter arb(1);
  auto all = [](int) { return true; };
  for (int i = 0; i < 12; ++i) EXPECT_EQ(arb.pick<false>(0, 4, 4, all), i % 4);
  EXPECT_EQ(arb.pointers()[0], 0);
  // VCs 0-2 data, 3-4 control: control 3 first, always; then data resumes where it was.
  for (int i = 0; i < 3; ++i) EXPECT_EQ(arb.pick<true>(0, 5, 3, all), 3);
  EXPECT_EQ(arb.pointers()[0], 0);
  auto no_ctl = [](int c) { return c < 3; };
  EXPECT_EQ(arb.pick<true>(0, 5, 3, no_ctl), 0);
  EXPECT_EQ(arb.pick<true>(0, 5, 3, no_ctl), 1);
  auto only4 = [](int c) { return c == 4 || c == 2; };
  EXPECT_EQ(arb.pick<true>(0, 5, 3, only4), 4);  // control 4 before data 2
  EXPECT_EQ(arb.pointers()[0], 2);
  auto none = [](int) { return false; };
  EXPECT_EQ(arb.pick<true>(0, 5, 3, none), -1);
  EXPECT_EQ(arb.pointers()[0], 2);  // nothing picked, nothing moved
}

TEST(LinkArbiter, RefusesAPortCountBeyondItsWidth) {
  EXPECT_THROW(scfly::LinkArbiter(0), std::invalid_argument);
  EXPECT_THROW(scfly::LinkArbiter(scfly::kMaxAllocPorts + 1), std::invalid_argument);
  EXPECT_NO_THROW(scfly::LinkArbiter(scfly::kMaxAllocPorts));
}
