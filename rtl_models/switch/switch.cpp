#include "rtl_models/switch/switch.h"

#include <algorithm>
#include <cassert>
#include <climits>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "rtl_models/switch/mechanism_units.h"
#include "rtl_models/switch/switch_allocate.h"
#include "rtl_models/verilog/rtl_blocks.h"

namespace scfly {

const char* to_string(FlowControl f) { return f == FlowControl::Pfc ? "pfc" : "credit"; }

Switch::Switch(sc_core::sc_module_name name, int id, const Topology& topo,
               const SwitchParams& prm, const RoutingUnit& routing, SimContext& ctx,
               uint64_t seed, const sc_core::sc_clock& clk)
    : sc_core::sc_module(name),
      Clocked(clk),
      m_id(id),
      m_topo(topo),
      m_routing(routing),
      m_ctx(ctx),
      m_rng(seed, StreamKind::Switch, static_cast<uint64_t>(id)),
      m_alloc_iters(prm.allocator_iterations),
      m_pipe(prm.pipeline, prm.pipeline_at_output ? PipelinePosition::Output : PipelinePosition::Input),
      m_sleep(prm.sleep),
      m_check_vc_order(prm.check_vc_order),
      m_pfc(prm.flow_control == FlowControl::Pfc),
      m_transit_prio(prm.transit_priority),
      m_age_prio(prm.age_priority) {
  if (m_check_vc_order) ctx.pool.enable_vc_seen();
  // Throws for switch.output_credits inside under PFC and switch.credit_return packet
  // without it; under PFC the grant-time return serves pfc_host_credits (host inputs only).
  m_credit_loop = CreditLoop(prm.out_in_credit_loop ? OutputCredits::Inside : OutputCredits::Outside,
                             prm.credit_at_grant ? CreditReturn::Packet : CreditReturn::Phit, m_pfc,
                             prm.pfc_host_credits);
  m_ctrl_rng = Rng(seed, StreamKind::Control, 2 * static_cast<uint64_t>(id));
  const int k = topo.radix();
  // A switch that publishes congestion counting credits (UGAL-G's network view, Piggyback
  // flags, with ugal.occupancy credits|both) must see every credit when it lands, asleep or
  // not: a returning credit changes what it publishes even with its buffers empty.
  // Under PFC a landing PAUSE/RESUME wakes the switch, so its paused state (traced) changes
  // at the cycle it lands; they are rare, unlike credits.
  m_credit_wake = m_pfc || ((ctx.net_load || ctx.sat_flags) && routing.params().ugal.measure != QueueMeasure::Output);
  bool control = false;
  for (int c = 0; c < topo.num_port_classes(); ++c) control = control || prm.ctrl_vcs[c] > 0;
  const bool chaos = prm.multiqueue > 0;
  if (control && chaos)
    throw std::invalid_argument("a switch with a multiqueue (CHAOS) carries no control class");
  m_cp = control ? k : -1;
  m_mq = chaos ? k : -1;
  m_inputs = control || chaos ? k + 1 : k;
  const int K = m_inputs;
  m_ivc.resize(K);
  m_ovc.resize(K);
  m_link_arb = LinkArbiter(K);
  m_xbar = Crossbar(K, prm.speedup, prm.xbar_transfer ? CrossbarKind::Transfer : CrossbarKind::Connections);
  m_link_vc.assign(K, -1);
  m_link_len.assign(K, 0);
  m_link_ahead.assign(K, 0);
  m_is_host.assign(K, 0);
  m_port_class.assign(K, 0);
  m_in_phits.assign(K, 0);
  m_out_phits.assign(K, 0);
  m_pkts_in.assign(K, 0);
  m_pkts_out.assign(K, 0);
  m_last_out.assign(K, UINT32_MAX);
  m_in_data.assign(K, 1);
  m_out_data.assign(K, 1);
  m_xoff.assign(K, UINT32_MAX);
  m_xon.assign(K, 0);
  // Prefetching pays where the switches' state outgrows the caches (acor-table3: 876
  // switches x 23 ports), not in small networks (dfly-medium: 264 x 15).
  m_prefetch = static_cast<int64_t>(topo.num_switches()) * k > 8192;
  m_rx_next.assign(K, UINT64_MAX);
  m_cr_next.assign(K, UINT64_MAX);
  for (int p = 0; p < k; ++p) {
    const int c = topo.port_class_of(p);
    const bool host = c == kHostClass;
    m_is_host[p] = host;
    m_port_class[p] = static_cast<uint8_t>(c);
    const sc_core::sc_time lat = clk.period() * static_cast<double>(prm.latency[c]);
    m_in.push_back(std::make_unique<LinkRx>(("in_" + std::to_string(p)).c_str(), *this, lat));
    m_out.push_back(
        std::make_unique<LinkTx>(("out_" + std::to_string(p)).c_str(), *this, lat, m_credit_wake));
    m_in.back()->notify_into(&m_rx_pending, p, &m_rx_next[static_cast<size_t>(p)]);
    m_out.back()->notify_into(&m_credit_pending, p, &m_cr_next[static_cast<size_t>(p)]);
    m_in_data[p] = static_cast<uint8_t>(prm.vcs[c]);
    if (m_pfc) {
      m_xoff[p] = prm.pfc_xoff[c];
      m_xon[p] = prm.pfc_xon[c];
    }
    m_out_data[p] = static_cast<uint8_t>(host ? 1 : prm.vcs[c]);
    m_ivc[p].resize(static_cast<size_t>(prm.vcs[c] + prm.ctrl_vcs[c]));
    // switch.credit_return packet: the credits of a granted packet are back upstream while
    // its last phits may still be here, so the buffer holds up to one packet (data or probe)
    // beyond the credited depth.
    const uint32_t slack = m_credit_loop.input_slack(std::max<uint32_t>(prm.packet_phits, prm.probe_phits));
    for (auto& iv : m_ivc[p]) iv.buf.set_capacity(prm.in_buf[c] + slack);
    m_ovc[p].resize(static_cast<size_t>((host ? 1 : prm.vcs[c]) + prm.ctrl_vcs[c]));
    for (auto& ov : m_ovc[p]) {
      ov.buf.set_capacity(prm.out_buf[c]);
      // Ejection: the sink never back-pressures, so a host output has no credit counter
      // at all (transmit() neither tests nor spends credits there).
      ov.cr.reset(host ? 0 : static_cast<int32_t>(prm.in_buf[c]));
    }
  }
  if (control) {
    // The switch's own endpoint: one VC each way, never back-pressured (originated frames
    // wait in an unbounded queue; intercepted ones are consumed as they cross).
    m_ivc[k].resize(1);
    m_ivc[k][0].buf.set_capacity(UINT32_MAX);
    m_ovc[k].resize(1);
    m_ovc[k][0].buf.set_capacity(UINT32_MAX);
    m_in_data[k] = 0;   // its single VC is a control VC
    m_out_data[k] = 0;
  }
  if (chaos) {
    // The multiqueue: M one-packet slots on the internal input; no output side (nothing is
    // switched into it: multiqueue_stage moves packets in). Its slots are priority VCs.
    m_ivc[k].resize(static_cast<size_t>(prm.multiqueue));
    for (auto& iv : m_ivc[k]) iv.buf.set_capacity(prm.packet_phits);
    m_in_data[k] = 0;
    m_out_data[k] = 0;
    m_mq_entries = &ctx.counters["chaos_multiqueue_entries"];
    m_deroutes = &ctx.counters["chaos_deroutes"];
  }
  // switch.allocator_iterations > 1: the connections granted by a later pass (counter).
  if (m_alloc_iters > 1) m_late_grants = &ctx.counters["allocator_late_grants"];
  int reroute_ports = 0;
  switch (routing.reroute()) {
    case RoutingUnit::Reroute::None: reroute_ports = 0; break;
    case RoutingUnit::Reroute::Injection: reroute_ports = topo.host_ports(); break;
    case RoutingUnit::Reroute::AnyInput: reroute_ports = k; break;
  }
  for (const auto& vcs : m_ivc) m_vstride = std::max(m_vstride, vcs.size());
  m_head_ready.assign(static_cast<size_t>(K) * m_vstride, UINT64_MAX);
  m_requesting.assign(static_cast<size_t>(K) * m_vstride, 0);
  m_reroute_ports = reroute_ports;
  m_route = RouteStage(reroute_ports, static_cast<size_t>(K) * m_vstride, routing.replays_draws(),
                       routing.replays_draws() && routing.params().ugal.reevaluate == UgalReeval::Minimal);
  for (const auto& vcs : m_ovc) m_ostride = std::max(m_ostride, vcs.size());
  {
    std::vector<uint32_t> shared(static_cast<size_t>(K), 0);  // the switch-to-switch ports' buffers
    for (int p = 0; p < k; ++p) shared[static_cast<size_t>(p)] = prm.out_buf[topo.port_class_of(p)];
    m_room = OutputRoom(K, m_ostride, m_out_data, m_is_host, shared,
                        prm.out_shared ? OutputSharing::Port : OutputSharing::PerVc,
                        prm.eject_on_idle_host ? EjectionGrant::HostIdle : EjectionGrant::Room);
  }
  for (size_t p = 0; p < m_ovc.size(); ++p)
    for (size_t v = 0; v < m_ovc[p].size(); ++v)
      m_room.set(static_cast<int>(p), static_cast<int>(v), out_room_of(static_cast<int>(p), static_cast<int>(v)));
  m_credits_used.assign(K, 0);
  m_adaptive = routing.is_adaptive();
  m_view.local.out_phits = m_out_phits.data();
  // Under PFC no credit state exists to observe: only the output queues.
  m_view.local.credits_used = m_pfc ? nullptr : m_credits_used.data();
  m_view.local.measure = routing.params().ugal.measure;
  if (routing.params().ugal.per_vc) {
    m_view.local.vc_ctx = this;
    m_view.local.vc_fn = &Switch::vc_occupancy;
  }
  m_credits_seen = !m_pfc && m_view.local.measure != QueueMeasure::Output;
  m_view.global = ctx.net_load;
  m_view.flags = ctx.sat_flags;
  if (prm.rtl_ugal) m_view.rtl_ugal = ctx.rtl_select;
  // The network's shared Verilated route units, where this switch co-simulates them
  // (rtl_switches: not every switch need).
  if (prm.rtl_min_route) m_rtl_min_hop = ctx.rtl_min_hop;
  if (prm.rtl_quadrant) m_rtl_quadrant = ctx.rtl_quadrant;
  if (routing.uses_table()) {
    m_table = std::make_unique<ForwardingTable>(routing.make_table(id));
    // --rtl table: lookups and register writes go to the Verilated table (net.swN.ft_rtl).
    if (prm.rtl_table)
      m_table->set_block(make_rtl_ft_lookup(*m_table, *routing.dragonfly(), std::string(this->name()) + ".ft_rtl"));
  }
  // Created here so that Verilated blocks become children of this module.
  m_units = make_mechanism_units(id, routing, prm, ctx, seed, this->name());
  for (auto& u : m_units) {
    u->attach(m_view);
    u->attach(static_cast<const SwitchState&>(*this));
    if (control) u->attach(static_cast<ControlPort&>(*this));
    if (m_table) u->attach(*m_table);
  }
  {
    AllocatorConfig ac;
    ac.inputs = K;
    ac.conn_cap = m_xbar.cap();
    ac.iterations = m_alloc_iters;
    ac.transit_priority = m_transit_prio;
    ac.age_priority = m_age_prio;
    for (int p = 0; p < K; ++p) {
      ac.vcs.push_back(static_cast<uint8_t>(m_ivc[static_cast<size_t>(p)].size()));
      ac.data_vcs.push_back(m_in_data[static_cast<size_t>(p)]);
      ac.injection.push_back(m_is_host[static_cast<size_t>(p)]);
    }
    ac.rr_all = m_mq;
    ac.seed = Rng(seed, StreamKind::Allocator, static_cast<uint64_t>(id)).next();
    m_alloc_kind = prm.allocator;
    switch (prm.allocator) {
      case AllocatorKind::SeparableOutput: m_alloc_of = OutputFirstAllocator(ac); break;
      case AllocatorKind::Wavefront: m_alloc_wf = WavefrontAllocator(ac); break;
      case AllocatorKind::Islip: m_alloc_is = IslipAllocator(ac); break;
      case AllocatorKind::SeparableInput: break;
      default: {  // a plug-in (registered, or the config would not name it)
        const AllocatorPlugin* pl = allocator_plugin(prm.allocator);
        if (!pl) throw std::invalid_argument("switch.allocator: no allocator of kind " +
                                             std::to_string(static_cast<int>(prm.allocator)));
        try {  // the factory's refusal, or no policy from it, named with the switch and the plug-in
          m_alloc_pl = std::make_unique<PluginAllocator>(ac, pl->make(ac));
        } catch (const std::invalid_argument& e) {
          throw std::invalid_argument(std::string(this->name()) + ": allocator plug-in '" + pl->name + "': " + e.what());
        }
      }
    }
    m_alloc = SeparableAllocator(std::move(ac));
  }
  if (prm.rtl_allocator) {
    // The RTL does not model grants that change other output VCs' room (allocate_rtl).
    if (prm.out_shared || prm.eject_on_idle_host)
      throw std::invalid_argument("the RTL allocator does not implement switch.output_sharing port or "
                                  "switch.ejection_grant host-idle");
    m_alloc_rtl = make_rtl_allocator(m_alloc.config(), std::string(this->name()) + ".alloc_rtl", prm.allocator);
    m_rtl_out_ptr.assign(static_cast<size_t>(K), 0);
    m_rtl_pass.reserve(static_cast<size_t>(K) * static_cast<size_t>(m_xbar.cap()));
    m_rtl_var_pass.reserve(static_cast<size_t>(K) * static_cast<size_t>(m_xbar.cap()));
  }
  if (prm.rtl_flow_control) fc_build();  // switch_rtl_fc.cpp
  if (prm.rtl_link_arbiter) la_build();  // switch_rtl_fc.cpp
  if (prm.scheduled) {
    m_scheduled = true;  // run by the network's block scheduler (run_cycle)
  } else {
    SC_HAS_PROCESS(Switch);
    SC_METHOD(tick);
  }
}

Switch::~Switch() = default;

// One clock edge (the switch's own process): the first run of this cycle runs it.
void Switch::tick() {
  if (m_ctx.failed()) [[unlikely]] return;  // the network has halted: never triggered again
  m_asleep = false;
  const uint64_t now = cycle();
  if (!first_run_this_cycle(now)) {
    next_trigger(*m_edge);
    return;
  }
  run_stages(now);
  trigger_next(now);
}

void Switch::run_cycle(uint64_t now) {
  m_asleep = false;
  m_last_cycle = now;
  run_stages(now);
}

// Cycle `now`: the stages (cycle_stages, in the mode's specialization), then the next run
// (schedule).
void Switch::run_stages(uint64_t now) {
  // kCtl: the switch has an internal input port (control endpoint or multiqueue).
  const bool internal = m_inputs > radix();
  if (m_pfc) {
    if (internal) cycle_stages<true, true>(now);
    else cycle_stages<true, false>(now);
  } else {
    if (internal) cycle_stages<false, true>(now);
    else cycle_stages<false, false>(now);
  }
  schedule(now);
}

// The per-cycle stage order, written once here. Each stage sees what the earlier stages
// did this cycle:
//  1. receive  - phits and flow control whose arrival cycle has come enter the input
//                buffers / credit counters / pause flags (a phit or credit sent in cycle t
//                lands in t + latency); under PFC an input VC reaching XOFF sends PAUSE;
//  2. route    - heads that have waited the pipeline latency get their candidates
//                (control frames: minimal on the control VCs, or the switch's endpoint);
//  3. allocate - separable input-first round-robin, control VCs first: each input port
//                requests, for up to S routed VCs, the first candidate with a free output
//                VC with room for the whole packet (VCT); each output port grants up to S;
//                switch.allocator_iterations passes (later ones among what is still free);
//  4. blocked  - heads routed at re-routing inputs but not granted are routed again next
//                cycle; the blocked non-minimal injection heads are this cycle's events;
//  5. crossbar - every connection (new or ongoing) moves one phit input -> output buffer,
//                and the freed input slot is credited upstream at once (under PFC: RESUME
//                when the VC falls to XON), landing there after the link latency;
//  6. transmit - each output link sends one phit: the packet it is carrying, or a new
//                head (control first) whose downstream VC has credits for the whole packet
//                (PFC: is not paused); the switch's endpoint consumes intercepted frames;
//  7. units    - the mechanism units end their cycle with its events (ACOR levels,
//                Piggyback flags, published occupancy, probes); what they change applies
//                to heads routed from the next cycle on.
// Consequences: a phit can cross the crossbar and leave on the link in the cycle it was
// granted; the minimum per-hop latency is link latency + pipeline latency; a credit
// returned in cycle t can be used upstream in t + latency.
template <bool kPfc, bool kCtl>
void Switch::cycle_stages(uint64_t now) {
  receive<kPfc>(now);
  if (m_fc) [[unlikely]] {
    fc_after_receive<kPfc>(now);
    if (m_ctx.failed()) return;
  }
  m_blocked_now = 0;
  if (now > m_units_next)  // cycles spent asleep: no events
    for (auto& u : m_units) u->idle(now - m_units_next);
  if (m_buffered != 0) {
    route_heads(now);
    allocate<kCtl>();
    if constexpr (kCtl) {
      if (m_mq >= 0) multiqueue_stage(now);
    }
    if (m_reroute_ports) mark_blocked();
    if (m_xbar.rate() > 1) [[unlikely]]
      traverse_crossbar<kPfc, kCtl, true>(now);
    else
      traverse_crossbar<kPfc, kCtl, false>(now);
    if constexpr (kPfc) {
      if (m_fc_drained) [[unlikely]] fc_after_crossbar(now);
    }
    if (m_check_vc_order) [[unlikely]]
      transmit<kPfc, kCtl, true>(now);
    else
      transmit<kPfc, kCtl, false>(now);
  }
  if (!m_units.empty()) {
    SwitchCycle c;
    c.now = now;
    c.blocked_nonmin = m_blocked_now;
    c.load = &m_view.local;
    for (auto& u : m_units) u->end_cycle(c);
    m_units_next = now + 1;
  }
  if (m_fc) [[unlikely]] fc_end_cycle<kPfc>();
}

template <bool kPfc>
void Switch::receive(uint64_t now) {
  bool failed = false;
  // In a network whose state is far larger than the caches, what this stage reads is
  // scattered (each port's delay line and input VCs) and rarely still cached: ask for all
  // of it before using any, so that the misses overlap instead of following one another
  // (acor-table3: about 7 % faster; in a small network it only costs instructions).
  if (m_prefetch) {
    m_rx_pending.for_each([&](int p) SCFLY_ALWAYS_INLINE {
      if (m_rx_next[static_cast<size_t>(p)] <= now) m_in[p]->line.prefetch_meta();
    });
    m_credit_pending.for_each([&](int p) SCFLY_ALWAYS_INLINE {
      if (m_cr_next[static_cast<size_t>(p)] <= now) __builtin_prefetch(&m_out[p]->credits);
    });
    m_rx_pending.for_each([&](int p) SCFLY_ALWAYS_INLINE {
      if (m_rx_next[static_cast<size_t>(p)] > now) return;
      m_in[p]->line.prefetch_front();
      for (const InVc& iv : m_ivc[p]) __builtin_prefetch(&iv);
    });
    m_credit_pending.for_each([&](int p) SCFLY_ALWAYS_INLINE {
      if (m_cr_next[static_cast<size_t>(p)] > now) return;
      m_out[p]->credits.prefetch_front();
      for (const OutVc& ov : m_ovc[p]) __builtin_prefetch(&ov);
    });
  }
  // Streaming (credit mode, m_stream): a run of phits (consecutive phits of one packet,
  // landing on consecutive cycles) is filed into its input VC whole, in the cycle its first
  // phit lands; InVc::landed() hides the phits still to land. Each stage reads landed(), so
  // what it sees at every cycle is what filing each phit as it lands would give; the port
  // is then idle in this stage until its next run lands, instead of one visit per phit.
  // A run that does not fit the buffer is filed phit by phit, so that a credit violation
  // is reported at the phit that overflows, as before.
  m_rx_pending.for_each([&](int p) SCFLY_ALWAYS_INLINE {
    if (failed || m_rx_next[static_cast<size_t>(p)] > now) return;
    auto& line = m_in[p]->line;
    while (!line.empty() && line.front_cycle() <= now) {
      const uint8_t vc = line.front_vc();
      if (vc >= m_ivc[p].size()) {
        m_ctx.fail(std::string(name()) + ": phit on port " + std::to_string(p) + " names VC " +
                   std::to_string(vc) + " but the port has " + std::to_string(m_ivc[p].size()));
        failed = true;
        return;
      }
      InVc& iv = m_ivc[p][vc];
      uint32_t n = 1;
      if constexpr (!kPfc) {
        if (m_stream) {
          n = line.front_count();
          if (!iv.fits(n)) n = 1;
        }
      }
      if (iv.buf.full()) {
        m_ctx.fail(std::string(name()) + (m_pfc ? ": PFC headroom exceeded (frame loss), input buffer port "
                                                : ": credit violation, input buffer port ") +
                   std::to_string(p) + " VC " + std::to_string(vc) + " overflows (" +
                   std::to_string(iv.buf.capacity()) + " phits)");
        failed = true;
        return;
      }
      const FlitLine::Slice s = line.pop_front(n);
      iv.file(s.pkt, s.seq, vc, s.tail, n, s.cycle);
      if constexpr (kPfc) {
        if (m_fc) [[unlikely]]  // --rtl flow_control: PAUSE from the block (fc_after_receive)
          m_fc_rtl[static_cast<size_t>(p)]->fill(vc, iv.buf.size());
        else if (iv.pfc.filled(iv.buf.size(), m_xoff[p]))  // pause the sender of this VC
          m_in[p]->send_credit(vc, now, FlowMsg::Pause);
      }
      m_buffered += n;
      m_in_phits[p] += n;
      m_in_busy.set(p);
      if (s.seq == 0) {
        Packet& pk = m_ctx.pool[s.pkt];
        pk.head_arrival = s.cycle;
        pk.in_class = static_cast<uint8_t>(m_port_class[static_cast<size_t>(p)]);
        if (iv.buf.size() == n) m_head_ready[vix(p, vc)] = iv.ready = m_pipe.routable_at(s.cycle);
        const bool data = pk.cls == TrafficClass::Data;
        m_pkts_in[static_cast<size_t>(p)] += data;
        m_pkts_total += data;
      }
    }
    if (line.empty()) m_rx_pending.clear(p);
    else m_rx_next[static_cast<size_t>(p)] = line.front_cycle();
  });
  m_credit_pending.for_each([&](int p) SCFLY_ALWAYS_INLINE {
    if (failed || m_cr_next[static_cast<size_t>(p)] > now) return;
    auto& cl = m_out[p]->credits;
    // Lazy credits (credit mode, untraced, nobody reading the per-port credit sums): a run
    // of credits (one per cycle, as a connection frees its input VC) is taken whole at its
    // first landing when no earlier run of the VC is still landing and the counter cannot
    // exceed the buffer; CreditCounter::at() hides the credits still to land. The port is
    // then idle in this stage until its next run lands.
    const bool lazy = m_stream && !m_credits_seen;
    const uint64_t next = cl.take(now, [&](uint8_t vc, FlowMsg kind, uint64_t first, uint32_t due,
                                           uint32_t count) SCFLY_ALWAYS_INLINE -> uint32_t {
      if (failed) return due;
      OutVc& ov = m_ovc[p][vc];
      if constexpr (kPfc) {  // PAUSE / RESUME only
        ov.paused = kind == FlowMsg::Pause;
        return due;
      }
      const uint32_t n = ov.cr.land(now, first, due, count, lazy);
      m_credits_used[p] -= static_cast<int32_t>(n);
      if (ov.cr.overflow() && !m_fc) {  // (--rtl flow_control: the block's flag, fc_after_receive)
        m_ctx.fail(std::string(name()) + ": credits of output port " + std::to_string(p) +
                   " exceed the downstream buffer size " + std::to_string(ov.cr.cap));
        failed = true;
      }
      return n;
    });
    if (failed) return;
    if (cl.empty()) m_credit_pending.clear(p);
    else m_cr_next[static_cast<size_t>(p)] = next;
  });
}

void Switch::route_heads(uint64_t now) {
  bool failed = false;
  bool staged = false;  // the units' route_stage() has run this cycle
#ifndef NDEBUG
  check_vc_summaries();
#endif
  // The scan over the busy inputs' VCs runs every active cycle, a head is routed far more
  // rarely: route_head() is out of line so that this loop stays tight. (Inlined, the body's
  // register pressure spills the scan's state: on dfly-tiny MIN UN the stage ran 22.9M
  // instructions instead of 20.1M for both functions out of line; callgrind.)
  m_in_busy.for_each([&](int p) SCFLY_ALWAYS_INLINE {
    if (failed) return;
    const size_t nv = m_ivc[p].size();
    for (size_t v = 0; v < nv; ++v) {
      if (m_head_ready[vix(p, static_cast<int>(v))] > now) continue;
      if (!route_head(p, static_cast<int>(v), now, staged)) {
        failed = true;
        return;
      }
    }
  });
}

bool Switch::route_head(int p, int v, uint64_t now, bool& staged) {
  uint64_t& head_ready = m_head_ready[vix(p, v)];
  InVc& iv = m_ivc[static_cast<size_t>(p)][static_cast<size_t>(v)];
  assert(!iv.routed && !iv.buf.empty() && iv.ready == head_ready);
  // (A failure below leaves the VC unrouted and not requesting: the allocator, later in
  // this cycle, passes it by, and no cycle runs after a failure.)
  head_ready = UINT64_MAX;
  const Flit& f = iv.buf.front();
  if (!f.head()) [[unlikely]] {
    // Only a fault puts a body phit where a head belongs: a phit repeated after its tail
    // (--fault dup-phit on a 2-phit packet), or lost. Detected, not assumed away.
    phit_order_error(p, v, f);
    return false;
  }
  Packet& pkt = m_ctx.pool[f.pkt];
  assert(iv.ready == ready_after_landing(iv));
  iv.phits = pkt.phits;
  if (pkt.cls == TrafficClass::Control) {
    // Control frames: intercepted at the switch of the host they are addressed to,
    // elsewhere routed minimally on the control VCs (data VC count + the hop slot).
    if (pkt.route.dst_switch == m_id) {
      iv.cands = RouteCandidates::one(RouteDecision{static_cast<int16_t>(m_cp), 0});
      m_ctx.pool.arrival_port(f.pkt) = static_cast<int16_t>(p);
    } else {
      RouteDecision d = m_routing.route_control(m_id, pkt.route, m_ctrl_rng, m_rtl_min_hop);
      d.vc = static_cast<uint8_t>(d.vc + m_out_data[static_cast<size_t>(d.port)]);
      if (d.vc >= m_ovc[static_cast<size_t>(d.port)].size()) {
        m_ctx.fail(std::string(name()) + ": control frame needs VC " + std::to_string(d.vc) + " on port " +
                   std::to_string(d.port) + ", which has only " +
                   std::to_string(m_ovc[static_cast<size_t>(d.port)].size()) + " VCs");
        return false;
      }
      iv.cands = RouteCandidates::one(d);
    }
    iv.routed = true;
    m_requesting[vix(p, v)] = 1;
    return true;
  }
  RouteContext ctx;
  std::optional<Rng> replay;  // (no stream is built unless a head replays one)
  // Re-routing inputs: each attempt from the header as it arrived, ugal.reevaluate blocked
  // with the first attempt's draws again (parts/route_stage.h).
  Rng* rng = m_route.begin(p, vix(p, v), iv.attempts, pkt.route, iv.arrived, m_rng, replay);
  if (m_route.reroutes(p)) ctx.attempt = iv.attempts;
  if (!staged) {
    staged = true;
    for (const auto& u : m_units) u->route_stage(now);
  }
  for (const auto& u : m_units) u->observe(ctx);
  ctx.table = m_table.get();
  ctx.deroute = iv.deroute;
  ctx.min_hop = m_rtl_min_hop;
  ctx.quadrant = m_rtl_quadrant;
  if (m_adaptive) {
    m_view.now = now;
    ctx.view = &m_view;
  }
  iv.cands = m_routing.route_candidates(m_id, p, pkt.route, *rng, ctx);
  const auto out_vcs = [this](int port) SCFLY_ALWAYS_INLINE { return m_ovc[static_cast<size_t>(port)].size(); };
  if (!RouteStage::valid(iv.cands, radix(), out_vcs)) [[unlikely]] {
    m_ctx.fail(std::string(name()) + ": routing unit returned " + RouteStage::check(iv.cands, radix(), out_vcs) +
               ", which does not exist (packet " + std::to_string(pkt.src_node) + " -> " +
               std::to_string(pkt.dst_node) + ")");
    return false;
  }
  iv.routed = true;
  m_requesting[vix(p, v)] = 1;
  return true;
}

void Switch::phit_order_error(int port, int vc, const Flit& f) {
  // (The phit's packet may have been delivered and its pool slot reused: only its id is named.)
  m_ctx.fail(std::string(name()) + ": phit-order violation at input port " + std::to_string(port) + " VC " +
             std::to_string(vc) + ": phit " + std::to_string(f.seq) + (f.tail ? " (tail)" : "") + " of packet #" +
             std::to_string(f.pkt) +
             " is at the front of the buffer where a head was expected (a phit lost, repeated or interleaved)");
}

// Stage 3 through the allocator part (parts/allocator.h): it arbitrates; the switch says
// what each input VC asks for (want) and what an output can still take, and records each
// grant (grant).
template <bool kCtl>
void Switch::allocate() {
  if (m_alloc_rtl) [[unlikely]] {
    allocate_rtl_stage<kCtl>();
    return;
  }
  if (m_alloc_kind != AllocatorKind::SeparableInput) [[unlikely]] {
    allocate_variant_stage<kCtl>();
    return;
  }
  allocate_stage<kCtl, false>();
}

// Heads routed this cycle at a re-routing input but not granted: routed again next cycle.
// Only injection inputs count as blocked injections (ACOR's events, blocked_total).
void Switch::mark_blocked() {
  for (int ip = 0; ip < m_reroute_ports; ++ip) {
    const int nv = static_cast<int>(m_ivc[ip].size());
    for (int v = 0; v < nv; ++v) {
      if (!m_requesting[vix(ip, v)]) continue;
      InVc& iv = m_ivc[ip][static_cast<size_t>(v)];
      // ugal.reevaluate minimal: a Valiant choice stands (the head keeps requesting it).
      if (!m_route.routes_again(m_ctx.pool[iv.buf.front().pkt].route.nonminimal)) continue;
      unroute(ip, v);
      ++iv.attempts;
      if (!m_is_host[ip]) continue;
      ++m_blocked_total;
      if (m_ctx.pool[iv.buf.front().pkt].route.nonminimal) ++m_blocked_now;
    }
  }
}

void Switch::multiqueue_stage(uint64_t now) {
  auto& slots = m_ivc[static_cast<size_t>(m_mq)];
  const int M = static_cast<int>(slots.size());
  int free_slot = -1;
  bool pending = false;  // a derouted packet still waits for an output
  for (int s = 0; s < M; ++s) {
    InVc& q = slots[static_cast<size_t>(s)];
    if (q.buf.empty()) {
      q.deroute = false;
      if (free_slot < 0) free_slot = s;
    } else if (!q.connected) {
      pending = pending || q.deroute;
      if (q.routed) unroute(m_mq, s);  // routed again next cycle: fresh queue order, or its deroute
    }
  }
  const int k = radix();
  for (int n = 0, p = m_mq_rr; n < k; ++n, p = (p + 1 == k ? 0 : p + 1)) {
    if (m_is_host[static_cast<size_t>(p)] || m_in_phits[static_cast<size_t>(p)] == 0) continue;
    auto& ivcs = m_ivc[static_cast<size_t>(p)];
    for (int v = 0; v < m_in_data[static_cast<size_t>(p)]; ++v) {
      InVc& iv = ivcs[static_cast<size_t>(v)];
      if (!iv.routed || iv.connected) continue;
      const uint32_t phits = iv.phits;
      if (iv.landed(now) < phits) continue;  // the whole packet first
      if (free_slot < 0) {
        // Full: deroute one slot packet drawn at random (a packet at its destination switch
        // or one leaving do not count), unless a derouted one is still waiting: one deroute
        // at a time, or a congested switch would turn its whole multiqueue into random
        // walkers (on the 8-ary 2-cube under UR with round-robin arbitration, throughput fell
        // to 0.005 that way).
        if (pending) return;
        int cand[256], nc = 0;
        for (int s = 0; s < M; ++s) {
          const InVc& q = slots[static_cast<size_t>(s)];
          if (q.connected) continue;
          const Packet& pk = m_ctx.pool[q.buf.front().pkt];
          if (pk.route.dst_switch != m_id && q.buf.size() >= pk.phits) cand[nc++] = s;
        }
        if (nc > 0) {
          slots[static_cast<size_t>(cand[m_rng.below(static_cast<uint32_t>(nc))])].deroute = true;
          ++*m_deroutes;
        }
        return;
      }
      InVc& q = slots[static_cast<size_t>(free_slot)];
      q.ready = ready_after_landing(iv);
      for (uint32_t i = 0; i < phits; ++i) {
        Flit f = iv.buf.front();
        iv.buf.pop();
        f.vc = static_cast<uint8_t>(free_slot);
        q.buf.push(f);
        m_in[static_cast<size_t>(p)]->send_credit(v, now);
      }
      if (!iv.buf.empty()) iv.ready = ready_after_landing(iv);
      unroute(p, v);
      unroute(m_mq, free_slot);
      if ((m_in_phits[static_cast<size_t>(p)] -= phits) == 0) m_in_busy.clear(p);
      m_in_phits[static_cast<size_t>(m_mq)] += phits;
      m_in_busy.set(m_mq);
      iv.attempts = 0;
      q.deroute = false;
      ++*m_mq_entries;
      m_mq_rr = p + 1 == k ? 0 : p + 1;
      return;
    }
  }
}

template <bool kPfc, bool kCtl, bool kTransfer>
void Switch::traverse_crossbar(uint64_t now) {
  if (m_prefetch) {  // (large networks, see receive()) ask for every connection's VCs first
    for (const Conn& c : m_xbar.connections()) {
      __builtin_prefetch(&m_ivc[c.in_port][c.in_vc]);
      __builtin_prefetch(&m_ovc[c.out_port][c.out_vc]);
    }
  }
  // One phit of connection c from its input VC into its output VC (parts/crossbar.h: up to
  // its rate per cycle, released after its tail).
  m_xbar.traverse<kTransfer>([&](const Conn& c) SCFLY_ALWAYS_INLINE -> Crossbar::Moved {
    InVc& iv = m_ivc[c.in_port][c.in_vc];
    OutVc& ov = m_ovc[c.out_port][c.out_vc];
    // switch.ejection_grant host-idle: packets granted toward one host cross one at a time,
    // in the order the first phit of each gets its turn.
    const bool owed = eject_queued(c.out_port, c.out_vc);
    if (owed) [[unlikely]] {
      if (!ov.writing) {
        ov.writing = true;
        ov.feed_port = c.in_port;
        ov.feed_vc = c.in_vc;
        m_room.set(c.out_port, c.out_vc, 0);
      } else if (ov.feed_port != c.in_port || ov.feed_vc != c.in_vc) {
        return Crossbar::Moved::None;
      }
    }
    const uint32_t have = iv.landed(now);
    if (have == 0) return Crossbar::Moved::None;  // cut-through: the rest of the packet has not arrived yet
    Flit f = iv.buf.front();
    iv.buf.pop();
    if (f.tail && !iv.buf.empty())  // the next packet's head comes to the front
      iv.ready = ready_after_landing(iv);
    if (--m_in_phits[c.in_port] == 0) m_in_busy.clear(c.in_port);
    f.vc = c.out_vc;
    if (m_pipe.delays_output() && f.head()) {
      Packet& pk = m_ctx.pool[f.pkt];
      // The residence up to crossing is counted now (head_arrival then becomes the cycle
      // it may leave; transmit() counts the rest).
      if (pk.cls == TrafficClass::Data && m_ctx.in_res_window(now)) m_ctx.residence[pk.in_class] += now - pk.head_arrival;
      pk.head_arrival = m_pipe.leaves_at(now);
    }
    if (ov.buf.empty() && f.head()) ov.front_phits = iv.phits;
    ov.buf.push(f);
    if (owed) m_room.crossed_eject(c.out_port);
    ++m_out_phits[c.out_port];
    m_out_busy.set(c.out_port);
    if (!kCtl || c.in_port < radix()) {  // internal inputs have no upstream link
      if constexpr (!kPfc) {
        // Once the packet's tail is in the buffer, a one-phit-per-cycle connection frees
        // one phit per cycle until it: the credits for all of them go upstream in one
        // message, each landing at the cycle it would have had (LinkMsg::count). (A
        // transfer crossbar frees several per cycle: one credit message per phit.)
        // (What crosses is what the buffer holds up to the first tail flag, counted there:
        // a fault that duplicates a phit, --fault dup-phit, stays visible downstream.)
        if (!iv.credited) {
          uint32_t n = 1;
          const uint32_t rest = static_cast<uint32_t>(iv.phits) - f.seq;  // f and its followers
          if (!kTransfer && !f.tail && rest > 1 && have >= rest) {
            for (uint32_t j = 0; j + 1 < have; ++j) {
              if (!iv.buf.at(j).tail) continue;
              n = j + 2;
              iv.credited = true;
              break;
            }
          }
          m_in[c.in_port]->send_credit(c.in_vc, now, FlowMsg::Credit, static_cast<uint16_t>(n));
        }
      } else if (m_fc) [[unlikely]] {  // --rtl flow_control: RESUME from the block (fc_after_crossbar)
        m_fc_rtl[c.in_port]->drain(c.in_vc, iv.buf.size());
        m_fc_drained = true;
      } else if (iv.pfc.drained(iv.buf.size(), m_xon[c.in_port])) {  // resume the sender
        m_in[c.in_port]->send_credit(c.in_vc, now, FlowMsg::Resume);
      }
    }
    if (!f.tail) return Crossbar::Moved::Body;
    unroute(c.in_port, c.in_vc);
    iv.credited = false;
    iv.attempts = 0;
    iv.connected = false;
    iv.xbar_out = -1;
    ov.writing = false;
    refresh_room(c.out_port, c.out_vc);
    return Crossbar::Moved::Tail;
  });
}

// The switch's own endpoint output: an intercepted control frame is consumed as it crosses.
void Switch::drain_endpoint(uint64_t now) {
  OutVc& ov = m_ovc[static_cast<size_t>(m_cp)][0];
  const Flit f = ov.buf.front();
  ov.buf.pop();
  if (!ov.writing) m_room.set(m_cp, 0, ov.buf.free());
  --m_buffered;
  if (--m_out_phits[static_cast<size_t>(m_cp)] == 0) m_out_busy.clear(m_cp);
  ++m_ctx.phit_moves;
  if (f.tail) {
    deliver_control(f.pkt, m_ctx.pool.arrival_port(f.pkt), now);
    m_ctx.pool.release(f.pkt);
  }
}

template <bool kPfc, bool kCtl, bool kCheckVc>
void Switch::transmit(uint64_t now) {
  m_out_busy.for_each([&](int op) SCFLY_ALWAYS_INLINE {
    if constexpr (kCtl) {
      if (op == m_cp) {
        drain_endpoint(now);
        return;
      }
    }
    auto& ovcs = m_ovc[op];
    const bool host = m_is_host[op];
    int v = m_link_vc[op];
    if (v < 0) {
      auto ready = [&](int c) {
        const OutVc& ov = ovcs[c];
        if (ov.buf.empty()) return false;
        // switch.pipeline_position output: the head leaves the pipeline's cycles after crossing.
        if (m_pipe.delays_output() && ov.buf.front().head() &&
            !m_pipe.may_leave(m_ctx.pool[ov.buf.front().pkt].head_arrival, now))
          return false;
        if (host) return true;
        if constexpr (kPfc) return ov.paused == 0;
        // (switch.output_credits inside: its credits were spent at the grant.)
        assert(m_credit_loop.inside() || ov.front_phits == m_ctx.pool[ov.buf.front().pkt].phits);
        return m_credit_loop.may_start(ov.cr, now, ov.front_phits);
      };
      // Control VCs first (strict priority), then the data VCs round-robin (parts/link_arbiter.h).
      const int nv = static_cast<int>(ovcs.size());
      if (m_la) [[unlikely]] {  // --rtl link_arbiter: the Verilated arbiter of the port picks
        uint32_t mask = 0;
        for (int c = 0; c < nv; ++c) mask |= ready(c) ? 1u << c : 0u;
        v = la_pick(op, mask);
      } else {
        v = m_link_arb.pick<kCtl>(op, nv, kCtl ? static_cast<int>(m_out_data[op]) : nv, ready);
      }
      if (v < 0) return;
      m_link_vc[op] = static_cast<int16_t>(v);
    }
    OutVc& ov = ovcs[v];
    if (ov.buf.empty()) return;  // bubble: the body is still crossing
    const Flit f = ov.buf.front();
    if (f.head()) m_link_len[op] = ov.front_phits;
    ov.buf.pop();
    if (shared_vc(op, v)) {
      m_room.left_shared(op);
      refresh_room(op, v);
    } else if (!ov.writing) {
      m_room.set(op, v, ov.buf.free());
    }
    if (f.tail && !ov.buf.empty()) ov.front_phits = m_ctx.pool[ov.buf.front().pkt].phits;
    --m_buffered;
    if (--m_out_phits[op] == 0) m_out_busy.clear(op);
    if (f.head() && m_ctx.in_res_window(now)) {
      const Packet& pk = m_ctx.pool[f.pkt];
      // Landing (or, with the pipeline at the output, crossing) to leaving.
      if (pk.cls == TrafficClass::Data) m_ctx.residence[pk.in_class] += m_pipe.residence(pk.head_arrival, now);
    }
    if (!host) {
      if constexpr (!kPfc) {
        m_credit_loop.sent(ov.cr);
        ++m_credits_used[op];
      }
      if constexpr (kCheckVc) {
        if (f.head() && !vc_order_ok(f.pkt, op, v)) return;
      }
      if (f.head()) ++m_ctx.pool[f.pkt].class_hops[m_port_class[op]];
    }
    if (!m_link_ahead[op]) {
      m_out[op]->send(f, now);
      // Once every phit after f is in this output VC or, behind it, in the input VC whose
      // connection fills it (one phit per cycle, never a bubble), the link will send one per
      // cycle until the tail: they go to the link now, each annotated with the cycle it
      // leaves, and the following cycles only account for them here.
      // What goes is what the buffers hold up to the first tail flag (see traverse_crossbar).
      const uint32_t rest = f.tail ? 0 : static_cast<uint32_t>(m_link_len[op]) - f.seq - 1u;
      const uint32_t k = rest > 0 ? ov.buf.size() : 0;
      const InVc* feed = rest > k && ov.writing ? &m_ivc[ov.feed_port][ov.feed_vc] : nullptr;
      const uint32_t avail = k + (feed ? feed->landed(now) : 0);
      if (rest > 0 && avail >= rest) {
        auto flit_at = [&](uint32_t i) SCFLY_ALWAYS_INLINE { return i < k ? ov.buf.at(i) : feed->buf.at(i - k); };
        uint32_t n = 0;
        bool run = true;  // the phits follow f in order (not so only after a fault: a phit repeated)
        for (uint32_t i = 0; i < avail && n == 0; ++i) {
          const Flit x = flit_at(i);
          run = run && x.pkt == f.pkt && x.seq == f.seq + 1u + i;
          if (x.tail) n = i + 1;
        }
        if (n > 0 && run) {  // the rest of the packet, up to its tail: one run on the link
          Flit g = flit_at(0);
          g.vc = static_cast<uint8_t>(v);
          g.tail = 1;
          m_out[op]->send_run(g, n, now, 1);
        } else {
          for (uint32_t i = 0; i < n; ++i) {
            Flit g = flit_at(i);
            g.vc = static_cast<uint8_t>(v);
            m_out[op]->send(g, now, i + 1);
          }
        }
        m_link_ahead[op] = n > 0;
      }
    }
    ++m_ctx.phit_moves;
    if (f.tail) {
      m_link_vc[op] = -1;
      m_link_ahead[op] = 0;
    }
  });
}

void Switch::check_vc_summaries() const {
  for (size_t p = 0; p < m_ivc.size(); ++p) {
    for (size_t v = 0; v < m_ivc[p].size(); ++v) {
      const InVc& iv = m_ivc[p][v];
      const size_t i = vix(static_cast<int>(p), static_cast<int>(v));
      assert(m_head_ready[i] == (!iv.routed && !iv.buf.empty() ? iv.ready : UINT64_MAX));
      assert(m_requesting[i] == (iv.routed && !iv.connected ? 1 : 0));
      (void)iv, (void)i;
    }
  }
  for (size_t p = 0; p < m_ovc.size(); ++p) {
    for (size_t v = 0; v < m_ovc[p].size(); ++v) {
      const OutVc& ov = m_ovc[p][v];
      assert(m_room.room(static_cast<int>(p), static_cast<int>(v)) ==
             out_room_of(static_cast<int>(p), static_cast<int>(v)));
      (void)ov;
    }
  }
}

// sim.check_vc_order (Dragonfly): the hop-slot rule (minimal.h) and every Dragonfly unit's
// VC use make a packet's VC strictly increase within each port class along its path (a
// segment has at most one local hop before and one after its global hop; PAR's turned
// packets go one VC up; control frames likewise on their own VCs).
// The last VC per class is kept per packet id beside the pool (PacketPool::vc_seen), reset at
// the packet's first switch-to-switch hop.
bool Switch::vc_order_ok(PacketId id, int op, int v) {
  PacketPool::VcSeen& seen = m_ctx.pool.vc_seen(id);
  const Packet& pkt = m_ctx.pool[id];
  bool first = true;
  for (int k = 0; k < kMaxPortClasses; ++k) first = first && pkt.class_hops[k] == 0;
  if (first) seen.fill(-1);
  const int cls = m_port_class[op];
  int8_t& last = seen[static_cast<size_t>(cls)];
  if (v <= last) {
    m_ctx.fail(std::string(name()) + ": VC order violated: packet #" + std::to_string(id) + " (" +
               std::to_string(pkt.src_node) + " -> " + std::to_string(pkt.dst_node) + ") leaves port " +
               std::to_string(op) + " (" + m_topo.port_class_name(cls) + ") on VC " + std::to_string(v) +
               " after VC " + std::to_string(last) + " on an earlier " + m_topo.port_class_name(cls) +
               " hop (a packet's VC strictly increases within a port class: the hop-slot rule, minimal.h)");
    return false;
  }
  last = static_cast<int8_t>(v);
  return true;
}

void Switch::schedule(uint64_t now) {
  bool clocked = !m_sleep || m_buffered != 0;
  if (!clocked)
    for (const auto& u : m_units) clocked = clocked || u->needs_clock();
  if (clocked) {
    m_next_run = now + 1;
    return;
  }
  // Idle: sleep until the earliest phit in flight toward us lands (links wake us for
  // anything sent later). Pending credits need no wake-up unless the switch publishes
  // credit-based congestion (m_credit_wake): otherwise they only matter once there is
  // something to send, and they are collected on the next active cycle.
  uint64_t earliest = UINT64_MAX;
  m_rx_pending.for_each([&](int p) { earliest = std::min(earliest, m_rx_next[static_cast<size_t>(p)]); });
  if (m_credit_wake)
    m_credit_pending.for_each([&](int p) { earliest = std::min(earliest, m_cr_next[static_cast<size_t>(p)]); });
  assert(earliest > now);  // receive() took every message landed by now
  m_asleep = true;
  m_next_run = earliest;
}

void Switch::originate(int dst_node, uint32_t payload, uint16_t phits) {
  const uint64_t now = m_last_cycle;  // called by a unit while the switch runs this cycle
  const PacketId id = m_ctx.pool.alloc();
  Packet& p = m_ctx.pool[id];
  p.cls = TrafficClass::Control;
  m_ctx.pool.payload(id) = payload;
  p.dst_node = dst_node;
  p.route.dst_switch = m_topo.switch_of_node(dst_node);
  p.route.dst_host = static_cast<int16_t>(m_topo.host_of_node(dst_node));
  p.gen_cycle = p.inject_cycle = p.head_arrival = now;
  p.phits = phits;
  ++m_ctx.control.originated;
  if (p.route.dst_switch == m_id) {  // a host of this switch: handled here at once
    deliver_control(id, -1, now);
    m_ctx.pool.release(id);
    return;
  }
  InVc& iv = m_ivc[static_cast<size_t>(m_cp)][0];
  if (iv.buf.empty()) m_head_ready[vix(m_cp, 0)] = iv.ready = m_pipe.routable_at(now);
  for (uint16_t s = 0; s < phits; ++s) {
    Flit f;
    f.pkt = id;
    f.seq = s;
    f.tail = s + 1 == phits;
    iv.buf.push_unbounded(f);
  }
  m_in_phits[static_cast<size_t>(m_cp)] += phits;
  m_buffered += phits;
  m_in_busy.set(m_cp);
}

void Switch::deliver_control(PacketId id, int in_port, uint64_t now) {
  const Packet& pkt = m_ctx.pool[id];
  ++m_ctx.control.intercepted;
  const uint64_t lat = now - pkt.gen_cycle;
  m_ctx.control.latency_sum += lat;
  m_ctx.control.latency_max = std::max(m_ctx.control.latency_max, lat);
  for (auto& u : m_units) u->on_control(pkt, m_ctx.pool.payload(id), in_port, now);
}

namespace {

// Phits in, and packets with a phit in, the first `n` VCs of a port at the end of cycle
// `now` (output VCs: their whole buffer; input VCs: the phits landed by then).
template <typename Vc>
uint32_t phits_of(const std::vector<Vc>& vcs, size_t n, uint64_t now) {
  uint32_t sum = 0;
  for (size_t v = 0; v < n; ++v) sum += vcs[v].landed(now);
  return sum;
}
template <typename Vc>
void packets_of(const std::vector<Vc>& vcs, size_t n, uint64_t now, const PacketPool& pool,
                std::vector<const Packet*>& out) {
  for (size_t v = 0; v < n; ++v) {
    const RingBuffer<Flit>& b = vcs[v].buf;
    const uint32_t m = vcs[v].landed(now);
    for (uint32_t i = 0; i < m; ++i)
      if (i == 0 || b.at(i).head()) out.push_back(&pool[b.at(i).pkt]);
  }
}

}  // namespace

template <typename F>
void Switch::for_each_waiting_for(int port, F&& f) const {
  for (int ip = 0; ip < m_inputs; ++ip) {
    const auto& vcs = m_ivc[static_cast<size_t>(ip)];
    for (size_t v = 0; v < m_in_data[static_cast<size_t>(ip)]; ++v)
      if (vcs[v].routed && !vcs[v].connected && vcs[v].cands.n > 0 && vcs[v].cands.c[0].port == port) f(vcs[v]);
  }
}

uint32_t Switch::data_phits_in(int port) const {
  return phits_of(m_ivc[static_cast<size_t>(port)], m_in_data[static_cast<size_t>(port)], seen());
}

int64_t Switch::credits_held_in(int port, int vc, uint64_t sender_cycle) const {
  const InVc& iv = m_ivc[static_cast<size_t>(port)][static_cast<size_t>(vc)];
  const LinkRx& rx = *m_in[static_cast<size_t>(port)];
  const uint64_t horizon = sender_cycle + rx.latency_cycles();  // what the sender has accounted lands by then
  int64_t n = static_cast<int64_t>(iv.buf.size()) + static_cast<int64_t>(rx.line.phits_on(static_cast<uint8_t>(vc), horizon));
  // Streaming (receive()) files a run of phits at its first landing: those landing after
  // the horizon are still the sender's to account (one per cycle, up to land_last).
  if (iv.land_last > horizon) n -= static_cast<int64_t>(std::min<uint64_t>(iv.buf.size(), iv.land_last - horizon));
  if (iv.credited) {  // the connected packet's remaining phits: credited when its tail landed
    for (uint32_t j = 0; j < iv.buf.size(); ++j)
      if (iv.buf.at(j).tail) {
        n -= j + 1;
        break;
      }
  }
  return n;
}

int64_t Switch::credits_held_out(int port, int vc) const {
  const OutVc& ov = m_ovc[static_cast<size_t>(port)][static_cast<size_t>(vc)];
  return static_cast<int64_t>(ov.cr.credits) + static_cast<int64_t>(m_out[static_cast<size_t>(port)]->credits.credits_on(static_cast<uint8_t>(vc)));
}

uint64_t Switch::buffered_phits() const {
  uint64_t landing = 0;  // filed, still to land
  const uint64_t now = seen();
  for (const auto& vcs : m_ivc)
    for (const InVc& iv : vcs) landing += iv.buf.size() - iv.landed(now);
  return m_buffered - landing;
}

bool Switch::out_stopped(int port, int vc, uint32_t phits) const {
  const OutVc& ov = m_ovc[static_cast<size_t>(port)][static_cast<size_t>(vc)];
  if (m_is_host[static_cast<size_t>(port)]) return false;
  return m_pfc ? ov.paused != 0 : !ov.cr.room(seen(), phits);
}

uint32_t Switch::vc_occupancy(const void* self, int port, int vc, QueueMeasure m) {
  const Switch& s = *static_cast<const Switch*>(self);
  const OutVc& ov = s.m_ovc[static_cast<size_t>(port)][static_cast<size_t>(vc)];
  const uint32_t out = ov.buf.size();
  if (m == QueueMeasure::Output) return out;
  // Credits spent and not back: downstream phits, and with the output buffer inside the
  // credit loop also the output buffer's and those still crossing the crossbar.
  const int32_t spent = ov.cr.cap - ov.cr.at(s.m_last_cycle);
  const uint32_t committed = spent > 0 ? static_cast<uint32_t>(spent) : 0u;
  if (m == QueueMeasure::Both) return s.m_credit_loop.committed_with_output(out, committed);
  return s.m_credit_loop.committed_downstream(out, committed);
}

uint32_t Switch::queued_for_output(int port) const {
  uint32_t n = phits_of(m_ovc[static_cast<size_t>(port)], m_out_data[static_cast<size_t>(port)], 0);
  const uint64_t now = seen();
  for_each_waiting_for(port, [&](const InVc& iv) { n += iv.landed(now); });
  return n;
}

uint32_t Switch::output_phits(int port) const {
  return phits_of(m_ovc[static_cast<size_t>(port)], m_out_data[static_cast<size_t>(port)], 0);
}

const Packet* Switch::first_output_packet(int port) const {
  const auto& vcs = m_ovc[static_cast<size_t>(port)];
  for (size_t v = 0; v < m_out_data[static_cast<size_t>(port)]; ++v)
    if (!vcs[v].buf.empty()) return &m_ctx.pool[vcs[v].buf.front().pkt];
  return nullptr;
}

const Packet* Switch::last_packet_out(int port) const {
  const PacketId id = m_last_out[static_cast<size_t>(port)];
  return id == UINT32_MAX ? nullptr : &m_ctx.pool[id];
}

void Switch::output_queue_packets(int port, std::vector<const Packet*>& out) const {
  packets_of(m_ovc[static_cast<size_t>(port)], m_out_data[static_cast<size_t>(port)], 0, m_ctx.pool, out);
  for_each_waiting_for(port, [&](const InVc& iv) { out.push_back(&m_ctx.pool[iv.buf.front().pkt]); });
}

void Switch::in_packets(int port, std::vector<const Packet*>& out) const {
  packets_of(m_ivc[static_cast<size_t>(port)], m_in_data[static_cast<size_t>(port)], seen(), m_ctx.pool, out);
}

std::vector<UnitSignal> Switch::unit_signals() const {
  std::vector<UnitSignal> out;
  for (const auto& u : m_units) u->signals(out);
  return out;
}

std::string Switch::dump() const {
  std::ostringstream os;
  const int k = static_cast<int>(m_ivc.size());
  for (int p = 0; p < k; ++p) {
    for (size_t v = 0; v < m_ivc[p].size(); ++v) {
      const InVc& iv = m_ivc[p][v];
      const uint32_t landed = iv.landed(seen());
      if (landed == 0) continue;
      const Packet& pkt = m_ctx.pool[iv.buf.front().pkt];
      os << "  " << name() << " in[" << p << "].vc" << v << ": " << landed << "/"
         << iv.buf.capacity() << " phits; front packet " << pkt.src_node << "->"
         << pkt.dst_node << " phit " << iv.buf.front().seq;
      if (iv.routed)
        for (int i = 0; i < iv.cands.n; ++i)
          os << (i ? " or " : ", routed to ") << "out[" << iv.cands.c[i].port << "].vc" << int(iv.cands.c[i].vc_lo)
             << (iv.cands.c[i].vc_hi != iv.cands.c[i].vc_lo ? "-" + std::to_string(iv.cands.c[i].vc_hi) : "");
      if (iv.connected) os << ", crossbar connected";
      os << "\n";
    }
  }
  for (int p = 0; p < k; ++p) {
    for (size_t v = 0; v < m_ovc[p].size(); ++v) {
      const OutVc& ov = m_ovc[p][v];
      if (ov.buf.empty()) continue;
      os << "  " << name() << " out[" << p << "].vc" << v << ": " << ov.buf.size() << "/"
         << ov.buf.capacity() << " phits; credits ";
      if (m_is_host[p] || p == m_cp) os << "sink";
      else os << ov.cr.at(seen()) << "/" << ov.cr.cap;
      os << (m_link_vc[p] == static_cast<int>(v) ? ", on link" : "") << "\n";
    }
  }
  return os.str();
}

}  // namespace scfly
