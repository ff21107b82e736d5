// Deadlock freedom as part of config validation (issue 16 sec. 1): before a run, the
// configured network's channel dependency graph is built by the checker
// (sc_main/deadlock_check.h) from the routing units themselves, and a configuration that can
// deadlock is a configuration error (exit 2, the cycle printed), whatever the VC table says.
//
// Cached per shape: the verdict depends only on the keys that shape routes and VCs (the
// schema marks the others run_only: load, traffic, seed, windows, buffers, latencies, ...),
// so it is stored once per (shape, scfly build) in $SCFLY_CACHE_DIR (default
// $XDG_CACHE_HOME/scfly or ~/.cache/scfly) under deadlock/, and a sweep of a thousand points
// pays for one check. The build is part of the key: the git revision, and for a tree with
// uncommitted changes also the executable's size and modification time, so a rebuilt
// routing unit is never judged by an older verdict. An unwritable cache only costs time.
// The cache holds at most kDeadlockCacheEntries verdicts (a few hundred bytes to a few KB
// each): writing one more removes the least recently written.
//
// Budget: the check enumerates every routing state (switch, input, VC, header) and calls the
// unit over every draw and congestion view in each; networks beyond the budget (dfly(4,8,4)
// with Valiant-class and adaptive routings, the papers' dfly(6,12,6)) are not checked at run
// time (the verdict says so and is cached too). There the VC counts
// rest on the table (routing_units/routing.h required_vcs, torus_routing.h), which
// tests/test_deadlock.cpp holds equal to the checker's minimum on small shapes of every
// topology, and `scfly check-deadlock` on a smaller network of the same kind is the proof.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "tb/sim_config.h"

namespace scfly {

struct DeadlockValidation {
  std::string verdict;  // "acyclic", "duato", "too large" or "derouting" (CHAOS, not checked); a cycle or error throws
  uint64_t states = 0;  // routing states the check explored
  double seconds = 0;   // the check's time when it ran (0 from the cache)
  bool cached = false;  // the verdict came from the cache
  std::string summary() const;  // one line for the run summary
  nlohmann::json to_json() const;
};

// Checks the configuration (or reads its cached verdict). Throws ConfigError naming the
// cycle (or the routing error) when the configured network can deadlock.
// The budget bounds both the routing states (memory) and the unit calls (time: about
// 5 M calls a second), so a first run of a large network spends a few seconds at most.
constexpr uint64_t kRunTimeMaxStates = 2000000, kRunTimeMaxCalls = 15000000;
DeadlockValidation validate_deadlock(const SimConfig& c, uint64_t max_states = kRunTimeMaxStates,
                                     uint64_t max_calls = kRunTimeMaxCalls);

constexpr size_t kDeadlockCacheEntries = 512;

// The cache directory in use ("" when none can be found).
std::string deadlock_cache_dir();

}  // namespace scfly
