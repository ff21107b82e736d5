// One switch alone, every port driven through its TLM sockets: a testbench for the switch
// (the suite's tests/test_switch_bench.cpp, examples/switch-tb).
//
// A PortAgent stands in for whatever is at the far end of one port: it sends packets into
// the switch's input (an initiator socket bound to the switch's input target socket) and
// receives what the switch sends out of that port (a target socket bound by the switch's
// output initiator socket), speaking the link protocol of rtl_models/switch/link.h:
//  - sending: virtual cut-through as a switch or NIC does: a packet starts on its VC only
//    with credits for all of it (credit flow control) or while the VC is not paused (PFC),
//    one phit per cycle, one packet at a time; the credits the switch returns land after
//    the link latency;
//  - receiving: an input buffer that drains at once: each phit landing returns its credit
//    in the same cycle (toward a switch-to-switch port; a host port's output has no
//    credits: the sink never back-pressures), never pauses.
// Every phit received is checked (a packet's phits arrive in order on one VC, one packet
// at a time on the link) and every packet is recorded with its landing cycles.
//
// SwitchBench builds one switch of a network described by a SimConfig (its topology,
// switch parameters and routing) and one PortAgent per port. What a packet carries is the
// header its path gives it: walk() routes a packet from its source to its destination
// through the routing unit (first candidate, as the switch's allocator takes it when
// nothing blocks), and inject() puts it into the switch at the port its path enters,
// expecting it out of the port its path leaves by. Mechanisms that read state shared across
// switches (UGAL-G's network view, Piggyback's flags) need the whole network: refused.
//
// Time: the bench adds no clock of its own; the caller owns the clock and runs sc_start.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <systemc>

#include "rtl_models/switch/link.h"
#include "rtl_models/switch/sim_context.h"
#include "rtl_models/switch/switch.h"
#include "routing_units/routing.h"
#include "tb/sim_config.h"
#include "topologies/common/rng.h"

namespace scfly {

class PortAgent : public sc_core::sc_module, public Clocked {
 public:
  struct Params {
    int vcs = 1;             // VCs of the switch's input on this port (data + control)
    uint32_t credits = 0;    // per VC: the switch's input buffer depth (credit flow control)
    bool pfc = false;        // the switch's input pauses (PFC) instead of counting credits
    bool return_credits = true;  // the switch's output here counts credits (not a host port)
    uint64_t latency = 1;    // link latency, cycles (both directions)
  };
  struct Received {
    PacketId pkt;
    uint8_t vc;
    uint16_t phits;
    uint64_t head_cycle, tail_cycle;  // landing cycles here
  };
  PortAgent(sc_core::sc_module_name name, const sc_core::sc_clock& clk, SimContext& ctx, const Params& prm);

  LinkTx tx;  // into the switch: tx.socket binds the switch's in(port).socket
  LinkRx rx;  // out of the switch: the switch's out(port).socket binds rx.socket

  // Queues packet `pkt` (in ctx.pool, with its header and length) to start on `vc` at
  // cycle `not_before` or later; packets of one VC start in the order queued.
  void send(PacketId pkt, uint8_t vc, uint64_t not_before = 0);
  const std::vector<Received>& received() const { return m_received; }
  // Phits and packets sent into the switch so far; packets still queued or being sent.
  uint64_t phits_sent() const { return m_phits_sent; }
  uint64_t packets_started() const { return m_started; }
  size_t pending() const;
  // Credits held for VC v (credit flow control), and whether v is paused (PFC).
  int64_t credits(int v) const { return m_credits[static_cast<size_t>(v)]; }
  bool paused(int v) const { return m_paused[static_cast<size_t>(v)] != 0; }
  // Violations of the link protocol seen so far (empty: none).
  const std::vector<std::string>& errors() const { return m_errors; }
  // The most phits landed here in one cycle.
  uint32_t max_phits_per_cycle() const { return m_max_per_cycle; }

 private:
  void tick();
  struct Queued {
    PacketId pkt;
    uint64_t not_before;
  };
  SimContext& m_ctx;
  Params m_prm;
  std::vector<std::deque<Queued>> m_queue;  // per VC
  std::vector<int64_t> m_credits;
  std::vector<uint8_t> m_paused;
  int m_rr = 0;
  // The packet on the link now.
  PacketId m_cur = 0;
  uint16_t m_cur_seq = 0, m_cur_phits = 0;
  uint8_t m_cur_vc = 0;
  bool m_sending = false;
  uint64_t m_phits_sent = 0, m_started = 0;
  // Receiving: the packet landing now.
  bool m_in_pkt = false;
  Received m_rx_cur{};
  uint16_t m_rx_next = 0;
  std::vector<Received> m_received;
  std::vector<std::string> m_errors;
  uint32_t m_max_per_cycle = 0;
};

class SwitchBench : public sc_core::sc_module {
 public:
  // Switch `sw` of the network `cfg` describes, clocked by `clk`.
  SwitchBench(sc_core::sc_module_name name, const SimConfig& cfg, int sw, const sc_core::sc_clock& clk);
  ~SwitchBench() override;

  Switch& dut() { return *m_switch; }
  PortAgent& port(int p) { return *m_agents[static_cast<size_t>(p)]; }
  int radix() const { return static_cast<int>(m_agents.size()); }
  int switch_id() const { return m_sw; }
  const Topology& topology() const { return *m_topo; }
  const RoutingUnit& routing() const { return *m_routing; }
  SimContext& context() { return m_ctx; }

  // One hop of a packet's path: at switch `sw` it entered on `in_port` (a host port at its
  // source) and leaves on `out_port` on VC `vc`, carrying `header` (as routed there).
  struct Hop {
    int sw, in_port, out_port;
    uint8_t vc;
    RouteHeader header;
  };
  // The path of a packet from node `src` to node `dst` (src != dst), routed hop by hop by
  // the routing unit from the header a NIC gives it, drawing from `rng`.
  std::vector<Hop> walk(int src, int dst, Rng& rng) const;
  // A packet that passes through this switch on `path` (walk()), ready to send: where it
  // enters (port, VC), its header there, the port its path leaves by, and every port the
  // switch's routing may send it to from that header (the candidates of 16 routings with
  // different draws: one port for a deterministic unit, several where it draws or adapts,
  // e.g. a torus tie or a Valiant intermediate at the source). Empty if the path does not
  // pass through this switch.
  struct Entry {
    PacketId pkt;
    int in_port;
    uint8_t vc;
    int out_port;
    std::vector<int> may_leave;  // sorted
  };
  std::optional<Entry> enter(const std::vector<Hop>& path, int src, int dst, uint16_t phits);
  // enter() and send at the agent of its input port; the packet is expected at out_port.
  std::optional<Entry> inject(int src, int dst, Rng& rng, uint64_t not_before = 0);

  // Runs the clock until every packet injected has left the switch (at most `limit` more
  // cycles, in steps of 100), then until the last credits are home; true if it drained.
  bool drain(const sc_core::sc_clock& clk, uint64_t limit);
  // After the traffic has drained: every packet injected arrived exactly once, whole, on a
  // port its routing may send it to (Entry::may_leave); packets from one input VC to one output kept their order; no
  // link protocol violation; the switch is empty and every credit is back where it started.
  // Returns the violations (empty: none).
  std::vector<std::string> check() const;
  uint64_t packets_injected() const { return m_entries.size(); }
  uint64_t packets_delivered() const;

 private:
  SimContext m_ctx;
  std::unique_ptr<Topology> m_topo;
  std::unique_ptr<RoutingUnit> m_routing;
  SwitchParams m_prm;
  int m_sw;
  std::unique_ptr<Switch> m_switch;
  std::vector<std::unique_ptr<PortAgent>> m_agents;
  std::vector<Entry> m_entries;  // in injection order
};

}  // namespace scfly
