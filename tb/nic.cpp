#include "tb/nic.h"

#include <cmath>
#include <stdexcept>
#include <string>

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
      m_gap_rng(seed, StreamKind::Nic, 2 * static_cast<uint64_t>(node)),
      m_dst_rng(seed, StreamKind::Nic, 2 * static_cast<uint64_t>(node) + 1),
      m_out("inj", *this, clk.period() * static_cast<double>(prm.latency), true),
      m_in("ej", *this, clk.period() * static_cast<double>(prm.latency)),
      m_credits(static_cast<size_t>(prm.vcs), static_cast<int32_t>(prm.buffer)),
      m_paused(static_cast<size_t>(prm.vcs), 0) {
  for (const NicPhase& ph : prm.phases) {
    // A node the phase's pattern maps onto itself (bc, tp fixed points) generates nothing.
    const double q = ph.pattern && ph.pattern->silent(node) ? 0.0 : ph.load / prm.packet_phits;
    m_log1mq.push_back(q <= 0.0 ? std::nan("") : q < 1.0 ? std::log1p(-q) : 0.0);
  }
  if (prm.gal_torus) {
    const Torus& t = *prm.gal_torus;
    m_gal_q = 1 << t.n();
    const int sets = gal_num_sets(t, prm.gal.sets);
    m_gal_occ.assign(static_cast<size_t>(sets) * m_gal_q, 0);
    m_gal_thr.assign(static_cast<size_t>(sets), GalThreshold(prm.gal.threshold));
    m_gal_fifo.resize(static_cast<size_t>(m_gal_q));
    if (prm.vcs < m_gal_q)
      throw std::logic_error("GAL needs one injection VC per quadrant (" + std::to_string(m_gal_q) + "), not " +
                             std::to_string(prm.vcs));
  }
  schedule_generation(0);
  SC_HAS_PROCESS(Nic);
  SC_METHOD(tick);
}

// The next generation of a Bernoulli(q) process from cycle `base` on is base + G - 1, G
// geometric on {1, 2, ...}. A draw that reaches the next phase's start is redrawn there.
void Nic::schedule_generation(uint64_t base) {
  for (;;) {
    const auto& phases = m_prm.phases;
    const uint64_t boundary =
        m_gen_phase + 1 < phases.size() ? phases[m_gen_phase + 1].start : UINT64_MAX;
    const double l = m_log1mq[m_gen_phase];
    uint64_t next = UINT64_MAX;
    if (l == 0.0) {
      next = base;
    } else if (!std::isnan(l)) {
      const double u = m_gap_rng.uniform();
      const double g = std::floor(std::log1p(-u) / l);
      if (g < 1e15 && UINT64_MAX - base > static_cast<uint64_t>(g)) next = base + static_cast<uint64_t>(g);
    }
    if (next < boundary || boundary == UINT64_MAX) {
      m_next_gen = next;
      return;
    }
    ++m_gen_phase;
    base = boundary;
  }
}

void Nic::tick() {
  m_asleep = false;
  const uint64_t now = cycle();
  if (!first_run_this_cycle(now)) {
    next_trigger(*m_edge);
    return;
  }

  // Sink: tails delivered at their arrival cycle.
  while (!m_in.line.empty() && m_in.line.front().cycle <= now) {
    const FlitArrival a = m_in.line.front();
    m_in.line.pop();
    if (!a.flit.tail) continue;
    const Packet& p = m_ctx.pool[a.flit.pkt];
    if (p.dst_node != m_node) {
      m_ctx.fail(std::string(name()) + ": received packet " + std::to_string(p.src_node) + "->" +
                 std::to_string(p.dst_node) + " meant for another node");
      return;
    }
    m_stats.delivered(p, a.cycle);
    m_ctx.pool.release(a.flit.pkt);
  }
  while (!m_out.credits.empty() && m_out.credits.front().cycle <= now) {
    if (m_out.credits.front().kind != FlowMsg::Credit) {  // PFC
      m_paused[m_out.credits.front().vc] = m_out.credits.front().kind == FlowMsg::Pause;
      m_out.credits.pop();
      continue;
    }
    if (++m_credits[m_out.credits.front().vc] > static_cast<int32_t>(m_prm.buffer)) {
      m_ctx.fail(std::string(name()) + ": injection credits exceed the buffer size");
      return;
    }
    m_out.credits.pop();
  }

  // Source: every generation up to now enters the source queue with its own time stamp.
  while (m_next_gen <= now && m_next_gen < m_gen_stop) {
    m_queue.push_unbounded(m_next_gen);
    m_stats.generated(m_next_gen, m_prm.packet_phits);
    schedule_generation(m_next_gen + 1);
  }

  // Injection: continue the current packet, or start the oldest queued one on a VC
  // (round-robin) that has room for the whole packet.
  const int phits = m_prm.packet_phits;
  if (m_gal_q) {
    gal_inject(now);
  } else if (m_cur_pkt < 0 && !m_queue.empty()) {
    const int nv = static_cast<int>(m_credits.size());
    for (int n = 0, v = m_rr; n < nv; ++n, v = (v + 1) % nv) {
      if (!can_start(v, phits)) continue;
      const PacketId id = make_packet(now);
      m_queue.pop();
      m_stats.injected();
      m_cur_pkt = id;
      m_cur_seq = 0;
      m_cur_vc = static_cast<uint8_t>(v);
      m_rr = (v + 1) % nv;
      break;
    }
  }
  if (m_cur_pkt >= 0) {
    Flit f;
    f.pkt = static_cast<PacketId>(m_cur_pkt);
    f.seq = m_cur_seq;
    f.vc = m_cur_vc;
    f.tail = (m_cur_seq + 1 == phits);
    if (!m_prm.pfc) --m_credits[m_cur_vc];
    m_out.send(f, now);
    ++m_ctx.phit_moves;
    if (f.tail) m_cur_pkt = -1;
    else ++m_cur_seq;
  }

  // Next activation: every cycle while serializing or while a queued packet could start;
  // otherwise sleep until the next generation or a credit/phit lands.
  bool startable = false;
  if (m_cur_pkt < 0 && !m_queue.empty())
    for (int v = 0; v < static_cast<int>(m_credits.size()); ++v) startable |= can_start(v, phits);
  if (m_gal_queued > 0) startable = true;  // GAL: queued packets wait for credits or their turn
  if (m_cur_pkt >= 0 || startable || !m_prm.sleep) {
    next_trigger(*m_edge);
    return;
  }
  uint64_t earliest = m_next_gen < m_gen_stop ? m_next_gen : UINT64_MAX;
  if (!m_in.line.empty()) earliest = std::min(earliest, m_in.line.front().cycle);
  // A credit already on its way (sent by the switch earlier in this time step, before
  // this NIC went to sleep, so its link could not wake us) must wake us when it lands if
  // a queued packet is waiting for it; otherwise the injection time would depend on the
  // order SystemC ran the NIC and the switch in.
  if (!m_queue.empty() && !m_out.credits.empty()) earliest = std::min(earliest, m_out.credits.front().cycle);
  m_asleep = true;
  if (earliest - now < (1ULL << 40)) m_wake.notify(m_period * static_cast<double>(earliest - now));
  next_trigger(m_wake);
}

PacketId Nic::make_packet(uint64_t now) {
  const PacketId id = m_ctx.pool.alloc();
  Packet& p = m_ctx.pool[id];
  p.src_node = m_node;
  const uint64_t gen = m_queue.front();
  while (m_inj_phase + 1 < m_prm.phases.size() && gen >= m_prm.phases[m_inj_phase + 1].start) ++m_inj_phase;
  p.dst_node = m_prm.phases[m_inj_phase].pattern->dest(m_node, m_dst_rng);
  p.route.dst_switch = m_topo.switch_of_node(p.dst_node);
  p.route.dst_host = static_cast<int16_t>(m_topo.host_of_node(p.dst_node));
  p.gen_cycle = gen;
  p.inject_cycle = now;
  p.phits = static_cast<uint16_t>(m_prm.packet_phits);
  return id;
}

void Nic::gal_inject(uint64_t now) {
  const Torus& t = *m_prm.gal_torus;
  const int src = m_topo.switch_of_node(m_node);
  // Injection unit: one packet per cycle from the source queue into an injection queue.
  if (m_gal_pending < 0 && !m_queue.empty()) m_gal_pending = make_packet(now);
  if (m_gal_pending >= 0) {
    const PacketId id = static_cast<PacketId>(m_gal_pending);
    Packet& p = m_ctx.pool[id];
    const int set = gal_set(t, m_prm.gal.sets, src, p.route.dst_switch);
    uint16_t* occ = &m_gal_occ[static_cast<size_t>(set) * m_gal_q];
    const uint32_t T = m_gal_thr[static_cast<size_t>(set)].value(now, m_prm.gal.threshold);
    bool minimal = true;
    const int q = gal_choose(t, src, p.route.dst_switch, occ, T, m_dst_rng, minimal);
    if (occ[q] < m_prm.gal.queue_depth) {
      set_quadrant(t, src, p.route.dst_switch, q, p.route);
      ++occ[q];
      ++m_gal_queued;
      m_gal_fifo[static_cast<size_t>(q)].push_unbounded(id);
      m_queue.pop();
      m_gal_pending = -1;
    }
  }
  // Link: start the oldest packet of the next quadrant (round-robin) whose VC has room.
  if (m_cur_pkt >= 0) return;
  const int phits = m_prm.packet_phits;
  for (int n = 0, q = m_rr; n < m_gal_q; ++n, q = (q + 1) % m_gal_q) {
    auto& fifo = m_gal_fifo[static_cast<size_t>(q)];
    if (fifo.empty() || !can_start(q, phits)) continue;
    const PacketId id = fifo.front();
    fifo.pop();
    Packet& p = m_ctx.pool[id];
    const int set = gal_set(t, m_prm.gal.sets, src, p.route.dst_switch);
    --m_gal_occ[static_cast<size_t>(set) * m_gal_q + q];
    --m_gal_queued;
    m_gal_thr[static_cast<size_t>(set)].departure(now);
    p.inject_cycle = now;
    m_stats.injected();
    m_cur_pkt = id;
    m_cur_seq = 0;
    m_cur_vc = static_cast<uint8_t>(q);
    m_rr = (q + 1) % m_gal_q;
    break;
  }
}

}  // namespace scfly
