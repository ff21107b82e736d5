// Deadlock-freedom checker (`scfly check-deadlock CONFIG`): builds the channel dependency
// graph (CDG, Dally & Seitz) of the configured topology x routing x VC assignment from the
// routing units themselves, and reports "acyclic", Duato's condition for escape-VC schemes,
// or one dependency cycle as a readable path.
//
// What is enumerated. A routing state is (switch, input port, input VC, header): what a unit
// sees when it routes a head. The search starts from every source node's injection (every
// terminal port; GAL: every quadrant its injection unit can choose, found by calling
// gal_choose with one queue emptier than the others) toward every other node, and follows
// every candidate (port, VC) the unit returns, over
//  - every random draw: the unit's Rng is given a DrawScript (topologies/common/rng.h) that
//    enumerates each below(n) draw exhaustively (depth-first over the draw sequence) and each
//    next32() word over K representative words, one in each 1/K of the word range, so every
//    outcome of scale(word, count) is reached for count <= K; on a Dragonfly K is the number
//    of global links joining a group pair (the largest equal-cost set route_min and the
//    forwarding table draw among), elsewhere 16; words that only order equally good
//    candidates (Rng::order_word) are fixed, the set being the same;
//  - congestion states, for units that observe congestion: output queues all empty, one
//    output port saturated (each port in turn) and all saturated, the same as UGAL-G's
//    network view and as Piggyback's saturation flags, and kRandomViews random views; each
//    adaptive unit here decides by comparing a minimal and a non-minimal candidate's queues,
//    and these views drive every such comparison both ways;
//  - the switch state a unit reads: every ACOR level, every recomputation attempt at
//    injection, and a conditional forwarding table (MIN-COND) with every port probability at
//    50 %, so its N draw takes both the conditional and the fallback entry.
// Control frames (QCN's CNMs) are followed the same way on their own VCs, from every switch
// toward every host, through route_control.
//
// The graph. Nodes are switch-to-switch channels (the link leaving switch s on port q, VC v);
// a packet that arrived on channel c and may be sent on channel d makes the edge c -> d.
// Injection channels have no incoming edge and ejection channels never wait (hosts always
// accept), so neither can be on a cycle and both are left out. Virtual cut-through: a
// blocked packet holds one buffer, so these direct dependencies are the only ones.
//  - acyclic: deadlock-free (Dally & Seitz).
//  - cyclic, and some state offers several candidates (an adaptive unit with escape VCs,
//    route_types.h: escape last): Duato's condition for virtual cut-through is checked on the
//    escape sub-function, the last candidate of every state: its CDG (edges from escape
//    channels to the escape candidates of the states arriving on them) must be acyclic;
//    every state offers one by construction. Holds: deadlock-free; else that cycle.
//  - otherwise the cycle, each dependency with a packet that makes it.
// Also checked on the way (a run would fail or misdeliver): a unit returning no candidate, a
// port that does not exist or has no link, a VC beyond the port's, ejection at the wrong
// switch or host, and a cycle in the routing-state graph (a packet could loop forever: the
// longest route is reported otherwise).
//
// VC counts. The configured ones, or others given per class (`--vcs local=3`); a VC a unit
// returns beyond a port's count is folded onto its last VC (the hop slots above it share it),
// which is how "one VC too few" is analysed. `min_vcs` lowers each link class's count in turn
// (the others as configured) until a cycle appears, giving the smallest deadlock-free count.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tb/sim_config.h"

namespace scfly {

struct DeadlockCheckOptions {
  // VCs per port class to analyse (index = the topology's class id); 0 = as configured.
  int vcs[kMaxPortClasses] = {};
  uint64_t max_states = 20000000;  // routing states explored before giving up
  uint64_t max_calls = UINT64_MAX;  // routing-unit calls (every draw x view x level) before giving up
  int random_views = 4;            // random congestion views besides the extreme ones
  uint64_t seed = 1;               // for the random views
  // Called every 4096 routing states explored with (explored, found so far): the command
  // line's progress lines (sc_main/progress.h). Empty: not called.
  std::function<void(uint64_t, uint64_t)> progress;
};

struct DeadlockCheckResult {
  enum class Verdict { Acyclic, Duato, Cycle, Error };
  Verdict verdict = Verdict::Error;
  std::string topology, routing;
  std::vector<std::pair<std::string, int>> vcs;  // link class name, VCs analysed
  std::vector<std::string> folded;               // "local: VC 3 folded onto VC 2", once each
  uint64_t states = 0, calls = 0, views = 0;
  uint64_t channels = 0, channels_used = 0, dependencies = 0;
  uint64_t escape_channels = 0, escape_dependencies = 0;
  int max_hops = 0;  // longest route (switch-to-switch hops, data packets)
  bool control = false;  // control frames (CNMs) were checked too
  std::vector<std::string> cycle;  // the cycle's dependencies, readable, in order
  std::string error;               // Verdict::Error: what is wrong
  bool too_large = false;          // ... the state budget ran out: no verdict (not a routing error)
  double seconds = 0;
  bool deadlock_free() const { return verdict == Verdict::Acyclic || verdict == Verdict::Duato; }
};

// Throws std::invalid_argument on options that do not fit the configuration.
DeadlockCheckResult check_deadlock(const SimConfig& c, const DeadlockCheckOptions& o = {});

// The smallest VC count of each switch-to-switch class that is still deadlock-free, the other
// classes as configured: (class name, minimum); a class that is cyclic at its configured
// count reports that count + 1 as unknown (-1).
std::vector<std::pair<std::string, int>> min_vcs(const SimConfig& c, const DeadlockCheckOptions& o = {});

nlohmann::json to_json(const DeadlockCheckResult& r);
std::string format(const DeadlockCheckResult& r);

}  // namespace scfly
