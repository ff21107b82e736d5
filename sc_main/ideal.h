// Throughput bounds of a configured network and traffic pattern, computed, not simulated
// (`scfly ideal CONFIG`):
//  - ideal: the maximum concurrent flow with unit-capacity channels (the GAL paper's "ideal",
//    sec. IV.C and [20]): the largest rate theta (phits/node/cycle, every node injecting
//    theta toward its pattern's distribution) such that some routing, free to split each
//    flow over any paths, loads no switch-to-switch channel above 1 phit/cycle. Solved as a
//    linear program with COIN-OR CLP (source-aggregated multicommodity flow: one flow per
//    source switch over every channel, conservation at every switch, capacity per channel).
//    Terminal links cap it too: theta <= 1 / (the largest node injection or ejection rate).
//  - the channel-load bound of each oblivious routing: theta = 1 / (the expected load of the
//    busiest channel per unit rate), routes enumerated exactly with their probabilities
//    (torus: DOR, k/2 ties at 1/2 each, and VAL over every intermediate switch; Dragonfly:
//    MIN over its equally short exit links and VAL rrg-sw over every intermediate switch).
//    Adaptive routings have no such bound.
// The pattern is phase 0's, with the run's seed (the same permutation the run uses).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tb/sim_config.h"

namespace scfly {

struct ObliviousBound {
  std::string routing;  // "dor", "val", "min"
  double theta = 0;     // phits/node/cycle (terminal links included)
  double max_load = 0;  // busiest channel's load per unit rate
  std::string busiest;  // that channel, readable
};

struct IdealResult {
  std::string topology, traffic;
  int switches = 0, channels = 0, sources = 0;
  double terminal = 0;  // terminal-link bound
  bool lp_solved = false;
  double lp = 0;        // max concurrent flow over the switch-to-switch channels
  double ideal = 0;     // min(lp, terminal)
  double capacity = 0;  // torus/mesh UR capacity (0 on a Dragonfly)
  int lp_rows = 0, lp_cols = 0;
  double lp_seconds = 0;
  std::string lp_status;
  std::vector<ObliviousBound> oblivious;
};

// Throws std::runtime_error if the LP cannot be solved.
IdealResult ideal_throughput(const SimConfig& c, bool with_lp = true);
nlohmann::json to_json(const IdealResult& r);
std::string format(const IdealResult& r);

}  // namespace scfly
