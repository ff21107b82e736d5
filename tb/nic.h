// A node's network interface: Bernoulli packet source, infinite source queue, injection
// over a credit-controlled link into the switch's injection buffer, and the sink.
//
// Generation is a Bernoulli process: in each cycle a packet is generated with probability
// q = load / packet_phits (load in phits/node/cycle), q changing at phase boundaries. The NIC draws the gap to the next
// generation from the equivalent geometric distribution, so an idle NIC sleeps until then
// instead of drawing every cycle. A packet that starts on a link is handed to it whole, each
// phit annotated with the cycle it leaves (one per cycle, as on the wire), and the NIC
// sleeps while the link carries it; the sink wakes for tails only (it checks the phits
// before a tail in order when the tail lands) and the NIC wakes for credits only while a
// queued packet waits for them.
// Terminal ports: a node with w > 1 terminal ports (topology.terminal_ports, tori) has w
// links each way, and its source is the superposition of w independent Bernoulli sources
// of q = load / (w * packet_phits) each (so loads up to w phits/node/cycle), merged into
// the one source queue in generation order; each idle link starts the oldest queued
// packet, so up to w packets leave per cycle. With w = 1 this is the process above. Gaps and destinations come from two separate streams of
// the NIC, so a packet's destination does not depend on when it is injected.
// source.injection_vc: dest (NicParams::vc_by_dest, FOGSim's VcInjectionPolicy=DEST): the
// destination is drawn when the packet is generated (the same stream, in the same order as
// when drawn at injection) and fixes its injection VC, floor(dst * V / N); the node keeps one
// queue per VC and an idle port starts the oldest head among the queues whose VC has room
// (so a VC whose buffer is full does not hold back the others). With skip, the room a
// generation checks is its own VC's.
// source.when_full: skip (NicParams::skip_when_full, FOGSim's hosts): a generation that finds
// no room for its packet in the injection buffer (credits over the ports' VCs, less the
// packets waiting in the source queue) creates no packet (counter source_skipped_generations).
// Under PFC the switch returns credits from the host input buffer for this check only
// (SwitchParams::pfc_host_credits); the link itself still starts a packet on PFC's state.
// The source queue is unbounded (it holds generation times only); the finite injection
// buffer is the switch's host-port input buffer, reached with virtual cut-through (a head
// leaves only when its injection VC has credits for the whole packet).
// Phases: a gap drawn under one phase that would cross the next phase's start is discarded
// and redrawn from that start under the new rate; by the memorylessness of the geometric
// gap this is exactly a Bernoulli process whose probability changes at the boundary. A
// packet's destination follows the pattern of the phase it was generated in.
//
// GAL (routing gal on a torus; GAL paper sec. III.B, Fig. 6): between the source queue and
// the link sit S sets x 2^n injection queues of `gal.queue_depth` packets, one per
// destination set and quadrant. Each cycle the injection unit takes the source queue's
// head (drawing its destination; up to w heads with w terminal ports), and puts it into the queue gal_choose() picks with the
// set's current threshold T (gal_threshold.h), setting the packet's quadrant in its header;
// if that queue is full the head waits. The queues of quadrant q feed injection VC q (the
// switch's injection input has one VC per quadrant, so a congested quadrant does not block
// the others), oldest packet first across the sets; each link serves the quadrants
// round-robin among those with credits on it. A packet counts as injected (and as a departure
// for its set's threshold controller) when its head leaves on the link; until then it is
// queued.
#pragma once

#include <memory>
#include <systemc>
#include <vector>

#include "rtl_models/switch/link.h"
#include "rtl_models/switch/sim_context.h"
#include "topologies/common/rng.h"
#include "tb/stats.h"
#include "tb/traffic.h"
#include "routing_units/routing.h"
#include "topologies/dragonfly.h"
#include "topologies/torus.h"

namespace scfly {

class TlmEndpoint;

// One traffic phase as the NIC sees it: from `start` on, generate with per-cycle
// probability load/packet_phits toward `pattern`.
struct NicPhase {
  uint64_t start = 0;
  double load = 0.1;                      // phits/node/cycle, 0 = silent
  const TrafficPattern* pattern = nullptr;
};

struct NicParams {
  std::vector<NicPhase> phases;  // at least one, the first starting at cycle 0
  int packet_phits = 8;
  int vcs = 1;                // injection VCs
  uint32_t buffer = 64;       // switch injection buffer per VC, phits (initial credits)
  uint32_t latency = 1;       // injection/ejection link latency, cycles
  bool sleep = true;          // sleep while idle (sim.sleep); false = run every cycle
  bool pfc = false;           // injection link under PFC: pause/resume instead of credits
  const Torus* gal_torus = nullptr;  // GAL injection queues on this torus (null: none)
  GalParams gal;
  bool rtl_gal_threshold = false;    // GAL's threshold controllers as the Verilated RTL (--rtl
                                     // gal_threshold): clocked every cycle, the NIC never sleeps
  bool scheduled = false;  // no process: the network's block scheduler runs it (run_cycle)
  // source.when_full: skip: a generation finding no room for its packet in the injection
  // buffer (credits less the packets waiting at the node) creates no packet.
  bool skip_when_full = false;
  // source.injection_vc: dest (FOGSim's VcInjectionPolicy=DEST): the destination is drawn
  // at generation and fixes injection VC floor(dst * vcs / N); one queue per VC.
  bool vc_by_dest = false;
};

class Nic : public sc_core::sc_module, public Clocked {
 public:
  Nic(sc_core::sc_module_name name, int node, const Topology& topo, const NicParams& prm,
      SimContext& ctx, NetStats& stats, uint64_t seed, const sc_core::sc_clock& clk);

  // Terminal port j's links (j < the topology's terminal_ports()).
  LinkTx& out(int j = 0) { return *m_ports[static_cast<size_t>(j)].out; }
  LinkRx& in(int j = 0) { return *m_ports[static_cast<size_t>(j)].in; }
  // Block scheduler (NicParams::scheduled): run cycle `now` (>= next_run()), which sets
  // the next one.
  void run_cycle(uint64_t now);
  // No packet is generated at or after `cycle` (drain phase).
  void stop_generation(uint64_t cycle) { m_gen_stop = cycle; }
  uint64_t queued() const { return m_queue.size() + m_gal_queued + m_vcq_total + m_ext.size(); }  // generated, not yet injected
  // TLM endpoint (tlm_endpoint.h): the host's traffic comes from `ep` instead of the
  // Bernoulli source (make the phases silent for this NIC), and its packets carry messages.
  void attach_endpoint(TlmEndpoint& ep) { m_endpoint = &ep; }
  // One packet of message `msg` toward node `dst`, generated at cycle `gen` (> the current
  // cycle): queued for injection like a generated packet.
  void push_message_packet(uint64_t gen, int dst, uint32_t msg);
  // Message packets queued here, not yet injected.
  size_t message_packets_queued() const { return m_ext.size(); }
  // Packets allocated but not yet on the link (GAL's injection queues and the pending head).
  uint64_t held_packets() const { return m_gal_queued + (m_gal_pending >= 0 ? 1 : 0); }

 private:
  // One terminal port: its two links, the credits (or PFC pause state) of the switch's
  // injection VCs behind it, and when its link is free again.
  struct TermPort {
    std::unique_ptr<LinkTx> out;
    std::unique_ptr<LinkRx> in;
    std::vector<int32_t> credits;
    std::vector<uint8_t> paused;  // PFC: per injection VC
    int rr = 0;
    uint64_t free_at = 0;  // first cycle the link is free to start a packet

    // Sink: the phit index expected next on the ejection link (0: a head).
    uint16_t rx_next = 0;
  };
  // One of the w Bernoulli sub-sources.
  struct Source {
    Rng gap_rng;
    uint64_t next_gen = 0;
    size_t phase = 0;  // phase of next_gen
  };

  // The clocked process: tick_single for one terminal port (every Dragonfly), tick_multi
  // for several.
  void tick_single();
  void tick_multi();
  template <bool kMulti>
  void tick_impl();
  template <bool kMulti>
  void step(uint64_t now);  // cycle `now`; sets m_next_run and m_asleep
  // Sets src.next_gen to its first generation at or after cycle `base` (phase-aware).
  void schedule_generation(Source& src, uint64_t base);
  // The sub-source with the earliest next generation.
  Source& next_source() {
    Source* b = &m_src[0];
    for (size_t j = 1; j < m_src.size(); ++j)
      if (m_src[j].next_gen < b->next_gen) b = &m_src[j];
    return *b;
  }
  // Draws the destination of the source queue's head into a new packet.
  PacketId make_packet(uint64_t now);
  // A new packet generated at `gen` toward node `dst`, injected at `now`.
  PacketId new_packet(uint64_t gen, int dst, uint64_t now);
  // vc_by_dest: a generation at `gen` (phase `phase`): draws its destination and queues it
  // on its VC, or skips it (skip_when_full) when that VC has no room.
  void generate_by_dest(uint64_t gen, size_t phase);
  // vc_by_dest: on each idle port start the oldest head among the VC queues with room.
  void inject_by_dest(uint64_t now);
  // Starts packet `id` on terminal port `tp`, injection VC `vc`, in cycle `now`.
  void start(TermPort& tp, PacketId id, int vc, uint64_t now);
  // GAL: the injection unit and the choice of the next packets onto the links.
  void gal_inject(uint64_t now);
  // Stops the run: phit `f` arrived on ejection port `j` out of order (see the sink).
  void phit_order_error(size_t j, const Flit& f, const TermPort& tp);
  bool can_start(const TermPort& tp, int vc, int phits) const {
    return m_prm.pfc ? !tp.paused[static_cast<size_t>(vc)] : tp.credits[static_cast<size_t>(vc)] >= phits;
  }

  int m_node;
  const Topology& m_topo;
  NicParams m_prm;
  SimContext& m_ctx;
  NetStats& m_stats;
  Rng m_dst_rng;
  std::vector<double> m_log1mq;  // per phase: log(1 - q) of one sub-source; 0 if q >= 1; NaN if q == 0
  size_t m_inj_phase = 0;        // phase of the oldest queued packet's generation
  std::vector<Source> m_src;     // w sub-sources
  std::vector<TermPort> m_ports; // w terminal ports
  RingBuffer<uint64_t> m_queue;  // generation cycles of packets not yet injected
  uint64_t m_gen_stop = UINT64_MAX;
  uint64_t* m_skipped = nullptr;  // counter source_skipped_generations (skip_when_full)
  // skip_when_full: room for one more packet in the injection buffer behind the node's
  // ports, counting the packets waiting in the source queue against it.
  bool room_for_packet() const;
  // vc_by_dest: per injection VC, the queued packets (generation cycle, destination node).
  struct Queued {
    uint64_t gen;
    int32_t dst;
  };
  std::vector<RingBuffer<Queued>> m_vcq;
  uint64_t m_vcq_total = 0;
  // TLM endpoint: its packets (generation cycle, destination, message), oldest first.
  struct External {
    uint64_t gen;
    int32_t dst;
    uint32_t msg;
  };
  RingBuffer<External> m_ext;
  TlmEndpoint* m_endpoint = nullptr;
  void inject_messages(uint64_t now);
  // GAL
  int m_gal_q = 0;                          // quadrants 2^n (0: GAL off)
  std::vector<uint16_t> m_gal_occ;          // [set * m_gal_q + quadrant] packets queued
  std::vector<GalThreshold> m_gal_thr;      // per set
  std::vector<std::unique_ptr<GalThresholdBlock>> m_gal_rtl;  // per set, instead (--rtl gal_threshold)
  std::vector<RingBuffer<PacketId>> m_gal_fifo;  // per quadrant: its packets, oldest first
  int64_t m_gal_pending = -1;               // source-queue head with its destination drawn
  uint64_t m_gal_queued = 0;                // packets in the injection queues
};

}  // namespace scfly
