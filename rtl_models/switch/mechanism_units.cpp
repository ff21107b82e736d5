#include "rtl_models/switch/mechanism_units.h"

#include "rtl_models/switch/switch.h"
#include "rtl_models/verilog/rtl_blocks.h"

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
  PbUnit(int sw, const Dragonfly& topo, const PbParams& pb, SatFlagTable& table, bool rtl, const char* name)
      : m_sw(sw), m_g0(topo.first_global_port()), m_h(topo.h()), m_pb(pb), m_table(table),
        m_flags(static_cast<size_t>(m_h), 0), m_q(static_cast<size_t>(m_h), 0) {
    if (rtl) {
      // The Verilated detector settles after the switch's cycle and hands back its flags,
      // stamped with that cycle, as the C++ rule below does.
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
      m_rtl->drive(m_q.data());  // flags come back through the callback, same cycle
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

}  // namespace

std::vector<std::unique_ptr<SwitchUnit>> make_mechanism_units(int sw, const RoutingUnit& routing,
                                                              const SwitchParams& prm, SimContext& ctx,
                                                              uint64_t seed) {
  // Order matters only for the VCD's variable order: load publisher, PB flags, ACOR level.
  std::vector<std::unique_ptr<SwitchUnit>> units;
  const Dragonfly& topo = routing.topology();
  if (ctx.net_load) units.push_back(std::make_unique<LoadPublisher>(sw, topo.p(), topo.radix(), *ctx.net_load));
  if (ctx.sat_flags)
    units.push_back(std::make_unique<PbUnit>(sw, topo, routing.params().pb, *ctx.sat_flags, prm.rtl_pb, "pb_rtl"));
  if (routing.needs_level_ctrl())
    units.push_back(std::make_unique<AcorUnit>(
        prm.rtl_acor ? make_rtl_level_ctrl(routing.params().acor.ctrl, *ctx.rtl_clk)
                     : std::make_unique<AcorLevelCtrl>(routing.params().acor.ctrl)));
  if (prm.probe_interval > 0)
    units.push_back(std::make_unique<ControlProbe>(sw, prm.probe_interval, prm.probe_phits, topo.num_nodes(), seed));
  return units;
}

}  // namespace scfly
