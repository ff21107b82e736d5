// The switch's allocator as a part of its own: a separable input-first allocator with
// round-robin arbiters, several request-grant passes per cycle, plain C++ (no SystemC),
// testable alone against a reference model (tests/test_allocator.cpp).
//
// What it decides, and what it leaves to the switch. The allocator owns the arbitration:
// which of an input port's VCs request in a pass, in which order an output port considers
// the requests it receives, and its round-robin pointers. The switch owns the state the
// requests are checked against (output VC room, credits, an output VC already being
// written, a shared output buffer, an idle host link) and what a grant changes; it hands
// these to a pass as two callables:
//  want(ip, v, d)  input VC (ip, v) requests this pass, the output VC it asks for in `d`
//                  (the first free candidate of its routed head), or false;
//  grant(r)        output side of request r: true if granted (the switch then records the
//                  connection), false if the output port or VC can no longer take it.
//
// The rule, per pass:
//  1. Input stage. Each busy input port with b = (connections it may hold - connections it
//     holds) > 0 offers up to b requests: its control VCs first, in index order (strict
//     priority), then its data VCs in round-robin order starting at its input pointer
//     (the internal port named `rr_all`, the multiqueue, has every VC round-robin).
//  2. Output stage. The requests are ordered by (output port, control before data, transit
//     before injection [transit priority], oldest first [age priority: the packet's
//     injection cycle, saturating at 2^30], round-robin distance of the input port from the
//     output's pointer, input VC) and offered to `grant` in that order; each output's own
//     capacity is the switch's to check (it knows the connections still active).
//  3. Pointers. A grant from input ip to output op moves op's pointer to ip + 1, and ip's
//     pointer past the granted VC (data VCs: modulo the data VCs; the rr_all port: modulo
//     its VCs; a control VC moves nothing).
// A later pass (iterations > 1) runs the same rule over what the earlier ones left: the
// switch's `want` no longer offers a granted VC, nor an output VC or port already taken.
// This is the C++ reference of the SystemVerilog allocator (issue 49's RTL twin).
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "routing_units/route_types.h"
#include "rtl_models/switch/port_mask.h"
#include "scfly_widths.h"

namespace scfly {

// Widths of the allocator's state: round-robin pointers and VC indices are 8 bits and the
// round-robin distance is an 8-bit field of the order key, so a switch has at most 256
// ports (internal ones included) and 256 VCs per port; PortMask holds 256 ports too.
inline constexpr int kMaxAllocPorts = 256;
inline constexpr int kMaxAllocVcs = 256;
static_assert(kMaxAllocPorts <= 4 * 64, "PortMask holds the allocator's ports");
static_assert(kMaxAllocPorts - 1 <= UINT8_MAX, "round-robin pointers are uint8_t");
// The same limits and the age key's width as the SystemVerilog twin
// (rtl_models/verilog/sep_allocator.sv) takes from rtl_models/interface/widths.def.
static_assert(kMaxAllocPorts == 1 << kAllocPortBits && kMaxAllocVcs == 1 << kAllocVcBits,
              "allocator limits as widths.def");
static_assert(kAllocAgeBits == 30, "the order key holds the age in bits 16..45 (widths.def AllocAgeBits)");

// An input VC joined to an output VC: a request during allocation, a crossbar connection
// once granted.
struct AllocRequest {
  uint16_t in_port, out_port;
  uint8_t in_vc, out_vc;
  uint64_t key;  // order of the output stage (see the rule above)
};

struct AllocatorConfig {
  int inputs = 0;         // ports arbitrated over (the radix, + 1 with an internal port)
  int conn_cap = 1;       // connections an input port may hold
  int iterations = 1;     // request-grant passes per cycle
  bool transit_priority = false;
  bool age_priority = false;
  std::vector<uint8_t> vcs;      // VCs per input port
  std::vector<uint8_t> data_vcs; // data VCs per input port (the others: control)
  std::vector<uint8_t> injection;  // 1: an injection (host) input, for transit priority
  int rr_all = -1;        // an internal input whose VCs are all round-robin (-1: none)
  // For a randomized allocator (a plug-in's, parts/allocator_plugin.h): a seed drawn from
  // the run's seed for this switch (its own stream); scfly's allocators draw nothing.
  uint64_t seed = 0;
};

// Checks a configuration every allocator takes (std::invalid_argument naming what is wrong);
// returns its number of ports.
inline size_t checked_ports(const AllocatorConfig& c) {
  if (c.inputs < 1 || c.inputs > kMaxAllocPorts) throw std::invalid_argument("allocator: ports out of range");
  if (c.conn_cap < 1 || c.iterations < 1) throw std::invalid_argument("allocator: capacity and passes >= 1");
  const auto n = static_cast<size_t>(c.inputs);
  if (c.vcs.size() != n || c.data_vcs.size() != n || c.injection.size() != n)
    throw std::invalid_argument("allocator: one entry per input port");
  for (size_t p = 0; p < n; ++p)
    if (c.data_vcs[p] > c.vcs[p]) throw std::invalid_argument("allocator: data VCs exceed VCs");
  return n;
}

class SeparableAllocator {
 public:
  SeparableAllocator() = default;
  explicit SeparableAllocator(AllocatorConfig cfg) : m_cfg(std::move(cfg)) {
    const size_t n = checked_ports(m_cfg);
    m_in_rr.assign(n, 0);
    m_out_rr.assign(n, 0);
    m_reqs.reserve(n * static_cast<size_t>(m_cfg.conn_cap));
  }

  const AllocatorConfig& config() const { return m_cfg; }
  // Arbiter state (what an RTL twin must match): the input pointers (a VC index) and the
  // output pointers (an input port index).
  const std::vector<uint8_t>& in_pointers() const { return m_in_rr; }
  const std::vector<uint8_t>& out_pointers() const { return m_out_rr; }
  void set_pointers(const std::vector<uint8_t>& in, const std::vector<uint8_t>& out) {
    if (in.size() != m_in_rr.size() || out.size() != m_out_rr.size())
      throw std::invalid_argument("allocator: one pointer per port");
    m_in_rr = in;
    m_out_rr = out;
  }
  // Passes run so far (a grant rule that allows one grant per pass keys on it).
  uint32_t pass_id() const { return m_pass; }
  // The requests of the last pass, in the output stage's order.
  const std::vector<AllocRequest>& requests() const { return m_reqs; }

  // The output stage's order key of request r (step 2 of the rule) when its output port's
  // pointer is `out_ptr`, as pass() computes it. The co-simulated RTL allocator (--rtl
  // allocator) grants in one evaluation; the switch orders its grants with this key to
  // record them as pass() does (tests/test_rtl_allocator.cpp holds the two equal).
  template <bool kCtl, typename Age>
  SCFLY_ALWAYS_INLINE uint64_t order_key(const AllocRequest& r, int out_ptr, Age&& age) const {
    const int K = m_cfg.inputs;
    const int prio = (r.in_port - out_ptr + K) % K;
    uint64_t data = 1;
    if constexpr (kCtl) data = r.in_vc < m_cfg.data_vcs[r.in_port];
    const uint64_t inj = m_cfg.injection[r.in_port] & (m_cfg.transit_priority ? 1u : 0u);
    uint64_t a = 0;
    if (m_cfg.age_priority) {
      const uint64_t t = age(static_cast<int>(r.in_port), static_cast<int>(r.in_vc));
      a = t < (1ULL << 30) ? t : (1ULL << 30) - 1;
    }
    return (static_cast<uint64_t>(r.out_port) << 48) | (data << 47) | (inj << 46) | (a << 16) |
           (static_cast<uint64_t>(prio) << 8) | r.in_vc;
  }

  // One cycle: up to config().iterations passes, stopping at the first with no request.
  // `busy`: the input ports with buffered phits; `active[p]`: connections input p holds
  // (the switch raises it in `grant`); `age(ip, v)`: the injection cycle of the head of
  // input VC (ip, v) (read only with age priority). kCtl: some input has control VCs or
  // is the rr_all port (false compiles them out). Returns the grants of the later passes.
  template <bool kCtl, typename Want, typename Age, typename Grant>
  SCFLY_ALWAYS_INLINE uint64_t allocate(const PortMask& busy, const uint8_t* active, Want&& want, Age&& age,
                                        Grant&& grant) {
    if (pass<kCtl>(busy, active, want, age, grant) < 0) return 0;
    uint64_t late = 0;
    for (int p = 1; p < m_cfg.iterations; ++p) {
      const int g = pass<kCtl>(busy, active, want, age, grant);
      if (g < 0) break;
      late += static_cast<uint64_t>(g);
    }
    return late;
  }

  // One request-grant pass: the number of grants, -1 if no input requested.
  template <bool kCtl, typename Want, typename Age, typename Grant>
  SCFLY_ALWAYS_INLINE int pass(const PortMask& busy, const uint8_t* active, Want&& want, Age&& age, Grant&& grant) {
    m_reqs.clear();
    ++m_pass;
    const int cap = m_cfg.conn_cap;
    busy.for_each([&](int ip) SCFLY_ALWAYS_INLINE {
      int budget = cap - active[ip];
      if (budget <= 0) return;
      auto request = [&](int v) SCFLY_ALWAYS_INLINE {
        RouteDecision d;
        if (!want(ip, v, d)) return false;
        m_reqs.push_back(AllocRequest{static_cast<uint16_t>(ip), static_cast<uint16_t>(d.port),
                                      static_cast<uint8_t>(v), d.vc, 0});
        return --budget == 0;
      };
      const int nv = m_cfg.vcs[static_cast<size_t>(ip)];
      if constexpr (kCtl) {
        if (ip == m_cfg.rr_all) {
          for (int n = 0, v = m_in_rr[ip]; n < nv; ++n, v = (v + 1 == nv ? 0 : v + 1))
            if (request(v)) break;
          return;
        }
        // Control VCs first, in order (strict priority), then the data VCs round-robin.
        const int nd = m_cfg.data_vcs[static_cast<size_t>(ip)];
        for (int v = nd; v < nv; ++v)
          if (request(v)) return;
        for (int n = 0, v = m_in_rr[ip]; n < nd; ++n, v = (v + 1 == nd ? 0 : v + 1))
          if (request(v)) break;
      } else {
        for (int n = 0, v = m_in_rr[ip]; n < nv; ++n, v = (v + 1 == nv ? 0 : v + 1))
          if (request(v)) break;
      }
    });
    if (m_reqs.empty()) return -1;
    const int K = m_cfg.inputs;
    const uint64_t inj_mask = m_cfg.transit_priority ? 1u : 0u;
    for (AllocRequest& r : m_reqs) {  // order_key(), with the configuration's fields hoisted
      const int prio = (r.in_port - m_out_rr[r.out_port] + K) % K;
      uint64_t data = 1;
      if constexpr (kCtl) data = r.in_vc < m_cfg.data_vcs[r.in_port];
      const uint64_t inj = m_cfg.injection[r.in_port] & inj_mask;
      uint64_t a = 0;
      if (m_cfg.age_priority) {
        const uint64_t t = age(static_cast<int>(r.in_port), static_cast<int>(r.in_vc));
        a = t < (1ULL << 30) ? t : (1ULL << 30) - 1;
      }
      r.key = (static_cast<uint64_t>(r.out_port) << 48) | (data << 47) | (inj << 46) | (a << 16) |
              (static_cast<uint64_t>(prio) << 8) | r.in_vc;
    }
    std::sort(m_reqs.begin(), m_reqs.end(), [](const AllocRequest& x, const AllocRequest& y) { return x.key < y.key; });
    int granted = 0;
    for (const AllocRequest& r : m_reqs) {
      if (!grant(r)) continue;
      ++granted;
      m_out_rr[r.out_port] = static_cast<uint8_t>((r.in_port + 1) % K);
      if constexpr (kCtl) {
        const int nd = m_cfg.data_vcs[r.in_port];
        if (r.in_vc < nd) m_in_rr[r.in_port] = static_cast<uint8_t>((r.in_vc + 1) % nd);
        else if (r.in_port == m_cfg.rr_all) m_in_rr[r.in_port] = static_cast<uint8_t>((r.in_vc + 1) % m_cfg.vcs[r.in_port]);
      } else {
        m_in_rr[r.in_port] = static_cast<uint8_t>((r.in_vc + 1) % m_cfg.vcs[r.in_port]);
      }
    }
    return granted;
  }

 private:
  AllocatorConfig m_cfg;
  std::vector<uint8_t> m_in_rr, m_out_rr;
  std::vector<AllocRequest> m_reqs;
  uint32_t m_pass = 0;
};

}  // namespace scfly
