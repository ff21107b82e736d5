// Valiant routing (VAL) on a Dragonfly, to a random intermediate switch in any group.
//
// Paper: Valiant & Brebner (1981), for Dragonflies Kim et al. (ISCA'08); the ACOR paper
// (../shared/papers/000_82a785b33d304404.txt, sec. 2.2 and Table 1, policy RRG-Sw) gives
// the full path L-G-L - L-G-L: Phase A minimally to the intermediate switch, Phase B
// minimally to the destination.
// Decision rule: oblivious. At the source switch (the head arrives on a host port) draw the
// intermediate switch uniformly among all a*g switches (the source's own switch and group
// included, as in the paper's footnote: then Phase A is shortened). On reaching it the
// packet enters segment 1. The packet is counted non-minimal.
// Congestion signal read: none.
// VC use per hop (hop-slot rule, see minimal.h): Phase A local VC 0, global VC 0, local VC 1;
// Phase B local VC 2, global VC 1, local VC 3: 4 local / 2 global VCs, indices strictly
// increasing over local hops and non-decreasing overall.
#pragma once

#include "routing_units/route_types.h"
#include "tb/rng.h"
#include "topologies/dragonfly.h"

namespace scfly {

RouteDecision route_val(const Dragonfly& topo, int sw, int in_port, RouteHeader& h, Rng& rng);

}  // namespace scfly
