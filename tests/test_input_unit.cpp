// One input VC of the input unit (rtl_models/switch/parts/input_unit.h) alone: a VC whose
// runs of phits are filed whole at their first landing (streaming) shows, at every cycle,
// what a reference VC filed phit by phit as each lands shows: the phits held, the front
// phit, and the order they leave in, under random runs, gaps and a consumer that takes a
// landed phit at random cycles (as the crossbar does).
#include <gtest/gtest.h>

#include <deque>
#include <random>

#include "rtl_models/switch/parts/input_unit.h"

namespace {

using scfly::Flit;
using scfly::InputVc;

struct LinkRun {
  uint32_t pkt;
  uint16_t seq;
  uint32_t n;
  bool tail;  // the run's last phit is its packet's tail
  uint64_t first;
};

}  // namespace

TEST(InputUnit, StreamedRunsLookAsFiledPhitByPhitAtEveryCycle) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 40; ++trial) {
    const uint32_t depth = 4 + static_cast<uint32_t>(rng() % 60);
    InputVc streamed, reference;
    streamed.buf.set_capacity(depth);
    reference.buf.set_capacity(depth);
    // The link: packets of 1-20 phits, each sent as runs (a sender may pause between runs
    // of one packet), a phit per cycle within a run, never more than the credits (depth).
    std::deque<LinkRun> runs;
    std::deque<Flit> in_flight;  // the reference's phits, one per landing cycle, with their cycle
    std::deque<uint64_t> in_flight_cycle;
    uint32_t credits = depth, pkt = 0, seq = 0, len = 1 + static_cast<uint32_t>(rng() % 20);
    uint64_t link_free = 0;
    long moved = 0;
    for (uint64_t now = 0; now < 20000; ++now) {
      // The sender puts a run on the link when it has credits for it.
      if (now >= link_free && now < 18000 && credits > 0 && rng() % 3 == 0) {
        const uint32_t n = std::min<uint32_t>({len - seq, credits, 1 + static_cast<uint32_t>(rng() % 8)});
        const uint64_t first = now + 1 + rng() % 4;  // link latency
        runs.push_back({pkt, static_cast<uint16_t>(seq), n, seq + n == len, first});
        for (uint32_t i = 0; i < n; ++i) {
          in_flight.push_back(Flit{pkt, static_cast<uint16_t>(seq + i), 0, static_cast<uint8_t>(seq + i + 1 == len)});
          in_flight_cycle.push_back(first + i);
        }
        credits -= n;
        link_free = first + n;  // one phit per cycle on the link
        seq += n;
        if (seq == len) {
          ++pkt;
          seq = 0;
          len = 1 + static_cast<uint32_t>(rng() % 20);
        }
      }
      // Landing: the streamed VC files a run whole at its first phit; the reference files
      // each phit the cycle it lands.
      while (!runs.empty() && runs.front().first <= now) {
        const LinkRun r = runs.front();
        runs.pop_front();
        ASSERT_TRUE(streamed.fits(r.n));
        streamed.file(r.pkt, r.seq, 0, r.tail, r.n, r.first);
      }
      while (!in_flight.empty() && in_flight_cycle.front() <= now) {
        ASSERT_TRUE(reference.fits(1));
        const Flit f = in_flight.front();
        reference.file(f.pkt, f.seq, 0, f.tail != 0, 1, in_flight_cycle.front());
        in_flight.pop_front();
        in_flight_cycle.pop_front();
      }
      // Both show the same landed phits and the same front.
      ASSERT_EQ(streamed.landed(now), reference.landed(now)) << "trial " << trial << " cycle " << now;
      ASSERT_EQ(reference.landed(now), reference.buf.size());  // filed as landed: nothing ahead
      if (reference.landed(now) > 0) {
        ASSERT_EQ(streamed.buf.front().pkt, reference.buf.front().pkt);
        ASSERT_EQ(streamed.buf.front().seq, reference.buf.front().seq);
        ASSERT_EQ(streamed.buf.front().tail, reference.buf.front().tail);
      }
      // The consumer takes up to two landed phits (a crossbar with speedup 2), returning
      // their credits.
      for (int k = 0; k < 2 && streamed.landed(now) > 0 && rng() % 2 == 0; ++k) {
        const Flit a = streamed.buf.front(), b = reference.buf.front();
        streamed.buf.pop();
        reference.buf.pop();
        ASSERT_EQ(a.pkt, b.pkt);
        ASSERT_EQ(a.seq, b.seq);
        ++credits;
        ++moved;
      }
    }
    EXPECT_GT(moved, 1000) << "trial " << trial;
  }
}

// A run that does not fit whole is refused by fits(): the switch then files it phit by
// phit, so that an overflow is reported at the phit that overflows.
TEST(InputUnit, FitsCountsTheWholeRun) {
  InputVc v;
  v.buf.set_capacity(8);
  EXPECT_TRUE(v.fits(8));
  EXPECT_FALSE(v.fits(9));
  volatile uint32_t five = 5;  // (a constant run lets GCC 12 warn falsely in RingBuffer::grow)
  v.file(1, 0, 0, false, five, 100);
  EXPECT_EQ(v.landed(99), 0u);
  EXPECT_EQ(v.landed(100), 1u);
  EXPECT_EQ(v.landed(104), 5u);
  EXPECT_TRUE(v.fits(3));
  EXPECT_FALSE(v.fits(4));
  EXPECT_EQ(v.buf.at(4).tail, 0);
}
