// What the allocator variants selected by `switch.allocator` share (parts/allocator_output_first.h,
// parts/allocator_wavefront.h, parts/allocator_islip.h; the default, separable-input, is
// parts/allocator.h): the configuration (AllocatorConfig), the input side's request list and
// its VC-level round-robin pointer, and a pass counter. Plain C++, no SystemC.
//
// The interface is the one of SeparableAllocator (parts/allocator.h): the switch hands a
// pass `want(ip, v, d)` (input VC (ip, v) requests, the output VC it asks for in `d`) and
// `grant(r)` (the output side's check and the switch's record of the connection: true if
// granted). The variants also read the connections every output port holds (`out_active`),
// so that an output stage that grants before the input accepts grants no more than the
// output can still take. The switch's checks (room, credits, connection capacity, the
// speedup, a shared output buffer, the host-idle ejection rule) stay in `grant`: a variant
// calls it once per connection it decides, and a refusal leaves that slot unused this pass.
//
// The input order of a port, common to all variants: its control VCs first, in index order
// (strict priority), then its data VCs in round-robin order from its VC pointer (the
// internal `rr_all` port, the multiqueue, has every VC round-robin). Each input VC that
// `want`s makes one request; the request's `rank` is its position in that order. In the
// output-side orders, "control" means as in SeparableAllocator's key: an input VC whose
// index is at or above its port's data VCs (the internal port's VCs all are).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "rtl_models/switch/parts/allocator.h"

namespace scfly {

// switch.allocator: which allocator arbitrates the crossbar: scfly's own, or a plug-in
// (values past Islip, in registration order; parts/allocator_plugin.h).
enum class AllocatorKind : uint8_t { SeparableInput, SeparableOutput, Wavefront, Islip };
// Its `switch.allocator` name (a plug-in's registered name).
const char* to_string(AllocatorKind k);

// A request during a variant's pass: the connection, its position in its input port's order
// (rank), whether the output stage granted it and whether the input accepted it (the
// switch's `grant` agreeing). The order key is in r.key.
struct VarRequest {
  AllocRequest r;
  uint16_t rank;
  bool granted, accepted;
};

class VariantAllocatorBase {
 public:
  VariantAllocatorBase() = default;
  explicit VariantAllocatorBase(AllocatorConfig cfg) : m_cfg(std::move(cfg)) {
    const size_t n = checked_ports(m_cfg);
    m_in_rr.assign(n, 0);
    m_budget.assign(n, 0);
  }

  const AllocatorConfig& config() const { return m_cfg; }
  // The VC pointer of each input port (a VC index: the data VC its round-robin starts at).
  const std::vector<uint8_t>& in_pointers() const { return m_in_rr; }
  // Passes run so far (a grant rule that allows one grant per pass keys on it).
  uint32_t pass_id() const { return m_pass; }
  // The requests of the last pass, in input order (input ports ascending).
  const std::vector<VarRequest>& requests() const { return m_reqs; }

 protected:
  // Does input VC (ip, v) rank as data in an output-side order? Its index is below its
  // port's data VCs: as in SeparableAllocator's key, the internal port (no data VCs) ranks
  // with the control VCs, though its own input order is round-robin over all its VCs.
  bool is_data(int ip, int v) const { return v < m_cfg.data_vcs[static_cast<size_t>(ip)]; }

  // The request stage common to all variants: every input VC of a busy input port that
  // may still take a connection (budget = conn_cap - in_active > 0) and `want`s, in input
  // order. Sets m_budget. Returns false if no input requested.
  template <typename Want>
  bool collect(const PortMask& busy, const uint8_t* in_active, Want&& want) {
    m_reqs.clear();
    ++m_pass;
    const int cap = m_cfg.conn_cap;
    busy.for_each([&](int ip) {
      const int budget = cap - in_active[ip];
      m_budget[static_cast<size_t>(ip)] = budget > 0 ? budget : 0;
      if (budget <= 0) return;
      uint16_t rank = 0;
      auto request = [&](int v) {
        RouteDecision d;
        if (!want(ip, v, d)) return;
        m_reqs.push_back(VarRequest{AllocRequest{static_cast<uint16_t>(ip), static_cast<uint16_t>(d.port),
                                                 static_cast<uint8_t>(v), d.vc, 0},
                                    rank++, false, false});
      };
      const int nv = m_cfg.vcs[static_cast<size_t>(ip)];
      const int nd = ip == m_cfg.rr_all ? nv : m_cfg.data_vcs[static_cast<size_t>(ip)];
      for (int v = nd; v < nv; ++v) request(v);
      for (int n = 0, v = m_in_rr[static_cast<size_t>(ip)]; n < nd; ++n, v = (v + 1 == nd ? 0 : v + 1)) request(v);
    });
    return !m_reqs.empty();
  }

  // The VC pointer past a granted data VC (a control VC moves nothing).
  void advance_vc(const AllocRequest& r) {
    const int ip = r.in_port;
    const int nd = ip == m_cfg.rr_all ? m_cfg.vcs[r.in_port] : m_cfg.data_vcs[r.in_port];
    if (r.in_vc < nd) m_in_rr[static_cast<size_t>(ip)] = static_cast<uint8_t>((r.in_vc + 1) % nd);
  }

  // The transit/age fields of SeparableAllocator's order key (bit 46: an injection input
  // with transit priority; bits 16..45: the head's injection cycle with age priority).
  template <typename Age>
  uint64_t transit_age(const AllocRequest& r, Age&& age) const {
    const uint64_t inj = m_cfg.transit_priority ? m_cfg.injection[r.in_port] & 1u : 0u;
    uint64_t a = 0;
    if (m_cfg.age_priority) {
      const uint64_t t = age(static_cast<int>(r.in_port), static_cast<int>(r.in_vc));
      a = t < (1ULL << 30) ? t : (1ULL << 30) - 1;
    }
    return (inj << 46) | (a << 16);
  }

  AllocatorConfig m_cfg;
  std::vector<uint8_t> m_in_rr;
  std::vector<int> m_budget;  // connections each input port may still take this pass
  std::vector<VarRequest> m_reqs;
  std::vector<uint32_t> m_order;  // indices into m_reqs, in an output (or accept) stage's order
  uint32_t m_pass = 0;
};

}  // namespace scfly
