// T-VLB: topology-custom Valiant path sets (T-UGAL, ../shared/papers/003_86cbaddc88747694.txt,
// sec. 3.3; the reading in ../shared/specs/tugal.md sec. 1-2).
//
// A VLB path from switch s to switch d goes through an intermediate switch i outside the
// source and destination groups (I_all); each of its two segments is a fewest-hop minimal
// path (L-G-L at most: the paper's Dijkstra paths with local 1 / global 3, which are scfly's
// fewest-hop exit links, minimal.h), 2 to 6 hops in all. The paper's candidate classes are
// sets of intermediates:
//   I3     (dist(s,i) <= 2 and i in Gamma(d)) or (i in Gamma(s) and dist(i,d) <= 2): the
//          <= 3-hop paths; empty -> I4 (the artifact's fallback)
//   I4     Gamma(s) \ G(d), Gamma(d) \ G(s), and the switches with global links to both G(s)
//          and G(d): the <= 4-hop paths (but those with two local hops in the intermediate
//          group, which no pair of fewest-hop segments gives)
//   I5     dist(s,i) <= 2 or dist(i,d) <= 2
//   I5src  dist(s,i) <= 2: "all 2-hop MIN paths followed by 3-hop MIN paths", the final T-VLB
//          of dfly(4,8,4,9) and dfly(4,8,4,17) (spec key finding 3)
//   I5dst  dist(i,d) <= 2: "3-hop then 2-hop", the other strategic candidate (sec. 3.3.3)
//   I6     I_all: every VLB path (the final T-VLB of dfly(4,8,4,33))
// Gamma(x) = the switches at the far end of x's global links; dist = minimal_distance.
// An empty set other than I3's falls back to I_all (so a Valiant candidate always exists
// between different groups when g >= 3).
//
// Used at run time by UGAL-L, UGAL-G, PAR and PB with `ugal.vlb_set` (ugal.h): the
// intermediate is drawn uniformly from the set of (current switch, destination switch), and
// both segments take fewest-hop links whatever ugal.segment_link says (a T-VLB path is its
// intermediate with fewest-hop segments). Pure functions of the topology; O(g a) per set,
// so a T-UGAL Valiant candidate costs two scans of the switches (each with a minimal-
// distance test) at every injection: no table, nothing per cycle; a per-pair table would
// trade S^2 memory for it if it ever shows in a profile.
#pragma once

#include <cstdint>
#include <vector>

#include "topologies/common/rng.h"
#include "topologies/dragonfly.h"

namespace scfly {

enum class TvlbClass : uint8_t { All, I3, I4, I5, I5Src, I5Dst };
const char* to_string(TvlbClass c);  // "all", "i3", "i4", "i5", "i5src", "i5dst"

// One fewest-hop segment: its hops and the global links that give them (ties, the links
// minimal.h draws among); no link within a group.
struct VlbSegment {
  int hops = 0;
  std::vector<GlobalLinkEnd> links;
};

// The VLB path through intermediate `inter`.
struct VlbRoute {
  int inter = -1;
  VlbSegment a, b;  // s -> inter, inter -> d
  int hops() const { return a.hops + b.hops; }
};

// Every VLB route from s to d (s, d in different groups), one per intermediate of I_all in
// switch order.
std::vector<VlbRoute> enumerate_vlb(const Dragonfly& t, int s, int d);

// Whether i is in the class's set for (s, d) (the rules above, without the fallbacks).
bool in_tvlb_class(const Dragonfly& t, int s, int d, int i, TvlbClass c);

// The class's set for (s, d), in switch order, with the fallbacks; s, d in different groups.
std::vector<int> tvlb_set(const Dragonfly& t, int s, int d, TvlbClass c);

// An intermediate drawn uniformly from tvlb_set(t, s, d, c) with one rng.below(size) draw
// (no allocation: the set is scanned twice); -1 when the set is empty (g = 2).
int tvlb_draw(const Dragonfly& t, int s, int d, TvlbClass c, Rng& rng);

}  // namespace scfly
