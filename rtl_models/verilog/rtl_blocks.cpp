#include "rtl_models/verilog/rtl_blocks.h"

#include <stdexcept>
#include <string>

#include "Vacor_level_ctrl.h"
#include "Vmin_route.h"
#include "Vmin_route_4_8_4.h"
#include "Vmin_route_abs_2_4_2_3.h"
#include "Vmin_route_abs_2_4_2_5.h"
#include "Vmin_route_abs_2_4_2_9.h"
#include "Vmin_route_abs_4_8_4_17.h"
#include "Vmin_route_abs_4_8_4_33.h"
#include "Vmin_route_abs_4_8_4_9.h"
#include "Vpb_sat_detector.h"
#include "Vpb_sat_detector_h2.h"
#include "Vugal_selector.h"
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

class RtlSelection final : public SelectionBlocks {
 public:
  explicit RtlSelection(int h) : m_h(h), m_ctx(new VerilatedContext), m_ugal(new Vugal_selector(m_ctx.get())) {
    if (h == 4) m_pb4.reset(new Vpb_sat_detector(m_ctx.get()));
    else if (h == 2) m_pb2.reset(new Vpb_sat_detector_h2(m_ctx.get()));
  }
  bool prefers_min(uint64_t q_min, uint32_t h_min, uint64_t q_vlb, uint32_t h_vlb, int64_t t) const override {
    m_ugal->q_min_i = sat_queue(q_min);
    m_ugal->h_min_i = h_min & 0xF;
    m_ugal->q_vlb_i = sat_queue(q_vlb);
    m_ugal->h_vlb_i = h_vlb & 0xF;
    m_ugal->threshold_i = static_cast<uint32_t>(t) & 0xFFFFFF;
    m_ugal->eval();
    return m_ugal->min_o != 0;
  }
  void saturated(const uint32_t* q, int n, uint32_t cg, uint32_t tg, uint32_t* flags) const override {
    uint64_t packed = 0;
    for (int j = 0; j < n; ++j) packed |= static_cast<uint64_t>(sat_queue(q[j])) << (16 * j);
    uint32_t out = 0;
    if (m_pb4) {
      m_pb4->q_i = packed;
      m_pb4->cg_i = cg;
      m_pb4->tg_i = tg;
      m_pb4->eval();
      out = m_pb4->sat_o;
    } else if (m_pb2) {
      m_pb2->q_i = static_cast<uint32_t>(packed);
      m_pb2->cg_i = cg;
      m_pb2->tg_i = tg;
      m_pb2->eval();
      out = m_pb2->sat_o;
    } else {
      throw std::invalid_argument("no Verilated pb_sat_detector for h = " + std::to_string(m_h));
    }
    for (int j = 0; j < n; ++j) flags[j] = (out >> j) & 1U;
  }

 private:
  int m_h;
  std::unique_ptr<VerilatedContext> m_ctx;
  std::unique_ptr<Vugal_selector> m_ugal;
  std::unique_ptr<Vpb_sat_detector> m_pb4;
  std::unique_ptr<Vpb_sat_detector_h2> m_pb2;
};

template <class V>
class RtlMinRoute final : public MinHopBlock {
 public:
  explicit RtlMinRoute(const Dragonfly& t) : m_t(t), m_ctx(new VerilatedContext), m_v(new V(m_ctx.get())) {}
  ~RtlMinRoute() override {
    // min_route is Verilated with its assertions (--assert), so the model registers
    // scopes, and Verilator 5.006 unregisters them from the calling thread's current
    // context, not the model's: that may be another block's context, destroyed already
    // (e.g. a switch's RTL block), and hangs on its freed mutex. Make it ours first.
    Verilated::threadContextp(m_ctx.get());
    m_v->final();
    m_v.reset();
  }
  RouteDecision hop(int sw, int target, RouteHeader& h, uint32_t tie_word) const override {
    m_v->cur_group_i = static_cast<uint32_t>(m_t.group_of(sw));
    m_v->cur_index_i = static_cast<uint32_t>(m_t.index_of(sw));
    m_v->tgt_group_i = static_cast<uint32_t>(m_t.group_of(target));
    m_v->tgt_index_i = static_cast<uint32_t>(m_t.index_of(target));
    m_v->segment_i = h.segment & 1;
    m_v->global_done_i = h.global_done & 1;
    m_v->vc_shift_i = h.vc_shift & 1;
    m_v->exit_valid_i = h.exit_switch >= 0;
    m_v->exit_index_i = h.exit_switch >= 0 ? static_cast<uint32_t>(m_t.index_of(h.exit_switch)) : 0;
    m_v->exit_port_i = h.exit_switch >= 0 ? static_cast<uint32_t>(h.exit_port) : 0;
    m_v->rand_i = tie_word;
    m_v->eval();
    h.global_done = m_v->global_done_o;
    if (m_v->exit_valid_o) {
      h.exit_switch = m_t.switch_id(m_t.group_of(sw), static_cast<int>(m_v->exit_index_o));
      h.exit_port = static_cast<int16_t>(m_v->exit_port_o);
    } else {
      h.exit_switch = -1;
      h.exit_port = -1;
    }
    return RouteDecision{static_cast<int16_t>(m_v->port_o), static_cast<uint8_t>(m_v->vc_o)};
  }

 private:
  const Dragonfly& m_t;
  std::unique_ptr<VerilatedContext> m_ctx;
  std::unique_ptr<V> m_v;
};

// The Verilated min_route instances (CMakeLists.txt), one per shape.
struct MinRouteModel {
  DragonflyShape shape;
  std::unique_ptr<MinHopBlock> (*make)(const Dragonfly&);
};

template <class V>
std::unique_ptr<MinHopBlock> make_min_route(const Dragonfly& t) {
  return std::make_unique<RtlMinRoute<V>>(t);
}

constexpr Arrangement kPalm = Arrangement::Palmtree, kAbs = Arrangement::Absolute;
const MinRouteModel kMinRouteModels[] = {
    {{2, 4, 2, 9, kPalm}, make_min_route<Vmin_route>},
    {{4, 8, 4, 33, kPalm}, make_min_route<Vmin_route_4_8_4>},
    {{2, 4, 2, 3, kAbs}, make_min_route<Vmin_route_abs_2_4_2_3>},
    {{2, 4, 2, 5, kAbs}, make_min_route<Vmin_route_abs_2_4_2_5>},
    {{2, 4, 2, 9, kAbs}, make_min_route<Vmin_route_abs_2_4_2_9>},
    {{4, 8, 4, 9, kAbs}, make_min_route<Vmin_route_abs_4_8_4_9>},
    {{4, 8, 4, 17, kAbs}, make_min_route<Vmin_route_abs_4_8_4_17>},
    {{4, 8, 4, 33, kAbs}, make_min_route<Vmin_route_abs_4_8_4_33>},
};

const MinRouteModel* find_min_route(const DragonflyShape& s) {
  for (const auto& m : kMinRouteModels)
    if (m.shape.p == s.p && m.shape.a == s.a && m.shape.h == s.h && m.shape.g == s.g &&
        m.shape.arrangement == s.arrangement)
      return &m;
  return nullptr;
}

}  // namespace

bool rtl_available() { return true; }

bool rtl_min_route_supports(const DragonflyShape& s) { return find_min_route(s) != nullptr; }

std::string rtl_min_route_shapes() {
  std::string out;
  for (Arrangement arr : {kPalm, kAbs}) {
    std::string list;
    for (const auto& m : kMinRouteModels) {
      if (m.shape.arrangement != arr) continue;
      const DragonflyShape& s = m.shape;
      list += (list.empty() ? "" : ", ") + std::string("dfly(") + std::to_string(s.p) + "," + std::to_string(s.a) +
              "," + std::to_string(s.h) + "," + std::to_string(s.g) + ")";
    }
    out += (out.empty() ? "" : "; ") + std::string(to_string(arr)) + " " + list;
  }
  return out;
}

std::unique_ptr<MinHopBlock> make_rtl_min_route(const Dragonfly& t) {
  const MinRouteModel* m = find_min_route(t.shape());
  if (!m) throw std::invalid_argument("no Verilated min_route for this topology (" + rtl_min_route_shapes() + ")");
  return m->make(t);
}

std::unique_ptr<SelectionBlocks> make_rtl_selection_blocks(int h) { return std::make_unique<RtlSelection>(h); }
bool rtl_pb_supports(int h) { return h == 2 || h == 4; }

std::unique_ptr<LevelCtrl> make_rtl_level_ctrl(const AcorLevelParams& p) {
  return std::make_unique<RtlLevelCtrl>(p);
}

}  // namespace scfly
