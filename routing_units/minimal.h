// Minimal routing (MIN) on a Dragonfly.
//
// Paper: Kim, Dally, Scott, Abts, "Technology-driven, highly-scalable Dragonfly topology"
// (ISCA'08), as used in the ACOR paper (Benito, Fuentes, Vallejo, Beivide, "ACOR: Adaptive
// Congestion-Oblivious Routing in Dragonfly networks", Journal of Parallel and Distributed
// Computing, 2019, sec. 2.1).
// Decision rule: oblivious. Inside the destination group, one local hop to the destination
// switch. Otherwise hop to the switch owning the global link toward the destination group
// (local hop, unless this switch owns it), take it, then one local hop: at most L-G-L.
// When several global links join the group pair (dfly(p,a,h,g) with g < a*h+1), the segment's
// link is chosen once, at the first switch of the segment, uniformly among the links that
// give the fewest hops to the target switch (a link owned by this switch or landing on the
// target switch is preferred); the choice is kept in the header (exit_switch/exit_port).
// A header with random_exit set (UGAL's `ugal.segment_link: random`, the T-UGAL paper's
// baseline) draws uniformly among all links of the group pair instead: still at most L-G-L.
// Congestion signal read: none.
// VC use per hop (the hop-slot rule shared by every Dragonfly unit here): a path is cut in
// segments (MIN: one; Valiant: two). In segment s a local hop uses local VC 2s before the
// segment's global hop and 2s+1 after it; the global hop uses global VC s. MIN therefore
// uses local VC 0, global VC 0, local VC 1 (2 local / 1 global VCs) and the VC index never
// decreases along the path (local VCs strictly increase across a global hop), which breaks
// every cyclic channel dependency (Dally & Seitz; Kim et al.).
#pragma once

#include "routing_units/route_types.h"
#include "topologies/common/rng.h"
#include "topologies/dragonfly.h"

namespace scfly {

// One minimal hop from switch `sw` toward switch `target` (sw != target), with the VC the
// hop-slot rule gives. Updates h.exit_* and h.global_done. Draws one word from `rng`
// (Rng::next32) exactly when minimal_hop_draws() and hands it to the co-simulated RTL unit
// `min_hop` if there is one (RouteContext::min_hop, --rtl min_route), else to
// dragonfly_minimal_hop_word().
RouteDecision dragonfly_minimal_hop(const Dragonfly& topo, int sw, int target, RouteHeader& h,
                                    Rng& rng, const MinHopBlock* min_hop);

// Whether that hop picks an exit link at random: the target is in another group, no exit
// is pinned in the header yet, and several global links join the two groups.
bool minimal_hop_draws(const Dragonfly& topo, int sw, int target, const RouteHeader& h);

// The C++ unit itself, with the tie-break word given: the nth of the `count` equally short
// exit links is taken, nth = Rng::scale(tie_word, count) (= Rng::below on the drawn word).
// The reference the RTL route unit is checked against.
RouteDecision dragonfly_minimal_hop_word(const Dragonfly& topo, int sw, int target, RouteHeader& h,
                                         uint32_t tie_word);

// How many exit links tie for the fewest hops from `sw` to `target` in another group (the
// choices dragonfly_minimal_hop draws among; 1 when nothing is drawn). The nth of them is
// taken with a tie word w when Rng::scale(w, count) = n.
int minimal_exit_options(const Dragonfly& topo, int sw, int target);

// The MIN routing unit: eject at the destination switch, else a minimal hop (through
// `min_hop` as dragonfly_minimal_hop; a mechanism passes its RouteContext::min_hop).
RouteDecision route_min(const Dragonfly& topo, int sw, RouteHeader& h, Rng& rng, const MinHopBlock* min_hop);

// Hop counts of the minimal path from switch `from` to switch `to` (0..3 switch-to-switch
// hops on the shortest route), used by tests and path-length statistics.
int minimal_distance(const Dragonfly& topo, int from, int to);

// Hops from `from` to `to` through the global link `k` of links_between(group of from, group
// of to) (from and to in different groups): 1 to 3.
int hops_via_link(const Dragonfly& topo, int from, int to, int k);

// Hops of the path a minimal hop committed to: `first` was just decided at `from` toward `to`
// and `h` is the header after it (its pinned exit, if the first hop is local toward it).
int committed_hops(const Dragonfly& topo, int from, int to, const RouteHeader& h, const RouteDecision& first);

}  // namespace scfly
