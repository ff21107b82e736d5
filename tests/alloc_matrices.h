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

// A random switch: 2-16 ports, 1-4 VCs each (control VCs on some), cap 1-4, 1-3 passes,
// transit and age priority (read by the separable input-first and output-first ones only),
// injection inputs, and sometimes an internal rr_all port.
inline AllocatorConfig random_config(std::mt19937_64& g) {
  AllocatorConfig c;
  const int K = 2 + static_cast<int>(g() % 15);
  c.inputs = K;
  c.conn_cap = 1 + static_cast<int>(g() % 4);
  c.iterations = 1 + static_cast<int>(g() % 3);
  c.transit_priority = g() % 2;
  c.age_priority = g() % 2;
  const bool control = g() % 2;
  for (int p = 0; p < K; ++p) {
    const int nv = 1 + static_cast<int>(g() % 4);
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

}  // namespace scfly::rtl_test
