// What the allocators' RTL lockstep tests share (test_rtl_allocator.cpp,
// test_rtl_allocator_variants.cpp): one cycle's request matrix, and random allocator
// configurations and matrices to drive the C++ part and its SystemVerilog twin with.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "rtl_models/switch/parts/allocator.h"

namespace scfly::rtl_test {

// One cycle's requests: entry ip * V + v asks for output VC (op, ov) or nothing (op < 0).
struct Request {
  int op = -1, ov = 0;
  uint64_t age = 0;
};
struct Matrix {
  std::vector<Request> req;  // K * V entries (VCs a port lacks: idle)
  std::vector<uint8_t> in_active, out_active;
};

// A random switch of `lo`-`hi` ports, 1-`vcs` VCs each (control VCs on some), cap 1-`cap`,
// 1-`passes` passes, transit and age priority (read by the separable input-first and
// output-first ones only), injection inputs, and sometimes an internal rr_all port.
inline AllocatorConfig random_switch(std::mt19937_64& g, int lo, int hi, int vcs, int cap, int passes) {
  AllocatorConfig c;
  const int K = lo + static_cast<int>(g() % static_cast<uint64_t>(hi - lo + 1));
  c.inputs = K;
  c.conn_cap = 1 + static_cast<int>(g() % static_cast<uint64_t>(cap));
  c.iterations = 1 + static_cast<int>(g() % static_cast<uint64_t>(passes));
  c.transit_priority = g() % 2;
  c.age_priority = g() % 2;
  const bool control = g() % 2;
  for (int p = 0; p < K; ++p) {
    const int nv = 1 + static_cast<int>(g() % static_cast<uint64_t>(vcs));
    const int nd = control ? static_cast<int>(g() % static_cast<uint64_t>(nv + 1)) : nv;
    c.vcs.push_back(static_cast<uint8_t>(nv));
    c.data_vcs.push_back(static_cast<uint8_t>(nd));
    c.injection.push_back(static_cast<uint8_t>(g() % 3 == 0));
  }
  if (g() % 3 == 0) {  // an internal port whose VCs are all round-robin (the multiqueue)
    c.rr_all = K - 1;
    c.data_vcs.back() = 0;
  }
  return c;
}
// The radix-16 instances': 2-16 ports, 1-4 VCs, cap 1-4, 1-3 passes.
inline AllocatorConfig random_config(std::mt19937_64& g) { return random_switch(g, 2, 16, 4, 4, 3); }
// The radix-64 instances': 17-64 ports, 1-2 VCs, cap 1-2, 1-2 passes.
inline AllocatorConfig random_config64(std::mt19937_64& g) { return random_switch(g, 17, 64, 2, 2, 2); }

// A random configuration cut down to the radix-4 instance (2-4 ports, 1-2 VCs, cap 1-2, no
// rr_all port), as test_rtl_allocator.cpp's and test_rtl_allocator_variants.cpp's adapter
// tests draw it.
inline void fit_radix4(AllocatorConfig& c, std::mt19937_64& g) {
  c.inputs = 2 + static_cast<int>(g() % 3);
  c.conn_cap = 1 + static_cast<int>(g() % 2);
  for (auto* v : {&c.vcs, &c.data_vcs, &c.injection}) v->resize(static_cast<size_t>(c.inputs));
  for (int p = 0; p < c.inputs; ++p) {
    c.vcs[static_cast<size_t>(p)] = static_cast<uint8_t>(1 + g() % 2);
    c.data_vcs[static_cast<size_t>(p)] = static_cast<uint8_t>(g() % 3 == 0 ? g() % 2 : c.vcs[static_cast<size_t>(p)]);
  }
  c.rr_all = -1;
}


inline std::string describe(const AllocatorConfig& c) {
  std::string s = std::to_string(c.inputs) + " ports, cap " + std::to_string(c.conn_cap) + ", " +
                  std::to_string(c.iterations) + " passes, transit " + std::to_string(c.transit_priority) + ", age " +
                  std::to_string(c.age_priority) + ", rr_all " + std::to_string(c.rr_all) + ", VCs/data/injection:";
  for (int p = 0; p < c.inputs; ++p)
    s += " " + std::to_string(c.vcs[static_cast<size_t>(p)]) + "/" + std::to_string(c.data_vcs[static_cast<size_t>(p)]) +
         "/" + std::to_string(c.injection[static_cast<size_t>(p)]);
  return s;
}

inline Matrix random_matrix(const AllocatorConfig& c, int V, std::mt19937_64& g, double density) {
  const int K = c.inputs;
  Matrix m;
  m.req.resize(static_cast<size_t>(K * V));
  std::uniform_real_distribution<double> u(0, 1);
  // Few output ports at a time make collisions and capacity limits common.
  const int hot = 1 + static_cast<int>(g() % static_cast<uint64_t>(K));
  for (int ip = 0; ip < K; ++ip)
    for (int v = 0; v < c.vcs[static_cast<size_t>(ip)]; ++v) {
      Request& r = m.req[static_cast<size_t>(ip * V + v)];
      r.age = g() % 4 == 0 ? (1ULL << 30) + g() % 8 : g() % 8;  // ties and saturation
      if (u(g) >= density) continue;
      r.op = static_cast<int>(g() % static_cast<uint64_t>(hot));
      r.ov = static_cast<int>(g() % static_cast<uint64_t>(V));
    }
  for (int p = 0; p < K; ++p) {
    m.in_active.push_back(static_cast<uint8_t>(g() % 3 == 0 ? g() % static_cast<uint64_t>(c.conn_cap + 1) : 0));
    m.out_active.push_back(static_cast<uint8_t>(g() % 3 == 0 ? g() % static_cast<uint64_t>(c.conn_cap + 1) : 0));
  }
  return m;
}

// The tests' switch harness around one cycle of an allocator, the state the switch's
// `want` and `grant` read (tests/test_allocator.cpp's rule): an output port takes up to cap
// connections, an output VC one, and a granted input VC requests no more. The C++ part is
// driven through want/age/grant; a Verilated block's requests are the entries still open
// (its input port's budget too) and its grants are recorded with take(). Either side's
// grants are kept in the order made, with their pass.
struct GrantRec {
  int ip, v, op, ov, pass;
  bool operator==(const GrantRec& o) const { return ip == o.ip && v == o.v && op == o.op && ov == o.ov && pass == o.pass; }
};
inline std::string show(const std::vector<GrantRec>& l) {
  std::string t;
  for (const GrantRec& r : l)
    t += " (" + std::to_string(r.ip) + "," + std::to_string(r.v) + ")->(" + std::to_string(r.op) + "," +
         std::to_string(r.ov) + ") pass " + std::to_string(r.pass) + ";";
  return t;
}
struct CycleHarness {
  const Matrix& m;
  int V, cap;
  std::vector<uint8_t> in_act, out_act, taken, done;
  std::vector<GrantRec> order;
  std::vector<int> pass;  // per entry, the pass of its grant (-1: none)
  CycleHarness(const Matrix& mat, int K, int vcs, int c)
      : m(mat), V(vcs), cap(c), in_act(mat.in_active), out_act(mat.out_active),
        taken(static_cast<size_t>(K * vcs), 0), done(mat.req.size(), 0), pass(mat.req.size(), -1) {}
  bool free_out(int op, int ov) const {
    return out_act[static_cast<size_t>(op)] < cap && !taken[static_cast<size_t>(op * V + ov)];
  }
  bool want(int ip, int v, RouteDecision& d) const {
    const size_t e = static_cast<size_t>(ip * V + v);
    const Request& r = m.req[e];
    if (r.op < 0 || done[e] || !free_out(r.op, r.ov)) return false;
    d = RouteDecision{static_cast<int16_t>(r.op), static_cast<uint8_t>(r.ov)};
    return true;
  }
  uint64_t age(int ip, int v) const { return m.req[static_cast<size_t>(ip * V + v)].age; }
  // The C++ part's grant: refused if the output cannot take it any more.
  bool grant(const AllocRequest& r, int p) {
    if (!free_out(r.out_port, r.out_vc)) return false;
    take(r.in_port, r.in_vc, r.out_port, r.out_vc, p);
    return true;
  }
  // May entry e request now (a block's requests)?
  bool open(size_t e) const {
    const Request& r = m.req[e];
    const int ip = static_cast<int>(e) / V;
    return r.op >= 0 && !done[e] && in_act[static_cast<size_t>(ip)] < cap && free_out(r.op, r.ov);
  }
  void take(int ip, int v, int op, int ov, int p) {
    taken[static_cast<size_t>(op * V + ov)] = 1;
    done[static_cast<size_t>(ip * V + v)] = 1;
    pass[static_cast<size_t>(ip * V + v)] = p;
    ++in_act[static_cast<size_t>(ip)];
    ++out_act[static_cast<size_t>(op)];
    order.push_back(GrantRec{ip, v, op, ov, p});
  }
};

}  // namespace scfly::rtl_test
