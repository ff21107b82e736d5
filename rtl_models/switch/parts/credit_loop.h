// Where the switch's credit loop closes, as a part of its own (plain C++, no SystemC),
// testable alone against a reference model (tests/test_credit_loop.cpp).
//
// Under credit flow control every output VC of a switch-to-switch port counts the free
// phits of the downstream input VC (CreditCounter, parts/flow_control.h), and every input
// VC returns credits to its sender. Two peer-compatibility modes move the points where a
// packet's credits are spent and returned; each is a kind of this part, chosen by config:
//
//  OutputCredits (switch.output_credits)
//   Outside  a packet enters an output VC with room for it (OutputRoom) and needs
//            downstream credits only to start on the link; each phit sent spends one. The
//            output buffer adds its depth to the downstream one.
//   Inside   a packet is granted an output VC only with downstream credits for all of it,
//            spent at the grant: everything in the output buffer can leave (FOGSim's IOQ
//            output port).
//
//  CreditReturn (switch.credit_return)
//   Phit     an input VC returns one credit per phit as it leaves the buffer.
//   Packet   it returns the credits of a whole packet the cycle the packet is granted the
//            crossbar (FOGSim's input buffer, which removes a packet whole at its grant);
//            the buffer then holds up to one packet beyond its credited depth while the
//            granted packet leaves. Needs Inside: every sender spends a packet's credits
//            when it starts.
//
// Under PFC no credits exist (Inside is refused) and input VCs pause their senders instead
// (PfcInput); the one return at grant left is a host input's room, counted by its NIC for
// source.when_full: skip (HostRoom below; PFC alone gates the link).
//
// The switch owns the counters and the buffers; it asks this part at each of the four
// points (grant test, grant, link start, phit sent) and at each grant what to return.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "rtl_models/switch/parts/flow_control.h"

namespace scfly {

enum class OutputCredits : uint8_t { Outside, Inside };
enum class CreditReturn : uint8_t { Phit, Packet };

// What an input VC sends upstream the cycle one of its packets is granted the crossbar.
enum class GrantReturn : uint8_t {
  None,      // nothing: its credits go as its phits leave (or PFC RESUMEs)
  Packet,    // a credit for every phit of the packet, all landing in one cycle
  HostRoom,  // under PFC, at a host input: one message with the packet's phits (the NIC's room check)
};

class CreditLoop {
 public:
  CreditLoop() = default;
  // `pfc`: the switch runs PFC; `pfc_host_room`: under PFC, host inputs report a granted
  // packet's room to their NIC. Throws std::invalid_argument for Inside under PFC and for
  // Packet without Inside.
  CreditLoop(OutputCredits out, CreditReturn ret, bool pfc, bool pfc_host_room)
      : m_inside(out == OutputCredits::Inside), m_packet(ret == CreditReturn::Packet) {
    if (m_inside && pfc) throw std::invalid_argument("switch.output_credits inside needs credit flow control");
    if (m_packet && !m_inside)
      throw std::invalid_argument("switch.credit_return packet needs switch.output_credits inside");
    m_at_grant = m_packet || (pfc && pfc_host_room);
  }

  bool inside() const { return m_inside; }
  // Some input VC returns something at a grant (at_grant() is not None for some input).
  bool returns_at_grant() const { return m_at_grant; }

  // Allocation: an output VC whose downstream counter is `cr` may take a packet of `phits`
  // granted at `cycle` (its room in the output buffer is OutputRoom's).
  bool admits(const CreditCounter& cr, uint64_t cycle, uint32_t phits) const {
    return !m_inside || !cr.counted() || cr.room(cycle, phits);
  }
  // A packet of `phits` was granted that output VC.
  void granted(CreditCounter& cr, uint32_t phits) const {
    if (m_inside && cr.counted()) cr.spend(phits);
  }
  // The link: the packet of `phits` at the front of the output VC may start at `now`
  // (a counted VC: credit flow control, not toward a host).
  bool may_start(const CreditCounter& cr, uint64_t now, uint32_t phits) const {
    return m_inside || cr.room(now, phits);
  }
  // A phit of that VC left on the link.
  void sent(CreditCounter& cr) const {
    if (!m_inside) cr.spend(1);
  }
  // What the input VC of a packet just granted returns upstream (`host`: a host input).
  GrantReturn at_grant(bool host) const {
    if (!m_at_grant) return GrantReturn::None;
    if (m_packet) return GrantReturn::Packet;
    return host ? GrantReturn::HostRoom : GrantReturn::None;
  }
  // Phits an input VC holds beyond its credited depth: with Packet, one packet (the
  // largest the network sends) whose credits went back at its grant.
  uint32_t input_slack(uint32_t largest_packet) const { return m_packet ? largest_packet : 0; }

  // What a congestion measure reads of an output VC holding `out` phits whose counter shows
  // `committed` credits spent and not back: the phits downstream of the output buffer
  // (`downstream`) or those plus the output buffer's (`both`). Inside, the spent credits
  // already count the output buffer and what is still crossing into it.
  uint32_t committed_downstream(uint32_t out, uint32_t committed) const {
    return m_inside ? (committed > out ? committed - out : 0u) : committed;
  }
  uint32_t committed_with_output(uint32_t out, uint32_t committed) const {
    return m_inside ? committed : out + committed;
  }

 private:
  bool m_inside = false;
  bool m_packet = false;
  bool m_at_grant = false;
};

}  // namespace scfly
