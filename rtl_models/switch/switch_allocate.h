// Switch::allocate_stage, the allocation stage with the switch's callables (want, age,
// grant), for the three translation units that instantiate it: switch.cpp (the C++ part,
// the default allocator), switch_rtl_alloc.cpp (--rtl allocator, kRtl = true) and
// switch_alloc_variants.cpp (another switch.allocator, kVar = true). Keeping the RTL path
// and the variants out of switch.cpp keeps that unit's code, and so the compiler's
// inlining in the default path, what it is without them. Include nowhere else.
#pragma once

#include <cassert>

#include "rtl_models/switch/switch.h"

namespace scfly {

// kRtl: --rtl allocator, the Verilated allocator decides (allocate_rtl); kVar: a variant
// of switch.allocator (m_alloc_kind); else the C++ part SeparableAllocator.
template <bool kCtl, bool kRtl, bool kVar>
inline void Switch::allocate_stage() {
  const CreditLoop loop = m_credit_loop;  // hoisted out of the loops
  // Only output VCs that could accept the whole packet of `phits`.
  auto is_free_for = [&](int op, int ov_index, uint32_t phits) SCFLY_ALWAYS_INLINE {
    if (eject_queued(op, ov_index)) [[unlikely]]
      return eject_room(op, ov_index) >= phits;  // host-idle: the buffer's room only (FOGSim's checkConsumePort)
    if (m_xbar.output_full(op) || m_room.room(op, ov_index) < phits) return false;
    if (!loop.inside()) return true;
    // Output buffer inside the credit loop: the downstream VC must take all of it.
    return loop.admits(m_ovc[static_cast<size_t>(op)][static_cast<size_t>(ov_index)].cr, m_last_cycle, phits);
  };
  auto want = [&](int ip, int v, RouteDecision& d) SCFLY_ALWAYS_INLINE {
    if (!m_requesting[vix(ip, v)]) return false;
    InVc& iv = m_ivc[static_cast<size_t>(ip)][static_cast<size_t>(v)];
    assert(iv.routed && !iv.connected);
    const uint32_t phits = iv.phits;
    auto is_free = [&is_free_for, phits](int op, int ov_index) SCFLY_ALWAYS_INLINE {
      return is_free_for(op, ov_index, phits);
    };
    const RouteCandidate& c0 = iv.cands.c[0];
    if (iv.cands.n == 1 && c0.vc_lo == c0.vc_hi) {  // the common case: one (port, VC)
      if (!is_free(c0.port, c0.vc_lo)) return false;
      d = RouteDecision{c0.port, c0.vc_lo};
      return true;
    }
    return first_free_candidate(iv.cands, is_free, d) >= 0;
  };
  auto age = [&](int ip, int v) SCFLY_ALWAYS_INLINE {
    return m_ctx.pool[m_ivc[static_cast<size_t>(ip)][static_cast<size_t>(v)].buf.front().pkt].gen_cycle;
  };
  auto grant = [&](const Conn& r) SCFLY_ALWAYS_INLINE {
    OutVc& ov = m_ovc[r.out_port][r.out_vc];
    InVc& iv = m_ivc[r.in_port][r.in_vc];
    if (eject_queued(r.out_port, r.out_vc)) [[unlikely]] {
      // switch.ejection_grant host-idle: one grant per pass, only while the host link is
      // idle; the packet crosses after those granted before it (traverse_crossbar).
      if (!m_room.grant_eject(r.out_port, kVar ? alloc_pass_id() : m_alloc.pass_id(), m_link_vc[r.out_port] >= 0,
                              ov.buf.free(), iv.phits))
        return false;
      if (!ov.writing) {
        ov.writing = true;
        ov.feed_port = r.in_port;
        ov.feed_vc = r.in_vc;
        m_room.set(r.out_port, r.out_vc, 0);
      }
    } else {
      if (m_xbar.output_full(r.out_port)) return false;
      if (ov.writing) return false;  // another input won this output VC this cycle
      const bool shared = shared_vc(r.out_port, r.out_vc);
      // A shared buffer: an earlier grant of this pass may have taken the room it asked for.
      if (shared && !m_room.take_shared(r.out_port, iv.phits)) return false;
      ov.writing = true;
      loop.granted(ov.cr, iv.phits);  // switch.output_credits inside: spent now
      if (shared) {
        refresh_room(r.out_port, r.out_vc);
      } else {
        m_room.set(r.out_port, r.out_vc, 0);
      }
      ov.feed_port = r.in_port;
      ov.feed_vc = r.in_vc;
    }
    iv.connected = true;
    if (loop.returns_at_grant() && (!kCtl || r.in_port < radix())) {
      switch (loop.at_grant(m_is_host[static_cast<size_t>(r.in_port)])) {
        case GrantReturn::Packet:
          // switch.credit_return packet: the whole packet's credits go upstream now, all
          // landing in one cycle; traverse_crossbar sends none for it.
          for (uint32_t j = 0; j < iv.phits; ++j) m_in[static_cast<size_t>(r.in_port)]->send_credit(r.in_vc, m_last_cycle);
          iv.credited = true;
          break;
        case GrantReturn::HostRoom:
          // PFC with source.when_full skip (SwitchParams::pfc_host_credits): a host input
          // buffer returns a packet's room at its grant, for the NIC's room check only (PFC
          // alone gates the link; FOGSim's generator sees a packet's room freed at its grant).
          m_in[static_cast<size_t>(r.in_port)]->send_credit(r.in_vc, m_last_cycle, FlowMsg::Credit,
                                                            static_cast<uint16_t>(iv.phits));
          break;
        case GrantReturn::None:
          break;
      }
    }
    m_requesting[vix(r.in_port, r.in_vc)] = 0;
    iv.xbar_out = r.out_port;
    if (r.out_vc < m_out_data[r.out_port]) {
      ++m_pkts_out[r.out_port];
      ++m_pkts_total;
      m_last_out[r.out_port] = iv.buf.front().pkt;
    }
    m_xbar.connect(r);
    return true;
  };
  if constexpr (kRtl) {
    allocate_rtl<kCtl>(want, is_free_for, age, grant);
  } else if constexpr (kVar) {
    // switch.allocator: a variant (same want and grant; it also reads the outputs' connections).
    uint64_t late = 0;
    const uint8_t* in = m_xbar.in_active();
    const uint8_t* out = m_xbar.out_active();
    if (m_alloc_kind == AllocatorKind::SeparableOutput)
      late = m_alloc_of.allocate(m_in_busy, in, out, want, age, grant);
    else if (m_alloc_kind == AllocatorKind::Wavefront)
      late = m_alloc_wf.allocate(m_in_busy, in, out, want, age, grant);
    else if (m_alloc_kind == AllocatorKind::Islip)
      late = m_alloc_is.allocate(m_in_busy, in, out, want, age, grant);
    else
      try {
        late = m_alloc_pl->allocate(m_in_busy, in, out, want, age, grant);
      } catch (const std::exception& e) {  // a plug-in's policy: the run stops with its message
        m_ctx.fail(std::string(name()) + ": allocator plug-in '" + to_string(m_alloc_kind) + "': " + e.what());
        return;
      }
    if (m_late_grants) *m_late_grants += late;
  } else {
    const uint64_t late = m_alloc.allocate<kCtl>(m_in_busy, m_xbar.in_active(), want, age, grant);
    if (m_late_grants) *m_late_grants += late;
  }
}

}  // namespace scfly
