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
};

struct LinkProtocol {
  using tlm_payload_type = LinkMsg;
  using tlm_phase_type = tlm::tlm_phase;
};

using LinkInitiatorSocket = tlm::tlm_initiator_socket<32, LinkProtocol>;
using LinkTargetSocket = tlm::tlm_target_socket<32, LinkProtocol>;

// Something with a clock that may sleep while idle; a link wakes it when a message lands.
// While active it runs on every rising edge of the network clock (one shared event, so
// SystemC keeps one timed notification per cycle, not one per block). A block woken by a
// link at an edge may also see that edge fire in a later delta of the same time step:
// first_run_this_cycle() lets it run each cycle exactly once.
class Clocked {
 public:
  explicit Clocked(const sc_core::sc_clock& clk) : m_period(clk.period()), m_edge(&clk.posedge_event()) {}
  uint64_t cycle() const { return sc_core::sc_time_stamp().value() / m_period.value(); }
  const sc_core::sc_time& period() const { return m_period; }
  // Called by a link when a message will land after `delay`.
  void wake_after(const sc_core::sc_time& delay) {
    if (m_asleep) m_wake.notify(delay);
  }

 protected:
  bool first_run_this_cycle(uint64_t now) {
    if (now == m_last_cycle) return false;
    m_last_cycle = now;
    return true;
  }
  sc_core::sc_time m_period;
  const sc_core::sc_event* m_edge;
  sc_core::sc_event m_wake;
  bool m_asleep = false;
  uint64_t m_last_cycle = UINT64_MAX;
};

struct FlitArrival {
  uint64_t cycle;
  Flit flit;
};
struct CreditArrival {
  uint64_t cycle;
  uint8_t vc;
  FlowMsg kind;
};

// Receiving end of a channel: a target socket and the delay line of flits in flight.
class LinkRx : public tlm::tlm_fw_transport_if<LinkProtocol> {
 public:
  LinkRx(const char* name, Clocked& owner, const sc_core::sc_time& latency)
      : socket(name),
        m_owner(owner),
        m_latency(latency),
        m_latency_cycles(latency.value() / owner.period().value()) {
    socket.bind(*this);
  }
  LinkTargetSocket socket;
  RingBuffer<FlitArrival> line;
  // Optional: mark `port` in `mask` whenever a flit is filed (the owner's work list).
  void notify_into(PortMask* mask, int port) {
    m_mask = mask;
    m_port = port;
  }

  // Return one credit for `vc` to the sender in cycle `now`; it lands after the latency.
  void send_credit(uint8_t vc, uint64_t now, FlowMsg kind = FlowMsg::Credit) {
    LinkMsg m;
    m.arrival = now + m_latency_cycles;
    m.vc = vc;
    m.kind = kind;
    tlm::tlm_phase ph = tlm::BEGIN_RESP;
    sc_core::sc_time d = m_latency;
    socket->nb_transport_bw(m, ph, d);
  }

  tlm::tlm_sync_enum nb_transport_fw(LinkMsg& m, tlm::tlm_phase&, sc_core::sc_time& d) override {
    line.push_unbounded(FlitArrival{m.arrival, m.flit});
    if (m_mask) m_mask->set(m_port);
    m_owner.wake_after(d);
    return tlm::TLM_ACCEPTED;
  }
  void b_transport(LinkMsg&, sc_core::sc_time&) override {
    SC_REPORT_ERROR("scfly/link", "b_transport is not part of the scfly link protocol");
  }
  bool get_direct_mem_ptr(LinkMsg&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(LinkMsg&) override { return 0; }

 private:
  Clocked& m_owner;
  sc_core::sc_time m_latency;
  uint64_t m_latency_cycles;
  PortMask* m_mask = nullptr;
  int m_port = 0;
};

// Sending end of a channel: an initiator socket and the delay line of returning credits.
class LinkTx : public tlm::tlm_bw_transport_if<LinkProtocol> {
 public:
  LinkTx(const char* name, Clocked& owner, const sc_core::sc_time& latency, bool wake_on_credit)
      : socket(name),
        m_owner(owner),
        m_latency(latency),
        m_latency_cycles(latency.value() / owner.period().value()),
        m_wake_on_credit(wake_on_credit) {
    socket.bind(*this);
  }
  LinkInitiatorSocket socket;
  RingBuffer<CreditArrival> credits;
  // Optional: mark `port` in `mask` whenever a credit is filed.
  void notify_into(PortMask* mask, int port) {
    m_mask = mask;
    m_port = port;
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

  tlm::tlm_sync_enum nb_transport_bw(LinkMsg& m, tlm::tlm_phase&, sc_core::sc_time& d) override {
    credits.push_unbounded(CreditArrival{m.arrival, m.vc, m.kind});
    if (m_mask) m_mask->set(m_port);
    if (m_wake_on_credit) m_owner.wake_after(d);
    return tlm::TLM_ACCEPTED;
  }
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

 private:
  Clocked& m_owner;
  sc_core::sc_time m_latency;
  uint64_t m_latency_cycles;
  bool m_wake_on_credit;
  PortMask* m_mask = nullptr;
  int m_port = 0;
};

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
