// State shared by every block of one simulated network: the packet pool, a counter of phit
// movements (the watchdog's progress signal) and the first fatal error.
//
// Threads (sim.threads, tb/network.h): each thread's blocks get a shard of their own, made
// by the shard constructor: a shard of the packet pool (the same packets) and its own
// counters, sums and error, which the network adds up (in shard order) after the run and
// at each block window's end. A shard defers its error's report to the network, which
// reports the first one (lowest shard) from the SystemC thread.
//
// A fatal model error (an invariant violated, the watchdog) is recorded in `error` and
// reported once through SystemC's report handler as an SC_ERROR of message type
// kReportType. The model never stops the simulation itself: after the error its blocks
// stop running (the network halts), and what happens to the host's simulation is the
// report's actions, which the host chooses (Network's constructor sets log + cache, never
// throw or stop; scfly's own run driver adds SC_STOP, sc_main/run_driver.h).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <systemc>

#include "rtl_models/switch/flit.h"
#include "routing_units/congestion.h"

namespace scfly {

// The SystemC message type of the model's fatal errors.
inline constexpr const char* kReportType = "scfly";

class SelectionBlocks;
class MinHopBlock;
class QuadrantBlock;
class PacketTrace;
class MessageTable;

struct SimContext {
  SimContext() = default;
  // A shard of `main` for another thread's blocks: main's pool shared, its pointers and
  // measurement window copied, every counter starting at zero.
  explicit SimContext(SimContext& main)
      : pool(main.pool),
        res_from(main.res_from),
        res_to(main.res_to),
        net_load(main.net_load),
        sat_flags(main.sat_flags),
        rtl_select(main.rtl_select),
        rtl_min_hop(main.rtl_min_hop),
        rtl_quadrant(main.rtl_quadrant),
        packet_trace(main.packet_trace),
        messages(main.messages),
        defer_report(true) {}
  SimContext(const SimContext&) = delete;
  SimContext& operator=(const SimContext&) = delete;

  PacketPool pool;
  uint64_t phit_moves = 0;  // every phit sent on any link
  // Control frames (TrafficClass::Control), counted apart from data.
  struct ControlStats {
    uint64_t originated = 0, intercepted = 0;
    uint64_t latency_sum = 0, latency_max = 0;  // origination to interception, cycles
    uint64_t in_flight() const { return originated - intercepted; }
  } control;
  // Event totals a mechanism keeps over the whole run (e.g. qcn_cnms_sent), by name; units
  // hold references (std::map never moves its elements). Reported as `counters`.
  std::map<std::string, uint64_t> counters;
  // Switch residence of data packets (head landing to head leaving, summed per class of the
  // input port it landed on), over head departures in [res_from, res_to): the network sets
  // the measurement window. Reported per measured packet (Metrics::class_residence_avg).
  uint64_t res_from = UINT64_MAX, res_to = 0;
  uint64_t residence[kMaxPortClasses] = {};
  bool in_res_window(uint64_t now) const { return now - res_from < res_to - res_from; }
  std::string error;        // first fatal error; the run stops
  // Shared congestion observations of source-adaptive routing (null when unused):
  // every switch's port occupancy one cycle old (UGAL-G), Piggyback's group flags.
  NetworkLoad* net_load = nullptr;
  SatFlagTable* sat_flags = nullptr;
  // Co-simulated UGAL selector (--rtl ugal), shared by all switches; null = C++.
  const SelectionBlocks* rtl_select = nullptr;
  // Co-simulated routing blocks (--rtl min_route, --rtl quadrant), shared by all switches,
  // which hand them to their routing unit in its RouteContext; null = C++.
  const MinHopBlock* rtl_min_hop = nullptr;
  const QuadrantBlock* rtl_quadrant = nullptr;
  // --packet-trace: every NIC reports its delivered packets here; null = no trace.
  PacketTrace* packet_trace = nullptr;
  // TLM endpoints (tb/tlm_endpoint.h): the messages their packets carry; null = none.
  MessageTable* messages = nullptr;
  // A shard (or the main context while threads run) records its error only; the network
  // reports it from the SystemC thread (report_error).
  bool defer_report = false;
  bool failed() const { return !error.empty(); }
  // Records the first fatal error and reports it (the later ones add nothing).
  void fail(const std::string& what) {
    if (!error.empty()) return;
    error = what;
    if (!defer_report) SC_REPORT_ERROR(kReportType, what.c_str());
  }
  // Reports `what` as this context's error, replacing a deferred one (the network, after a
  // block window in which a thread's blocks failed).
  void report_error(const std::string& what) {
    error = what;
    SC_REPORT_ERROR(kReportType, what.c_str());
  }
};

}  // namespace scfly
