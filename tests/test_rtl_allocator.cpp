// RTL == C++ for the switch's separable allocator: sep_allocator.sv against SeparableAllocator
// (rtl_models/switch/parts/allocator.h) in lockstep, the same grants (and the pass of each)
// and the same round-robin pointers every cycle, the pointer state carried from cycle to
// cycle. The C++ part runs with the tests' switch harness (an output port takes up to cap
// connections, an output VC one; a granted input VC requests no more), the RTL with that
// state as its inputs.
//  - Exhaustive at radix 4 with 2 VCs: every request matrix (each input VC idle or asking
//    for one of the 8 output VCs), up to the naming of each output port's two VCs: the
//    output VC's index enters no priority and no pointer, only which requests collide, so a
//    matrix and the one with an output port's VC labels swapped give the same grants with
//    the labels swapped (checked on the C++ part below). 4,279,745 matrices with connection
//    cap 2 and 2 passes (about 30 s); SCFLY_RTL_ALLOC_FULL=1 runs all 9^8 = 43,046,721 of
//    them with cap 1 and 1 pass, cap 2 and 1 pass, cap 2 and 2 passes.
//  - Random at radix 16 with 4 VCs (the dfly(4,8,4) switch: 15 ports and an internal one):
//    random configurations (ports in use, VCs and control VCs per port, the rr_all port,
//    injection inputs, transit and age priority, cap 1..4, 1..3 passes) and 10^5 random
//    matrices with connections already held, ages with ties and saturation, and pointers
//    loaded now and then (about 17 s); SCFLY_RTL_ALLOC_MATRICES=N for another count (10^6).
//  - The simulation assertions stop the model on a bad stimulus.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <memory>
#include <string>
#include <vector>

#include "Vsep_allocator_r16v4.h"
#include "Vsep_allocator_r64v2.h"
#include "Vsep_allocator_r4v2.h"
#include "rtl_models/switch/parts/allocator.h"
#include "rtl_models/verilog/rtl_blocks.h"
#include "alloc_matrices.h"
#include "rtl_bits.h"
#include "scfly_widths.h"
#include "verilated.h"

namespace scfly {
namespace {

using rtl_test::Bits;
using rtl_test::clog2;
using rtl_test::env_long;
using rtl_test::get_bits;
using rtl_test::Matrix;
using rtl_test::Request;
using rtl_test::describe;
using rtl_test::random_config;
using rtl_test::random_matrix;
using rtl_test::CycleHarness;
using rtl_test::show;
using rtl_test::fit_radix4;
using rtl_test::random_config64;

static_assert(kAllocAgeBits == 30, "the tests saturate ages at 2^30 - 1 as the part does");

struct Grant {
  int pass = -1;  // -1: not granted
};

// The C++ part with the switch harness of tests/test_allocator.cpp, kept lean (flat arrays).
struct CppSide {
  SeparableAllocator part;
  int V;
  bool ctl;
  explicit CppSide(const AllocatorConfig& c, int v)
      : part(c), V(v), ctl(c.rr_all >= 0 || c.vcs != c.data_vcs) {}

  // Grants per entry (pass of each).
  std::vector<int> pass;
  const std::vector<int>& cycle(const Matrix& m) {
    const int K = part.config().inputs;
    CycleHarness h(m, K, V, part.config().conn_cap);
    PortMask busy;
    for (int p = 0; p < K; ++p) busy.set(p);
    const uint32_t first = part.pass_id() + 1;
    auto want = [&](int ip, int v, RouteDecision& d) { return h.want(ip, v, d); };
    auto age = [&](int ip, int v) { return h.age(ip, v); };
    auto grant = [&](const AllocRequest& r) { return h.grant(r, static_cast<int>(part.pass_id() - first)); };
    if (ctl) part.allocate<true>(busy, h.in_act.data(), want, age, grant);
    else part.allocate<false>(busy, h.in_act.data(), want, age, grant);
    pass = h.pass;
    return pass;
  }
};

// A Verilated sep_allocator with P ports, V VCs, CAP_MAX connections, ITERS passes.
template <class Dut, int P, int V, int CAP, int ITERS>
struct RtlSide {
  static constexpr int N = P * V, PW = clog2(P), VW = V > 1 ? clog2(V) : 1, NVW = clog2(V + 1),
                       CW = clog2(CAP + 1), GW = ITERS > 1 ? clog2(ITERS) : 1, AB = kAllocAgeBits;
  Dut& dut;
  Bits req{N}, port{N * PW}, vc{N * VW}, age{N * AB}, ia{P * CW}, oa{P * CW};
  std::vector<int> pass;
  explicit RtlSide(Dut& d) : dut(d) {}

  void configure(const AllocatorConfig& c) {
    dut.ports_i = static_cast<uint8_t>(c.inputs);
    dut.cap_i = static_cast<uint8_t>(c.conn_cap);
    dut.iters_i = static_cast<uint8_t>(c.iterations);
    dut.transit_prio_i = c.transit_priority;
    dut.age_prio_i = c.age_priority;
    Bits nvc(P * NVW), nd(P * NVW), inj(P);
    for (int p = 0; p < c.inputs; ++p) {
      nvc.put(p * NVW, NVW, c.vcs[static_cast<size_t>(p)]);
      nd.put(p * NVW, NVW, c.data_vcs[static_cast<size_t>(p)]);
      inj.put(p, 1, c.injection[static_cast<size_t>(p)]);
    }
    nvc.to(dut.nvc_i);
    nd.to(dut.ndata_i);
    inj.to(dut.inj_i);
    dut.rr_all_en_i = c.rr_all >= 0;
    dut.rr_all_i = static_cast<uint8_t>(c.rr_all >= 0 ? c.rr_all : 0);
    dut.load_i = 0;
    const Bits zero(N * 64);  // no requests left from an earlier configuration
    zero.to(dut.req_i);
    zero.to(dut.req_port_i);
    zero.to(dut.req_vc_i);
    zero.to(dut.in_active_i);
    zero.to(dut.out_active_i);
    // Reset: pointers 0, as a new SeparableAllocator.
    dut.clk_i = 0;
    dut.rst_ni = 0;
    dut.eval();
    dut.rst_ni = 1;
    dut.eval();
  }

  // This cycle's grants (pass of each entry, -1: none), before the clock edge.
  const std::vector<int>& drive(const Matrix& m, int K) {
    for (Bits* b : {&req, &port, &vc, &age, &ia, &oa}) b->clear();
    for (size_t e = 0; e < m.req.size(); ++e) {
      const Request& r = m.req[e];
      if (r.op < 0) continue;
      const int i = static_cast<int>(e);
      req.put(i, 1, 1);
      port.put(i * PW, PW, static_cast<uint64_t>(r.op));
      vc.put(i * VW, VW, static_cast<uint64_t>(r.ov));
      age.put(i * AB, AB, r.age < (1ULL << AB) ? r.age : (1ULL << AB) - 1);  // the caller saturates
    }
    for (int p = 0; p < K; ++p) {
      ia.put(p * CW, CW, m.in_active[static_cast<size_t>(p)]);
      oa.put(p * CW, CW, m.out_active[static_cast<size_t>(p)]);
    }
    req.to(dut.req_i);
    port.to(dut.req_port_i);
    vc.to(dut.req_vc_i);
    age.to(dut.req_age_i);
    ia.to(dut.in_active_i);
    oa.to(dut.out_active_i);
    dut.eval();
    pass.assign(m.req.size(), -1);
    for (size_t e = 0; e < m.req.size(); ++e)
      if (get_bits(dut.grant_o, static_cast<int>(e), 1))
        pass[e] = static_cast<int>(get_bits(dut.grant_pass_o, static_cast<int>(e) * GW, GW));
    return pass;
  }
  // The rising edge; the clock falls in the next evaluation (nothing happens on it), so a
  // cycle costs two evaluations.
  void edge() {
    dut.clk_i = 1;
    dut.eval();
    dut.clk_i = 0;
  }
  void load(const std::vector<uint8_t>& in, const std::vector<uint8_t>& out) {
    Bits bi(P * VW), bo(P * PW);
    for (size_t p = 0; p < in.size(); ++p) {
      bi.put(static_cast<int>(p) * VW, VW, in[p]);
      bo.put(static_cast<int>(p) * PW, PW, out[p]);
    }
    bi.to(dut.load_in_ptr_i);
    bo.to(dut.load_out_ptr_i);
    dut.eval();  // the clock's fall (see edge())
    dut.load_i = 1;
    edge();
    dut.load_i = 0;
  }
  uint64_t in_ptr(int p) const { return get_bits(dut.in_ptr_o, p * VW, VW); }
  uint64_t out_ptr(int p) const { return get_bits(dut.out_ptr_o, p * PW, PW); }
};

// One lockstep cycle: same grants, same pass of each, and after the edge the same pointers.
template <class Rtl>
::testing::AssertionResult lockstep(CppSide& cpp, Rtl& rtl, const Matrix& m, long cycle, uint64_t* grants = nullptr) {
  const int K = cpp.part.config().inputs;
  const std::vector<int>& r = rtl.drive(m, K);
  const std::vector<int>& c = cpp.cycle(m);
  // On a mismatch: the cycle's requests and grants.
  auto dump = [&] {
    std::string s = "\n";
    for (size_t e = 0; e < m.req.size(); ++e)
      if (m.req[e].op >= 0)
        s += "  (" + std::to_string(e / cpp.V) + "," + std::to_string(e % cpp.V) + ") -> (" + std::to_string(m.req[e].op) +
             "," + std::to_string(m.req[e].ov) + ") age " + std::to_string(m.req[e].age) + " pass " + std::to_string(c[e]) + "\n";
    return s;
  };
  for (size_t e = 0; e < c.size(); ++e) {
    if (c[e] != r[e])
      return ::testing::AssertionFailure() << "cycle " << cycle << ": input VC (" << e / cpp.V << "," << e % cpp.V
                                           << ") granted in pass " << c[e] << " by C++, " << r[e] << " by RTL" << dump();
    if (grants && c[e] >= 0) ++*grants;
  }
  rtl.edge();
  for (int p = 0; p < K; ++p) {
    if (rtl.in_ptr(p) != cpp.part.in_pointers()[static_cast<size_t>(p)] ||
        rtl.out_ptr(p) != cpp.part.out_pointers()[static_cast<size_t>(p)])
      return ::testing::AssertionFailure() << "cycle " << cycle << ": pointers of port " << p << " C++ in "
                                           << int(cpp.part.in_pointers()[static_cast<size_t>(p)]) << " out "
                                           << int(cpp.part.out_pointers()[static_cast<size_t>(p)]) << ", RTL in "
                                           << rtl.in_ptr(p) << " out " << rtl.out_ptr(p) << dump();
  }
  return ::testing::AssertionSuccess();
}

AllocatorConfig plain_config(int K, int vcs, int cap, int iters) {
  AllocatorConfig c;
  c.inputs = K;
  c.conn_cap = cap;
  c.iterations = iters;
  c.vcs.assign(static_cast<size_t>(K), static_cast<uint8_t>(vcs));
  c.data_vcs = c.vcs;
  c.injection.assign(static_cast<size_t>(K), 0);
  return c;
}

using R4 = RtlSide<Vsep_allocator_r4v2, 4, 2, 2, 3>;
using R16 = RtlSide<Vsep_allocator_r16v4, 16, 4, 4, 3>;

// Entry digit x: 0 idle, else output VC ((x - 1) / 2, (x - 1) % 2).
Matrix radix4_matrix(uint32_t code) {
  Matrix m;
  m.req.resize(8);
  for (int e = 0; e < 8; ++e, code /= 9) {
    const int x = static_cast<int>(code % 9);
    if (x) m.req[static_cast<size_t>(e)] = Request{(x - 1) / 2, (x - 1) % 2, 0};
  }
  m.in_active.assign(4, 0);
  m.out_active.assign(4, 0);
  return m;
}

// The canonical naming: at each output port the first entry asking for it asks for VC 0.
bool canonical(uint32_t code) {
  unsigned seen = 0;
  for (int e = 0; e < 8; ++e, code /= 9) {
    const int x = static_cast<int>(code % 9);
    if (!x) continue;
    const int op = (x - 1) / 2;
    if (!(seen >> op & 1u) && (x - 1) % 2) return false;
    seen |= 1u << op;
  }
  return true;
}

// The symmetry the exhaustive test uses: swapping the two VC labels of an output port swaps
// nothing else (same grants, same pointers), on random matrices of the C++ part.
TEST(RtlAllocator, OutputVcLabelsOnlyNameCollisions) {
  std::mt19937_64 g(5);
  for (int cap : {1, 2})
    for (int iters : {1, 2}) {
      const AllocatorConfig cfg = plain_config(4, 2, cap, iters);
      CppSide a(cfg, 2), b(cfg, 2);
      for (int n = 0; n < 20000; ++n) {
        const uint32_t code = static_cast<uint32_t>(g() % 43046721u);
        const int swap_port = static_cast<int>(g() % 4);
        Matrix m = radix4_matrix(code), s = m;
        for (Request& r : s.req)
          if (r.op == swap_port) r.ov ^= 1;
        ASSERT_EQ(a.cycle(m), b.cycle(s)) << "matrix " << code;
        ASSERT_EQ(a.part.in_pointers(), b.part.in_pointers());
        ASSERT_EQ(a.part.out_pointers(), b.part.out_pointers());
      }
    }
}

TEST(RtlAllocator, ExhaustiveAtRadix4With2Vcs) {
  const bool full = env_long("SCFLY_RTL_ALLOC_FULL", 0) == 1;
  Vsep_allocator_r4v2 dut(Verilated::threadContextp());  // the thread's context (see test_rtl_min_route.cpp)
  R4 rtl(dut);
  // Two passes with cap 2 (the switch's default speedup): pass 0's grants, compared on
  // their own through the pass index, are the one-pass allocation's; the full run adds
  // cap 1 and one pass (pointers after a one-pass cycle; the random test covers them too).
  std::vector<std::pair<int, int>> runs = {{2, 2}};
  if (full) runs = {{1, 1}, {2, 1}, {2, 2}};
  for (const auto& [cap, iters] : runs) {
    SCOPED_TRACE("cap " + std::to_string(cap) + ", " + std::to_string(iters) + " passes");
    const AllocatorConfig cfg = plain_config(4, 2, cap, iters);
    CppSide cpp(cfg, 2);
    rtl.configure(cfg);
    long cycles = 0;
    uint64_t grants = 0;
    for (uint32_t code = 0; code < 43046721u; ++code) {
      if (!full && !canonical(code)) continue;
      ASSERT_TRUE(lockstep(cpp, rtl, radix4_matrix(code), cycles, &grants)) << "matrix " << code;
      ++cycles;
    }
    EXPECT_EQ(cycles, full ? 43046721L : 4279745L);
    EXPECT_GT(grants, static_cast<uint64_t>(cycles));  // the comparison saw real work
  }
}

// A random configuration of a switch up to 16 ports with up to 4 VCs per port.

TEST(RtlAllocator, RandomAtRadix16With4Vcs) {
  const long total = env_long("SCFLY_RTL_ALLOC_MATRICES", 100000);
  Vsep_allocator_r16v4 dut(Verilated::threadContextp());
  R16 rtl(dut);
  std::mt19937_64 g(20261129);
  long done = 0, late = 0, configs = 0;
  uint64_t grants = 0;
  while (done < total) {
    const AllocatorConfig cfg = random_config(g);
    CppSide cpp(cfg, 4);
    rtl.configure(cfg);
    ++configs;
    SCOPED_TRACE(describe(cfg));
    for (int n = 0; n < 1000 && done < total; ++n, ++done) {
      if (n % 250 == 249) {  // pointers loaded (set_pointers), within their ranges
        std::vector<uint8_t> in, out;
        for (int p = 0; p < cfg.inputs; ++p) {
          const int span = p == cfg.rr_all ? cfg.vcs[static_cast<size_t>(p)] : cfg.data_vcs[static_cast<size_t>(p)];
          in.push_back(static_cast<uint8_t>(span > 0 ? g() % static_cast<uint64_t>(span) : 0));
          out.push_back(static_cast<uint8_t>(g() % static_cast<uint64_t>(cfg.inputs)));
        }
        cpp.part.set_pointers(in, out);
        rtl.load(in, out);
      }
      const Matrix m = random_matrix(cfg, 4, g, n % 3 == 0 ? 0.9 : 0.4);
      const uint32_t before = cpp.part.pass_id();
      uint64_t gr = 0;
      ASSERT_TRUE(lockstep(cpp, rtl, m, done, &gr)) << "configuration " << configs;
      grants += gr;
      late += cpp.part.pass_id() - before > 1;
    }
  }
  EXPECT_GT(grants, static_cast<uint64_t>(total));  // real work ...
  EXPECT_GT(late, total / 10);                       // ... including cycles with later passes
}

// The radix-64 instance (2 VCs, 2 connections per port, 2 passes; the presets' largest
// radix, dfly(16,32,16)'s 63 ports): random configurations of 17 to 64 ports (control VCs,
// the rr_all port, transit and age priority as random_config), random matrices, pointers
// loaded now and then. 10^4 matrices by default (about 3 s); SCFLY_RTL_ALLOC64_MATRICES=N
// for another count.
TEST(RtlAllocator, RandomAtRadix64With2Vcs) {
  const long total = env_long("SCFLY_RTL_ALLOC64_MATRICES", 10000);
  Vsep_allocator_r64v2 dut(Verilated::threadContextp());
  RtlSide<Vsep_allocator_r64v2, 64, 2, 2, 2> rtl(dut);
  std::mt19937_64 g(20261130);
  long done = 0, late = 0;
  uint64_t grants = 0;
  while (done < total) {
    const AllocatorConfig cfg = random_config64(g);
    const int K = cfg.inputs;
    CppSide cpp(cfg, 2);
    rtl.configure(cfg);
    SCOPED_TRACE(describe(cfg));
    for (int n = 0; n < 200 && done < total; ++n, ++done) {
      if (n % 50 == 49) {
        std::vector<uint8_t> in, out;
        for (int p = 0; p < K; ++p) {
          const int span = p == cfg.rr_all ? cfg.vcs[static_cast<size_t>(p)] : cfg.data_vcs[static_cast<size_t>(p)];
          in.push_back(static_cast<uint8_t>(span > 0 ? g() % static_cast<uint64_t>(span) : 0));
          out.push_back(static_cast<uint8_t>(g() % static_cast<uint64_t>(K)));
        }
        cpp.part.set_pointers(in, out);
        rtl.load(in, out);
      }
      const Matrix m = random_matrix(cfg, 2, g, n % 3 == 0 ? 0.9 : 0.4);
      const uint32_t before = cpp.part.pass_id();
      uint64_t gr = 0;
      ASSERT_TRUE(lockstep(cpp, rtl, m, done, &gr));
      grants += gr;
      late += cpp.part.pass_id() - before > 1;
    }
  }
  EXPECT_GT(grants, static_cast<uint64_t>(total));
  EXPECT_GT(late, total / 10);
}

// The switch's adapter (--rtl allocator: rtl_blocks.h's AllocatorBlock, the smallest
// Verilated instance that holds the switch): requests in, grants and their passes out, the
// pointer registers clocked at the next begin(). Against the C++ part with the switch
// harness, on random configurations of all three instances' sizes (radix 4 x 2 VCs, 8 x 4
// with 2 passes built, so that 3 passes take two evaluations, 16 x 4): the same grants in
// the same passes; ordered pass by pass by SeparableAllocator::order_key from the
// register's output pointers (each pass's grants moving them), the C++ part's grant order,
// which the switch records its connections in; after the next begin(), the C++ part's
// output pointers.
TEST(RtlAllocatorBlock, GrantsInTheCppOrderThroughTheSwitchAdapter) {
  std::mt19937_64 g(77);
  long cycles = 0, granted = 0, later = 0;
  for (int n = 0; n < 60; ++n) {
    AllocatorConfig cfg = random_config(g);
    int V = 4;
    if (n % 2 == 0) {  // the radix-4 instance's size
      V = 2;
      fit_radix4(cfg, g);
    }
    SCOPED_TRACE(describe(cfg));
    const bool ctl = cfg.rr_all >= 0 || cfg.vcs != cfg.data_vcs;
    const int max_vcs = *std::max_element(cfg.vcs.begin(), cfg.vcs.end());
    SeparableAllocator cpp(cfg), keyer(cfg);
    std::unique_ptr<AllocatorBlock> blk = make_rtl_allocator(cfg, "alloc_block_" + std::to_string(n));
    const int K = cfg.inputs, cap = cfg.conn_cap;
    for (int c = 0; c < 400; ++c, ++cycles) {
      Matrix m = random_matrix(cfg, V, g, c % 3 == 0 ? 0.9 : 0.4);
      for (Request& r : m.req) r.ov %= max_vcs;  // a switch's output VCs: no more than its input VCs
      // The C++ part, its grants in the order it makes them.
      CycleHarness c_side(m, K, V, cap), b_side(m, K, V, cap);
      const uint32_t first = cpp.pass_id() + 1;
      auto want = [&](int ip, int v, RouteDecision& d) { return c_side.want(ip, v, d); };
      auto age = [&](int ip, int v) { return c_side.age(ip, v); };
      auto grant = [&](const AllocRequest& r) { return c_side.grant(r, static_cast<int>(cpp.pass_id() - first)); };
      PortMask busy;
      for (int p = 0; p < K; ++p) busy.set(p);
      // The block: the previous cycle's pointers clocked in by begin().
      blk->begin();
      for (int p = 0; p < K; ++p)
        ASSERT_EQ(blk->out_pointer(p), cpp.out_pointers()[static_cast<size_t>(p)]) << "cycle " << c << " port " << p;
      if (ctl) cpp.allocate<true>(busy, c_side.in_act.data(), want, age, grant);
      else cpp.allocate<false>(busy, c_side.in_act.data(), want, age, grant);
      // The block as the switch drives it: every request still open, the passes in
      // evaluations of up to the instance's passes, each pass's grants in key order.
      std::vector<uint8_t> optr(static_cast<size_t>(K));
      for (int pass = 0; pass < cfg.iterations;) {
        if (pass > 0) blk->begin();
        bool any = false;
        for (size_t e = 0; e < m.req.size(); ++e) {
          if (!b_side.open(e)) continue;
          const Request& r = m.req[e];
          blk->request(static_cast<int>(e) / V, static_cast<int>(e) % V, r.op, r.ov, r.age);
          any = true;
        }
        const int passes = std::min(cfg.iterations - pass, blk->max_passes(pass));
        blk->evaluate(passes, b_side.in_act.data(), b_side.out_act.data());
        if (!any) break;
        for (int p = 0; p < K; ++p) optr[static_cast<size_t>(p)] = static_cast<uint8_t>(blk->out_pointer(p));
        for (int k = 0; k < passes; ++k) {
          std::vector<AllocRequest> pl;
          for (const RtlGrant& r : blk->grants()) {
            if (r.pass != k) continue;
            AllocRequest q{r.in_port, r.out_port, r.in_vc, r.out_vc, 0};
            q.key = ctl ? keyer.order_key<true>(q, optr[q.out_port], age) : keyer.order_key<false>(q, optr[q.out_port], age);
            pl.push_back(q);
          }
          std::sort(pl.begin(), pl.end(), [](const AllocRequest& x, const AllocRequest& y) { return x.key < y.key; });
          for (const AllocRequest& q : pl) {
            b_side.take(q.in_port, q.in_vc, q.out_port, q.out_vc, pass + k);
            optr[q.out_port] = static_cast<uint8_t>((q.in_port + 1) % K);
          }
          later += pass + k > 0 ? static_cast<long>(pl.size()) : 0;
        }
        pass += passes;
      }
      ASSERT_TRUE(b_side.order == c_side.order) << "cycle " << c << ": the block's grants in order" << show(b_side.order)
                                                << "\n the C++ part's" << show(c_side.order);
      granted += static_cast<long>(b_side.order.size());
    }
  }
  EXPECT_GT(granted, cycles);  // real work ...
  EXPECT_GT(later, cycles / 40);  // ... in later passes too
}

// What the build's instances hold, and a switch beyond them refused.
TEST(RtlAllocatorBlock, RefusesASwitchBeyondItsInstances) {
  EXPECT_TRUE(rtl_allocator_fits(16, 4, 4));
  EXPECT_TRUE(rtl_allocator_fits(3, 2, 1));
  EXPECT_FALSE(rtl_allocator_fits(17, 4, 4));
  EXPECT_TRUE(rtl_allocator_fits(17, 2, 2));
  EXPECT_FALSE(rtl_allocator_fits(16, 5, 4));
  EXPECT_FALSE(rtl_allocator_fits(16, 4, 5));
  EXPECT_EQ(rtl_allocator_limits(), "16 ports (internal ones included), 4 VCs per port, 4 connections per port, or "
                                    "64 ports (internal ones included), 2 VCs per port, 2 connections per port");
  EXPECT_TRUE(rtl_allocator_fits(64, 2, 2));
  EXPECT_FALSE(rtl_allocator_fits(64, 3, 2));
  EXPECT_FALSE(rtl_allocator_fits(65, 2, 2));
  EXPECT_EQ(rtl_allocator_limits(AllocatorKind::Islip), rtl_allocator_limits());
  EXPECT_TRUE(rtl_allocator_fits(64, 2, 2, AllocatorKind::Wavefront));
  EXPECT_FALSE(rtl_allocator_fits(17, 3, 2, AllocatorKind::Wavefront));
  EXPECT_THROW(make_rtl_allocator(plain_config(17, 3, 2, 1), "alloc_block_big"), std::invalid_argument);
  EXPECT_THROW(make_rtl_allocator(plain_config(65, 2, 2, 1), "alloc_block_huge"), std::invalid_argument);
  EXPECT_THROW(make_rtl_allocator(plain_config(8, 5, 2, 1), "alloc_block_vcs"), std::invalid_argument);
}

// The simulation-only assertions (--assert) stop the model on a broken contract: a request to
// a port beyond the switch, a request on a VC the port does not have, a pointer loaded
// beyond the port's data VCs, more connections held than the cap.
TEST(RtlAllocatorDeathTest, AssertionsStopTheModel) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  enum Bad { None, PortBeyond, VcMissing, PointerBeyond, OverCap };
  const auto drive = [](Bad bad) {
    std::fflush(stdout);
    dup2(STDERR_FILENO, STDOUT_FILENO);  // Verilator prints the message on stdout
    VerilatedContext ctx;
    Vsep_allocator_r4v2 dut(&ctx);
    R4 rtl(dut);
    AllocatorConfig cfg = plain_config(3, 2, 2, 2);
    cfg.vcs[1] = cfg.data_vcs[1] = 1;
    rtl.configure(cfg);
    if (bad == PointerBeyond) rtl.load({0, 1, 0}, {0, 0, 0});  // port 1 has one data VC
    Matrix m;
    m.req.resize(6);
    m.req[0] = Request{2, 1, 0};
    m.req[4] = Request{bad == PortBeyond ? 3 : 0, 0, 0};
    if (bad == VcMissing) m.req[3] = Request{1, 0, 0};
    m.in_active = {0, 0, 0};
    m.out_active = {0, bad == OverCap ? uint8_t{3} : uint8_t{0}, 0};
    rtl.drive(m, 3);
    rtl.edge();
  };
  EXPECT_EXIT(
      {
        drive(None);
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "");
  EXPECT_DEATH(drive(PortBeyond), "request to port 3 beyond the ports");
  EXPECT_DEATH(drive(VcMissing), "request on VC 1 of port 1, which has 1 VCs");
  EXPECT_DEATH(drive(PointerBeyond), "input pointer 1 of port 1 beyond its data VCs");
  EXPECT_DEATH(drive(OverCap), "port 1 holds more connections than the cap");
}

}  // namespace
}  // namespace scfly
