// RTL == C++ for the allocator variants of switch.allocator, each against its C++ part in
// lockstep: alloc_wavefront.sv / WavefrontAllocator, alloc_islip.sv / IslipAllocator,
// alloc_output_first.sv / OutputFirstAllocator (rtl_models/switch/parts/allocator_*.h). The
// same grants (and the pass of each) and the same pointer state (the input ports' VC
// pointers; the wavefront's first diagonal; iSLIP's grant and accept pointers; the
// output-first allocator's output pointers) after every cycle, the state carried from cycle
// to cycle. The C++ part runs with the tests' switch harness (an output port takes up to cap
// connections, an output VC one; a granted input VC requests no more), the RTL with that
// state as its inputs, as in test_rtl_allocator.cpp.
//  - Exhaustive at radix 4 with 2 VCs: the request matrices (each input VC idle or asking
//    for one of the 8 output VCs) up to the naming of each output port's two VCs (the label
//    enters no priority and no pointer, only which requests collide: the C++ part is checked
//    for that symmetry below), 4,279,745 of them, from random starting pointers, the state
//    evolving along the sequence, each with one of the instance's iteration counts (1 pass,
//    cap 1; 2 passes, cap 2; 3 passes, cap 2 and a control VC on two ports). By default
//    every 16th of them, 267,485 per variant (about 0.8 s each);
//    SCFLY_RTL_ALLOC_VAR_STRIDE=1 runs all of them (13 s per variant),
//    SCFLY_RTL_ALLOC_VAR_FULL=1 each of them with every iteration count (40 s per variant).
//  - Random at radix 16 with 4 VCs: random configurations (ports in use, VCs and control VCs
//    per port, the rr_all port, transit and age priority, injection inputs, cap 1..4, 1..3
//    passes), random matrices with connections already held, ages with ties and
//    saturation, and the state loaded now and then: 10^4 per variant by default (about
//    0.8 s each), SCFLY_RTL_ALLOC_VAR_MATRICES=N for another count.
//  - The simulation assertions stop the model on a bad stimulus (death tests).
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "Valloc_islip_r16v4.h"
#include "Valloc_islip_r64v2.h"
#include "Valloc_islip_r4v2.h"
#include "Valloc_output_first_r16v4.h"
#include "Valloc_output_first_r64v2.h"
#include "Valloc_output_first_r4v2.h"
#include "Valloc_wavefront_r16v4.h"
#include "Valloc_wavefront_r64v2.h"
#include "Valloc_wavefront_r4v2.h"
#include "alloc_matrices.h"
#include "rtl_bits.h"
#include "rtl_models/switch/parts/allocator_islip.h"
#include "rtl_models/switch/parts/allocator_output_first.h"
#include "rtl_models/switch/parts/allocator_wavefront.h"
#include "rtl_models/verilog/rtl_blocks.h"
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


// A variant part with the switch harness of tests/test_allocator_variants.cpp.
template <class Part>
struct CppSide {
  Part part;
  int V;
  CppSide(const AllocatorConfig& c, int v) : part(c), V(v) {}

  std::vector<int> pass;  // per entry, the pass of its grant (-1: none)
  const std::vector<int>& cycle(const Matrix& m) {
    const int K = part.config().inputs;
    CycleHarness h(m, K, V, part.config().conn_cap);
    PortMask busy;
    for (int p = 0; p < K; ++p) busy.set(p);
    const uint32_t first = part.pass_id() + 1;
    auto want = [&](int ip, int v, RouteDecision& d) { return h.want(ip, v, d); };
    auto age = [&](int ip, int v) { return h.age(ip, v); };
    auto grant = [&](const AllocRequest& r) { return h.grant(r, static_cast<int>(part.pass_id() - first)); };
    part.allocate(busy, h.in_act.data(), h.out_act.data(), want, age, grant);
    pass = h.pass;
    return pass;
  }
};

// A Verilated variant with P ports, V VCs, CAP_MAX connections, ITERS passes: the ports the
// variants share (configuration, requests, connections held, grants and their passes), and
// with AGE the output order's (transit and age priority, injection inputs, ages).
template <class Dut, int P, int V, int CAP, int ITERS, bool AGE>
struct RtlSide {
  static constexpr int N = P * V, PW = clog2(P), VW = V > 1 ? clog2(V) : 1, NVW = clog2(V + 1),
                       CW = clog2(CAP + 1), GW = ITERS > 1 ? clog2(ITERS) : 1, AB = kAllocAgeBits, kPorts = P;
  Dut& dut;
  Bits req{N}, port{N * PW}, vc{N * VW}, age{N * AB}, ia{P * CW}, oa{P * CW};
  std::vector<int> pass;
  explicit RtlSide(Dut& d) : dut(d) {}

  void configure(const AllocatorConfig& c) {
    dut.ports_i = static_cast<uint8_t>(c.inputs);
    dut.cap_i = static_cast<uint8_t>(c.conn_cap);
    dut.iters_i = static_cast<uint8_t>(c.iterations);
    Bits nvc(P * NVW), nd(P * NVW);
    for (int p = 0; p < c.inputs; ++p) {
      nvc.put(p * NVW, NVW, c.vcs[static_cast<size_t>(p)]);
      nd.put(p * NVW, NVW, c.data_vcs[static_cast<size_t>(p)]);
    }
    nvc.to(dut.nvc_i);
    nd.to(dut.ndata_i);
    if constexpr (AGE) {
      dut.transit_prio_i = c.transit_priority;
      dut.age_prio_i = c.age_priority;
      Bits inj(P);
      for (int p = 0; p < c.inputs; ++p) inj.put(p, 1, c.injection[static_cast<size_t>(p)]);
      inj.to(dut.inj_i);
    }
    dut.rr_all_en_i = c.rr_all >= 0;
    dut.rr_all_i = static_cast<uint8_t>(c.rr_all >= 0 ? c.rr_all : 0);
    dut.load_i = 0;
    const Bits zero(N * 64);  // no requests left from an earlier configuration
    zero.to(dut.req_i);
    zero.to(dut.req_port_i);
    zero.to(dut.req_vc_i);
    zero.to(dut.in_active_i);
    zero.to(dut.out_active_i);
    // Reset: the state 0, as a new part.
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
    if constexpr (AGE) age.to(dut.req_age_i);
    ia.to(dut.in_active_i);
    oa.to(dut.out_active_i);
    dut.eval();
    pass.assign(m.req.size(), -1);
    for (size_t e = 0; e < m.req.size(); ++e)
      if (get_bits(dut.grant_o, static_cast<int>(e), 1))
        pass[e] = static_cast<int>(get_bits(dut.grant_pass_o, static_cast<int>(e) * GW, GW));
    return pass;
  }
  // The rising edge; the clock falls in the next evaluation (nothing happens on it).
  void edge() {
    dut.clk_i = 1;
    dut.eval();
    dut.clk_i = 0;
  }
  // A load at the next edge: set(dut) writes the load_* ports.
  template <class Set>
  void load(Set&& set) {
    set(dut);
    dut.eval();  // the clock's fall (see edge())
    dut.load_i = 1;
    edge();
    dut.load_i = 0;
  }
  uint64_t in_ptr(int p) const { return get_bits(dut.in_ptr_o, p * VW, VW); }
};

// The wavefront's state on both sides: VC pointers and the first diagonal.
struct Wavefront {
  using Part = WavefrontAllocator;
  static constexpr const char* kName = "alloc_wavefront";
  static constexpr bool kAge = false;
  struct State {
    std::vector<uint8_t> in;
    int diag = 0;
  };
  static State random_state(const AllocatorConfig& c, std::mt19937_64& g) {
    State s;
    for (int p = 0; p < c.inputs; ++p) {
      const int span = p == c.rr_all ? c.vcs[static_cast<size_t>(p)] : c.data_vcs[static_cast<size_t>(p)];
      s.in.push_back(static_cast<uint8_t>(span > 0 ? g() % static_cast<uint64_t>(span) : 0));
    }
    s.diag = static_cast<int>(g() % static_cast<uint64_t>(c.inputs));
    return s;
  }
  template <class Rtl>
  static void load(Part& part, Rtl& rtl, const State& s) {
    part.set_state(s.in, s.diag);
    rtl.load([&](auto& dut) {
      Bits bi(Rtl::kPorts * Rtl::VW);
      for (size_t p = 0; p < s.in.size(); ++p) bi.put(static_cast<int>(p) * Rtl::VW, Rtl::VW, s.in[p]);
      bi.to(dut.load_in_ptr_i);
      dut.load_diag_i = static_cast<uint8_t>(s.diag);
    });
  }
  static std::vector<int> state(const Part& part) {
    std::vector<int> s(part.in_pointers().begin(), part.in_pointers().end());
    s.push_back(part.diagonal());
    return s;
  }
  // "" if both sides hold the same state, else what differs.
  template <class Rtl>
  static std::string compare(const Part& part, const Rtl& rtl) {
    for (int p = 0; p < part.config().inputs; ++p)
      if (rtl.in_ptr(p) != part.in_pointers()[static_cast<size_t>(p)])
        return "VC pointer of port " + std::to_string(p) + ": C++ " +
               std::to_string(part.in_pointers()[static_cast<size_t>(p)]) + ", RTL " + std::to_string(rtl.in_ptr(p));
    if (static_cast<int>(rtl.dut.diag_o) != part.diagonal())
      return "diagonal: C++ " + std::to_string(part.diagonal()) + ", RTL " + std::to_string(int(rtl.dut.diag_o));
    return "";
  }
};

// iSLIP's state on both sides: per port the VC, grant and accept pointers.
struct Islip {
  using Part = IslipAllocator;
  static constexpr const char* kName = "alloc_islip";
  static constexpr bool kAge = false;
  struct State {
    std::vector<uint8_t> in, grant, accept;
  };
  static State random_state(const AllocatorConfig& c, std::mt19937_64& g) {
    State s;
    for (int p = 0; p < c.inputs; ++p) {
      const int span = p == c.rr_all ? c.vcs[static_cast<size_t>(p)] : c.data_vcs[static_cast<size_t>(p)];
      s.in.push_back(static_cast<uint8_t>(span > 0 ? g() % static_cast<uint64_t>(span) : 0));
      s.grant.push_back(static_cast<uint8_t>(g() % static_cast<uint64_t>(c.inputs)));
      s.accept.push_back(static_cast<uint8_t>(g() % static_cast<uint64_t>(c.inputs)));
    }
    return s;
  }
  template <class Rtl>
  static void load(Part& part, Rtl& rtl, const State& s) {
    part.set_pointers(s.in, s.grant, s.accept);
    rtl.load([&](auto& dut) {
      Bits bi(Rtl::kPorts * Rtl::VW), bg(Rtl::kPorts * Rtl::PW), ba(Rtl::kPorts * Rtl::PW);
      for (size_t p = 0; p < s.in.size(); ++p) {
        bi.put(static_cast<int>(p) * Rtl::VW, Rtl::VW, s.in[p]);
        bg.put(static_cast<int>(p) * Rtl::PW, Rtl::PW, s.grant[p]);
        ba.put(static_cast<int>(p) * Rtl::PW, Rtl::PW, s.accept[p]);
      }
      bi.to(dut.load_in_ptr_i);
      bg.to(dut.load_grant_ptr_i);
      ba.to(dut.load_accept_ptr_i);
    });
  }
  static std::vector<int> state(const Part& part) {
    std::vector<int> s;
    for (const auto* v : {&part.in_pointers(), &part.grant_pointers(), &part.accept_pointers()})
      s.insert(s.end(), v->begin(), v->end());
    return s;
  }
  template <class Rtl>
  static std::string compare(const Part& part, const Rtl& rtl) {
    for (int p = 0; p < part.config().inputs; ++p) {
      const size_t i = static_cast<size_t>(p);
      const uint64_t g = get_bits(rtl.dut.grant_ptr_o, p * Rtl::PW, Rtl::PW),
                     a = get_bits(rtl.dut.accept_ptr_o, p * Rtl::PW, Rtl::PW);
      if (rtl.in_ptr(p) != part.in_pointers()[i] || g != part.grant_pointers()[i] || a != part.accept_pointers()[i])
        return "pointers of port " + std::to_string(p) + ": C++ VC " + std::to_string(part.in_pointers()[i]) +
               " grant " + std::to_string(part.grant_pointers()[i]) + " accept " +
               std::to_string(part.accept_pointers()[i]) + ", RTL VC " + std::to_string(rtl.in_ptr(p)) + " grant " +
               std::to_string(g) + " accept " + std::to_string(a);
    }
    return "";
  }
};

// The separable output-first allocator's state on both sides: per port the VC pointer and
// the output's input-port pointer.
struct OutputFirst {
  using Part = OutputFirstAllocator;
  static constexpr const char* kName = "alloc_output_first";
  static constexpr bool kAge = true;
  struct State {
    std::vector<uint8_t> in, out;
  };
  static State random_state(const AllocatorConfig& c, std::mt19937_64& g) {
    State s;
    for (int p = 0; p < c.inputs; ++p) {
      const int span = p == c.rr_all ? c.vcs[static_cast<size_t>(p)] : c.data_vcs[static_cast<size_t>(p)];
      s.in.push_back(static_cast<uint8_t>(span > 0 ? g() % static_cast<uint64_t>(span) : 0));
      s.out.push_back(static_cast<uint8_t>(g() % static_cast<uint64_t>(c.inputs)));
    }
    return s;
  }
  template <class Rtl>
  static void load(Part& part, Rtl& rtl, const State& s) {
    part.set_pointers(s.in, s.out);
    rtl.load([&](auto& dut) {
      Bits bi(Rtl::kPorts * Rtl::VW), bo(Rtl::kPorts * Rtl::PW);
      for (size_t p = 0; p < s.in.size(); ++p) {
        bi.put(static_cast<int>(p) * Rtl::VW, Rtl::VW, s.in[p]);
        bo.put(static_cast<int>(p) * Rtl::PW, Rtl::PW, s.out[p]);
      }
      bi.to(dut.load_in_ptr_i);
      bo.to(dut.load_out_ptr_i);
    });
  }
  static std::vector<int> state(const Part& part) {
    std::vector<int> s(part.in_pointers().begin(), part.in_pointers().end());
    s.insert(s.end(), part.out_pointers().begin(), part.out_pointers().end());
    return s;
  }
  template <class Rtl>
  static std::string compare(const Part& part, const Rtl& rtl) {
    for (int p = 0; p < part.config().inputs; ++p) {
      const size_t i = static_cast<size_t>(p);
      const uint64_t o = get_bits(rtl.dut.out_ptr_o, p * Rtl::PW, Rtl::PW);
      if (rtl.in_ptr(p) != part.in_pointers()[i] || o != part.out_pointers()[i])
        return "pointers of port " + std::to_string(p) + ": C++ VC " + std::to_string(part.in_pointers()[i]) +
               " output " + std::to_string(part.out_pointers()[i]) + ", RTL VC " + std::to_string(rtl.in_ptr(p)) +
               " output " + std::to_string(o);
    }
    return "";
  }
};

// One lockstep cycle: same grants, same pass of each, and after the edge the same state.
template <class Variant, class Rtl>
::testing::AssertionResult lockstep(CppSide<typename Variant::Part>& cpp, Rtl& rtl, const Matrix& m, long cycle,
                                    uint64_t* grants = nullptr) {
  const int K = cpp.part.config().inputs;
  const std::vector<int>& r = rtl.drive(m, K);
  const std::vector<int>& c = cpp.cycle(m);
  auto dump = [&] {
    std::string s = "\n";
    for (size_t e = 0; e < m.req.size(); ++e)
      if (m.req[e].op >= 0)
        s += "  (" + std::to_string(e / cpp.V) + "," + std::to_string(e % cpp.V) + ") -> (" + std::to_string(m.req[e].op) +
             "," + std::to_string(m.req[e].ov) + ") pass " + std::to_string(c[e]) + "\n";
    return s;
  };
  for (size_t e = 0; e < c.size(); ++e) {
    if (c[e] != r[e])
      return ::testing::AssertionFailure() << "cycle " << cycle << ": input VC (" << e / cpp.V << "," << e % cpp.V
                                           << ") granted in pass " << c[e] << " by C++, " << r[e] << " by RTL" << dump();
    if (grants && c[e] >= 0) ++*grants;
  }
  rtl.edge();
  const std::string diff = Variant::compare(cpp.part, rtl);
  if (!diff.empty()) return ::testing::AssertionFailure() << "cycle " << cycle << ": " << diff << dump();
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

// Entry digit x: 0 idle, else output VC ((x - 1) / 2, (x - 1) % 2).
Matrix radix4_matrix(uint32_t code) {
  Matrix m;
  m.req.resize(8);
  for (int e = 0; e < 8; ++e, code /= 9) {
    const int x = static_cast<int>(code % 9);
    if (x) m.req[static_cast<size_t>(e)] = Request{(x - 1) / 2, (x - 1) % 2};
  }
  m.in_active.assign(4, 0);
  m.out_active.assign(4, 0);
  return m;
}

// The canonical matrices: at each output port the first entry asking for it asks for VC 0.
// Built once per process, entry by entry (e = 0 first), the codes in that order.
void add_canonical(int e, uint32_t code, uint32_t weight, unsigned seen, std::vector<uint32_t>& out) {
  if (e == 8) {
    out.push_back(code);
    return;
  }
  add_canonical(e + 1, code, weight * 9, seen, out);  // idle
  for (int op = 0; op < 4; ++op)
    for (int ov = 0; ov < ((seen >> op & 1u) ? 2 : 1); ++ov)
      add_canonical(e + 1, code + weight * static_cast<uint32_t>(1 + op * 2 + ov), weight * 9, seen | 1u << op, out);
}
const std::vector<uint32_t>& canonical_codes() {
  static const std::vector<uint32_t> codes = [] {
    std::vector<uint32_t> c;
    c.reserve(4279745);
    add_canonical(0, 0, 1, 0, c);
    return c;
  }();
  return codes;
}

// The exhaustive runs' configurations, one per iteration count of the radix-4 instance.
AllocatorConfig radix4_config(int iters) {
  AllocatorConfig c = plain_config(4, 2, iters == 1 ? 1 : 2, iters);
  if (iters == 3) c.data_vcs[0] = c.data_vcs[2] = 1;  // VC 1 of ports 0 and 2 is control
  return c;
}

// The symmetry the exhaustive tests use: swapping the two VC labels of an output port
// swaps nothing else (same grants, same state), on random matrices of the C++ part.
template <class Variant>
void check_label_symmetry() {
  std::mt19937_64 g(5);
  for (int iters : {1, 2, 3}) {
    const AllocatorConfig cfg = radix4_config(iters);
    CppSide<typename Variant::Part> a(cfg, 2), b(cfg, 2);
    for (int n = 0; n < 20000; ++n) {
      const uint32_t code = static_cast<uint32_t>(g() % 43046721u);
      const int swap_port = static_cast<int>(g() % 4);
      Matrix m = radix4_matrix(code), s = m;
      for (Request& r : s.req)
        if (r.op == swap_port) r.ov ^= 1;
      ASSERT_EQ(a.cycle(m), b.cycle(s)) << "matrix " << code;
      ASSERT_EQ(Variant::state(a.part), Variant::state(b.part));
    }
  }
}

// The canonical radix-4 matrices, from random pointers: the n-th with iteration count
// 1 + (n / stride) % 3 if n % stride == 0 (stride SCFLY_RTL_ALLOC_VAR_STRIDE, default
// kStride; 1: each matrix once), every one with every iteration count with
// SCFLY_RTL_ALLOC_VAR_FULL=1.
constexpr long kStride = 16;
template <class Variant, class Dut>
void exhaustive_radix4(uint64_t seed) {
  const bool full = env_long("SCFLY_RTL_ALLOC_VAR_FULL", 0) == 1;
  const long stride = full ? 1 : env_long("SCFLY_RTL_ALLOC_VAR_STRIDE", kStride);
  Dut dut(Verilated::threadContextp());
  RtlSide<Dut, 4, 2, 2, 3, Variant::kAge> rtl(dut);
  std::mt19937_64 g(seed);
  long total = 0;
  for (int iters : {1, 2, 3}) {
    SCOPED_TRACE(std::to_string(iters) + " passes");
    const AllocatorConfig cfg = radix4_config(iters);
    CppSide<typename Variant::Part> cpp(cfg, 2);
    rtl.configure(cfg);
    Variant::load(cpp.part, rtl, Variant::random_state(cfg, g));
    long cycles = 0;
    uint64_t grants = 0;
    const std::vector<uint32_t>& codes = canonical_codes();
    ASSERT_EQ(codes.size(), 4279745u);
    for (long n = 0; n < static_cast<long>(codes.size()); n += full ? 1 : stride) {
      if (!full && (n / stride) % 3 != iters - 1) continue;
      const uint32_t code = codes[static_cast<size_t>(n)];
      ASSERT_TRUE(lockstep<Variant>(cpp, rtl, radix4_matrix(code), cycles, &grants)) << "matrix " << code;
      ++cycles;
    }
    EXPECT_GT(grants, static_cast<uint64_t>(cycles));  // the comparison saw real work
    total += cycles;
  }
  // 4,279,745 canonical matrices: each with every iteration count (full), or every
  // stride-th with one.
  EXPECT_EQ(total, full ? 3 * 4279745L : (4279745L + stride - 1) / stride);
  std::printf("[ %s ] %ld matrices at radix 4\n", Variant::kName, total);
}

// A random configuration of a switch up to 16 ports with up to 4 VCs per port.

// Random lockstep on the instance of P ports and V VCs: `config(g)` draws each
// configuration; `env` names the variable that sets the count (default `def`).
template <class Variant, class Dut, int P, int V, int CAP, int ITERS, class Config>
void random_lockstep(uint64_t seed, const char* env, long def, Config&& config, bool pairs = false,
                     int per_config = 1000) {
  const long total = env_long(env, def);
  Dut dut(Verilated::threadContextp());
  RtlSide<Dut, P, V, CAP, ITERS, Variant::kAge> rtl(dut);
  std::mt19937_64 g(seed);
  long done = 0, late = 0, configs = 0;
  uint64_t grants = 0;
  while (done < total) {
    const AllocatorConfig cfg = config(g);
    CppSide<typename Variant::Part> cpp(cfg, V);
    rtl.configure(cfg);
    ++configs;
    SCOPED_TRACE(describe(cfg));
    for (int n = 0; n < per_config && done < total; ++n, ++done) {
      if (n % 250 == 0) Variant::load(cpp.part, rtl, Variant::random_state(cfg, g));
      Matrix m = random_matrix(cfg, V, g, n % 3 == 0 ? 0.9 : 0.4);
      if (pairs && n % 2 == 0)  // every other matrix: a port's VCs ask for one output port
        for (int ip = 0; ip < cfg.inputs; ++ip) {
          Request& a = m.req[static_cast<size_t>(ip * V)];
          Request& b = m.req[static_cast<size_t>(ip * V + 1)];
          if (a.op >= 0 && cfg.vcs[static_cast<size_t>(ip)] > 1) b = Request{a.op, 1 - a.ov, b.age};
        }
      uint64_t gr = 0;
      ASSERT_TRUE(lockstep<Variant>(cpp, rtl, m, done, &gr)) << "configuration " << configs;
      grants += gr;
      for (int p : cpp.pass) late += p > 0;
    }
  }
  EXPECT_GT(grants, static_cast<uint64_t>(total));  // real work ...
  EXPECT_GT(late, total / 20);                       // ... including grants of later passes
}
template <class Variant, class Dut>
void random_radix16(uint64_t seed) {
  random_lockstep<Variant, Dut, 16, 4, 4, 3>(seed, "SCFLY_RTL_ALLOC_VAR_MATRICES", 10000, random_config);
}
// The radix-64 instances (2 VCs, 2 connections, 2 passes): 17-64 ports, 2,000 matrices by
// default (SCFLY_RTL_ALLOC_VAR64_MATRICES for another count). Among so many outputs a
// later pass rarely finds work: in every other matrix each input port's two VCs ask for the
// same output port (its two VCs), which one wavefront pass cannot both grant. 100 matrices
// per configuration.
template <class Variant, class Dut>
void random_radix64(uint64_t seed) {
  random_lockstep<Variant, Dut, 64, 2, 2, 2>(seed, "SCFLY_RTL_ALLOC_VAR64_MATRICES", 2000, random_config64, true,
                                             100);
}

// The simulation assertions (--assert) stop the model on a broken contract: a request to a
// port beyond the switch, more connections held than the cap.
template <class Variant, class Dut>
void assertions_stop_the_model() {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const std::string name = Variant::kName;
  enum Bad { None, PortBeyond, OverCap };
  const auto drive = [](Bad bad) {
    std::fflush(stdout);
    dup2(STDERR_FILENO, STDOUT_FILENO);  // Verilator prints the message on stdout
    VerilatedContext ctx;
    Dut dut(&ctx);
    RtlSide<Dut, 4, 2, 2, 3, Variant::kAge> rtl(dut);
    rtl.configure(plain_config(3, 2, 2, 2));
    Matrix m;
    m.req.resize(6);
    m.req[0] = Request{2, 1, 0};
    m.req[4] = Request{bad == PortBeyond ? 3 : 0, 0, 0};
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
  EXPECT_DEATH(drive(PortBeyond), name + ": request to port 3 beyond the ports");
  EXPECT_DEATH(drive(OverCap), name + ": port 1 holds more connections than the cap");
}

// The switch's adapter for a variant (--rtl allocator with switch.allocator output-first,
// wavefront or islip: rtl_blocks.h's AllocatorBlock): against the C++ part with the switch
// harness, on random configurations of the three instances' sizes (radix 4 x 2 VCs, 8 x 4
// with 2 passes built, so that 3 passes take two evaluations at least, 16 x 4), the
// block driven as Switch::allocate_rtl drives it, each cycle's passes cut into evaluations
// at random (one pass, or as many as max_passes allows: the switch evaluates one pass at a
// time while a head has a second free candidate), end_cycle() after the last. The same
// grants in the same passes, ordered by order_pass as the C++ part calls `grant`, cycle
// after cycle: the registers the evaluations leave (iSLIP's moved by its first iteration
// only, the wavefront's diagonal once per cycle) are what the next cycle's grants read.
template <class Part>
void block_in_cpp_order(AllocatorKind kind, uint64_t seed) {
  std::mt19937_64 g(seed);
  long cycles = 0, granted = 0, later = 0, split = 0;
  for (int n = 0; n < 45; ++n) {
    AllocatorConfig cfg = random_config(g);
    int V = 4;
    if (n % 3 == 1 && cfg.inputs > 8) {  // the radix-8 instance's size (2 passes built)
      cfg.inputs = 2 + static_cast<int>(g() % 7);
      for (auto* v : {&cfg.vcs, &cfg.data_vcs, &cfg.injection}) v->resize(static_cast<size_t>(cfg.inputs));
      if (cfg.rr_all >= 0) {
        cfg.rr_all = cfg.inputs - 1;
        cfg.data_vcs.back() = 0;
      }
    }
    if (n % 3 == 0) {  // the radix-4 instance's size
      V = 2;
      fit_radix4(cfg, g);
    }
    SCOPED_TRACE(describe(cfg));
    const int max_vcs = *std::max_element(cfg.vcs.begin(), cfg.vcs.end());
    Part cpp(cfg);
    std::unique_ptr<AllocatorBlock> blk = make_rtl_allocator(cfg, "variant_block_" + std::to_string(n), kind);
    ASSERT_EQ(blk->kind(), kind);
    const int K = cfg.inputs, cap = cfg.conn_cap;
    PortMask busy;
    for (int p = 0; p < K; ++p) busy.set(p);
    for (int c = 0; c < 300; ++c, ++cycles) {
      Matrix m = random_matrix(cfg, V, g, c % 3 == 0 ? 0.9 : 0.4);
      for (Request& r : m.req) r.ov %= max_vcs;  // a switch's output VCs: no more than its input VCs
      // The C++ part, its grants in the order it makes them.
      CycleHarness c_side(m, K, V, cap), b_side(m, K, V, cap);
      const uint32_t first = cpp.pass_id() + 1;
      auto want = [&](int ip, int v, RouteDecision& d) { return c_side.want(ip, v, d); };
      auto age = [&](int ip, int v) { return c_side.age(ip, v); };
      auto grant = [&](const AllocRequest& r) { return c_side.grant(r, static_cast<int>(cpp.pass_id() - first)); };
      cpp.allocate(busy, c_side.in_act.data(), c_side.out_act.data(), want, age, grant);
      // The block as the switch drives it.
      for (int pass = 0; pass < cfg.iterations;) {
        blk->begin();
        bool any = false;
        for (size_t e = 0; e < m.req.size(); ++e) {
          if (!b_side.open(e)) continue;
          const Request& r = m.req[e];
          blk->request(static_cast<int>(e) / V, static_cast<int>(e) % V, r.op, r.ov, r.age);
          any = true;
        }
        const int most = std::min(cfg.iterations - pass, blk->max_passes(pass));
        const int passes = g() % 2 ? 1 : most;
        split += passes < cfg.iterations - pass;
        blk->evaluate(passes, b_side.in_act.data(), b_side.out_act.data());
        if (!any) break;
        for (int k = 0; k < passes; ++k) {
          std::vector<RtlGrant> pl;
          for (const RtlGrant& r : blk->grants())
            if (r.pass == k) pl.push_back(r);
          blk->order_pass(pass + k, pl);
          for (const RtlGrant& q : pl) b_side.take(q.in_port, q.in_vc, q.out_port, q.out_vc, pass + k);
          later += pass + k > 0 ? static_cast<long>(pl.size()) : 0;
        }
        pass += passes;
      }
      blk->end_cycle();
      ASSERT_TRUE(b_side.order == c_side.order) << "cycle " << c << ": the block's grants in order" << show(b_side.order)
                                                << "\n the C++ part's" << show(c_side.order);
      granted += static_cast<long>(b_side.order.size());
    }
  }
  EXPECT_GT(granted, cycles);       // real work ...
  EXPECT_GT(later, cycles / 40);    // ... in later passes too
  EXPECT_GT(split, cycles / 10);    // ... and cycles cut into several evaluations
}

TEST(RtlAllocVariantBlock, WavefrontGrantsInTheCppOrderThroughTheSwitchAdapter) {
  block_in_cpp_order<WavefrontAllocator>(AllocatorKind::Wavefront, 31);
}
TEST(RtlAllocVariantBlock, IslipGrantsInTheCppOrderThroughTheSwitchAdapter) {
  block_in_cpp_order<IslipAllocator>(AllocatorKind::Islip, 32);
}
TEST(RtlAllocVariantBlock, OutputFirstGrantsInTheCppOrderThroughTheSwitchAdapter) {
  block_in_cpp_order<OutputFirstAllocator>(AllocatorKind::SeparableOutput, 33);
}

TEST(RtlAllocWavefront, OutputVcLabelsOnlyNameCollisions) { check_label_symmetry<Wavefront>(); }
TEST(RtlAllocWavefront, ExhaustiveAtRadix4With2Vcs) { exhaustive_radix4<Wavefront, Valloc_wavefront_r4v2>(11); }
TEST(RtlAllocWavefront, RandomAtRadix16With4Vcs) { random_radix16<Wavefront, Valloc_wavefront_r16v4>(20261129); }
TEST(RtlAllocWavefront, RandomAtRadix64With2Vcs) { random_radix64<Wavefront, Valloc_wavefront_r64v2>(20261201); }
TEST(RtlAllocWavefrontDeathTest, AssertionsStopTheModel) {
  assertions_stop_the_model<Wavefront, Valloc_wavefront_r4v2>();
}

TEST(RtlAllocIslip, OutputVcLabelsOnlyNameCollisions) { check_label_symmetry<Islip>(); }
TEST(RtlAllocIslip, ExhaustiveAtRadix4With2Vcs) { exhaustive_radix4<Islip, Valloc_islip_r4v2>(12); }
TEST(RtlAllocIslip, RandomAtRadix16With4Vcs) { random_radix16<Islip, Valloc_islip_r16v4>(20261130); }
TEST(RtlAllocIslip, RandomAtRadix64With2Vcs) { random_radix64<Islip, Valloc_islip_r64v2>(20261202); }
TEST(RtlAllocIslipDeathTest, AssertionsStopTheModel) { assertions_stop_the_model<Islip, Valloc_islip_r4v2>(); }

TEST(RtlAllocOutputFirst, OutputVcLabelsOnlyNameCollisions) { check_label_symmetry<OutputFirst>(); }
TEST(RtlAllocOutputFirst, ExhaustiveAtRadix4With2Vcs) { exhaustive_radix4<OutputFirst, Valloc_output_first_r4v2>(13); }
TEST(RtlAllocOutputFirst, RandomAtRadix16With4Vcs) {
  random_radix16<OutputFirst, Valloc_output_first_r16v4>(20261131);
}
TEST(RtlAllocOutputFirst, RandomAtRadix64With2Vcs) {
  random_radix64<OutputFirst, Valloc_output_first_r64v2>(20261203);
}
TEST(RtlAllocOutputFirstDeathTest, AssertionsStopTheModel) {
  assertions_stop_the_model<OutputFirst, Valloc_output_first_r4v2>();
}

}  // namespace
}  // namespace scfly
