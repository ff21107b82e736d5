// A node's network interface: Bernoulli packet source, infinite source queue, injection
// over a credit-controlled link into the switch's injection buffer, and the sink.
//
// Generation is a Bernoulli process: in each cycle a packet is generated with probability
// q = load / packet_phits (load in phits/node/cycle). The NIC draws the gap to the next
// generation from the equivalent geometric distribution, so an idle NIC sleeps until then
// instead of drawing every cycle. Gaps and destinations come from two separate streams of
// the NIC, so a packet's destination does not depend on when it is injected.
// The source queue is unbounded (it holds generation times only); the finite injection
// buffer is the switch's host-port input buffer, reached with virtual cut-through (a head
// leaves only when its injection VC has credits for the whole packet).
#pragma once

#include <systemc>

#include "rtl_models/switch/link.h"
#include "rtl_models/switch/sim_context.h"
#include "tb/rng.h"
#include "tb/stats.h"
#include "tb/traffic.h"
#include "topologies/dragonfly.h"

namespace scfly {

struct NicParams {
  double load = 0.1;          // phits/node/cycle
  int packet_phits = 8;
  int vcs = 1;                // injection VCs
  uint32_t buffer = 64;       // switch injection buffer per VC, phits (initial credits)
  uint32_t latency = 1;       // injection/ejection link latency, cycles
};

class Nic : public sc_core::sc_module, public Clocked {
 public:
  Nic(sc_core::sc_module_name name, int node, const Dragonfly& topo, const NicParams& prm,
      const TrafficPattern& pattern, SimContext& ctx, NetStats& stats, uint64_t seed,
      const sc_core::sc_clock& clk);

  LinkTx& out() { return m_out; }
  LinkRx& in() { return m_in; }
  // No packet is generated at or after `cycle` (drain phase).
  void stop_generation(uint64_t cycle) { m_gen_stop = cycle; }
  uint64_t queued() const { return m_queue.size(); }  // generated, not yet injected

 private:
  void tick();
  uint64_t gap();

  int m_node;
  const Dragonfly& m_topo;
  NicParams m_prm;
  const TrafficPattern& m_pattern;
  SimContext& m_ctx;
  NetStats& m_stats;
  Rng m_gap_rng, m_dst_rng;
  double m_log1mq;  // log(1 - q), q < 1
  LinkTx m_out;
  LinkRx m_in;
  RingBuffer<uint64_t> m_queue;  // generation cycles of packets not yet injected
  uint64_t m_next_gen = 0;
  uint64_t m_gen_stop = UINT64_MAX;
  std::vector<int32_t> m_credits;
  int m_rr = 0;
  int64_t m_cur_pkt = -1;  // packet being serialized onto the injection link
  uint16_t m_cur_seq = 0;
  uint8_t m_cur_vc = 0;
};

}  // namespace scfly
