#include "routing_units/minimal.h"

#include <algorithm>

namespace scfly {

namespace {

// Hops (switch-to-switch) from `sw` to `target` when leaving the group through `link`.
int hops_via(const Dragonfly& topo, int sw, int target, const GlobalLinkEnd& link) {
  const int landing = topo.global_peer(link.sw, link.port).sw;
  return (link.sw != sw) + 1 + (landing != target);
}

// Among the links from sw's group toward target's group: the fewest hops (`best`) and how
// many links give them.
int exit_ties(const Dragonfly& topo, int sw, int target, int& best) {
  const GlobalLinkEnd* links = topo.links_between(topo.group_of(sw), topo.group_of(target));
  int count = 0;
  best = 4;
  for (int k = 0; k < topo.links_per_group_pair(); ++k) {
    const int d = hops_via(topo, sw, target, links[k]);
    if (d < best) {
      best = d;
      count = 1;
    } else if (d == best) {
      ++count;
    }
  }
  return count;
}

// Pins the segment's exit link: among the links toward the target's group, those giving
// the fewest hops; the nth of them in links_between order, nth = Rng::scale(tie_word, count).
// With h.random_exit, any of the n links: the nth, nth = Rng::scale(tie_word, n).
void choose_exit(const Dragonfly& topo, int sw, int target, RouteHeader& h, uint32_t tie_word) {
  const int n = topo.links_per_group_pair();
  const GlobalLinkEnd* links = topo.links_between(topo.group_of(sw), topo.group_of(target));
  int pick = 0;
  if (n > 1 && h.random_exit) {
    pick = static_cast<int>(Rng::scale(tie_word, static_cast<uint32_t>(n)));
  } else if (n > 1) {
    int best = 4;
    const int count = exit_ties(topo, sw, target, best);
    int nth = static_cast<int>(Rng::scale(tie_word, static_cast<uint32_t>(count)));
    for (int k = 0; k < n; ++k) {
      if (hops_via(topo, sw, target, links[k]) == best && nth-- == 0) {
        pick = k;
        break;
      }
    }
  }
  h.exit_switch = links[pick].sw;
  h.exit_port = links[pick].port;
}

}  // namespace

bool minimal_hop_draws(const Dragonfly& topo, int sw, int target, const RouteHeader& h) {
  return topo.links_per_group_pair() > 1 && h.exit_switch < 0 && topo.group_of(sw) != topo.group_of(target);
}

RouteDecision dragonfly_minimal_hop(const Dragonfly& topo, int sw, int target, RouteHeader& h,
                                    Rng& rng, const MinHopBlock* min_hop) {
  const uint32_t tie_word = minimal_hop_draws(topo, sw, target, h) ? rng.next32() : 0;
  if (min_hop) return min_hop->hop(sw, target, h, tie_word);
  return dragonfly_minimal_hop_word(topo, sw, target, h, tie_word);
}

RouteDecision dragonfly_minimal_hop_word(const Dragonfly& topo, int sw, int target, RouteHeader& h,
                                         uint32_t tie_word) {
  RouteDecision d;
  const int G = topo.group_of(sw);
  if (G == topo.group_of(target)) {
    d.port = static_cast<int16_t>(topo.local_port(topo.index_of(sw), topo.index_of(target)));
    d.vc = static_cast<uint8_t>(2 * h.segment + h.global_done + h.vc_shift);
    return d;
  }
  if (h.exit_switch < 0) choose_exit(topo, sw, target, h, tie_word);
  if (h.exit_switch == sw) {
    d.port = h.exit_port;
    d.vc = h.segment;
    h.global_done = 1;
    h.exit_switch = -1;
    h.exit_port = -1;
  } else {
    d.port = static_cast<int16_t>(topo.local_port(topo.index_of(sw), topo.index_of(h.exit_switch)));
    d.vc = static_cast<uint8_t>(2 * h.segment + h.global_done + h.vc_shift);
  }
  return d;
}

RouteDecision route_min(const Dragonfly& topo, int sw, RouteHeader& h, Rng& rng, const MinHopBlock* min_hop) {
  if (sw == h.dst_switch) return RouteDecision{h.dst_host, 0};
  return dragonfly_minimal_hop(topo, sw, h.dst_switch, h, rng, min_hop);
}

int minimal_exit_options(const Dragonfly& topo, int sw, int target) {
  if (topo.group_of(sw) == topo.group_of(target) || topo.links_per_group_pair() == 1) return 1;
  int best = 4;
  return exit_ties(topo, sw, target, best);
}

int hops_via_link(const Dragonfly& topo, int from, int to, int k) {
  return hops_via(topo, from, to, topo.links_between(topo.group_of(from), topo.group_of(to))[k]);
}

int committed_hops(const Dragonfly& topo, int from, int to, const RouteHeader& h, const RouteDecision& first) {
  if (from == to) return 0;
  if (topo.group_of(from) == topo.group_of(to)) return 1;
  if (topo.port_class(first.port) == PortClass::Global) return 1 + (topo.global_peer(from, first.port).sw != to);
  return 2 + (topo.global_peer(h.exit_switch, h.exit_port).sw != to);
}

int minimal_distance(const Dragonfly& topo, int from, int to) {
  if (from == to) return 0;
  const int G = topo.group_of(from), Gt = topo.group_of(to);
  if (G == Gt) return 1;
  const GlobalLinkEnd* links = topo.links_between(G, Gt);
  int best = 4;
  for (int k = 0; k < topo.links_per_group_pair(); ++k)
    best = std::min(best, hops_via(topo, from, to, links[k]));
  return best;
}

}  // namespace scfly
