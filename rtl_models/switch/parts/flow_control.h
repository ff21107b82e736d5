// The switch's link-level flow control state as parts of their own, plain C++ (no
// SystemC): the credit counter of an output VC and the PFC pause state of an input VC.
// They are the C++ reference of the flow-control RTL twin (issue 49) and what a
// testbench's sender keeps (tb/switch_bench.h).
#pragma once

#include <cstdint>

namespace scfly {

// Credit-based flow control (HPC), per output VC: the free phits of the downstream input VC.
// A packet starts on the link only with credits for all of it (virtual cut-through); each
// phit sent spends one; each credit the downstream VC returns lands after the link latency.
//
// Lazy landing (the switch's speed path): a run of `count` credits landing one per cycle
// from cycle `first` may be taken whole at its first landing, provided no earlier run is
// still landing and the counter cannot exceed the buffer; `at(now)` hides the credits of
// that run still to land, so every reader sees, at every cycle, what taking one credit per
// cycle would show. `credits` alone (the traced value) runs ahead by those.
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
