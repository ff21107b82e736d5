#include "rtl_models/verilog/rtl_blocks.h"

#include "Vacor_level_ctrl.h"
#include "verilated.h"

namespace scfly {

namespace {

class RtlLevelCtrl final : public LevelCtrl {
 public:
  explicit RtlLevelCtrl(const AcorLevelParams& p) : m_ctx(new VerilatedContext), m_v(new Vacor_level_ctrl(m_ctx.get())) {
    m_v->levels_i = static_cast<uint8_t>(p.levels);
    m_v->hi_i = p.hi;
    m_v->it1_i = p.it[0];
    m_v->it2_i = p.it[1];
    m_v->dt1_i = p.dt[0];
    m_v->dt2_i = p.dt[1];
    m_v->blocked_i = 0;
    m_v->clk_i = 0;
    m_v->rst_ni = 0;
    m_v->eval();
    m_v->rst_ni = 1;
    m_v->eval();
    sample();
  }
  ~RtlLevelCtrl() override { m_v->final(); }
  void step(uint32_t blocked) override {
    m_v->blocked_i = blocked;
    m_v->clk_i = 1;
    m_v->eval();
    m_v->clk_i = 0;
    m_v->eval();
    sample();
  }
  void idle(uint64_t cycles) override {
    for (uint64_t c = 0; c < cycles; ++c) step(0);
  }
  uint32_t level() const override { return m_level; }
  uint32_t counter() const override { return m_counter; }
  uint32_t timer() const override { return m_timer; }
  const uint32_t* level_ptr() const override { return &m_level; }
  const uint32_t* counter_ptr() const override { return &m_counter; }
  bool needs_every_cycle() const override { return true; }

 private:
  void sample() {
    m_level = m_v->level_o;
    m_counter = m_v->counter_o;
    m_timer = m_v->timer_o;
  }
  std::unique_ptr<VerilatedContext> m_ctx;
  std::unique_ptr<Vacor_level_ctrl> m_v;
  uint32_t m_level = 0, m_counter = 0, m_timer = 0;
};

}  // namespace

std::unique_ptr<LevelCtrl> make_rtl_level_ctrl(const AcorLevelParams& p) {
  return std::make_unique<RtlLevelCtrl>(p);
}

}  // namespace scfly
