#include "routing_units/valiant.h"

#include "routing_units/minimal.h"

namespace scfly {

RouteDecision route_val(const Dragonfly& topo, int sw, int in_port, RouteHeader& h, Rng& rng) {
  if (h.segment == 0 && h.inter_switch < 0 && topo.port_class(in_port) == PortClass::Host) {
    h.inter_switch = static_cast<int32_t>(rng.below(static_cast<uint32_t>(topo.num_switches())));
    h.nonminimal = true;
  }
  if (h.segment == 0 && sw == h.inter_switch) {
    h.segment = 1;
    h.global_done = 0;
    h.exit_switch = -1;
    h.exit_port = -1;
  }
  if (h.segment == 0) return dragonfly_minimal_hop(topo, sw, h.inter_switch, h, rng);
  if (sw == h.dst_switch) return RouteDecision{h.dst_host, 0};
  return dragonfly_minimal_hop(topo, sw, h.dst_switch, h, rng);
}

}  // namespace scfly
