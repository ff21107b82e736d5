// RTL == C++ for the ACOR level controller and the Piggyback detector, through the adapters
// the switch uses for `--rtl acor,pb` (rtl_models/verilog/rtl_blocks.h), stepped as the
// switch steps them: once per cycle, in process.
// - acor_level_ctrl.sv against AcorLevelCtrl (routing_units/acor_level_ctrl.h): each cycle
//   both are stepped with the same blocked count; after every step level, counter and timer
//   of both must agree. 13 instances with Table 3, two-level, short-interval and random
//   thresholds run side by side for 150,000 cycles.
// - pb_sat_detector.sv (one model, h = 1..16 held at its h_i input) against pb_saturated()
//   (routing_units/ugal.h): new occupancies each cycle (random, all full, all empty, one hot
//   port, and one port within 2 of the threshold), the flags handed back by drive() must be
//   the C++ rule's; 6 (C_g, T_g) settings for every h, through the switch's adapter, for
//   150,000 cycles. Besides, one bare Verilated model per h with random occupancies also on
//   the ports at and beyond h (which the adapter leaves zero): those must be neither summed
//   nor flagged.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "routing_units/acor_level_ctrl.h"
#include "routing_units/rtl_widths.h"
#include "routing_units/ugal.h"
#include "rtl_models/verilog/rtl_blocks.h"
#include "topologies/common/rng.h"

#include "Vpb_sat_detector.h"
#include "verilated.h"

namespace scfly {
namespace {

constexpr uint64_t kCycles = 150000;

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

using Draw = std::function<uint32_t(Rng&, uint64_t)>;

struct AcorCase {
  std::string what;
  Draw draw;
  std::unique_ptr<LevelCtrl> dut;
  std::unique_ptr<AcorLevelCtrl> ref;
  Rng rng;
  uint32_t levels_seen = 0;  // bit k: level k reached
};

struct PbCase {
  int h;
  uint32_t cg, tg;
  std::unique_ptr<PbDetectorBlock> dut;
  std::vector<uint32_t> flags;     // as last handed back by the RTL
  std::vector<uint32_t> expected;  // the C++ rule on the occupancies driven last cycle
  std::vector<uint32_t> q;
  Rng rng;
  uint64_t flags_set = 0;  // flags raised, over the run
};

// The Verilated model without the adapter: q_i's ports at and beyond h carry occupancies too.
struct BarePb {
  BarePb(const std::string& name, int h_, uint32_t cg_, uint32_t tg_, uint64_t seed)
      : v(new Vpb_sat_detector(Verilated::threadContextp(), name.c_str())), h(h_), cg(cg_), tg(tg_),
        rng(seed, StreamKind::Traffic, 7) {
    v->h_i = static_cast<uint8_t>(h_);
    v->cg_i = static_cast<uint16_t>(cg_);
    v->tg_i = static_cast<uint16_t>(tg_);
  }
  ~BarePb() { v->final(); }
  std::unique_ptr<Vpb_sat_detector> v;
  int h;
  uint32_t cg, tg;
  Rng rng;
  uint32_t q[kPbPortsMax] = {};
  uint64_t flags_set = 0;
};

class Testbench {
 public:
  Testbench() {
    const Draw bursty = [](Rng& r, uint64_t c) {
      const bool burst = (c / 3000) % 2 == 1;  // bursts of blocking between quiet stretches
      return burst ? r.below(8) : (r.below(100) == 0 ? 1u : 0u);
    };
    add_acor("table3-3l", params(3, 500, 15, 500, 5, 15), bursty, 1);
    add_acor("table3-2l", params(2, 500, 15, 500, 5, 15), bursty, 2);
    add_acor("short-interval", params(2, 7, 3, 1000, 1, 1000), [](Rng& r, uint64_t) { return r.below(3) == 0 ? 1u : 0u; }, 3);
    add_acor("hi1", params(2, 1, 2, 2, 0, 0), [](Rng& r, uint64_t) { return r.below(2); }, 4);
    Rng pr(7, StreamKind::Traffic, 1);
    for (int k = 0; k < 9; ++k) {
      const uint32_t it1 = 1 + pr.below(40), it2 = 1 + pr.below(400);
      add_acor("random-" + std::to_string(k),
               params(2 + pr.below(2), 1 + pr.below(64), it1, it2, pr.below(it1 + 1), pr.below(it2 + 1)),
               [](Rng& r, uint64_t c) {
                 if (c % 997 == 5) return 0xFFFF'FFF0u;  // saturating sums at the 32-bit edge
                 return r.below(6) == 0 ? r.below(20) : 0u;
               },
               100 + static_cast<uint64_t>(k));
    }
    m_pb.reserve(6 * kPbPortsMax);  // the flag callbacks hold the elements' addresses
    for (int h = 1; h <= kPbPortsMax; ++h) {
      const uint32_t settings[][2] = {{120, 5}, {100, 0}, {1, 0}, {kCgMax, kTgMax}, {150, 64}, {180, 1}};
      for (const auto& s : settings) add_pb(h, s[0], s[1]);
    }
    Rng br(11, StreamKind::Traffic, 3);
    for (int h = 1; h <= kPbPortsMax; ++h) {
      // C_g in [50 h, 100 h) and within its 10 bits (flags possible at every h), T_g small.
      const uint32_t cg = std::min(kCgMax, 50 * static_cast<uint32_t>(h) + br.below(50 * static_cast<uint32_t>(h)));
      auto b = std::make_unique<BarePb>("bare_pb_" + std::to_string(h), h, cg, br.below(40),
                                        2000 + static_cast<uint64_t>(h));
      m_bare.push_back(std::move(b));
    }
  }

  std::vector<AcorCase>& acor() { return m_acor; }
  std::vector<PbCase>& pb() { return m_pb; }
  std::vector<std::unique_ptr<BarePb>>& bare() { return m_bare; }
  const std::string& failure() const { return m_failure; }
  uint64_t cycles() const { return m_cycle; }

 private:
  void add_acor(const std::string& what, const AcorLevelParams& p, Draw draw, uint64_t seed) {
    AcorCase c{what, std::move(draw), make_rtl_level_ctrl(p, "acor_" + what),
               std::make_unique<AcorLevelCtrl>(p), Rng(seed, StreamKind::Traffic, 99)};
    m_acor.push_back(std::move(c));
  }
  void add_pb(int h, uint32_t cg, uint32_t tg) {
    const size_t n = static_cast<size_t>(h);
    m_pb.push_back(PbCase{h, cg, tg, nullptr, std::vector<uint32_t>(n, 0), std::vector<uint32_t>(n, 0),
                          std::vector<uint32_t>(n, 0), Rng(1000 + m_pb.size(), StreamKind::Traffic, 6)});
    PbCase* cp = &m_pb.back();
    cp->dut = make_rtl_pb_detector(h, cg, tg,
                                   [cp](const uint32_t* f) {
                                     for (int j = 0; j < cp->h; ++j) {
                                       cp->flags[static_cast<size_t>(j)] = f[j];
                                       cp->flags_set += f[j];
                                     }
                                   },
                                   "pb_" + std::to_string(m_pb.size()));
  }

  bool fail(const std::string& what) {
    if (m_failure.empty()) m_failure = what;
    return false;
  }

 public:
  bool tick_all() {
    const uint64_t c = m_cycle++;
    for (AcorCase& a : m_acor) {
      a.levels_seen |= 1U << a.ref->level();
      const uint32_t b = a.draw(a.rng, c);
      a.dut->step(b);
      a.ref->step(b);
      if (a.dut->level() != a.ref->level() || a.dut->counter() != a.ref->counter() ||
          a.dut->timer() != a.ref->timer()) {
        std::ostringstream os;
        os << a.what << ": after cycle " << c << " RTL level/counter/timer " << a.dut->level() << "/"
           << a.dut->counter() << "/" << a.dut->timer() << ", C++ " << a.ref->level() << "/" << a.ref->counter()
           << "/" << a.ref->timer();
        return fail(os.str());
      }
    }
    for (PbCase& p : m_pb) {
      const uint64_t n = c;
      uint64_t sum = 0;
      for (auto& x : p.q) {
        x = n % 9 == 0 ? kQueueMax : n % 13 == 0 ? 0 : p.rng.below(n % 2 ? 64 : 65536);
        sum += x;
      }
      if (n % 7 == 0) {  // one hot port, the others empty or nearly
        for (auto& x : p.q) x = p.rng.below(2);
        p.q[p.rng.below(static_cast<uint32_t>(p.h))] = n % 14 == 0 ? kQueueMax : 1 + p.rng.below(1000);
        sum = 0;
        for (uint32_t x : p.q) sum += x;
      }
      if (n % 4 == 0) {  // near the threshold, where an off-by-one would show
        const int64_t edge = static_cast<int64_t>(sum / static_cast<uint64_t>(p.h) * p.cg / 100 + p.tg);
        p.q[0] = sat_queue(static_cast<uint64_t>(std::max<int64_t>(0, edge + p.rng.below(5) - 2)));
      }
      sum = 0;
      for (uint32_t x : p.q) sum += x;
      for (int j = 0; j < p.h; ++j)
        p.expected[static_cast<size_t>(j)] =
            pb_saturated(p.q[static_cast<size_t>(j)], sum, static_cast<uint32_t>(p.h), p.cg, p.tg) ? 1U : 0U;
      p.dut->drive(p.q.data());
      if (p.flags != p.expected) {
        std::ostringstream os;
        os << "pb H=" << p.h << " cg " << p.cg << " tg " << p.tg << ": cycle " << c << " q";
        for (uint32_t x : p.q) os << ' ' << x;
        os << " RTL flags";
        for (uint32_t x : p.flags) os << ' ' << x;
        os << " C++";
        for (uint32_t x : p.expected) os << ' ' << x;
        return fail(os.str());
      }
    }
    for (auto& bp : m_bare) {
      BarePb& b = *bp;
      uint64_t sum = 0;
      // Random; all full; or one hot port of the h with the others nearly empty, while the
      // ports beyond h stay full of junk (were they summed, the hot port would not be flagged).
      const bool hot = c % 5 == 0;
      for (int j = 0; j < kPbPortsMax; ++j) {
        b.q[j] = c % 11 == 0 ? kQueueMax : b.rng.below(c % 3 == 0 ? 65536 : 48);
        if (hot) b.q[j] = j < b.h ? b.rng.below(4) : 30000 + b.rng.below(35536);
      }
      if (hot) b.q[b.rng.below(static_cast<uint32_t>(b.h))] = 1000 + b.rng.below(64536);
      for (int j = 0; j < b.h; ++j) sum += b.q[j];
      uint32_t expected = 0;
      for (int j = 0; j < kPbPortsMax; ++j) {
        if (j < b.h && pb_saturated(b.q[j], sum, static_cast<uint32_t>(b.h), b.cg, b.tg)) expected |= 1U << j;
        if (j % 2 == 1) b.v->q_i[static_cast<size_t>(j / 2)] = b.q[j - 1] | (b.q[j] << 16);
      }
      b.v->eval();
      const uint32_t got = b.v->sat_o;
      if (got != expected) {
        std::ostringstream os;
        os << "bare pb h=" << b.h << " cg " << b.cg << " tg " << b.tg << ": cycle " << c << " q";
        for (uint32_t x : b.q) os << ' ' << x;
        os << " RTL flags 0x" << std::hex << got << ", C++ 0x" << expected;
        return fail(os.str());
      }
      b.flags_set += static_cast<uint64_t>(__builtin_popcount(got));
    }
    return true;
  }

 private:
  std::vector<AcorCase> m_acor;
  std::vector<PbCase> m_pb;
  std::vector<std::unique_ptr<BarePb>> m_bare;
  std::string m_failure;
  uint64_t m_cycle = 0;
};

}  // namespace

TEST(RtlAcorPbBlocks, MatchTheCppUnitsCycleByCycle) {
  Testbench tb;
  while (tb.cycles() < kCycles && tb.tick_all()) {
  }
  ASSERT_EQ(tb.failure(), "");
  EXPECT_GE(tb.cycles(), kCycles);
  // The stimulus exercised the blocks: the Table 3 controller climbed to its top level, and
  // the detectors raised flags on every setting where a link can exceed C_g x mean + T_g
  // (C_g < 100 H and T_g below the largest occupancy) and never on the others.
  EXPECT_EQ(tb.acor()[0].levels_seen, 0b111U);
  EXPECT_EQ(tb.acor()[1].levels_seen, 0b11U);
  for (const PbCase& p : tb.pb()) {
    const bool possible = p.cg < 100U * static_cast<uint32_t>(p.h) && p.tg < kQueueMax;
    EXPECT_EQ(p.flags_set > 0, possible) << "H=" << p.h << " cg " << p.cg << " tg " << p.tg;
  }
  for (const auto& b : tb.bare()) EXPECT_GT(b->flags_set, 0U) << "bare h=" << b->h;
}

}  // namespace scfly
