// A link's delay line (rtl_models/switch/link.h, FlitLine): a run of phits filed at once
// (push_run, what LinkTx::send_run delivers) leaves the line exactly as filing its phits one
// by one with push() does: the same phits, landing cycles and run structure, across every
// case of the merge rule (a back run that continues the packet, one that ends in a tail, one
// already at the longest run, another packet or VC, a gap in cycles) and runs longer than
// the longest run a line holds.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "rtl_models/switch/link.h"

namespace scfly {
namespace {

// The line's contents, run by run: (cycle, packet, seq, vc, count, tail) of each front run.
std::vector<std::vector<uint64_t>> drain(FlitLine& l) {
  std::vector<std::vector<uint64_t>> out;
  while (!l.empty()) {
    const uint32_t n = l.front_count();
    const FlitLine::Slice s = l.pop_front(n);
    out.push_back({s.cycle, s.pkt, s.seq, s.vc, n, s.tail ? 1u : 0u});
  }
  return out;
}

TEST(FlitLine, ARunFiledAtOnceIsItsPhitsFiledOneByOne) {
  std::mt19937_64 rng(48);
  for (int trial = 0; trial < 4000; ++trial) {
    FlitLine a, b;  // a: runs filed with push_run (after 0-2 single phits), b: every phit with push
    uint64_t cycle = 10;
    PacketId pkt = 1;
    uint16_t seq = 0;
    uint8_t vc = 0;
    const int runs = 1 + static_cast<int>(rng() % 6);
    for (int k = 0; k < runs; ++k) {
      // The next run continues the packet (the common case), or starts another packet, moves
      // to another VC or leaves a gap of cycles; up to 300 phits (a line's longest run: 127).
      switch (rng() % 5) {
        case 1: ++pkt, seq = 0; break;
        case 2: cycle += 1 + rng() % 3; break;
        case 3: vc ^= 1; break;
        default: break;
      }
      const uint32_t n = rng() % 4 == 0 ? 100 + static_cast<uint32_t>(rng() % 200) : 1 + static_cast<uint32_t>(rng() % 9);
      const bool tail = rng() % 3 == 0;
      auto phit = [&](uint32_t i) {
        return Flit{pkt, static_cast<uint16_t>(seq + i), vc, static_cast<uint8_t>(tail && i + 1 == n)};
      };
      const uint32_t singles = std::min<uint32_t>(n, static_cast<uint32_t>(rng() % 3));
      for (uint32_t i = 0; i < singles; ++i) a.push(cycle + i, phit(i));
      if (singles < n) a.push_run(cycle + singles, phit(singles), n - singles, tail);
      for (uint32_t i = 0; i < n; ++i) b.push(cycle + i, phit(i));
      cycle += n;
      seq = static_cast<uint16_t>(seq + n);
      // After a tail, a new packet; now and then the same packet goes on (as after a fault
      // that repeated a tail), which must not merge into the tail's run.
      if (tail && rng() % 4 != 0) ++pkt, seq = 0;
    }
    ASSERT_EQ(drain(a), drain(b)) << "trial " << trial;
  }
}

}  // namespace
}  // namespace scfly
