// busy-val: a Dragonfly routing mechanism with state of its own in every switch, written as
// an scfly plug-in (a mechanism unit beside the decision function). Nothing in scfly is
// edited: this file and its registration are the whole mechanism.
//
// Decision rule: at the source switch (the head arrives on a host port), take a Valiant
// path through a uniformly drawn intermediate switch (RRG-Sw) while the switch is busy
// (level 1), else route minimally; later hops follow the path chosen at the source.
// Congestion signal read: the switch's level, kept by its mechanism unit (BusyUnit below):
// the data packets its hosts injected in the last window of `busy_val.window` cycles; the
// level rises when they exceed `busy_val.packets` and falls back when they are at most half
// of it (a hysteresis, like ACOR-Switch's level controller: Benito, Fuentes, Vallejo,
// Beivide, "ACOR: Adaptive Congestion-Oblivious Routing in Dragonfly networks", Journal of
// Parallel and Distributed Computing, 2019, sec. 4.2). The decision function itself keeps
// no state (the deadlock checker calls it with every level).
// VC use per hop: the hop-slot rule of MIN and VAL (scfly's minimal.h and valiant.h):
// minimal local 0, global 0, local 1; Valiant Phase A local 0, global 0, local 1, Phase B
// local 2, global 1, local 3: 4 local / 2 global VCs, which `scfly check-deadlock` verifies
// under both levels the unit declares.
#include <scfly/routing_units/minimal.h>
#include <scfly/routing_units/registry.h>
#include <scfly/routing_units/valiant.h>
#include <scfly/rtl_models/switch/switch_unit.h>
#include <scfly/topologies/dragonfly.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <vector>

namespace {

// The switch's level: 0 (quiet) or 1 (busy), from its hosts' injections per window.
class BusyUnit : public scfly::SwitchUnit {
 public:
  BusyUnit(int hosts, uint64_t packets, uint64_t window) : m_hosts(hosts), m_packets(packets), m_window(window) {}

  void attach(const scfly::SwitchState& s) override { m_state = &s; }
  // The switch's stages of cycle c.now are done. A window ends at its first active cycle
  // past its length (a sleeping switch injected nothing meanwhile).
  void end_cycle(const scfly::SwitchCycle& c) override {
    if (c.now < m_window_end) return;
    uint64_t injected = 0;
    for (int p = 0; p < m_hosts; ++p) injected += m_state->data_packets_in(p);
    const uint64_t n = injected - m_last;
    if (n > m_packets) m_level = 1;
    else if (2 * n <= m_packets) m_level = 0;
    m_last = injected;
    m_window_end = c.now + m_window;
  }
  // What the decision function sees of this unit.
  void observe(scfly::RouteContext& ctx) const override { ctx.switch_level = static_cast<uint8_t>(m_level); }
  // Traced in the VCD (`--vcd`) and sampled per switch (`timeseries.per_switch`).
  void signals(std::vector<scfly::UnitSignal>& out) const override {
    out.push_back({"busy_level", &m_level, [this] { return static_cast<double>(m_level); }});
  }

 private:
  const scfly::SwitchState* m_state = nullptr;
  int m_hosts;
  uint64_t m_packets, m_window, m_last = 0, m_window_end = 0;
  uint32_t m_level = 0;
};

class BusyVal : public scfly::RoutingPolicy {
 public:
  explicit BusyVal(const scfly::Dragonfly& topo) : m_topo(topo) {}

  scfly::RouteCandidates route(int sw, int in_port, scfly::RouteHeader& h, scfly::Rng& rng,
                               const scfly::RouteContext& ctx) const override {
    const bool source = m_topo.port_class(in_port) == scfly::PortClass::Host;
    // At the source: the unit's level; in transit: the path chosen at the source (a
    // Valiant header has an intermediate or is in its segment 1).
    const bool valiant = source ? ctx.switch_level == 1 && sw != h.dst_switch : h.inter_switch >= 0 || h.segment == 1;
    if (valiant)
      return scfly::RouteCandidates::one(
          scfly::route_val(m_topo, sw, in_port, h, rng, ctx.min_hop, scfly::Misroute::RrgSw, false));
    return scfly::RouteCandidates::one(scfly::route_min(m_topo, sw, h, rng, ctx.min_hop));
  }

 private:
  const scfly::Dragonfly& m_topo;
};

scfly::RoutingMechanism descriptor() {
  scfly::RoutingMechanism m;
  m.name = "busy-val";
  m.doc = "example plug-in with a mechanism unit: Valiant while the source switch is busy, else minimal";
  m.dragonfly = true;
  m.vcs = {4, 2};
  m.keys.push_back({"packets", 3, 0, 1 << 20, true, "packets injected per window above which a switch is busy"});
  m.keys.push_back({"window", 50, 1, 1 << 20, true, "the busy unit's window, cycles"});
  m.make = [](const scfly::Topology& topo, const scfly::RoutingKeyValues&) -> std::unique_ptr<const scfly::RoutingPolicy> {
    const auto* dfly = dynamic_cast<const scfly::Dragonfly*>(&topo);
    if (!dfly) throw std::invalid_argument("busy-val routes on a Dragonfly only");
    return std::make_unique<BusyVal>(*dfly);
  };
  // Its unit, built in every switch; it publishes levels 0 and 1.
  m.make_unit = [](int, const scfly::Topology& topo, const scfly::RoutingKeyValues& k) -> std::unique_ptr<scfly::SwitchUnit> {
    return std::make_unique<BusyUnit>(topo.host_ports(), static_cast<uint64_t>(std::lround(k.at("packets"))),
                                      static_cast<uint64_t>(std::lround(k.at("window"))));
  };
  m.unit_levels = 2;
  return m;
}

}  // namespace

SCFLY_REGISTER_ROUTING(kBusyVal, descriptor());
