// Misrouting policies for Phase A of Valiant routing on a Dragonfly: the candidate
// generator of every Valiant-based unit (VAL, ACOR, and later PB/UGAL non-minimal paths).
//
// Paper: Benito, Fuentes, Vallejo, Beivide, "ACOR: Adaptive Congestion-Oblivious Routing in
// Dragonfly networks" (Journal of Parallel and Distributed Computing, 2019), sec. 2.3, 3.1,
// 4.1 and Table 1. A policy is a restriction on the allowed intermediate switch (sec. 4.1):
//
//   policy   intermediate switch allowed (source switch s, source group G)  Phase A  longest
//   rrg-sw   any switch of any group (G included: then Phase A has no G)    <= 3     LGL-LGL
//   rrg-gr   the landing switch of any of the a*h global links of G         <= 2     LG-LGL
//   crg-sw   any switch of a group reached by one of s's h global links     <= 2     GL-LGL
//   crg-gr   the landing switch of one of s's h global links                   1     G-LGL
//
// Draws (uniform at each step; one RNG draw per step, in this order):
//   rrg-sw   one of the a*g switches (the original Valiant draw);
//   rrg-gr   one of the a*h links of G, its landing switch;
//   crg-sw   one of s's h global ports, then one of the a switches of the group it reaches;
//   crg-gr   one of s's h global ports, its landing switch.
// For the three restricted policies the drawn global link is pinned in the header
// (exit_switch/exit_port), so Phase A leaves through exactly that link even when several
// links join the group pair (absolute arrangement); with rrg-sw the minimal route picks it.
// The paper's footnote (the source group may be the intermediate group) is kept for rrg-sw,
// where it is what makes the draw the original uniform Valiant; the restricted policies
// exist to shorten Phase A, and a source-group intermediate would send their traffic on
// the minimal path, so they never pick G.
//
// Restricted Valiant (sec. 3.1, `restricted`): when source and destination switches are in
// the same group, the intermediate is one of the other a-2 switches of that group (never
// the source or destination switch: Phase A is one local hop, the path L-L). With a = 2
// there is none and the packet goes minimally. Traffic between hosts of one switch is
// never misrouted when restricted.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "routing_units/route_types.h"
#include "topologies/common/rng.h"
#include "topologies/dragonfly.h"

namespace scfly {

// The policy a packet's Phase A followed, recorded in its header (and in the statistics).
enum class Misroute : uint8_t { None = 0, Local = 1, CrgGr = 2, CrgSw = 3, RrgGr = 4, RrgSw = 5 };
constexpr int kMisrouteKinds = 6;

// The four configurable policies are the Misroute values CrgGr..RrgSw.
const char* to_string(Misroute m);  // "min", "local", "crg-gr", "crg-sw", "rrg-gr", "rrg-sw"
bool parse_policy(const std::string& s, Misroute& out);  // only the four policies
const char* policy_choices();
// Longest Phase A (switch-to-switch hops) a policy allows, Table 1 (local: 1).
int max_phase_a_hops(Misroute m);

struct Intermediate {
  int32_t sw = -1;       // -1: no intermediate (route minimally)
  Misroute policy = Misroute::None;
  int32_t exit_switch = -1;  // pinned global link of Phase A, -1 = free
  int16_t exit_port = -1;
};

// Another switch of the group of src and dst (same group), neither of them: one of the a-2
// others, drawn with one rng.below(a-2); -1 (no draw) when src == dst or a <= 2.
int draw_other_in_group(const Dragonfly& topo, int src, int dst, Rng& rng);

// Draws the intermediate switch for a packet from switch `src` to switch `dst`.
Intermediate draw_intermediate(const Dragonfly& topo, int src, int dst, Misroute policy,
                               bool restricted, Rng& rng);

// Every switch draw_intermediate can return for (src, dst, policy, restricted), sorted and
// without duplicates (the exact set of the table above); empty = always minimal.
std::vector<int> intermediate_set(const Dragonfly& topo, int src, int dst, Misroute policy,
                                  bool restricted);

}  // namespace scfly
