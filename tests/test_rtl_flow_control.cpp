// RTL == C++ for the switch's link-level flow control: flow_control.sv (one port, 4 VCs)
// against the parts CreditCounter and PfcInput (rtl_models/switch/parts/flow_control.h) in
// lockstep, the same observable state every cycle:
//  - per output VC, the credits every reader sees (CreditCounter::at(now) against
//    credits_o), room for a packet (room(now, phits) against room_o) and the overflow flag
//    (overflow() against overflow_o), after the cycle's landing and before its spend;
//  - per input VC, the PAUSE and RESUME pulses (PfcInput::filled / drained against pause_o
//    / resume_o) and, after the clock edge, the paused flag (xoff against xoff_o).
// The C++ counter is fed as the switch feeds it: credit runs through the switch's own
// CreditLine (rtl_models/switch/link.h) and CreditCounter::land, lazily (whole runs taken
// at their first landing, the switch's speed path) or not (a traced switch), with sleeping
// spells in which the switch reads nothing and takes what landed when it wakes; the RTL
// lands each credit in the cycle it arrives. Downstream returns what was spent as runs of
// random length and latency (one credit per cycle per VC, runs of a VC not overlapping);
// in some configurations (`multi`) the runs of a VC overlap and the counter takes them as a
// co-simulating switch does (--rtl flow_control: no lazy landing, the credits taken in a
// cycle handed to the RTL as one count), so that several credits of a VC land in one cycle,
// as with switch.credit_return packet, switch.crossbar transfer and a switch waking up;
// senders spend a packet's phits at once (the output buffer inside the credit loop) or one
// per cycle after the head's room check; some configurations duplicate or lose credits,
// so the overflow flags are compared while they are up. Occupancies of the input VCs
// wander up and down across random XOFF/XON thresholds (XON = XOFF and XOFF - 1 among
// them, where a PAUSE and a RESUME fall in one cycle).
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <random>
#include <string>
#include <type_traits>

#include "Vflow_control_v4.h"
#include "rtl_models/switch/link.h"
#include "rtl_models/switch/parts/flow_control.h"
#include "scfly_widths.h"
#include "tests/config_error.h"
#include "verilated.h"

namespace scfly {
namespace {

constexpr int V = 4;                 // the Verilated instance's VCs (-GV=4)
constexpr int CB = kCreditBits;      // counts, occupancies, thresholds
constexpr int UB = kCreditBits + 1;  // credits seen
constexpr int LB = kCreditLandBits;  // credits landing in one cycle
constexpr uint32_t kCountMax = (1u << kCreditBits) - 1;

// A field of a Verilated port: an integer up to 64 bits, a VlWide beyond.
template <class T>
void put(T& port, int lsb, int width, uint64_t v) {
  for (int i = 0; i < width; ++i) {
    const int b = lsb + i;
    const uint32_t bit = static_cast<uint32_t>((v >> i) & 1u);
    if constexpr (std::is_integral_v<T>) {
      port = static_cast<T>((static_cast<uint64_t>(port) & ~(1ULL << b)) | (static_cast<uint64_t>(bit) << b));
    } else {
      uint32_t& w = port[static_cast<size_t>(b / 32)];
      w = (w & ~(1u << (b % 32))) | (bit << (b % 32));
    }
  }
}
template <class T>
uint64_t get(const T& port, int lsb, int width) {
  uint64_t v = 0;
  for (int i = 0; i < width; ++i) {
    const int b = lsb + i;
    uint64_t bit;
    if constexpr (std::is_integral_v<T>) bit = (static_cast<uint64_t>(port) >> b) & 1u;
    else bit = (port[static_cast<size_t>(b / 32)] >> (b % 32)) & 1u;
    v |= bit << i;
  }
  return v;
}

// One cycle's inputs of one VC (its output VC's credits and its input VC's PFC state).
struct VcIn {
  uint32_t land = 0;      // credits landing (a count)
  uint32_t phits = 0;     // the packet room is asked for
  uint32_t spend = 0;     // phits spent (after the reads)
  uint32_t occ = 0;       // input VC occupancy at the start of the cycle
  bool fill = false, drain = false;
};

// The Verilated block.
struct Rtl {
  Vflow_control_v4& dut;
  explicit Rtl(Vflow_control_v4& d) : dut(d) {}

  void reset(const std::array<uint32_t, V>& cap, uint32_t xoff_at, uint32_t xon_at) {
    for (int v = 0; v < V; ++v) {
      put(dut.cap_i, v * CB, CB, cap[static_cast<size_t>(v)]);
      put(dut.phits_i, v * CB, CB, 0);
      put(dut.spend_i, v * CB, CB, 0);
      put(dut.occ_i, v * CB, CB, 0);
    }
    for (int v = 0; v < V; ++v) put(dut.land_i, v * LB, LB, 0);
    dut.fill_i = dut.drain_i = 0;
    dut.xoff_at_i = xoff_at;
    dut.xon_at_i = xon_at;
    // A falling edge of the reset (a model fresh from construction holds 0 on it).
    dut.clk_i = 0;
    dut.rst_ni = 1;
    dut.eval();
    dut.rst_ni = 0;
    dut.eval();
    dut.rst_ni = 1;
    dut.eval();
  }
  // The cycle's landings, room questions and PFC events (no spend yet), evaluated.
  void drive(const std::array<VcIn, V>& in) {
    for (int v = 0; v < V; ++v) {
      const VcIn& x = in[static_cast<size_t>(v)];
      put(dut.land_i, v * LB, LB, x.land);
      put(dut.phits_i, v * CB, CB, x.phits);
      put(dut.spend_i, v * CB, CB, 0);
      put(dut.occ_i, v * CB, CB, x.occ);
      put(dut.fill_i, v, 1, x.fill);
      put(dut.drain_i, v, 1, x.drain);
    }
    dut.eval();
  }
  // The cycle's spends, then the rising edge; the clock falls in the next evaluation.
  void spend_and_edge(const std::array<VcIn, V>& in) {
    for (int v = 0; v < V; ++v) put(dut.spend_i, v * CB, CB, in[static_cast<size_t>(v)].spend);
    dut.eval();
    dut.clk_i = 1;
    dut.eval();
    dut.clk_i = 0;
  }
  int64_t credits(int v) const { return static_cast<int64_t>(get(dut.credits_o, v * UB, UB)); }
  bool room(int v) const { return get(dut.room_o, v, 1); }
  bool overflow(int v) const { return get(dut.overflow_o, v, 1); }
  bool pause(int v) const { return get(dut.pause_o, v, 1); }
  bool resume(int v) const { return get(dut.resume_o, v, 1); }
  bool xoff(int v) const { return get(dut.xoff_o, v, 1); }
};

// The comparisons of one cycle, before the spends: credits seen, room, overflow; the PFC
// pulses (the C++ results given).
::testing::AssertionResult same_reads(const Rtl& rtl, const std::array<CreditCounter, V>& cr, uint64_t now,
                                      const std::array<VcIn, V>& in, const std::array<bool, V>& pause,
                                      const std::array<bool, V>& resume, bool credits_read) {
  for (int v = 0; v < V; ++v) {
    const CreditCounter& c = cr[static_cast<size_t>(v)];
    const VcIn& x = in[static_cast<size_t>(v)];
    if (credits_read) {
      if (c.at(now) != rtl.credits(v))
        return ::testing::AssertionFailure() << "cycle " << now << " VC " << v << ": credits " << c.at(now) << " in C++ ("
                                             << c.credits << " taken, last " << c.last << "), " << rtl.credits(v) << " in RTL";
      if (c.room(now, x.phits) != rtl.room(v))
        return ::testing::AssertionFailure() << "cycle " << now << " VC " << v << ": room for " << x.phits << " phits "
                                             << c.room(now, x.phits) << " in C++, " << rtl.room(v) << " in RTL";
      if (c.overflow() != rtl.overflow(v))
        return ::testing::AssertionFailure() << "cycle " << now << " VC " << v << ": overflow " << c.overflow()
                                             << " in C++ (credits " << c.credits << ", cap " << c.cap << "), "
                                             << rtl.overflow(v) << " in RTL (credits " << rtl.credits(v) << ")";
    }
    if (pause[static_cast<size_t>(v)] != rtl.pause(v) || resume[static_cast<size_t>(v)] != rtl.resume(v))
      return ::testing::AssertionFailure() << "cycle " << now << " VC " << v << " (occupancy " << x.occ << ", fill "
                                           << x.fill << ", drain " << x.drain << "): PAUSE/RESUME "
                                           << pause[static_cast<size_t>(v)] << "/" << resume[static_cast<size_t>(v)]
                                           << " in C++, " << rtl.pause(v) << "/" << rtl.resume(v) << " in RTL";
  }
  return ::testing::AssertionSuccess();
}

long env_long(const char* name, long dflt) {
  const char* s = std::getenv(name);
  if (!s || !*s) return dflt;
  char* end = nullptr;
  const long v = std::strtol(s, &end, 10);
  return (end && *end == 0 && v > 0) ? v : dflt;
}

uint64_t below(std::mt19937_64& g, uint64_t n) { return g() % n; }

// A run of credits landing one per cycle from `first` (the RTL's landing schedule).
struct Run {
  uint64_t first;
  uint32_t count;
};

struct Counts {
  long cycles = 0, read_cycles = 0, landed = 0, multi_landings = 0, taken_ahead = 0, partly_due = 0, spends = 0, room_yes = 0,
       room_no = 0, overflow_cycles = 0, dup = 0, lost = 0, pauses = 0, resumes = 0, both = 0;
};

// One configuration of the port, `cycles` cycles from reset.
::testing::AssertionResult random_segment(Rtl& rtl, std::mt19937_64& g, long cycles, Counts& n) {
  // The configuration.
  std::array<uint32_t, V> cap{};
  for (int v = 0; v < V; ++v) {
    const uint64_t k = below(g, 10);
    cap[static_cast<size_t>(v)] = k == 0 ? (below(g, 2) ? kCountMax : kMaxBufferPhits)  // the widths' limits
                                  : k < 4 ? static_cast<uint32_t>(1 + below(g, 8))        // tight: room often short
                                          : static_cast<uint32_t>(8 + below(g, 120));
  }
  const bool multi = below(g, 3) == 0;          // overlapping runs, counts landing (--rtl flow_control)
  const bool lazy = !multi && below(g, 4) != 0; // the switch's speed path, or a traced switch
  const bool inside = below(g, 2) != 0;         // spend a packet at once (output buffer inside the loop)
  const uint32_t max_pkt = static_cast<uint32_t>(1 + below(g, 12));
  const uint64_t max_lat = 1 + below(g, 40);    // downstream's latency to return a credit
  const bool faulty = below(g, 5) == 0;         // duplicated and lost credits
  const uint32_t buf = static_cast<uint32_t>(4 + below(g, 60));  // input VC depth (PFC)
  const uint32_t xoff_at = static_cast<uint32_t>(1 + below(g, buf));
  const uint64_t k = below(g, 4);
  const uint32_t xon_at = k == 0 ? xoff_at : k == 1 ? xoff_at - 1 : static_cast<uint32_t>(below(g, xoff_at + 1));
  rtl.reset(cap, xoff_at, xon_at);

  std::array<CreditCounter, V> cr;
  for (int v = 0; v < V; ++v) cr[static_cast<size_t>(v)].reset(static_cast<int32_t>(cap[static_cast<size_t>(v)]));
  CreditLine line;                      // the switch's: runs as the C++ part takes them
  std::array<std::deque<Run>, V> sched;  // the same landings, for the RTL
  std::array<uint64_t, V> next_free{};   // the cycle after the last scheduled credit of the VC
  std::array<uint32_t, V> owed{};        // spent, not yet on its way back
  std::array<uint32_t, V> sending{};     // phits of a packet still to send one per cycle
  std::array<uint32_t, V> pkt{};         // the packet each output VC asks room for
  std::array<PfcInput, V> pfc{};
  std::array<uint32_t, V> occ{};
  std::array<bool, V> rising{};
  uint64_t asleep_until = 0;
  const uint64_t p_sleep = 20 + below(g, 200);

  for (uint64_t now = 1; now <= static_cast<uint64_t>(cycles); ++now) {
    std::array<VcIn, V> in{};
    // Downstream: return some of what was spent as a run, after a latency, not overlapping
    // the VC's earlier runs; now and then a credit too many or one lost.
    for (int v = 0; v < V; ++v) {
      const size_t s = static_cast<size_t>(v);
      uint32_t run = 0;
      if (owed[s] > 0 && below(g, 3) == 0) {
        run = static_cast<uint32_t>(1 + below(g, owed[s]));
        owed[s] -= run;
        if (faulty && below(g, 20) == 0) {
          --run;  // a lost credit
          ++n.lost;
        }
      }
      if (faulty && below(g, 300) == 0) {
        ++run;  // a duplicated one
        ++n.dup;
      }
      if (run == 0) continue;
      const uint64_t first = multi ? now + 1 + below(g, max_lat) : std::max(now + 1 + below(g, max_lat), next_free[s]);
      line.push(first, static_cast<uint8_t>(v), FlowMsg::Credit, run);
      sched[s].push_back(Run{first, run});
      next_free[s] = first + run;
    }
    // The RTL lands each credit in its cycle (multi: what the C++ counter takes, below).
    for (int v = 0; v < V && !multi; ++v) {
      std::deque<Run>& q = sched[static_cast<size_t>(v)];
      while (!q.empty() && q.front().first + q.front().count <= now) q.pop_front();
      in[static_cast<size_t>(v)].land = !q.empty() && q.front().first <= now;
      n.landed += in[static_cast<size_t>(v)].land;
    }
    // Asleep: nothing sent, nothing read, credits left in the line (a switch sleeps only
    // with nothing to send).
    bool idle = true;
    for (uint32_t s : sending) idle = idle && s == 0;
    if (now >= asleep_until && idle && below(g, p_sleep) == 0) asleep_until = now + 1 + below(g, 60);
    const bool awake = now >= asleep_until;
    // The C++ counter takes what is due (the whole run when lazy allows it).
    if (awake) {
      line.take(now, [&](uint8_t v, FlowMsg, uint64_t first, uint32_t due, uint32_t count) -> uint32_t {
        const uint32_t got = cr[v].land(now, first, due, count, lazy);
        if (multi) in[v].land += got;
        n.taken_ahead += got > due;
        n.partly_due += first < now && due < count;
        return got;
      });
    }
    if (multi)
      for (int v = 0; v < V; ++v) {
        n.landed += in[static_cast<size_t>(v)].land;
        n.multi_landings += in[static_cast<size_t>(v)].land > 1;
      }
    // PFC: the input VCs' occupancy wanders up and down across XOFF and XON.
    std::array<bool, V> pause{}, resume{};
    for (int v = 0; v < V; ++v) {
      const size_t s = static_cast<size_t>(v);
      if (occ[s] == 0 || occ[s] >= buf || below(g, 50) == 0) rising[s] = occ[s] < buf && (occ[s] == 0 || below(g, 2));
      VcIn& x = in[s];
      x.occ = occ[s];
      x.fill = occ[s] < buf && below(g, 10) < (rising[s] ? 8u : 2u);
      x.drain = occ[s] + x.fill > 0 && below(g, 10) < (rising[s] ? 3u : 8u);
      if (x.fill) pause[s] = pfc[s].filled(occ[s] + 1, xoff_at);
      occ[s] = occ[s] + x.fill - x.drain;
      if (x.drain) resume[s] = pfc[s].drained(occ[s], xon_at);
      n.pauses += pause[s];
      n.resumes += resume[s];
      n.both += pause[s] && resume[s];
    }
    // Room asked for the packet at each output VC's head (sometimes just the credits seen,
    // or one more).
    for (int v = 0; v < V; ++v) {
      const size_t s = static_cast<size_t>(v);
      if (pkt[s] == 0) pkt[s] = static_cast<uint32_t>(1 + below(g, std::min(max_pkt, cap[s])));
      const int32_t seen = cr[s].at(now);
      const uint64_t k2 = below(g, 8);
      in[s].phits = k2 == 0 ? static_cast<uint32_t>(std::max(seen, 0)) : k2 == 1 ? static_cast<uint32_t>(std::max(seen, 0)) + 1 : pkt[s];
      if (in[s].phits > kCountMax) in[s].phits = kCountMax;
    }
    rtl.drive(in);
    ::testing::AssertionResult same = same_reads(rtl, cr, now, in, pause, resume, awake);
    if (!same) return same;
    ++n.cycles;
    if (awake) {
      ++n.read_cycles;
      for (int v = 0; v < V; ++v) {
        n.room_yes += rtl.room(v);
        n.room_no += !rtl.room(v);
        n.overflow_cycles += rtl.overflow(v);
      }
      // Spends: a packet's phits at once, or one per cycle once its head had room.
      for (int v = 0; v < V; ++v) {
        const size_t s = static_cast<size_t>(v);
        VcIn& x = in[s];
        if (sending[s] > 0) {
          x.spend = 1;
          --sending[s];
        } else if (in[s].phits == pkt[s] && cr[s].room(now, pkt[s]) && below(g, 3) != 0) {
          x.spend = inside ? pkt[s] : 1;
          sending[s] = inside ? 0 : pkt[s] - 1;
          pkt[s] = 0;
        }
        if (x.spend) {
          cr[s].spend(x.spend);
          owed[s] += x.spend;
          ++n.spends;
        }
      }
    }
    rtl.spend_and_edge(in);
    for (int v = 0; v < V; ++v)
      if (pfc[static_cast<size_t>(v)].xoff != rtl.xoff(v))
        return ::testing::AssertionFailure() << "cycle " << now << " VC " << v << ": paused " << pfc[static_cast<size_t>(v)].xoff
                                             << " in C++, " << rtl.xoff(v) << " in RTL after the edge";
  }
  return ::testing::AssertionSuccess();
}

TEST(RtlFlowControl, LockstepWithTheCppPartsOnRandomTraffic) {
  const long total = env_long("SCFLY_RTL_FC_CYCLES", 100000);
  Vflow_control_v4 dut(Verilated::threadContextp());  // the thread's context (see test_rtl_min_route.cpp)
  Rtl rtl(dut);
  std::mt19937_64 g(20261129);
  Counts n;
  long segments = 0;
  while (n.cycles < total) {
    const long len = std::min<long>(total - n.cycles, 500 + static_cast<long>(below(g, 3000)));
    ++segments;
    ASSERT_TRUE(random_segment(rtl, g, len, n)) << "configuration " << segments;
  }
  std::printf("[ flow_control ] %ld cycles in %ld configurations, %ld with the credits read; credits landed %ld, "
              "%ld landings of several credits of a VC, runs taken ahead %ld, partly due at a wake-up %ld; spends %ld; room %ld yes / %ld no; overflow "
              "%ld VC-cycles (%ld credits duplicated, %ld lost); PAUSE %ld, RESUME %ld, both in one cycle %ld\n",
              n.cycles, segments, n.read_cycles, n.landed, n.multi_landings, n.taken_ahead, n.partly_due, n.spends, n.room_yes,
              n.room_no, n.overflow_cycles, n.dup, n.lost, n.pauses, n.resumes, n.both);
  // The comparison saw every case.
  EXPECT_EQ(n.cycles, total);
  EXPECT_LT(n.read_cycles, n.cycles);          // sleeping spells
  EXPECT_GT(n.taken_ahead, total / 100);       // lazy landing
  EXPECT_GT(n.multi_landings, total / 100);    // several credits of a VC in one cycle
  EXPECT_GT(n.partly_due, 0);                  // runs partly landed while asleep
  EXPECT_GT(n.room_no, total / 20);            // room refused ...
  EXPECT_GT(n.room_yes, total / 20);           // ... and given
  EXPECT_GT(n.overflow_cycles, 0);             // the flag up, in both
  EXPECT_GT(n.pauses, total / 100);
  EXPECT_GT(n.resumes, total / 100);
  EXPECT_GT(n.both, 0);
}

// One directed cycle: inputs of VC 0 (the others idle), both sides, compared.
struct Directed {
  Rtl rtl;
  CreditCounter cr;
  PfcInput pfc;
  uint32_t xoff_at, xon_at;
  uint64_t now = 1;
  Directed(Vflow_control_v4& dut, uint32_t cap, uint32_t xoff, uint32_t xon) : rtl(dut), xoff_at(xoff), xon_at(xon) {
    cr.reset(static_cast<int32_t>(cap));
    rtl.reset({cap, cap, cap, cap}, xoff, xon);
  }
  struct Seen {
    int64_t credits;
    bool room, overflow, pause, resume, xoff;
  };
  // land: credits landing now (taken at once, as a traced or co-simulating switch does);
  // spend after the reads.
  Seen cycle(uint32_t land, uint32_t phits, uint32_t spend, uint32_t occ = 0, bool fill = false, bool drain = false) {
    std::array<VcIn, V> in{};
    in[0] = VcIn{land, phits, spend, occ, fill, drain};
    if (land) cr.land(now, now, land, land, false);
    std::array<bool, V> pause{}, resume{};
    if (fill) pause[0] = pfc.filled(occ + 1, xoff_at);
    if (drain) resume[0] = pfc.drained(occ + fill - 1, xon_at);
    rtl.drive(in);
    const std::array<CreditCounter, V> all{cr, idle_counter(), idle_counter(), idle_counter()};
    const ::testing::AssertionResult same = same_reads(rtl, all, now, in, pause, resume, true);
    EXPECT_TRUE(same);
    Seen s{rtl.credits(0), rtl.room(0), rtl.overflow(0), rtl.pause(0), rtl.resume(0), false};
    cr.spend(spend);
    rtl.spend_and_edge(in);
    s.xoff = rtl.xoff(0);
    EXPECT_EQ(s.xoff, pfc.xoff != 0) << "cycle " << now;
    ++now;
    return s;
  }
  // The idle VCs: full counters.
  CreditCounter idle_counter() const {
    CreditCounter c;
    c.reset(cr.cap);
    return c;
  }
};

// PAUSE in the cycle the occupancy reaches XOFF (not one phit earlier, once while it stays
// at or above), RESUME in the cycle it falls to XON (not one phit earlier, once).
TEST(RtlFlowControl, PauseExactlyAtXoffResumeExactlyAtXon) {
  Vflow_control_v4 dut(Verilated::threadContextp());
  Directed d(dut, 16, 10, 6);
  uint32_t occ = 7;
  // Filling: 8, 9 (nothing), 10 (PAUSE), 11 and 12 (nothing more).
  EXPECT_FALSE(d.cycle(false, 1, 0, occ++, true).pause);
  EXPECT_FALSE(d.cycle(false, 1, 0, occ++, true).pause);
  Directed::Seen s = d.cycle(false, 1, 0, occ++, true);
  EXPECT_TRUE(s.pause);
  EXPECT_TRUE(s.xoff);
  EXPECT_FALSE(d.cycle(false, 1, 0, occ++, true).pause);
  EXPECT_FALSE(d.cycle(false, 1, 0, occ++, true).pause);
  EXPECT_EQ(occ, 12u);
  // Draining: 11 .. 7 (nothing, still paused), 6 (RESUME), 5 (nothing).
  for (; occ > 7; --occ) {
    s = d.cycle(false, 1, 0, occ, false, true);
    EXPECT_FALSE(s.resume) << "occupancy " << occ - 1;
    EXPECT_TRUE(s.xoff);
  }
  s = d.cycle(false, 1, 0, occ--, false, true);
  EXPECT_TRUE(s.resume);
  EXPECT_FALSE(s.xoff);
  EXPECT_FALSE(d.cycle(false, 1, 0, occ--, false, true).resume);
  // Filed and left in one cycle at XOFF - 1 with XON = XOFF - 1: PAUSE and RESUME together.
  Directed e(dut, 16, 10, 9);
  s = e.cycle(false, 1, 0, 9, true, true);
  EXPECT_TRUE(s.pause);
  EXPECT_TRUE(s.resume);
  EXPECT_FALSE(s.xoff);
}

// A duplicated credit: the counter exceeds the buffer, overflow in both, until spends bring
// it back (the flag is the state's, as CreditCounter::overflow() is; the switch stops the
// run at the first one). At the widths' limit the excess credit is counted, not wrapped.
TEST(RtlFlowControl, ADuplicatedCreditIsAnOverflow) {
  Vflow_control_v4 dut(Verilated::threadContextp());
  {
    Directed d(dut, 4, 1, 0);
    EXPECT_EQ(d.cycle(false, 4, 2).credits, 4);  // spends 2
    EXPECT_FALSE(d.cycle(1, 4, 0).room);      // 3 landed
    Directed::Seen s = d.cycle(1, 4, 0);      // 4: the buffer
    EXPECT_TRUE(s.room);
    EXPECT_FALSE(s.overflow);
    s = d.cycle(1, 4, 0);  // a duplicated credit
    EXPECT_EQ(s.credits, 5);
    EXPECT_TRUE(s.overflow);
    EXPECT_TRUE(d.cr.overflow());
    s = d.cycle(false, 5, 1);  // still 5 seen; 1 spent after the reads
    EXPECT_TRUE(s.overflow);
    s = d.cycle(false, 5, 0);
    EXPECT_EQ(s.credits, 4);
    EXPECT_FALSE(s.overflow);
  }
  for (const uint32_t cap : {kMaxBufferPhits, kCountMax}) {
    Directed d(dut, cap, 1, 0);
    Directed::Seen s = d.cycle(1, kCountMax, 0);
    EXPECT_EQ(s.credits, static_cast<int64_t>(cap) + 1);
    EXPECT_TRUE(s.overflow);
    EXPECT_EQ(s.room, cap + 1 >= kCountMax);
    s = d.cycle(false, 1, 0);  // the flag holds
    EXPECT_TRUE(s.overflow);
  }
}

// Several credits of a VC landing in one cycle (a packet's credits at once, a transfer
// crossbar's S phits, what came back while the switch slept): counted in the cycle they land,
// room and overflow against the sum; a landing beyond the buffer flags overflow in that cycle.
TEST(RtlFlowControl, SeveralCreditsLandInOneCycle) {
  Vflow_control_v4 dut(Verilated::threadContextp());
  Directed d(dut, 10, 1, 0);
  EXPECT_EQ(d.cycle(0, 10, 10).credits, 10);  // a packet of 10 phits spent at its grant
  EXPECT_EQ(d.cycle(0, 3, 0).credits, 0);
  Directed::Seen s = d.cycle(3, 3, 3);  // 3 land: room for 3, spent at once
  EXPECT_EQ(s.credits, 3);
  EXPECT_TRUE(s.room);
  s = d.cycle(7, 8, 0);  // 7 land with 3 outstanding: 7 seen, no room for 8
  EXPECT_EQ(s.credits, 7);
  EXPECT_FALSE(s.room);
  EXPECT_FALSE(s.overflow);
  s = d.cycle(3, 10, 0);  // the last 3 land: the whole buffer
  EXPECT_EQ(s.credits, 10);
  EXPECT_TRUE(s.room);
  EXPECT_FALSE(s.overflow);
  // Spend 6, then 8 land in one cycle: 2 too many, flagged in the cycle they land.
  EXPECT_EQ(d.cycle(0, 1, 6).credits, 10);
  s = d.cycle(8, 1, 0);
  EXPECT_EQ(s.credits, 12);
  EXPECT_TRUE(s.overflow);
  EXPECT_TRUE(d.cr.overflow());
}

// The widths hold every buffer the config takes: switch.input_buffer up to kMaxBufferPhits
// (static_assert'ed within CreditBits in flow_control.h), one phit more refused.
TEST(RtlFlowControl, TheConfigKeepsBuffersWithinCreditBits) {
  EXPECT_EQ(config_error_of("switch: {input_buffer: {local: " + std::to_string(kMaxBufferPhits) + "}}"), "");
  const std::string e = config_error_of("switch: {input_buffer: {local: " + std::to_string(kMaxBufferPhits + 1) + "}}");
  EXPECT_NE(e.find("switch.input_buffer.local"), std::string::npos) << e;
  EXPECT_NE(e.find("10^7"), std::string::npos) << e;
}

// The simulation-only assertions (--assert) stop the model on a broken contract: a spend
// beyond the credits seen, XON above XOFF, a phit leaving an empty input VC, a landing that
// would wrap the outstanding-credit counter.
TEST(RtlFlowControlDeathTest, AssertionsStopTheModel) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  enum Bad { None, Overspend, XonAboveXoff, DrainEmpty, LandingWraps };
  const auto drive = [](Bad bad) {
    std::fflush(stdout);
    dup2(STDERR_FILENO, STDOUT_FILENO);  // Verilator prints the message on stdout
    VerilatedContext ctx;
    Vflow_control_v4 dut(&ctx);
    Rtl rtl(dut);
    rtl.reset({4, 4, 4, 4}, 3, bad == XonAboveXoff ? 4 : 2);
    std::array<VcIn, V> in{};
    in[1].spend = bad == Overspend ? 5 : 4;
    in[2].occ = bad == DrainEmpty ? 0 : 1;
    in[2].drain = true;
    rtl.drive(in);
    rtl.spend_and_edge(in);
    if (bad == LandingWraps) {  // 2^CreditBits - 1 credits too many held, then 2 more: below -2^CreditBits
      in = {};
      in[0].land = kCountMax;
      rtl.drive(in);
      rtl.spend_and_edge(in);
      EXPECT_TRUE(rtl.overflow(0));
      in[0].land = 2;
      rtl.drive(in);
      rtl.spend_and_edge(in);
    }
  };
  EXPECT_EXIT(
      {
        drive(None);
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "");
  EXPECT_DEATH(drive(Overspend), "output VC 1 spends 5 phits with 4 credits");
  EXPECT_DEATH(drive(XonAboveXoff), "XON 4 above XOFF 3");
  EXPECT_DEATH(drive(DrainEmpty), "input VC 2: a phit leaves an empty VC");
  EXPECT_DEATH(drive(LandingWraps), "output VC 0: a landing of 2 credits wraps the counter");
}

}  // namespace
}  // namespace scfly
