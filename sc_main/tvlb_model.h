// T-VLB Step 1: the coarse-grain LP throughput model of T-UGAL (Rahman, Bhowmik,
// Ryasnianskiy, Yuan, Lang, "Topology-Custom UGAL Routing on Dragonfly", SC'19, sec. 3.3.2
// and its appendix "Step 1"). `scfly tvlb CONFIG` runs it.
//
// The model (the paper's, after Mollah et al. PMBS'17 "Model 3", with T-UGAL's ordering
// constraint): for one traffic pattern, the flows are switch pairs (s, d) with demand w(s,d)
// in nodes (p for the paper's switch permutations: its PE pairs aggregated, exact by
// symmetry). Each flow may use
//   - its MIN paths M(s,d): one per global link of the group pair, s -> [exit] -> link ->
//     [entry] -> d, 1-3 hops (the paper's "generic" DF-min paths, all links equally; within a
//     group the direct local link);
//   - its VLB paths: for every intermediate i of the data point's set T(s,d), every pair of
//     segments P1 in D(s,i), P2 in D(i,d), D = the fewest-hop paths (the paper's Dijkstra
//     paths with local 1 / global 3), or M for the "generic segments" points (the paper's
//     baseline UGAL); 2-6 hops; within a group, every other switch of the group.
// Paths are grouped into classes by kind (MIN, VLB) and hop count; every path of a class
// carries the same rate r (a variable, phits/cycle), the paper's m_{f,l} and v_{f,l}.
//   maximize x  (phits/node/cycle, every node sending x toward its pattern's destinations)
//   subject to  sum_c n(f,c) r(f,c) >= w(f) x                 for every flow f
//               sum_{f,c} c(f,c,l) r(f,c) <= 1                  for every switch-to-switch
//                                                                channel l (capacity 1)
//               r(f,VLB l_j) >= r(f,VLB l_{j+1})                for consecutive VLB hop
//                                                                counts of f (T-UGAL's
//                                                                constraint: a longer VLB
//                                                                path never carries more)
//               x <= 1 / (the largest injection or ejection rate of a node)
// where n(f,c) is the number of paths of class c and c(f,c,l) how many of them cross l.
// Solved with COIN-OR CLP (dual simplex). The data point's score is the mean of x over the
// patterns (the paper's Fig. 4 plots it with the standard error of the mean).
//
// Data points (the paper's Table 1): "<= k-hop" = a T-VLB class (I3, I4, I5, all:
// routing_units/tvlb.h), "<= k-hop + X % (k+1)-hop" = that class plus X % of the
// intermediates of the next class not in it, chosen per (s, d, i) by a seeded hash below X %
// (routing_units/tvlb.h TvlbRule: nested in X, the same subset for every pattern and at run
// time; the paper's artifact reshuffles per call). Plus the strategic candidates I5src and
// I5dst (sec. 3.3.3) and "all, generic segments" (the baseline UGAL's VLB).
//
// Patterns (sec. 3.3.1): TYPE_1 = every shift(DG, DS), 1 <= DG < g, 0 <= DS < a; TYPE_2 = 20
// group permutations (traffic group-perm, seeds 1..20, the simulator's own patterns).
// --quick: DG in {1, 2, (g-1)/2, g-1}, DS in {0, a/2} and 3 group permutations.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "routing_units/tvlb.h"
#include "tb/traffic.h"
#include "topologies/dragonfly.h"

namespace scfly {

// One data point of Step 1: the intermediates allowed for (s, d).
struct TvlbPoint {
  std::string name;                 // "<=4 +60% 5-hop", "i5src", "all (generic segments)"
  TvlbClass base = TvlbClass::All;  // the set (with tvlb_set's fallbacks)
  int percent = 0;                  // 0..99: + this % of tvlb_next_class(base) (TvlbRule)
  bool generic_segments = false;    // VLB segments over every link of the group pair (M), not D
  bool min_only = false;            // no VLB path at all (a reference point)
};

// The paper's Table 1 points: <=3, +10..90 % 4-hop, <=4, +10..90 % 5-hop, <=5, +10..90 %
// 6-hop, all; then i5src, i5dst and all with generic segments. `step` is the percent step
// (10 in the paper).
std::vector<TvlbPoint> tvlb_table1_points(int step = 10);
// Parses a point name as printed by tvlb_table1_points (or "min"); empty string on success.
std::string parse_tvlb_point(const std::string& text, TvlbPoint& out);

// The run-time configuration of a point's set: the `ugal.*` overrides that make UGAL-L/G,
// PAR and PB draw their Valiant intermediate from it ("ugal.vlb_set=i4 ugal.vlb_percent=60
// ugal.vlb_seed=1"; "all" is i6); empty for min and the generic-segment point, which are
// not T-VLB sets.
std::string tvlb_point_overrides(const TvlbPoint& p, uint64_t seed);
// The point's intermediates (tvlb_rule_set of routing_units/tvlb.h: the same set `ugal.vlb_set`
// + `ugal.vlb_percent` + `ugal.vlb_seed` draw from at run time) of (s, d) (different groups), in switch order.
std::vector<int> tvlb_point_set(const Dragonfly& t, int s, int d, const TvlbPoint& p, uint64_t seed);

struct TvlbLpOptions {
  bool ordering = true;  // T-UGAL's constraint (off: the plain Model 3)
  uint64_t seed = 1;     // the fraction hash
};

struct TvlbLpResult {
  double x = 0;               // max concurrent throughput, phits/node/cycle
  int rows = 0, cols = 0;
  long long nonzeros = 0;
  double seconds = 0;         // CLP's time
  double min_share = 0;       // fraction of the traffic on MIN paths at the optimum
  double vlb_hops = 0;        // mean hops of the VLB traffic at the optimum (0 if none)
  double hops = 0;            // mean hops of all traffic at the optimum
  int ordering_binding = 0;   // ordering rows with a nonzero dual (the constraint binds)
  double ordering_excess = 0; // the largest per-path rate by which a longer VLB class of a flow
                              // exceeds the next shorter one at the optimum (0 with ordering)
};

// Solves the model for one pattern (throws std::runtime_error if CLP fails).
TvlbLpResult solve_tvlb_lp(const Dragonfly& t, const TrafficPattern& pattern, const TvlbPoint& point,
                           const TvlbLpOptions& opt = {});

struct TvlbPattern {
  std::string name;  // "shift(2,0)", "group-perm seed 3"
  TrafficSpec spec;
  uint64_t seed = 0;
};
std::vector<TvlbPattern> tvlb_patterns(const Dragonfly& t, bool quick, int type2_count = 20);

// Path-set statistics of a point over every inter-group switch pair (`scfly tvlb` prints
// them; tests/test_tvlb_model.cpp checks dfly(4,8,4,9)'s against an independent computation).
struct TvlbSetStats {
  double intermediates = 0;  // mean set size
  int min_size = 0, max_size = 0;
  double fraction = 0;       // of I_all
  double paths = 0;          // mean VLB paths (segment combinations) per pair
  double hops = 0;           // mean VLB hops of a run-time draw (intermediate uniform over the
                             // set, then each segment's link uniform), averaged over pairs
};
TvlbSetStats tvlb_set_stats(const Dragonfly& t, const TvlbPoint& p, uint64_t seed);

// Link-usage balance of a point's VLB paths (Step 2's imbalance checks, sec. 3.3.3):
// U(l) = the mean over every inter-group switch pair of the probability that the
// pair's VLB packet crosses channel l, a packet taking an intermediate uniformly from the set
// and each segment's link uniformly among its ties (the run-time draw). Reported per channel
// class as max U / mean U and min U / mean U; 1 / 1 is perfect balance.
struct TvlbBalance {
  double local_max = 0, local_min = 0;
  double global_max = 0, global_min = 0;
};
TvlbBalance tvlb_balance(const Dragonfly& t, const TvlbPoint& p, uint64_t seed);

struct TvlbStep1Point {
  TvlbPoint point;
  TvlbSetStats stats;
  TvlbBalance balance;
  std::vector<double> x;  // per pattern, in pattern order
  double mean = 0, sem = 0, min = 0, max = 0;
  double seconds = 0;     // summed CLP time
};

struct TvlbStep1 {
  std::string topology;
  std::vector<TvlbPattern> patterns;
  std::vector<TvlbStep1Point> points;
  int best = -1;                // index into points: the highest mean among the Table 1 points
                                // (ties within 1e-4: the fewest mean VLB hops)
  std::vector<int> vicinity;    // the best, then the Table 1 points within `vicinity_gap` of it
                                // with the fewest mean VLB hops; at most 4
  uint64_t set_seed = 1;        // the fractional points' hash seed
  bool skipped = false;         // one link per group pair: T-VLB = all (sec. 4.2), no LP
  double seconds = 0;           // wall clock
  int jobs = 1;
};

struct TvlbStep1Options {
  std::vector<TvlbPoint> points;  // empty = tvlb_table1_points()
  bool quick = false;
  int type2 = 20;
  int jobs = 1;
  double vicinity_gap = 0.01;
  TvlbLpOptions lp;
  std::function<void(int done, int total)> progress;  // called from the worker threads, serialized
};

TvlbStep1 run_tvlb_step1(const Dragonfly& t, const TvlbStep1Options& opt);
nlohmann::json to_json(const TvlbStep1& r);
std::string format(const TvlbStep1& r);

// T-VLB Step 2 by simulation (sec. 3.3.3, Algorithm 1 lines 13-22): every candidate (Step 1's
// vicinity, then the strategic i5src and i5dst, then those two after the load-balance
// removals, "i5src-bal" and "i5dst-bal": tugal.tau_global/tau_local at TvlbBalanceOptions'
// defaults, routing_units/tvlb_balance.h) on `patterns` TYPE_2 patterns (group-perm with run
// seeds 1..patterns), each a saturation search by the paper's criterion (the last load, on a
// `resolution` grid, with mean latency under 500 cycles), written as an ordinary sweep file so
// it runs with `scfly sweep` (locally with --jobs, or on a cluster with --slurm), resumes, and
// keeps every run in the database. A balanced candidate follows its class, so on a tie the
// selection keeps the class without removals.
struct TvlbStep2Options {
  std::string config_path;             // the base configuration (made absolute)
  std::vector<std::string> overrides;  // key=value, carried into the sweep's `set`
  std::vector<std::string> routings;   // ugal-l, ugal-g, par, pb (default: the config's)
  int patterns = 5;
  double resolution = 0.01, low = 0.05, high = 1.0, max_latency = 500;
};
// The candidates' names ("i4-p80", "i5", "i6", "i5src", "i5src-bal") and run-time overrides
// ("ugal.vlb_set=i5src tugal.tau_global=1.25 ...").
std::vector<std::pair<std::string, std::string>> tvlb_step2_candidates(const TvlbStep1& r);
std::string tvlb_step2_sweep(const TvlbStep1& r, const TvlbStep2Options& opt);

// The selection from a finished Step 2 sweep: per routing and candidate, the mean over the
// patterns of the saturation load; the best per routing.
struct TvlbChoice {
  std::string routing, candidate, overrides;
  double mean = 0;        // mean saturation load over the patterns found
  int patterns = 0;       // with a result
  std::vector<double> per_pattern;
};
struct TvlbSelection {
  std::string sweep;
  std::vector<TvlbChoice> rows;       // every (routing, candidate), best first per routing
  std::vector<TvlbChoice> best;       // one per routing
  int missing = 0;                    // series without a result yet
};
// Throws ConfigError for a sweep that is not a Step 2 sweep.
TvlbSelection tvlb_select(const std::string& sweep_path, const std::string& db_path);
nlohmann::json to_json(const TvlbSelection& s);
std::string format(const TvlbSelection& s);

}  // namespace scfly
