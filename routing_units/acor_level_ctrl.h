// ACOR-Switch level controller: a hysteresis counter unit, one per switch (clocked block
// with explicit inputs and outputs; its Verilog mirror will share the name and ports).
//
// Paper: Benito, Fuentes, Vallejo, Beivide, "ACOR: Adaptive Congestion-Oblivious Routing in
// Dragonfly networks" (Journal of Parallel and Distributed Computing, 2019),
// sec. 4.2.2 and Table 3.
// Input each cycle: `blocked`, the number of blocked non-minimal attempts at the switch's
// injection buffers this cycle. Outputs: `level` (index into the misrouting-policy
// sequence, 0 = shortest), plus the internal `counter` and `timer` for tracing.
// Rule, per cycle, in this order:
//   counter += blocked (saturating);
//   if level < levels-1 and counter >= IT[level]: level += 1 at once, and a new interval
//     starts (counter = 0, timer = 0) so the next threshold counts fresh events (as FOGSim);
//   else timer += 1, and when timer reaches HI (end of the hysteresis interval):
//     if level > 0 and counter < DT[level-1]: level -= 1; then counter = 0, timer = 0.
// IT[0]/DT[0] govern the transition between levels 0 and 1 (IT1/DT1), IT[1]/DT[1] between
// 1 and 2 (IT2/DT2); a two-level sequence uses IT1/DT1 only. Defaults (Table 3, 1 GHz):
// HI 500 cycles, IT 15/500, DT 5/15 (PB-ACOR: IT 15/50).
#pragma once

#include <cstdint>

namespace scfly {

struct AcorLevelParams {
  uint32_t levels = 3;          // 2 or 3
  uint32_t hi = 500;            // hysteresis interval, cycles (>= 1)
  uint32_t it[2] = {15, 500};   // increase thresholds
  uint32_t dt[2] = {5, 15};     // decrease thresholds
};

// The interface the switch drives: the C++ model below or the Verilated
// rtl_models/verilog/acor_level_ctrl.sv (rtl_blocks.h, `--rtl acor`).
class LevelCtrl {
 public:
  virtual ~LevelCtrl() = default;
  virtual void step(uint32_t blocked) = 0;  // one clock cycle
  virtual void idle(uint64_t cycles) = 0;   // `cycles` cycles without events
  virtual uint32_t level() const = 0;
  virtual uint32_t counter() const = 0;
  virtual uint32_t timer() const = 0;
  virtual const uint32_t* level_ptr() const = 0;    // traced
  virtual const uint32_t* counter_ptr() const = 0;  // traced
  // True while a clock is needed to reproduce the state exactly (a decrease is pending).
  bool busy() const { return level() != 0 || counter() != 0; }
  // True if the block must see every clock edge (RTL: no closed-form idle catch-up).
  virtual bool needs_every_cycle() const { return false; }
};

class AcorLevelCtrl final : public LevelCtrl {
 public:
  explicit AcorLevelCtrl(const AcorLevelParams& p) : m_p(p) {}

  void step(uint32_t blocked) override {
    m_counter = m_counter > UINT32_MAX - blocked ? UINT32_MAX : m_counter + blocked;
    if (m_level + 1 < m_p.levels && m_counter >= m_p.it[m_level]) {
      ++m_level;
      m_counter = 0;
      m_timer = 0;
      return;
    }
    if (++m_timer < m_p.hi) return;
    if (m_level > 0 && m_counter < m_p.dt[m_level - 1]) --m_level;
    m_counter = 0;
    m_timer = 0;
  }

  // `cycles` steps with no blocked event (a sleeping switch catching up), in O(levels).
  void idle(uint64_t cycles) override {
    while (cycles > 0) {
      const uint64_t to_end = m_p.hi - m_timer;
      if (cycles < to_end) {
        m_timer += static_cast<uint32_t>(cycles);
        return;
      }
      cycles -= to_end;
      m_timer = m_p.hi - 1;
      step(0);  // the interval end
      if (m_counter == 0 && (m_level == 0 || m_p.dt[m_level - 1] == 0)) {
        m_timer = static_cast<uint32_t>(cycles % m_p.hi);  // nothing can change any more
        return;
      }
    }
  }

  uint32_t level() const override { return m_level; }
  uint32_t counter() const override { return m_counter; }
  uint32_t timer() const override { return m_timer; }
  const uint32_t* level_ptr() const override { return &m_level; }
  const uint32_t* counter_ptr() const override { return &m_counter; }

 private:
  AcorLevelParams m_p;
  uint32_t m_level = 0, m_counter = 0, m_timer = 0;
};

}  // namespace scfly
