// One VC of the switch's input unit as a part of its own, plain C++ (no SystemC), testable
// alone against a reference model (tests/test_input_unit.cpp): the VC's buffer with
// cut-through landing.
//
// Landing. A link delivers runs of phits: consecutive phits of one packet, landing on
// consecutive cycles. The switch files a run either phit by phit, each in the cycle it
// lands, or whole in the cycle its first phit lands (streaming: credit flow control,
// untraced; one visit of the port per run instead of one per phit). `landed(now)` is what
// the buffer holds by the end of cycle `now` either way: the phits filed less those that
// land after `now`. Every stage of the switch reads landed(), never buf.size(), so a
// streamed VC shows, at every cycle, what filing each phit as it lands would show (the
// cycle a head becomes routable, how many phits a connection may move, the occupancy a
// congestion measure reads); tests/test_input_unit.cpp checks that against a VC filed phit
// by phit. Phits leave from the front (pop), landed ones only: the crossbar moves a phit
// only when landed() > 0.
//
// Flow control. Under credit flow control the buffer never holds more than the credits the
// sender was given (its depth), so filing into a full buffer is a credit violation the
// switch reports; under PFC the VC's PfcInput (parts/flow_control.h, beside it in the
// switch's VC state) pauses its sender at XOFF and resumes it at XON, and the XOFF
// headroom keeps it from overflowing. A PFC VC is filed phit by phit (each landing may
// cross XOFF).
#pragma once

#include <cstdint>

#include "rtl_models/switch/flit.h"
#include "rtl_models/switch/ring_buffer.h"

namespace scfly {

struct InputVc {
  RingBuffer<Flit> buf;    // the phits filed here (the last ones may not have landed yet)
  uint64_t land_last = 0;  // landing cycle of the last phit in buf

  // Phits in the buffer by the end of cycle `now`: those filed less those landing later.
  uint32_t landed(uint64_t now) const {
    return buf.size() - (land_last > now ? static_cast<uint32_t>(land_last - now) : 0u);
  }
  // A run of `n` phits fits, filed whole.
  bool fits(uint32_t n) const { return buf.size() + n <= buf.capacity(); }
  // Files phits seq .. seq + n - 1 of packet `pkt` (link VC `vc`), landing at cycles
  // first .. first + n - 1; `tail`: the last of them is the packet's tail. The caller
  // checked fits(n).
  void file(PacketId pkt, uint16_t seq, uint8_t vc, bool tail, uint32_t n, uint64_t first) {
    for (uint32_t i = 0; i < n; ++i)
      buf.push(Flit{pkt, static_cast<uint16_t>(seq + i), vc, static_cast<uint8_t>(tail && i + 1 == n)});
    land_last = first + n - 1;
  }
};

}  // namespace scfly
