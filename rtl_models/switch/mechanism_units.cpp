#include "rtl_models/switch/mechanism_units.h"

#include "rtl_models/switch/switch.h"
#include "rtl_models/verilog/rtl_blocks.h"
#include "routing_units/minimal.h"

namespace scfly {

namespace {

class AcorUnit final : public SwitchUnit {
 public:
  explicit AcorUnit(std::unique_ptr<LevelCtrl> ctrl) : m_ctrl(std::move(ctrl)) {}
  void idle(uint64_t cycles) override { m_ctrl->idle(cycles); }
  void end_cycle(const SwitchCycle& c) override { m_ctrl->step(c.blocked_nonmin); }
  // A pending decrease keeps the switch on the clock, so the traced and sampled level
  // changes at the cycle the hardware would change it.
  bool needs_clock() const override { return m_ctrl->busy() || m_ctrl->needs_every_cycle(); }
  void observe(RouteContext& ctx) const override { ctx.switch_level = static_cast<uint8_t>(m_ctrl->level()); }
  void signals(std::vector<UnitSignal>& out) const override {
    const LevelCtrl* c = m_ctrl.get();
    out.push_back({"acor_level", c->level_ptr(), [c] { return static_cast<double>(c->level()); }});
    out.push_back({"acor_blocked_counter", c->counter_ptr(), nullptr});
  }

 private:
  std::unique_ptr<LevelCtrl> m_ctrl;
};

class LoadPublisher final : public SwitchUnit {
 public:
  LoadPublisher(int sw, int first_port, int radix, NetworkLoad& table)
      : m_sw(sw), m_first(first_port), m_radix(radix), m_table(table) {}
  void end_cycle(const SwitchCycle& c) override {
    for (int p = m_first; p < m_radix; ++p) m_table.publish(m_sw, p, c.load->at(p), c.now);
  }

 private:
  int m_sw, m_first, m_radix;
  NetworkLoad& m_table;
};

class PbUnit final : public SwitchUnit {
 public:
  PbUnit(int sw, const Dragonfly& topo, const PbParams& pb, SatFlagTable& table, bool rtl, const std::string& name)
      : m_sw(sw), m_g0(topo.first_global_port()), m_h(topo.h()), m_pb(pb), m_table(table),
        m_flags(static_cast<size_t>(m_h), 0), m_q(static_cast<size_t>(m_h), 0) {
    if (rtl) {
      // The Verilated detector hands back its flags within drive(), stamped with this
      // cycle, as the C++ rule below does.
      m_rtl = make_rtl_pb_detector(m_h, pb.cg, pb.tg, [this](const uint32_t* flags) {
        for (int j = 0; j < m_h; ++j) {
          m_flags[static_cast<size_t>(j)] = flags[j];
          m_table.publish(m_sw, j, flags[j] != 0, m_now);
        }
      }, name);
    }
  }
  void end_cycle(const SwitchCycle& c) override {
    m_now = c.now;
    uint64_t sum = 0;
    for (int j = 0; j < m_h; ++j) {
      m_q[static_cast<size_t>(j)] = sat_queue(c.load->at(m_g0 + j));
      sum += m_q[static_cast<size_t>(j)];
    }
    if (m_rtl) {
      m_rtl->drive(m_q.data());  // flags come back through the callback, at once
      return;
    }
    for (int j = 0; j < m_h; ++j)
      m_flags[static_cast<size_t>(j)] =
          pb_saturated(m_q[static_cast<size_t>(j)], sum, static_cast<uint32_t>(m_h), m_pb.cg, m_pb.tg);
    for (int j = 0; j < m_h; ++j) m_table.publish(m_sw, j, m_flags[static_cast<size_t>(j)] != 0, c.now);
  }
  void attach(AdaptiveView& view) override { view.own_flags = m_flags.data(); }
  void signals(std::vector<UnitSignal>& out) const override {
    for (int j = 0; j < m_h; ++j) out.push_back({"pb_sat_g" + std::to_string(j), &m_flags[static_cast<size_t>(j)], nullptr});
  }

 private:
  int m_sw, m_g0, m_h;
  PbParams m_pb;
  SatFlagTable& m_table;
  std::vector<uint32_t> m_flags;  // this switch's flag per global port j (traced)
  std::vector<uint32_t> m_q;      // scratch: global-port occupancies, saturated
  std::unique_ptr<PbDetectorBlock> m_rtl;
  uint64_t m_now = 0;
};

class ControlProbe final : public SwitchUnit {
 public:
  ControlProbe(int sw, uint32_t interval, uint16_t phits, int nodes, uint64_t seed)
      : m_interval(interval), m_phits(phits), m_nodes(nodes),
        m_rng(seed, StreamKind::Control, 2 * static_cast<uint64_t>(sw) + 1) {
    m_next = m_rng.below(interval);
  }
  void attach(ControlPort& port) override { m_port = &port; }
  void end_cycle(const SwitchCycle& c) override {
    while (m_port && c.now >= m_next) {
      m_port->originate(static_cast<int>(m_rng.below(static_cast<uint32_t>(m_nodes))), 0, m_phits);
      m_next += m_interval;
    }
  }
  bool needs_clock() const override { return true; }  // fires on time, busy or idle

 private:
  uint32_t m_interval;
  uint16_t m_phits;
  int m_nodes;
  Rng m_rng;
  ControlPort* m_port = nullptr;
  uint64_t m_next = 0;
};

// QCN-Switch (routing_units/qcn.h): a congestion point on every transit port and the port
// probability table, written into the switch's forwarding table for MIN-COND.
class QcnUnit final : public SwitchUnit {
 public:
  QcnUnit(int sw, const Dragonfly& topo, const QcnParams& q, uint16_t cnm_phits, uint32_t packet_phits, uint64_t seed,
          SimContext& ctx, bool rtl_min_route)
      : m_sw(sw), m_topo(topo), m_q(q),
        m_out_only(q.sampling == QcnSampling::Output && q.cp_queue == QcnCpQueue::Output), m_cnm_phits(cnm_phits), m_first(topo.p()),
        m_n(topo.radix() - topo.p()), m_ports(m_first, m_n, q), m_cp(static_cast<size_t>(m_n)),
        m_last_out(static_cast<size_t>(m_n), 0), m_last_in(static_cast<size_t>(m_n), 0),
        m_qeq(static_cast<size_t>(m_n), 1), m_pct(static_cast<size_t>(m_n), 100),
        m_period(std::max<uint32_t>(1, q.cpc * packet_phits)),
        m_rng(seed, StreamKind::Qcn, static_cast<uint64_t>(sw)),
        m_min_hop(rtl_min_route ? ctx.rtl_min_hop : nullptr),
        m_sent(ctx.counters["qcn_cnms_sent"]), m_local(ctx.counters["qcn_local_updates"]),
        m_received(ctx.counters["qcn_cnms_received"]), m_samples(ctx.counters["qcn_samples"]),
        m_congested(ctx.counters["qcn_congested_samples"]) {}
  void attach(const SwitchState& st) override {
    m_state = &st;
    // Q_eq: a fraction of one VC buffer of the sampled side of the port (at least 1 phit).
    for (int i = 0; i < m_n; ++i) {
      const int port = m_first + i;
      const uint32_t depth = m_q.sampling == QcnSampling::Output ? st.out_depth(port) : st.in_depth(port);
      m_qeq[static_cast<size_t>(i)] = std::max<uint32_t>(1, static_cast<uint32_t>(m_q.qeq * depth + 0.5));
    }
    if (!m_cp_name.empty()) {
      m_cp_rtl = make_rtl_qcn_cp(m_q, m_qeq, m_cp_name);
      for (int i = 0; i < m_n; ++i) m_cp[static_cast<size_t>(i)].attach(m_cp_rtl.get(), i);
    }
  }
  void attach(ControlPort& port) override { m_port = &port; }
  void attach(ForwardingTable& table) override { m_table = &table; }
  // Asleep the switch holds no packet: nothing enters or leaves a port and every queue is
  // empty, so only the time-paced sample timer moves (samples of empty queues).
  void idle(uint64_t cycles) override {
    if (m_q.clock != QcnClock::Time) return;
    const uint64_t total = m_tick + cycles;
    if (total >= m_period)
      for (auto& cp : m_cp) cp.sample_empty();
    m_tick = static_cast<uint32_t>(total % m_period);
  }
  void end_cycle(const SwitchCycle& c) override {
    (void)c;
    // Time-paced: every port is sampled each CPC packet times, on one timer.
    const bool timed = m_q.clock == QcnClock::Time && ++m_tick >= m_period;
    if (timed) m_tick = 0;
    // No data packet landed or was switched anywhere: no counter moved, nothing to do.
    const uint64_t total = m_state->data_packets_total();
    if (total == m_last_total && !timed) return;
    m_last_total = total;
    for (int i = 0; i < m_n; ++i) {
      const int port = m_first + i;
      const size_t k = static_cast<size_t>(i);
      const uint64_t out = m_state->data_packets_out(port);
      const uint32_t d_out = static_cast<uint32_t>(out - m_last_out[k]);
      m_last_out[k] = out;
      if (d_out) m_ports.on_packets(port, d_out);
      uint32_t d_cp = d_out;
      if (m_q.sampling == QcnSampling::Input) {
        const uint64_t in = m_state->data_packets_in(port);
        d_cp = static_cast<uint32_t>(in - m_last_in[k]);
        m_last_in[k] = in;
      }
      if (timed) sample(port, false);
      else if (m_q.clock == QcnClock::Packets && d_cp && m_cp[k].count(d_cp, m_q.cpc)) sample(port, true);
    }
    sync();
  }
  void on_control(const Packet& frame, uint32_t payload, int in_port, uint64_t now) override {
    (void)frame, (void)now;
    if (!m_ports.is_transit(in_port)) return;
    ++m_received;
    ++m_cnms_in;
    m_ports.on_cnm(in_port, payload & 0xff);
    sync();
  }
  void signals(std::vector<UnitSignal>& out) const override {
    for (int i = 0; i < m_n; ++i) {
      const int port = m_first + i;
      const std::string tag = std::to_string(port) + "_" + m_topo.port_class_name(m_topo.port_class_of(port));
      const QcnPortTable* t = &m_ports;
      out.push_back({"qcn_p" + tag, &m_pct[static_cast<size_t>(i)],
                     [t, port] { return static_cast<double>(t->p(port)) / kQcnOne; }});
      out.push_back({"qcn_lastfb" + tag, &m_ports.last_fb_data()[i], nullptr});
      out.push_back({"qcn_cp" + tag + "_count", m_cp[static_cast<size_t>(i)].count_ptr(), nullptr});
      out.push_back({"qcn_cp" + tag + "_q", m_cp[static_cast<size_t>(i)].last_q_ptr(), nullptr});
      out.push_back({"qcn_cp" + tag + "_fb", m_cp[static_cast<size_t>(i)].last_fb_ptr(), nullptr});
    }
    if (m_q.clock == QcnClock::Time) out.push_back({"qcn_sample_timer", &m_tick, nullptr});
    const QcnPortTable* t = &m_ports;
    out.push_back({"qcn_fb_avg", m_ports.fb_avg_ptr(), [t] { return static_cast<double>(t->fb_avg()); }});
    const uint32_t* sent = &m_cnms_out;
    const uint32_t* recv = &m_cnms_in;
    out.push_back({"qcn_cnms_sent", sent, [sent] { return static_cast<double>(*sent); }});
    out.push_back({"qcn_cnms_received", recv, [recv] { return static_cast<double>(*recv); }});
  }
  const QcnPortTable& ports() const { return m_ports; }
  // --rtl qcn: the port probabilities are the Verilated unit's.
  void use_rtl(const std::string& name) { m_ports.set_block(make_rtl_qcn_port_prob(m_q, m_n, name)); }
  // --rtl qcn_cp: the congestion points are the Verilated unit's (after attach(SwitchState),
  // which sets each port's Q_eq).
  void use_rtl_cp(const std::string& name) { m_cp_name = name; }

 private:
  std::string m_cp_name;                  // --rtl qcn_cp: the block's name
  std::unique_ptr<QcnCpBlock> m_cp_rtl;   // ... and the block, shared by the ports' points
  // `arrival`: the sample was triggered by a packet entering the queue (the culprit, for
  // output sampling); otherwise (time-paced) a packet of the queue is drawn.
  // qcn.cp_queue output (m_out_only): Q is the port's output data VCs only and the culprit
  // their first packet (FOGSim's IOQ point, `switch/ioqSwitchModule.cc:498` and `:512-516`).
  void sample(int port, bool arrival) {
    const size_t k = static_cast<size_t>(port - m_first);
    const uint32_t q = sat_queue(m_q.sampling == QcnSampling::Input ? m_state->data_phits_in(port)
                                 : m_out_only                      ? m_state->output_phits(port)
                                                                   : m_state->queued_for_output(port));
    const uint32_t fb = m_cp[k].sample(q, m_qeq[k], m_q.w);
    m_samples += q != 0;  // samples of an empty queue (also those a sleeping switch skips) are not counted
    if (fb == 0) return;
    ++m_congested;
    if (!m_cp[k].emits(m_rng, m_q.cnm_percent)) return;
    const Packet* victim = nullptr;
    if (m_out_only) {
      victim = m_state->first_output_packet(port);
    } else if (m_q.sampling == QcnSampling::Output && arrival) {
      victim = m_state->last_packet_out(port);  // the frame whose arrival was sampled
    } else {
      m_scratch.clear();
      if (m_q.sampling == QcnSampling::Output) m_state->output_queue_packets(port, m_scratch);
      else m_state->in_packets(port, m_scratch);
      if (!m_scratch.empty())
        victim = m_scratch[m_rng.below(static_cast<uint32_t>(m_scratch.size()))];
    }
    if (!victim) return;
    // Copies of what the CNM needs (the pool never moves a packet, flit.h, but the victim
    // is only this cycle's sample).
    const int victim_src = victim->src_node;
    RouteHeader h = victim->route;
    victim = nullptr;
    if (m_topo.switch_of_node(victim_src) == m_sw) {
      // The victim came from one of this switch's hosts: the CNM would come back here, so
      // the switch updates the port that generated it at once (sec. 3.3.1, S_out).
      ++m_local;
      int local_port = port;
      if (m_q.local_port == QcnLocalPort::Minimal && h.dst_switch != m_sw) {
        // FOGSim's local update: the culprit's minimal port here (`switch/ioqSwitchModule.cc:546-550`).
        RouteHeader hm = h;
        local_port = route_min(m_topo, m_sw, hm, m_rng, m_min_hop).port;
      }
      if (m_ports.is_transit(local_port)) m_ports.on_cnm(local_port, fb);
    } else {
      ++m_sent;
      ++m_cnms_out;
      m_port->originate(victim_src, fb | (static_cast<uint32_t>(port) << 8), m_cnm_phits);
    }
    if (m_q.source_processing) {
      // Sec. 3.3.1: the CP also processes its CNM as if received from a neighbour, on the
      // port it forwards the victim through (transit traffic goes minimally).
      if (m_topo.group_of(h.dst_switch) != m_topo.group_of(m_sw) && h.dst_switch != m_sw) {
        const int out_port = route_min(m_topo, m_sw, h, m_rng, m_min_hop).port;
        if (m_ports.is_transit(out_port)) m_ports.on_cnm(out_port, fb);
      }
    }
  }
  // Writes the integer percents into the forwarding table's register.
  void sync() {
    for (int i = 0; i < m_n; ++i) {
      const uint32_t pct = static_cast<uint32_t>(m_ports.percent(m_first + i));
      if (pct == m_pct[static_cast<size_t>(i)]) continue;
      m_pct[static_cast<size_t>(i)] = pct;
      if (m_table) m_table->set_probability(m_first + i, static_cast<int>(pct));
    }
  }

  int m_sw;
  const Dragonfly& m_topo;
  QcnParams m_q;
  bool m_out_only;  // qcn.cp_queue output (output sampling)
  uint16_t m_cnm_phits;
  int m_first, m_n;
  QcnPortTable m_ports;
  std::vector<QcnCongestionPoint> m_cp;
  std::vector<uint64_t> m_last_out, m_last_in;
  std::vector<uint32_t> m_qeq;
  std::vector<uint32_t> m_pct;  // integer percent per transit port, as in the table (traced)
  uint32_t m_period;            // time-paced sampling: cycles between samples ...
  uint32_t m_tick = 0;          // ... and the cycles since the last one (traced)
  uint64_t m_last_total = 0;    // SwitchState::data_packets_total() at the last cycle
  Rng m_rng;
  const MinHopBlock* m_min_hop;  // --rtl min_route: the minimal port as the switches route it
  const SwitchState* m_state = nullptr;
  ControlPort* m_port = nullptr;
  ForwardingTable* m_table = nullptr;
  std::vector<const Packet*> m_scratch;
  uint32_t m_cnms_out = 0, m_cnms_in = 0;  // this switch's CNMs sent / received (traced)
  uint64_t &m_sent, &m_local, &m_received, &m_samples, &m_congested;  // network totals
};

// MIN-COND's pause trigger (the conditional routing of [7], min_cond.h): the probability of
// a transit port is 0 while its first output VC (the minimal hop's VC at injection) may start
// no packet (PFC pause, or too few credits), else 100. Written into the forwarding table in
// the route stage of every cycle that routes a data head, before the first, so the decision
// reads the state of that very cycle (as FOGSim reads credits).
class PauseTrigger final : public SwitchUnit {
 public:
  PauseTrigger(int first, int radix, uint32_t packet_phits)
      : m_first(first), m_radix(radix), m_phits(packet_phits), m_pct(static_cast<size_t>(radix - first), 100) {}
  void attach(const SwitchState& st) override { m_state = &st; }
  void attach(ForwardingTable& table) override { m_table = &table; }
  void end_cycle(const SwitchCycle& c) override { (void)c; }
  void route_stage(uint64_t now) override {
    (void)now;
    for (int port = m_first; port < m_radix; ++port) {
      const uint32_t pct = m_state->out_stopped(port, 0, m_phits) ? 0 : 100;
      uint32_t& cur = m_pct[static_cast<size_t>(port - m_first)];
      if (pct == cur) continue;
      cur = pct;
      m_table->set_probability(port, static_cast<int>(pct));
    }
  }
  void signals(std::vector<UnitSignal>& out) const override {
    for (int port = m_first; port < m_radix; ++port) out.push_back({"cond_p" + std::to_string(port), &m_pct[static_cast<size_t>(port - m_first)], nullptr});
  }

 private:
  int m_first, m_radix;
  uint32_t m_phits;
  std::vector<uint32_t> m_pct;  // the register as last written (traced)
  const SwitchState* m_state = nullptr;
  ForwardingTable* m_table = nullptr;
};

}  // namespace

std::vector<std::unique_ptr<SwitchUnit>> make_mechanism_units(int sw, const RoutingUnit& routing,
                                                              const SwitchParams& prm, SimContext& ctx,
                                                              uint64_t seed, const std::string& sw_name) {
  // Order matters only for the VCD's variable order: load publisher, PB flags, ACOR level.
  std::vector<std::unique_ptr<SwitchUnit>> units;
  const Topology& topo = routing.topology();
  if (ctx.net_load) units.push_back(std::make_unique<LoadPublisher>(sw, topo.host_ports(), topo.radix(), *ctx.net_load));
  if (ctx.sat_flags)
    units.push_back(std::make_unique<PbUnit>(sw, *routing.dragonfly(), routing.params().pb, *ctx.sat_flags, prm.rtl_pb,
                                              sw_name + ".pb_rtl.u_pb_sat_detector"));
  if (routing.needs_level_ctrl())
    units.push_back(std::make_unique<AcorUnit>(
        prm.rtl_acor ? make_rtl_level_ctrl(routing.params().acor.ctrl, sw_name + ".acor_rtl.u_acor_level_ctrl")
                     : std::make_unique<AcorLevelCtrl>(routing.params().acor.ctrl)));
  if (prm.probe_interval > 0)
    units.push_back(std::make_unique<ControlProbe>(sw, prm.probe_interval, prm.probe_phits, topo.num_nodes(), seed));
  if (routing.uses_qcn()) {
    const QcnParams& q = routing.params().qcn;
    const uint16_t cnm = q.cnm_phits ? q.cnm_phits : prm.packet_phits;
    auto unit = std::make_unique<QcnUnit>(sw, *routing.dragonfly(), q, cnm, prm.packet_phits, seed, ctx,
                                            prm.rtl_min_route);
    if (prm.rtl_qcn) unit->use_rtl(sw_name + ".qcn_rtl");
    if (prm.rtl_qcn_cp) unit->use_rtl_cp(sw_name + ".qcn_cp_rtl");
    units.push_back(std::move(unit));
  }
  if (routing.algo() == RoutingAlgo::MinCond && routing.params().trigger == MinCondTrigger::Pause)
    units.push_back(std::make_unique<PauseTrigger>(topo.host_ports(), topo.radix(), prm.packet_phits));
  if (std::unique_ptr<SwitchUnit> u = routing.make_plugin_unit(sw)) units.push_back(std::move(u));
  return units;
}

}  // namespace scfly
