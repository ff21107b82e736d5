// The allocator part (rtl_models/switch/parts/allocator.h) alone: driven by request
// matrices, checked against a reference model written from the rule in its header (a
// per-output loop over tuples, no order key, no sort) and against the properties a
// separable allocator must have.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "rtl_models/switch/parts/allocator.h"

namespace scfly {
namespace {

constexpr int kNone = -1;

// What a switch tells its allocator in one cycle: per input VC, the output VC its head asks
// for (kNone: nothing routed), the head's age, and how many connections every port holds.
struct Matrix {
  std::vector<std::vector<std::pair<int, int>>> want;  // [ip][v] -> (op, ov) or (kNone, kNone)
  std::vector<std::vector<uint64_t>> age;
  std::vector<uint8_t> in_active, out_active;
};

struct Grant {
  int ip, v, op, ov;
  bool operator==(const Grant& o) const { return ip == o.ip && v == o.v && op == o.op && ov == o.ov; }
};

// The harness's side of the switch: an output port takes up to cap connections, an output
// VC one; a granted input VC no longer requests.
struct Harness {
  const AllocatorConfig& cfg;
  Matrix m;
  std::set<std::pair<int, int>> taken, granted_in;
  std::vector<Grant> grants;
  bool wants(int ip, int v, int& op, int& ov) const {
    const auto [o, c] = m.want[static_cast<size_t>(ip)][static_cast<size_t>(v)];
    if (o == kNone || granted_in.count({ip, v})) return false;
    if (m.out_active[static_cast<size_t>(o)] >= cfg.conn_cap || taken.count({o, c})) return false;
    op = o;
    ov = c;
    return true;
  }
  bool take(int ip, int v, int op, int ov) {
    if (m.out_active[static_cast<size_t>(op)] >= cfg.conn_cap || taken.count({op, ov})) return false;
    taken.insert({op, ov});
    granted_in.insert({ip, v});
    ++m.in_active[static_cast<size_t>(ip)];
    ++m.out_active[static_cast<size_t>(op)];
    grants.push_back({ip, v, op, ov});
    return true;
  }
};

std::vector<Grant> run_part(SeparableAllocator& a, const Matrix& m, uint64_t* late = nullptr) {
  const AllocatorConfig& cfg = a.config();
  Harness h{cfg, m, {}, {}, {}};
  PortMask busy;
  for (int p = 0; p < cfg.inputs; ++p) busy.set(p);
  auto want = [&](int ip, int v, RouteDecision& d) {
    int op, ov;
    if (!h.wants(ip, v, op, ov)) return false;
    d = RouteDecision{static_cast<int16_t>(op), static_cast<uint8_t>(ov)};
    return true;
  };
  auto age = [&](int ip, int v) { return m.age[static_cast<size_t>(ip)][static_cast<size_t>(v)]; };
  auto grant = [&](const AllocRequest& r) { return h.take(r.in_port, r.in_vc, r.out_port, r.out_vc); };
  const bool ctl = a.config().rr_all >= 0 ||
                   !std::equal(cfg.vcs.begin(), cfg.vcs.end(), cfg.data_vcs.begin());
  const uint64_t l = ctl ? a.allocate<true>(busy, h.m.in_active.data(), want, age, grant)
                         : a.allocate<false>(busy, h.m.in_active.data(), want, age, grant);
  if (late) *late = l;
  return h.grants;
}

// The reference: the header's rule, written as directly as possible.
struct Reference {
  AllocatorConfig cfg;
  std::vector<int> in_rr, out_rr;
  explicit Reference(const AllocatorConfig& c) : cfg(c), in_rr(static_cast<size_t>(c.inputs), 0), out_rr(static_cast<size_t>(c.inputs), 0) {}

  std::vector<Grant> cycle(const Matrix& m0, uint64_t* late = nullptr) {
    Harness h{cfg, m0, {}, {}, {}};
    const int K = cfg.inputs;
    uint64_t later = 0;
    for (int pass = 0; pass < cfg.iterations; ++pass) {
      // Input stage: the VCs in their priority order, up to the budget.
      std::vector<Grant> reqs;
      for (int ip = 0; ip < K; ++ip) {
        int budget = cfg.conn_cap - h.m.in_active[static_cast<size_t>(ip)];
        const int nv = cfg.vcs[static_cast<size_t>(ip)];
        const int nd = ip == cfg.rr_all ? nv : cfg.data_vcs[static_cast<size_t>(ip)];
        std::vector<int> order;
        if (ip != cfg.rr_all)
          for (int v = nd; v < nv; ++v) order.push_back(v);
        for (int n = 0; n < nd; ++n) order.push_back((in_rr[static_cast<size_t>(ip)] + n) % nd);
        for (int v : order) {
          if (budget <= 0) break;
          int op, ov;
          if (!h.wants(ip, v, op, ov)) continue;
          reqs.push_back({ip, v, op, ov});
          --budget;
        }
      }
      if (reqs.empty()) break;
      // Output stage: each output port, in port order, over its requests by priority.
      const size_t before = h.grants.size();
      for (int op = 0; op < K; ++op) {
        std::vector<std::pair<std::tuple<int, int, uint64_t, int, int>, Grant>> mine;
        for (const Grant& r : reqs) {
          if (r.op != op) continue;
          const bool control = r.ip == cfg.rr_all || r.v >= cfg.data_vcs[static_cast<size_t>(r.ip)];
          const int inj = cfg.transit_priority && cfg.injection[static_cast<size_t>(r.ip)] ? 1 : 0;
          const uint64_t a = cfg.age_priority ? std::min<uint64_t>(m0.age[static_cast<size_t>(r.ip)][static_cast<size_t>(r.v)], (1ULL << 30) - 1) : 0;
          const int dist = ((r.ip - out_rr[static_cast<size_t>(op)]) % K + K) % K;
          mine.push_back({{control ? 0 : 1, inj, a, dist, r.v}, r});
        }
        std::stable_sort(mine.begin(), mine.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
        for (const auto& [k, r] : mine) {
          if (!h.take(r.ip, r.v, r.op, r.ov)) continue;
          out_rr[static_cast<size_t>(op)] = (r.ip + 1) % K;
          const int nd = cfg.data_vcs[static_cast<size_t>(r.ip)];
          if (r.ip == cfg.rr_all) in_rr[static_cast<size_t>(r.ip)] = (r.v + 1) % cfg.vcs[static_cast<size_t>(r.ip)];
          else if (r.v < nd) in_rr[static_cast<size_t>(r.ip)] = (r.v + 1) % nd;
        }
      }
      if (pass > 0) later += h.grants.size() - before;
    }
    if (late) *late = later;
    return h.grants;
  }
};

AllocatorConfig make_config(int K, int vcs, int ctl_vcs, int cap, int iters, bool transit, bool age, bool rr_all) {
  AllocatorConfig c;
  c.inputs = K;
  c.conn_cap = cap;
  c.iterations = iters;
  c.transit_priority = transit;
  c.age_priority = age;
  for (int p = 0; p < K; ++p) {
    c.vcs.push_back(static_cast<uint8_t>(vcs + ctl_vcs));
    c.data_vcs.push_back(static_cast<uint8_t>(vcs));
    c.injection.push_back(p % 3 == 0 ? 1 : 0);
  }
  if (rr_all) {
    c.rr_all = K - 1;
    c.data_vcs.back() = 0;
  }
  return c;
}

Matrix random_matrix(const AllocatorConfig& c, std::mt19937_64& g, double density) {
  Matrix m;
  std::uniform_real_distribution<double> u(0, 1);
  const int K = c.inputs;
  for (int ip = 0; ip < K; ++ip) {
    const int nv = c.vcs[static_cast<size_t>(ip)];
    m.want.emplace_back();
    m.age.emplace_back();
    for (int v = 0; v < nv; ++v) {
      if (u(g) < density) {
        const int op = static_cast<int>(g() % static_cast<uint64_t>(K));
        m.want.back().push_back({op, static_cast<int>(g() % c.vcs[static_cast<size_t>(op)])});
      } else {
        m.want.back().push_back({kNone, kNone});
      }
      m.age.back().push_back(g() % 4 == 0 ? (1ULL << 31) + g() % 8 : g() % 8);  // ties and saturation
    }
    m.in_active.push_back(static_cast<uint8_t>(g() % static_cast<uint64_t>(c.conn_cap + 1)));
    m.out_active.push_back(static_cast<uint8_t>(g() % static_cast<uint64_t>(c.conn_cap + 1)));
  }
  return m;
}

void expect_same_state(const SeparableAllocator& a, const Reference& r) {
  for (size_t p = 0; p < r.in_rr.size(); ++p) {
    ASSERT_EQ(a.in_pointers()[p], r.in_rr[p]) << "input pointer " << p;
    ASSERT_EQ(a.out_pointers()[p], r.out_rr[p]) << "output pointer " << p;
  }
}

// Random request matrices over every mode of the part, the pointer state carried from
// cycle to cycle: the same grants, in the same order, and the same pointers as the reference.
TEST(Allocator, MatchesReferenceOnRandomMatrices) {
  std::mt19937_64 g(20261128);
  int configs = 0;
  uint64_t grants = 0, late_total = 0;
  for (int K : {2, 4, 7, 16}) {
    for (int vcs : {1, 2, 3}) {
      for (int ctl : {0, 1}) {
        for (int cap : {1, 2}) {
          for (int iters : {1, 2, 3}) {
            const bool transit = (configs & 1) != 0, age = (configs & 2) != 0, rr_all = (configs % 5) == 0;
            const AllocatorConfig cfg = make_config(K, vcs, ctl, cap, iters, transit, age, rr_all && K > 2);
            ++configs;
            SeparableAllocator part(cfg);
            Reference ref(cfg);
            for (int cycle = 0; cycle < 60; ++cycle) {
              const Matrix m = random_matrix(cfg, g, cycle % 3 == 0 ? 0.9 : 0.4);
              uint64_t late_a = 0, late_r = 0;
              const auto ga = run_part(part, m, &late_a);
              const auto gr = ref.cycle(m, &late_r);
              ASSERT_EQ(ga.size(), gr.size()) << "config " << configs << " cycle " << cycle;
              for (size_t i = 0; i < ga.size(); ++i) ASSERT_TRUE(ga[i] == gr[i]) << "grant " << i;
              ASSERT_EQ(late_a, late_r);
              expect_same_state(part, ref);
              grants += ga.size();
              late_total += late_a;
            }
          }
        }
      }
    }
  }
  EXPECT_GT(grants, 10000u);   // the comparison saw real work
  EXPECT_GT(late_total, 100u);  // ... including grants of later passes
}

// Every request matrix of a 2-port switch with 2 VCs (each input VC idle or asking for one
// of the 4 output VCs), from every pointer state: 5^4 x 2^4 cases.
TEST(Allocator, MatchesReferenceExhaustivelyAtRadixTwo) {
  const AllocatorConfig cfg = make_config(2, 2, 0, 1, 1, false, false, false);
  int cases = 0;
  for (int code = 0; code < 625; ++code) {
    Matrix m;
    int c = code;
    for (int ip = 0; ip < 2; ++ip) {
      m.want.emplace_back();
      m.age.emplace_back(2, 0);
      for (int v = 0; v < 2; ++v) {
        const int x = c % 5;
        c /= 5;
        m.want.back().push_back(x == 0 ? std::pair<int, int>{kNone, kNone} : std::pair<int, int>{(x - 1) / 2, (x - 1) % 2});
      }
    }
    m.in_active = {0, 0};
    m.out_active = {0, 0};
    for (int st = 0; st < 16; ++st) {
      const std::vector<uint8_t> in{static_cast<uint8_t>(st & 1), static_cast<uint8_t>((st >> 1) & 1)};
      const std::vector<uint8_t> out{static_cast<uint8_t>((st >> 2) & 1), static_cast<uint8_t>((st >> 3) & 1)};
      SeparableAllocator part(cfg);
      part.set_pointers(in, out);
      Reference ref(cfg);
      ref.in_rr = {in[0], in[1]};
      ref.out_rr = {out[0], out[1]};
      const auto ga = run_part(part, m);
      const auto gr = ref.cycle(m);
      ASSERT_EQ(ga.size(), gr.size()) << "matrix " << code << " state " << st;
      for (size_t i = 0; i < ga.size(); ++i) ASSERT_TRUE(ga[i] == gr[i]);
      expect_same_state(part, ref);
      ++cases;
    }
  }
  EXPECT_EQ(cases, 625 * 16);
}

// Properties of any separable allocation: grants are requests; an output VC once, an
// output and an input port at most cap; with as many passes as input VCs the result is
// maximal (no input VC left whose input has room and whose output VC and port are free).
TEST(Allocator, GrantsAreALegalAndWithEnoughPassesMaximalMatching) {
  std::mt19937_64 g(7);
  for (int trial = 0; trial < 400; ++trial) {
    const int K = 2 + static_cast<int>(g() % 9), vcs = 1 + static_cast<int>(g() % 3), cap = 1 + static_cast<int>(g() % 2);
    const AllocatorConfig cfg = make_config(K, vcs, 0, cap, K * vcs, trial % 2 == 0, false, false);
    SeparableAllocator part(cfg);
    const Matrix m = random_matrix(cfg, g, 0.6);
    const auto grants = run_part(part, m);
    std::map<int, int> per_out, per_in;
    std::set<std::pair<int, int>> ovs, ivs;
    for (const Grant& x : grants) {
      ASSERT_EQ(m.want[static_cast<size_t>(x.ip)][static_cast<size_t>(x.v)], (std::pair<int, int>{x.op, x.ov}));
      ASSERT_TRUE(ovs.insert({x.op, x.ov}).second) << "output VC granted twice";
      ASSERT_TRUE(ivs.insert({x.ip, x.v}).second) << "input VC granted twice";
      ++per_out[x.op];
      ++per_in[x.ip];
    }
    for (int p = 0; p < K; ++p) {
      ASSERT_LE(m.out_active[static_cast<size_t>(p)] + per_out[p], std::max<int>(cap, m.out_active[static_cast<size_t>(p)]));
      ASSERT_LE(m.in_active[static_cast<size_t>(p)] + per_in[p], std::max<int>(cap, m.in_active[static_cast<size_t>(p)]));
    }
    for (int ip = 0; ip < K; ++ip)
      for (int v = 0; v < vcs; ++v) {
        const auto [op, ov] = m.want[static_cast<size_t>(ip)][static_cast<size_t>(v)];
        if (op == kNone || ivs.count({ip, v})) continue;
        const bool in_room = m.in_active[static_cast<size_t>(ip)] + per_in[ip] < cap;
        const bool out_room = m.out_active[static_cast<size_t>(op)] + per_out[op] < cap;
        EXPECT_FALSE(in_room && out_room && !ovs.count({op, ov}))
            << "trial " << trial << ": input VC (" << ip << "," << v << ") left unmatched with everything free";
      }
  }
}

// Round-robin fairness: K inputs all asking for the same output, one grant per cycle:
// every K consecutive cycles grant each input exactly once.
TEST(Allocator, RoundRobinServesEveryInputOncePerRound) {
  for (int K : {3, 8, 64}) {
    const AllocatorConfig cfg = make_config(K, 1, 0, 1, 1, false, false, false);
    SeparableAllocator part(cfg);
    Matrix m;
    for (int ip = 0; ip < K; ++ip) {
      m.want.push_back({{0, 0}});
      m.age.push_back({0});
    }
    m.in_active.assign(static_cast<size_t>(K), 0);
    m.out_active.assign(static_cast<size_t>(K), 0);
    std::vector<int> count(static_cast<size_t>(K), 0);
    for (int cycle = 0; cycle < 3 * K; ++cycle) {
      const auto grants = run_part(part, m);
      ASSERT_EQ(grants.size(), 1u);
      ++count[static_cast<size_t>(grants[0].ip)];
      if ((cycle + 1) % K == 0) {
        for (int c : count) ASSERT_EQ(c, (cycle + 1) / K);
      }
    }
  }
}

// The priorities: a control VC before data, transit before injection (transit priority),
// the oldest packet first (age priority), whatever the round-robin pointers say.
TEST(Allocator, PrioritiesOverrideRoundRobin) {
  // Input 1 control VC vs input 0 data VC, both for output VC (2, 0); pointers favour input 0.
  {
    const AllocatorConfig cfg = make_config(3, 1, 1, 1, 1, false, false, false);
    SeparableAllocator part(cfg);
    Matrix m;
    m.want = {{{2, 0}, {kNone, kNone}}, {{kNone, kNone}, {2, 1}}, {{kNone, kNone}, {kNone, kNone}}};
    m.age = {{0, 0}, {0, 0}, {0, 0}};
    m.in_active = {0, 0, 0};
    m.out_active = {0, 0, 0};
    const auto grants = run_part(part, m);
    ASSERT_EQ(grants.size(), 1u);
    EXPECT_EQ(grants[0].ip, 1);
    EXPECT_EQ(grants[0].v, 1);
  }
  // Transit priority: input 0 is an injection input (make_config: p % 3 == 0), input 1 transit.
  for (bool transit : {false, true}) {
    const AllocatorConfig cfg = make_config(3, 1, 0, 1, 1, transit, false, false);
    SeparableAllocator part(cfg);
    Matrix m;
    m.want = {{{2, 0}}, {{2, 0}}, {{kNone, kNone}}};
    m.age = {{0}, {0}, {0}};
    m.in_active = {0, 0, 0};
    m.out_active = {0, 0, 0};
    const auto grants = run_part(part, m);
    ASSERT_EQ(grants.size(), 1u);
    EXPECT_EQ(grants[0].ip, transit ? 1 : 0);
  }
  // Age: input 2's packet is older than input 0's; without age the pointer (0) decides.
  for (bool age : {false, true}) {
    const AllocatorConfig cfg = make_config(3, 1, 0, 1, 1, false, age, false);
    SeparableAllocator part(cfg);
    Matrix m;
    m.want = {{{1, 0}}, {{kNone, kNone}}, {{1, 0}}};
    m.age = {{50}, {0}, {20}};
    m.in_active = {0, 0, 0};
    m.out_active = {0, 0, 0};
    const auto grants = run_part(part, m);
    ASSERT_EQ(grants.size(), 1u);
    EXPECT_EQ(grants[0].ip, age ? 2 : 0);
  }
}

TEST(Allocator, RefusesAConfigurationBeyondItsWidths) {
  AllocatorConfig c = make_config(4, 2, 0, 1, 1, false, false, false);
  c.inputs = kMaxAllocPorts + 1;
  EXPECT_THROW(SeparableAllocator{c}, std::invalid_argument);
  c = make_config(4, 2, 0, 1, 1, false, false, false);
  c.data_vcs[0] = 3;
  EXPECT_THROW(SeparableAllocator{c}, std::invalid_argument);
  c = make_config(4, 2, 0, 0, 1, false, false, false);
  EXPECT_THROW(SeparableAllocator{c}, std::invalid_argument);
  c = make_config(4, 2, 0, 1, 1, false, false, false);
  c.vcs.pop_back();
  EXPECT_THROW(SeparableAllocator{c}, std::invalid_argument);
  EXPECT_NO_THROW(SeparableAllocator{make_config(kMaxAllocPorts, 1, 0, 2, 1, false, false, false)});
}

}  // namespace
}  // namespace scfly
