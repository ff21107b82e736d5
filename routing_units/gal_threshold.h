// GAL's adaptive threshold controller: one per (source node, destination set).
//
// Paper (the GAL paper): Singh, Dally, Towles, Gupta, "Globally Adaptive Load-Balanced
// Routing on k-ary n-cubes" (Stanford University; published as "Globally Adaptive
// Load-Balanced Routing on Tori", IEEE Computer Architecture Letters, 2004), sec. IV.E and
// fn. 7. GAL sends a packet to its minimal injection queue while that queue holds fewer
// than T packets; a fixed T makes GAL unstable past saturation on benign traffic (everything
// turns non-minimal), so T adapts to the set's departure rate.
//
// Clocked definition (what a hardware block does every cycle, and the reference the tests
// hold this model to): D_t = packets that left the set's injection queues in cycle t. At
// the start of every cycle t that is a positive multiple of n2,
//   S_t  = D_{t-1} + ... + D_{t-n1}      (departures of the last n1 cycles)
//   dD   = S_t - S_{t-n2}
//   T    = dD < 0 ? min(T + 1, T_max) : max(T - 1, T_min)
// so falling throughput raises T (more minimal routing) and flat or rising throughput lowers
// it. Parameters (Fig. 14): T_min 2, T_max 128 (the queue depth), n1 50, n2 20; the initial
// T is not given (T_min here: a default where the paper is silent; docs/model.md explains
// it). With `adaptive` false T stays at its initial value (the fixed-threshold GAL of
// Fig. 13).
//
// A tie (dD = 0) lowers T in the rule as published (`tie` Lower, gal.tie: lower). In a
// steady state the two counts have the same mean, so ties make T drift to T_min and GAL
// unstable past saturation (docs/repro-gal.md). Two other readings of "if the throughput
// has decreased, increment T, else decrement it" are options: Hold (a tie leaves T
// unchanged; only a strict rise lowers T) and Raise (a tie raises T: T falls only when the
// departures rose, so a steady state drifts to T_max).
//
// Implementation: event-driven, so 64 x 64 controllers of an 8-ary 2-cube cost nothing
// while idle. departure(t) records a departure time; value(t) applies every update instant
// up to t from the recorded times (at most n1 + n2 cycles of them are kept); an idle span
// collapses to one step of (instants) decrements. Calls must come in nondecreasing t, and
// departure(t) before value(t) of the same cycle or after it: the update at t reads only
// departures before t.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace scfly {

// What an update with dD = 0 does (gal.tie).
enum class GalTie : uint8_t { Lower, Hold, Raise };

struct GalThresholdParams {
  uint32_t t_min = 2, t_max = 128;
  uint32_t n1 = 50, n2 = 20;
  uint32_t t0 = 2;        // initial T (and the fixed T when not adaptive)
  bool adaptive = true;
  GalTie tie = GalTie::Lower;
};

class GalThreshold {
 public:
  GalThreshold() = default;
  explicit GalThreshold(const GalThresholdParams& p) : m_t(p.t0) {}

  void departure(uint64_t t) {
    m_dep.push_back(t);
  }

  uint32_t value(uint64_t t, const GalThresholdParams& p) {
    if (!p.adaptive) return m_t;
    const uint64_t n1 = p.n1, n2 = p.n2;
    uint64_t u = m_next ? m_next : n2;  // next update instant not applied yet
    while (u <= t) {
      // Drop departures no update from u on can see: older than u - n2 - n1.
      const uint64_t horizon = u >= n1 + n2 ? u - n1 - n2 : 0;
      while (m_head < m_dep.size() && m_dep[m_head] < horizon) ++m_head;
      if (m_head == m_dep.size()) {
        // Nothing recorded in the windows of u and every later instant up to t: each of
        // them sees dD = 0 (a tie).
        const uint64_t steps = (t - u) / n2 + 1;
        if (p.tie == GalTie::Lower)
          m_t = m_t > p.t_min && m_t - p.t_min > steps ? static_cast<uint32_t>(m_t - steps) : p.t_min;
        else if (p.tie == GalTie::Raise)
          m_t = m_t < p.t_max && p.t_max - m_t > steps ? static_cast<uint32_t>(m_t + steps) : p.t_max;
        u += steps * n2;
        break;
      }
      const int64_t now_sum = count(u - std::min(u, n1), u);
      const int64_t then_sum = u >= n2 ? count(u - n2 - std::min(u - n2, n1), u - n2) : 0;
      const int64_t dD = now_sum - then_sum;
      const bool up = dD < 0 || (dD == 0 && p.tie == GalTie::Raise);
      const bool down = dD > 0 || (dD == 0 && p.tie == GalTie::Lower);
      if (up) m_t = m_t < p.t_max ? m_t + 1 : p.t_max;
      else if (down) m_t = m_t > p.t_min ? m_t - 1 : p.t_min;
      u += n2;
    }
    m_next = u;
    if (m_head > 64 && m_head * 2 > m_dep.size()) {  // compact the consumed prefix
      m_dep.erase(m_dep.begin(), m_dep.begin() + static_cast<std::ptrdiff_t>(m_head));
      m_head = 0;
    }
    return m_t;
  }

 private:
  // Departures with time in [from, to).
  int64_t count(uint64_t from, uint64_t to) const {
    const auto b = m_dep.begin() + static_cast<std::ptrdiff_t>(m_head);
    return std::lower_bound(b, m_dep.end(), to) - std::lower_bound(b, m_dep.end(), from);
  }

  uint32_t m_t = 2;
  uint64_t m_next = 0;          // next update instant (0 = n2, none applied yet)
  std::vector<uint64_t> m_dep;  // departure times, nondecreasing; [m_head, end) live
  size_t m_head = 0;
};

// A replacement for GalThreshold in a NIC (--rtl gal_threshold): the co-simulated RTL
// controller (rtl_models/verilog/gal_threshold.sv), clocked once per cycle. Same contract as
// GalThreshold's departure()/value() (calls in nondecreasing t); clock(t) brings its
// registers to the start of cycle t, as value(t) does.
class GalThresholdBlock {
 public:
  virtual ~GalThresholdBlock() = default;
  virtual void departure(uint64_t t) = 0;
  virtual uint32_t value(uint64_t t) = 0;
  virtual void clock(uint64_t t) = 0;
};

}  // namespace scfly
