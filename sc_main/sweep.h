// Sweeps: a base configuration, fixed overrides and axes whose cartesian product gives the
// points. Each point is a `scfly run` child process (SystemC elaborates once per process);
// up to `jobs` run at once. Results go to a SQLite database (results_db.h); a point whose
// configuration hash is already there is not run again, so an interrupted sweep resumes.
//
// Sweep file:
//   base: sc_main/configs/dfly-tiny.yaml   # relative to the working directory, else to
//                                          # the sweep file's directory
//   name: example                          # default: the file's stem
//   set: {warmup_cycles: 2000}             # fixed overrides (nested maps = dotted keys)
//   axes:                                  # cartesian product, in this order
//     load: "0.05:0.95:0.05"               # start:stop:step (stop included) or a list
//     routing: [min, val]
//     mechanism:                           # named variants: each a bundle of overrides
//       val-crg-gr: {routing: val, val: {policy: crg-gr}}
//       acor-3l: {routing: acor-switch, acor: {sequence: 3l}}
//   stop_after_saturation: false           # skip a series' higher loads once saturated
//   saturation: {latency_factor: 3, accept_ratio: 0.9, extra_points: 1}
//   saturation_search: {low: 0.05, high: 1.0, resolution: 0.01, max_latency: 500}
//                                          # instead of a load axis: per series (and all its
//                                          # seeds together) find the saturation load by
//                                          # bisection on a grid of `resolution` (below)
//
// Saturation search: a load L is sustained when every seed's run succeeded, the mean
// accepted load is at least accept_ratio x the mean measured generated load (L, less the
// nodes a pattern leaves silent) and the mean latency at most latency_factor x the latency
// at `low` and, with `max_latency` (optional), below that many cycles (the T-UGAL paper's
// criterion: the last load with mean latency under 500 cycles). The search runs `low` (not sustained: saturation is below it),
// then `high` (sustained: it is at least `high`), then bisects between the highest
// sustained and the lowest unsustained load, on multiples of `resolution`, until they are
// one step apart. Every run is an ordinary point in the database, so a rerun replays the
// same decisions from the stored results and resumes where it stopped. Series are searched
// side by side (one point per series at a time, up to `--jobs`).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "sc_main/config.h"

namespace scfly {

// An axis is either a config key with its values, or a named-variant axis whose values
// are named bundles of overrides (e.g. mechanism: {val-crg-gr: {routing: val, val:
// {policy: crg-gr}}, acor-3l: {...}}): the variants are swept as one axis, not a product.
struct SweepAxis {
  std::string key;                  // dotted config key, or the variant axis' name
  std::vector<std::string> values;  // override values (YAML text), or variant names
  std::vector<std::vector<std::string>> bundles;  // variant axis: overrides per value
  bool variants() const { return !bundles.empty(); }
};

struct SweepSpec {
  std::string path, name, base;
  std::vector<std::string> set;  // key=value
  std::vector<SweepAxis> axes;
  bool stop_after_saturation = false;
  double latency_factor = 3.0;  // knee: latency above this multiple of zero-load latency
  double accept_ratio = 0.9;    // or accepted load below this fraction of the offered load
  int extra_points = 1;         // loads still run past the knee with stop_after_saturation
  struct Search {
    bool on = false;
    double low = 0.05, high = 1.0, resolution = 0.01;
    double max_latency = 0;  // cycles; > 0: also mean latency below this (the T-UGAL paper's 500)
  } search;                     // saturation_search
};

struct SweepPoint {
  std::vector<std::string> overrides;  // set + this point's axis values
  std::vector<std::pair<std::string, std::string>> axis_values;
  nlohmann::json labels = nlohmann::json::object();  // variant axis name -> variant name
  SimConfig cfg;
  nlohmann::json config;  // config_to_json(cfg)
  std::string hash;       // of the resolved configuration
  std::string series;     // axis values other than load and seed, "routing=min traffic=un"
  double load = 0;        // the point's offered load (top-level `load`)
  size_t level = 0;       // index of `load` among its series' distinct loads
  std::vector<std::string> inert;  // keys given (base, set, axes) this point never reads (inert_keys)
};

// A path's file name without its extension (a sweep's or a report card's default name).
std::string stem_of(const std::string& path);
// Parses and validates a sweep file (errors are ConfigError naming the key).
SweepSpec load_sweep(const std::string& path);
// The same from a parsed document; `path` names it in messages, gives the default name
// (its stem) and the directory a relative `base` is also tried against.
SweepSpec parse_sweep(const YAML::Node& root, const std::string& path);
// "a:b:step" -> the values a, a+step, ..., up to b inclusive (to within 1e-9 step).
std::vector<std::string> expand_range(const std::string& key, const std::string& range);
// Every point of the sweep, each configuration validated; ordered by series, load, seed.
std::vector<SweepPoint> expand_sweep(const SweepSpec& spec);
// The warnings of the keys given that no point of the sweep reads (config_schema.h,
// inert_keys): once per sweep, not per point, and only for a key inert everywhere (a base
// file's key read by some routings of a routing axis is not).
std::vector<std::string> sweep_inert_warnings(const std::vector<SweepPoint>& pts);
// 64-bit FNV-1a of the configuration's canonical JSON, as 16 hex digits.
std::string config_hash(const nlohmann::json& config);

// What a sweep still needs from its database (SweepOptions::plan). A work unit is a point
// (its hash), or a whole series (its name) when the series is adaptive, i.e. under
// saturation_search or stop_after_saturation with a load axis: its next load depends on the
// results before it, so it runs in one place (one Slurm task).
struct SweepPlan {
  bool by_series = false;
  size_t units = 0;                  // units of the sweep (after any only_units filter)
  std::vector<std::string> missing;  // units still to run, in sweep order
  // Series units: the hashes of the points already stored that the series' run replays
  // (a Slurm task gets them in its shard, so it resumes the series instead of redoing it).
  std::map<std::string, std::vector<std::string>> stored;
  size_t points_stored = 0;  // points of the sweep found in the database
  std::vector<std::pair<std::string, std::string>> failed;  // (point label, error) recorded as failed
};

struct SweepOptions {
  std::string db_path;
  int jobs = 1;
  bool retry_failed = false;  // re-run points recorded with status 'error'
  int revision = 0;           // the sweep's revision in the database (run_sweep sets it)
  bool dry_run = false;       // list the points, run nothing
  bool progress_bar = false;  // redraw one status line (terminal) vs a line per point
  bool summary = true;        // print (and store) the saturation summary at the end
  SweepPlan* plan = nullptr;  // set: run nothing, print nothing, fill *plan from the database
  const std::set<std::string>* only_units = nullptr;  // set: only these units (a Slurm task)
  int ranks = 1;                     // MPI ranks per point: each runs as `mpirun... -n ranks scfly run`
  std::vector<std::string> mpirun;   // with ranks > 1: the launcher command and its arguments, before -n
};

// Runs the sweep; returns the exit code (0 all ok, 3 some point of the sweep failed, now or
// in an earlier run (a point recorded as failed is reported, not run again, unless
// retry_failed), 2 bad input, 130 interrupted). The run records into the sweep's revision:
// the latest when the sweep's definition (sweep_definition) is unchanged, else a new one
// (ResultsDb::use_revision), and says so.
int run_sweep(const SweepSpec& spec, const SweepOptions& opt);

// A sweep's definition for revisions: the hash of its points' configuration hashes (for a
// saturation search, of its series' templates) and of the settings that choose which points
// run (saturation_search; stop_after_saturation with its criteria).
std::string sweep_definition(const SweepSpec& spec, const std::vector<SweepPoint>& pts);
// Records the sweep's revision in database `db_path` (see run_sweep) and prints a notice
// when it is new and an earlier one exists. Returns the revision (DbError on failure).
int record_revision(const SweepSpec& spec, const std::vector<SweepPoint>& pts, const std::string& db_path);

// Recomputes and prints the saturation table of a finished sweep (also written to the
// database's `saturation` table).
nlohmann::json saturation_table(const SweepSpec& spec, const std::vector<SweepPoint>& points,
                                const std::string& db_path);

}  // namespace scfly
