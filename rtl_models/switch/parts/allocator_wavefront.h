// switch.allocator wavefront: a wavefront allocator (Tamir and Chi, "Symmetric crossbar
// arbiters for VLSI communication switches", IEEE TPDS 4(1), 1993) over the input-port x
// output-port request matrix, after a VC-level choice per input port; extended to ports
// holding several connections (the crossbar speedup). Plain C++ (no SystemC), tested alone
// against a reference of its rule (tests/test_allocator_variants.cpp). The interface and
// the input order are parts/allocator_variant_base.h's.
//
// The rule, per pass:
//  1. VC level. Every busy input port with budget b = (connections it may hold -
//     connections it holds) > 0 lists the input VCs that `want`, in its input order
//     (control VCs by index, then data VCs round-robin from its VC pointer); for each output
//     port, the first of them asking for it fills the matrix cell (input port, output port).
//  2. Port level. Cell (i, o) lies on diagonal (o - i) mod K. The wavefront sweeps the K
//     diagonals starting at the cycle's first diagonal D and going up (D, D + 1, ... mod
//     K), within a diagonal by input port ascending (its cells share no row or column); a
//     cell is granted if its row still has budget and its column still has free slots
//     (s = connections the output may hold - connections it holds), and the switch's
//     `grant` agrees. Row budget and column slots then drop by one. With one connection
//     per port this is the classic wavefront (one grant per row and column).
//     Control priority: the sweep runs first over the cells holding a control VC's request,
//     then, again from diagonal D, over the others.
//  3. Pointers: a granted data VC moves its input's VC pointer past it; D moves to D + 1
//     mod K once per cycle (after all passes), so that no diagonal is always first.
// State: the input's VC pointer per port (8 bits) and the first diagonal D.
// Transit and age priority do not apply (switch.output_arbiter is not read): a wavefront's
// priority is positional (the diagonal order), and ordering the cells by another key would
// make it a separable allocator, not a wavefront.
// A later pass (switch.allocator_iterations) runs the same rule, from the same D, over what
// earlier passes left.
#pragma once

#include <algorithm>

#include "rtl_models/switch/parts/allocator_variant_base.h"

namespace scfly {

class WavefrontAllocator : public VariantAllocatorBase {
 public:
  WavefrontAllocator() = default;
  explicit WavefrontAllocator(AllocatorConfig cfg) : VariantAllocatorBase(std::move(cfg)) {
    m_slots.assign(static_cast<size_t>(m_cfg.inputs), 0);
  }

  int diagonal() const { return m_diag; }
  void set_state(const std::vector<uint8_t>& in, int diag) {
    if (in.size() != m_in_rr.size()) throw std::invalid_argument("allocator: one pointer per port");
    m_in_rr = in;
    m_diag = diag % m_cfg.inputs;
  }

  // One cycle. Returns the grants of the later passes. (age: not read, see above.)
  template <typename Want, typename Age, typename Grant>
  uint64_t allocate(const PortMask& busy, const uint8_t* in_active, const uint8_t* out_active, Want&& want, Age&&,
                    Grant&& grant) {
    uint64_t late = 0;
    if (pass(busy, in_active, out_active, want, grant) >= 0) {
      for (int p = 1; p < m_cfg.iterations; ++p) {
        const int g = pass(busy, in_active, out_active, want, grant);
        if (g < 0) break;
        late += static_cast<uint64_t>(g);
      }
    }
    m_diag = m_diag + 1 == m_cfg.inputs ? 0 : m_diag + 1;
    return late;
  }

  // One pass: the number of grants, -1 if no input requested.
  template <typename Want, typename Grant>
  int pass(const PortMask& busy, const uint8_t* in_active, const uint8_t* out_active, Want&& want, Grant&& grant) {
    if (!collect(busy, in_active, want)) return -1;
    const int K = m_cfg.inputs;
    // Cells: the first request of each input port for each output port (m_reqs is in input
    // order, one input port's requests contiguous).
    m_order.clear();
    size_t port_start = 0;
    for (uint32_t i = 0; i < m_reqs.size(); ++i) {
      AllocRequest& r = m_reqs[i].r;
      if (i > 0 && m_reqs[i - 1].r.in_port != r.in_port) port_start = i;
      bool dup = false;
      for (size_t j = port_start; j < i && !dup; ++j) dup = m_reqs[j].r.out_port == r.out_port;
      if (dup) continue;
      m_slots[r.out_port] = m_cfg.conn_cap - out_active[r.out_port];
      const uint64_t data = is_data(r.in_port, r.in_vc) ? 1 : 0;
      const uint64_t diag = static_cast<uint64_t>(((r.out_port - r.in_port - m_diag) % K + 2 * K) % K);
      r.key = (data << 32) | (diag << 16) | r.in_port;
      m_order.push_back(i);
    }
    std::sort(m_order.begin(), m_order.end(),
              [this](uint32_t x, uint32_t y) { return m_reqs[x].r.key < m_reqs[y].r.key; });
    int granted = 0;
    for (uint32_t i : m_order) {
      VarRequest& q = m_reqs[i];
      int& b = m_budget[q.r.in_port];
      if (b <= 0 || m_slots[q.r.out_port] <= 0 || !grant(q.r)) continue;
      --b;
      --m_slots[q.r.out_port];
      q.granted = q.accepted = true;
      ++granted;
      advance_vc(q.r);
    }
    return granted;
  }

 private:
  std::vector<int> m_slots;  // free slots of each output port this pass
  int m_diag = 0;
};

}  // namespace scfly
