// The allocator variants of switch.allocator (rtl_models/switch/parts/allocator_output_first.h,
// allocator_wavefront.h, allocator_islip.h) alone: driven by request matrices, each checked
// against a reference written from the rule in its header (per-port loops over explicit
// tuples, no shared code with the parts), exhaustively over the request matrices of a radix-4
// switch with 2 VCs and at random at radix 16 and 48 (control VCs, an internal round-robin
// port, transit and age priority, several passes), and against the properties every
// allocator must have: a grant is a request, one grant per output VC, the connection budget
// of every input and output port, no starvation of a persistent request, determinism.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "rtl_models/switch/parts/allocator_islip.h"
#include "rtl_models/switch/parts/allocator_output_first.h"
#include "rtl_models/switch/parts/allocator_plugin.h"
#include "rtl_models/switch/parts/allocator_wavefront.h"

namespace scfly {
namespace {

constexpr int kNone = -1;

// One cycle's input: per input VC the output VC its head asks for (kNone: none), its age,
// and the connections every port holds already.
struct Matrix {
  std::vector<std::vector<std::pair<int, int>>> want;  // [ip][v] -> (op, ov)
  std::vector<std::vector<uint64_t>> age;
  std::vector<uint8_t> in_active, out_active;
};

struct Grant {
  int ip, v, op, ov;
  bool operator==(const Grant& o) const { return ip == o.ip && v == o.v && op == o.op && ov == o.ov; }
};

// The switch's side: an output port takes up to cap connections, an output VC one per cycle;
// a granted input VC no longer requests. It counts the calls of grant() per port too.
struct Harness {
  const AllocatorConfig& cfg;
  Matrix m;
  std::vector<std::vector<uint8_t>> taken, done;  // [op][ov], [ip][v]
  std::vector<Grant> grants;
  int over_in = 0, over_out = 0;
  Harness(const AllocatorConfig& c, const Matrix& mm) : cfg(c), m(mm) {
    const auto K = static_cast<size_t>(c.inputs);
    const size_t V = *std::max_element(c.vcs.begin(), c.vcs.end());
    taken.assign(K, std::vector<uint8_t>(V, 0));
    done.assign(K, std::vector<uint8_t>(V, 0));
  }
  bool wants(int ip, int v, int& op, int& ov) const {
    const auto [o, c] = m.want[static_cast<size_t>(ip)][static_cast<size_t>(v)];
    if (o == kNone || done[static_cast<size_t>(ip)][static_cast<size_t>(v)]) return false;
    if (m.out_active[static_cast<size_t>(o)] >= cfg.conn_cap || taken[static_cast<size_t>(o)][static_cast<size_t>(c)])
      return false;
    op = o;
    ov = c;
    return true;
  }
  bool take(int ip, int v, int op, int ov) {
    // A call for a port that holds all the connections it may: the allocator exceeded a budget.
    if (m.in_active[static_cast<size_t>(ip)] >= cfg.conn_cap) ++over_in;
    if (m.out_active[static_cast<size_t>(op)] >= cfg.conn_cap) ++over_out;
    if (m.out_active[static_cast<size_t>(op)] >= cfg.conn_cap || taken[static_cast<size_t>(op)][static_cast<size_t>(ov)])
      return false;
    taken[static_cast<size_t>(op)][static_cast<size_t>(ov)] = 1;
    done[static_cast<size_t>(ip)][static_cast<size_t>(v)] = 1;
    ++m.in_active[static_cast<size_t>(ip)];
    ++m.out_active[static_cast<size_t>(op)];
    grants.push_back({ip, v, op, ov});
    return true;
  }
};

// One cycle of a part through the harness.
template <class Part>
Harness run_part(Part& a, const Matrix& m, uint64_t* late = nullptr) {
  Harness h(a.config(), m);
  PortMask busy;
  for (int p = 0; p < a.config().inputs; ++p) busy.set(p);
  auto want = [&](int ip, int v, RouteDecision& d) {
    int op, ov;
    if (!h.wants(ip, v, op, ov)) return false;
    d = RouteDecision{static_cast<int16_t>(op), static_cast<uint8_t>(ov)};
    return true;
  };
  auto age = [&](int ip, int v) { return m.age[static_cast<size_t>(ip)][static_cast<size_t>(v)]; };
  auto grant = [&](const AllocRequest& r) { return h.take(r.in_port, r.in_vc, r.out_port, r.out_vc); };
  const uint64_t l = a.allocate(busy, h.m.in_active.data(), h.m.out_active.data(), want, age, grant);
  if (late) *late = l;
  return h;
}

// ---- The references: each header's rule, as directly as it reads.

struct Req {
  int ip, v, op, ov, rank;
};

struct RefBase {
  AllocatorConfig cfg;
  std::vector<int> vc_rr;
  explicit RefBase(const AllocatorConfig& c) : cfg(c), vc_rr(static_cast<size_t>(c.inputs), 0) {}
  int K() const { return cfg.inputs; }
  bool control(int ip, int v) const { return v >= cfg.data_vcs[static_cast<size_t>(ip)]; }
  int round_robin_vcs(int ip) const {
    return ip == cfg.rr_all ? cfg.vcs[static_cast<size_t>(ip)] : cfg.data_vcs[static_cast<size_t>(ip)];
  }
  // An input port's order: control VCs by index, then data VCs round-robin.
  std::vector<int> input_order(int ip) const {
    std::vector<int> o;
    const int nv = cfg.vcs[static_cast<size_t>(ip)], nd = round_robin_vcs(ip);
    for (int v = nd; v < nv; ++v) o.push_back(v);
    for (int n = 0; n < nd; ++n) o.push_back((vc_rr[static_cast<size_t>(ip)] + n) % nd);
    return o;
  }
  std::vector<Req> requests(const Harness& h) const {
    std::vector<Req> r;
    for (int ip = 0; ip < K(); ++ip) {
      if (cfg.conn_cap - h.m.in_active[static_cast<size_t>(ip)] <= 0) continue;
      int rank = 0;
      for (int v : input_order(ip)) {
        int op, ov;
        if (h.wants(ip, v, op, ov)) r.push_back({ip, v, op, ov, rank++});
      }
    }
    return r;
  }
  void move_vc(int ip, int v) {
    const int nd = round_robin_vcs(ip);
    if (v < nd) vc_rr[static_cast<size_t>(ip)] = (v + 1) % nd;
  }
  int dist(int a, int b) const { return ((a - b) % K() + K()) % K(); }
};

// Separable output-first.
struct RefOutputFirst : RefBase {
  std::vector<int> out_rr;
  explicit RefOutputFirst(const AllocatorConfig& c) : RefBase(c), out_rr(static_cast<size_t>(c.inputs), 0) {}
  std::vector<Grant> cycle(const Matrix& m) {
    Harness h(cfg, m);
    for (int pass = 0; pass < cfg.iterations; ++pass) {
      const std::vector<Req> reqs = requests(h);
      if (reqs.empty()) break;
      std::vector<int> in_budget(static_cast<size_t>(K())), out_slots(static_cast<size_t>(K()));
      for (int p = 0; p < K(); ++p) {
        in_budget[static_cast<size_t>(p)] = cfg.conn_cap - h.m.in_active[static_cast<size_t>(p)];
        out_slots[static_cast<size_t>(p)] = cfg.conn_cap - h.m.out_active[static_cast<size_t>(p)];
      }
      // Grant: each output over its requests in its order.
      std::vector<char> granted(reqs.size(), 0), accepted(reqs.size(), 0);
      std::vector<std::vector<size_t>> out_order(static_cast<size_t>(K()));
      for (int op = 0; op < K(); ++op) {
        std::vector<std::pair<std::tuple<int, int, uint64_t, int, int>, size_t>> mine;
        for (size_t i = 0; i < reqs.size(); ++i) {
          const Req& r = reqs[i];
          if (r.op != op) continue;
          const int inj = cfg.transit_priority && cfg.injection[static_cast<size_t>(r.ip)] ? 1 : 0;
          const uint64_t a =
              cfg.age_priority ? std::min<uint64_t>(m.age[static_cast<size_t>(r.ip)][static_cast<size_t>(r.v)], (1ULL << 30) - 1) : 0;
          mine.push_back({{control(r.ip, r.v) ? 0 : 1, inj, a, dist(r.ip, out_rr[static_cast<size_t>(op)]), r.rank}, i});
        }
        std::sort(mine.begin(), mine.end());
        std::vector<int> ovs;
        for (const auto& [key, i] : mine) {
          out_order[static_cast<size_t>(op)].push_back(i);
          if (out_slots[static_cast<size_t>(op)] <= 0) continue;
          if (std::find(ovs.begin(), ovs.end(), reqs[i].ov) != ovs.end()) continue;
          ovs.push_back(reqs[i].ov);
          granted[i] = 1;
          --out_slots[static_cast<size_t>(op)];
        }
      }
      // Accept: each input in its order.
      for (int ip = 0; ip < K(); ++ip)
        for (size_t i = 0; i < reqs.size(); ++i) {
          if (reqs[i].ip != ip || !granted[i] || in_budget[static_cast<size_t>(ip)] <= 0) continue;
          if (!h.take(ip, reqs[i].v, reqs[i].op, reqs[i].ov)) continue;
          accepted[i] = 1;
          --in_budget[static_cast<size_t>(ip)];
          move_vc(ip, reqs[i].v);
        }
      for (int op = 0; op < K(); ++op)
        for (size_t i : out_order[static_cast<size_t>(op)])
          if (accepted[i]) {
            out_rr[static_cast<size_t>(op)] = (reqs[i].ip + 1) % K();
            break;
          }
    }
    return h.grants;
  }
};

// iSLIP.
struct RefIslip : RefBase {
  std::vector<int> grant_rr, accept_rr;
  explicit RefIslip(const AllocatorConfig& c)
      : RefBase(c), grant_rr(static_cast<size_t>(c.inputs), 0), accept_rr(static_cast<size_t>(c.inputs), 0) {}
  std::vector<Grant> cycle(const Matrix& m) {
    Harness h(cfg, m);
    for (int it = 0; it < cfg.iterations; ++it) {
      const std::vector<Req> reqs = requests(h);
      if (reqs.empty()) break;
      std::vector<int> in_budget(static_cast<size_t>(K())), out_slots(static_cast<size_t>(K()));
      for (int p = 0; p < K(); ++p) {
        in_budget[static_cast<size_t>(p)] = cfg.conn_cap - h.m.in_active[static_cast<size_t>(p)];
        out_slots[static_cast<size_t>(p)] = cfg.conn_cap - h.m.out_active[static_cast<size_t>(p)];
      }
      std::vector<char> granted(reqs.size(), 0), accepted(reqs.size(), 0);
      std::vector<std::vector<size_t>> out_order(static_cast<size_t>(K()));
      for (int op = 0; op < K(); ++op) {
        std::vector<std::pair<std::tuple<int, int, int>, size_t>> mine;
        for (size_t i = 0; i < reqs.size(); ++i)
          if (reqs[i].op == op)
            mine.push_back({{control(reqs[i].ip, reqs[i].v) ? 0 : 1, dist(reqs[i].ip, grant_rr[static_cast<size_t>(op)]),
                             reqs[i].rank},
                            i});
        std::sort(mine.begin(), mine.end());
        std::vector<int> ovs;
        for (const auto& [key, i] : mine) {
          out_order[static_cast<size_t>(op)].push_back(i);
          if (out_slots[static_cast<size_t>(op)] <= 0) continue;
          if (std::find(ovs.begin(), ovs.end(), reqs[i].ov) != ovs.end()) continue;
          ovs.push_back(reqs[i].ov);
          granted[i] = 1;
          --out_slots[static_cast<size_t>(op)];
        }
      }
      for (int ip = 0; ip < K(); ++ip) {
        std::vector<std::pair<std::tuple<int, int, int>, size_t>> mine;
        for (size_t i = 0; i < reqs.size(); ++i)
          if (reqs[i].ip == ip && granted[i])
            mine.push_back({{control(ip, reqs[i].v) ? 0 : 1, dist(reqs[i].op, accept_rr[static_cast<size_t>(ip)]),
                             reqs[i].rank},
                            i});
        std::sort(mine.begin(), mine.end());
        for (const auto& [key, i] : mine) {
          if (in_budget[static_cast<size_t>(ip)] <= 0) break;
          if (!h.take(ip, reqs[i].v, reqs[i].op, reqs[i].ov)) continue;
          accepted[i] = 1;
          --in_budget[static_cast<size_t>(ip)];
          if (it == 0) {
            accept_rr[static_cast<size_t>(ip)] = (reqs[i].op + 1) % K();
            move_vc(ip, reqs[i].v);
          }
        }
      }
      if (it == 0)
        for (int op = 0; op < K(); ++op)
          for (size_t i : out_order[static_cast<size_t>(op)])
            if (accepted[i]) {
              grant_rr[static_cast<size_t>(op)] = (reqs[i].ip + 1) % K();
              break;
            }
    }
    return h.grants;
  }
};

// Wavefront: the matrix swept diagonal by diagonal, control cells first.
struct RefWavefront : RefBase {
  int diag = 0;
  explicit RefWavefront(const AllocatorConfig& c) : RefBase(c) {}
  std::vector<Grant> cycle(const Matrix& m) {
    Harness h(cfg, m);
    for (int pass = 0; pass < cfg.iterations; ++pass) {
      const std::vector<Req> reqs = requests(h);
      if (reqs.empty()) break;
      std::vector<std::vector<int>> cell(static_cast<size_t>(K()), std::vector<int>(static_cast<size_t>(K()), -1));
      for (size_t i = 0; i < reqs.size(); ++i)
        if (cell[static_cast<size_t>(reqs[i].ip)][static_cast<size_t>(reqs[i].op)] < 0)
          cell[static_cast<size_t>(reqs[i].ip)][static_cast<size_t>(reqs[i].op)] = static_cast<int>(i);
      std::vector<int> row(static_cast<size_t>(K())), col(static_cast<size_t>(K()));
      for (int p = 0; p < K(); ++p) {
        row[static_cast<size_t>(p)] = cfg.conn_cap - h.m.in_active[static_cast<size_t>(p)];
        col[static_cast<size_t>(p)] = cfg.conn_cap - h.m.out_active[static_cast<size_t>(p)];
      }
      for (int ctl_phase = 1; ctl_phase >= 0; --ctl_phase)
        for (int d = 0; d < K(); ++d)
          for (int ip = 0; ip < K(); ++ip) {
            const int op = (ip + diag + d) % K();
            const int c = cell[static_cast<size_t>(ip)][static_cast<size_t>(op)];
            if (c < 0) continue;
            const Req& r = reqs[static_cast<size_t>(c)];
            if (control(r.ip, r.v) != (ctl_phase == 1)) continue;
            if (row[static_cast<size_t>(ip)] <= 0 || col[static_cast<size_t>(op)] <= 0) continue;
            if (!h.take(ip, r.v, op, r.ov)) continue;
            --row[static_cast<size_t>(ip)];
            --col[static_cast<size_t>(op)];
            move_vc(ip, r.v);
          }
    }
    diag = (diag + 1) % K();
    return h.grants;
  }
};

// ---- Configurations and matrices.

AllocatorConfig make_cfg(int K, int vcs, int data, int cap, int iters, int rr_all = -1) {
  AllocatorConfig c;
  c.inputs = K;
  c.conn_cap = cap;
  c.iterations = iters;
  for (int p = 0; p < K; ++p) {
    c.vcs.push_back(static_cast<uint8_t>(vcs));
    c.data_vcs.push_back(static_cast<uint8_t>(p == rr_all ? 0 : data));
    c.injection.push_back(p % 4 == 0 ? 1 : 0);
  }
  c.rr_all = rr_all;
  return c;
}

Matrix random_matrix(const AllocatorConfig& c, std::mt19937_64& rng, double p_req) {
  Matrix m;
  std::uniform_real_distribution<double> u(0, 1);
  const int K = c.inputs;
  for (int ip = 0; ip < K; ++ip) {
    std::vector<std::pair<int, int>> w;
    std::vector<uint64_t> a;
    for (int v = 0; v < c.vcs[static_cast<size_t>(ip)]; ++v) {
      // Hot outputs: a quarter of the requests go to output 0 or 1.
      const int op = u(rng) < 0.25 ? static_cast<int>(rng() % 2) : static_cast<int>(rng() % static_cast<uint64_t>(K));
      if (u(rng) < p_req) w.push_back({op, static_cast<int>(rng() % static_cast<uint64_t>(c.vcs[static_cast<size_t>(ip)]))});
      else w.push_back({kNone, kNone});
      a.push_back(rng() % 64);
    }
    m.want.push_back(w);
    m.age.push_back(a);
    m.in_active.push_back(static_cast<uint8_t>(rng() % 4 == 0 ? rng() % static_cast<uint64_t>(c.conn_cap + 1) : 0));
    m.out_active.push_back(static_cast<uint8_t>(rng() % 4 == 0 ? rng() % static_cast<uint64_t>(c.conn_cap + 1) : 0));
  }
  return m;
}

std::string show(const std::vector<Grant>& g) {
  std::string s;
  for (const Grant& x : g)
    s += "(" + std::to_string(x.ip) + "," + std::to_string(x.v) + ")->(" + std::to_string(x.op) + "," +
         std::to_string(x.ov) + ") ";
  return s;
}

// The invariants of one cycle: each grant was a request, one grant per output VC and per
// input VC, every port within its connection budget (grant() never asked beyond it).
void expect_invariants(const Harness& h, const Matrix& m, const AllocatorConfig& c) {
  std::vector<std::vector<int>> per_ov(static_cast<size_t>(c.inputs), std::vector<int>(256, 0));
  std::vector<std::vector<int>> per_iv(static_cast<size_t>(c.inputs), std::vector<int>(256, 0));
  for (const Grant& g : h.grants) {
    const auto w = m.want[static_cast<size_t>(g.ip)][static_cast<size_t>(g.v)];
    ASSERT_EQ(w.first, g.op);
    ASSERT_EQ(w.second, g.ov);
    ASSERT_EQ(++per_ov[static_cast<size_t>(g.op)][static_cast<size_t>(g.ov)], 1);
    ASSERT_EQ(++per_iv[static_cast<size_t>(g.ip)][static_cast<size_t>(g.v)], 1);
  }
  // grant() is never called for a port that holds all the connections it may.
  ASSERT_EQ(h.over_in, 0);
  ASSERT_EQ(h.over_out, 0);
  for (int p = 0; p < c.inputs; ++p) {
    ASSERT_LE(h.m.in_active[static_cast<size_t>(p)], c.conn_cap);
    ASSERT_LE(h.m.out_active[static_cast<size_t>(p)], c.conn_cap);
  }
}

// Every request matrix of a radix-4 switch with 2 data VCs: each input VC asks for nothing
// or for one of the 4 output ports, on its own VC index (so inputs collide on output VCs),
// 5^8 matrices. The pointers' state before the cycle is derived from the matrix's number;
// speedup 1 and 2 alternating, two passes for every third matrix (one otherwise). The
// part's grants and pointers equal the reference's.
template <class Part, class Ref, class Load, class Check>
void exhaustive(Load load, Check same_state) {
  const int K = 4, V = 2;
  int n = 0;
  for (int idx = 0; idx < 390625; ++idx) {
    const int cap = 1 + (idx & 1);
    const AllocatorConfig c = make_cfg(K, V, V, cap, 1 + (idx % 3 == 0 ? 1 : 0));
    Matrix m;
    int x = idx;
    for (int ip = 0; ip < K; ++ip) {
      std::vector<std::pair<int, int>> w;
      for (int v = 0; v < V; ++v, x /= 5) w.push_back(x % 5 == 4 ? std::make_pair(kNone, kNone) : std::make_pair(x % 5, v));
      m.want.push_back(w);
      m.age.push_back(std::vector<uint64_t>(V, 0));
      m.in_active.push_back(0);
      m.out_active.push_back(0);
    }
    Part a(c);
    Ref r(c);
    load(a, r, idx);
    const Harness h = run_part(a, m);
    const std::vector<Grant> want = r.cycle(m);
    if (!(h.grants == want)) {
      ADD_FAILURE() << "matrix " << idx << ": part " << show(h.grants) << " reference " << show(want);
      if (++n > 5) return;
    }
    expect_invariants(h, m, c);
    if (!same_state(a, r)) {
      ADD_FAILURE() << "matrix " << idx << ": pointers differ";
      if (++n > 5) return;
    }
  }
}

std::vector<uint8_t> u8(const std::vector<int>& v) { return std::vector<uint8_t>(v.begin(), v.end()); }
std::vector<int> i32(const std::vector<uint8_t>& v) { return std::vector<int>(v.begin(), v.end()); }

TEST(AllocatorVariants, OutputFirstEqualsItsReferenceOnEveryRadix4Matrix) {
  exhaustive<OutputFirstAllocator, RefOutputFirst>(
      [](OutputFirstAllocator& a, RefOutputFirst& r, int idx) {
        for (int p = 0; p < 4; ++p) {
          r.vc_rr[static_cast<size_t>(p)] = (idx >> p) & 1;
          r.out_rr[static_cast<size_t>(p)] = (idx / 7 + p) % 4;
        }
        a.set_pointers(u8(r.vc_rr), u8(r.out_rr));
      },
      [](const OutputFirstAllocator& a, const RefOutputFirst& r) {
        return i32(a.in_pointers()) == r.vc_rr && i32(a.out_pointers()) == r.out_rr;
      });
}

TEST(AllocatorVariants, IslipEqualsItsReferenceOnEveryRadix4Matrix) {
  exhaustive<IslipAllocator, RefIslip>(
      [](IslipAllocator& a, RefIslip& r, int idx) {
        for (int p = 0; p < 4; ++p) {
          r.vc_rr[static_cast<size_t>(p)] = (idx >> p) & 1;
          r.grant_rr[static_cast<size_t>(p)] = (idx / 7 + p) % 4;
          r.accept_rr[static_cast<size_t>(p)] = (idx / 11 + 3 * p) % 4;
        }
        a.set_pointers(u8(r.vc_rr), u8(r.grant_rr), u8(r.accept_rr));
      },
      [](const IslipAllocator& a, const RefIslip& r) {
        return i32(a.in_pointers()) == r.vc_rr && i32(a.grant_pointers()) == r.grant_rr &&
               i32(a.accept_pointers()) == r.accept_rr;
      });
}

TEST(AllocatorVariants, WavefrontEqualsItsReferenceOnEveryRadix4Matrix) {
  exhaustive<WavefrontAllocator, RefWavefront>(
      [](WavefrontAllocator& a, RefWavefront& r, int idx) {
        for (int p = 0; p < 4; ++p) r.vc_rr[static_cast<size_t>(p)] = (idx >> p) & 1;
        r.diag = idx / 3 % 4;
        a.set_state(u8(r.vc_rr), r.diag);
      },
      [](const WavefrontAllocator& a, const RefWavefront& r) {
        return i32(a.in_pointers()) == r.vc_rr && a.diagonal() == r.diag;
      });
}

// The configuration of random trial `trial`: radix 16 or 48, 1-3 data VCs with or without a
// control VC, an internal round-robin port, transit or age priority, 1-3 connections and passes.
AllocatorConfig trial_config(int trial) {
  const int K = trial % 2 ? 48 : 16;
  const int data = 1 + trial % 3, vcs = data + (trial % 4 == 0 ? 0 : 1);
  AllocatorConfig c = make_cfg(K, vcs, data, 1 + trial % 3, 1 + trial % 3, trial % 5 == 0 ? K - 1 : -1);
  c.transit_priority = trial % 6 == 1;
  c.age_priority = trial % 6 == 3;
  return c;
}

// Random cycles in sequence (the state carried over) at radix 16 and 48: control VCs, an
// internal round-robin port, transit and age priority, 1 to 3 passes, ports holding
// connections already.
template <class Part, class Ref>
void random_sequences() {
  std::mt19937_64 rng(2026);
  for (int trial = 0; trial < 24; ++trial) {
    const AllocatorConfig c = trial_config(trial);
    Part a(c);
    Ref r(c);
    for (int cyc = 0; cyc < 60; ++cyc) {
      const Matrix m = random_matrix(c, rng, 0.2 + 0.1 * (cyc % 7));
      const Harness h = run_part(a, m);
      const std::vector<Grant> want = r.cycle(m);
      ASSERT_TRUE(h.grants == want) << "trial " << trial << " cycle " << cyc << ": part " << show(h.grants)
                                    << "\nreference " << show(want);
      expect_invariants(h, m, c);
      ASSERT_EQ(i32(a.in_pointers()), r.vc_rr);
    }
  }
}

TEST(AllocatorVariants, OutputFirstEqualsItsReferenceAtRandomOnLargeRadices) {
  random_sequences<OutputFirstAllocator, RefOutputFirst>();
}
TEST(AllocatorVariants, IslipEqualsItsReferenceAtRandomOnLargeRadices) { random_sequences<IslipAllocator, RefIslip>(); }
TEST(AllocatorVariants, WavefrontEqualsItsReferenceAtRandomOnLargeRadices) {
  random_sequences<WavefrontAllocator, RefWavefront>();
}

// No starvation: every data VC of a radix-16 switch with 2 data VCs (and an idle control
// VC: control has strict priority, so persistent control traffic may starve data by design)
// requests, every cycle, the same output VC of a hot output or a random one; connections
// end each cycle. Within a fixed window every persistent request is granted.
template <class Part>
void no_starvation() {
  for (int cap : {1, 2}) {
    const int K = 16, V = 3;
    const AllocatorConfig c = make_cfg(K, V, 2, cap, 1);
    Part a(c);
    std::mt19937_64 rng(7);
    Matrix m;
    for (int ip = 0; ip < K; ++ip) {
      std::vector<std::pair<int, int>> w;
      for (int v = 0; v < V; ++v)
        w.push_back(v == 2 ? std::make_pair(kNone, kNone)  // control VC: strict priority would starve data
                    : ip % 2 == 0 ? std::make_pair(0, v) : std::make_pair(static_cast<int>(rng() % K), v));
      m.want.push_back(w);
      m.age.push_back(std::vector<uint64_t>(V, 0));
      m.in_active.push_back(0);
      m.out_active.push_back(0);
    }
    // The hot output (0) takes cap connections a cycle and has 3 VCs, wanted by 8 inputs x 3
    // VCs: each waits its turn; the window allows a generous 4x the fair share.
    const int window = 4 * K * V / cap;
    std::vector<int> last(static_cast<size_t>(K * V), 0);
    for (int cyc = 1; cyc <= 8 * window; ++cyc) {
      const Harness h = run_part(a, m);
      for (const Grant& g : h.grants) last[static_cast<size_t>(g.ip * V + g.v)] = cyc;
      for (int i = 0; i < K * V; ++i) {
        if (i % V == 2) continue;
        ASSERT_LT(cyc - last[static_cast<size_t>(i)], window) << "input VC (" << i / V << "," << i % V << ") starves";
      }
    }
  }
}

TEST(AllocatorVariants, OutputFirstStarvesNoPersistentRequest) { no_starvation<OutputFirstAllocator>(); }
TEST(AllocatorVariants, IslipStarvesNoPersistentRequest) { no_starvation<IslipAllocator>(); }
TEST(AllocatorVariants, WavefrontStarvesNoPersistentRequest) { no_starvation<WavefrontAllocator>(); }

// Deterministic: the same cycles give the same grants and state.
template <class Part>
void deterministic() {
  const AllocatorConfig c = make_cfg(16, 3, 2, 2, 2);
  Part a(c), b(c);
  std::mt19937_64 r1(5), r2(5);
  for (int cyc = 0; cyc < 200; ++cyc) {
    const Harness ha = run_part(a, random_matrix(c, r1, 0.5));
    const Harness hb = run_part(b, random_matrix(c, r2, 0.5));
    ASSERT_TRUE(ha.grants == hb.grants);
    ASSERT_EQ(a.in_pointers(), b.in_pointers());
  }
}

TEST(AllocatorVariants, EveryVariantIsDeterministic) {
  deterministic<OutputFirstAllocator>();
  deterministic<IslipAllocator>();
  deterministic<WavefrontAllocator>();
}

// iSLIP: pointers move only on grants accepted in the first iteration. Input 0 asks output 0
// (VC 0) and output 1 (VC 1), input 1 asks output 1; one connection per port, 2 iterations.
// Iteration 1: both outputs grant input 0 (pointers at 0), which accepts output 0. Iteration
// 2: output 1 grants input 1, which accepts; that grant moves no pointer.
TEST(AllocatorVariants, IslipMovesPointersOnlyInTheFirstIteration) {
  const AllocatorConfig c = make_cfg(4, 2, 2, 1, 2);
  IslipAllocator a(c);
  Matrix m;
  for (int ip = 0; ip < 4; ++ip) {
    m.want.push_back({{kNone, kNone}, {kNone, kNone}});
    m.age.push_back({0, 0});
    m.in_active.push_back(0);
    m.out_active.push_back(0);
  }
  m.want[0] = {{0, 0}, {1, 1}};
  m.want[1][0] = {1, 0};
  uint64_t late = 0;
  const Harness h = run_part(a, m, &late);
  ASSERT_EQ(h.grants.size(), 2u) << show(h.grants);
  EXPECT_TRUE((h.grants[0] == Grant{0, 0, 0, 0})) << show(h.grants);
  EXPECT_TRUE((h.grants[1] == Grant{1, 0, 1, 0})) << show(h.grants);
  EXPECT_EQ(late, 1u);
  EXPECT_EQ(i32(a.grant_pointers()), (std::vector<int>{1, 0, 0, 0}));
  EXPECT_EQ(i32(a.accept_pointers()), (std::vector<int>{1, 0, 0, 0}));
  EXPECT_EQ(i32(a.in_pointers()), (std::vector<int>{1, 0, 0, 0}));
}


// ---- A plug-in allocator (parts/allocator_plugin.h): the switch's side of it.

// The separable-output rule written as a plug-in, against AllocPass only (what a user sees).
class OutputFirstPolicy : public AllocatorPolicy {
 public:
  explicit OutputFirstPolicy(const AllocatorConfig& c) : m_cfg(c), m_out_rr(static_cast<size_t>(c.inputs), 0) {}
  void pass(AllocPass& p) override {
    const std::vector<PluginRequest>& rq = p.requests();
    const int K = m_cfg.inputs;
    auto key = [&](size_t i) {
      const PluginRequest& r = rq[i];
      const int inj = m_cfg.transit_priority && r.injection ? 1 : 0;
      const uint64_t age = m_cfg.age_priority ? std::min<uint64_t>(r.injected, (1ULL << 30) - 1) : 0;
      return std::make_tuple(r.out_port, r.control ? 0 : 1, inj, age, (r.in_port - m_out_rr[r.out_port] + K) % K,
                             r.rank);
    };
    std::vector<size_t> order(rq.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t x, size_t y) { return key(x) < key(y); });
    std::vector<char> granted(rq.size(), 0), accepted(rq.size(), 0);
    int op = -1, slots = 0;
    std::vector<int> vcs;
    for (size_t i : order) {  // grant: per output up to its slots, one per output VC
      if (rq[i].out_port != op) {
        op = rq[i].out_port;
        slots = p.output_slots(op);
        vcs.clear();
      }
      if (slots <= 0 || std::find(vcs.begin(), vcs.end(), rq[i].out_vc) != vcs.end()) continue;
      granted[i] = 1;
      vcs.push_back(rq[i].out_vc);
      --slots;
    }
    for (size_t i = 0; i < rq.size(); ++i)  // accept: in input order, up to the input's budget
      if (granted[i] && p.input_budget(rq[i].in_port) > 0 && p.grant(i)) accepted[i] = 1;
    int last = -1;
    for (size_t i : order) {  // output pointers: past the first accepted grant of each output
      if (!accepted[i] || rq[i].out_port == last) continue;
      last = rq[i].out_port;
      m_out_rr[static_cast<size_t>(last)] = static_cast<uint8_t>((rq[i].in_port + 1) % K);
    }
  }

 private:
  AllocatorConfig m_cfg;
  std::vector<uint8_t> m_out_rr;
};

// What a plug-in sees and what it may do: the separable-output rule as a plug-in grants what
// scfly's OutputFirstAllocator grants, cycle after cycle, at radix 16 and 48 with control
// VCs, an internal round-robin port, transit and age priority and several passes; the input
// VC pointers (moved by the plug-in's switch side) stay equal too.
TEST(AllocatorPlugin, ThePluginInterfaceCarriesWhatAnAllocatorNeeds) {
  std::mt19937_64 rng(2027);
  for (int trial = 0; trial < 24; ++trial) {
    const AllocatorConfig c = trial_config(trial);
    PluginAllocator a(c, std::make_unique<OutputFirstPolicy>(c));
    OutputFirstAllocator r(c);
    for (int cyc = 0; cyc < 60; ++cyc) {
      const Matrix m = random_matrix(c, rng, 0.2 + 0.1 * (cyc % 7));
      uint64_t late_a = 0, late_r = 0;
      const Harness h = run_part(a, m, &late_a);
      const Harness g = run_part(r, m, &late_r);
      ASSERT_TRUE(h.grants == g.grants) << "trial " << trial << " cycle " << cyc << ": plug-in " << show(h.grants)
                                        << "\nscfly's " << show(g.grants);
      ASSERT_EQ(late_a, late_r);
      expect_invariants(h, m, c);
      ASSERT_EQ(a.in_pointers(), r.in_pointers());
    }
  }
}

// A plug-in cannot break the switch: one that asks for every request, twice, in reverse,
// gets only grants the switch's rules allow (a grant is a request, one per output VC and
// input VC, every port within its connections: grant() is never called beyond them) and
// the refusals are counted; a request index out of range and a policy's own exception come
// out of allocate() (the switch stops the run with the message).
TEST(AllocatorPlugin, TheSwitchRefusesWhatAPluginMustNotGrant) {
  struct Reckless : AllocatorPolicy {
    void pass(AllocPass& p) override {
      for (int k = 0; k < 2; ++k)
        for (size_t i = p.requests().size(); i-- > 0;) p.grant(i);
    }
  };
  std::mt19937_64 rng(11);
  uint64_t refused = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const AllocatorConfig c = make_cfg(trial % 2 ? 48 : 16, 3, 2, 1 + trial % 3, 1 + trial % 2);
    PluginAllocator a(c, std::make_unique<Reckless>());
    for (int cyc = 0; cyc < 40; ++cyc) {
      const Matrix m = random_matrix(c, rng, 0.6);
      const Harness h = run_part(a, m);
      expect_invariants(h, m, c);
      ASSERT_FALSE(h.grants.empty());
    }
    refused += a.refused();
  }
  EXPECT_GT(refused, 1000u);
  struct OutOfRange : AllocatorPolicy {
    void pass(AllocPass& p) override { p.grant(p.requests().size()); }
  };
  struct Throws : AllocatorPolicy {
    void pass(AllocPass&) override { throw std::runtime_error("no idea"); }
  };
  const AllocatorConfig c = make_cfg(16, 2, 2, 1, 1);
  const Matrix m = random_matrix(c, rng, 1.0);
  PluginAllocator oor(c, std::make_unique<OutOfRange>());
  EXPECT_THROW(run_part(oor, m), std::out_of_range);
  PluginAllocator th(c, std::make_unique<Throws>());
  EXPECT_THROW(run_part(th, m), std::runtime_error);
  EXPECT_THROW(PluginAllocator(c, nullptr), std::invalid_argument);
}

}  // namespace
}  // namespace scfly
