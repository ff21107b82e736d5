// The run configuration as typed structs: one per area (topology, routing, switch, traffic,
// time series), the aggregate SimConfig the network builder takes. Parsed and validated at
// the edge (sc_main/config.h); nothing in the simulator reads YAML or string keys. The
// structs of a layer live in that layer (DragonflyShape in topologies/, RoutingParams in
// routing_units/, SwitchParams in rtl_models/switch/, TrafficSpec and this aggregate in tb/),
// so imports run downward: the CLI parses into them, the builder reads them.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "rtl_models/switch/switch.h"
#include "routing_units/routing.h"
#include "tb/traffic.h"
#include "topologies/dragonfly.h"
#include "topologies/registry.h"
#include "topologies/torus.h"

namespace scfly {


// A traffic phase: from cycle `start` on, sources generate `pattern` at `load`
// (phits/node/cycle; 0 = silent). Phases model transients (e.g. UN, then ADV+1).
struct TrafficPhase {
  uint64_t start = 0;
  TrafficSpec traffic;
  double load = 0.1;
};

// sim.scheduler: how the blocks are run. Blocks: the network's block scheduler runs each
// switch with its hosts' NICs for several cycles at a time (tb/network.h), where nothing
// needs one-cycle visibility across switches; Kernel: every switch and NIC is a SystemC
// process clocked each cycle. Results are identical.
enum class Scheduler { Blocks, Kernel };

// ugal_g.view: UGAL-G's view of every queue, one cycle old (Exact, on the SystemC kernel) or
// as of the end of the cycle before the current block of B cycles (Block; tb/network.h).
enum class UgalGView { Exact, Block };

// source.when_full: what a node's source does with a packet generated while the switch's
// injection buffer has no room for it. Queue: it waits in the unbounded source queue (the
// offered load is generated whatever the network accepts). Skip: it is never created, as in
// FOGSim (whose hosts stop generating while their injection queue is full), so the
// generated load falls to what the network accepts and latency has no source-queue wait.
enum class SourceWhenFull { Queue, Skip };

// source.injection_vc: the injection VC a packet takes. RoundRobin: the oldest queued packet
// starts on the next VC (round-robin) with room for it. Dest: VC floor(dst * V / N) (V
// injection VCs, N nodes), fixed when the packet is generated; each VC has its own queue at
// the node and a port starts the oldest packet among the queues whose VC has room (FOGSim's
// VcInjectionPolicy=DEST, its default).
enum class InjectionVc { RoundRobin, Dest };

// Time series in fixed bins over the whole run (warm-up included). bin_cycles 0 = off.
struct TimeseriesConfig {
  uint64_t bin_cycles = 0;
  bool per_switch = false;  // also sample per-switch series (buffered phits, published state)
};

struct SimConfig {
  TopologyKind topo_kind = TopologyKind::Dragonfly;
  DragonflyShape topology;  // topo_kind Dragonfly
  TorusShape torus;         // topo_kind Torus or Mesh (torus.mesh says which)
  TopologyKeyValues topo_plugin;  // a plug-in topology's keys and "p" (topologies/registry.h)
  RoutingAlgo routing = RoutingAlgo::Min;
  RoutingParams routing_prm;  // val.* and acor.* options
  TrafficSpec traffic;
  double load = 0.1;  // offered, phits/node/cycle
  uint64_t seed = 1;
  uint64_t warmup_cycles = 2000;
  uint64_t measure_cycles = 10000;
  bool drain = false;                       // after the window: stop sources, deliver all
  uint64_t drain_timeout_cycles = 1000000;  // give up draining after this many cycles
  uint64_t watchdog_cycles = 20000;         // no phit moved this long with packets inside
  int packet_phits = 8;
  int phit_bytes = 25;     // for buffer sizes given in bytes (25 B = 200 Gb/s at 1 GHz)
  double clock_ghz = 1.0;  // network clock; 1 cycle = 1/clock_ghz ns
  // sim.max_memory: the network's estimated bytes may not exceed this, MiB (0: the memory
  // the machine has available when the run starts; tb/memory.h).
  uint64_t max_memory_mib = 0;
  SwitchParams sw;         // vcs/in_buf/out_buf/latency indexed by PortClass
  // The traffic phases in force; always at least one, the first starting at cycle 0.
  // Without a `phases` key this is {0, traffic, load}; `phases_given` says which.
  std::vector<TrafficPhase> phases;
  bool phases_given = false;
  // rtl_switches (--rtl-switches): the switches whose RTL blocks (`rtl`) are co-simulated,
  // ascending; empty = every switch. The others run the C++ units.
  std::vector<int> rtl_switches;
  TimeseriesConfig timeseries;
  Scheduler scheduler = Scheduler::Blocks;
  UgalGView ugal_g_view = UgalGView::Exact;
  // sim.threads: threads of the block scheduler (tb/network.h); 0 = as many as the cores
  // available to the process, fewer for short windows of few switches (resolve_threads).
  int threads = 0;
  SourceWhenFull source_when_full = SourceWhenFull::Queue;
  InjectionVc injection_vc = InjectionVc::RoundRobin;
};

// The block scheduler's threads for `cfg.threads` on a network of `switches` switches whose
// block windows are `window` cycles long: the value itself when not 0, else the cores
// available to this process (available_cores), at most one thread per kMinWindowWork
// switch-cycles of a window (a shorter window's work does not pay for the barrier), and at
// least 1; never more than the switches.
inline constexpr uint64_t kMinWindowWork = 512;
int resolve_threads(int threads, int switches, uint64_t window);
// The cores this process may use: its CPU affinity, or fewer if SCFLY_CORES says so.
int available_cores();

// The configured topology, built (throws std::invalid_argument on a bad shape).
std::unique_ptr<Topology> make_topology(const SimConfig& c);

// Offered load averaged over cycles [from, to) under the phases, phits/node/cycle.
double mean_offered_load(const SimConfig& c, uint64_t from, uint64_t to);
}  // namespace scfly
