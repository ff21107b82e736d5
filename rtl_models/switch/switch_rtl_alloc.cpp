// --rtl allocator: the switch's allocation decided by the Verilated allocator
// (rtl_models/verilog/rtl_blocks.h, AllocatorBlock), in a translation unit of its own (see
// switch_allocate.h).
#include <algorithm>
#include <string>

#include "rtl_models/switch/switch.h"
#include "rtl_models/switch/switch_allocate.h"
#include "rtl_models/verilog/rtl_blocks.h"

namespace scfly {

template <bool kCtl>
void Switch::allocate_rtl_stage() {
  allocate_stage<kCtl, true>();
}

// --rtl allocator. The Verilated allocator takes, per input VC, the output VC that `want`
// asks for and the connections each port holds, and evaluates the request-grant passes;
// the switch records its grants through `grant` pass by pass, each pass's in the C++ part's
// order (SeparableAllocator::order_key, with the output pointers as the pass found them:
// the register's value for the first, then moved by the grants before it), so every later
// stage sees the same connections in the same order (traverse_crossbar walks the crossbar's connections).
// The state `grant` re-checks is what the RTL's requests and passes already respect: the
// connections an output port holds (its out_active input), one grant per output VC (its
// VC winner; a granted VC is taken for the later passes), and room and credits, which only
// a grant to the same output VC changes. The shared output buffer and host-idle ejection,
// whose grants change other VCs' room, are refused with the block (config.cpp).
// A pass that finds a head's requested output VC taken by an earlier one offers the head's
// next free candidate (`want`), which the RTL's one request per input VC cannot: while some
// requesting head has a second free candidate, each evaluation runs one pass (iters_i = 1,
// the pointer registers clocked between passes); otherwise one evaluation runs every pass
// left (up to the instance's ITERS), which gives the same grants.
// A variant of switch.allocator (output-first, wavefront, iSLIP) works the same way, with
// its own grant order (order_pass) and its own rule for which edges move its registers
// (RtlVariantAllocator in rtl_blocks.cpp: iSLIP's later iterations move none and run one
// pass per evaluation; the wavefront's diagonal moves once per cycle, at end_cycle's edge).
template <bool kCtl, typename Want, typename IsFree, typename Age, typename Grant>
void Switch::allocate_rtl(Want& want, IsFree& is_free, Age& age, Grant& grant) {
  AllocatorBlock& blk = *m_alloc_rtl;
  const bool sep = blk.kind() == AllocatorKind::SeparableInput;
  const int K = m_inputs;
  uint64_t late = 0;
  for (int pass = 0; pass < m_alloc_iters;) {
    blk.begin();
    const bool more = m_alloc_iters - pass > 1;
    bool any = false, single = true;  // single: no requesting head has a second free candidate
    m_in_busy.for_each([&](int ip) SCFLY_ALWAYS_INLINE {
      if (m_xbar.input_full(ip)) return;
      const int nv = static_cast<int>(m_ivc[static_cast<size_t>(ip)].size());
      for (int v = 0; v < nv; ++v) {
        RouteDecision d;
        if (!want(ip, v, d)) continue;
        any = true;
        blk.request(ip, v, d.port, d.vc, m_age_prio ? age(ip, v) : 0);
        if (!more || !single) continue;
        const InVc& iv = m_ivc[static_cast<size_t>(ip)][static_cast<size_t>(v)];
        int n = 0;
        for (int i = 0; i < iv.cands.n && n < 2; ++i)
          for (int c = iv.cands.c[i].vc_lo; c <= iv.cands.c[i].vc_hi && n < 2; ++c)
            n += is_free(iv.cands.c[i].port, c, iv.phits) ? 1 : 0;
        single = n < 2;
      }
    });
    const int passes = single ? std::min(m_alloc_iters - pass, blk.max_passes(pass)) : 1;
    blk.evaluate(passes, m_xbar.in_active(), m_xbar.out_active());  // (none: clears its grants)
    if (!any) break;
    const std::vector<RtlGrant>& gs = blk.grants();
    if (sep)
      for (const RtlGrant& g : gs) m_rtl_out_ptr[g.out_port] = static_cast<uint8_t>(blk.out_pointer(g.out_port));
    for (int k = 0; k < passes; ++k) {
      m_rtl_pass.clear();
      if (sep) {
        for (const RtlGrant& g : gs) {
          if (g.pass != k) continue;
          Conn r{g.in_port, g.out_port, g.in_vc, g.out_vc, 0};
          r.key = m_alloc.order_key<kCtl>(r, m_rtl_out_ptr[g.out_port], age);
          m_rtl_pass.push_back(r);
        }
        std::sort(m_rtl_pass.begin(), m_rtl_pass.end(), [](const Conn& x, const Conn& y) { return x.key < y.key; });
      } else {
        m_rtl_var_pass.clear();
        for (const RtlGrant& g : gs)
          if (g.pass == k) m_rtl_var_pass.push_back(g);
        blk.order_pass(pass + k, m_rtl_var_pass);
        for (const RtlGrant& g : m_rtl_var_pass) m_rtl_pass.push_back(Conn{g.in_port, g.out_port, g.in_vc, g.out_vc, 0});
      }
      for (const Conn& r : m_rtl_pass) {
        if (!grant(r)) {
          m_ctx.fail(std::string(name()) + ": the RTL allocator granted input VC (" + std::to_string(r.in_port) + "," +
                     std::to_string(r.in_vc) + ") output VC (" + std::to_string(r.out_port) + "," +
                     std::to_string(r.out_vc) + "), which the switch cannot take");
          return;
        }
        if (sep) m_rtl_out_ptr[r.out_port] = static_cast<uint8_t>((r.in_port + 1) % K);
      }
      if (pass + k > 0) late += m_rtl_pass.size();
    }
    pass += passes;
  }
  blk.end_cycle();
  if (m_late_grants) *m_late_grants += late;
}

template void Switch::allocate_rtl_stage<false>();
template void Switch::allocate_rtl_stage<true>();

}  // namespace scfly
