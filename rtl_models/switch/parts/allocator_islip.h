// switch.allocator islip: iSLIP (McKeown, "The iSLIP scheduling algorithm for input-queued
// switches", IEEE/ACM Trans. Networking 7(2), 1999), request-grant-accept with round-robin
// grant and accept pointers, extended to VCs and to ports holding several connections (the
// crossbar speedup). Plain C++ (no SystemC), tested alone against a reference of its rule
// (tests/test_allocator_variants.cpp). The interface and the input order are
// parts/allocator_variant_base.h's.
//
// The rule, per iteration (switch.allocator_iterations of them per cycle, stopping at the
// first with no request):
//  1. Request. Every busy input port with budget b = (connections it may hold - connections
//     it holds) > 0 requests with every input VC that `want`s.
//  2. Grant. Each output port op with s = (connections it may hold - connections it holds)
//     > 0 considers its requests ordered by: control before data, then the round-robin
//     distance of the input port from op's grant pointer, then the request's rank in its
//     input's order; it grants up to s of them, at most one per output VC.
//  3. Accept. Each input port, in port order, considers the grants it received ordered by:
//     control before data, then the round-robin distance of the output port from its accept
//     pointer, then the request's rank; it accepts up to b of them, each through the
//     switch's `grant` (which may still refuse it: the slot is then unused this iteration).
//  4. Pointers, only for grants accepted in the FIRST iteration of the cycle (iSLIP's rule,
//     which desynchronizes the grant pointers): op's grant pointer to one past the input
//     port of the accepted grant first in op's order (the winner becomes the lowest
//     priority, as in iSLIP with one grant per output); the input's accept pointer to one past
//     the output port of the grant it accepted last; its VC pointer past the last data VC
//     it accepted. Later iterations only fill what is left.
// State per port: the output's grant pointer (an input port), the input's accept pointer
// (an output port) and VC pointer (a VC), 8 bits each.
// Control traffic has strict priority at both stages. Transit and age priority do not
// apply (switch.output_arbiter is not read): iSLIP's fairness and its 100% throughput under
// uniform traffic come from the pure round-robin pointers; an age or transit order in front
// of them would make the grant arbiters no longer desynchronize.
#pragma once

#include <algorithm>

#include "rtl_models/switch/parts/allocator_variant_base.h"

namespace scfly {

class IslipAllocator : public VariantAllocatorBase {
 public:
  IslipAllocator() = default;
  explicit IslipAllocator(AllocatorConfig cfg) : VariantAllocatorBase(std::move(cfg)) {
    m_grant_rr.assign(static_cast<size_t>(m_cfg.inputs), 0);
    m_accept_rr.assign(static_cast<size_t>(m_cfg.inputs), 0);
  }

  const std::vector<uint8_t>& grant_pointers() const { return m_grant_rr; }
  const std::vector<uint8_t>& accept_pointers() const { return m_accept_rr; }
  void set_pointers(const std::vector<uint8_t>& vc, const std::vector<uint8_t>& grant_ptr,
                    const std::vector<uint8_t>& accept_ptr) {
    if (vc.size() != m_in_rr.size() || grant_ptr.size() != m_grant_rr.size() || accept_ptr.size() != m_accept_rr.size())
      throw std::invalid_argument("allocator: one pointer per port");
    m_in_rr = vc;
    m_grant_rr = grant_ptr;
    m_accept_rr = accept_ptr;
  }

  // One cycle. Returns the grants of the later iterations. (age: not read, see above.)
  template <typename Want, typename Age, typename Grant>
  uint64_t allocate(const PortMask& busy, const uint8_t* in_active, const uint8_t* out_active, Want&& want, Age&&,
                    Grant&& grant) {
    if (pass(busy, in_active, out_active, want, grant, true) < 0) return 0;
    uint64_t late = 0;
    for (int p = 1; p < m_cfg.iterations; ++p) {
      const int g = pass(busy, in_active, out_active, want, grant, false);
      if (g < 0) break;
      late += static_cast<uint64_t>(g);
    }
    return late;
  }

  // One iteration: the number of grants accepted, -1 if no input requested. `first`: the
  // cycle's first iteration (pointers move).
  template <typename Want, typename Grant>
  int pass(const PortMask& busy, const uint8_t* in_active, const uint8_t* out_active, Want&& want, Grant&& grant,
           bool first) {
    if (!collect(busy, in_active, want)) return -1;
    const int K = m_cfg.inputs;
    auto data = [this](const AllocRequest& r) -> uint64_t { return is_data(r.in_port, r.in_vc) ? 1 : 0; };
    // Grant.
    m_order.clear();
    for (uint32_t i = 0; i < m_reqs.size(); ++i) {
      AllocRequest& r = m_reqs[i].r;
      const uint64_t prio = static_cast<uint64_t>((r.in_port - m_grant_rr[r.out_port] + K) % K);
      r.key = (static_cast<uint64_t>(r.out_port) << 48) | (data(r) << 47) | (prio << 8) | m_reqs[i].rank;
      m_order.push_back(i);
    }
    std::sort(m_order.begin(), m_order.end(),
              [this](uint32_t x, uint32_t y) { return m_reqs[x].r.key < m_reqs[y].r.key; });
    int op = -1, slots = 0;
    size_t start = 0;
    for (size_t k = 0; k < m_order.size(); ++k) {
      VarRequest& q = m_reqs[m_order[k]];
      if (q.r.out_port != op) {
        op = q.r.out_port;
        slots = m_cfg.conn_cap - out_active[op];
        start = k;
      }
      if (slots <= 0) continue;
      bool taken = false;
      for (size_t j = start; j < k && !taken; ++j) {
        const VarRequest& o = m_reqs[m_order[j]];
        taken = o.granted && o.r.out_vc == q.r.out_vc;
      }
      if (taken) continue;
      q.granted = true;
      --slots;
    }
    // Accept.
    m_accept.clear();
    for (uint32_t i = 0; i < m_reqs.size(); ++i) {
      if (!m_reqs[i].granted) continue;
      const AllocRequest& r = m_reqs[i].r;
      const uint64_t dist = static_cast<uint64_t>((r.out_port - m_accept_rr[r.in_port] + K) % K);
      m_accept.push_back({(static_cast<uint64_t>(r.in_port) << 32) | (data(r) << 31) | (dist << 16) | m_reqs[i].rank, i});
    }
    std::sort(m_accept.begin(), m_accept.end());
    int accepted = 0;
    for (const auto& [key, i] : m_accept) {
      VarRequest& q = m_reqs[i];
      int& b = m_budget[q.r.in_port];
      if (b <= 0 || !grant(q.r)) continue;
      --b;
      q.accepted = true;
      ++accepted;
      if (first) {
        m_accept_rr[q.r.in_port] = static_cast<uint8_t>((q.r.out_port + 1) % K);
        advance_vc(q.r);
      }
    }
    if (first) {
      int last_op = -1;
      for (uint32_t i : m_order) {  // op's order: the first accepted grant of each output
        const AllocRequest& r = m_reqs[i].r;
        if (!m_reqs[i].accepted || r.out_port == last_op) continue;
        last_op = r.out_port;
        m_grant_rr[r.out_port] = static_cast<uint8_t>((r.in_port + 1) % K);
      }
    }
    return accepted;
  }

 private:
  std::vector<uint8_t> m_grant_rr, m_accept_rr;
  std::vector<std::pair<uint64_t, uint32_t>> m_accept;
};

}  // namespace scfly
