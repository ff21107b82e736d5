// The switch's link-level flow control state as parts of their own, plain C++ (no
// SystemC): the credit counter of an output VC and the PFC pause state of an input VC.
// They are the C++ reference of the flow-control RTL twin (rtl_models/verilog/flow_control.sv,
// issue 49) and what a testbench's sender keeps (tb/switch_bench.h).
#pragma once

#include <cstdint>

#include "scfly_widths.h"

namespace scfly {

// The largest buffer the config takes (switch.input_buffer: 1 to 10^7 phits; a test of
// the RTL twin checks the config refuses one phit more), and so the largest credit count,
// PFC occupancy and threshold. The SystemVerilog twin (rtl_models/verilog/flow_control.sv)
// holds them in CreditBits (rtl_models/interface/widths.def).
inline constexpr uint32_t kMaxBufferPhits = 10'000'000;
static_assert(kMaxBufferPhits <= (1u << kCreditBits) - 1, "buffers, credits and PFC thresholds fit widths.def CreditBits");

// Credit-based flow control (HPC), per output VC: the free phits of the downstream input VC.
// A packet starts on the link only with credits for all of it (virtual cut-through); each
// phit sent spends one; each credit the downstream VC returns lands after the link latency.
//
// Lazy landing (the switch's speed path): a run of `count` credits landing one per cycle
// from cycle `first` may be taken whole at its first landing, provided no earlier run is
// still landing and the counter cannot exceed the buffer; `at(now)` hides the credits of
// that run still to land, so every reader sees, at every cycle, what taking one credit per
// cycle would show. `credits` alone (the traced value) runs ahead by those.
//
// Why at(t) is the RTL's counter (flow_control.sv, which lands each credit the cycle it
// arrives: cap - spent before t + landed by t) in every cycle t the switch reads it, given
// what the switch guarantees: one credit of a VC lands per cycle at most (runs of a VC do
// not overlap), and every credit landed by t has been passed to land() by t (a sleeping
// switch reads nothing and takes what landed meanwhile when it wakes). `credits` is
// cap - spent + taken; a taken credit has landed unless it belongs to a run taken whole
// ahead of its landing. A run is taken ahead only when the last one taken ahead has landed
// (last <= now), so at most one run is ahead at a time, and its credits land one per cycle
// through `last`: last - t of them are still to land at t, which at(t) subtracts. The
// overflow flags agree too: when nothing is ahead, credits = at(t); while a run is ahead,
// its take kept credits <= cap, spends only lower it, and no other run of the VC can land
// before `last` (one credit per cycle), so credits <= cap and at(t) <= credits: neither
// flags. (Several credits of a VC landing in one cycle, which switch.credit_return packet,
// switch.crossbar transfer and the CHAOS multiqueue send, break that last step: a
// duplicated credit during a run taken ahead is then flagged here while the counter may
// still be within cap.) tests/test_rtl_flow_control.cpp checks all of it against the RTL.
struct CreditCounter {
  int32_t credits = 0;  // free phits downstream, including those taken ahead of landing
  int32_t cap = 0;      // the downstream buffer; 0: no counter (toward a host, the sink never back-pressures)
  uint64_t last = 0;    // landing cycle of the last credit taken ahead

  void reset(int32_t buffer) {
    cap = credits = buffer;
    last = 0;
  }
  bool counted() const { return cap != 0; }
  // The credits landed by the end of cycle `now`.
  int32_t at(uint64_t now) const { return credits - (last > now ? static_cast<int32_t>(last - now) : 0); }
  // A packet of `phits` may start (or, inside the credit loop, be granted) at cycle `now`.
  bool room(uint64_t now, uint32_t phits) const { return at(now) >= static_cast<int32_t>(phits); }
  void spend(uint32_t n) { credits -= static_cast<int32_t>(n); }
  // A run of `count` credits landing one per cycle from `first`, `due` of them by `now`:
  // takes `due`, or all `count` when `lazy` allows it (see above). Returns how many it took.
  uint32_t land(uint64_t now, uint64_t first, uint32_t due, uint32_t count, bool lazy) {
    uint32_t n = due;
    if (lazy && count > due && last <= now && credits + static_cast<int64_t>(count) <= cap) {
      n = count;
      last = first + count - 1;
    }
    credits += static_cast<int32_t>(n);
    return n;
  }
  // More credits than the buffer holds: a lost or duplicated credit (a simulation error).
  bool overflow() const { return credits > cap; }
};

// Priority Flow Control (802.1Qbb), per input VC: PAUSE to the sender when the VC's
// occupancy reaches XOFF, RESUME when it falls back to XON (<= XOFF), each sent once per
// crossing. `xoff` is 1 while the sender is paused (the traced value).
struct PfcInput {
  uint32_t xoff = 0;
  // After phits were filed: true if PAUSE must be sent now.
  bool filled(uint32_t occupancy, uint32_t xoff_at) {
    if (xoff || occupancy < xoff_at) return false;
    xoff = 1;
    return true;
  }
  // After phits left: true if RESUME must be sent now.
  bool drained(uint32_t occupancy, uint32_t xon_at) {
    if (!xoff || occupancy > xon_at) return false;
    xoff = 0;
    return true;
  }
};

}  // namespace scfly
