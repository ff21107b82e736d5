#include "tb/stats.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <stdexcept>

namespace scfly {

NetStats::NetStats(int num_nodes, int nodes_per_switch, uint64_t w0, uint64_t w1,
                   std::vector<std::string> class_names)
    : m_nodes(num_nodes),
      m_per_switch(nodes_per_switch),
      m_w0(w0),
      m_w1(w1),
      m_class_names(std::move(class_names)),
      m_switch_phits(static_cast<size_t>(num_nodes / nodes_per_switch), 0) {}

void NetStats::delivered(const Packet& p, uint64_t at) {
  ++m_delivered;
  if (m_bin_cycles) {
    Bin& d = bin(at);
    ++d.pkts;
    d.phits += p.phits;
    d.lat += at - p.gen_cycle;
    d.net_lat += at - p.inject_cycle;
    d.nonmin += p.route.nonminimal;
    Bin& g = bin(p.gen_cycle);
    ++g.gen_pkts_done;
    g.gen_lat += at - p.gen_cycle;
  }
  if (!in_window(at)) return;
  ++m_pkts;
  m_phits += p.phits;
  m_lat.add(at - p.gen_cycle);
  m_net_lat.add(at - p.inject_cycle);
  uint32_t hops = 0;
  for (size_t c = 1; c < m_class_names.size(); ++c) {
    m_class_hops[c] += p.class_hops[c];
    hops += p.class_hops[c];
  }
  m_hops += hops;
  ++m_hop_hist[std::min<uint32_t>(hops, Metrics::kMaxHopBins - 1)];
  m_nonmin += p.route.nonminimal;
  ++m_policy[p.route.policy < 6 ? p.route.policy : 0];
  m_switch_phits[static_cast<size_t>(p.src_node / m_per_switch)] += p.phits;
}

std::vector<uint64_t> NetStats::pack() const {
  std::vector<uint64_t> v{m_generated, m_injected, m_delivered, m_gen_phits, m_phits, m_pkts, m_hops, m_nonmin};
  v.insert(v.end(), std::begin(m_hop_hist), std::end(m_hop_hist));
  v.insert(v.end(), std::begin(m_class_hops), std::end(m_class_hops));
  v.insert(v.end(), std::begin(m_policy), std::end(m_policy));
  for (const LatencyCounts* l : {&m_lat, &m_net_lat}) {
    v.push_back(l->n);
    v.push_back(l->sum);
    v.push_back(l->count.size());
    v.insert(v.end(), l->count.begin(), l->count.end());
  }
  v.push_back(m_switch_phits.size());
  v.insert(v.end(), m_switch_phits.begin(), m_switch_phits.end());
  v.push_back(m_bins.size());
  for (const Bin& b : m_bins)
    v.insert(v.end(), {b.pkts, b.phits, b.lat, b.net_lat, b.nonmin, b.gen_phits, b.gen_pkts, b.gen_pkts_done, b.gen_lat});
  return v;
}

void NetStats::merge_packed(const std::vector<uint64_t>& packed) {
  NetStats o(m_nodes, m_per_switch, m_w0, m_w1, m_class_names);
  size_t i = 0;
  const auto next = [&]() -> uint64_t {
    if (i >= packed.size()) throw std::length_error("NetStats::merge_packed: the array ends early");
    return packed[i++];
  };
  for (uint64_t* f : {&o.m_generated, &o.m_injected, &o.m_delivered, &o.m_gen_phits, &o.m_phits, &o.m_pkts, &o.m_hops,
                      &o.m_nonmin})
    *f = next();
  for (uint64_t& x : o.m_hop_hist) x = next();
  for (uint64_t& x : o.m_class_hops) x = next();
  for (uint64_t& x : o.m_policy) x = next();
  for (LatencyCounts* l : {&o.m_lat, &o.m_net_lat}) {
    l->n = next();
    l->sum = next();
    l->count.resize(static_cast<size_t>(next()));
    for (uint64_t& x : l->count) x = next();
  }
  if (next() != o.m_switch_phits.size()) throw std::length_error("NetStats::merge_packed: another network's switches");
  for (uint64_t& x : o.m_switch_phits) x = next();
  o.m_bins.resize(static_cast<size_t>(next()));
  for (Bin& b : o.m_bins)
    for (uint64_t* f : {&b.pkts, &b.phits, &b.lat, &b.net_lat, &b.nonmin, &b.gen_phits, &b.gen_pkts, &b.gen_pkts_done,
                        &b.gen_lat})
      *f = next();
  if (i != packed.size()) throw std::length_error("NetStats::merge_packed: the array is longer than its fields");
  merge(o);
}

void NetStats::merge(const NetStats& o) {
  m_generated += o.m_generated;
  m_injected += o.m_injected;
  m_delivered += o.m_delivered;
  m_gen_phits += o.m_gen_phits;
  m_phits += o.m_phits;
  m_pkts += o.m_pkts;
  m_hops += o.m_hops;
  m_nonmin += o.m_nonmin;
  for (int i = 0; i < Metrics::kMaxHopBins; ++i) m_hop_hist[i] += o.m_hop_hist[i];
  for (int c = 0; c < kMaxPortClasses; ++c) m_class_hops[c] += o.m_class_hops[c];
  for (int i = 0; i < 6; ++i) m_policy[i] += o.m_policy[i];
  for (auto [mine, theirs] : {std::pair{&m_lat, &o.m_lat}, std::pair{&m_net_lat, &o.m_net_lat}}) {
    if (theirs->count.size() > mine->count.size()) mine->count.resize(theirs->count.size());
    for (size_t i = 0; i < theirs->count.size(); ++i) mine->count[i] += theirs->count[i];
    mine->n += theirs->n;
    mine->sum += theirs->sum;
  }
  for (size_t i = 0; i < m_switch_phits.size(); ++i) m_switch_phits[i] += o.m_switch_phits[i];
  if (o.m_bins.size() > m_bins.size()) m_bins.resize(o.m_bins.size());
  for (size_t b = 0; b < o.m_bins.size(); ++b) {
    Bin& d = m_bins[b];
    const Bin& s = o.m_bins[b];
    d.pkts += s.pkts;
    d.phits += s.phits;
    d.lat += s.lat;
    d.net_lat += s.net_lat;
    d.nonmin += s.nonmin;
    d.gen_phits += s.gen_phits;
    d.gen_pkts += s.gen_pkts;
    d.gen_pkts_done += s.gen_pkts_done;
    d.gen_lat += s.gen_lat;
  }
}

namespace {
struct Summary {
  double avg = 0, p50 = 0, p99 = 0, max = 0;
};
// Nearest-rank percentiles (the k-th smallest value, k = ceil(q n)), read off the counts.
template <typename Counts>
Summary summarize(const Counts& c) {
  Summary s;
  if (c.n == 0) return s;
  s.avg = static_cast<double>(c.sum) / static_cast<double>(c.n);
  auto rank = [&](double q) {
    size_t k = static_cast<size_t>(q * static_cast<double>(c.n) + 0.999999);
    k = std::min<size_t>(std::max<size_t>(k, 1), c.n) - 1;  // 0-based index into the sorted values
    uint64_t below = 0;
    for (size_t v = 0; v < c.count.size(); ++v) {
      below += c.count[v];
      if (below > k) return static_cast<double>(v);
    }
    return 0.0;  // unreachable: the counts add up to n
  };
  s.p50 = rank(0.50);
  s.p99 = rank(0.99);
  size_t top = c.count.size();
  while (top > 0 && c.count[top - 1] == 0) --top;
  s.max = static_cast<double>(top - 1);
  return s;
}
}  // namespace

Metrics NetStats::compute(double offered_load) const {
  Metrics m;
  const double window = static_cast<double>(m_w1 - m_w0);
  const double node_cycles = window * m_nodes;
  m.offered_load = offered_load;
  m.generated_load = static_cast<double>(m_gen_phits) / node_cycles;
  m.accepted_load = static_cast<double>(m_phits) / node_cycles;
  m.accepted_packets = static_cast<double>(m_pkts) / node_cycles;
  const Summary t = summarize(m_lat), n = summarize(m_net_lat);
  m.latency_avg = t.avg, m.latency_p50 = t.p50, m.latency_p99 = t.p99, m.latency_max = t.max;
  m.network_latency_avg = n.avg, m.network_latency_p50 = n.p50, m.network_latency_p99 = n.p99;
  m.network_latency_max = n.max;
  const double pk = m_pkts ? static_cast<double>(m_pkts) : 1.0;
  m.hops_avg = static_cast<double>(m_hops) / pk;
  int last = Metrics::kMaxHopBins - 1;
  while (last >= 0 && m_hop_hist[last] == 0) --last;
  for (int h = 0; h <= last; ++h) m.hops_histogram.push_back(static_cast<double>(m_hop_hist[h]) / pk);
  for (size_t c = 1; c < m_class_names.size(); ++c)
    m.class_hops_avg.emplace_back(m_class_names[c], static_cast<double>(m_class_hops[c]) / pk);
  m.nonminimal_fraction = static_cast<double>(m_nonmin) / pk;
  for (int k = 0; k < 6; ++k) m.policy_fractions[k] = static_cast<double>(m_policy[k]) / pk;
  double sum = 0, sq = 0;
  m.switch_accepted_min = 1e300;
  for (uint64_t ph : m_switch_phits) {
    const double x = static_cast<double>(ph) / (window * m_per_switch);
    m.switch_accepted.push_back(x);
    sum += x;
    sq += x * x;
    m.switch_accepted_min = std::min(m.switch_accepted_min, x);
    m.switch_accepted_max = std::max(m.switch_accepted_max, x);
  }
  m.jain_fairness = sq > 0 ? sum * sum / (static_cast<double>(m_switch_phits.size()) * sq) : 0;
  m.packets_measured = m_pkts;
  m.packets_generated = m_generated;
  m.packets_injected = m_injected;
  m.packets_delivered = m_delivered;
  m.packets_in_network = in_network();
  return m;
}

}  // namespace scfly

namespace scfly {

TimeSeries NetStats::timeseries(uint64_t cycles) const {
  TimeSeries ts;
  ts.bin_cycles = m_bin_cycles;
  if (!m_bin_cycles) return ts;
  const size_t nb = static_cast<size_t>((cycles + m_bin_cycles - 1) / m_bin_cycles);
  const double nan = std::nan("");
  auto ratio = [&](uint64_t num, uint64_t den) {
    return den ? static_cast<double>(num) / static_cast<double>(den) : nan;
  };
  for (size_t b = 0; b < nb; ++b) {
    const Bin z{};
    const Bin& x = b < m_bins.size() ? m_bins[b] : z;
    const uint64_t t0 = b * m_bin_cycles, t1 = std::min<uint64_t>(t0 + m_bin_cycles, cycles);
    const double node_cycles = static_cast<double>(t1 - t0) * m_nodes;
    ts.t_start.push_back(t0);
    ts.t_end.push_back(t1);
    ts.latency_avg.push_back(ratio(x.lat, x.pkts));
    ts.latency_inj_avg.push_back(ratio(x.gen_lat, x.gen_pkts_done));
    ts.inj_complete.push_back(x.gen_pkts_done == x.gen_pkts);
    ts.network_latency_avg.push_back(ratio(x.net_lat, x.pkts));
    ts.accepted_load.push_back(static_cast<double>(x.phits) / node_cycles);
    ts.generated_load.push_back(static_cast<double>(x.gen_phits) / node_cycles);
    ts.nonminimal_fraction.push_back(ratio(x.nonmin, x.pkts));
    ts.packets.push_back(x.pkts);
  }
  return ts;
}

std::vector<Reaction> reaction_times(const TimeSeries& ts, const std::vector<uint64_t>& starts, uint64_t run_end,
                                     double tolerance) {
  std::vector<Reaction> out;
  if (!ts.bin_cycles) return out;
  const size_t nb = ts.t_start.size();
  for (size_t i = 1; i < starts.size(); ++i) {
    Reaction r;
    r.phase = i;
    r.start = starts[i];
    r.steady_latency = std::nan("");
    const uint64_t end = i + 1 < starts.size() ? starts[i + 1] : run_end;
    // Bins wholly inside the phase; the run's last bin left out.
    std::vector<size_t> bins;
    for (size_t b = 0; b < nb; ++b)
      if (ts.t_start[b] >= r.start && ts.t_end[b] <= end && !(b + 1 == nb && end == run_end)) bins.push_back(b);
    auto complete = [&](size_t b) { return ts.inj_complete.empty() || ts.inj_complete[b] != 0; };
    if (bins.size() >= 4) {
      // The steady latency: the second half's bins, all of whose packets were delivered; at
      // least half of them must be, else it is not measurable (run with drain: true).
      double sum = 0;
      int n = 0;
      const size_t half = bins.size() - bins.size() / 2;
      size_t full = 0;
      for (size_t k = bins.size() / 2; k < bins.size(); ++k) {
        if (!complete(bins[k])) continue;
        ++full;
        if (!std::isnan(ts.latency_inj_avg[bins[k]])) {
          sum += ts.latency_inj_avg[bins[k]];
          ++n;
        }
      }
      if (n > 0 && 2 * full >= half) {
        r.steady_latency = sum / n;
        // The last judged bin outside the band; the reaction ends where the next one starts.
        size_t settled = 0;
        for (size_t k = 0; k < bins.size(); ++k) {
          const double v = ts.latency_inj_avg[bins[k]];
          if (complete(bins[k]) && !std::isnan(v) && std::fabs(v - r.steady_latency) > tolerance * r.steady_latency)
            settled = k + 1;
        }
        if (settled < bins.size()) r.reaction_cycles = static_cast<int64_t>(ts.t_start[bins[settled]] - r.start);
      }
    }
    out.push_back(r);
  }
  return out;
}

}  // namespace scfly
