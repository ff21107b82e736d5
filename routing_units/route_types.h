// Value types shared by routing units and the switch: the routing header a packet carries
// and the decision a routing unit returns. Plain data, no SystemC.
#pragma once

#include <cstdint>

namespace scfly {

// Header fields a routing unit reads and updates. A path is cut into segments: MIN has one
// (source -> destination), Valiant two (source -> intermediate switch -> destination).
struct RouteHeader {
  int32_t dst_switch = -1;
  int16_t dst_host = -1;
  // ugal.segment_link random: the Valiant path's second-segment global link, drawn at the
  // source (index into links_between(group of the intermediate, group of the destination)),
  // pinned when the packet reaches its intermediate; kNoLink = none.
  uint16_t seg2_link = 0xFFFF;
  int32_t inter_switch = -1;  // Valiant intermediate switch, -1 = none (minimal path)
  int32_t exit_switch = -1;   // global link chosen for this segment: owning switch ...
  int16_t exit_port = -1;     // ... and its port; -1 = not chosen yet
  uint8_t policy = 0;         // Misroute (misrouting.h) Phase A followed; 0 = minimal
  // Dragonfly: index within its group of the switch that drew inter_switch (the source
  // switch, or PAR's second switch of the source group); kNotDrawn = none. Read by the
  // packet trace (tb/packet_trace.h) only.
  uint8_t vlb_from = kNotDrawn;
  // k-ary n-cubes (torus_routing.h), one bit per dimension, for the current segment:
  uint8_t dir_set = 0;  // the direction of the dimension is fixed (first hop taken, or a quadrant drawn)
  uint8_t minus = 0;    // ... and it is the - direction (the quadrant's vector of directions)
  uint8_t wrapped = 0;  // the packet has crossed the dimension's wrap link (its dateline)
  // One-bit state, packed so that a Packet stays one 64-byte cache line (flit.h). C++17
  // has no default member initializers for bit-fields: the constructor clears them.
  uint8_t segment : 1;      // 0 = first segment, 1 = after the intermediate switch
  uint8_t global_done : 1;  // 1 once this segment's global hop has been taken
  bool nonminimal : 1;      // routed through a Valiant intermediate
  uint8_t vc_shift : 1;     // PAR: +1 on local VCs after turning non-minimal in transit
  uint8_t par_pending : 1;  // PAR: sent minimally via a local hop, re-evaluate at the next switch
  // Dragonfly, ugal.segment_link random: every segment's global link is drawn uniformly among
  // all links joining the two groups, not among the fewest-hop ones (minimal.h).
  uint8_t random_exit : 1;

  static constexpr uint8_t kNotDrawn = 0xFF;
  RouteHeader() : segment(0), global_done(0), nonminimal(false), vc_shift(0), par_pending(0), random_exit(0) {}
};
static_assert(sizeof(RouteHeader) == 24, "RouteHeader grew: a Packet must stay one cache line (flit.h)");

// What a routing unit may observe besides the header, passed in by the switch each time it
// routes a head (never read through a pointer to the switch), and the co-simulated RTL
// units it decides through: the topology is structure only, so these are all of a unit's
// inputs besides the header and its Rng.
struct AdaptiveView;
class ForwardingTable;
class MinHopBlock;
class QuadrantBlock;  // routing_units/torus_routing.h
struct RouteContext {
  uint16_t attempt = 0;      // blocked attempts so far of this head at its injection buffer
  uint8_t switch_level = 0;  // the switch's ACOR level (ACOR-Switch, PB-ACOR)
  const AdaptiveView* view = nullptr;  // congestion observations (UGAL, PAR, PB)
  const ForwardingTable* table = nullptr;  // the switch's forwarding table (min-table)
  bool deroute = false;  // CHAOS: the head is derouted from the multiqueue (any output)
  // --rtl min_route: the Verilated minimal-hop unit every Dragonfly mechanism's minimal hops
  // go through (dragonfly_minimal_hop, minimal.h); null = the C++ function.
  const MinHopBlock* min_hop = nullptr;
  // --rtl quadrant: the Verilated in-quadrant selector of the torus adaptive routings
  // (torus_productive_ports, torus_routing.h); null = the C++ function.
  const QuadrantBlock* quadrant = nullptr;
};

struct RouteDecision {
  int16_t port = -1;
  uint8_t vc = 0;
};

// Candidate routing: an ordered set of (output port, VC range) candidates; the switch's
// allocator requests the first candidate, in order, with a free output VC in its range
// (lowest VC of the range first), so a unit lists its preferred (adaptive) candidates
// before its escape candidate (Duato). A unit with one decision returns one candidate with
// a one-VC range, which allocates exactly as a single RouteDecision. Header updates the unit
// makes apply whichever candidate is granted; a unit that needs to know which one was taken
// derives it at the next hop from the input port and VC the packet arrives on.
// 8: a minimal-adaptive unit on a 3-cube offers up to 6 adaptive hops (both directions of a
// dimension at a k/2 tie) and its escape hop.
constexpr int kMaxCandidates = 8;
// No default member initializers: a RouteCandidates is built in every routing call, and
// only its first n entries are ever read.
struct RouteCandidate {
  int16_t port;
  uint8_t vc_lo, vc_hi;  // inclusive VC range on `port`
};
struct RouteCandidates {
  uint8_t n = 0;
  RouteCandidate c[kMaxCandidates];
  static RouteCandidates one(const RouteDecision& d) {
    RouteCandidates s;
    s.n = 1;
    s.c[0] = RouteCandidate{d.port, d.vc, d.vc};
    return s;
  }
  // Appends a candidate; false (and nothing added) when the set is full.
  bool add(int port, int vc_lo, int vc_hi) {
    if (n >= kMaxCandidates) return false;
    c[n++] = RouteCandidate{static_cast<int16_t>(port), static_cast<uint8_t>(vc_lo), static_cast<uint8_t>(vc_hi)};
    return true;
  }
};

// The allocator's candidate rule: the first candidate, in order, with a free VC in its
// range, lowest VC first; `is_free(port, vc)` says whether that output VC can take the
// packet now. Returns the candidate index (and the port and VC through `out`), or -1.
template <typename IsFree>
int first_free_candidate(const RouteCandidates& s, IsFree&& is_free, RouteDecision& out) {
  for (int i = 0; i < s.n; ++i)
    for (int v = s.c[i].vc_lo; v <= s.c[i].vc_hi; ++v)
      if (is_free(s.c[i].port, v)) {
        out = RouteDecision{s.c[i].port, static_cast<uint8_t>(v)};
        return i;
      }
  return -1;
}

// A replacement for dragonfly_minimal_hop (minimal.h): the co-simulated RTL route unit.
// Same contract: one minimal hop from `sw` toward `target` (sw != target), updating the
// header's exit_* and global_done. `tie_word` picks among equally short exit links
// (Rng::scale(tie_word, count)); the caller draws it from its Rng exactly when the C++
// unit would (minimal_hop_draws() in minimal.h), else passes 0.
class MinHopBlock {
 public:
  virtual ~MinHopBlock() = default;
  virtual RouteDecision hop(int sw, int target, RouteHeader& h, uint32_t tie_word) const = 0;
};

}  // namespace scfly
