// The output unit's link arbiter as a part of its own, plain C++ (no SystemC), testable
// alone against a reference model (tests/test_link_arbiter.cpp): which output VC of a
// port starts the next packet on the port's link, once the link is free (a packet holds
// the link from its head to its tail: the switch keeps that, not the arbiter).
//
// The rule, per port with nv VCs of which the first nd carry data:
//  1. the control VCs [nd, nv), in index order (strict priority over data, and among
//     themselves by index);
//  2. else the data VCs [0, nd) in round-robin order from the port's pointer;
//  3. a data VC chosen moves the pointer past it (modulo nd); a control VC moves nothing.
// `ready(c)` is the switch's: VC c holds a head that may leave now (credits downstream for
// the whole packet, or not paused under PFC; its output pipeline delay served). The
// arbiter asks ready() in the rule's order and stops at the first yes.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "rtl_models/switch/parts/allocator.h"

namespace scfly {

class LinkArbiter {
 public:
  LinkArbiter() = default;
  explicit LinkArbiter(int ports) : m_rr(static_cast<size_t>(ports), 0) {
    if (ports < 1 || ports > kMaxAllocPorts) throw std::invalid_argument("link arbiter: ports out of range");
  }

  // The VC of `port` that starts on the link now, -1 if none is ready. kCtl: some VCs of
  // the switch carry control frames (false compiles step 1 out: every VC is data, nd = nv).
  template <bool kCtl, typename Ready>
  SCFLY_ALWAYS_INLINE int pick(int port, int nv, int nd, Ready&& ready) {
    if constexpr (kCtl) {
      for (int c = nd; c < nv; ++c)
        if (ready(c)) return c;
    } else {
      nd = nv;
    }
    uint8_t& rr = m_rr[static_cast<size_t>(port)];
    for (int n = 0, c = rr; n < nd; ++n, c = (c + 1 == nd ? 0 : c + 1)) {
      if (!ready(c)) continue;
      rr = static_cast<uint8_t>((c + 1) % nd);
      return c;
    }
    return -1;
  }

  // Arbiter state (what an RTL twin must match): the round-robin pointer of each port, a
  // data VC index.
  const std::vector<uint8_t>& pointers() const { return m_rr; }
  void set_pointer(int port, uint8_t p) { m_rr.at(static_cast<size_t>(port)) = p; }

 private:
  // VC indices are below kMaxAllocVcs (parts/allocator.h), so a pointer fits in 8 bits.
  static_assert(kMaxAllocVcs - 1 <= UINT8_MAX, "link arbiter pointers are uint8_t");
  std::vector<uint8_t> m_rr;
};

}  // namespace scfly
