// --rtl flow_control and --rtl link_arbiter, the output side's blocks.
//
// --rtl flow_control: each network port's credit counters and PFC state decided by the
// Verilated flow-control block (rtl_models/verilog/rtl_blocks.h, FlowControlBlock), in a
// translation unit of its own: switch.cpp only tests m_fc (cycle_stages) and, under PFC,
// hands the block the phits filed and drained.
//
// One cycle, in the switch's stage order (cycle_stages):
//  - receive: the credits that landed are taken at once (no lazy landing: m_stream is off)
//    into the C++ counter; under PFC each phit filed is handed to the block (fill) instead
//    of PfcInput::filled;
//  - fc_after_receive: per output VC, the credits the counter gained since the end of the
//    last cycle run (several at once with switch.credit_return packet, a transfer crossbar,
//    the CHAOS multiqueue, or all that came back while the switch slept) are the block's
//    land_i; its credits_o is written into the counter every reader reads (allocation,
//    transmit, the units, the trace), and overflow_o stops the run as the C++ check does;
//    under PFC its pause_o pulses send PAUSE upstream;
//  - crossbar: under PFC each phit leaving an input VC is handed to the block (drain)
//    instead of PfcInput::drained; fc_after_crossbar sends RESUME on its resume_o pulses;
//  - fc_end_cycle: the phits each output VC spent this cycle (at the grant inside the credit
//    loop, per phit on the link otherwise: the counter's loss since fc_after_receive) are
//    spend_i, then the clock edge; the paused flags (PfcInput::xoff, traced) are xoff_o.
// A switch that sleeps clocks no block: nothing lands, is spent, filed or drained while it
// sleeps (credits wait in the line until it wakes), so the registers would hold anyway.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "rtl_models/switch/switch.h"
#include "rtl_models/verilog/rtl_blocks.h"

namespace scfly {

// One block per network port (the constructor's, with SwitchParams::rtl_flow_control).
void Switch::fc_build() {
  const int k = radix();
  // The block drains one phit per input VC per cycle (its drain_i is a bit).
  if (m_pfc && m_xbar.rate() > 1)
    throw std::invalid_argument("the RTL flow control drains one phit per input VC per cycle, not the " +
                                std::to_string(m_xbar.rate()) + " of switch.crossbar transfer under PFC");
  m_fc = true;
  m_stream = false;  // credits taken as they land (no lazy landing), phits filed as they land
  m_fc_end.assign(static_cast<size_t>(k) * m_ostride, 0);
  m_fc_seen.assign(static_cast<size_t>(k) * m_ostride, 0);
  m_fc_spend.assign(static_cast<size_t>(kMaxPortVcs), 0);
  for (int p = 0; p < k; ++p) {
    std::vector<uint32_t> cap;
    for (const OutVc& ov : m_ovc[static_cast<size_t>(p)]) {
      cap.push_back(static_cast<uint32_t>(ov.cr.cap));
      m_fc_end[oix(p, static_cast<int>(cap.size()) - 1)] = ov.cr.credits;
    }
    // Input and output VCs of a port are as many, but for a host port's output (one VC).
    cap.resize(std::max(cap.size(), m_ivc[static_cast<size_t>(p)].size()), 0);
    m_fc_rtl.push_back(make_rtl_flow_control(cap, m_pfc ? m_xoff[static_cast<size_t>(p)] : 0,
                                             m_pfc ? m_xon[static_cast<size_t>(p)] : 0,
                                             std::string(this->name()) + ".fc_rtl" + std::to_string(p)));
  }
}

template <bool kPfc>
void Switch::fc_after_receive(uint64_t now) {
  const int k = radix();
  for (int p = 0; p < k; ++p) {
    FlowControlBlock& b = *m_fc_rtl[static_cast<size_t>(p)];
    auto& ovcs = m_ovc[static_cast<size_t>(p)];
    const int nv = static_cast<int>(ovcs.size());
    if constexpr (!kPfc) {
      for (int v = 0; v < nv; ++v) {
        const int32_t n = ovcs[static_cast<size_t>(v)].cr.credits - m_fc_end[oix(p, v)];
        if (n != 0) b.land(v, static_cast<uint32_t>(n));
      }
    }
    b.evaluate();
    if constexpr (!kPfc) {
      for (int v = 0; v < nv; ++v) {
        CreditCounter& cr = ovcs[static_cast<size_t>(v)].cr;
        cr.credits = static_cast<int32_t>(b.credits(v));
        m_fc_seen[oix(p, v)] = cr.credits;
        if (b.overflow(v)) {
          m_ctx.fail(std::string(name()) + ": credits of output port " + std::to_string(p) +
                     " exceed the downstream buffer size " + std::to_string(cr.cap) +
                     " (the RTL flow control's overflow flag, output VC " + std::to_string(v) + ")");
          return;
        }
      }
    } else {
      const int ni = static_cast<int>(m_ivc[static_cast<size_t>(p)].size());
      for (int v = 0; v < ni; ++v)
        if (b.pause(v)) m_in[static_cast<size_t>(p)]->send_credit(static_cast<uint8_t>(v), now, FlowMsg::Pause);
    }
  }
}

void Switch::fc_after_crossbar(uint64_t now) {
  m_fc_drained = false;
  const int k = radix();
  for (int p = 0; p < k; ++p) {
    FlowControlBlock& b = *m_fc_rtl[static_cast<size_t>(p)];
    b.evaluate();
    const int ni = static_cast<int>(m_ivc[static_cast<size_t>(p)].size());
    for (int v = 0; v < ni; ++v)
      if (b.resume(v)) m_in[static_cast<size_t>(p)]->send_credit(static_cast<uint8_t>(v), now, FlowMsg::Resume);
  }
}

template <bool kPfc>
void Switch::fc_end_cycle() {
  const int k = radix();
  uint32_t* spend = m_fc_spend.data();
  for (int p = 0; p < k; ++p) {
    FlowControlBlock& b = *m_fc_rtl[static_cast<size_t>(p)];
    auto& ovcs = m_ovc[static_cast<size_t>(p)];
    const int nv = static_cast<int>(ovcs.size());
    for (int v = 0; v < b.vcs(); ++v) spend[v] = 0;
    if constexpr (!kPfc) {
      for (int v = 0; v < nv; ++v) {
        const int32_t c = ovcs[static_cast<size_t>(v)].cr.credits;
        spend[v] = static_cast<uint32_t>(m_fc_seen[oix(p, v)] - c);
        m_fc_end[oix(p, v)] = c;
      }
    }
    b.edge(spend);
    if constexpr (kPfc) {
      auto& ivcs = m_ivc[static_cast<size_t>(p)];
      for (size_t v = 0; v < ivcs.size(); ++v) ivcs[v].pfc.xoff = b.xoff(static_cast<int>(v)) ? 1 : 0;
    }
  }
}

// --rtl link_arbiter: each port's link arbiter is a Verilated link_arbiter.sv, asked by
// transmit whenever the port's link is free and some output VC holds phits, with the ready
// flags of all its VCs (the C++ part asks them one by one in its order and stops at the
// first yes; ready() has no side effect, so asking all of them changes nothing). The block
// is clocked only when asked: its pointer moves only when it picks, and would hold otherwise.
void Switch::la_build() {
  const int k = radix();
  m_la = true;
  for (int p = 0; p < k; ++p)
    m_la_rtl.push_back(make_rtl_link_arbiter(static_cast<int>(m_ovc[static_cast<size_t>(p)].size()),
                                             static_cast<int>(m_out_data[static_cast<size_t>(p)]),
                                             std::string(this->name()) + ".la_rtl" + std::to_string(p)));
}

int Switch::la_pick(int op, uint32_t ready) {
  const int v = m_la_rtl[static_cast<size_t>(op)]->pick(ready);
  if (v >= 0 && !(ready >> v & 1u)) {  // (the RTL's own assertion says so too, under --assert)
    m_ctx.fail(std::string(name()) + ": the RTL link arbiter of output port " + std::to_string(op) + " picked VC " +
               std::to_string(v) + ", which is not ready");
    return -1;
  }
  return v;
}

template void Switch::fc_after_receive<false>(uint64_t);
template void Switch::fc_after_receive<true>(uint64_t);
template void Switch::fc_end_cycle<false>();
template void Switch::fc_end_cycle<true>();

}  // namespace scfly
