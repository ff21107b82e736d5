// The report card: a table of routing mechanisms (columns) against figures of merit (rows),
// rebuilt by one command from one file, the GAL paper's Table IV (Singh, Dally, Towles,
// Gupta, "Globally Adaptive Load-Balanced Routing on k-ary n-cubes"; published as "... on
// Tori", IEEE Computer Architecture Letters, 2004; sec. VI) being the first card
// (sc_main/experiments/gal-report-card.yaml).
//
//   scfly report-card CARD.yaml [--db FILE] [--jobs N] [--md FILE] [--json FILE]
//                     [--permutations N|A-B] [--rows NAME,...] [--dry-run]
//
// Card file:
//   name: gal-report-card                  # default: the file's stem; names the row sweeps
//   base: ../configs/torus-8x8-1port.yaml        # as a sweep's base
//   set: {topology: {terminal_ports: 4}}   # overrides of every run
//   columns:                               # the mechanisms, in order: name -> overrides
//     VAL: {routing: val}
//     GAL: {routing: gal}
//   normalize_to: VAL                      # optional: cells also as a ratio to this column
//   search: {low: 0.05, high: 1, resolution: 0.01}     # saturation rows' bisection
//   saturation: {latency_factor: 3, accept_ratio: 0.9} # what "sustained" means (sweep.h)
//   rows:
//     - {name: NN, label: "Θ_NN", kind: saturation, set: {traffic: nn}, search: {high: 4}}
//     - {name: avg, kind: saturation, set: {traffic: perm}, permutations: 100}
//     - {name: Lat, kind: latency, set: {traffic: un, load: 0.2}}
//     - {name: Stab, kind: stability, set: {traffic: un, load: 1.1}, reference: UR}
//
// Row kinds, each cell one column's value:
//   saturation  the saturation throughput found by the sweep's saturation search (the highest
//               sustained offered load's accepted load). With `permutations: N` the row is
//               the mean over N runs of the row's pattern with seeds 1..N (for `perm`, N
//               random permutations; each searched on its own), and the JSON keeps every
//               permutation's value (the histogram of the GAL paper's Fig. 9) with min and
//               max. --permutations N runs seeds 1..N only (the same points as in the
//               full row, so a later full run reuses them) and the cell says "N of M";
//               --permutations A-B runs seeds A..B (B <= M), so a long row can be split
//               into blocks run on different machines or days ("seeds A-B of M"). The
//               JSON lists each permutation's seed beside its value ("seeds"), and
//               `scfly plot BLOCK.json ... --recipe card-permutations` merges the blocks
//               by seed (its summary: mean, SD, standard error, min, max per column).
//   latency     latency_avg at the row's load (one run per column), with hops_avg and the
//               hop-count distribution (GAL sec. IV.D) in the JSON.
//   stability   one run past saturation (the row's load, with a time series of
//               `bin_cycles`, default 1000): stable when the accepted load is at least
//               `ratio` (default 0.95) x the column's saturation throughput in the
//               `reference` row and the last quarter of the measurement window's bins keeps
//               at least `ratio` x the first quarter's (no downward trend). The paper's
//               definition: "the accepted throughput remains constant even as the offered
//               load is increased beyond the saturation point" (sec. IV.E).
// --rows NAME,... runs and reports only those rows (a stability row needs its reference row
// among them).
// Every row is an ordinary sweep (name "<card name>-<row name>") in the one database, so a
// rerun resumes and reuses every finished point.
#pragma once

#include <string>
#include <vector>

namespace scfly {

struct ReportCardOptions {
  std::string db_path;   // default: <name>.sqlite
  std::string md_path;   // also write the Markdown table here
  std::string json_path; // every value, the permutation lists and the series
  int jobs = 1;
  // Which of each permutation row's seeds: "" all; "N" seeds 1..N (at most the row's
  // count, a prefix); "A-B" seeds A..B (1 <= A <= B <= the row's count, else exit 2).
  std::string permutations;
  std::vector<std::string> rows;  // non-empty: only these rows (by name)
  bool dry_run = false;
  bool progress_bar = false;
};

// Returns the exit code: 0, 2 bad card or database, 3 some point failed (the table still
// printed with what there is), 130 interrupted.
int run_report_card(const std::string& path, const ReportCardOptions& opt);

}  // namespace scfly
