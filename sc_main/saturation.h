// Saturation analysis of a load sweep: pure functions over finished points, so the sweep
// runner (early stop), the summary table and the tests share one definition.
//
// A series is one curve: all points that differ only in offered load and seed. Points at
// the same load are averaged over seeds (a load level). Definitions:
// - zero-load latency: the mean latency_avg of the lowest load level of the series (run the
//   lowest load well below saturation for this to mean what it says);
// - saturation throughput: the highest mean accepted load over the levels, and the offered
//   load where it occurs;
// - latency knee: the first offered load past saturation: its mean latency exceeds
//   `latency_factor` x the zero-load latency, or its mean accepted load falls below
//   `accept_ratio` x the offered load (this catches a series saturated from its lowest
//   load, whose zero-load latency is then meaningless), or a point failed.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace scfly {

struct SeriesSample {
  double load = 0;       // offered load, phits/node/cycle (the swept value)
  bool ok = false;       // the run succeeded and produced metrics
  double accepted = 0;   // accepted_load
  double latency = 0;    // latency_avg
};

struct LoadLevel {
  double load = 0;
  int runs = 0, ok = 0;   // points at this load, of which succeeded
  double accepted = 0;    // mean over successful points
  double latency = 0;     // mean over successful points
};

struct SaturationSummary {
  int points = 0;
  int levels = 0;
  double zero_load_latency = 0;
  double saturation_throughput = 0;  // highest mean accepted load
  double saturation_load = 0;        // offered load where it occurs
  double knee_load = -1;             // first load past the latency knee; -1 if none
};

// Groups samples by load (exact value) in increasing load order.
std::vector<LoadLevel> load_levels(const std::vector<SeriesSample>& samples);

struct SaturationCriteria {
  double latency_factor = 3.0;  // knee: latency above this multiple of zero-load latency
  double accept_ratio = 0.9;    // or accepted load below this fraction of the offered load
};

// True if a level is past saturation (see the knee above).
bool past_saturation(const LoadLevel& l, double zero_load_latency, const SaturationCriteria& c);

SaturationSummary summarize_saturation(const std::vector<SeriesSample>& samples,
                                       const SaturationCriteria& c);

// Early stop for a series swept in increasing load order. `complete_prefix` holds the
// lowest load levels of the series, every point of each finished, in load order. Returns
// the index of the last load level worth running: the first level past saturation plus
// `extra_levels`, or SIZE_MAX while none of them is past saturation.
size_t last_useful_level(const std::vector<LoadLevel>& complete_prefix,
                         const SaturationCriteria& c, int extra_levels);

}  // namespace scfly
