// Traffic patterns: pure, seeded destination generators. dest(src, rng) draws from the
// caller's stream (each NIC owns one), so patterns hold no mutable state. Whatever is fixed
// for a run (a permutation, the set of uniform nodes of mixed) is built once, in the
// constructor, from the pattern's own stream Rng(seed, StreamKind::Traffic, instance).
//
// Notation: N = g*a*p nodes; node n sits on switch s = n / p as host n % p; switch s is
// index i = s % a of group G = s / a. No pattern ever returns the source itself.
//
// ACOR paper (Benito, Fuentes, Vallejo, Beivide, "ACOR: Adaptive Congestion-Oblivious
// Routing in Dragonfly networks", Journal of Parallel and Distributed Computing, 2019),
// sec. 5.2:
//   un          uniform random over all N-1 nodes other than the source (UN).
//   adv+i       a random node of group (G + i) mod g (ADV+i; the paper's definition, not
//               FOGSim's harsher same-offset variant). Needs i mod g != 0.
//   advs+i      FOGSim's ADV (its `ADV` pattern; the paper's adv+i is FOGSim's
//               `ADV_RANDOM_NODE`): a random host (of p) of the switch with the source's own
//               index i in group (G + i) mod g ("same router position"). Harsher than adv+i:
//               under palmtree every switch of a group sends to one switch of the
//               destination group. Needs i mod g != 0.
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
// T-UGAL paper (Rahman, Bhowmik, Ryasnianskiy, Yuan, Lang, "Topology-Custom UGAL Routing on
// Dragonfly", SC'19), sec. 3.3.1 and 4.1.3:
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
// GAL paper (Singh, Dally, Towles, Gupta, "Globally Adaptive Load-Balanced Routing on k-ary
// n-cubes"; published as "... on Tori", IEEE Computer Architecture Letters, 2004), sec. II
// and IV, on a k-ary n-cube (torus or mesh, topologies/torus.h); node (s, host) -> (f(s),
// host), the host index kept:
//   nn          nearest neighbour (NN): per packet one of the 2n neighbour switches at random
//               (on a mesh, one of those that exist).
//   nnc         one fixed neighbour (NNc): x_0 + 1 (mod k) in dimension 0, the paper's ring
//               pattern i -> i+1.
//   tor         tornado (TOR), one-dimensional as fn. 2 defines it: x_0 -> x_0 + ceil(k/2) - 1
//               (mod k), the other coordinates kept. Needs k >= 3.
//   bc          bit complement (BC): every coordinate x_d -> k - 1 - x_d (for k a power of two
//               the complement of the id bits, BookSim's bitcomp).
//   tp          transpose (TP): the two halves of the coordinate vector swapped,
//               (x_0..x_{h-1}, x_h..x_{n-1}) -> (x_h..x_{n-1}, x_0..x_{h-1}), h = n/2 (2-D:
//               (x, y) -> (y, x)). Needs an even n.
//   hs          hot spot (HS, sec. IV.F; the paper leaves the construction open, so this is
//               a default where the paper is silent, docs/config.md `hs`): the hot nodes are
//               the hosts of the centre switch (x_d = floor(k/2) in every dimension) and of
//               its 2n neighbours (those that exist; 5 switches on the 8-ary 2-cube: (4,4),
//               (3,4), (5,4), (4,3), (4,5)). Per packet, with probability 1/2 the bc destination,
//               else a destination drawn with weight 5 for each hot node and 1 for every
//               other node (the source excluded). A node bc maps onto itself always takes
//               the weighted draw. Not admissible: the hot nodes receive far more than 1.
//   A switch that bc or tp maps onto itself (the centre for odd k; the diagonal of tp) is
//   silent: its hosts generate nothing under that pattern (silent(node)), so no pattern
//   ever returns the source.
//   un, perm and hot are defined as above on every topology; the Dragonfly patterns need a
//   Dragonfly and these need a torus or mesh.
//
// On every topology:
//   mix(P1:W1,P2:W2,...)  per-packet mixture (GAL paper sec. V, e.g. mix(nnc:9,tor:1) is its
//               ring mix 0.9 NNc + 0.1 TOR): each packet draws component i with probability
//               W_i / sum W, then a destination of pattern P_i. 2 to 8 components, integer
//               weights in [1, 1000000], any pattern but mix. A node silent under a
//               component (a bc or tp fixed point) draws among the others (renormalized);
//               silent under all, it generates nothing. Components with per-run state
//               (perm, group-perm, mixed) draw it from their own stream.
//
// A user's own pattern (plug-in): a TrafficPolicy plus a TrafficPlugin descriptor,
// registered with SCFLY_REGISTER_TRAFFIC from its own file (nothing in scfly is edited);
// its name, or name(A,B,...) with integer arguments, is accepted wherever a pattern is
// (`traffic`, phases, mix components) and listed by parse errors. docs/guide-routing.md.
//
// Every accepted string s satisfies to_string(parse(s)) == s: integers are written without
// sign, spaces or leading zeros.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "topologies/common/rng.h"
#include "topologies/dragonfly.h"
#include "topologies/torus.h"

namespace scfly {

enum class TrafficKind {
  Uniform,         // un
  Adversarial,     // adv+i
  AdvSameSwitch,   // advs+i
  AdvConsecutive,  // advc
  AdvLocal,        // advl
  HotRegion,       // hot
  Permutation,     // perm
  Shift,           // shift(DG,DS)
  GroupPerm,       // group-perm
  Mixed,           // mixed(UR,ADV[,DG,DS])
  TimeMixed,       // tmixed(UR,ADV[,DG,DS])
  NearestNeighbor,  // nn
  NeighborFixed,    // nnc
  Tornado,          // tor
  BitComplement,    // bc
  Transpose,        // tp
  HotSpot,          // hs
  Mix,              // mix(P1:W1,...)
  Plugin,           // a registered TrafficPlugin
};

struct TrafficSpec {
  TrafficSpec() = default;
  TrafficSpec(TrafficKind k, int off) : kind(k), offset(off) {}
  TrafficKind kind = TrafficKind::Uniform;
  int offset = 1;        // adv+i, advs+i: group offset i
  int shift_groups = 1;  // shift / mixed / tmixed: group offset DG
  int shift_switches = 0;  // shift / mixed / tmixed: switch offset DS
  int uniform_percent = 0;  // mixed / tmixed: UR (ADV = 100 - UR)
  std::vector<TrafficSpec> parts;  // mix: the component patterns
  std::vector<int> weights;        // mix: their integer weights
  int plugin = -1;                 // plug-in: index into traffic_plugins()
  std::vector<int> args;           // plug-in: its integer arguments
};

// A plug-in pattern's decisions. dest() must return a node other than src in [0, N); a
// node for which silent() is true is never asked (it generates nothing).
class TrafficPolicy {
 public:
  virtual ~TrafficPolicy() = default;
  virtual int dest(int src, Rng& rng) const = 0;
  virtual bool silent(int node) const { (void)node; return false; }
  // The exact distribution of dest(src), (node, probability) pairs summing to 1, for the
  // ideal-throughput model; false if the pattern does not give one (the model refuses it).
  virtual bool weights(int src, std::vector<std::pair<int, double>>& out) const {
    (void)src, (void)out;
    return false;
  }
};

struct TrafficPlugin {
  std::string name;  // lowercase letters, digits and '-'; not a built-in pattern's name
  std::string doc;
  bool dragonfly = true, torus = true;  // the topologies it is defined on (torus: and mesh)
  bool plugin_topologies = false;       // ... and plug-in topologies (topologies/registry.h)
  int min_args = 0, max_args = 0;       // integer arguments, name(A,B,...), each in [0, 10^6]
  // Why the pattern does not fit this topology with these arguments; empty if it does.
  std::function<std::string(const Topology&, const std::vector<int>&)> check;
  // The pattern for one run; `fixed` is its own stream for per-run state (a permutation...).
  std::function<std::unique_ptr<const TrafficPolicy>(const Topology&, const std::vector<int>&, Rng& fixed)> make;
};
// Registers a plug-in; std::logic_error for a bad or taken name or a missing factory.
int register_traffic(TrafficPlugin p);
const std::vector<const TrafficPlugin*>& traffic_plugins();
#define SCFLY_REGISTER_TRAFFIC(ident, ...) static const int ident = ::scfly::register_traffic(__VA_ARGS__)

// Parses one of the patterns above; returns an empty string on success, else why not.
std::string parse_traffic(const std::string& s, TrafficSpec& out);
std::string to_string(const TrafficSpec& t);
std::string traffic_choices();
// Checks the pattern fits the topology (e.g. adv+i needs i mod g != 0, advc needs h < g; a
// Dragonfly pattern needs a Dragonfly, a torus pattern a torus or mesh).
std::string check_traffic(const TrafficSpec& t, const Topology& topo);

class TrafficPattern {
 public:
  // `seed` and `instance` (e.g. the phase index) seed the pattern's fixed per-run state,
  // such as a random permutation, from its own stream (StreamKind::Traffic, instance).
  // The spec must pass check_traffic for `topo`.
  TrafficPattern(const TrafficSpec& spec, const Topology& topo, uint64_t seed = 0,
                 uint64_t instance = 0);
  int dest(int src, Rng& rng) const;
  // The exact distribution of dest(src): (node, probability) pairs summing to 1 (empty for
  // a silent node). For the ideal-throughput model (sc_main/ideal.h).
  void weights(int src, std::vector<std::pair<int, double>>& out) const;
  // True if `node` generates nothing under this pattern (a fixed point of bc or tp).
  bool silent(int node) const { return !m_silent.empty() && m_silent[static_cast<size_t>(node)] != 0; }

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
  const Topology* m_any;
  const Dragonfly* m_topo = nullptr;  // Dragonfly patterns
  const Torus* m_torus = nullptr;     // torus patterns
  int m_hot = 0;
  std::vector<int> m_map;              // perm, group-perm: destination of each node
  std::vector<uint8_t> m_uniform_src;  // mixed: 1 if the node sends un, else the shift
  std::vector<uint8_t> m_silent;       // bc, tp, mix: 1 for a node that generates nothing
  std::vector<int> m_hot_list;         // hs: the hot nodes, ascending
  std::vector<uint8_t> m_is_hot;       // hs: 1 for a hot node
  std::vector<std::unique_ptr<TrafficPattern>> m_parts;  // mix: the components
  std::unique_ptr<const TrafficPolicy> m_plugin;          // plug-in
  int plugin_dest(int src, Rng& rng) const;
};

}  // namespace scfly
