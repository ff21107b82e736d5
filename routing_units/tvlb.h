// T-VLB: topology-custom Valiant path sets (the T-UGAL paper: Rahman, Bhowmik, Ryasnianskiy,
// Yuan, Lang, "Topology-Custom UGAL Routing on Dragonfly", SC'19, sec. 3.3; the paper speaks
// of k-hop paths, its authors' artifact draws intermediate switches, and so does scfly).
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
//          of dfly(4,8,4,9) and dfly(4,8,4,17) (sec. 4.2)
//   I5dst  dist(i,d) <= 2: "3-hop then 2-hop", the other strategic candidate (sec. 3.3.3)
//   I6     I_all: every VLB path (the final T-VLB of dfly(4,8,4,33)); as a run-time set
//          (`ugal.vlb_set: i6`) it differs from `all`, which leaves the draw to
//          `ugal.intermediate`/`val.policy` and the segments to `ugal.segment_link`
// Gamma(x) = the switches at the far end of x's global links; dist = minimal_distance.
// An empty set other than I3's falls back to I_all (so a Valiant candidate always exists
// between different groups when g >= 3).
// The paper's fractional data points (Table 1, "<= k-hop + X % (k+1)-hop") are a rule
// TvlbRule{set, percent, seed}: the class's set plus the intermediates of the next class
// (I3 -> I4 -> I5 -> I_all) for which a hash of (seed, s, d, i) falls below X %: one fixed
// subset per pair, nested in X, the same in Step 1's LP (sc_main/tvlb_model.h) and at run
// time (the paper's artifact reshuffles per packet instead).
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
#include <utility>
#include <vector>

#include "topologies/common/rng.h"
#include "topologies/dragonfly.h"

namespace scfly {

enum class TvlbClass : uint8_t { All, I3, I4, I5, I5Src, I5Dst, I6 };
const char* to_string(TvlbClass c);  // "all", "i3", "i4", "i5", "i5src", "i5dst", "i6"

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

// A T-VLB set as a rule: a class, plus `percent` % of the next class's extra intermediates.
struct TvlbRule {
  TvlbClass set = TvlbClass::All;
  int percent = 0;    // 0..99; only with i3, i4, i5
  uint64_t seed = 1;  // the fraction's hash
};

// The class whose extra intermediates a fraction of `c` adds: I3 -> I4 -> I5 -> All; All for
// the others (which take no fraction).
TvlbClass tvlb_next_class(TvlbClass c);
// Whether i is among the `percent` % of extra intermediates of (s, d) under `seed`.
bool tvlb_in_fraction(uint64_t seed, int s, int d, int i, int percent);
// The rule's set for (s, d), in switch order: tvlb_set(set) (with its fallbacks) plus the
// fraction of tvlb_next_class(set).
std::vector<int> tvlb_rule_set(const Dragonfly& t, int s, int d, const TvlbRule& r);

// Intermediates removed from a rule's sets (Step 2's load-balance adjustment,
// tvlb_balance.h): sorted keys (s * S + d) * S + i. Empty = none.
struct TvlbRemovals {
  int switches = 0;
  std::vector<uint64_t> keys;
  static uint64_t key(int S, int s, int d, int i) {
    return (static_cast<uint64_t>(s) * static_cast<uint64_t>(S) + static_cast<uint64_t>(d)) *
               static_cast<uint64_t>(S) + static_cast<uint64_t>(i);
  }
  bool empty() const { return keys.empty(); }
  // The removed intermediates of (s, d), ascending, as [first, last) into keys.
  std::pair<const uint64_t*, const uint64_t*> of(int s, int d) const;
  bool removed(int s, int d, int i) const;
};

// An intermediate drawn uniformly from tvlb_rule_set(t, s, d, r) less the removed ones, with
// one rng.below(size) draw (no allocation: the switches are scanned twice, the pair's removals
// found by one binary search); -1 when the set is empty (g = 2).
int tvlb_draw(const Dragonfly& t, int s, int d, const TvlbRule& r, Rng& rng, const TvlbRemovals* removed = nullptr);

// Directed switch-to-switch channels of a Dragonfly, numbered for the path models (the LP,
// the balance rule): the local channels (switch, local port) first, then the global ones
// (switch, global port).
struct TvlbChannels {
  int S, a, h;
  explicit TvlbChannels(const Dragonfly& t) : S(t.num_switches()), a(t.a()), h(t.h()) {}
  int count() const { return S * (a - 1 + h); }
  int locals() const { return S * (a - 1); }
  int local(const Dragonfly& t, int from, int to) const {
    return from * (a - 1) + (t.local_port(t.index_of(from), t.index_of(to)) - t.first_local_port());
  }
  int global(const Dragonfly& t, int sw, int port) const {
    return S * (a - 1) + sw * h + (port - t.first_global_port());
  }
};

using TvlbPath = std::vector<int>;  // channel ids, in hop order

// The paths of one segment x -> y: none for x == y (one empty path); within a group the
// local link; between groups one per global link of the group pair (generic), or only those
// with the fewest hops (D, what a T-VLB segment takes).
void tvlb_segment_paths(const Dragonfly& t, const TvlbChannels& ch, int x, int y, bool generic,
                        std::vector<TvlbPath>& out);

}  // namespace scfly
