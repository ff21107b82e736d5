// Traffic patterns: pure, seeded destination generators. dest(src, rng) draws from the
// caller's stream (each NIC owns one), so patterns hold no mutable state. Whatever is fixed
// for a run (a permutation, the set of uniform nodes of mixed) is built once, in the
// constructor, from the pattern's own stream Rng(seed, StreamKind::Traffic, instance).
//
// Notation: N = g*a*p nodes; node n sits on switch s = n / p as host n % p; switch s is
// index i = s % a of group G = s / a. No pattern ever returns the source itself.
//
// ACOR paper (Benito et al., papers/000), sec. 5.2:
//   un          uniform random over all N-1 nodes other than the source (UN).
//   adv+i       a random node of group (G + i) mod g (ADV+i; the paper's definition, not
//               FOGSim's harsher same-offset variant). Needs i mod g != 0.
//   advc        ADV consecutive (ADVc): a random node of a group chosen uniformly per packet
//               among the h groups G+1, ..., G+h (mod g), i.e. uniform over those h*a*p
//               nodes. Needs h < g. Under the palmtree arrangement all h groups are reached
//               through the global links of switch a-1 of the source group (the bottleneck
//               switch of the paper's Fig. 2/8); under the absolute arrangement the pattern
//               is defined the same way but has no single bottleneck switch.
//   advl        ADV local (ADVl): a random host (of p) of switch index (i+1) mod a of the
//               source's own group ("the consecutive switch ... following a modulo
//               sequence"). Needs a >= 2.
//   hot         Hot region (HOT): the hot region is the first H = ceil(N/8) nodes (12.5% of
//               the endpoints, rounded up). Per packet, with probability 1/4 the destination
//               is uniform over the hot region, else uniform over all nodes (hot ones
//               included, as the paper says); both exclude the source, so a hot source picks
//               among the other H-1 hot nodes. Needs N >= 9 (H >= 2).
//   perm        Random permutation (PERM): a fixed node-level permutation, each node sending
//               to exactly one node and receiving from exactly one. Drawn per run (seed,
//               phase) uniformly among derangements, so no node is mapped onto itself (the
//               paper does not say; a self-mapped node would inject nothing into the
//               network). Needs N >= 2.
//
// T-UGAL paper (Rahman et al., SC'19, papers/003), sec. 3.3.1 and 4.1.3:
//   shift(DG,DS)  node (G, i, host) -> ((G+DG) mod g, (i+DS) mod a, host) (TYPE_1 shift;
//               shift(k,0) is the paper's ADV pattern). DG, DS >= 0; rejected when it maps
//               every node onto itself (DG mod g == 0 and DS mod a == 0).
//   group-perm  TYPE_2 pattern: a random group-level permutation without fixed points
//               (each group sends to exactly one other group and receives from exactly one,
//               as in the paper's example 0->2->1->0), and for each source group a random
//               switch-level permutation onto its destination group (fixed points allowed,
//               as in the example's 0->0); hosts keep their index, as in the paper's
//               (g0,s1,n_k) -> (g2,s2,n_k). Fixed per run. Needs g >= 2.
//   mixed(UR,ADV)  space-mixed MIXED(UR%,ADV%): a random subset of round(N*UR/100) nodes,
//               fixed per run, sends un; the others send shift(1,0). The paper says only
//               "adversarial shift traffic", i.e. shift(k,0), without k for MIXED; shift(1,0)
//               is the default (the first TYPE_1 pattern, used for its largest topology).
//               mixed(UR,ADV,DG,DS) uses shift(DG,DS) instead; write the short form for the
//               default (mixed(UR,ADV,1,0) is rejected so that to_string round-trips).
//               UR, ADV integers in [0,100] with UR + ADV = 100.
//   tmixed(UR,ADV)  time-mixed TMIXED(UR%,ADV%): per packet, with probability UR/100 a un
//               destination, else shift(1,0); tmixed(UR,ADV,DG,DS) as for mixed.
//
// Every accepted string s satisfies to_string(parse(s)) == s: integers are written without
// sign, spaces or leading zeros.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "topologies/common/rng.h"
#include "topologies/dragonfly.h"

namespace scfly {

enum class TrafficKind {
  Uniform,         // un
  Adversarial,     // adv+i
  AdvConsecutive,  // advc
  AdvLocal,        // advl
  HotRegion,       // hot
  Permutation,     // perm
  Shift,           // shift(DG,DS)
  GroupPerm,       // group-perm
  Mixed,           // mixed(UR,ADV[,DG,DS])
  TimeMixed,       // tmixed(UR,ADV[,DG,DS])
};

struct TrafficSpec {
  TrafficKind kind = TrafficKind::Uniform;
  int offset = 1;        // adv+i: group offset i
  int shift_groups = 1;  // shift / mixed / tmixed: group offset DG
  int shift_switches = 0;  // shift / mixed / tmixed: switch offset DS
  int uniform_percent = 0;  // mixed / tmixed: UR (ADV = 100 - UR)
};

// Parses one of the patterns above; returns an empty string on success, else why not.
std::string parse_traffic(const std::string& s, TrafficSpec& out);
std::string to_string(const TrafficSpec& t);
const char* traffic_choices();
// Checks the pattern fits the topology (e.g. adv+i needs i mod g != 0, advc needs h < g).
std::string check_traffic(const TrafficSpec& t, const Dragonfly& topo);

class TrafficPattern {
 public:
  // `seed` and `instance` (e.g. the phase index) seed the pattern's fixed per-run state,
  // such as a random permutation, from its own stream (StreamKind::Traffic, instance).
  // The spec must pass check_traffic for `topo`.
  TrafficPattern(const TrafficSpec& spec, const Dragonfly& topo, uint64_t seed = 0,
                 uint64_t instance = 0);
  int dest(int src, Rng& rng) const;

  // Hot region of `hot`: nodes [0, hot_nodes()); 0 for other patterns.
  int hot_nodes() const { return m_hot; }
  // Whether `node` sends uniform traffic under `mixed` (false for other patterns).
  bool sends_uniform(int node) const {
    return !m_uniform_src.empty() && m_uniform_src[static_cast<size_t>(node)] != 0;
  }

 private:
  int uniform(int src, Rng& rng) const;
  int shifted(int src) const;

  TrafficSpec m_spec;
  const Dragonfly* m_topo;
  int m_hot = 0;
  std::vector<int> m_map;              // perm, group-perm: destination of each node
  std::vector<uint8_t> m_uniform_src;  // mixed: 1 if the node sends un, else the shift
};

}  // namespace scfly
