// Valiant routing (VAL) on a Dragonfly, with the ACOR paper's misrouting policies,
// Restricted Valiant and Valiant with recomputation.
//
// Paper: Valiant & Brebner (1981), for Dragonflies Kim et al. (ISCA'08); the ACOR paper
// (Benito, Fuentes, Vallejo, Beivide, "ACOR: Adaptive Congestion-Oblivious Routing in
// Dragonfly networks", Journal of Parallel and Distributed Computing, 2019) sec. 2.1-2.3
// (policies, Table 1), 3.1 (restricted) and 3.2 (recomputation).
// Decision rule: at the source switch (the head arrives on a host port) draw the
// intermediate switch under the Phase-A misrouting policy (misrouting.h; default rrg-sw =
// uniform over all a*g switches, the original Valiant); Phase A goes minimally to it (through
// the pinned global link for the restricted policies), then the packet enters segment 1 and
// Phase B goes minimally to the destination. With `restricted`, intra-group traffic picks
// an intermediate inside its group (path L-L). A packet with no intermediate (restricted
// traffic inside one switch, or a = 2) goes minimally and is not counted non-minimal.
// Recomputation is the switch's part: while the head at the injection buffer is blocked
// (not granted the crossbar in a cycle), it is routed again next cycle with the header
// restored, which draws a new intermediate from the same allowed set; once the head has
// left the injection buffer the intermediate never changes.
// Congestion signal read: none (recomputation reacts to output availability only: the
// unit is adaptive but congestion-oblivious).
// VC use per hop (hop-slot rule, see minimal.h): Phase A local VC 0, global VC 0, local VC 1;
// Phase B local VC 2, global VC 1, local VC 3: 4 local / 2 global VCs for every policy
// (a restricted L-L path uses local VCs 0 then 2), indices non-decreasing along the path.
#pragma once

#include "routing_units/misrouting.h"
#include "routing_units/route_types.h"
#include "topologies/common/rng.h"
#include "topologies/dragonfly.h"

namespace scfly {

// `min_hop`: the minimal hops of both phases go through it (dragonfly_minimal_hop, minimal.h;
// a mechanism passes its RouteContext::min_hop).
RouteDecision route_val(const Dragonfly& topo, int sw, int in_port, RouteHeader& h, Rng& rng,
                        const MinHopBlock* min_hop, Misroute policy = Misroute::RrgSw, bool restricted = false);

}  // namespace scfly
