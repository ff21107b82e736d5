#include "sc_main/ideal.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <map>
#include <memory>
#include <stdexcept>

#include "ClpSimplex.hpp"
#include "CoinPackedMatrix.hpp"
#include "routing_units/minimal.h"
#include "routing_units/torus_routing.h"

namespace scfly {

namespace {

// A route's channels with its probability.
struct Route {
  std::vector<int> ch;
  double p;
};

struct Net {
  const Topology& t;
  std::vector<int> id;     // [sw * radix + port] -> channel, -1 if none
  std::vector<int> tail, head;  // per channel: switch it leaves, switch it enters
  std::vector<int> port;        // per channel: output port at the tail
  explicit Net(const Topology& topo) : t(topo) {
    const int R = t.radix(), P = t.host_ports();
    id.assign(static_cast<size_t>(t.num_switches()) * R, -1);
    for (int s = 0; s < t.num_switches(); ++s)
      for (int q = P; q < R; ++q) {
        if (!t.connected(s, q)) continue;
        id[static_cast<size_t>(s) * R + q] = static_cast<int>(tail.size());
        tail.push_back(s);
        head.push_back(t.neighbor(s, q).sw);
        port.push_back(q);
      }
  }
  int channel(int sw, int q) const { return id[static_cast<size_t>(sw) * t.radix() + q]; }
  int channels() const { return static_cast<int>(tail.size()); }
};

// DOR routes on a torus or mesh from switch a to b: every combination of k/2 tie directions.
void dor_routes(const Torus& t, const Net& net, int a, int b, std::vector<Route>& out) {
  out.clear();
  std::vector<int> tie_dims;
  for (int d = 0; d < t.n(); ++d) {
    const int D = t.ring_hops(t.coord(a, d), t.coord(b, d), false);
    if (!t.mesh() && D != 0 && 2 * D == t.k()) tie_dims.push_back(d);
  }
  const int combos = 1 << tie_dims.size();
  for (int m = 0; m < combos; ++m) {
    Route r{{}, 1.0 / combos};
    int sw = a;
    for (int d = 0; d < t.n(); ++d) {
      const int x = t.coord(sw, d), y = t.coord(b, d);
      if (x == y) continue;
      bool minus;
      if (t.mesh()) {
        minus = y < x;
      } else {
        const int fwd = t.ring_hops(x, y, false);
        if (2 * fwd == t.k()) {
          const size_t i = static_cast<size_t>(std::find(tie_dims.begin(), tie_dims.end(), d) - tie_dims.begin());
          minus = (m >> i) & 1;
        } else {
          minus = t.k() - fwd < fwd;
        }
      }
      const int hops = t.mesh() ? std::abs(y - x) : t.ring_hops(x, y, minus);
      for (int h = 0; h < hops; ++h) {
        const int q = t.port(d, minus);
        r.ch.push_back(net.channel(sw, q));
        sw = t.neighbor(sw, q).sw;
      }
    }
    out.push_back(std::move(r));
  }
}

// MIN routes on a Dragonfly from switch a to b: one per equally short exit link.
void min_routes(const Dragonfly& t, const Net& net, int a, int b, std::vector<Route>& out) {
  out.clear();
  if (a == b) {
    out.push_back(Route{{}, 1.0});
    return;
  }
  const int count = minimal_exit_options(t, a, b);
  for (int i = 0; i < count; ++i) {
    // A tie word that Rng::scale maps to the ith option.
    const uint32_t word = static_cast<uint32_t>(((2ULL * static_cast<uint64_t>(i) + 1) << 32) / (2ULL * count));
    Route r{{}, 1.0 / count};
    RouteHeader h;
    h.dst_switch = b;
    int sw = a;
    for (int guard = 0; sw != b && guard < 8; ++guard) {
      const RouteDecision d = dragonfly_minimal_hop_word(t, sw, b, h, word);
      r.ch.push_back(net.channel(sw, d.port));
      sw = t.neighbor(sw, d.port).sw;
    }
    if (sw != b) throw std::logic_error("ideal: a minimal route did not arrive");
    out.push_back(std::move(r));
  }
}

std::string channel_name(const Topology& t, const Net& net, int e) {
  std::string s = "switch " + std::to_string(net.tail[static_cast<size_t>(e)]) + " port " +
                  std::to_string(net.port[static_cast<size_t>(e)]) + " (" +
                  t.port_class_name(t.port_class_of(net.port[static_cast<size_t>(e)]));
  if (const auto* torus = dynamic_cast<const Torus*>(&t)) {
    const int q = net.port[static_cast<size_t>(e)];
    s += std::string(", dimension ") + std::to_string(torus->dim_of(q)) + (torus->minus_of(q) ? " -" : " +");
  }
  return s + ") -> switch " + std::to_string(net.head[static_cast<size_t>(e)]);
}

}  // namespace

IdealResult ideal_throughput(const SimConfig& c, bool with_lp) {
  const std::unique_ptr<Topology> topo = make_topology(c);
  const Topology& t = *topo;
  const Net net(t);
  IdealResult r;
  r.topology = t.describe();
  r.traffic = to_string(c.phases.front().traffic);
  r.switches = t.num_switches();
  r.channels = net.channels();
  const int S = t.num_switches(), N = t.num_nodes();
  if (const auto* torus = dynamic_cast<const Torus*>(&t)) r.capacity = torus->capacity();

  // Demand per unit node rate, node level (terminal bound) and switch level (network).
  const TrafficPattern pattern(c.phases.front().traffic, t, c.seed, 0);
  std::vector<std::map<int, double>> dem(static_cast<size_t>(S));
  std::vector<double> in_rate(static_cast<size_t>(N), 0.0);
  double max_out = 0;
  std::vector<std::pair<int, double>> w;
  for (int n = 0; n < N; ++n) {
    pattern.weights(n, w);
    double out = 0;
    for (const auto& [d, p] : w) {
      in_rate[static_cast<size_t>(d)] += p;
      out += p;
      dem[static_cast<size_t>(t.switch_of_node(n))][t.switch_of_node(d)] += p;
    }
    max_out = std::max(max_out, out);
  }
  const double max_in = *std::max_element(in_rate.begin(), in_rate.end());
  r.terminal = t.terminal_ports() / std::max(max_out, max_in);  // w terminal ports of 1 phit/cycle

  // Oblivious bounds from exact route enumeration.
  {
    std::vector<std::vector<std::vector<Route>>> routes(static_cast<size_t>(S));
    const auto* torus = dynamic_cast<const Torus*>(&t);
    const auto* dfly = dynamic_cast<const Dragonfly*>(&t);
    for (int a = 0; a < S; ++a) {
      routes[static_cast<size_t>(a)].resize(static_cast<size_t>(S));
      for (int b = 0; b < S; ++b) {
        auto& rb = routes[static_cast<size_t>(a)][static_cast<size_t>(b)];
        if (torus) dor_routes(*torus, net, a, b, rb);
        else min_routes(*dfly, net, a, b, rb);
      }
    }
    auto bound = [&](const std::string& name, const std::vector<double>& load) {
      ObliviousBound ob;
      ob.routing = name;
      const auto it = std::max_element(load.begin(), load.end());
      ob.max_load = *it;
      ob.busiest = channel_name(t, net, static_cast<int>(it - load.begin()));
      ob.theta = std::min(r.terminal, ob.max_load > 0 ? 1.0 / ob.max_load : r.terminal);
      r.oblivious.push_back(ob);
    };
    auto add = [&](std::vector<double>& load, const std::vector<Route>& rs, double weight) {
      for (const Route& rt : rs)
        for (int e : rt.ch) load[static_cast<size_t>(e)] += weight * rt.p;
    };
    // Minimal (DOR / MIN).
    std::vector<double> load(static_cast<size_t>(net.channels()), 0.0);
    std::vector<double> src_rate(static_cast<size_t>(S), 0.0), dst_rate(static_cast<size_t>(S), 0.0);
    for (int a = 0; a < S; ++a)
      for (const auto& [b, p] : dem[static_cast<size_t>(a)]) {
        add(load, routes[static_cast<size_t>(a)][static_cast<size_t>(b)], p);
        src_rate[static_cast<size_t>(a)] += p;
        dst_rate[static_cast<size_t>(b)] += p;
      }
    bound(torus ? "dor" : "min", load);
    // VAL: the intermediate switch uniform over all S switches; phase 1 from the source,
    // phase 2 to the destination, independent of each other.
    std::fill(load.begin(), load.end(), 0.0);
    for (int a = 0; a < S; ++a)
      for (int q = 0; q < S; ++q) {
        if (src_rate[static_cast<size_t>(a)] > 0)
          add(load, routes[static_cast<size_t>(a)][static_cast<size_t>(q)], src_rate[static_cast<size_t>(a)] / S);
        if (dst_rate[static_cast<size_t>(a)] > 0)
          add(load, routes[static_cast<size_t>(q)][static_cast<size_t>(a)], dst_rate[static_cast<size_t>(a)] / S);
      }
    bound("val", load);
  }

  if (!with_lp) return r;

  // The LP. Columns: theta, then f[s][e] for every source switch s with demand leaving it
  // and every channel e. Rows: conservation at every switch v != s for every source (net
  // inflow = theta x demand(s -> v)), then capacity per channel.
  std::vector<int> sources;
  for (int s = 0; s < S; ++s) {
    double out = 0;
    for (const auto& [d, p] : dem[static_cast<size_t>(s)])
      if (d != s) out += p;
    if (out > 0) sources.push_back(s);
  }
  r.sources = static_cast<int>(sources.size());
  if (sources.empty()) {  // nothing crosses the network
    r.lp_solved = true;
    r.lp = r.terminal;
    r.ideal = r.terminal;
    r.lp_status = "no network traffic";
    return r;
  }
  const int E = net.channels();
  const int nsrc = static_cast<int>(sources.size());
  const int rows = nsrc * S + E;
  const int cols = 1 + nsrc * E;
  auto flow_row = [&](int si, int v) { return si * S + v; };
  std::vector<CoinBigIndex> start(static_cast<size_t>(cols) + 1);
  std::vector<int> index;
  std::vector<double> value;
  index.reserve(static_cast<size_t>(nsrc) * (S + 3 * E));
  value.reserve(index.capacity());
  // theta
  start[0] = 0;
  for (int si = 0; si < nsrc; ++si)
    for (const auto& [d, p] : dem[static_cast<size_t>(sources[static_cast<size_t>(si)])])
      if (d != sources[static_cast<size_t>(si)]) {
        index.push_back(flow_row(si, d));
        value.push_back(-p);
      }
  int col = 1;
  for (int si = 0; si < nsrc; ++si) {
    const int s = sources[static_cast<size_t>(si)];
    for (int e = 0; e < E; ++e, ++col) {
      start[static_cast<size_t>(col)] = static_cast<CoinBigIndex>(index.size());
      const int u = net.tail[static_cast<size_t>(e)], v = net.head[static_cast<size_t>(e)];
      // Rows in increasing order within a column.
      int r1 = u != s ? flow_row(si, u) : -1, r2 = v != s ? flow_row(si, v) : -1;
      const double c1 = -1.0, c2 = 1.0;
      if (r1 >= 0 && r2 >= 0 && r2 < r1) {
        index.push_back(r2);
        value.push_back(c2);
        index.push_back(r1);
        value.push_back(c1);
      } else {
        if (r1 >= 0) {
          index.push_back(r1);
          value.push_back(c1);
        }
        if (r2 >= 0) {
          index.push_back(r2);
          value.push_back(c2);
        }
      }
      index.push_back(nsrc * S + e);
      value.push_back(1.0);
    }
  }
  start[static_cast<size_t>(cols)] = static_cast<CoinBigIndex>(index.size());
  std::vector<int> lengths(static_cast<size_t>(cols));
  for (int j = 0; j < cols; ++j) lengths[static_cast<size_t>(j)] = static_cast<int>(start[static_cast<size_t>(j) + 1] - start[static_cast<size_t>(j)]);
  const CoinPackedMatrix m(true, rows, cols, static_cast<CoinBigIndex>(index.size()), value.data(), index.data(),
                           start.data(), lengths.data());
  std::vector<double> col_lo(static_cast<size_t>(cols), 0.0), col_hi(static_cast<size_t>(cols), COIN_DBL_MAX);
  std::vector<double> obj(static_cast<size_t>(cols), 0.0);
  obj[0] = -1.0;  // maximize theta
  std::vector<double> row_lo(static_cast<size_t>(rows), 0.0), row_hi(static_cast<size_t>(rows), 0.0);
  for (int e = 0; e < E; ++e) {
    row_lo[static_cast<size_t>(nsrc * S + e)] = -COIN_DBL_MAX;
    row_hi[static_cast<size_t>(nsrc * S + e)] = 1.0;
  }
  ClpSimplex lp;
  lp.setLogLevel(0);
  lp.loadProblem(m, col_lo.data(), col_hi.data(), obj.data(), row_lo.data(), row_hi.data());
  const auto t0 = std::chrono::steady_clock::now();
  lp.dual();
  r.lp_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.lp_rows = rows;
  r.lp_cols = cols;
  if (!lp.isProvenOptimal()) {
    r.lp_status = "CLP status " + std::to_string(lp.status());
    throw std::runtime_error("ideal: the max-concurrent-flow LP was not solved (" + r.lp_status + ")");
  }
  r.lp_solved = true;
  r.lp_status = "optimal";
  r.lp = lp.primalColumnSolution()[0];
  r.ideal = std::min(r.lp, r.terminal);
  return r;
}

nlohmann::json to_json(const IdealResult& r) {
  nlohmann::json j;
  j["topology"] = r.topology;
  j["traffic"] = r.traffic;
  j["switches"] = r.switches;
  j["channels"] = r.channels;
  j["terminal"] = r.terminal;
  if (r.lp_solved) {
    j["ideal"] = r.ideal;
    j["lp"] = {{"theta", r.lp}, {"rows", r.lp_rows}, {"cols", r.lp_cols}, {"sources", r.sources},
               {"seconds", r.lp_seconds}, {"status", r.lp_status}};
  }
  if (r.capacity > 0) j["capacity"] = r.capacity;
  j["oblivious"] = nlohmann::json::array();
  for (const auto& o : r.oblivious)
    j["oblivious"].push_back({{"routing", o.routing}, {"theta", o.theta}, {"max_load", o.max_load}, {"busiest", o.busiest}});
  return j;
}

std::string format(const IdealResult& r) {
  char buf[512];
  std::string s;
  auto frac = [&](double v) {
    if (r.capacity <= 0) return std::string();
    char b[64];
    std::snprintf(b, sizeof b, "  (%.1f %% of the UR capacity %.4g)", 100.0 * v / r.capacity, r.capacity);
    return std::string(b);
  };
  std::snprintf(buf, sizeof buf, "scfly ideal: %s, traffic %s, %d switches, %d channels\n", r.topology.c_str(),
                r.traffic.c_str(), r.switches, r.channels);
  s += buf;
  std::snprintf(buf, sizeof buf, "  terminal links        %.4f phits/node/cycle\n", r.terminal);
  s += buf;
  if (r.lp_solved) {
    std::snprintf(buf, sizeof buf, "  ideal                 %.4f phits/node/cycle%s\n", r.ideal, frac(r.ideal).c_str());
    s += buf;
    std::snprintf(buf, sizeof buf,
                  "                        (max concurrent flow %.4f, COIN-OR CLP: %d rows x %d columns, %.2f s)\n",
                  r.lp, r.lp_rows, r.lp_cols, r.lp_seconds);
    s += buf;
  }
  s += "  oblivious routings (channel-load bound):\n";
  for (const auto& o : r.oblivious) {
    std::snprintf(buf, sizeof buf, "    %-5s %.4f%s; busiest: %s, %.4g per unit rate\n", o.routing.c_str(), o.theta,
                  frac(o.theta).c_str(), o.busiest.c_str(), o.max_load);
    s += buf;
  }
  return s;
}

}  // namespace scfly
