// Where the switch's pipeline delay sits, as a part of its own (plain C++, no SystemC),
// tested alone and in the single-switch bench (tests/test_credit_loop.cpp,
// tests/test_switch_bench.cpp).
//
// A switch has `switch.pipeline_cycles` = P cycles of pipeline (routing, allocation,
// crossbar set-up). The peer-compatibility mode switch.pipeline_position places them; each
// place is a kind of this part, chosen by config:
//
//   Input   a head becomes routable P cycles after it lands; routing, allocation and a
//           wait for the crossbar overlap those cycles (scfly's default, the papers'
//           switch).
//   Output  a head is routable the cycle it lands and may leave the output buffer P cycles
//           after it crossed into it (FOGSim's XbarDelay): the same zero-load latency, but
//           a hop where the head waited for the crossbar pays P in full after the wait.
//
// The switch stamps each head with a cycle (Packet::head_arrival): its landing here, and,
// with the delay at the output, from its crossing on the cycle it may leave. This part says
// when the head may go on from that stamp and how much of its residence the stamp leaves
// out.
#pragma once

#include <cstdint>

namespace scfly {

enum class PipelinePosition : uint8_t { Input, Output };

class SwitchPipeline {
 public:
  SwitchPipeline() = default;
  SwitchPipeline(int cycles, PipelinePosition where)
      : m_in(where == PipelinePosition::Input ? static_cast<uint32_t>(cycles) : 0u),
        m_out(where == PipelinePosition::Output ? static_cast<uint32_t>(cycles) : 0u) {}

  // Cycles from a head's landing to routable (P at the input, else 0).
  uint32_t input_delay() const { return m_in; }
  // Cycles from a head's crossing to leaving (P at the output, else 0: then a head's stamp
  // stays its landing cycle).
  uint32_t output_delay() const { return m_out; }
  bool delays_output() const { return m_out != 0; }

  // The cycle a head that landed at `landed` becomes routable.
  uint64_t routable_at(uint64_t landed) const { return landed + m_in; }
  // Output: the stamp of a head crossing at `crossed`, the cycle it may leave.
  uint64_t leaves_at(uint64_t crossed) const { return crossed + m_out; }
  // The head stamped `stamp` may start on the link at `now` (Input: at once).
  bool may_leave(uint64_t stamp, uint64_t now) const { return m_out == 0 || stamp <= now; }
  // The residence a head stamped `stamp` adds leaving at `now`: from its landing (Input) or
  // its crossing (Output; the part before the crossing was counted when it crossed).
  uint64_t residence(uint64_t stamp, uint64_t now) const { return now + m_out - stamp; }

 private:
  uint32_t m_in = 0, m_out = 0;
};

}  // namespace scfly
