// One switch of any topology (topologies/topology.h): combined input-output queued (CIOQ),
// virtual cut-through, credit-based flow control per VC, crossbar with speedup S, separable
// input-first round-robin allocator (one request-grant pass per cycle, or
// switch.allocator_iterations; switch.allocator selects another: output-first, wavefront,
// iSLIP), fixed pipeline latency. See cycle_stages() in switch.cpp for the
// per-cycle stage order.
//
// Microarchitecture contract:
// - Input buffer per (port, VC) and output buffer per (port, VC), depths and VC counts per
//   port class (the host class and the classes the topology names) in phits.
// - A head is routable `pipeline` cycles after it lands in the input buffer.
// - Crossbar: a connection joins one input VC to one output VC for a whole packet and
//   moves one phit per cycle; an input port may feed and an output port may accept up to S
//   connections at once, i.e. up to S phits per input and per output per cycle. With
//   switch.crossbar: transfer, one connection per port moves up to S phits per cycle
//   (FOGSim's IOQ switch); the two are the same when S = 1.
// - Allocation is virtual cut-through: an output VC is granted only when no other packet is
//   being written into it and it has room for the whole packet; a packet starts on a link
//   only when the downstream VC has credits for the whole packet. Phits of a packet follow
//   their head as soon as they arrive (cut-through), one packet per link at a time.
// - Round-robin everywhere (input VC choice, output arbitration over inputs, link VC
//   choice): never a fixed scan from VC 0.
// - Host (ejection) outputs have one VC and the sink never back-pressures.
// - The routing unit sees only the packet header, the switch id/input port and an explicit
//   RouteContext (blocked attempts of the head, the state of the switch's mechanism units,
//   the congestion view).
// - Mechanism units (switch_unit.h: ACOR level controller, Piggyback detector, congestion
//   publisher) hold the mechanism state; the switch drives them at the end of each cycle.
// - Candidate routing: a routing unit returns an ordered set of (port, VC range) candidates
//   (route_types.h); the input stage requests the first with a free output VC.
// - Re-routing (VAL with recompute, ACOR; in-transit adaptive units): a head at an input the
//   routing unit re-routes (RoutingUnit::reroute(): injection inputs, or every input) that
//   is routed but not granted the crossbar in a cycle is blocked; it is routed again the
//   next cycle from its header as it arrived, with its attempt count raised. Blocked
//   non-minimal heads at injection inputs are the events that drive the switch's ACOR level
//   controller (ACOR-Switch).
// - Multiqueue (CHAOS, routing_units/torus_routing.h; SwitchParams::multiqueue > 0): a
//   shared buffer of M packet slots, the switch's internal input port (index radix, as the
//   control endpoint, which it excludes). After allocation (multiqueue_stage), one transit
//   head that was routed but not granted, with its whole packet buffered, moves into a free
//   slot (one write per cycle, round-robin over the transit inputs; its phits are credited
//   upstream at once); host inputs never enter it. Slot heads are routed again every cycle,
//   request the crossbar (one input, up to S connections) before every link input (strict
//   priority at each output), slots in round-robin order. When a transit head finds the
//   multiqueue full, one slot packet drawn at random (not at its destination switch, not
//   connected) is derouted, unless a derouted packet is still waiting (one at a time):
//   routed from then on with every output link as a candidate. Counters
//   chaos_multiqueue_entries, chaos_deroutes.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "rtl_models/switch/link.h"
#include "rtl_models/switch/parts/allocator.h"
#include "rtl_models/switch/parts/allocator_islip.h"
#include "rtl_models/switch/parts/allocator_output_first.h"
#include "rtl_models/switch/parts/allocator_plugin.h"
#include "rtl_models/switch/parts/allocator_wavefront.h"
#include "rtl_models/switch/parts/credit_loop.h"
#include "rtl_models/switch/parts/crossbar.h"
#include "rtl_models/switch/parts/flow_control.h"
#include "rtl_models/switch/parts/input_unit.h"
#include "rtl_models/switch/parts/link_arbiter.h"
#include "rtl_models/switch/parts/output_room.h"
#include "rtl_models/switch/parts/pipeline.h"
#include "rtl_models/switch/parts/route_stage.h"
#include "rtl_models/switch/sim_context.h"
#include "rtl_models/switch/switch_unit.h"
#include "routing_units/forwarding_table.h"
#include "routing_units/routing.h"
#include "topologies/common/rng.h"
#include "topologies/topology.h"

namespace scfly {

class AllocatorBlock;  // rtl_models/verilog/rtl_blocks.h (--rtl allocator)
struct RtlGrant;
class FlowControlBlock;  // ... (--rtl flow_control)
class LinkArbiterBlock;  // ... (--rtl link_arbiter)

// Link-level flow control of every switch-to-switch and injection link.
//  credit  per-VC credits (HPC): a packet starts on a link only with credits for all of it.
//  pfc     Ethernet Priority Flow Control (802.1Qbb) per VC: the receiver sends PAUSE when an
//          input VC's occupancy reaches its XOFF threshold and RESUME when it falls to XON;
//          both travel back with the link latency; a paused VC starts no new packet (one in
//          progress finishes). XOFF leaves headroom for everything that can still arrive
//          (config: 2 x link latency + 2 packets, a default where the QCN-Switch paper is
//          silent), so the network
//          is lossless; an overflow is a simulation error. No credits exist in this mode:
//          routing may read only its own switch's output queues (config rejects the
//          credit-based congestion measures).
enum class FlowControl : uint8_t { Credit, Pfc };
const char* to_string(FlowControl f);

struct SwitchParams {
  int speedup = 2;
  // switch.allocator_iterations: request-grant passes of the separable allocator per cycle.
  // In a later pass every input with fewer connections than it may hold requests again,
  // for its VCs not granted yet, among the output VCs and output ports still free.
  int allocator_iterations = 1;
  // switch.allocator: which allocator (parts/allocator.h, the default, or one of the
  // variants of parts/allocator_variant_base.h).
  AllocatorKind allocator = AllocatorKind::SeparableInput;
  // switch.crossbar: how the speedup S is spent. false (connections): each input and output
  // port holds up to S connections, each moving one phit per cycle; true (transfer): one
  // connection per port, moving up to S phits per cycle (FOGSim's IOQ InternalSpeedup).
  bool xbar_transfer = false;
  int pipeline = 5;                       // cycles from head arrival to routable
  // switch.pipeline_position: output: the `pipeline` cycles sit after the crossbar instead
  // (a head is routable on landing and may leave an output buffer `pipeline` cycles after it
  // crossed into it: FOGSim's XbarDelay).
  bool pipeline_at_output = false;
  // Per port class (index = the topology's class id; class 0 = host: injection VCs,
  // injection buffer, ejection output buffer, host link latency).
  int vcs[kMaxPortClasses] = {1, 2, 1};
  uint32_t in_buf[kMaxPortClasses] = {64, 64, 128};  // input buffer depth per VC, phits
  uint32_t out_buf[kMaxPortClasses] = {32, 32, 32};  // output buffer depth per VC (per port if out_shared), phits
  // switch.output_credits: inside: a packet is switched into an output VC only with
  // downstream credits for all of it, spent at the grant (the output buffer sits inside the
  // credit loop: everything in it can leave); outside (false): credits are needed only to
  // leave on the link. FOGSim's IOQ output port is inside.
  bool out_in_credit_loop = false;
  // switch.output_sharing: port: a network output port's data VCs share one buffer of
  // out_buf[class] phits (FOGSim's single OutQueueLength FIFO per port); vc (false): each
  // VC has its own out_buf[class] phits.
  bool out_shared = false;
  // switch.credit_return: packet: an input VC returns the credits of a whole packet to the
  // sender the cycle its head is granted the crossbar (FOGSim's input buffer, which removes
  // a packet whole at its grant); phit (false): one credit per phit as it leaves. Needs
  // out_in_credit_loop (every sender spends a packet's credits at its start).
  bool credit_at_grant = false;
  // Under PFC: host input buffers also return a packet's credits when it is granted the
  // crossbar, which the NIC counts for source.when_full: skip (set with it; the link is
  // still gated by PFC).
  bool pfc_host_credits = false;
  // switch.ejection_grant: host-idle: a packet for a host is granted the crossbar only while
  // that host's link is idle (the node is not receiving a packet), at most one per allocator
  // pass; several packets granted toward a host cross into its ejection buffer one after
  // another, the buffer's room counted with those not yet in it. FOGSim's IOQ consume port
  // (its arbiter asks the node, `generatorModule::checkConsume`, not the queue's crossbar
  // input). room (false): granted when the ejection buffer has room and no other packet is
  // crossing into it, like every other output.
  bool eject_on_idle_host = false;
  uint32_t latency[kMaxPortClasses] = {1, 10, 40};   // link latency, cycles
  bool rtl_acor = false;                  // co-simulate the Verilated ACOR level controller
  bool rtl_ugal = false;                  // ... the Verilated UGAL selector
  bool rtl_pb = false;                    // ... the Verilated Piggyback saturation detector
  bool rtl_min_route = false;             // ... the Verilated minimal route unit (all switches)
  bool rtl_table = false;                 // ... the Verilated conditional forwarding table
  bool rtl_qcn = false;                   // ... the Verilated QCN port-probability unit
  bool rtl_qcn_cp = false;                // ... the Verilated QCN congestion points
  bool rtl_quadrant = false;              // ... the Verilated torus in-quadrant selector (all switches)
  bool rtl_gal_threshold = false;         // ... the Verilated GAL threshold controllers (in the NICs)
  bool rtl_allocator = false;             // ... the Verilated separable allocator (all switches)
  bool rtl_flow_control = false;          // ... the Verilated flow control of every port (all switches)
  bool rtl_link_arbiter = false;          // ... the Verilated link arbiter of every port (all switches)
  // Every rtl_* flag above, for code that treats them alike (is any on; all off for the
  // switches rtl_switches leaves out). A new block's flag goes here too.
  template <class Self>
  static auto rtl_flags_of(Self& p) {
    return std::array{&p.rtl_acor,      &p.rtl_ugal,          &p.rtl_pb,        &p.rtl_min_route,
                      &p.rtl_table,     &p.rtl_qcn,           &p.rtl_qcn_cp,    &p.rtl_quadrant,
                      &p.rtl_gal_threshold, &p.rtl_allocator, &p.rtl_flow_control, &p.rtl_link_arbiter};
  }
  auto rtl_flags() { return rtl_flags_of(*this); }
  bool any_rtl() const {
    for (const bool* b : rtl_flags_of(*this))
      if (*b) return true;
    return false;
  }
  bool sleep = true;                      // idle switches sleep until a link wakes them (sim.sleep)
  bool check_vc_order = false;            // sim.check_vc_order: stop if a packet's VC decreases in a class
  FlowControl flow_control = FlowControl::Credit;
  uint32_t pfc_xoff[kMaxPortClasses] = {};  // PFC: input VC occupancy that sends PAUSE, phits
  uint32_t pfc_xon[kMaxPortClasses] = {};   // ... and RESUME (<= XOFF), phits
  // Control class (TrafficClass::Control): VCs per port class above the data VCs (0 = the
  // network carries no control frames), and the probe generator (control.probe_*).
  int ctrl_vcs[kMaxPortClasses] = {};
  uint32_t probe_interval = 0;            // cycles between probe frames per switch, 0 = off
  uint16_t probe_phits = 1;
  uint16_t packet_phits = 8;              // data packet size (the network builder sets it)
  // Output arbitration (switch.output_arbiter): false = round-robin over every input;
  // true = transit priority: transit inputs (round-robin among them) before injection
  // inputs (round-robin among them), FOGSim's default PrioLRS output arbiter.
  bool transit_priority = false;
  // switch.output_arbiter: age: the oldest packet first (the earliest network injection
  // cycle), round-robin among equally old ones.
  bool age_priority = false;
  // CHAOS (routing=chaos, chaos.multiqueue): packet slots of the switch's multiqueue, 0 = none.
  int multiqueue = 0;
  // Set by the network builder: the switch has no process of its own; the network's block
  // scheduler runs it (run_cycle) with its hosts' NICs (tb/network.h, sim.scheduler).
  bool scheduled = false;
};

class Switch : public sc_core::sc_module, public Clocked, public ControlPort, public SwitchState {
 public:
  Switch(sc_core::sc_module_name name, int id, const Topology& topo, const SwitchParams& prm,
         const RoutingUnit& routing, SimContext& ctx, uint64_t seed,
         const sc_core::sc_clock& clk);
  ~Switch() override;

  int id() const { return m_id; }
  // Block scheduler (SwitchParams::scheduled): run cycle `now` (>= next_run()), which sets
  // the next one.
  void run_cycle(uint64_t now);
  int radix() const { return static_cast<int>(m_in.size()); }
  LinkRx& in(int port) { return *m_in[port]; }
  LinkTx& out(int port) { return *m_out[port]; }

  // Observability (read-only snapshots; also what the VCD tracer samples).
  int in_vcs(int port) const { return static_cast<int>(m_ivc[port].size()); }
  int out_vcs(int port) const { return static_cast<int>(m_ovc[port].size()); }
  // A traced switch files every phit and credit as it lands (no streaming, see receive()),
  // so that the occupancy and credits the tracer reads through these pointers are exact at
  // every cycle.
  void set_traced() { m_stream = false; }
  const uint32_t* in_occupancy(int port, int vc) const { return m_ivc[port][vc].buf.size_ptr(); }
  const uint32_t* out_occupancy(int port, int vc) const { return m_ovc[port][vc].buf.size_ptr(); }
  const int32_t* out_credits(int port, int vc) const { return &m_ovc[port][vc].cr.credits; }
  FlowControl flow_control() const { return m_pfc ? FlowControl::Pfc : FlowControl::Credit; }
  const uint32_t* out_paused(int port, int vc) const { return &m_ovc[port][vc].paused; }
  const uint32_t* in_xoff(int port, int vc) const { return &m_ivc[port][vc].pfc.xoff; }
  const int32_t* xbar_connection(int port, int vc) const { return &m_ivc[port][vc].xbar_out; }
  uint64_t buffered_phits() const;
  // The credit balance of a channel (credit flow control, checked at the end of a run,
  // tb/network.h): for input VC (port, vc), the phits that hold one of the sender's credits
  // (in the buffer, or on the link toward it and sent by the sender's cycle
  // `sender_cycle`: a sender puts the rest of a packet on the link ahead and spends their
  // credits as they leave; less those whose credits are on their way back already); for
  // output VC (port, vc), the credits held here (landed or taken ahead) and on the link
  // back, and the buffer size they count; the last cycle this switch ran.
  int64_t credits_held_in(int port, int vc, uint64_t sender_cycle) const;
  uint64_t last_run() const { return seen(); }
  int64_t credits_held_out(int port, int vc) const;
  int32_t credit_capacity(int port, int vc) const { return m_ovc[static_cast<size_t>(port)][static_cast<size_t>(vc)].cr.cap; }
  // The switch's conditional forwarding table, null unless its routing forwards by table.
  const ForwardingTable* table() const { return m_table.get(); }
  // The mechanism units' observable values (VCD and per-switch series), in unit order.
  std::vector<UnitSignal> unit_signals() const;
  // Blocked injection attempts so far (recomputing mechanisms), and traced per cycle.
  uint64_t blocked_total() const { return m_blocked_total; }
  const uint32_t* blocked_now() const { return &m_blocked_now; }
  // Human-readable dump of every non-empty buffer (watchdog report).
  std::string dump() const;
  // ControlPort: originate a control frame toward host `dst_node` (switch_unit.h).
  void originate(int dst_node, uint32_t payload, uint16_t phits) override;
  // SwitchState (switch_unit.h): what mechanism units may sample.
  int switch_id() const override { return m_id; }
  uint64_t data_packets_in(int port) const override { return m_pkts_in[static_cast<size_t>(port)]; }
  uint64_t data_packets_out(int port) const override { return m_pkts_out[static_cast<size_t>(port)]; }
  uint64_t data_packets_total() const override { return m_pkts_total; }
  uint32_t data_phits_in(int port) const override;
  uint32_t in_depth(int port) const override { return m_ivc[static_cast<size_t>(port)][0].buf.capacity(); }
  uint32_t out_depth(int port) const override { return m_ovc[static_cast<size_t>(port)][0].buf.capacity(); }
  bool out_stopped(int port, int vc, uint32_t phits) const override;
  uint32_t queued_for_output(int port) const override;
  uint32_t output_phits(int port) const override;
  const Packet* first_output_packet(int port) const override;
  const Packet* last_packet_out(int port) const override;
  void output_queue_packets(int port, std::vector<const Packet*>& out) const override;
  void in_packets(int port, std::vector<const Packet*>& out) const override;
  // The mechanism units' own state, for `scfly table` (e.g. QCN's exact probabilities).
  std::vector<std::unique_ptr<SwitchUnit>>& units() { return m_units; }

 private:
  // The fields every stage reads come first, in the VC's first cache line; the routed
  // head's candidates and saved header follow.
  // The buffer and its landing (buf, land_last, landed(): parts/input_unit.h; streaming,
  // see receive(): the last phits filed may not have landed yet; every stage and observer
  // reads landed(), never buf.size()), then the switch's state of the VC's head.
  struct alignas(64) InVc : InputVc {
    // While the front phit is a head: the cycle it becomes routable (its landing cycle here
    // + the pipeline latency), kept as the front changes so that waiting heads are checked
    // without a visit to their packet.
    uint64_t ready = UINT64_MAX;
    uint16_t phits = 0;      // the routed head's packet length (set when it is routed)
    uint16_t attempts = 0;   // re-routed inputs: blocked routing attempts of the head
    bool routed = false;
    bool connected = false;
    bool credited = false;  // the connected packet's remaining credits are already sent
    bool deroute = false;   // multiqueue slot: its packet is derouted (CHAOS)
    int32_t xbar_out = -1;  // traced: output port of the active crossbar connection
    PfcInput pfc;           // PFC: pfc.xoff is 1 while this VC has paused its upstream sender (traced)
    RouteCandidates cands;  // the routed head's candidates
    RouteHeader arrived;    // re-routed inputs: the head's header before its first routing
  };
  struct alignas(64) OutVc {
    RingBuffer<Flit> buf;
    bool writing = false;  // a crossbar connection is filling this VC
    uint16_t front_phits = 0;  // while the front phit is a head: its packet length
    uint16_t feed_port = 0;    // while writing: the input VC of the connection filling it
    uint8_t feed_vc = 0;
    // Free phits in the downstream input VC (parts/flow_control.h), of which the last ones
    // may not have landed yet (lazy credits, see receive()); every reader uses cr.at(now).
    CreditCounter cr;
    uint32_t paused = 0;   // PFC: 1 while the downstream input VC has paused us (traced)
    uint32_t landed(uint64_t) const { return buf.size(); }  // filed by the crossbar, never ahead
  };
  // An input VC joined to an output VC: a request during allocation, a crossbar
  // connection once granted.
  using Conn = AllocRequest;

  void tick();
  void run_stages(uint64_t now);
  // The stages, specialized at compile time on the flow control (kPfc) and on whether the
  // switch carries a control class (kCtl), chosen once per cycle: the default credit /
  // data-only path pays nothing for the modes it does not use.
  template <bool kPfc, bool kCtl>
  void cycle_stages(uint64_t now);
  template <bool kPfc>
  void receive(uint64_t now);
  void route_heads(uint64_t now);
  // Routes the head at the front of input VC (port, vc), due now; false (and the run
  // stopped) on a failure. `staged`: the units' route_stage() has run this cycle.
  [[gnu::noinline]] bool route_head(int port, int vc, uint64_t now, bool& staged);
  template <bool kCtl>
  void allocate();
  // The stage with the switch's callables (want, age, grant), decided by the C++ part or,
  // kRtl (--rtl allocator), by the Verilated allocator (m_alloc_rtl, allocate_rtl):
  // switch_allocate.h. The RTL path, allocate_rtl_stage, is in switch_rtl_alloc.cpp, so
  // that switch.cpp's code is what it is without the block.
  template <bool kCtl, bool kRtl, bool kVar = false>
  inline SCFLY_ALWAYS_INLINE void allocate_stage();
  template <bool kCtl>
  void allocate_rtl_stage();
  // Another switch.allocator than separable-input: switch_alloc_variants.cpp.
  template <bool kCtl>
  void allocate_variant_stage();
  template <bool kCtl, typename Want, typename IsFree, typename Age, typename Grant>
  void allocate_rtl(Want& want, IsFree& is_free, Age& age, Grant& grant);
  template <bool kPfc, bool kCtl, bool kTransfer>  // kTransfer: switch.crossbar transfer, S > 1
  void traverse_crossbar(uint64_t now);
  // --rtl flow_control (switch_rtl_fc.cpp): after the receive stage, the credits landed and
  // the phits filed go to each port's block, whose credits and PAUSE pulses the switch then
  // uses; after the crossbar (PFC), its RESUME pulses; at the cycle's end, the spends and
  // the clock edge. Out of line and cold: the default path only tests m_fc.
  void fc_build();
  // --rtl link_arbiter (switch_rtl_fc.cpp): one block per port, and the VC the block of
  // port `op` picks among those `ready` flags (bit c: VC c may start on the link now).
  void la_build();
  int la_pick(int op, uint32_t ready);
  template <bool kPfc>
  [[gnu::cold, gnu::noinline]] void fc_after_receive(uint64_t now);
  [[gnu::cold, gnu::noinline]] void fc_after_crossbar(uint64_t now);
  template <bool kPfc>
  [[gnu::cold, gnu::noinline]] void fc_end_cycle();
  template <bool kPfc, bool kCtl, bool kCheckVc>  // kCheckVc: sim.check_vc_order
  void transmit(uint64_t now);
  void drain_endpoint(uint64_t now);  // the switch's own endpoint output (control frames)
  void schedule(uint64_t now);  // sets m_next_run (and m_asleep) after cycle `now`
  // sim.check_vc_order: false (and the run stopped) if packet `id` leaving on (op, v) breaks the VC order.
  bool vc_order_ok(PacketId id, int op, int v);
  void mark_blocked();
  // Stops the run: the phit `f` at the front of input VC (port, vc) is not a head (a fault,
  // route_heads). Out of line and cold: the route stage's loop stays as tight without it.
  [[gnu::cold, gnu::noinline]] void phit_order_error(int port, int vc, const Flit& f);
  void multiqueue_stage(uint64_t now);  // CHAOS: entries into the multiqueue and deroutes
  // The cycle the head at the front of `iv` becomes routable: its landing here + pipeline.
  uint64_t ready_after_landing(const InVc& iv) const {
    return m_pipe.routable_at(m_ctx.pool[iv.buf.front().pkt].head_arrival);
  }

  int m_id;
  const Topology& m_topo;
  const RoutingUnit& m_routing;
  SimContext& m_ctx;
  Rng m_rng;
  int m_alloc_iters;  // request-grant passes of the allocator per cycle
  uint64_t* m_late_grants = nullptr;  // counter allocator_late_grants (with more than one pass)
  SwitchPipeline m_pipe;  // switch.pipeline_position (parts/pipeline.h)

  std::vector<std::unique_ptr<LinkRx>> m_in;
  std::vector<std::unique_ptr<LinkTx>> m_out;
  std::vector<std::vector<InVc>> m_ivc;   // [port][vc]
  std::vector<std::vector<OutVc>> m_ovc;  // [port][vc]
  LinkArbiter m_link_arb;                             // the link VC choice of each output (parts/link_arbiter.h)
  std::vector<int16_t> m_link_vc;                     // VC holding each output link, -1 idle
  std::vector<uint16_t> m_link_len;                   // ... the length of the packet it carries
  std::vector<uint8_t> m_link_ahead;                  // ... whose remaining phits are on the link already
  std::vector<uint8_t> m_is_host;                     // per port
  std::vector<uint8_t> m_port_class;                  // per port: the topology's class id
  Crossbar m_xbar;  // stage 4: the connections (parts/crossbar.h), switch.crossbar
  SeparableAllocator m_alloc;  // stage 3 (parts/allocator.h), switch.allocator separable-input
  // switch.allocator another variant: which, and its part (the others stay empty).
  AllocatorKind m_alloc_kind = AllocatorKind::SeparableInput;
  OutputFirstAllocator m_alloc_of;  // separable-output (parts/allocator_output_first.h)
  WavefrontAllocator m_alloc_wf;    // wavefront (parts/allocator_wavefront.h)
  IslipAllocator m_alloc_is;        // islip (parts/allocator_islip.h)
  std::unique_ptr<PluginAllocator> m_alloc_pl;  // a plug-in's (parts/allocator_plugin.h)
  // The pass counter of the allocator in use (the host-idle ejection rule keys on it).
  uint32_t alloc_pass_id() const {
    switch (m_alloc_kind) {
      case AllocatorKind::SeparableOutput: return m_alloc_of.pass_id();
      case AllocatorKind::Wavefront: return m_alloc_wf.pass_id();
      case AllocatorKind::Islip: return m_alloc_is.pass_id();
      case AllocatorKind::SeparableInput: return m_alloc.pass_id();
      default: return m_alloc_pl->pass_id();
    }
  }
  uint64_t m_buffered = 0;  // phits in input + output buffers
  // Work lists: ports with phits/credits in flight toward us, ports with buffered phits.
  PortMask m_rx_pending, m_credit_pending, m_in_busy, m_out_busy;
  // Per port with phits (credits) in flight toward us: the arrival cycle of the next one.
  std::vector<uint64_t> m_rx_next, m_cr_next;
  bool m_prefetch = false;  // receive() prefetches (large networks)
  // Per input VC, indexed vix(port, vc), in two compact arrays so that the route and
  // allocation stages find the VCs with work without visiting the others (a head waits the
  // pipeline latency, 90 cycles in acor-table3, and each visit was a cache miss):
  //  m_head_ready  the cycle the unrouted head at the VC's front becomes routable (= its
  //                InVc::ready), UINT64_MAX while there is none (empty, or routed);
  //  m_requesting  1 while the VC's head is routed and not connected (InVc::routed &&
  //                !connected): it requests the crossbar.
  std::vector<uint64_t> m_head_ready;
  std::vector<uint8_t> m_requesting;
  size_t m_vstride = 0;
  size_t vix(int port, int vc) const { return static_cast<size_t>(port) * m_vstride + static_cast<size_t>(vc); }
  // The room each output VC offers a new packet (parts/output_room.h: what allocation asks
  // of every candidate of every waiting head, each cycle, without visiting the VC), with the
  // switch.output_sharing and switch.ejection_grant modes.
  OutputRoom m_room;
  size_t m_ostride = 0;
  // switch.ejection_grant host-idle: (op, v) is a host port's data VC, whose grants wait for
  // an idle host and whose connections queue (eject_room counts what they still owe).
  bool eject_queued(int op, int v) const { return m_room.queued(op, v); }
  // ... the room of that ejection buffer less the phits granted toward it and not yet in it.
  uint32_t eject_room(int op, int v) const {
    return m_room.eject_room(op, m_ovc[static_cast<size_t>(op)][static_cast<size_t>(v)].buf.free());
  }
  // The room of output VC (op, v) after a change: 0 while a connection writes into it,
  // else its free phits (shared data VCs: the port's).
  uint32_t out_room_of(int op, int v) const {
    const OutVc& ov = m_ovc[static_cast<size_t>(op)][static_cast<size_t>(v)];
    return m_room.room_of(op, v, ov.writing, ov.buf.free());
  }
  // switch.output_sharing port: (op, v) is a data VC of a switch-to-switch port, whose
  // room is the port's shared buffer.
  bool shared_vc(int op, int v) const { return m_room.shared(op, v); }
  // Refreshes the room of (op, v) or, shared, of every data VC of op. Out of line: it
  // runs once per packet, and inlined into the crossbar stage its registers cost that
  // stage's loop more than the call (callgrind, dfly-tiny MIN UN: 63.9 M against 66.8 M).
  [[gnu::noinline]] void refresh_room(int op, int v) {
    const auto& ovcs = m_ovc[static_cast<size_t>(op)];
    m_room.refresh(op, v, [&ovcs](int c) {
      const OutVc& ov = ovcs[static_cast<size_t>(c)];
      return std::pair<bool, uint32_t>(ov.writing, ov.buf.free());
    });
  }
  size_t oix(int port, int vc) const { return static_cast<size_t>(port) * m_ostride + static_cast<size_t>(vc); }
  void check_vc_summaries() const;  // asserts the arrays match the VCs (debug builds)
  // ugal.occupancy_scope: vc (SwitchLoad::vc_fn): output VC (port, vc)'s occupancy under
  // `m`: its buffered phits (output), its downstream phits not yet credited (credits), or
  // both; with the output buffer inside the credit loop a granted packet's phits still
  // crossing the crossbar count as downstream (their credits are spent).
  static uint32_t vc_occupancy(const void* self, int port, int vc, QueueMeasure m);
  // Input VC (port, vc) no longer has a routed head (its packet left, was blocked, or moved
  // into the multiqueue): clears InVc::routed and keeps both arrays in step with it.
  void unroute(int port, int vc) {
    InVc& iv = m_ivc[static_cast<size_t>(port)][static_cast<size_t>(vc)];
    iv.routed = false;
    m_requesting[vix(port, vc)] = 0;
    m_head_ready[vix(port, vc)] = iv.buf.empty() ? UINT64_MAX : iv.ready;
  }
  bool m_stream = true;     // receive() files a run of phits at its first landing (credit mode, untraced)
  bool m_credits_seen = false;  // routing or a unit reads m_credits_used (no lazy credits)
  // The last cycle the switch ran: what the observers (SwitchState, dump) see is the state
  // at its end (a switch with phits still landing never sleeps).
  uint64_t seen() const { return m_last_cycle == UINT64_MAX ? 0 : m_last_cycle; }
  std::vector<uint32_t> m_in_phits, m_out_phits;  // buffered phits per port
  int m_reroute_ports = 0;  // m_route.reroute_ports(): inputs [0, it) re-route blocked heads (read every cycle)
  // Control class: the switch's own endpoint is internal port m_cp (= radix; -1 without a
  // control class): input m_cp holds frames the switch originates, output m_cp is where
  // frames addressed to its hosts are intercepted. Data VCs are [0, m_in_data[p]) /
  // [0, m_out_data[p]); control VCs follow them and win by strict priority.
  int m_cp = -1;
  int m_mq = -1;     // the multiqueue's internal input port (= radix; -1 without one)
  int m_mq_rr = 0;   // next transit input to consider for the multiqueue
  uint64_t* m_mq_entries = nullptr;  // counters chaos_multiqueue_entries, chaos_deroutes
  uint64_t* m_deroutes = nullptr;
  int m_inputs = 0;  // ports the allocator arbitrates over: radix, + 1 with an internal port
  std::vector<uint8_t> m_in_data, m_out_data;
  Rng m_ctrl_rng;    // control-frame routing draws (kept apart from the data draws)
  void deliver_control(PacketId id, int in_port, uint64_t now);
  std::vector<uint64_t> m_pkts_in, m_pkts_out;  // data packets per port (SwitchState)
  uint64_t m_pkts_total = 0;                    // their sum over ports and directions
  // The input data VCs whose routed head waits for output `port` (its virtual output queue).
  template <typename F>
  void for_each_waiting_for(int port, F&& f) const;
  std::vector<PacketId> m_last_out;             // last data packet switched into each output
  bool m_sleep = true;
  bool m_check_vc_order = false;
  bool m_pfc = false;
  bool m_transit_prio;  // switch.output_arbiter: transit-priority
  bool m_age_prio;      // switch.output_arbiter: age
  std::vector<uint32_t> m_xoff, m_xon;  // PFC thresholds per input port
  bool m_credit_wake = false;  // wake on every landing credit (credit-based congestion published)
  uint32_t m_blocked_now = 0;
  uint64_t m_blocked_total = 0;
  // Source-adaptive routing: per-port downstream occupancy and the view passed to the unit.
  // (With lazy credits it runs ahead by the credits still to land: it is only kept exact,
  // and only read, where m_credits_seen.)
  std::vector<int32_t> m_credits_used;
  AdaptiveView m_view;
  bool m_adaptive = false;
  // Mechanism units (switch_unit.h) and the first cycle they have not seen yet.
  std::vector<std::unique_ptr<SwitchUnit>> m_units;
  uint64_t m_units_next = 0;
  // The conditional forwarding table (routing units that forward by table), or null.
  std::unique_ptr<ForwardingTable> m_table;
  // switch.output_credits and switch.credit_return (parts/credit_loop.h). (Last, so the hot
  // members above keep their layout.)
  CreditLoop m_credit_loop;
  // The route stage's re-routing (ugal.reevaluate replay and keep-Valiant) and candidate
  // check (parts/route_stage.h).
  RouteStage m_route;
  // --rtl allocator (SwitchParams::rtl_allocator): the Verilated allocator, null otherwise;
  // the output pointers the grants of a pass are ordered by (separable input-first), and one
  // pass's grants (a variant's as the block gives them, then as the switch records them).
  std::unique_ptr<AllocatorBlock> m_alloc_rtl;
  std::vector<uint8_t> m_rtl_out_ptr;
  std::vector<Conn> m_rtl_pass;
  std::vector<RtlGrant> m_rtl_var_pass;
  // --rtl flow_control (SwitchParams::rtl_flow_control): one Verilated flow-control block
  // per network port (empty otherwise); per output VC (oix) the credits the counter held at
  // the end of the last cycle run and those the block showed this cycle (the landings and
  // the spends are their differences with the counter); a drain seen this cycle (PFC).
  bool m_fc = false;
  bool m_fc_drained = false;
  std::vector<std::unique_ptr<FlowControlBlock>> m_fc_rtl;
  std::vector<int32_t> m_fc_end, m_fc_seen;
  std::vector<uint32_t> m_fc_spend;
  // --rtl link_arbiter (SwitchParams::rtl_link_arbiter): one Verilated link arbiter per
  // port (empty otherwise); transmit asks it (la_pick) instead of m_link_arb.
  bool m_la = false;
  std::vector<std::unique_ptr<LinkArbiterBlock>> m_la_rtl;
  // --rtl min_route / quadrant in this switch: the network's Verilated unit, else null (C++).
  const MinHopBlock* m_rtl_min_hop = nullptr;
  const QuadrantBlock* m_rtl_quadrant = nullptr;
};

}  // namespace scfly
