// threshold-val: a Dragonfly routing mechanism written as an scfly plug-in. Nothing in scfly
// is edited: this file and its registration are the whole mechanism.
//
// Decision rule: at the source switch (the head arrives on a host port), route minimally
// unless the minimal output port's queue holds more than `threshold_val.phits` phits; then
// take a Valiant path through a uniformly drawn intermediate switch (RRG-Sw). Later hops
// follow the path chosen at the source. (A one-sided, hop-count-free cousin of UGAL-L:
// Kim, Dally, Towles, Gupta, "Technology-Driven, Highly-Scalable Dragonfly Topology",
// ISCA 2008, sec. 4.)
// Congestion signal read: the source switch's output-queue occupancy of the minimal port
// (RouteContext::view->local, what ugal.occupancy selects).
// VC use per hop: the hop-slot rule of MIN and VAL (scfly's minimal.h and valiant.h):
// minimal local 0, global 0, local 1; Valiant Phase A local 0, global 0, local 1, Phase B
// local 2, global 1, local 3. VC indices never decrease along a path: 4 local / 2 global
// VCs, which `scfly check-deadlock` verifies from this very function.
// RTL variant: `--rtl threshold-val` decides through threshold_val.sv (Verilated, one model
// per switch: threshold_val_rtl.cpp); lockstep.cpp shows the two rules equal.
#include <scfly/routing_units/minimal.h>
#include <scfly/routing_units/registry.h>
#include <scfly/routing_units/ugal.h>
#include <scfly/routing_units/valiant.h>
#include <scfly/topologies/dragonfly.h>

#include <cmath>
#include <memory>
#include <stdexcept>

#include "threshold_val.h"

namespace {

class ThresholdVal : public scfly::RoutingPolicy {
 public:
  // `rtl`: decide through the Verilated rule; null: the C++ one (threshold_val.h).
  ThresholdVal(const scfly::Dragonfly& topo, uint32_t threshold, std::unique_ptr<threshold_val::RtlDecider> rtl)
      : m_topo(topo), m_threshold(threshold), m_rtl(std::move(rtl)) {}

  scfly::RouteCandidates route(int sw, int in_port, scfly::RouteHeader& h, scfly::Rng& rng,
                               const scfly::RouteContext& ctx) const override {
    using scfly::RouteCandidates;
    if (m_topo.port_class(in_port) == scfly::PortClass::Host) {
      scfly::RouteHeader minimal = h;
      const scfly::RouteDecision d = scfly::route_min(m_topo, sw, minimal, rng, ctx.min_hop);
      const bool ejects = sw == h.dst_switch;
      const uint32_t queued = ctx.view ? ctx.view->local.at(d.port) : 0;
      if (!decide(sw, true, ejects, queued, false)) {
        h = minimal;
        return RouteCandidates::one(d);
      }
      return RouteCandidates::one(
          scfly::route_val(m_topo, sw, in_port, h, rng, ctx.min_hop, scfly::Misroute::RrgSw, false));
    }
    // In transit: the path the source chose (a Valiant header has an intermediate or is
    // in its segment 1; a minimal one neither).
    if (decide(sw, false, false, 0, h.inter_switch >= 0 || h.segment == 1))
      return RouteCandidates::one(
          scfly::route_val(m_topo, sw, in_port, h, rng, ctx.min_hop, scfly::Misroute::RrgSw, false));
    return RouteCandidates::one(scfly::route_min(m_topo, sw, h, rng, ctx.min_hop));
  }

 private:
  bool decide(int sw, bool at_source, bool ejects, uint32_t queued, bool on_valiant) const {
    return m_rtl ? (*m_rtl)(sw, at_source, ejects, queued, m_threshold, on_valiant)
                 : threshold_val::goes_valiant(at_source, ejects, queued, m_threshold, on_valiant);
  }

  const scfly::Dragonfly& m_topo;
  uint32_t m_threshold;
  std::unique_ptr<threshold_val::RtlDecider> m_rtl;
};

// The factory of the C++ policy (rtl false) or of its RTL variant (rtl true).
scfly::RoutingFactory factory(bool rtl) {
  return [rtl](const scfly::Topology& topo,
               const scfly::RoutingKeyValues& keys) -> std::unique_ptr<const scfly::RoutingPolicy> {
    const auto* dfly = dynamic_cast<const scfly::Dragonfly*>(&topo);
    if (!dfly) throw std::invalid_argument("threshold-val routes on a Dragonfly only");
    return std::make_unique<ThresholdVal>(
        *dfly, static_cast<uint32_t>(std::lround(keys.at("phits"))),
        rtl ? std::make_unique<threshold_val::RtlDecider>(dfly->num_switches()) : nullptr);
  };
}

scfly::RoutingMechanism descriptor() {
  scfly::RoutingMechanism m;
  m.name = "threshold-val";
  m.doc = "example plug-in: minimal unless the minimal port's queue exceeds a threshold, then Valiant";
  m.dragonfly = true;
  m.vcs = {4, 2};
  m.adaptive = true;  // the switch passes its congestion view (RouteContext::view)
  m.keys.push_back({"phits", 64, 0, 1 << 20, true, "queue occupancy (phits) of the minimal port above which "
                                                     "a packet goes Valiant"});
  m.make = factory(false);
  m.make_rtl = factory(true);  // `--rtl threshold-val`
  return m;
}

}  // namespace

SCFLY_REGISTER_ROUTING(kThresholdVal, descriptor());
