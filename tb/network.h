// The whole simulated network: topology, switches, NICs, links bound by TLM sockets,
// statistics and watchdog. A Network is an sc_module like any other: it can be a sub-module
// of a user's design, and it never calls sc_start or sc_stop. Whoever owns time (scfly's
// run driver, sc_main/run_driver.h, or a user's sc_main) runs the simulation and asks the
// network for its outcome. One Network per process: SystemC elaborates once.
//
// A fatal model error halts the network (its blocks stop running) and is reported through
// SystemC's report handler (message type kReportType, sim_context.h); failed() and error()
// say so afterwards. The constructor sets that type's SC_ERROR actions to display + log +
// cache: set others after constructing the network to change them.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <stdexcept>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <systemc>

#include "rtl_models/switch/fault_spec.h"
#include "rtl_models/switch/switch.h"
#include "tb/sim_config.h"
#include "tb/memory.h"
#include "tb/nic.h"
#include "tb/stats.h"
#include "tb/ranks.h"
#include "tb/traffic.h"
#include "tb/vcd_writer.h"
#include "tb/worker_pool.h"
#include "topologies/dragonfly.h"
#include "topologies/torus.h"

namespace scfly {

struct TraceRequest {
  std::string path;            // empty = no VCD
  std::vector<int> switches;   // switch ids to trace
  uint64_t from = 0, to = UINT64_MAX;
  FaultSpec fault;             // a fault injected on one channel (`--fault`), none by default
  uint64_t shuffle_construction = 0;  // != 0: build switches and NICs in an order shuffled by this seed
  std::string packet_trace;    // --packet-trace: CSV of delivered packets (tb/packet_trace.h), empty = none
  // Nodes whose host is a TLM endpoint (tb/tlm_endpoint.h) instead of the built-in traffic
  // source, and each one's limit of packets queued at its NIC (0: unbounded). With any, the
  // network runs on the SystemC kernel.
  std::vector<int> endpoints;
  uint32_t endpoint_capacity = 0;
  // Ranks (tb/ranks.h): this process simulates one part of the network, the others the
  // rest; null or one rank = the whole network here. Needs the block scheduler.
  Ranks* ranks = nullptr;
  // `scfly run --profile`: time the block scheduler's windows (WindowProfile). Costs two clock
  // reads per group and window; results unchanged.
  bool profile = false;
};

// Where the block scheduler's wall time went (TraceRequest::profile; this rank's, on ranks).
// A window is m_block cycles of every group (a switch with its hosts' NICs). Per window: the
// groups' work (each group's run time, summed over the threads), the busiest thread's part of
// it (the window's critical path) and the largest single group's, which no split of the
// groups can beat. From the per-window work and largest group, work_bound_s[P] is
// sum over windows of max(work / P, largest group): the work's time on P cores with the groups
// spread perfectly and no synchronization, the floor of a projection to P cores.
struct WindowProfile {
  bool asked = false;  // --profile given
  bool on = false;     // ... and the block scheduler runs the network
  uint64_t windows = 0;
  double wall_s = 0;       // in the scheduler's window method (the windows' whole cost)
  double work_s = 0;       // sum of the groups' run time, every thread
  double busiest_s = 0;    // sum over windows of the busiest thread's work
  double largest_s = 0;    // sum over windows of the largest group's work
  double exchange_s = 0;   // sum over windows of the rank exchange (its wait for the other ranks included)
  uint64_t exchange_bytes = 0;  // sent to the other ranks
  int threads = 1, ranks = 1;
  std::vector<std::pair<int, double>> work_bound_s;  // (cores P, seconds) for P = 1, 2, 4, ..., 64
};

struct RunOutcome {
  Metrics metrics;
  std::string error;         // watchdog report or invariant violation; empty if none
  bool drained = false;      // drain requested and everything delivered
  bool conservation_ok = true;
  std::string conservation;  // the conservation equation with its numbers
  TimeSeries timeseries;     // bin_cycles 0 when not requested
  uint64_t cycles = 0;
  // How the run was driven: "blocks of N cycles" (the block scheduler) or "kernel (why)".
  std::string scheduler;
  double sim_wall_s = 0;     // wall time of the simulation proper (no elaboration)
  double router_cycles_per_s = 0;
  MemoryEstimate memory;   // what the network was estimated to need (tb/memory.h)
  WindowProfile profile;   // `--profile`: where the block scheduler's time went
  uint64_t peak_rss = 0;   // the process's peak resident set at the run's end, bytes
  // A fault injected on one channel (TraceRequest::fault; kind None without one) and the
  // events it injected so far (rtl_models/switch/fault_link.h says what one event is).
  FaultSpec fault;
  uint64_t fault_injected = 0;
};

// Why the fault `f` cannot apply to the configuration `cfg` on `topo`, or "" when it can:
// its channel is not a switch-to-switch link, its VC is not one of the port's, or its kind
// acts on something this network never carries on that VC (credits under PFC, PAUSE frames
// under credits, the Dragonfly header's "global hop taken" bit on a torus or mesh, a body
// phit where every packet or frame is one phit long). The message names --fault, the value
// and what is allowed. The Network constructor throws std::invalid_argument with it; `scfly
// run` asks first and exits 2. Whether the fault's cycle falls within the run is the
// run's own question (sc_main/main.cpp).
std::string fault_problem(const SimConfig& cfg, const Topology& topo, const FaultSpec& f);

class FaultLink;
class PacketTrace;
class TlmEndpoint;
class MessageTable;

// The network would exceed sim.max_memory (tb/memory.h): thrown while it is being built,
// before most of it is allocated.
class MemoryLimitError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

class Network : public sc_core::sc_module {
 public:
  Network(sc_core::sc_module_name name, const SimConfig& cfg, const TraceRequest& trace = {});
  ~Network() override;

  // The first `n` switches and NICs as SystemC holds them (creation order, which is the
  // order their processes are first evaluated in): shows `--shuffle-construction` at work.
  std::vector<std::string> construction_order(size_t n) const;
  // The block scheduler never runs a block past this cycle (exclusive). Whoever calls
  // sc_start sets it to where that call ends, so that every observer sees each cycle's end
  // state at that cycle (run_driver.h); unset, blocks run ahead of SystemC time by up to a
  // block (at most the shortest switch-to-switch latency).
  void set_horizon(uint64_t cycle) { m_horizon = cycle; }
  bool failed() const { return m_ctx.failed(); }
  // Phits sent on any link so far (every thread's blocks; this rank's only).
  uint64_t phit_moves() const;
  // The ranks the network is simulated on (1 without TraceRequest::ranks) and this one.
  int ranks() const { return m_nranks; }
  int rank() const { return m_rank; }
  // Rank 0's `v` on every rank (v with one rank; collective with ranks): what a host decides
  // from wall time (how far to advance) must be the same on every rank.
  uint64_t rank0_value(uint64_t v);
  // The threads the block scheduler runs the groups on (sim.threads resolved: 1 on the
  // kernel scheduler).
  int threads() const { return m_threads; }
  const std::string& error() const { return m_ctx.error; }
  // Stops every NIC's packet generation at cycle `end` (the drain).
  void stop_generation(uint64_t end);
  // Packets in the network or queued at their sources (on every rank: collective with ranks).
  uint64_t packets_pending();
  // The run's results as of now: metrics of the measurement window, time series, the
  // conservation check, the first error (a model error, else a broken credit balance:
  // credit_balance()). `sim_wall_s` and `drained` are the driver's. With ranks it is
  // collective, and rank 0's outcome is the whole network's (the other ranks' hold their
  // own part's counts only).
  RunOutcome outcome(double sim_wall_s, bool drained);
  // Every switch-to-switch channel's credit balance, per VC (network.cpp says where it
  // applies): empty if it holds, else the first channel and VC where it does not. With
  // ranks it is collective: each rank checks the channels into its switches, those from
  // another rank's with that rank's side of them.
  std::string credit_balance() const;
  // What credit_balance() sends, with ranks, to the rank of a channel's receiving switch:
  // the sending switch and output port, the VC, its credits (landed or taken ahead, and on
  // their way back), the receiver's buffer they count, and the sender's last cycle.
  struct ChannelSenderSide {
    uint32_t sw;
    uint16_t port, vc;
    int64_t credits, cap;
    uint64_t last_run;
  };
  // The block scheduler's block length in cycles, 0 when every block is a SystemC process
  // (sim.scheduler: kernel, or a run that needs it: scheduler_note() says why).
  uint64_t block_cycles() const { return m_blocks ? m_block : 0; }
  std::string scheduler_note() const;

  const Topology& topology() const { return *m_topo; }
  // What the network was estimated to need as it was built (tb/memory.h).
  const MemoryEstimate& memory_estimate() const { return m_mem; }
  // The TLM endpoint of `node` (one of TraceRequest::endpoints; std::out_of_range otherwise):
  // bind its sockets to the user's model before the simulation starts.
  TlmEndpoint& endpoint(int node);
  // Switch i (with ranks: one of this rank's; std::out_of_range for another rank's).
  Switch& switch_at(int i) {
    if (!m_switches.at(static_cast<size_t>(i))) throw std::out_of_range("switch " + std::to_string(i) + " is another rank's");
    return *m_switches[static_cast<size_t>(i)];
  }
  const SimContext& context() const { return m_ctx; }
  uint64_t cycle() const { return sc_core::sc_time_stamp().value() / m_period.value(); }
  // The network clock's period (one cycle).
  const sc_core::sc_time& period() const { return m_period; }

  // A per-switch quantity sampled at the end of every time-series bin (with
  // timeseries.per_switch). Mechanisms publish their state here (e.g. a level or a
  // probability); `sample(switch id)` must only read state.
  void publish_switch_series(const std::string& name, std::function<double(int)> sample);

 private:
  void watchdog();
  void commit_view();  // ugal_g.view block on the kernel
  bool m_view_blocks = false;  // ugal_g.view block: UGAL-G's view committed every B cycles
  bool watchdog_check();  // false (and the run failed) if the network is stuck
  // The block scheduler (sim.scheduler: blocks). Nothing a switch sends in cycle t reaches
  // another switch before t + m_block (the shortest switch-to-switch link latency); a NIC
  // talks to its own switch only. So within a block of cycles [c, c + m_block) every group
  // (a switch and its hosts' NICs) depends only on what was sent before c: run_blocks runs
  // the groups one after another, each through the whole block cycle by cycle (switch,
  // then its NICs, each in the cycles its next_run() asks for) while its state is in the
  // cache. The same argument makes SystemC's order within a cycle irrelevant in kernel
  // mode. Blocks end at the current advance()'s end, at the watchdog's checks and at the
  // per-switch series' bin ends, so every observer sees the state at the same cycle's end
  // as in kernel mode.
  //
  // Threads (sim.threads > 1): the groups are split into kShardsPerThread contiguous shards
  // per thread (Dragonfly groups of switches stay together, so mostly global links cross),
  // each with its own SimContext and NetStats shard, and the threads run the window's
  // shards at once, each taking the next shard left until none is. A message sent over a channel into another shard's
  // group waits in an Outbox (rtl_models/switch/link.h) and is filed by the receiving
  // shard once every shard has finished the window; none of them lands before. Results
  // are identical for every number of threads: every shard's sums are integers added up in
  // shard order, and the first error is the lowest shard's (the lowest group's).
  void run_blocks();
  void run_window();  // run_blocks' window, timed by run_blocks under --profile
  void end_window_profile();
  void run_group(size_t g, uint64_t from, uint64_t to, SimContext& ctx);
  static void run_shards(void* self, int thread);
  static void flush_shards(void* self, int thread);
  SimContext& shard_ctx(int t) { return t == 0 ? m_ctx : *m_shard_ctx[static_cast<size_t>(t - 1)]; }
  const SimContext& shard_ctx(int t) const { return t == 0 ? m_ctx : *m_shard_ctx[static_cast<size_t>(t - 1)]; }
  NetStats& shard_stats(int t) { return t == 0 ? m_stats : *m_shard_stats[static_cast<size_t>(t - 1)]; }
  // Every shard's statistics added up (m_stats alone with one thread).
  NetStats all_stats() const;
  uint64_t in_network() const;
  uint64_t control_in_flight() const;
  // Ranks: what this rank's shards sent over the channels into other ranks' switches goes
  // to them, what they sent into this rank's is filed, and every rank learns whether any
  // failed in the window (the lowest failing rank's error becomes every rank's). Returns
  // false if one did.
  bool exchange_ranks();
  // The sum over the ranks of `v` (v itself with one rank).
  std::vector<uint64_t> rank_sum(std::vector<uint64_t> v) const;
  void sample_switch_series();
  std::string dump_buffers(size_t max_lines) const;
  uint64_t queued() const;

  SimConfig m_cfg;
  MemoryEstimate m_mem;
  std::unique_ptr<Topology> m_topo;
  const Dragonfly* m_dfly;  // m_topo when it is a Dragonfly, else null
  RoutingUnit m_routing;
  std::vector<std::unique_ptr<LinkTerminator>> m_terminators;  // unconnected mesh ports
  std::vector<std::unique_ptr<LinkTerminator>> m_remote_ends;  // ranks: channels to another rank's switches
  std::unique_ptr<FaultLink> m_fault;                          // --fault: the faulty channel
  std::vector<std::unique_ptr<TrafficPattern>> m_patterns;  // one per traffic phase
  sc_core::sc_time m_period;
  sc_core::sc_clock m_clk;  // the network clock; active blocks run on its rising edge
  SimContext m_ctx;
  std::unique_ptr<NetworkLoad> m_net_load;   // UGAL-G
  std::unique_ptr<SatFlagTable> m_sat_flags; // PB, PB-ACOR
  std::unique_ptr<SelectionBlocks> m_rtl_select;  // --rtl ugal
  std::unique_ptr<MinHopBlock> m_rtl_min_route;   // --rtl min_route
  std::unique_ptr<QuadrantBlock> m_rtl_quadrant;  // --rtl quadrant
  // ... the same blocks of shards 1 .. m_shards - 1 (shard 0 uses the three above).
  std::vector<std::unique_ptr<MinHopBlock>> m_rtl_shard_min_route;
  std::vector<std::unique_ptr<QuadrantBlock>> m_rtl_shard_quadrant;
  std::vector<std::unique_ptr<SelectionBlocks>> m_rtl_shard_select;
  NetStats m_stats;
  std::vector<std::unique_ptr<Switch>> m_switches;
  std::vector<std::unique_ptr<Nic>> m_nics;
  std::unique_ptr<VcdWriter> m_vcd;
  // --vcd on the block scheduler: each switch's variables in the writer ([first, last); empty
  // if untraced), per group, each group's changes in the window, and the window's merged.
  std::vector<std::pair<size_t, size_t>> m_vcd_range, m_group_vcd;
  std::vector<std::vector<VcdWriter::Change>> m_vcd_log;
  std::vector<VcdWriter::Change> m_vcd_window;
  void end_vcd_window(uint64_t e);
  void run_group_traced(size_t g, uint64_t from, uint64_t to, SimContext& ctx);
  std::unique_ptr<PacketTrace> m_packet_trace;
  // The block scheduler's shards 1.. collect their packet-trace rows here (shard 0 in
  // m_packet_trace itself); end_trace_window merges them at each window's end.
  std::vector<std::unique_ptr<PacketTrace>> m_shard_trace;
  void end_trace_window();
  std::unique_ptr<MessageTable> m_messages;
  std::map<int, std::unique_ptr<TlmEndpoint>> m_endpoints;
  uint64_t m_watch_last = UINT64_MAX;
  bool m_blocks = false;
  uint64_t m_block = 1;
  // Ranks: the communicator, this rank, their number, each switch's rank, and per (local
  // shard, rank) the outbox of what the shard sent into that rank's switches in the current
  // window. Another rank's switches and NICs are not built here: a channel into one ends
  // in a stand-in (m_remote_ends) whose ends file nothing and send everything to that rank.
  // A channel crossing ranks is named by its receiving end's switch and port (forward) or
  // its sending end's (credits back): m_cross_id. The packet a head brings
  // from another rank is copied into this rank's pool; m_remote_pkt maps (channel, VC) to
  // that copy until its tail. m_exported_open: heads sent to other ranks whose tails are
  // not yet (those packets are alive in both ranks' pools).
  Ranks* m_ranks = nullptr;
  int m_rank = 0, m_nranks = 1;
  std::vector<int> m_rank_of;
  std::vector<Outbox> m_rank_box;
  std::unordered_map<const void*, uint32_t> m_cross_id;
  std::unordered_map<uint64_t, PacketId> m_remote_pkt;
  std::vector<int> m_shard_of;  // each switch's local shard (owned switches)
  int64_t m_exported_open = 0;
  uint64_t m_horizon = UINT64_MAX;  // set_horizon
  std::string m_kernel_why;  // why the kernel drives the run (m_blocks false)
  // Group g: switch m_group_sw[g] and the NICs m_group_nics[m_group_first[g] ..
  // m_group_first[g + 1]).
  std::vector<Switch*> m_group_sw;
  std::vector<Nic*> m_group_nics;
  std::vector<size_t> m_group_first;
  // Threads: shard t runs groups [m_shard_first[t], m_shard_first[t + 1]) with context
  // shard_ctx(t); m_outbox[from * m_shards + to] holds what shard `from` sent into
  // shard `to` in the current window. A thread takes the next shard not yet taken
  // (m_next_shard) until none is left.
  static constexpr int kShardsPerThread = 4;
  int m_threads = 1;
  int m_shards = 1;
  std::atomic<int> m_next_shard{0};
  std::vector<size_t> m_shard_first;
  std::vector<std::unique_ptr<SimContext>> m_shard_ctx;   // shards 1 .. m_shards - 1
  std::vector<std::unique_ptr<NetStats>> m_shard_stats;   // the same
  std::vector<Outbox> m_outbox;
  std::unique_ptr<WorkerPool> m_workers;
  uint64_t m_win_from = 0, m_win_to = 0;  // the window being run
  // --profile (WindowProfile): each thread's work and largest group in the current window
  // (a cache line each: every thread writes its own), and per window the work and the
  // largest group, for the work bound at the end.
  struct alignas(64) ThreadTime {
    double work = 0, largest = 0;
  };
  std::vector<ThreadTime> m_thread_time;
  WindowProfile m_prof;
  std::vector<float> m_win_work, m_win_largest;
  struct SwitchSeries {
    std::string name;
    std::function<double(int)> sample;
  };
  std::vector<SwitchSeries> m_series;
  std::map<std::string, std::vector<std::vector<double>>> m_series_data;  // [bin][switch]
  sc_core::sc_event m_sample_ev;
};

}  // namespace scfly
