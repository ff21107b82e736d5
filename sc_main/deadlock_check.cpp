#include "sc_main/deadlock_check.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include "routing_units/forwarding_table.h"
#include "routing_units/routing.h"
#include "topologies/common/rng.h"

namespace scfly {

namespace {

// Representative words per next32() draw (Checker::word_choices): word j of K is the middle
// of the j-th 1/K of the range, so scale(word, count) takes every value in [0, count) for
// every count <= K.
constexpr uint32_t kSaturated = 1u << 20;  // phits: a saturated queue in a congestion view

// Depth-first enumeration of a unit's draw sequences: run the unit, then advance(), until
// advance() says every sequence has been run. A draw beyond the recorded prefix takes 0 and
// records its range; advance() steps the last draw that has values left.
class DrawEnumerator final : public DrawScript {
 public:
  explicit DrawEnumerator(uint32_t words) : m_words(words) {}
  uint32_t below(uint32_t n) override { return take(n); }
  uint32_t word() override {
    const uint64_t j = take(m_words);
    return static_cast<uint32_t>(((2 * j + 1) << 32) / (2 * uint64_t{m_words}));
  }
  void reset() {
    m_path.clear();
    m_pos = 0;
  }
  bool advance() {
    m_pos = 0;
    while (!m_path.empty()) {
      if (++m_path.back().v < m_path.back().n) return true;
      m_path.pop_back();
    }
    return false;
  }

 private:
  uint32_t take(uint32_t n) {
    if (m_pos < m_path.size()) return m_path[m_pos++].v;
    m_path.push_back({0, n == 0 ? 1 : n});
    ++m_pos;
    return 0;
  }
  struct Draw {
    uint32_t v, n;
  };
  uint32_t m_words;
  std::vector<Draw> m_path;
  size_t m_pos = 0;
};

// A routing state: what a unit sees when it routes a head.
struct State {
  int32_t sw;
  int16_t in_port;  // a host port at injection
  uint8_t in_vc;
  uint8_t control;  // 1: a control frame (route_control)
  RouteHeader h;
};

struct Key {
  uint64_t w[5];
  bool operator==(const Key& o) const {
    for (int i = 0; i < 5; ++i)
      if (w[i] != o.w[i]) return false;
    return true;
  }
};
struct KeyHash {
  size_t operator()(const Key& k) const {
    uint64_t x = 0x243f6a8885a308d3ULL;
    for (uint64_t v : k.w) {
      x ^= v;
      x = splitmix64(x);
    }
    return static_cast<size_t>(x);
  }
};

Key key_of(const State& s) {
  const RouteHeader& h = s.h;
  Key k;
  k.w[0] = static_cast<uint32_t>(s.sw) | static_cast<uint64_t>(static_cast<uint16_t>(s.in_port)) << 32 |
           static_cast<uint64_t>(s.in_vc) << 48 | static_cast<uint64_t>(s.control) << 56;
  k.w[1] = static_cast<uint32_t>(h.dst_switch) | static_cast<uint64_t>(static_cast<uint32_t>(h.inter_switch)) << 32;
  k.w[2] = static_cast<uint32_t>(h.exit_switch) | static_cast<uint64_t>(static_cast<uint16_t>(h.exit_port)) << 32 |
           static_cast<uint64_t>(static_cast<uint16_t>(h.dst_host)) << 48;
  k.w[3] = static_cast<uint64_t>(h.segment) | static_cast<uint64_t>(h.global_done) << 8 |
           static_cast<uint64_t>(h.nonminimal) << 16 | static_cast<uint64_t>(h.policy) << 24 |
           static_cast<uint64_t>(h.vc_shift) << 32 | static_cast<uint64_t>(h.par_pending) << 40 |
           static_cast<uint64_t>(h.dir_set) << 48 | static_cast<uint64_t>(h.minus) << 56;
  // (vlb_from is left out: no routing unit reads it, only the packet trace.)
  k.w[4] = static_cast<uint64_t>(h.wrapped) | static_cast<uint64_t>(h.random_exit) << 8 |
           static_cast<uint64_t>(h.seg2_link) << 16;
  return k;
}

// A congestion view the adaptive units observe (congestion.h, ugal.h).
// The state budget ran out (DeadlockCheckResult::too_large).
struct TooLarge : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct View {
  std::vector<uint32_t> out;
  std::vector<int32_t> cred;
  std::vector<uint32_t> own;
  std::unique_ptr<NetworkLoad> net;
  std::unique_ptr<SatFlagTable> flags;
  AdaptiveView av;
};

class Checker {
 public:
  Checker(const SimConfig& c, const DeadlockCheckOptions& o)
      : m_cfg(c),
        m_opt(o),
        m_topo(make_topology(c)),
        m_t(*m_topo),
        m_unit(c.routing, m_t, c.routing_prm),
        m_draws(word_choices(m_unit)) {
    m_R = m_t.radix();
    m_S = m_t.num_switches();
    for (int k = 0; k < m_t.num_port_classes(); ++k) {
      const int v = o.vcs[k] > 0 ? o.vcs[k] : c.sw.vcs[k];
      if (v < 1 || v > 16)
        throw std::invalid_argument(std::string("VCs of class '") + m_t.port_class_name(k) + "': " +
                                    std::to_string(v) + " is out of range (1-16)");
      m_vcs[k] = v;
      m_ctrl[k] = c.sw.ctrl_vcs[k];
      m_max_vc = std::max(m_max_vc, m_vcs[k] + m_ctrl[k]);
    }
    m_chan.assign(static_cast<size_t>(m_S) * m_R, -1);
    for (int s = 0; s < m_S; ++s)
      for (int q = m_t.host_ports(); q < m_R; ++q)
        if (m_t.connected(s, q)) {
          m_chan[static_cast<size_t>(s) * m_R + q] = m_channels;
          ++m_channels;
        }
    m_rng.attach(&m_draws);
    build_views();
    if (m_unit.uses_table())
      for (int s = 0; s < m_S; ++s) {
        m_tables.push_back(m_unit.make_table(s));
        for (int q = 0; q < m_R; ++q) m_tables.back().set_probability(q, ForwardingTable::kMaxProbability / 2);
      }
  }

  DeadlockCheckResult run() {
    const auto t0 = std::chrono::steady_clock::now();
    DeadlockCheckResult r;
    r.topology = m_t.describe();
    r.routing = to_string(m_cfg.routing);
    for (int k = 1; k < m_t.num_port_classes(); ++k) r.vcs.emplace_back(m_t.port_class_name(k), m_vcs[k]);
    r.channels = 0;
    for (int sw = 0; sw < m_S; ++sw)
      for (int q = 0; q < m_R; ++q)
        if (channel(sw, q) >= 0) {
          const int cls = m_t.port_class_of(q);
          r.channels += static_cast<uint64_t>(m_vcs[cls] + m_ctrl[cls]);
        }
    r.views = m_views.size();
    try {
      seed_states();
      for (size_t i = 0; i < m_states.size(); ++i) {
        if (m_states.size() > m_opt.max_states)
          throw TooLarge("more than " + std::to_string(m_opt.max_states) +
                                   " routing states; check a smaller network of the same kind");
        expand(static_cast<uint32_t>(i));
        if (m_opt.progress && (i & 4095) == 4095) m_opt.progress(i + 1, m_states.size());
        if (m_calls > m_opt.max_calls)
          throw TooLarge("more than " + std::to_string(m_opt.max_calls) +
                         " routing-unit calls; check a smaller network of the same kind");
      }
      longest_route(r);
    } catch (const std::runtime_error& e) {
      r.verdict = DeadlockCheckResult::Verdict::Error;
      r.error = e.what();
      r.too_large = dynamic_cast<const TooLarge*>(&e) != nullptr;
      finish(r, t0);
      return r;
    }
    r.control = m_control;
    for (const auto& f : m_folded) r.folded.push_back(f);
    r.dependencies = m_edges.size();
    r.channels_used = m_used.size();
    std::vector<uint64_t> cyc = find_cycle(m_edges, nullptr);
    if (cyc.empty()) {
      r.verdict = DeadlockCheckResult::Verdict::Acyclic;
    } else if (m_multi) {
      std::unordered_set<uint32_t> esc;
      for (const auto& e : m_esc_edges) esc.insert(static_cast<uint32_t>(e.first));
      r.escape_channels = esc.size();
      uint64_t n = 0;
      for (const auto& e : m_esc_edges)
        if (esc.count(static_cast<uint32_t>(e.first >> 32))) ++n;
      r.escape_dependencies = n;
      std::vector<uint64_t> ec = find_cycle(m_esc_edges, &esc);
      if (ec.empty()) {
        r.verdict = DeadlockCheckResult::Verdict::Duato;
      } else {
        r.verdict = DeadlockCheckResult::Verdict::Cycle;
        describe_cycle(ec, m_esc_edges, r);
      }
    } else {
      r.verdict = DeadlockCheckResult::Verdict::Cycle;
      describe_cycle(cyc, m_edges, r);
    }
    finish(r, t0);
    return r;
  }

 private:
  using EdgeMap = std::unordered_map<uint64_t, uint32_t>;  // (from << 32 | to) -> witness state

  void finish(DeadlockCheckResult& r, std::chrono::steady_clock::time_point t0) const {
    r.states = m_states.size();
    r.calls = m_calls;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }

  void build_views() {
    const bool adaptive = m_unit.is_adaptive();
    std::vector<std::vector<uint32_t>> loads;
    loads.emplace_back(static_cast<size_t>(m_R), 0);
    if (adaptive) {
      for (int q = 0; q < m_R; ++q) {
        loads.emplace_back(static_cast<size_t>(m_R), 0);
        loads.back()[static_cast<size_t>(q)] = kSaturated;
      }
      loads.emplace_back(static_cast<size_t>(m_R), kSaturated);
      Rng r(m_opt.seed, StreamKind::Traffic, 0x6465616dULL);
      for (int i = 0; i < m_opt.random_views; ++i) {
        loads.emplace_back(static_cast<size_t>(m_R), 0);
        for (auto& v : loads.back()) v = r.below(4) == 0 ? kSaturated : r.below(256);
      }
    }
    const Dragonfly* df = m_unit.dragonfly();
    for (const auto& l : loads) {
      auto v = std::make_unique<View>();
      v->out = l;
      v->cred.assign(l.begin(), l.end());
      v->net = std::make_unique<NetworkLoad>(m_S, m_R);
      for (int s = 0; s < m_S; ++s)
        for (int q = 0; q < m_R; ++q) v->net->publish(s, q, l[static_cast<size_t>(q)], 0);
      if (df && m_unit.needs_sat_flags()) {
        v->flags = std::make_unique<SatFlagTable>(m_S, df->h(), 0);
        v->own.assign(static_cast<size_t>(df->h()), 0);
        for (int j = 0; j < df->h(); ++j) {
          const bool sat = l[static_cast<size_t>(df->first_global_port() + j)] >= kSaturated;
          v->own[static_cast<size_t>(j)] = sat;
          for (int s = 0; s < m_S; ++s) v->flags->publish(s, j, sat, 0);
        }
      }
      v->av.local = SwitchLoad{v->out.data(), v->cred.data(), m_cfg.routing_prm.ugal.measure};
      v->av.global = v->net.get();
      v->av.flags = v->flags.get();
      v->av.own_flags = v->own.empty() ? nullptr : v->own.data();
      v->av.now = 1;
      m_views.push_back(std::move(v));
    }
  }

  uint32_t add_state(const State& s, int64_t from) {
    const Key k = key_of(s);
    auto it = m_index.find(k);
    uint32_t id;
    if (it != m_index.end()) {
      id = it->second;
    } else {
      id = static_cast<uint32_t>(m_states.size());
      m_index.emplace(k, id);
      m_states.push_back(s);
    }
    if (from >= 0) m_succ.emplace_back(static_cast<uint32_t>(from), id);
    return id;
  }

  void seed_states() {
    const int hps = m_t.hosts_per_switch(), w = m_t.terminal_ports(), nodes = m_t.num_nodes();
    const Torus* tor = m_unit.torus();
    const bool gal = m_cfg.routing == RoutingAlgo::Gal;
    const double seeds = static_cast<double>(nodes) * (nodes - 1) * w * (gal && tor ? 1 << tor->n() : 1);
    if (seeds > static_cast<double>(m_opt.max_states))
      throw TooLarge("the network's " + std::to_string(nodes) + " nodes give " +
                               std::to_string(static_cast<uint64_t>(seeds)) + " injection states alone, more than " +
                               std::to_string(m_opt.max_states) +
                               " routing states; check a smaller network of the same kind");
    for (int s = 0; s < m_S; ++s)
      for (int host = 0; host < hps; ++host) {
        const int src = m_t.node_of(s, host);
        for (int d = 0; d < nodes; ++d) {
          if (d == src) continue;
          State st{};
          st.sw = s;
          st.in_vc = 0;
          st.control = 0;
          st.h = RouteHeader{};
          st.h.dst_switch = m_t.switch_of_node(d);
          st.h.dst_host = static_cast<int16_t>(m_t.host_of_node(d));
          std::vector<int> quadrants{-1};
          if (gal && tor) quadrants = gal_quadrants(*tor, s, st.h.dst_switch);
          for (int q : quadrants) {
            State sq = st;
            if (q >= 0) {
              set_quadrant(*tor, s, sq.h.dst_switch, q, sq.h);
              sq.in_vc = static_cast<uint8_t>(q);
            }
            for (int j = 0; j < w; ++j) {
              sq.in_port = static_cast<int16_t>(m_t.host_port(host, j));
              add_state(sq, -1);
            }
          }
        }
      }
    // Control frames: from every switch toward every host (CNMs go to a victim's source).
    bool ctrl = false;
    for (int k = 1; k < m_t.num_port_classes(); ++k) ctrl |= m_ctrl[k] > 0;
    if (!ctrl) return;
    m_control = true;
    for (int s = 0; s < m_S; ++s)
      for (int d = 0; d < nodes; ++d) {
        if (m_t.switch_of_node(d) == s) continue;
        State st{};
        st.sw = s;
        st.in_port = 0;
        st.in_vc = 0;
        st.control = 1;
        st.h = RouteHeader{};
        st.h.dst_switch = m_t.switch_of_node(d);
        st.h.dst_host = static_cast<int16_t>(m_t.host_of_node(d));
        add_state(st, -1);
      }
  }

  // Every quadrant GAL's injection unit can choose from src to dst: gal_choose with each
  // quadrant's queue emptier than the others and T = 0 (the shortest usable queue).
  std::vector<int> gal_quadrants(const Torus& t, int src, int dst) {
    const int nq = 1 << t.n();
    std::vector<int> out;
    Rng r(m_opt.seed, StreamKind::Nic, 0);
    for (int q = 0; q < nq; ++q) {
      std::vector<uint16_t> occ(static_cast<size_t>(nq), 1);
      occ[static_cast<size_t>(q)] = 0;
      bool minimal = false;
      const int got = gal_choose(t, src, dst, occ.data(), 0, r, minimal);
      if (std::find(out.begin(), out.end(), got) == out.end()) out.push_back(got);
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  int channel(int sw, int port) const { return m_chan[static_cast<size_t>(sw) * m_R + port]; }
  uint32_t node(int sw, int port, int vc) const {
    return static_cast<uint32_t>(channel(sw, port) * m_max_vc + vc);
  }
  // The channel a state's packet arrived on; -1 at injection.
  int64_t arrival(const State& s) const {
    if (m_t.is_host_port(s.in_port)) return -1;
    const PortEnd up = m_t.neighbor(s.sw, s.in_port);
    return node(up.sw, up.port, s.in_vc);
  }

  [[noreturn]] void fail(const State& s, const std::string& what) const {
    throw std::runtime_error(what + " (" + describe_state(s) + ")");
  }

  void expand(uint32_t id) {
    const State s = m_states[id];  // copy: m_states grows below
    const int64_t from = arrival(s);
    const bool at_injection = m_t.is_host_port(s.in_port) && !s.control;
    const int levels = m_unit.route_levels();
    const int attempts = at_injection && m_unit.recomputes() ? 3 : 1;
    const size_t views = s.control ? 1 : m_views.size();
    if (s.control && s.sw == s.h.dst_switch) return;  // intercepted here (the frame's target switch)
    for (size_t v = 0; v < views; ++v)
      for (int lv = 0; lv < levels; ++lv)
        for (int at = 0; at < attempts; ++at) {
          RouteContext ctx;
          ctx.attempt = static_cast<uint16_t>(at);
          ctx.switch_level = static_cast<uint8_t>(lv);
          if (m_unit.is_adaptive()) ctx.view = &m_views[v]->av;
          if (!m_tables.empty()) ctx.table = &m_tables[static_cast<size_t>(s.sw)];
          m_draws.reset();
          uint64_t leaves = 0;
          do {
            if (++leaves > 1000000) fail(s, "more than 1,000,000 draw sequences in one routing decision");
            ++m_calls;
            RouteHeader h = s.h;
            RouteCandidates cs;
            if (s.control) {
              RouteDecision d = m_unit.route_control(s.sw, h, m_rng, ctx.min_hop);
              if (d.port >= 0 && d.port < m_R && !m_t.is_host_port(d.port))
                d.vc = static_cast<uint8_t>(d.vc + m_vcs[m_t.port_class_of(d.port)]);
              cs = RouteCandidates::one(d);
            } else {
              cs = m_unit.route_candidates(s.sw, s.in_port, h, m_rng, ctx);
            }
            take(s, id, from, h, cs);
          } while (m_draws.advance());
        }
  }

  void take(const State& s, uint32_t id, int64_t from, const RouteHeader& h, const RouteCandidates& cs) {
    if (cs.n == 0) fail(s, "the routing unit returned no candidate");
    if (cs.n > 1) m_multi = true;
    for (int i = 0; i < cs.n; ++i) {
      const RouteCandidate& c = cs.c[i];
      if (c.port < 0 || c.port >= m_R) fail(s, "the routing unit returned port " + std::to_string(c.port));
      if (c.vc_lo > c.vc_hi) fail(s, "the routing unit returned an empty VC range");
      if (m_t.is_host_port(c.port)) {
        if (s.sw != s.h.dst_switch || m_t.host_of_port(c.port) != s.h.dst_host)
          fail(s, "ejects on port " + std::to_string(c.port) + " (host " + std::to_string(m_t.host_of_port(c.port)) +
                      " of switch " + std::to_string(s.sw) + ")");
        continue;
      }
      if (channel(s.sw, c.port) < 0) fail(s, "routes to port " + std::to_string(c.port) + ", which has no link");
      const int cls = m_t.port_class_of(c.port);
      const int lo = s.control ? m_vcs[cls] : 0;
      const int nv = s.control ? m_vcs[cls] + m_ctrl[cls] : m_vcs[cls];
      for (int v = c.vc_lo; v <= c.vc_hi; ++v) {
        int fv = v;
        if (v >= nv) {
          fv = nv - 1;
          const std::string note = std::string(m_t.port_class_name(cls)) + (s.control ? " control" : "") + ": VC " +
                                   std::to_string(v - lo) + " folded onto VC " + std::to_string(fv - lo);
          if (std::find(m_folded.begin(), m_folded.end(), note) == m_folded.end()) m_folded.push_back(note);
        }
        const uint32_t to = node(s.sw, c.port, fv);
        m_used.insert(to);
        if (from >= 0) {
          const uint64_t e = static_cast<uint64_t>(from) << 32 | to;
          m_edges.emplace(e, id);
          if (i == cs.n - 1) m_esc_edges.emplace(e, id);
        } else if (i == cs.n - 1) {
          // Injection: no channel to depend from, but its escape channel counts as one.
          m_esc_edges.emplace(static_cast<uint64_t>(UINT32_MAX) << 32 | to, id);
        }
        const PortEnd nb = m_t.neighbor(s.sw, c.port);
        State n{nb.sw, nb.port, static_cast<uint8_t>(fv), s.control, h};
        add_state(n, id);
      }
    }
  }

  // Longest route over the routing-state graph (data packets), or a loop of states.
  void longest_route(DeadlockCheckResult& r) {
    const size_t n = m_states.size();
    std::vector<uint32_t> start(n + 1, 0), adj(m_succ.size());
    for (const auto& e : m_succ) ++start[e.first + 1];
    for (size_t i = 0; i < n; ++i) start[i + 1] += start[i];
    std::vector<uint32_t> fill(start.begin(), start.end() - 1);
    for (const auto& e : m_succ) adj[fill[e.first]++] = e.second;
    std::vector<int32_t> depth(n, -1);  // longest path from the state; -2 = on the stack
    std::vector<std::pair<uint32_t, uint32_t>> stack;
    for (size_t root = 0; root < n; ++root) {
      if (depth[root] != -1) continue;
      stack.emplace_back(static_cast<uint32_t>(root), start[root]);
      depth[root] = -2;
      while (!stack.empty()) {
        auto& [u, it] = stack.back();
        if (it < start[u + 1]) {
          const uint32_t v = adj[it++];
          if (depth[v] == -2) throw_loop(v, stack);
          if (depth[v] == -1) {
            depth[v] = -2;
            stack.emplace_back(v, start[v]);
          }
        } else {
          int32_t best = 0;
          for (uint32_t k = start[u]; k < start[u + 1]; ++k) best = std::max(best, depth[adj[k]] + 1);
          depth[u] = best;
          stack.pop_back();
        }
      }
    }
    for (size_t i = 0; i < n; ++i)
      if (!m_states[i].control && m_t.is_host_port(m_states[i].in_port)) r.max_hops = std::max(r.max_hops, depth[i]);
  }

  [[noreturn]] void throw_loop(uint32_t v, const std::vector<std::pair<uint32_t, uint32_t>>& stack) const {
    std::string path;
    bool on = false;
    for (const auto& e : stack) {
      on |= e.first == v;
      if (on) path += "\n    " + describe_state(m_states[e.first]);
    }
    throw std::runtime_error("a packet can return to a routing state it was in (a routing loop):" + path);
  }

  // A cycle of `edges` (restricted to nodes in `within` when given), as its edges in order.
  static std::vector<uint64_t> find_cycle(const EdgeMap& edges, const std::unordered_set<uint32_t>* within) {
    std::unordered_map<uint32_t, std::vector<uint32_t>> adj;
    for (const auto& e : edges) {
      const uint32_t a = static_cast<uint32_t>(e.first >> 32), b = static_cast<uint32_t>(e.first);
      if (a == UINT32_MAX) continue;
      if (within && (!within->count(a) || !within->count(b))) continue;
      adj[a].push_back(b);
    }
    for (auto& kv : adj) std::sort(kv.second.begin(), kv.second.end());
    std::vector<uint32_t> roots;
    for (const auto& kv : adj) roots.push_back(kv.first);
    std::sort(roots.begin(), roots.end());
    std::unordered_map<uint32_t, uint8_t> color;  // 1 = on the stack, 2 = done
    for (uint32_t root : roots) {
      if (color[root]) continue;
      std::vector<std::pair<uint32_t, size_t>> stack{{root, 0}};
      color[root] = 1;
      while (!stack.empty()) {
        auto& [u, i] = stack.back();
        const auto it = adj.find(u);
        if (it != adj.end() && i < it->second.size()) {
          const uint32_t v = it->second[i++];
          const uint8_t cv = color[v];
          if (cv == 1) {
            std::vector<uint32_t> on;
            size_t k = 0;
            while (stack[k].first != v) ++k;
            for (; k < stack.size(); ++k) on.push_back(stack[k].first);
            return shortest_cycle(adj, on);
          }
          if (cv == 0) {
            color[v] = 1;
            stack.emplace_back(v, 0);
          }
        } else {
          color[u] = 2;
          stack.pop_back();
        }
      }
    }
    return {};
  }

  // The shortest cycle through any of the nodes `on` (a cycle found by the search), by a
  // breadth-first search from each: easier to read than the search's own cycle.
  static std::vector<uint64_t> shortest_cycle(const std::unordered_map<uint32_t, std::vector<uint32_t>>& adj,
                                              const std::vector<uint32_t>& on) {
    std::vector<uint32_t> best;
    for (uint32_t u : on) {
      std::unordered_map<uint32_t, uint32_t> parent;
      std::vector<uint32_t> frontier{u};
      bool found = false;
      for (size_t i = 0; i < frontier.size() && !found; ++i) {
        const auto it = adj.find(frontier[i]);
        if (it == adj.end()) continue;
        for (uint32_t v : it->second) {
          if (v == u) {
            std::vector<uint32_t> path{u};
            for (uint32_t x = frontier[i]; x != u; x = parent[x]) path.push_back(x);
            std::reverse(path.begin() + 1, path.end());
            if (best.empty() || path.size() < best.size()) best = path;
            found = true;
            break;
          }
          if (parent.emplace(v, frontier[i]).second) frontier.push_back(v);
        }
      }
    }
    std::vector<uint64_t> cyc;
    for (size_t k = 0; k < best.size(); ++k)
      cyc.push_back(static_cast<uint64_t>(best[k]) << 32 | best[(k + 1) % best.size()]);
    return cyc;
  }

  std::string switch_name(int sw) const {
    std::string s = "s" + std::to_string(sw);
    if (const Dragonfly* d = m_unit.dragonfly()) {
      s += " (g" + std::to_string(d->group_of(sw)) + ")";
    } else if (const Torus* t = m_unit.torus()) {
      s += " (";
      for (int k = 0; k < t->n(); ++k) s += (k ? "," : "") + std::to_string(t->coord(sw, k));
      s += ")";
    }
    return s;
  }

  std::string channel_name(uint32_t n) const {
    const int ch = static_cast<int>(n / static_cast<uint32_t>(m_max_vc)), vc = static_cast<int>(n % m_max_vc);
    const size_t i = static_cast<size_t>(std::find(m_chan.begin(), m_chan.end(), ch) - m_chan.begin());
    const int sw = static_cast<int>(i / static_cast<size_t>(m_R)), port = static_cast<int>(i % static_cast<size_t>(m_R));
    const int cls = m_t.port_class_of(port);
    const PortEnd nb = m_t.neighbor(sw, port);
    const bool ctl = vc >= m_vcs[cls];
    return switch_name(sw) + " -> " + switch_name(nb.sw) + " " + m_t.port_class_name(cls) + " VC " +
           std::to_string(ctl ? vc - m_vcs[cls] : vc) + (ctl ? " (control)" : "");
  }

  std::string describe_state(const State& s) const {
    const RouteHeader& h = s.h;
    std::ostringstream o;
    o << (s.control ? "control frame" : "packet") << " for node " << m_t.node_of(h.dst_switch, h.dst_host) << " at "
      << switch_name(h.dst_switch);
    if (h.inter_switch >= 0) o << ", via " << switch_name(h.inter_switch) << " (segment " << int(h.segment) << ")";
    if (h.nonminimal) o << ", non-minimal";
    if (h.policy) o << ", policy " << to_string(static_cast<Misroute>(h.policy));
    if (h.exit_port >= 0) o << ", exit s" << h.exit_switch << " port " << h.exit_port;
    if (h.vc_shift) o << ", PAR VC shift";
    if (const Torus* t = m_unit.torus()) {
      std::string q;
      for (int d = 0; d < t->n(); ++d)
        q += (h.dir_set >> d & 1) ? ((h.minus >> d & 1) ? "-" : "+") : "?";
      o << ", directions " << q;
      if (h.wrapped) o << ", wrapped " << int(h.wrapped);
    }
    o << ", at " << switch_name(s.sw) << " input " << s.in_port << " VC " << int(s.in_vc);
    return o.str();
  }

  void describe_cycle(const std::vector<uint64_t>& cyc, const EdgeMap& edges, DeadlockCheckResult& r) const {
    for (uint64_t e : cyc) {
      const uint32_t a = static_cast<uint32_t>(e >> 32), b = static_cast<uint32_t>(e);
      const auto it = edges.find(e);
      r.cycle.push_back(channel_name(a) + "  =>  " + channel_name(b) +
                        (it != edges.end() ? "   [" + describe_state(m_states[it->second]) + "]" : ""));
    }
  }

  // Words per next32() draw: on a Dragonfly the largest equal-cost set a unit draws among is
  // the global links joining a group pair (route_min, the forwarding table's sets), so that
  // many; elsewhere no unit draws a word that selects (torus units draw order words only),
  // and 16 covers a selection among up to 16.
  static uint32_t word_choices(const RoutingUnit& u) {
    if (const Dragonfly* d = u.dragonfly()) return static_cast<uint32_t>(std::max(1, d->links_per_group_pair()));
    return 16;
  }

  const SimConfig& m_cfg;
  DeadlockCheckOptions m_opt;
  std::unique_ptr<Topology> m_topo;
  const Topology& m_t;
  RoutingUnit m_unit;
  int m_R = 0, m_S = 0, m_channels = 0, m_max_vc = 1;
  int m_vcs[kMaxPortClasses] = {}, m_ctrl[kMaxPortClasses] = {};
  std::vector<int> m_chan;
  std::vector<std::unique_ptr<View>> m_views;
  std::vector<ForwardingTable> m_tables;
  DrawEnumerator m_draws;
  Rng m_rng{1, StreamKind::Switch, 0};
  std::vector<State> m_states;
  std::unordered_map<Key, uint32_t, KeyHash> m_index;
  std::vector<std::pair<uint32_t, uint32_t>> m_succ;
  EdgeMap m_edges, m_esc_edges;
  std::unordered_set<uint32_t> m_used;  // channel VCs some route takes
  std::vector<std::string> m_folded;
  uint64_t m_calls = 0;
  bool m_multi = false, m_control = false;
};

const char* verdict_name(DeadlockCheckResult::Verdict v) {
  switch (v) {
    case DeadlockCheckResult::Verdict::Acyclic: return "acyclic";
    case DeadlockCheckResult::Verdict::Duato: return "duato";
    case DeadlockCheckResult::Verdict::Cycle: return "cycle";
    case DeadlockCheckResult::Verdict::Error: return "error";
  }
  return "?";
}

}  // namespace

DeadlockCheckResult check_deadlock(const SimConfig& c, const DeadlockCheckOptions& o) {
  Checker ck(c, o);
  return ck.run();
}

std::vector<std::pair<std::string, int>> min_vcs(const SimConfig& c, const DeadlockCheckOptions& o) {
  const std::unique_ptr<Topology> t = make_topology(c);
  std::vector<std::pair<std::string, int>> out;
  for (int k = 1; k < t->num_port_classes(); ++k) {
    DeadlockCheckOptions oo = o;
    int v = o.vcs[k] > 0 ? o.vcs[k] : c.sw.vcs[k], best = -1;
    for (; v >= 1; --v) {
      oo.vcs[k] = v;
      if (!check_deadlock(c, oo).deadlock_free()) break;
      best = v;
    }
    out.emplace_back(t->port_class_name(k), best);
  }
  return out;
}

nlohmann::json to_json(const DeadlockCheckResult& r) {
  nlohmann::json j;
  j["topology"] = r.topology;
  j["routing"] = r.routing;
  j["verdict"] = verdict_name(r.verdict);
  j["deadlock_free"] = r.deadlock_free();
  nlohmann::json v = nlohmann::json::object();
  for (const auto& kv : r.vcs) v[kv.first] = kv.second;
  j["vcs"] = v;
  j["folded"] = r.folded;
  j["states"] = r.states;
  j["unit_calls"] = r.calls;
  j["congestion_views"] = r.views;
  j["channels"] = r.channels;
  j["channels_used"] = r.channels_used;
  j["dependencies"] = r.dependencies;
  j["escape_channels"] = r.escape_channels;
  j["escape_dependencies"] = r.escape_dependencies;
  j["max_hops"] = r.max_hops;
  j["control_frames"] = r.control;
  j["cycle"] = r.cycle;
  if (!r.error.empty()) j["error"] = r.error;
  if (r.too_large) j["too_large"] = true;
  j["seconds"] = r.seconds;
  return j;
}

std::string format(const DeadlockCheckResult& r) {
  std::ostringstream o;
  o << "check-deadlock: " << r.topology << ", routing " << r.routing << ", VCs";
  for (const auto& kv : r.vcs) o << " " << kv.first << " " << kv.second;
  o << "\n";
  for (const auto& f : r.folded) o << "  " << f << " (the port has fewer VCs than the unit's hop slots)\n";
  o << "  explored " << r.states << " routing states (switch, input, VC, header) with " << r.calls
    << " unit calls over every draw and " << r.views << " congestion view" << (r.views == 1 ? "" : "s")
    << (r.control ? "; control frames included" : "") << "\n";
  if (r.verdict != DeadlockCheckResult::Verdict::Error)
    o << "  channel VCs " << r.channels_used << " used of " << r.channels << ", dependencies " << r.dependencies
      << ", longest route " << r.max_hops << " hops\n";
  switch (r.verdict) {
    case DeadlockCheckResult::Verdict::Acyclic:
      o << "  result: deadlock-free: the channel dependency graph is acyclic\n";
      break;
    case DeadlockCheckResult::Verdict::Duato:
      o << "  result: deadlock-free by Duato's condition: the dependency graph has cycles through the adaptive "
           "channels, but the escape sub-network (every state's last candidate: "
        << r.escape_channels << " channels, " << r.escape_dependencies
        << " dependencies) is acyclic and every state offers it\n";
      break;
    case DeadlockCheckResult::Verdict::Cycle:
      o << "  result: DEADLOCK POSSIBLE: a cycle of " << r.cycle.size() << " channel dependencies"
        << (r.escape_channels ? " in the escape sub-network" : "") << " (channel => channel it waits for [a packet "
        << "that makes the dependency]):\n";
      for (const auto& e : r.cycle) o << "    " << e << "\n";
      break;
    case DeadlockCheckResult::Verdict::Error:
      o << (r.too_large ? "  result: NOT CHECKED: " : "  result: ERROR: ") << r.error << "\n";
      break;
  }
  o << "  (" << r.seconds << " s)\n";
  return o.str();
}

}  // namespace scfly
