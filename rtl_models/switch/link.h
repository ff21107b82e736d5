// Links as TLM-2.0 sockets with a custom protocol type.
//
// One unidirectional channel = one initiator socket (sender, LinkTx) bound to one target
// socket (receiver, LinkRx). Flits go forward through nb_transport_fw; flow control comes
// back through nb_transport_bw on the same socket pair: credits (credit-based flow control)
// or PFC pause/resume per VC (802.1Qbb, switch.flow_control: pfc). Every call is annotated with the link
// latency; the receiver files the message into a delay line keyed by its arrival cycle
// (now + latency; the sender stamps it, sparing a division per phit, and the TLM delay
// carries the same latency) and only consumes entries whose arrival cycle has come. Because every
// latency is >= 1 cycle, a message sent in cycle t is never visible before t+1, so the
// order in which SystemC runs the switches within a cycle cannot change any result.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

#include "rtl_models/switch/flit.h"
#include "rtl_models/switch/port_mask.h"
#include "rtl_models/switch/ring_buffer.h"

namespace scfly {

// Backward messages.
enum class FlowMsg : uint8_t { Credit = 0, Pause = 1, Resume = 2 };

struct LinkMsg {
  uint64_t arrival = 0;  // cycle the message lands = send cycle + link latency
  Flit flit;             // the phit (forward)
  uint8_t vc = 0;        // credited / paused / resumed VC (backward)
  FlowMsg kind = FlowMsg::Credit;
  // Credits: `count` of them for `vc`, one landing in each cycle from `arrival` on (a
  // receiver that knows its crossbar will free one phit per cycle returns them in one call).
  // Phits: a run of `count` phits of one packet, `flit` the first (sequence numbers
  // flit.seq, flit.seq + 1, ...; flit.tail: the last of them is the packet's tail), one
  // landing in each cycle from `arrival` on (LinkTx::send_run).
  uint16_t count = 1;
};

struct LinkProtocol {
  using tlm_payload_type = LinkMsg;
  using tlm_phase_type = tlm::tlm_phase;
};

using LinkInitiatorSocket = tlm::tlm_initiator_socket<32, LinkProtocol>;
using LinkTargetSocket = tlm::tlm_target_socket<32, LinkProtocol>;

// Something with a clock that may sleep while idle; a link wakes it when a message lands.
// It runs in one of two ways (the network chooses, sim.scheduler, tb/network.h):
//  - as its own SystemC process: while active on every rising edge of the network clock
//    (one shared event, so SystemC keeps one timed notification per cycle, not one per
//    block); asleep on its wake-up event, which a link notifies with the message's delay.
//    A block woken by a link at an edge may also see that edge fire in a later delta of
//    the same time step: first_run_this_cycle() lets it run each cycle exactly once;
//  - driven by the network's block scheduler (set_scheduled()): no process; the block
//    keeps the next cycle it must run in (next_run()), which a link lowers to the
//    message's arrival cycle while the block sleeps.
class Clocked {
 public:
  explicit Clocked(const sc_core::sc_clock& clk) : m_period(clk.period()), m_edge(&clk.posedge_event()) {}
  uint64_t cycle() const { return sc_core::sc_time_stamp().value() / m_period.value(); }
  const sc_core::sc_time& period() const { return m_period; }
  // Called by a link when a phit will land at cycle `arrival`, after `delay` (`tail`: its
  // packet's last) ...
  void phit_landing(uint64_t arrival, const sc_core::sc_time& delay, bool tail) {
    if (m_asleep && (tail || !m_wake_on_tails)) wake_at(arrival, delay);
  }
  // ... and when a run of `n` phits will land, one per cycle from `arrival` after `delay`
  // (`tail`: its last is its packet's tail): what phit_landing() of each would do (the
  // earliest landing that wakes the block counts).
  void run_landing(uint64_t arrival, const sc_core::sc_time& delay, uint32_t n, bool tail) {
    if (!m_asleep) return;
    if (!m_wake_on_tails) wake_at(arrival, delay);
    else if (tail) wake_at(arrival + n - 1, delay + m_period * static_cast<double>(n - 1));
  }
  // ... and when a credit (or PFC message) will land.
  void credit_landing(uint64_t arrival, const sc_core::sc_time& delay) {
    if (m_asleep && m_wake_on_credits) wake_at(arrival, delay);
  }
  // Block scheduler: the next cycle this block must run (UINT64_MAX: only when a link
  // wakes it, or never again after a fatal error).
  uint64_t next_run() const { return m_next_run; }
  bool scheduled() const { return m_scheduled; }

 protected:
  bool first_run_this_cycle(uint64_t now) {
    if (now == m_last_cycle) return false;
    m_last_cycle = now;
    return true;
  }
  // The process's next activation after a cycle that left m_asleep and m_next_run set:
  // the next edge, the wake-up event (notified for m_next_run if known), or none (stopped).
  void trigger_next(uint64_t now) {
    if (m_asleep) {
      if (m_next_run != UINT64_MAX) m_wake.notify(m_period * static_cast<double>(m_next_run - now));
      sc_core::next_trigger(m_wake);
    } else if (m_next_run == now + 1) {
      sc_core::next_trigger(*m_edge);
    }
  }
  void wake_at(uint64_t arrival, const sc_core::sc_time& delay) {
    if (m_scheduled) {
      if (arrival < m_next_run) m_next_run = arrival;
    } else {
      m_wake.notify(delay);
    }
  }
  sc_core::sc_time m_period;
  const sc_core::sc_event* m_edge;
  sc_core::sc_event m_wake;
  bool m_asleep = false;
  bool m_scheduled = false;  // driven by the block scheduler, not a process of its own
  // While asleep: wake only for tail phits (a block that handles the phits before a tail
  // whenever it next runs, as a NIC's sink does), and wake for credits at all.
  bool m_wake_on_tails = false;
  bool m_wake_on_credits = true;
  uint64_t m_last_cycle = UINT64_MAX;
  uint64_t m_next_run = 0;  // every block runs in cycle 0
};

struct FlitArrival {
  uint64_t cycle;
  Flit flit;
};

// The phits in flight on a channel, oldest first, stored as runs: consecutive phits of one
// packet on one VC landing on consecutive cycles. A packet holds its link until its tail,
// so a run is usually a whole packet, and a line costs memory per packet in flight, not per
// phit (the lines of long links are most of what a large network touches every cycle).
// What goes in and comes out is exactly the phit sequence with its arrival cycles.
class FlitLine {
 public:
  bool empty() const { return m_runs.empty(); }
  // Arrival cycle of the next phit.
  uint64_t front_cycle() const { return m_runs.front().cycle; }
  // Cache hints (no effect on the contents).
  void prefetch_front() const { __builtin_prefetch(&m_runs.front()); }
  void prefetch_meta() const { __builtin_prefetch(&m_runs); }
  // Files `n` phits of one packet as n push() calls would: `first` and its successors
  // (sequence numbers first.seq + i, landing at arrival + i), the last one the packet's tail
  // if `tail`.
  void push_run(uint64_t arrival, const Flit& first, uint32_t n, bool tail) {
    uint32_t i = 0;
    if (!m_runs.empty()) {
      Run& b = m_runs.back();
      const uint32_t c = b.count();
      if (!b.tail() && c < kMaxRun && b.pkt == first.pkt && b.vc == first.vc && b.seq + c == first.seq &&
          b.cycle + c == arrival) {
        i = std::min(n, kMaxRun - c);
        b.count_tail = static_cast<uint8_t>((c + i) | (tail && i == n ? kTail : 0));
      }
    }
    while (i < n) {
      const uint32_t k = std::min(n - i, kMaxRun);
      m_runs.push_unbounded(Run{arrival + i, first.pkt, static_cast<uint16_t>(first.seq + i), first.vc,
                                static_cast<uint8_t>(k | (tail && i + k == n ? kTail : 0))});
      i += k;
    }
  }
  void push(uint64_t arrival, const Flit& f) {
    if (!m_runs.empty()) {
      Run& b = m_runs.back();
      const uint32_t n = b.count();
      if (!b.tail() && n < kMaxRun && b.pkt == f.pkt && b.vc == f.vc && b.seq + n == f.seq && b.cycle + n == arrival) {
        b.count_tail = static_cast<uint8_t>((n + 1) | (f.tail ? kTail : 0));
        return;
      }
    }
    m_runs.push_unbounded(Run{arrival, f.pkt, f.seq, f.vc, static_cast<uint8_t>(1 | (f.tail ? kTail : 0))});
  }
  // Phits of VC `vc` in the line landing by cycle `upto` (the end-of-run credit balance;
  // not on the hot path).
  uint64_t phits_on(uint8_t vc, uint64_t upto) const {
    uint64_t n = 0;
    for (uint32_t i = 0; i < m_runs.size(); ++i) {
      const Run& r = m_runs.at(i);
      if (r.vc != vc || r.cycle > upto) continue;
      n += std::min<uint64_t>(r.count(), upto - r.cycle + 1);
    }
    return n;
  }
  // Arrival cycle of the first tail phit in the line, UINT64_MAX if none.
  uint64_t tail_cycle() const {
    for (uint32_t i = 0; i < m_runs.size(); ++i)
      if (m_runs.at(i).tail()) return m_runs.at(i).cycle + m_runs.at(i).count() - 1;
    return UINT64_MAX;
  }
  // The front run: its VC and its number of phits (landing one per cycle from front_cycle()).
  uint8_t front_vc() const { return m_runs.front().vc; }
  uint32_t front_count() const { return m_runs.front().count(); }
  // Removes the next `n` phits, all of the front run (1 <= n <= front_count()): the phits
  // seq, seq+1, ... of packet `pkt` on `vc`, landing at cycle, cycle+1, ...; `tail` is set
  // if the last of them is the packet's tail.
  struct Slice {
    uint64_t cycle;
    PacketId pkt;
    uint16_t seq;
    uint8_t vc;
    bool tail;
  };
  Slice pop_front(uint32_t n) {
    Run& r = m_runs.front();
    const uint32_t c = r.count();
    assert(n >= 1 && n <= c);
    const Slice s{r.cycle, r.pkt, r.seq, r.vc, n == c && r.tail()};
    if (n == c) {
      m_runs.pop();
    } else {
      r.cycle += n;
      r.seq = static_cast<uint16_t>(r.seq + n);
      r.count_tail = static_cast<uint8_t>((c - n) | (r.count_tail & kTail));
    }
    return s;
  }
  // Removes and returns the next phit (with its arrival cycle).
  FlitArrival pop() {
    Run& r = m_runs.front();
    const uint32_t n = r.count();
    FlitArrival a{r.cycle, Flit{r.pkt, r.seq, r.vc, static_cast<uint8_t>(n == 1 && r.tail())}};
    if (n == 1) {
      m_runs.pop();
    } else {
      ++r.cycle;
      ++r.seq;
      r.count_tail = static_cast<uint8_t>((n - 1) | (r.count_tail & kTail));
    }
    return a;
  }

 private:
  static constexpr uint8_t kTail = 0x80;
  static constexpr uint32_t kMaxRun = 0x7F;
  struct Run {  // phits seq, seq+1, ... of packet pkt landing at cycle, cycle+1, ...
    uint64_t cycle;
    PacketId pkt;
    uint16_t seq;
    uint8_t vc;
    uint8_t count_tail;  // phits in the run (1..127) | kTail if its last phit is the tail
    uint32_t count() const { return count_tail & kMaxRun; }
    bool tail() const { return (count_tail & kTail) != 0; }
  };
  static_assert(sizeof(Run) == 16, "a run is as small as one phit's entry");
  RingBuffer<Run> m_runs;
};

// The flow-control messages in flight back on a channel, one FIFO per VC (order matters
// only within a VC), each stored as runs of credits landing on consecutive cycles (a
// crossbar connection frees one phit per cycle). PFC's PAUSE/RESUME are single entries.
class CreditLine {
 public:
  bool empty() const { return m_pending == 0; }
  // Arrival cycle of the next message (the earliest over the VCs).
  uint64_t front_cycle() const {
    uint64_t c = UINT64_MAX;
    for (uint32_t v = 0; v < m_nvc; ++v)
      if (!m_vc[v].empty() && m_vc[v].front().cycle < c) c = m_vc[v].front().cycle;
    return c;
  }
  SCFLY_ALWAYS_INLINE void push(uint64_t arrival, uint8_t vc, FlowMsg kind, uint32_t count = 1) {
    if (vc >= m_nvc) [[unlikely]] {
      if (vc >= kMaxPortVcs) throw std::logic_error("a flow-control message names VC " + std::to_string(vc) +
                                                    "; a port has at most " + std::to_string(kMaxPortVcs));
      m_nvc = static_cast<uint8_t>(vc + 1);
    }
    RingBuffer<Run>& q = m_vc[vc];
    if (kind == FlowMsg::Credit && !q.empty()) {
      Run& b = q.back();
      if (b.kind == FlowMsg::Credit && b.cycle + b.count == arrival) {
        b.count += count;
        return;
      }
    }
    q.push_unbounded(Run{arrival, kind == FlowMsg::Credit ? count : 1, kind});
    ++m_pending;
  }
  // Credits for VC `vc` in the line (the end-of-run credit balance; not on the hot path).
  uint64_t credits_on(uint8_t vc) const {
    if (vc >= m_nvc) return 0;
    uint64_t n = 0;
    const RingBuffer<Run>& q = m_vc[vc];
    for (uint32_t i = 0; i < q.size(); ++i)
      if (q.at(i).kind == FlowMsg::Credit) n += q.at(i).count;
    return n;
  }
  // Cache hint (no effect on the contents).
  void prefetch_front() const {
    for (uint32_t v = 0; v < m_nvc; ++v)
      if (!m_vc[v].empty()) __builtin_prefetch(&m_vc[v].front());
  }
  // Takes every message landed by cycle `now`: f(vc, kind, n) with n credits at once (n = 1
  // for PAUSE/RESUME), in arrival order within each VC. Returns front_cycle() after it.
  template <typename F>
  SCFLY_ALWAYS_INLINE uint64_t take_due(uint64_t now, F&& f) {
    return take(now, [&](uint8_t vc, FlowMsg kind, uint64_t, uint32_t due, uint32_t) SCFLY_ALWAYS_INLINE {
      f(vc, kind, due);
      return due;
    });
  }
  // As take_due, but the taker may take more of a credit run than has landed:
  // f(vc, kind, cycle, due, count) is shown the front run (`count` messages landing one per
  // cycle from `cycle`, `due` of them by `now`) and returns how many it takes, from `due`
  // to `count`. Returns front_cycle() after it.
  template <typename F>
  SCFLY_ALWAYS_INLINE uint64_t take(uint64_t now, F&& f) {
    uint64_t next = UINT64_MAX;
    for (uint32_t v = 0; v < m_nvc; ++v) {
      RingBuffer<Run>& q = m_vc[v];
      if (q.empty()) continue;
      while (!q.empty() && q.front().cycle <= now) {
        Run& r = q.front();
        const uint32_t due =
            r.kind == FlowMsg::Credit ? static_cast<uint32_t>(std::min<uint64_t>(r.count, now - r.cycle + 1)) : 1;
        const uint32_t n = f(static_cast<uint8_t>(v), r.kind, r.cycle, due, r.count);
        assert(n >= due && n <= r.count);
        if (n == r.count) {
          q.pop();
          --m_pending;
        } else {
          r.cycle += n;
          r.count -= n;
        }
      }
      if (!q.empty() && q.front().cycle < next) next = q.front().cycle;
    }
    return next;
  }

 private:
  struct Run {  // `count` messages of `kind`, one landing at each of cycle, cycle+1, ...
    uint64_t cycle;
    uint32_t count;
    FlowMsg kind;
  };
  uint32_t m_pending = 0;  // runs over all VCs
  uint8_t m_nvc = 0;       // VCs [0, m_nvc) have had a message
  RingBuffer<Run> m_vc[kMaxPortVcs];  // inline: one pointer chase fewer per credit
};

struct Outbox;

// Receiving end of a channel: a target socket and the delay line of flits in flight.
class LinkRx : public tlm::tlm_fw_transport_if<LinkProtocol> {
 public:
  LinkRx(const char* name, Clocked& owner, const sc_core::sc_time& latency)
      : m_owner(owner),
        socket(name),
        m_latency(latency),
        m_latency_cycles(latency.value() / owner.period().value()) {
    socket.bind(*this);
  }
  // What a landing phit touches comes first, beside the vtable pointer: a link is reached
  // through its socket once per phit and is rarely still in the cache.
  FlitLine line;
 private:
  Clocked& m_owner;
  PortMask* m_mask = nullptr;
  uint64_t* m_next = nullptr;
  int m_port = 0;
  Outbox* m_outbox = nullptr;

 public:
  LinkTargetSocket socket;
  // Optional: mark `port` in `mask` whenever a flit is filed (the owner's work list), and
  // keep `*next` = the arrival cycle of the line's front while the line is not empty (the
  // owner's compact per-port array, so that checking a busy port costs no visit to the line;
  // the owner updates it as it consumes the line).
  void notify_into(PortMask* mask, int port, uint64_t* next) {
    m_mask = mask;
    m_port = port;
    m_next = next;
  }

  // Return one credit for `vc` to the sender in cycle `now`; it lands after the latency.
  // With `count` > 1: that many credits, freed one per cycle from `now` on.
  void send_credit(uint8_t vc, uint64_t now, FlowMsg kind = FlowMsg::Credit, uint16_t count = 1) {
    LinkMsg m;
    m.arrival = now + m_latency_cycles;
    m.vc = vc;
    m.kind = kind;
    m.count = count;
    tlm::tlm_phase ph = tlm::BEGIN_RESP;
    sc_core::sc_time d = m_latency;
    socket->nb_transport_bw(m, ph, d);
  }

  // Threads (tb/network.h): the sender runs in another thread than this channel's owner,
  // so what it sends waits in `box` until the block window ends (file()).
  void set_outbox(Outbox* box) { m_outbox = box; }

  tlm::tlm_sync_enum nb_transport_fw(LinkMsg& m, tlm::tlm_phase&, sc_core::sc_time& d) override;
  // Files a phit that was sent: into the line, the owner's work list, its wake-up.
  SCFLY_ALWAYS_INLINE void file(const LinkMsg& m, const sc_core::sc_time& d) {
    if (m_mask) {
      if (line.empty()) *m_next = m.arrival;
      m_mask->set(m_port);
    }
    if (m.count > 1) [[unlikely]] {  // a run (out of line: a single phit's path stays small enough to inline)
      file_run(m, d);
      return;
    }
    line.push(m.arrival, m.flit);
    m_owner.phit_landing(m.arrival, d, m.flit.tail != 0);
  }
  // A run of phits, filed as its phits one by one would be.
  [[gnu::noinline]] void file_run(const LinkMsg& m, const sc_core::sc_time& d) {
    line.push_run(m.arrival, m.flit, m.count, m.flit.tail != 0);
    m_owner.run_landing(m.arrival, d, m.count, m.flit.tail != 0);
  }
  // A run into an outbox (threads, ranks): as its phits, since what crosses ranks is phits.
  // (A template, so that its definition after Outbox needs no `inline`, which noinline forbids.)
  template <typename = void>
  [[gnu::noinline]] void outbox_run(const LinkMsg& m);
  // The phits of run `m` as single-phit messages, in order (for what handles phits one by one).
  template <typename F>
  static void each_phit(const LinkMsg& m, F&& f) {
    for (uint32_t i = 0; i < m.count; ++i) {
      LinkMsg one = m;
      one.count = 1;
      one.arrival = m.arrival + i;
      one.flit.seq = static_cast<uint16_t>(m.flit.seq + i);
      one.flit.tail = static_cast<uint8_t>(m.flit.tail && i + 1 == m.count);
      f(one, i);
    }
  }
  void b_transport(LinkMsg&, sc_core::sc_time&) override {
    SC_REPORT_ERROR("scfly/link", "b_transport is not part of the scfly link protocol");
  }
  bool get_direct_mem_ptr(LinkMsg&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(LinkMsg&) override { return 0; }
  uint64_t latency_cycles() const { return m_latency_cycles; }

 private:
  sc_core::sc_time m_latency;
  uint64_t m_latency_cycles;
};

// Sending end of a channel: an initiator socket and the delay line of returning credits.
class LinkTx : public tlm::tlm_bw_transport_if<LinkProtocol> {
 public:
  LinkTx(const char* name, Clocked& owner, const sc_core::sc_time& latency, bool wake_on_credit)
      : m_owner(owner),
        m_wake_on_credit(wake_on_credit),
        socket(name),
        m_latency(latency),
        m_latency_cycles(latency.value() / owner.period().value()) {
    socket.bind(*this);
  }
  // What a landing credit touches comes first (see LinkRx).
 private:
  Clocked& m_owner;
  PortMask* m_mask = nullptr;
  uint64_t* m_next = nullptr;
  int m_port = 0;
  bool m_wake_on_credit;
  Outbox* m_outbox = nullptr;

 public:
  CreditLine credits;
  LinkInitiatorSocket socket;
  // Optional: mark `port` in `mask` whenever a credit is filed, keeping `*next` as LinkRx does.
  void notify_into(PortMask* mask, int port, uint64_t* next) {
    m_mask = mask;
    m_port = port;
    m_next = next;
  }

  // Send one phit in cycle `now`; it lands after the latency.
  void send(const Flit& f, uint64_t now) {
    LinkMsg m;
    m.arrival = now + m_latency_cycles;
    m.flit = f;
    tlm::tlm_phase ph = tlm::BEGIN_REQ;
    sc_core::sc_time d = m_latency;
    socket->nb_transport_fw(m, ph, d);
  }
  // Send one phit that leaves `ahead` cycles after `now` (the annotated delay includes them):
  // for a sender that knows now what its link will carry in the next cycles.
  void send(const Flit& f, uint64_t now, uint32_t ahead) {
    if (ahead == 0) return send(f, now);
    LinkMsg m;
    m.arrival = now + ahead + m_latency_cycles;
    m.flit = f;
    tlm::tlm_phase ph = tlm::BEGIN_REQ;
    sc_core::sc_time d = m_latency + m_owner.period() * static_cast<double>(ahead);
    socket->nb_transport_fw(m, ph, d);
  }

  // Send the `n` phits first, first + 1, ... of one packet (consecutive sequence numbers;
  // `first.tail`: the last of them is the packet's tail), leaving one per cycle from `ahead`
  // cycles after `now` on (ahead >= 1): one message for what send(phit i, now, ahead + i)
  // would send phit by phit; the receiving end files it as those messages.
  void send_run(const Flit& first, uint32_t n, uint64_t now, uint32_t ahead) {
    LinkMsg m;
    m.arrival = now + ahead + m_latency_cycles;
    m.flit = first;
    m.count = static_cast<uint16_t>(n);
    tlm::tlm_phase ph = tlm::BEGIN_REQ;
    sc_core::sc_time d = m_latency + m_owner.period() * static_cast<double>(ahead);
    socket->nb_transport_fw(m, ph, d);
  }

  // Threads: the receiver returning credits runs in another thread (see LinkRx).
  void set_outbox(Outbox* box) { m_outbox = box; }

  tlm::tlm_sync_enum nb_transport_bw(LinkMsg& m, tlm::tlm_phase&, sc_core::sc_time& d) override;
  // Files a flow-control message that was sent: into the line, the work list, the wake-up.
  SCFLY_ALWAYS_INLINE void file(const LinkMsg& m, const sc_core::sc_time& d) {
    if (m_mask) {
      if (credits.empty()) *m_next = m.arrival;
      m_mask->set(m_port);
    }
    credits.push(m.arrival, m.vc, m.kind, m.count);
    if (m_wake_on_credit) m_owner.credit_landing(m.arrival, d);
  }
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

 private:
  sc_core::sc_time m_latency;
  uint64_t m_latency_cycles;
};

// What one thread's blocks sent during a block window over the channels into another
// thread's blocks (sim.threads, tb/network.h). Nothing sent in a window lands before the
// window ends (a window is at most the shortest link latency long), so the messages can be
// filed by the receiving thread after it: flush() files them in the order they were sent,
// which is each channel's own order (a channel has one sender); filing into different
// channels commutes (each has its own line; the owner's work list and wake-up cycle are a
// set and a minimum).
struct Outbox {
  struct Fw {
    LinkRx* rx;
    LinkMsg m;
  };
  struct Bw {
    LinkTx* tx;
    LinkMsg m;
  };
  std::vector<Fw> fw;
  std::vector<Bw> bw;
  void flush() {
    const sc_core::sc_time none = sc_core::SC_ZERO_TIME;  // the delay is the kernel's; blocks read arrival
    for (const Fw& r : fw) r.rx->file(r.m, none);
    for (const Bw& r : bw) r.tx->file(r.m, none);
    fw.clear();
    bw.clear();
  }
};

template <typename>
void LinkRx::outbox_run(const LinkMsg& m) {
  each_phit(m, [&](const LinkMsg& one, uint32_t) { m_outbox->fw.push_back(Outbox::Fw{this, one}); });
}

inline tlm::tlm_sync_enum LinkRx::nb_transport_fw(LinkMsg& m, tlm::tlm_phase&, sc_core::sc_time& d) {
  if (m_outbox) [[unlikely]] {
    if (m.count > 1) outbox_run(m);
    else m_outbox->fw.push_back(Outbox::Fw{this, m});
    return tlm::TLM_ACCEPTED;
  }
  file(m, d);
  return tlm::TLM_ACCEPTED;
}

inline tlm::tlm_sync_enum LinkTx::nb_transport_bw(LinkMsg& m, tlm::tlm_phase&, sc_core::sc_time& d) {
  if (m_outbox) [[unlikely]] {
    m_outbox->bw.push_back(Outbox::Bw{this, m});
    return tlm::TLM_ACCEPTED;
  }
  file(m, d);
  return tlm::TLM_ACCEPTED;
}

// The far end of a port with no link (a mesh's edge): a receiving and a sending end of the
// ordinary kind, owned by a block that never runs. Routing never selects such a port; the
// network checks after the run that nothing ever reached a terminator (touched()). The
// link classes stay the only implementations of the TLM interfaces, which keeps their
// calls devirtualized in the hot path.
class LinkTerminator : public sc_core::sc_module, public Clocked {
 public:
  LinkTerminator(sc_core::sc_module_name name, const sc_core::sc_clock& clk)
      : sc_core::sc_module(name), Clocked(clk), rx("t", *this, clk.period()), tx("i", *this, clk.period(), false) {}
  LinkRx rx;  // its socket is bound by the port's output (initiator) socket
  LinkTx tx;  // its socket binds the port's input (target) socket
  bool touched() const { return !rx.line.empty() || !tx.credits.empty(); }
};

}  // namespace scfly
