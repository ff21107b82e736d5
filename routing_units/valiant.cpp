#include "routing_units/valiant.h"

#include "routing_units/minimal.h"

namespace scfly {

RouteDecision route_val(const Dragonfly& topo, int sw, int in_port, RouteHeader& h, Rng& rng,
                        const MinHopBlock* min_hop, Misroute policy, bool restricted) {
  if (h.segment == 0 && h.inter_switch < 0 && topo.port_class(in_port) == PortClass::Host) {
    const Intermediate im = draw_intermediate(topo, sw, h.dst_switch, policy, restricted, rng);
    h.policy = static_cast<uint8_t>(im.policy);
    if (im.sw < 0) {
      h.segment = 1;  // no Phase A: the whole path is the minimal segment 1
      h.nonminimal = false;
    } else {
      h.inter_switch = im.sw;
      h.vlb_from = static_cast<uint8_t>(topo.index_of(sw));
      h.nonminimal = true;
      h.exit_switch = im.exit_switch;
      h.exit_port = im.exit_port;
    }
  }
  if (h.segment == 0 && sw == h.inter_switch) {
    h.segment = 1;
    h.global_done = 0;
    h.exit_switch = -1;
    h.exit_port = -1;
  }
  if (h.segment == 0) return dragonfly_minimal_hop(topo, sw, h.inter_switch, h, rng, min_hop);
  if (sw == h.dst_switch) return RouteDecision{h.dst_host, 0};
  return dragonfly_minimal_hop(topo, sw, h.dst_switch, h, rng, min_hop);
}

}  // namespace scfly
