// Network statistics. Packets are counted when their tail reaches the sink; the
// measurement window [warmup, warmup + measure) selects which deliveries count toward
// throughput and latency (FOGSim convention: packets received during the window).
// Integer accumulators only, so results do not depend on process evaluation order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "rtl_models/switch/flit.h"

namespace scfly {

struct Metrics {
  double offered_load = 0;        // configured, phits/node/cycle
  double generated_load = 0;      // measured generation in the window, phits/node/cycle
  double accepted_load = 0;       // phits/node/cycle
  double accepted_packets = 0;    // packets/node/cycle
  // Total latency: generation (entering the source queue) to tail delivery, cycles.
  double latency_avg = 0, latency_p50 = 0, latency_p99 = 0, latency_max = 0;
  // Network latency: head leaving the NIC to tail delivery, cycles.
  double network_latency_avg = 0, network_latency_p50 = 0, network_latency_p99 = 0,
         network_latency_max = 0;
  double hops_avg = 0;
  // Fraction of measured packets by switch-to-switch hop count (index = hops; the last
  // entry, kMaxHopBins - 1, also counts longer paths); trailing zeros dropped.
  static constexpr int kMaxHopBins = 64;
  std::vector<double> hops_histogram;
  // Hops per port class the topology names (Dragonfly: local, global), by class name.
  std::vector<std::pair<std::string, double>> class_hops_avg;
  // Switch residence per measured packet, by the class of the input port it landed on
  // (every class, the host one too: the source switch, entered from the injection link):
  // head landing to head leaving, summed over the head departures in the window and
  // divided by the packets delivered in it. FOGSim's "Average Local/Global Contention" per
  // input class; its "Average Inj Latency" is the host entry plus generation to landing.
  std::vector<std::pair<std::string, double>> class_residence_avg;
  double nonminimal_fraction = 0;
  // Fraction of measured packets per Phase-A policy, indexed by Misroute (misrouting.h):
  // min (no intermediate), local (restricted), crg-gr, crg-sw, rrg-gr, rrg-sw.
  double policy_fractions[6] = {0, 0, 0, 0, 0, 0};
  double jain_fairness = 0;                    // over per-source-switch accepted load
  double switch_accepted_min = 0, switch_accepted_max = 0;
  std::vector<double> switch_accepted;         // per source switch, phits/node/cycle
  uint64_t packets_measured = 0;
  uint64_t packets_generated = 0, packets_injected = 0, packets_delivered = 0;
  uint64_t packets_in_network = 0, packets_queued = 0;  // at the end of the run
  uint64_t cycles = 0;
  // Control frames (only when the network carries a control class): originated and
  // intercepted over the whole run, and their latency, origination to interception.
  bool has_control = false;
  uint64_t control_originated = 0, control_intercepted = 0;
  double control_latency_avg = 0, control_latency_max = 0;
  // Mechanism event totals over the whole run (SimContext::counters), e.g. qcn_cnms_sent.
  std::map<std::string, uint64_t> counters;
};

// Fixed-width time bins over the whole run [0, cycles): bin b covers
// [b*bin_cycles, min((b+1)*bin_cycles, cycles)). Averages of empty bins are NaN (JSON null).
struct TimeSeries {
  uint64_t bin_cycles = 0;  // 0 = no time series
  std::vector<uint64_t> t_start, t_end;
  std::vector<double> latency_avg;          // total latency of packets delivered in the bin
  std::vector<double> latency_inj_avg;      // total latency of packets generated in the bin
                                            // (only those delivered by the end of the run)
  std::vector<uint8_t> inj_complete;        // 1 if every packet generated in the bin was
                                            // delivered by the end (not exported)
  std::vector<double> network_latency_avg;  // of packets delivered in the bin
  std::vector<double> accepted_load;        // phits/node/cycle delivered in the bin
  std::vector<double> generated_load;       // phits/node/cycle generated in the bin
  std::vector<double> nonminimal_fraction;  // of packets delivered in the bin
  std::vector<uint64_t> packets;            // delivered in the bin
  // Per-switch series sampled at each bin's end: name -> [bin][switch].
  std::map<std::string, std::vector<std::vector<double>>> per_switch;
  // Reaction time to each phase change (reaction_times below; with phases only).
  std::vector<struct Reaction> reactions;
};

// Reaction time to a traffic phase change (QCN paper sec. 5.3.1: "from the traffic change
// to the moment in which average latency approximately converges to the new value").
// Series: latency by generation bin (latency_inj_avg). The new phase's steady latency is
// the mean over the second half of its bins, judging only bins whose packets were all
// delivered by the end of the run (inj_complete; otherwise the slow ones still in flight
// would bias them low), never the run's last bin, and only if at least half of that
// second half is complete (run transients with drain: true); the reaction ends at the start of the
// first bin after which every bin of the phase stays within +-tolerance of that mean (bins
// with no packet skipped). reaction_cycles < 0: the phase never settled, or has fewer than
// 4 bins to judge by.
struct Reaction {
  size_t phase = 0;            // index of the phase that starts
  uint64_t start = 0;          // its start cycle
  double steady_latency = 0;   // NaN when not measurable
  int64_t reaction_cycles = -1;
};
// `starts`: every phase's start cycle (the first is 0); `run_end`: cycles simulated.
std::vector<Reaction> reaction_times(const TimeSeries& ts, const std::vector<uint64_t>& starts, uint64_t run_end,
                                     double tolerance = 0.10);

class NetStats {
 public:
  // `class_names`: the topology's port classes (index = class id; class 0, the hosts, is
  // never a switch-to-switch hop).
  NetStats(int num_nodes, int nodes_per_switch, uint64_t window_start, uint64_t window_end,
           std::vector<std::string> class_names);

  bool in_window(uint64_t c) const { return c >= m_w0 && c < m_w1; }
  void generated(uint64_t at, int phits) {
    ++m_generated;
    if (in_window(at)) m_gen_phits += static_cast<uint64_t>(phits);
    if (m_bin_cycles) {
      Bin& b = bin(at);
      b.gen_phits += static_cast<uint64_t>(phits);
      ++b.gen_pkts;
    }
  }
  // Collect per-bin counters from now on (call before the run).
  void enable_timeseries(uint64_t bin_cycles) { m_bin_cycles = bin_cycles; }
  void injected() { ++m_injected; }
  void delivered(const Packet& p, uint64_t at);

  uint64_t generated_total() const { return m_generated; }
  uint64_t injected_total() const { return m_injected; }
  uint64_t delivered_total() const { return m_delivered; }
  uint64_t in_network() const { return m_injected - m_delivered; }

  // Adds another NetStats' counts (one per thread's NICs, sim.threads) to these: every
  // accumulator is an integer, so the sum is the same whatever the split.
  void merge(const NetStats& o);
  // Ranks (tb/ranks.h): every accumulator as a flat array, and another rank's array (of a
  // NetStats built with the same parameters) merged into these as merge() does.
  std::vector<uint64_t> pack() const;
  void merge_packed(const std::vector<uint64_t>& packed);

  Metrics compute(double offered_load) const;
  // The per-bin series over [0, cycles) (per_switch left empty for the caller).
  TimeSeries timeseries(uint64_t cycles) const;

 private:
  int m_nodes, m_per_switch;
  uint64_t m_w0, m_w1;
  uint64_t m_generated = 0, m_injected = 0, m_delivered = 0;
  uint64_t m_gen_phits = 0, m_phits = 0, m_pkts = 0;
  uint64_t m_hops = 0, m_nonmin = 0;
  uint64_t m_hop_hist[Metrics::kMaxHopBins] = {};
  std::vector<std::string> m_class_names;
  uint64_t m_class_hops[kMaxPortClasses] = {};
  uint64_t m_policy[6] = {0, 0, 0, 0, 0, 0};
  // Latencies of the window's packets as counts per value (cycles), so memory follows the
  // longest latency, not the number of packets; the mean and the nearest-rank
  // percentiles are exactly those of the list of values.
  struct LatencyCounts {
    std::vector<uint64_t> count;
    uint64_t n = 0, sum = 0;
    void add(uint64_t x) {
      if (x >= count.size()) count.resize(std::max<size_t>(static_cast<size_t>(x) + 1, 2 * count.size()));
      ++count[static_cast<size_t>(x)];
      ++n;
      sum += x;
    }
  };
  LatencyCounts m_lat, m_net_lat;
  std::vector<uint64_t> m_switch_phits;

  struct Bin {
    uint64_t pkts = 0, phits = 0, lat = 0, net_lat = 0, nonmin = 0;  // delivered in the bin
    uint64_t gen_phits = 0, gen_pkts = 0;                             // generated in the bin
    uint64_t gen_pkts_done = 0, gen_lat = 0;  // generated in the bin, delivered so far
  };
  Bin& bin(uint64_t cycle) {
    const size_t b = static_cast<size_t>(cycle / m_bin_cycles);
    if (b >= m_bins.size()) m_bins.resize(b + 1);
    return m_bins[b];
  }
  uint64_t m_bin_cycles = 0;
  std::vector<Bin> m_bins;
};

}  // namespace scfly
