// switch.allocator separable-output: a separable output-first allocator with round-robin
// arbiters, several request-grant-accept passes per cycle, plain C++ (no SystemC), tested
// alone against a reference of its rule (tests/test_allocator_variants.cpp). The interface
// and the input order are parts/allocator_variant_base.h's.
//
// The rule, per pass:
//  1. Request. Every busy input port with budget b = (connections it may hold - connections
//     it holds) > 0 requests with every input VC that `want`s (not only b of them).
//  2. Grant (output arbiters first). Each output port op with s = (connections it may hold
//     - connections it holds) > 0 considers all its requests in SeparableAllocator's output
//     order: control before data, transit before injection (switch.output_arbiter
//     transit-priority), oldest first (age), then the round-robin distance of the input port
//     from op's pointer, then the request's rank in its input's order; it grants up to s of
//     them, at most one per output VC. Nothing is recorded yet.
//  3. Accept. Each input port, in port order, takes the grants it received in its input
//     order (control VCs by index, then data VCs round-robin from its VC pointer) and accepts
//     up to b of them; each accepted grant goes to the switch's `grant` (which may still
//     refuse it: the slot is then unused this pass).
//  4. Pointers move only on an accepted grant: the input's VC pointer past the last data VC
//     it accepted; op's pointer to one past the input port of the accepted grant that came
//     first in op's order (the winner becomes the lowest priority: with several grants per
//     output, moving past the last one could leave a loser always behind the first winner).
// State per port: the input's VC pointer, the output's input-port pointer (8 bits each).
// Control priority is strict at both stages (first in the output's order and in the
// input's); transit and age priority order the output arbiters exactly as in the default
// allocator (they are output-side rules). A later pass (switch.allocator_iterations) runs
// the same rule over what earlier passes left.
#pragma once

#include <algorithm>

#include "rtl_models/switch/parts/allocator_variant_base.h"

namespace scfly {

class OutputFirstAllocator : public VariantAllocatorBase {
 public:
  OutputFirstAllocator() = default;
  explicit OutputFirstAllocator(AllocatorConfig cfg) : VariantAllocatorBase(std::move(cfg)) {
    m_out_rr.assign(static_cast<size_t>(m_cfg.inputs), 0);
  }

  const std::vector<uint8_t>& out_pointers() const { return m_out_rr; }
  void set_pointers(const std::vector<uint8_t>& in, const std::vector<uint8_t>& out) {
    if (in.size() != m_in_rr.size() || out.size() != m_out_rr.size())
      throw std::invalid_argument("allocator: one pointer per port");
    m_in_rr = in;
    m_out_rr = out;
  }

  // One cycle: up to iterations passes, stopping at the first with no request. Returns the
  // grants of the later passes.
  template <typename Want, typename Age, typename Grant>
  uint64_t allocate(const PortMask& busy, const uint8_t* in_active, const uint8_t* out_active, Want&& want, Age&& age,
                    Grant&& grant) {
    if (pass(busy, in_active, out_active, want, age, grant) < 0) return 0;
    uint64_t late = 0;
    for (int p = 1; p < m_cfg.iterations; ++p) {
      const int g = pass(busy, in_active, out_active, want, age, grant);
      if (g < 0) break;
      late += static_cast<uint64_t>(g);
    }
    return late;
  }

  // One pass: the number of grants accepted, -1 if no input requested.
  template <typename Want, typename Age, typename Grant>
  int pass(const PortMask& busy, const uint8_t* in_active, const uint8_t* out_active, Want&& want, Age&& age,
           Grant&& grant) {
    if (!collect(busy, in_active, want)) return -1;
    const int K = m_cfg.inputs;
    m_order.clear();
    for (uint32_t i = 0; i < m_reqs.size(); ++i) {
      AllocRequest& r = m_reqs[i].r;
      const uint64_t data = is_data(r.in_port, r.in_vc) ? 1 : 0;
      const uint64_t prio = static_cast<uint64_t>((r.in_port - m_out_rr[r.out_port] + K) % K);
      r.key = (static_cast<uint64_t>(r.out_port) << 48) | (data << 47) | transit_age(r, age) | (prio << 8) |
              m_reqs[i].rank;
      m_order.push_back(i);
    }
    std::sort(m_order.begin(), m_order.end(),
              [this](uint32_t x, uint32_t y) { return m_reqs[x].r.key < m_reqs[y].r.key; });
    // Grant: per output, up to its free slots, one per output VC.
    int op = -1, slots = 0;
    size_t first = 0;  // the first of op's grants in m_order
    for (size_t k = 0; k < m_order.size(); ++k) {
      VarRequest& q = m_reqs[m_order[k]];
      if (q.r.out_port != op) {
        op = q.r.out_port;
        slots = m_cfg.conn_cap - out_active[op];
        first = k;
      }
      if (slots <= 0) continue;
      bool taken = false;
      for (size_t j = first; j < k && !taken; ++j) {
        const VarRequest& o = m_reqs[m_order[j]];
        taken = o.granted && o.r.out_vc == q.r.out_vc;
      }
      if (taken) continue;
      q.granted = true;
      --slots;
    }
    // Accept: per input, in its order (m_reqs is in input order), up to its budget.
    int accepted = 0;
    for (VarRequest& q : m_reqs) {
      if (!q.granted) continue;
      int& b = m_budget[q.r.in_port];
      if (b <= 0 || !grant(q.r)) continue;
      --b;
      q.accepted = true;
      ++accepted;
      advance_vc(q.r);
    }
    // Output pointers: past the input of the first accepted grant in each output's order.
    int last_op = -1;
    for (uint32_t i : m_order) {
      const AllocRequest& r = m_reqs[i].r;
      if (!m_reqs[i].accepted || r.out_port == last_op) continue;
      last_op = r.out_port;
      m_out_rr[r.out_port] = static_cast<uint8_t>((r.in_port + 1) % K);
    }
    return accepted;
  }

 private:
  std::vector<uint8_t> m_out_rr;
};

}  // namespace scfly
