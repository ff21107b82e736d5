// The flow-control parts (rtl_models/switch/parts/flow_control.h) alone.
#include <gtest/gtest.h>

#include <deque>
#include <random>

#include "rtl_models/switch/parts/flow_control.h"

namespace scfly {
namespace {

// Lazy landing is invisible: a counter taking whole credit runs ahead shows, through at(),
// the same count at every cycle as one taking each credit the cycle it lands; spending
// and overflow agree too. Random runs (a connection freeing one phit per cycle), random
// spends within what has landed.
TEST(CreditCounter, LazyLandingShowsTheSameCountEveryCycle) {
  std::mt19937_64 g(5);
  for (int trial = 0; trial < 200; ++trial) {
    const int32_t cap = 8 + static_cast<int32_t>(g() % 120);
    CreditCounter lazy, exact;
    lazy.reset(cap);
    exact.reset(cap);
    struct Run {
      uint64_t first;
      uint32_t count, taken_lazy, taken_exact;
    };
    std::deque<Run> runs;  // in flight, in landing order (one VC: runs never overlap)
    int32_t outstanding = 0;  // spent and not yet returned
    uint64_t next_free = 0;   // the cycle after the last run's last credit
    for (uint64_t now = 0; now < 3000; ++now) {
      // Land what is due (both), the lazy one taking whole runs when it may.
      for (Run& r : runs) {
        if (r.first > now) break;
        const uint32_t due = static_cast<uint32_t>(std::min<uint64_t>(r.count, now - r.first + 1));
        if (r.taken_exact < due) r.taken_exact += exact.land(now, r.first + r.taken_exact, due - r.taken_exact, r.count - r.taken_exact, false);
        if (r.taken_lazy < due) r.taken_lazy += lazy.land(now, r.first + r.taken_lazy, due - r.taken_lazy, r.count - r.taken_lazy, true);
      }
      while (!runs.empty() && runs.front().taken_exact == runs.front().count && runs.front().taken_lazy == runs.front().count)
        runs.pop_front();
      ASSERT_EQ(lazy.at(now), exact.at(now)) << "trial " << trial << " cycle " << now;
      ASSERT_FALSE(lazy.overflow());
      ASSERT_FALSE(exact.overflow());
      // Spend a packet's worth when it fits, and return its credits later as a run.
      const uint32_t phits = 1 + static_cast<uint32_t>(g() % 8);
      if (g() % 3 == 0 && exact.room(now, phits)) {
        ASSERT_TRUE(lazy.room(now, phits));
        exact.spend(phits);
        lazy.spend(phits);
        outstanding += static_cast<int32_t>(phits);
        const uint64_t first = std::max<uint64_t>(now + 1 + g() % 20, next_free);
        runs.push_back(Run{first, phits, 0, 0});
        next_free = first + phits;
      }
    }
    (void)outstanding;
  }
}

TEST(CreditCounter, TooManyCreditsAreAnOverflow) {
  CreditCounter c;
  c.reset(4);
  c.spend(2);
  EXPECT_EQ(c.land(10, 10, 2, 2, false), 2u);
  EXPECT_FALSE(c.overflow());
  EXPECT_EQ(c.land(11, 11, 1, 1, false), 1u);  // a duplicated credit
  EXPECT_TRUE(c.overflow());
  // Lazy landing never takes a run that would overflow.
  CreditCounter d;
  d.reset(4);
  d.spend(1);
  EXPECT_EQ(d.land(0, 0, 1, 3, true), 1u);
}

// PFC: one PAUSE when the occupancy reaches XOFF, one RESUME when it falls to XON, nothing
// in between (hysteresis).
TEST(PfcInput, PausesAtXoffAndResumesAtXonOnce) {
  PfcInput p;
  int pauses = 0, resumes = 0;
  const uint32_t xoff = 40, xon = 20;
  const uint32_t level[] = {10, 30, 39, 40, 45, 50, 41, 30, 21, 20, 15, 25, 39, 40, 40, 19};
  for (uint32_t occ : level) {
    pauses += p.filled(occ, xoff);
    resumes += p.drained(occ, xon);
  }
  EXPECT_EQ(pauses, 2);
  EXPECT_EQ(resumes, 2);
  EXPECT_EQ(p.xoff, 0u);
}

}  // namespace
}  // namespace scfly
