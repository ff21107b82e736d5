// Fault injection on one switch-to-switch channel (`scfly run --fault`), so that every safety
// check can be shown to fire (tests/test_safety.cpp). The faulty channel's sender socket is
// bound to a FaultLink and the FaultLink to the receiver, so both directions pass through
// it; every other channel is wired directly and costs nothing. (This header is included by
// the network builder only: the switch and NIC translation units still see the link classes
// as the only implementations of the TLM interfaces.)
//
// Faults (on the channel leaving switch `sw` through output port `port`, for messages of VC
// `vc`, from cycle `cycle` on, by the message's send cycle), and what one injected event of
// each is (injected() counts them; `scfly run` reports the count, and a run whose fault
// injected nothing exits 3):
//   extra-credit   the first credit is delivered twice (a duplicated credit): the sender's
//                  credits exceed the receiver's buffer once the channel is idle.
//                  Event: the credit duplicated (at most 1);
//   double-credits every credit is delivered twice: under load the sender overruns the
//                  receiver's input buffer. Event: one credit doubled;
//   lose-credits   every credit is dropped: the sender's output VC wedges. Event: one
//                  credit lost;
//   wrong-vc       the first phit is delivered on a VC the receiving port does not have.
//                  Event: the phit's VC rewritten (at most 1);
//   drop-pause     every PFC PAUSE is dropped (switch.flow_control: pfc): the receiver's
//                  headroom overflows. Event: one PAUSE frame dropped (RESUMEs pass);
//   dup-phit       the first body phit (not a head) is delivered twice, and the next credit
//                  of that VC dropped so the flow control stays balanced: the packet reaches
//                  its NIC with a phit repeated (the sink's phit-order check). Event: the
//                  phit duplicated (at most 1; the dropped credit is part of it). A 1-phit
//                  packet has no body phit: nothing to duplicate;
//   clear-global-done  every head's route header loses its "global hop taken" bit (a soft
//                  error in the header): the next switch gives the packet's last local hop
//                  the VC of its first (sim.check_vc_order). Event: one head whose bit was
//                  set, cleared (a head whose bit is already clear is not counted: nothing
//                  changed). Only Dragonfly routings set and read the bit.
// Credits returned several at a time (LinkMsg::count > 1) are acted on, and counted, one by
// one. Which faults cannot apply to a configuration, and are refused before the network is
// built, is fault_problem (tb/network.h).
#pragma once

#include <string>

#include "rtl_models/switch/fault_spec.h"
#include "rtl_models/switch/link.h"

namespace scfly {

class FaultLink : public tlm::tlm_fw_transport_if<LinkProtocol>, public tlm::tlm_bw_transport_if<LinkProtocol> {
 public:
  FaultLink(const char* name, const FaultSpec& f, uint64_t latency_cycles, uint8_t bad_vc, PacketPool& pool,
            const sc_core::sc_time& period)
      : from_sender((std::string(name) + "_t").c_str()),
        to_receiver((std::string(name) + "_i").c_str()),
        m_f(f),
        m_period(period),
        m_lat(latency_cycles),
        m_bad_vc(bad_vc),
        m_pool(pool) {
    from_sender.bind(*this);
    to_receiver.bind(*this);
  }
  LinkTargetSocket from_sender;    // the sender's initiator socket binds this
  LinkInitiatorSocket to_receiver;  // this binds the receiver's target socket
  // Events injected so far (see above for what one event is per kind).
  uint64_t injected() const { return m_done; }
  const FaultSpec& spec() const { return m_f; }

  tlm::tlm_sync_enum nb_transport_fw(LinkMsg& m, tlm::tlm_phase& ph, sc_core::sc_time& d) override {
    if (m.count > 1) {  // a run of phits (LinkTx::send_run): the faults act on each, as sent one per cycle
      LinkRx::each_phit(m, [&](const LinkMsg& one, uint32_t i) {
        LinkMsg p = one;
        tlm::tlm_phase p1 = ph;
        sc_core::sc_time d1 = d + m_period * static_cast<double>(i);
        nb_transport_fw(p, p1, d1);
      });
      return tlm::TLM_ACCEPTED;
    }
    if (m_f.kind == FaultKind::WrongVc && !m_done && active(m) && m.flit.vc == m_f.vc) {
      m.flit.vc = m_bad_vc;
      ++m_done;
    }
    if (m_f.kind == FaultKind::ClearGlobalDone && active(m) && m.flit.vc == m_f.vc && m.flit.head() &&
        m_pool[m.flit.pkt].route.global_done) {
      m_pool[m.flit.pkt].route.global_done = 0;
      ++m_done;
    }
    if (m_f.kind == FaultKind::DupPhit && !m_done && active(m) && m.flit.vc == m_f.vc && !m.flit.head()) {
      ++m_done;
      m_swallow = true;
      LinkMsg twin = m;
      tlm::tlm_phase p2 = ph;
      sc_core::sc_time d2 = d;
      to_receiver->nb_transport_fw(twin, p2, d2);
    }
    return to_receiver->nb_transport_fw(m, ph, d);
  }
  tlm::tlm_sync_enum nb_transport_bw(LinkMsg& m, tlm::tlm_phase& ph, sc_core::sc_time& d) override {
    if (m.count > 1) {  // credits for several cycles: the faults act on each, as sent one per cycle
      const sc_core::sc_time cycle = d / static_cast<double>(m_lat);
      for (uint16_t i = 0; i < m.count; ++i) {
        LinkMsg one = m;
        one.count = 1;
        one.arrival = m.arrival + i;
        tlm::tlm_phase p1 = ph;
        sc_core::sc_time d1 = d + cycle * static_cast<double>(i);
        nb_transport_bw(one, p1, d1);
      }
      return tlm::TLM_ACCEPTED;
    }
    if (m_swallow && m.vc == m_f.vc && m.kind == FlowMsg::Credit) {  // dup-phit: the twin's credit
      m_swallow = false;
      return tlm::TLM_ACCEPTED;
    }
    if (active(m) && m.vc == m_f.vc) {
      if (m_f.kind == FaultKind::LoseCredits && m.kind == FlowMsg::Credit) {
        ++m_done;
        return tlm::TLM_ACCEPTED;
      }
      if (m_f.kind == FaultKind::DropPause && m.kind == FlowMsg::Pause) {
        ++m_done;
        return tlm::TLM_ACCEPTED;
      }
      if (((m_f.kind == FaultKind::ExtraCredit && !m_done) || m_f.kind == FaultKind::DoubleCredits) &&
          m.kind == FlowMsg::Credit) {
        ++m_done;
        LinkMsg twin = m;
        tlm::tlm_phase p2 = ph;
        sc_core::sc_time d2 = d;
        from_sender->nb_transport_bw(twin, p2, d2);
      }
    }
    return from_sender->nb_transport_bw(m, ph, d);
  }
  void b_transport(LinkMsg&, sc_core::sc_time&) override {}
  bool get_direct_mem_ptr(LinkMsg&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(LinkMsg&) override { return 0; }
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

 private:
  bool active(const LinkMsg& m) const { return m.arrival >= m_f.cycle + m_lat; }
  FaultSpec m_f;
  sc_core::sc_time m_period;  // a cycle (a run of phits is faulted phit by phit)
  uint64_t m_lat;
  uint8_t m_bad_vc;
  PacketPool& m_pool;
  uint64_t m_done = 0;
  bool m_swallow = false;  // dup-phit: drop the next credit of the VC
};

}  // namespace scfly
