#include "tb/nic.h"

#include <cassert>
#include <cmath>
#include <stdexcept>
#include <string>

#include "rtl_models/verilog/rtl_blocks.h"
#include "tb/packet_trace.h"
#include "tb/tlm_endpoint.h"

namespace scfly {

Nic::Nic(sc_core::sc_module_name name, int node, const Topology& topo, const NicParams& prm,
         SimContext& ctx, NetStats& stats, uint64_t seed, const sc_core::sc_clock& clk)
    : sc_core::sc_module(name),
      Clocked(clk),
      m_node(node),
      m_topo(topo),
      m_prm(prm),
      m_ctx(ctx),
      m_stats(stats),
      m_dst_rng(seed, StreamKind::Nic, 2 * static_cast<uint64_t>(node) + 1) {
  const int w = topo.terminal_ports();
  for (int j = 0; j < w; ++j) {
    // Sub-source 0 keeps the stream a single-port node has; the others follow all nodes'.
    const uint64_t inst = 2 * static_cast<uint64_t>(node) + 2 * static_cast<uint64_t>(topo.num_nodes()) * j;
    m_src.push_back(Source{Rng(seed, StreamKind::Nic, inst), 0, 0});
    const std::string sfx = j == 0 ? "" : std::to_string(j);
    TermPort tp;
    tp.out = std::make_unique<LinkTx>(("inj" + sfx).c_str(), *this, clk.period() * static_cast<double>(prm.latency), true);
    tp.in = std::make_unique<LinkRx>(("ej" + sfx).c_str(), *this, clk.period() * static_cast<double>(prm.latency));
    tp.credits.assign(static_cast<size_t>(prm.vcs), static_cast<int32_t>(prm.buffer));
    tp.paused.assign(static_cast<size_t>(prm.vcs), 0);
    m_ports.push_back(std::move(tp));
  }
  for (const NicPhase& ph : prm.phases) {
    // A node the phase's pattern maps onto itself (bc, tp fixed points) generates nothing.
    const double q = ph.pattern && ph.pattern->silent(node) ? 0.0 : ph.load / prm.packet_phits / w;
    m_log1mq.push_back(q <= 0.0 ? std::nan("") : q < 1.0 ? std::log1p(-q) : 0.0);
  }
  if (prm.gal_torus) {
    const Torus& t = *prm.gal_torus;
    m_gal_q = 1 << t.n();
    const int sets = gal_num_sets(t, prm.gal.sets);
    m_gal_occ.assign(static_cast<size_t>(sets) * m_gal_q, 0);
    m_gal_thr.assign(static_cast<size_t>(sets), GalThreshold(prm.gal.threshold));
    if (prm.rtl_gal_threshold) {
      if (prm.sleep) throw std::logic_error("the RTL GAL threshold controllers need a NIC that never sleeps");
      for (int k = 0; k < sets; ++k)
        m_gal_rtl.push_back(make_rtl_gal_threshold(prm.gal.threshold, std::string(this->name()) + ".gal_rtl" +
                                                                          std::to_string(k)));
    }
    m_gal_fifo.resize(static_cast<size_t>(m_gal_q));
    if (prm.vcs < m_gal_q)
      throw std::logic_error("GAL needs one injection VC per quadrant (" + std::to_string(m_gal_q) + "), not " +
                             std::to_string(prm.vcs));
  }
  if (prm.vc_by_dest) {
    if (prm.gal_torus) throw std::logic_error("GAL chooses its own injection VCs; source.injection_vc dest is not for it");
    m_vcq.resize(static_cast<size_t>(prm.vcs));
  }
  for (Source& src : m_src) schedule_generation(src, 0);
  if (prm.skip_when_full) m_skipped = &ctx.counters["source_skipped_generations"];
  m_wake_on_tails = true;  // see the end of tick_impl
  if (prm.scheduled) {
    m_scheduled = true;  // run by the network's block scheduler (run_cycle)
  } else {
    SC_HAS_PROCESS(Nic);
    if (w == 1) {
      SC_METHOD(tick_single);
    } else {
      SC_METHOD(tick_multi);
    }
  }
}

// The next generation of a Bernoulli(q) process from cycle `base` on is base + G - 1, G
// geometric on {1, 2, ...}. A draw that reaches the next phase's start is redrawn there.
void Nic::schedule_generation(Source& src, uint64_t base) {
  for (;;) {
    const auto& phases = m_prm.phases;
    const uint64_t boundary = src.phase + 1 < phases.size() ? phases[src.phase + 1].start : UINT64_MAX;
    const double l = m_log1mq[src.phase];
    uint64_t next = UINT64_MAX;
    if (l == 0.0) {
      next = base;
    } else if (!std::isnan(l)) {
      const double u = src.gap_rng.uniform();
      const double g = std::floor(std::log1p(-u) / l);
      if (g < 1e15 && UINT64_MAX - base > static_cast<uint64_t>(g)) next = base + static_cast<uint64_t>(g);
    }
    if (next < boundary || boundary == UINT64_MAX) {
      src.next_gen = next;
      return;
    }
    ++src.phase;
    base = boundary;
  }
}

// The whole packet goes onto the link at once, phit i annotated to leave i cycles from now
// (TLM timing annotation): the switch sees each phit land at the cycle it would have had,
// sent one per cycle, and the NIC need not run while the link carries the packet. Nothing
// else uses the link meanwhile (the port starts no packet before free_at), and the credits
// it spends are only read when the next packet starts, after the tail.
void Nic::start(TermPort& tp, PacketId id, int vc, uint64_t now) {
  const int phits = m_prm.packet_phits;
  Flit f;
  f.pkt = id;
  f.vc = static_cast<uint8_t>(vc);
  for (int i = 0; i < phits; ++i) {
    f.seq = static_cast<uint16_t>(i);
    f.tail = i + 1 == phits;
    tp.out->send(f, now, static_cast<uint32_t>(i));
  }
  // Under PFC the credits count only for skip_when_full's room check (the switch returns
  // them then, SwitchParams::pfc_host_credits); PFC alone gates the link.
  if (!m_prm.pfc || m_prm.skip_when_full) tp.credits[static_cast<size_t>(vc)] -= phits;
  m_ctx.phit_moves += static_cast<uint64_t>(phits);
  tp.free_at = now + static_cast<uint64_t>(phits);
}

// kMulti false: one terminal port and one sub-source (every Dragonfly), with the loops
// over them of constant length 1.
// Sets m_next_run and m_asleep for what follows (a fatal error: not asleep, no next run).
template <bool kMulti>
inline SCFLY_ALWAYS_INLINE void Nic::step(uint64_t now) {
  const size_t np = kMulti ? m_ports.size() : 1;
  TermPort* const ports = m_ports.data();
  m_next_run = UINT64_MAX;  // kept on the early returns of a fatal error
  // The RTL threshold controllers' registers at the start of this cycle (also for the VCD).
  for (auto& b : m_gal_rtl) b->clock(now);

  for (size_t i = 0; i < np; ++i) {
    TermPort& tp = ports[i];
    // Sink: tails delivered at their arrival cycle. Phit-level check: the phits arrive
    // numbered 0..n-1 packet after packet (one ejection VC, virtual cut-through: a packet's
    // phits are never interleaved with another's), the tail being phit n-1 of its packet:
    // none missing or repeated.
    LinkRx& in = *tp.in;
    while (!in.line.empty() && in.line.front_cycle() <= now) {
      const FlitArrival a = in.line.pop();
      if (a.flit.seq != tp.rx_next) [[unlikely]] {
        phit_order_error(i, a.flit, tp);
        return;
      }
      tp.rx_next = a.flit.tail ? 0 : static_cast<uint16_t>(a.flit.seq + 1);
      if (!a.flit.tail) continue;
      const Packet& p = m_ctx.pool[a.flit.pkt];
      if (a.flit.seq + 1 != p.phits) [[unlikely]] {
        phit_order_error(i, a.flit, tp);
        return;
      }
      if (p.dst_node != m_node) {
        m_ctx.fail(std::string(name()) + ": received packet " + std::to_string(p.src_node) + "->" +
                   std::to_string(p.dst_node) + " meant for another node");
        return;
      }
      m_stats.delivered(p, a.cycle);
      if (m_ctx.packet_trace) [[unlikely]] m_ctx.packet_trace->delivered(p, a.cycle);
      if (m_ctx.messages) [[unlikely]] {  // a TLM endpoint's packet: one more of its message
        if (m_ctx.messages->endpoint(p.src_node)) m_ctx.messages->packet_arrived(m_ctx.pool.payload(a.flit.pkt), a.cycle);
      }
      m_ctx.pool.release(a.flit.pkt);
    }
    bool failed = false;
    tp.out->credits.take_due(now, [&](uint8_t vc, FlowMsg kind, uint32_t n) {
      if (failed) return;
      if (kind != FlowMsg::Credit) {  // PFC
        tp.paused[vc] = kind == FlowMsg::Pause;
        return;
      }
      if ((tp.credits[vc] += static_cast<int32_t>(n)) > static_cast<int32_t>(m_prm.buffer)) {
        m_ctx.fail(std::string(name()) + ": injection credits exceed the buffer size");
        failed = true;
      }
    });
    if (failed) return;
  }

  // Source: every generation up to now enters the source queue with its own time stamp,
  // in generation order across the sub-sources.
  for (;;) {
    Source& src = kMulti ? next_source() : m_src[0];
    if (src.next_gen > now || src.next_gen >= m_gen_stop) break;
    if (!m_vcq.empty()) {
      generate_by_dest(src.next_gen, src.phase);
      schedule_generation(src, src.next_gen + 1);
      continue;
    }
    if (m_prm.skip_when_full && !room_for_packet()) {
      // The NIC runs at every generation cycle (it wakes for each), so the room is the
      // room at that cycle.
      assert(src.next_gen == now);
      ++*m_skipped;
      schedule_generation(src, src.next_gen + 1);
      continue;
    }
    m_queue.push_unbounded(src.next_gen);
    m_stats.generated(src.next_gen, m_prm.packet_phits);
    schedule_generation(src, src.next_gen + 1);
  }

  // Injection: on each idle terminal port start the oldest queued packet on a VC
  // (round-robin) that has room for the whole packet; then every busy port sends a phit.
  const int phits = m_prm.packet_phits;
  if (m_endpoint) [[unlikely]] {
    inject_messages(now);
  } else if (m_gal_q) {
    gal_inject(now);
  } else if (!m_vcq.empty()) {
    inject_by_dest(now);
  } else {
    for (size_t i = 0; i < np; ++i) {
      TermPort& tp = ports[i];
      if (now < tp.free_at || m_queue.empty()) continue;
      const int nv = static_cast<int>(tp.credits.size());
      for (int n = 0, v = tp.rr; n < nv; ++n, v = (v + 1) % nv) {
        if (!can_start(tp, v, phits)) continue;
        const PacketId id = make_packet(now);
        m_queue.pop();
        m_stats.injected();
        start(tp, id, v, now);
        tp.rr = (v + 1) % nv;
        break;
      }
    }
  }
  // Next activation: the next cycle if a queued packet could start then; otherwise asleep
  // (below) until a port's link frees with a packet queued, the next generation, a tail
  // lands, or a credit a queued packet waits for lands.
  bool startable = false, need_credits = false;
  uint64_t earliest = UINT64_MAX;
  if (!m_queue.empty() || m_vcq_total > 0) {
    for (size_t i = 0; i < np; ++i) {
      const TermPort& tp = ports[i];
      if (tp.free_at > now + 1) {
        earliest = std::min(earliest, tp.free_at);
        continue;
      }
      need_credits = true;
      for (int v = 0; v < static_cast<int>(tp.credits.size()); ++v)
        startable |= can_start(tp, v, phits) && (m_vcq.empty() || !m_vcq[static_cast<size_t>(v)].empty());
      // A credit already on its way (sent by the switch earlier in this time step, before
      // this NIC went to sleep, so its link could not wake us) must wake us when it lands;
      // otherwise the injection time would depend on the order SystemC ran the NIC and the
      // switch in.
      if (!tp.out->credits.empty()) earliest = std::min(earliest, tp.out->credits.front_cycle());
    }
  }
  if (m_gal_queued > 0) startable = true;  // GAL: queued packets wait for credits or their turn
  if (startable || !m_prm.sleep) {
    m_next_run = now + 1;
    return;
  }
  // The sink needs no wake-up for the phits before a tail: it checks them, in order, when
  // the tail lands (delivery happens at the tail's arrival cycle). Credits matter only to
  // start a queued packet on a free port: otherwise the NIC takes them when it next runs.
  m_wake_on_credits = need_credits;
  const uint64_t gen = (kMulti ? next_source() : m_src[0]).next_gen;
  if (gen < m_gen_stop) earliest = std::min(earliest, gen);
  for (size_t i = 0; i < np; ++i)
    if (!ports[i].in->line.empty()) earliest = std::min(earliest, ports[i].in->line.tail_cycle());
  m_asleep = true;
  if (earliest - now < (1ULL << 40)) m_next_run = earliest;
}

bool Nic::room_for_packet() const {
  int64_t free = 0;
  for (const TermPort& tp : m_ports)
    for (int32_t c : tp.credits) free += c;
  return free - static_cast<int64_t>(m_queue.size() + 1) * m_prm.packet_phits >= 0;
}

void Nic::phit_order_error(size_t j, const Flit& f, const TermPort& tp) {
  const int sw = m_topo.switch_of_node(m_node);
  const int port = m_topo.host_port(m_topo.host_of_node(m_node), static_cast<int>(j));
  const Packet& p = m_ctx.pool[f.pkt];
  const std::string expected = tp.rx_next == 0 ? "a head (phit 0)" : "phit " + std::to_string(tp.rx_next);
  m_ctx.fail(std::string(name()) + ": phit-order violation on the ejection link from switch " + std::to_string(sw) +
             " port " + std::to_string(port) + " VC " + std::to_string(f.vc) + ": phit " + std::to_string(f.seq) +
             (f.tail ? " (tail)" : "") + " of packet #" + std::to_string(f.pkt) + " (" + std::to_string(p.src_node) +
             " -> " + std::to_string(p.dst_node) + ", " + std::to_string(p.phits) + " phits) arrived where " + expected +
             " was expected (a phit lost, repeated or interleaved)");
}

// The NIC's own process (one clock edge): the first run of this cycle runs it.
template <bool kMulti>
void Nic::tick_impl() {
  if (m_ctx.failed()) [[unlikely]] return;  // the network has halted: never triggered again
  m_asleep = false;
  const uint64_t now = cycle();
  if (!first_run_this_cycle(now)) {
    next_trigger(*m_edge);
    return;
  }
  step<kMulti>(now);
  trigger_next(now);
}

void Nic::tick_single() { tick_impl<false>(); }
void Nic::tick_multi() { tick_impl<true>(); }

void Nic::run_cycle(uint64_t now) {
  m_asleep = false;
  m_last_cycle = now;
  if (m_ports.size() == 1) step<false>(now);
  else step<true>(now);
}

PacketId Nic::make_packet(uint64_t now) {
  const uint64_t gen = m_queue.front();
  while (m_inj_phase + 1 < m_prm.phases.size() && gen >= m_prm.phases[m_inj_phase + 1].start) ++m_inj_phase;
  return new_packet(gen, m_prm.phases[m_inj_phase].pattern->dest(m_node, m_dst_rng), now);
}

PacketId Nic::new_packet(uint64_t gen, int dst, uint64_t now) {
  const PacketId id = m_ctx.pool.alloc();
  Packet& p = m_ctx.pool[id];
  p.src_node = m_node;
  p.dst_node = dst;
  p.route.dst_switch = m_topo.switch_of_node(p.dst_node);
  p.route.dst_host = static_cast<int16_t>(m_topo.host_of_node(p.dst_node));
  p.gen_cycle = gen;
  p.inject_cycle = now;
  p.phits = static_cast<uint16_t>(m_prm.packet_phits);
  return id;
}

void Nic::push_message_packet(uint64_t gen, int dst, uint32_t msg) {
  m_ext.push_unbounded(External{gen, dst, msg});
  m_stats.generated(gen, m_prm.packet_phits);
}

// A TLM endpoint's host: each idle port starts the oldest message packet due by now on an
// injection VC (round-robin) with room for it. The NIC never sleeps (network.cpp).
void Nic::inject_messages(uint64_t now) {
  const int phits = m_prm.packet_phits;
  for (TermPort& tp : m_ports) {
    if (now < tp.free_at || m_ext.empty() || m_ext.front().gen > now) continue;
    const int nv = static_cast<int>(tp.credits.size());
    for (int n = 0, v = tp.rr; n < nv; ++n, v = (v + 1) % nv) {
      if (!can_start(tp, v, phits)) continue;
      const External e = m_ext.front();
      m_ext.pop();
      const PacketId id = new_packet(e.gen, e.dst, now);
      m_ctx.pool.payload(id) = e.msg;
      m_stats.injected();
      start(tp, id, v, now);
      tp.rr = (v + 1) % nv;
      m_endpoint->injected();
      break;
    }
  }
}

void Nic::generate_by_dest(uint64_t gen, size_t phase) {
  const int dst = m_prm.phases[phase].pattern->dest(m_node, m_dst_rng);
  const size_t v = static_cast<size_t>(static_cast<int64_t>(dst) * m_prm.vcs / m_topo.num_nodes());
  RingBuffer<Queued>& q = m_vcq[v];
  if (m_prm.skip_when_full) {
    // FOGSim draws the destination, then drops the generation if its VC lacks room.
    int64_t free = 0;
    for (const TermPort& tp : m_ports) free += tp.credits[v];
    if (free - static_cast<int64_t>(q.size() + 1) * m_prm.packet_phits < 0) {
      ++*m_skipped;
      return;
    }
  }
  q.push_unbounded(Queued{gen, dst});
  ++m_vcq_total;
  m_stats.generated(gen, m_prm.packet_phits);
}

void Nic::inject_by_dest(uint64_t now) {
  const int phits = m_prm.packet_phits;
  for (TermPort& tp : m_ports) {
    if (now < tp.free_at || m_vcq_total == 0) continue;
    int best = -1;
    for (int v = 0; v < static_cast<int>(m_vcq.size()); ++v) {
      const RingBuffer<Queued>& q = m_vcq[static_cast<size_t>(v)];
      if (q.empty() || !can_start(tp, v, phits)) continue;
      if (best < 0 || q.front().gen < m_vcq[static_cast<size_t>(best)].front().gen) best = v;
    }
    if (best < 0) continue;
    RingBuffer<Queued>& q = m_vcq[static_cast<size_t>(best)];
    const PacketId id = new_packet(q.front().gen, q.front().dst, now);
    q.pop();
    --m_vcq_total;
    m_stats.injected();
    start(tp, id, best, now);
  }
}

void Nic::gal_inject(uint64_t now) {
  const Torus& t = *m_prm.gal_torus;
  const int src = m_topo.switch_of_node(m_node);
  // Injection unit: one packet per cycle and terminal port from the source queue into an
  // injection queue.
  for (size_t n = 0; n < m_ports.size(); ++n) {
    if (m_gal_pending < 0 && !m_queue.empty()) m_gal_pending = make_packet(now);
    if (m_gal_pending < 0) break;
    const PacketId id = static_cast<PacketId>(m_gal_pending);
    Packet& p = m_ctx.pool[id];
    const int set = gal_set(t, m_prm.gal.sets, src, p.route.dst_switch);
    uint16_t* occ = &m_gal_occ[static_cast<size_t>(set) * m_gal_q];
    const uint32_t T = m_gal_rtl.empty() ? m_gal_thr[static_cast<size_t>(set)].value(now, m_prm.gal.threshold)
                                         : m_gal_rtl[static_cast<size_t>(set)]->value(now);
    bool minimal = true;
    const int q = gal_choose(t, src, p.route.dst_switch, occ, T, m_dst_rng, minimal);
    if (occ[q] >= m_prm.gal.queue_depth) break;  // the head waits for room
    set_quadrant(t, src, p.route.dst_switch, q, p.route);
    ++occ[q];
    ++m_gal_queued;
    m_gal_fifo[static_cast<size_t>(q)].push_unbounded(id);
    m_queue.pop();
    m_gal_pending = -1;
  }
  // Links: each idle one starts the oldest packet of its next quadrant (round-robin) whose
  // VC has room on it.
  const int phits = m_prm.packet_phits;
  for (TermPort& tp : m_ports) {
    if (now < tp.free_at) continue;
    for (int n = 0, q = tp.rr; n < m_gal_q; ++n, q = (q + 1) % m_gal_q) {
      auto& fifo = m_gal_fifo[static_cast<size_t>(q)];
      if (fifo.empty() || !can_start(tp, q, phits)) continue;
      const PacketId id = fifo.front();
      fifo.pop();
      Packet& p = m_ctx.pool[id];
      const int set = gal_set(t, m_prm.gal.sets, src, p.route.dst_switch);
      --m_gal_occ[static_cast<size_t>(set) * m_gal_q + q];
      --m_gal_queued;
      if (m_gal_rtl.empty()) m_gal_thr[static_cast<size_t>(set)].departure(now);
      else m_gal_rtl[static_cast<size_t>(set)]->departure(now);
      p.inject_cycle = now;
      m_stats.injected();
      start(tp, id, q, now);
      tp.rr = (q + 1) % m_gal_q;
      break;
    }
  }
}

}  // namespace scfly
