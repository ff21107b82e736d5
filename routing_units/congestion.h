// Congestion state that source-adaptive routing units observe, passed to them explicitly
// through RouteContext (never through a pointer to a switch):
//  - SwitchLoad: this switch's per-output-port queue occupancy, in phits, summed over the
//    port's VCs. What "occupancy" means is configurable (ugal.occupancy):
//      output   phits waiting in the switch's output buffer of the port (default);
//      credits  phits sent downstream not yet credited back (in flight + in the next
//               switch's input buffer): cap - credits, the usual credit-based estimate;
//      both     the sum: everything queued behind this port.
//    The credit-based measures count phits merely in flight on a long link, so at low
//    load they see a busy global link as congested: on dfly(2,4,2) under UN at 0.2,
//    UGAL-L sends 22 % of packets non-minimally with `credits` or `both` and 1.8 % with
//    `output` (and `output` also sustains more under ADV+1: 0.368 vs 0.346 at 0.45).
//    The other side of the trade-off (dfly(4,8,4), 100-cycle global links, PB): under
//    ADV+1 at 0.1 `output` flags the saturated minimal link late, 27 % of packets still
//    go minimal and the latency is 328.5 cycles, against 8 % and 266.8 with `both`; under
//    UN at 0.3 `both` sends 40 % non-minimally (204.8 cycles) against 6.5 % (158.0).
//  - NetworkLoad: every switch's per-port occupancy as of the end of the previous cycle
//    (UGAL-G's global information). Each switch publishes at the end of its cycle; a record
//    keeps the value before this cycle's update, so what a reader sees never depends on
//    the order SystemC runs the switches in.
//  - SatFlagTable: Piggyback's per-global-link saturation flags, visible to the switches of
//    the owning group after a fixed delay (a side-band bus; the delay defaults to the local
//    link latency, i.e. as if piggybacked on the next packet over a local link).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace scfly {

enum class QueueMeasure : uint8_t { Output, Credits, Both };
const char* to_string(QueueMeasure m);
bool parse_measure(const std::string& s, QueueMeasure& out);

// What a mechanism may observe of its own switch under PFC (switch.flow_control: pfc):
// its output queues only. No credit state exists in that mode, and a unit written against
// this view cannot name any (tests/test_pfc.cpp checks the type).
struct OutputQueueView {
  const uint32_t* out_phits = nullptr;  // [port] phits in output buffers
  uint32_t at(int port) const { return out_phits ? out_phits[port] : 0; }
};

// Under credit flow control: the output queues and the credits (the UGAL family's view).
// Under PFC the switch leaves credits_used null and the config allows only `output`.
struct SwitchLoad {
  const uint32_t* out_phits = nullptr;     // [port] phits in output buffers
  const int32_t* credits_used = nullptr;   // [port] phits downstream not yet credited
  QueueMeasure measure = QueueMeasure::Output;
  // ugal.occupancy_scope: vc: the occupancy of one output VC, from the switch (vc_fn(vc_ctx,
  // port, vc, measure)); null: per port.
  uint32_t (*vc_fn)(const void* ctx, int port, int vc, QueueMeasure m) = nullptr;
  const void* vc_ctx = nullptr;
  OutputQueueView output_view() const { return OutputQueueView{out_phits}; }
  // The occupancy of output VC `vc` of `port` under ugal.occupancy_scope: vc, else of the port.
  uint32_t at_vc(int port, int vc) const { return vc_fn ? vc_fn(vc_ctx, port, vc, measure) : at(port); }
  uint32_t at(int port) const {
    if (!out_phits) return 0;  // nothing observed (unit tests without a switch)
    switch (measure) {
      case QueueMeasure::Output: return out_phits[port];
      case QueueMeasure::Credits: return static_cast<uint32_t>(credits_used[port]);
      case QueueMeasure::Both: break;
    }
    return out_phits[port] + static_cast<uint32_t>(credits_used[port]);
  }
};

// Values with one cycle of delay, order-independent: written during cycle t, read as of the
// end of cycle t-1.
class DelayedTable {
 public:
  void resize(size_t n) { m_rec.assign(n, Rec{}); }
  size_t size() const { return m_rec.size(); }
  void write(size_t i, uint32_t v, uint64_t now) {
    Rec& r = m_rec[i];
    if (r.stamp != now) {
      r.old = r.cur;
      r.stamp = now;
    }
    r.cur = v;
  }
  uint32_t read(size_t i, uint64_t now) const {
    const Rec& r = m_rec[i];
    return r.stamp == now ? r.old : r.cur;
  }

 private:
  struct Rec {
    uint64_t stamp = UINT64_MAX;
    uint32_t old = 0, cur = 0;
  };
  std::vector<Rec> m_rec;
};

// UGAL-G's view: occupancy of (switch, port), one cycle old; or, after blocks()
// (ugal_g.view: block), as of the last commit(), which the network calls at the end of
// every cycle that is a multiple of the block less one: readers see a copy that no switch
// writes while they read it.
class NetworkLoad {
 public:
  NetworkLoad(int switches, int radix) : m_radix(radix) { m_t.resize(static_cast<size_t>(switches) * radix); }
  void blocks() {
    m_blocks = true;
    m_cur.assign(static_cast<size_t>(m_t.size()), 0);
    m_view = m_cur;
  }
  void commit() { m_view = m_cur; }
  void publish(int sw, int port, uint32_t v, uint64_t now) {
    if (m_blocks) m_cur[idx(sw, port)] = v;
    else m_t.write(idx(sw, port), v, now);
  }
  uint32_t at(int sw, int port, uint64_t now) const {
    return m_blocks ? m_view[idx(sw, port)] : m_t.read(idx(sw, port), now);
  }

 private:
  size_t idx(int sw, int port) const { return static_cast<size_t>(sw) * m_radix + port; }
  int m_radix;
  DelayedTable m_t;
  bool m_blocks = false;
  std::vector<uint32_t> m_cur, m_view;
};

// Piggyback flags: one per global link (switch, global port j), each with a short history
// of changes so a reader at cycle t sees the flag as it was at t - delay.
//
// On the block scheduler (tb/network.h; blocks(B) before the run, commit() at the end of
// every window of B cycles): a window's reads need only changes from earlier windows when
// delay >= B (a read at t in window [c, c + B) asks for t - delay < c), so readers walk the
// history as committed at the window's start, while the writer, maybe on another thread,
// appends the window's changes past it: no reader touches what a writer writes, and what a
// reader sees does not depend on the order the groups run in. Each history then holds
// delay + B + 2 changes: a reader at t needs the last change at or before t - delay while
// the writer may have gone on to c + B - 1.
class SatFlagTable {
 public:
  SatFlagTable(int switches, int h, uint32_t delay)
      : m_h(h), m_delay(delay), m_hist(static_cast<size_t>(switches) * h, History(delay + 2)) {}
  uint32_t delay() const { return m_delay; }
  void blocks(uint32_t block) {
    m_blocks = true;
    for (History& x : m_hist) x = History(m_delay + block + 2);
  }
  void commit() {
    for (History& x : m_hist) x.commit();
  }
  void publish(int sw, int j, bool flag, uint64_t now) { m_hist[idx(sw, j)].set(flag, now); }
  // The flag of link (sw, j) as seen from another switch at cycle `now`.
  bool seen(int sw, int j, uint64_t now) const {
    return m_hist[idx(sw, j)].at(now >= m_delay ? now - m_delay : 0, now < m_delay, m_blocks);
  }

 private:
  // Ring of (cycle, value) changes; at most one per cycle, so delay + 2 entries suffice
  // to answer for t - delay.
  class History {
   public:
    explicit History(uint32_t n) : m_c(n, 0), m_v(n, 0) {}
    void set(bool v, uint64_t now) {
      if (m_n && m_v[m_last] == v) return;
      if (m_n && m_c[m_last] == now) {
        m_v[m_last] = v;
        return;
      }
      m_last = m_n ? (m_last + 1) % m_c.size() : 0;
      m_c[m_last] = now;
      m_v[m_last] = v;
      if (m_n < m_c.size()) ++m_n;
    }
    void commit() {
      m_last_c = m_last;
      m_n_c = m_n;
    }
    bool at(uint64_t t, bool before_start, bool committed) const {
      const size_t last = committed ? m_last_c : m_last, count = committed ? m_n_c : m_n;
      if (before_start || !count) return false;
      size_t k = last;
      for (size_t n = 0; n < count; ++n) {
        if (m_c[k] <= t) return m_v[k] != 0;
        k = (k + m_c.size() - 1) % m_c.size();
      }
      return false;  // older than the history: the initial value
    }

   private:
    std::vector<uint64_t> m_c;
    std::vector<uint8_t> m_v;
    size_t m_last = 0, m_n = 0;
    size_t m_last_c = 0, m_n_c = 0;  // as of the window's start (block scheduler)
  };
  bool m_blocks = false;
  size_t idx(int sw, int j) const { return static_cast<size_t>(sw) * m_h + j; }
  int m_h;
  uint32_t m_delay;
  std::vector<History> m_hist;
};

}  // namespace scfly
