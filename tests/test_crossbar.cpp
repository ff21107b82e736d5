// The crossbar part (rtl_models/switch/parts/crossbar.h) alone: driven with random packets
// landing in input VCs and random grants, against a reference model of its rule and the
// invariants a switch relies on (no port moves more than S phits a cycle, a port never
// holds more connections than its cap, a packet crosses whole, in order and uninterleaved).
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <random>
#include <stdexcept>
#include <vector>

#include "rtl_models/switch/parts/crossbar.h"

namespace {

using scfly::AllocRequest;
using scfly::Crossbar;
using scfly::CrossbarKind;

struct Phit {
  int pkt, seq;
  bool tail;
  uint64_t lands;  // the cycle it is in the input VC
};

// The rule written out: each cycle, every connection in list order moves the phits that
// have landed, up to `rate`, stopping after its tail; a connection whose tail moved leaves
// the list and the last one takes its place.
struct Reference {
  int rate;
  std::vector<AllocRequest> conns;
  std::vector<int> moved;  // phits each connection moves this cycle, in the order visited
  template <typename Landed, typename IsTail>
  void cycle(Landed&& landed, IsTail&& tail_at) {
    moved.clear();
    for (size_t i = 0; i < conns.size();) {
      const int n = std::min(rate, landed(conns[i]));
      const int t = tail_at(conns[i]);  // index of the tail among the landed phits, or -1
      const int m = t >= 0 && t < n ? t + 1 : n;
      moved.push_back(m);
      if (t >= 0 && t < n) {
        conns[i] = conns.back();
        conns.pop_back();
        continue;
      }
      ++i;
    }
  }
};

// One random run: `ports` ports of `vcs` VCs, speedup S, the given kind, 6,000 cycles of
// packets of 1-9 phits landing at random gaps, then 2,000 cycles to drain.
void random_run(int ports, int vcs, int speedup, CrossbarKind kind, uint64_t seed) {
  SCOPED_TRACE("ports " + std::to_string(ports) + " vcs " + std::to_string(vcs) + " S " + std::to_string(speedup) +
               (kind == CrossbarKind::Transfer ? " transfer" : " connections"));
  std::mt19937_64 rng(seed);
  Crossbar xb(ports, speedup, kind);
  const int cap = kind == CrossbarKind::Transfer ? 1 : speedup, rate = kind == CrossbarKind::Transfer ? speedup : 1;
  ASSERT_EQ(xb.cap(), cap);
  ASSERT_EQ(xb.rate(), rate);
  Reference ref{rate, {}, {}};
  const auto at = [vcs](int p, int v) { return static_cast<size_t>(p * vcs + v); };
  std::vector<std::deque<Phit>> in(static_cast<size_t>(ports * vcs)), out(in.size());
  std::vector<uint64_t> next_land(in.size(), 0);
  std::vector<char> connected(in.size(), 0), writing(in.size(), 0);
  std::vector<int> next_seq_out(in.size(), 0), writer_pkt(in.size(), -1);
  int next_pkt = 0;
  long delivered_phits = 0, generated_phits = 0;
  for (uint64_t now = 0; now < 8000; ++now) {
    // Packets land (a run of phits on consecutive cycles after a random gap).
    for (size_t q = 0; q < in.size(); ++q) {
      if (now >= 6000 || in[q].size() > 30 || rng() % 4 != 0) continue;
      const int len = 1 + static_cast<int>(rng() % 9), pkt = next_pkt++;
      uint64_t t = std::max(next_land[q], now) + rng() % 3;
      for (int s = 0; s < len; ++s) in[q].push_back({pkt, s, s + 1 == len, t++});
      next_land[q] = t;
      generated_phits += len;
    }
    // Grants: heads at the front of an unconnected input VC ask for a random output VC not
    // being written; the crossbar decides whether the ports have room.
    for (int tries = 0; tries < ports * vcs; ++tries) {
      const int ip = static_cast<int>(rng() % ports), iv = static_cast<int>(rng() % vcs);
      const size_t q = at(ip, iv);
      if (connected[q] || in[q].empty() || in[q].front().seq != 0) continue;
      const int op = static_cast<int>(rng() % ports), ov = static_cast<int>(rng() % vcs);
      if (writing[at(op, ov)] || xb.input_full(ip) || xb.output_full(op)) continue;
      const AllocRequest r{static_cast<uint16_t>(ip), static_cast<uint16_t>(op), static_cast<uint8_t>(iv),
                           static_cast<uint8_t>(ov), 0};
      xb.connect(r);
      ref.conns.push_back(r);
      connected[q] = 1;
      writing[at(op, ov)] = 1;
      writer_pkt[at(op, ov)] = in[q].front().pkt;
    }
    // The counts the allocators read are the connections held per port, within the cap.
    std::vector<int> cin(static_cast<size_t>(ports), 0), cout(static_cast<size_t>(ports), 0);
    for (const AllocRequest& c : xb.connections()) {
      ++cin[c.in_port];
      ++cout[c.out_port];
    }
    for (int p = 0; p < ports; ++p) {
      ASSERT_EQ(xb.in_active()[p], cin[static_cast<size_t>(p)]);
      ASSERT_EQ(xb.out_active()[p], cout[static_cast<size_t>(p)]);
      ASSERT_LE(cin[static_cast<size_t>(p)], cap);
      ASSERT_LE(cout[static_cast<size_t>(p)], cap);
      ASSERT_EQ(xb.input_full(p), cin[static_cast<size_t>(p)] >= cap);
      ASSERT_EQ(xb.output_full(p), cout[static_cast<size_t>(p)] >= cap);
    }
    // The reference's moves, from the state before the traversal.
    const auto landed = [&](const AllocRequest& c) {
      int n = 0;
      for (const Phit& f : in[at(c.in_port, c.in_vc)]) {
        if (f.lands > now) break;
        ++n;
      }
      return n;
    };
    const auto tail_at = [&](const AllocRequest& c) {
      int i = 0;
      for (const Phit& f : in[at(c.in_port, c.in_vc)]) {
        if (f.tail) return i;
        ++i;
      }
      return -1;
    };
    ref.cycle(landed, tail_at);
    // The part's traversal, moving phits as a switch does.
    std::vector<int> moved, in_port_phits(static_cast<size_t>(ports), 0), out_port_phits(static_cast<size_t>(ports), 0);
    int last_port = -1, last_vc = -1;
    xb.traverse<true>([&](const AllocRequest& c) {
      if (last_port != c.in_port || last_vc != c.in_vc) moved.push_back(0);  // the next connection
      last_port = c.in_port;
      last_vc = c.in_vc;
      std::deque<Phit>& q = in[at(c.in_port, c.in_vc)];
      if (q.empty() || q.front().lands > now) return Crossbar::Moved::None;
      const Phit f = q.front();
      q.pop_front();
      const size_t o = at(c.out_port, c.out_vc);
      EXPECT_EQ(f.pkt, writer_pkt[o]);  // only the connection's packet enters its output VC
      EXPECT_EQ(f.seq, next_seq_out[o]);  // in order
      next_seq_out[o] = f.tail ? 0 : f.seq + 1;
      out[o].push_back(f);
      ++moved.back();
      ++in_port_phits[c.in_port];
      ++out_port_phits[c.out_port];
      ++delivered_phits;
      if (!f.tail) return Crossbar::Moved::Body;
      connected[at(c.in_port, c.in_vc)] = 0;
      writing[o] = 0;
      writer_pkt[o] = -1;
      return Crossbar::Moved::Tail;
    });
    // (An input VC holds one connection at a time, so a step on another input VC is the
    // next connection; a connection that moved nothing has its entry too.)
    ASSERT_EQ(moved, ref.moved) << "cycle " << now;
    ASSERT_EQ(xb.connections().size(), ref.conns.size());
    for (size_t i = 0; i < ref.conns.size(); ++i) {
      ASSERT_EQ(xb.connections()[i].in_port, ref.conns[i].in_port) << "cycle " << now << " order " << i;
      ASSERT_EQ(xb.connections()[i].in_vc, ref.conns[i].in_vc) << "cycle " << now << " order " << i;
    }
    for (int p = 0; p < ports; ++p) {
      ASSERT_LE(in_port_phits[static_cast<size_t>(p)], speedup);
      ASSERT_LE(out_port_phits[static_cast<size_t>(p)], speedup);
    }
    for (auto& q : out) q.clear();  // the output side drains at once
  }
  EXPECT_EQ(delivered_phits, generated_phits);  // every packet crossed whole
  EXPECT_TRUE(xb.connections().empty());
  EXPECT_GT(generated_phits, 1000);
}

}  // namespace

TEST(Crossbar, MovesAsTheReferenceModelOverRandomTraffic) {
  uint64_t seed = 1;
  for (const CrossbarKind kind : {CrossbarKind::Connections, CrossbarKind::Transfer})
    for (int speedup : {1, 2, 3})
      for (const auto& [ports, vcs] : std::vector<std::pair<int, int>>{{2, 1}, {5, 2}, {8, 3}})
        random_run(ports, vcs, speedup, kind, seed++);
}

// The two kinds spend the speedup differently: one input VC with a whole packet landed
// sends it through one connection at S phits per cycle (transfer) or one phit per cycle
// (connections), and only connections lets a port hold several packets' connections.
TEST(Crossbar, TransferMovesSPhitsPerCycleConnectionsOne) {
  for (const CrossbarKind kind : {CrossbarKind::Connections, CrossbarKind::Transfer}) {
    Crossbar xb(4, 3, kind);
    xb.connect(AllocRequest{0, 1, 0, 0, 0});
    EXPECT_EQ(xb.input_full(0), kind == CrossbarKind::Transfer);
    int left = 7, cycles = 0;
    while (!xb.connections().empty()) {
      ++cycles;
      xb.traverse<true>([&](const AllocRequest&) { return --left == 0 ? Crossbar::Moved::Tail : Crossbar::Moved::Body; });
    }
    EXPECT_EQ(cycles, kind == CrossbarKind::Transfer ? 3 : 7);  // ceil(7 / 3) or 7
    EXPECT_FALSE(xb.input_full(0));
    EXPECT_EQ(xb.in_active()[0], 0);
    EXPECT_EQ(xb.out_active()[1], 0);
  }
}

TEST(Crossbar, RefusesShapesOutsideItsRange) {
  EXPECT_THROW(Crossbar(0, 2, CrossbarKind::Connections), std::invalid_argument);
  EXPECT_THROW(Crossbar(scfly::kMaxAllocPorts + 1, 2, CrossbarKind::Connections), std::invalid_argument);
  EXPECT_THROW(Crossbar(4, 0, CrossbarKind::Transfer), std::invalid_argument);
  EXPECT_NO_THROW(Crossbar(scfly::kMaxAllocPorts, 4, CrossbarKind::Connections));
}
