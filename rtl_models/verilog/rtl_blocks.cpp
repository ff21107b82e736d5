#include "rtl_models/verilog/rtl_blocks.h"

#include <stdexcept>
#include <string>

#include "Vacor_level_ctrl.h"
#include "Vugal_selector.h"
#include "verilated.h"
#include "verilated_syms.h"
// The Verilated route units and PB detectors of this build (CMakeLists.txt).
#include "rtl_models.inc"

namespace scfly {

namespace {

// --- ACOR level controller: Verilated SystemC module (acor_level_ctrl.sv, --sc) -------------
// Ports bound to signals named like the Verilog ports. The thresholds are programmable
// inputs, held constant; rst_ni is held low until the switch's first cycle.
class ScLevelCtrl final : public sc_core::sc_module, public LevelCtrl {
 public:
  ScLevelCtrl(sc_core::sc_module_name name, const AcorLevelParams& p, const sc_core::sc_clock& clk)
      : sc_core::sc_module(name),
        m_v("u_acor_level_ctrl"),
        m_rst_n("rst_ni", false),
        m_levels("levels_i", p.levels),
        m_hi("hi_i", p.hi),
        m_it1("it1_i", p.it[0]),
        m_it2("it2_i", p.it[1]),
        m_dt1("dt1_i", p.dt[0]),
        m_dt2("dt2_i", p.dt[1]),
        m_blocked("blocked_i", 0),
        m_level("level_o"),
        m_counter("counter_o"),
        m_timer("timer_o") {
    m_v.clk_i(clk);
    m_v.rst_ni(m_rst_n);
    m_v.levels_i(m_levels);
    m_v.hi_i(m_hi);
    m_v.it1_i(m_it1);
    m_v.it2_i(m_it2);
    m_v.dt1_i(m_dt1);
    m_v.dt2_i(m_dt2);
    m_v.blocked_i(m_blocked);
    m_v.level_o(m_level);
    m_v.counter_o(m_counter);
    m_v.timer_o(m_timer);
  }
  void step(uint32_t blocked) override {
    m_rst_n.write(true);
    m_blocked.write(blocked);
  }
  void idle(uint64_t cycles) override {
    if (cycles != 0)
      throw std::logic_error(std::string(name()) + ": the RTL level controller missed " + std::to_string(cycles) +
                             " cycles (its switch must tick every cycle)");
  }
  uint32_t level() const override { return m_level.read(); }
  uint32_t counter() const override { return m_counter.read(); }
  uint32_t timer() const override { return m_timer.read(); }
  const uint32_t* level_ptr() const override { return &m_level.read(); }
  const uint32_t* counter_ptr() const override { return &m_counter.read(); }
  bool needs_every_cycle() const override { return true; }

 private:
  Vacor_level_ctrl m_v;
  sc_core::sc_signal<bool> m_rst_n;
  sc_core::sc_signal<uint32_t> m_levels, m_hi, m_it1, m_it2, m_dt1, m_dt2, m_blocked;
  sc_core::sc_signal<uint32_t> m_level, m_counter, m_timer;
};

// --- Piggyback saturation detector: Verilated SystemC module (pb_sat_detector.sv, --sc) ----
// `Q` is the SystemC type Verilator gives the packed q_i port (H*16 bits): uint32_t,
// uint64_t, or sc_bv<H*16> beyond 64 bits.
template <class Q>
void put16(Q& packed, int j, uint32_t v) {
  packed |= static_cast<Q>(v) << (16 * j);
}
template <int W>
void put16(sc_dt::sc_bv<W>& packed, int j, uint32_t v) {
  packed.range(16 * j + 15, 16 * j) = v;
}

template <class V, class Q>
class ScPbDetector final : public sc_core::sc_module, public PbDetectorBlock {
 public:
  ScPbDetector(sc_core::sc_module_name name, int h, uint32_t cg, uint32_t tg,
               std::function<void(const uint32_t*)> on_flags)
      : sc_core::sc_module(name),
        m_v("u_pb_sat_detector"),
        m_h(h),
        m_q("q_i", 0),
        m_cg("cg_i", cg),
        m_tg("tg_i", tg),
        m_sat("sat_o"),
        m_on_flags(std::move(on_flags)),
        m_flags(static_cast<size_t>(h), 0) {
    m_v.q_i(m_q);
    m_v.cg_i(m_cg);
    m_v.tg_i(m_tg);
    m_v.sat_o(m_sat);
    SC_HAS_PROCESS(ScPbDetector);
    SC_METHOD(flags_changed);
    sensitive << m_sat;
    dont_initialize();
  }
  void drive(const uint32_t* q) override {
    Q packed = 0;
    for (int j = 0; j < m_h; ++j) put16(packed, j, sat_queue(q[j]));
    m_q.write(packed);
  }

 private:
  void flags_changed() {
    const uint32_t s = m_sat.read();
    for (int j = 0; j < m_h; ++j) m_flags[static_cast<size_t>(j)] = (s >> j) & 1U;
    m_on_flags(m_flags.data());
  }
  V m_v;
  int m_h;
  sc_core::sc_signal<Q> m_q;
  sc_core::sc_signal<uint32_t> m_cg, m_tg, m_sat;
  std::function<void(const uint32_t*)> m_on_flags;
  std::vector<uint32_t> m_flags;
};

// The Verilated pb_sat_detector instances (CMakeLists.txt), one per global-port count.
using PbFlagsFn = std::function<void(const uint32_t*)>;
struct PbModel {
  int h;
  std::unique_ptr<PbDetectorBlock> (*make)(const char* name, int h, uint32_t cg, uint32_t tg, PbFlagsFn on_flags);
};

template <class V, class Q>
std::unique_ptr<PbDetectorBlock> make_pb(const char* name, int h, uint32_t cg, uint32_t tg, PbFlagsFn on_flags) {
  return std::make_unique<ScPbDetector<V, Q>>(name, h, cg, tg, std::move(on_flags));
}

const PbModel kPbModels[] = {
#include "rtl_pb_table.inc"
};

const PbModel* find_pb(int h) {
  for (const auto& m : kPbModels)
    if (m.h == h) return &m;
  return nullptr;
}

// Every Verilated model of a run lives in the thread's one VerilatedContext (the SystemC
// ones must: Verilator's SystemC models take the default context), each under its own
// hierarchical name. Models with assertions (--assert) register scopes in a context and
// Verilator 5.006 removes them through the thread's current context at destruction, so
// private contexts per model could leave a model unregistering from a context destroyed
// before it (a hang on its freed mutex at exit).

// --- UGAL selector: Verilated C++ model, evaluated in process per routed head ---------------
class RtlSelection final : public SelectionBlocks {
 public:
  RtlSelection() : m_ugal(new Vugal_selector(Verilated::threadContextp(), "rtl_ugal_selector")) {}
  ~RtlSelection() override { m_ugal->final(); }
  bool prefers_min(uint64_t q_min, uint32_t h_min, uint64_t q_vlb, uint32_t h_vlb, int64_t t) const override {
    m_ugal->q_min_i = sat_queue(q_min);
    m_ugal->h_min_i = h_min & 0xF;
    m_ugal->q_vlb_i = sat_queue(q_vlb);
    m_ugal->h_vlb_i = h_vlb & 0xF;
    m_ugal->threshold_i = static_cast<uint32_t>(t) & 0xFFFFFF;
    m_ugal->eval();
    return m_ugal->min_o != 0;
  }

 private:
  std::unique_ptr<Vugal_selector> m_ugal;
};

template <class V>
class RtlMinRoute final : public MinHopBlock {
 public:
  explicit RtlMinRoute(const Dragonfly& t) : m_t(t), m_v(new V(Verilated::threadContextp(), "rtl_min_route")) {}
  ~RtlMinRoute() override { m_v->final(); }
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

const MinRouteModel kMinRouteModels[] = {
#include "rtl_min_route_table.inc"
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
  for (Arrangement arr : {Arrangement::Palmtree, Arrangement::Absolute}) {
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

std::unique_ptr<SelectionBlocks> make_rtl_selection_blocks() { return std::make_unique<RtlSelection>(); }


bool rtl_pb_supports(int h) { return find_pb(h) != nullptr; }

std::unique_ptr<PbDetectorBlock> make_rtl_pb_detector(int h, uint32_t cg, uint32_t tg,
                                                      std::function<void(const uint32_t*)> on_flags, const char* name) {
  if (const PbModel* m = find_pb(h)) return m->make(name, h, cg, tg, std::move(on_flags));
  throw std::invalid_argument("no Verilated pb_sat_detector for h = " + std::to_string(h) + " (built for " +
                              rtl_pb_widths() + ")");
}

std::string rtl_pb_widths() {
  std::string out;
  for (const auto& m : kPbModels) out += (out.empty() ? "h = " : ", ") + std::to_string(m.h);
  return out;
}

std::unique_ptr<LevelCtrl> make_rtl_level_ctrl(const AcorLevelParams& p, const sc_core::sc_clock& rtl_clk,
                                               const char* name) {
  return std::make_unique<ScLevelCtrl>(name, p, rtl_clk);
}

std::vector<RtlSignal> rtl_signals(const sc_core::sc_object& parent) {
  std::vector<RtlSignal> out;
  const std::string prefix = std::string(parent.name()) + ".";
  const VerilatedScopeNameMap* scopes = Verilated::threadContextp()->scopeNameMap();
  if (!scopes) return out;
  for (const auto& [scope_name, scope] : *scopes) {
    const std::string full = scope_name;
    if (full.compare(0, prefix.size(), prefix) != 0) continue;
    // Verilator's TOP scope repeats the ports; the module's own scope has them and the nets.
    if (full.size() >= 4 && full.compare(full.size() - 4, 4, ".TOP") == 0) continue;
    const VerilatedVarNameMap* vars = scope->varsp();
    if (!vars) continue;
    for (const auto& [var_name, var] : *vars) {
      int bits = 0;
      switch (var.vltype()) {
        case VLVT_UINT8:
        case VLVT_UINT16:
        case VLVT_UINT32:
        case VLVT_UINT64:
          bits = var.dims() == 0 ? 1 : var.packed().elements();
          break;
        default:
          break;
      }
      if (bits <= 0 || bits > 64 || var.udims() != 0) continue;
      out.push_back(RtlSignal{full, var_name, var.datap(), bits});
    }
  }
  return out;
}

}  // namespace scfly
