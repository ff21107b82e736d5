// The Verilated models first: they are plain C++ models (VM_SC=0), so Verilator's runtime
// must be read before <systemc> (rtl_blocks.h), or it would take SystemC's time path.
#include "Vacor_level_ctrl.h"
#include "Valloc_islip_r16v4.h"
#include "Valloc_islip_r64v2.h"
#include "Valloc_islip_r4v2.h"
#include "Valloc_islip_r8v4.h"
#include "Valloc_output_first_r16v4.h"
#include "Valloc_output_first_r64v2.h"
#include "Valloc_output_first_r4v2.h"
#include "Valloc_output_first_r8v4.h"
#include "Valloc_wavefront_r16v4.h"
#include "Valloc_wavefront_r64v2.h"
#include "Valloc_wavefront_r4v2.h"
#include "Valloc_wavefront_r8v4.h"
#include "Vflow_control_v16.h"
#include "Vflow_control_v4.h"
#include "Vft_lookup_e128.h"
#include "Vft_lookup_e16.h"
#include "Vft_lookup_e256.h"
#include "Vft_lookup_e64.h"
#include "Vgal_threshold.h"
#include "Vlink_arbiter_v16.h"
#include "Vlink_arbiter_v4.h"
#include "Vmin_route.h"
#include "Vpb_sat_detector.h"
#include "Vqcn_cp.h"
#include "Vqcn_port_prob.h"
#include "Vsep_allocator_r16v4.h"
#include "Vsep_allocator_r64v2.h"
#include "Vsep_allocator_r4v2.h"
#include "Vsep_allocator_r8v4.h"
#include "Vquadrant_sel_n1.h"
#include "Vquadrant_sel_n2.h"
#include "Vquadrant_sel_n3.h"
#include "Vquadrant_sel_n4.h"
#include "Vquadrant_sel_n5.h"
#include "Vquadrant_sel_n6.h"
#include "Vugal_selector.h"
#include "verilated.h"
#include "verilated_syms.h"

#include "rtl_models/verilog/rtl_blocks.h"

#include "routing_units/misrouting.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string>
#include <type_traits>


namespace scfly {

namespace {

// --- ACOR level controller: Verilated C++ model, one clock edge per switch cycle ----------
// The thresholds are programmable inputs, held constant; the registers are reset at
// construction (rst_ni low, then high), as a switch's reset leaves them. step() drives
// blocked_i and clocks the registers once, so the level it leaves is the one cycle t + 1
// sees, exactly as the C++ unit's step() at the end of cycle t.
class RtlLevelCtrl final : public LevelCtrl {
 public:
  RtlLevelCtrl(const AcorLevelParams& p, const std::string& name)
      : m_v(new Vacor_level_ctrl(Verilated::threadContextp(), name.c_str())) {
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
    read();
  }
  ~RtlLevelCtrl() override { m_v->final(); }
  void step(uint32_t blocked) override {
    m_v->blocked_i = blocked;
    m_v->clk_i = 1;
    m_v->eval();
    m_v->clk_i = 0;
    m_v->eval();
    read();
  }
  void idle(uint64_t cycles) override {
    if (cycles != 0)
      throw std::logic_error(std::string(m_v->name()) + ": the RTL level controller missed " +
                             std::to_string(cycles) + " cycles (its switch must tick every cycle)");
  }
  uint32_t level() const override { return m_level; }
  uint32_t counter() const override { return m_counter; }
  uint32_t timer() const override { return m_timer; }
  const uint32_t* level_ptr() const override { return &m_level; }
  const uint32_t* counter_ptr() const override { return &m_counter; }
  bool needs_every_cycle() const override { return true; }

 private:
  void read() {
    m_level = m_v->level_o;
    m_counter = m_v->counter_o;
    m_timer = m_v->timer_o;
  }
  std::unique_ptr<Vacor_level_ctrl> m_v;
  uint32_t m_level = 0, m_counter = 0, m_timer = 0;  // the outputs as 32-bit words (traced)
};

// --- Piggyback saturation detector: Verilated C++ model, evaluated once per switch cycle -----
// One model for every h = 1..kPbPortsMax: h_i, cg_i and tg_i are held from construction (the
// switch's reset); the packed q_i port is kPbPortsMax x 16 bits, the ports at and beyond h
// left zero (the block ignores them anyway). drive() evaluates the combinational block and
// hands its flags back at once, within the switch's cycle.
constexpr int kPbQBits = kPbPortsMax * kQueueBits;
static_assert(kQueueBits == 16 && kPbQBits % 32 == 0, "two occupancies per 32-bit word of q_i");

class RtlPbDetector final : public PbDetectorBlock {
 public:
  RtlPbDetector(const std::string& name, int h, uint32_t cg, uint32_t tg, std::function<void(const uint32_t*)> on_flags)
      : m_v(new Vpb_sat_detector(Verilated::threadContextp(), name.c_str())),
        m_h(h),
        m_on_flags(std::move(on_flags)),
        m_flags(static_cast<size_t>(h), 0) {
    m_v->h_i = static_cast<uint8_t>(h);
    m_v->cg_i = static_cast<uint16_t>(cg);
    m_v->tg_i = static_cast<uint16_t>(tg);
    for (int w = 0; w < kPbQBits / 32; ++w) m_v->q_i[static_cast<size_t>(w)] = 0;
    m_v->eval();
  }
  ~RtlPbDetector() override { m_v->final(); }
  void drive(const uint32_t* q) override {
    // Two 16-bit occupancies per 32-bit word, port j in bits [16j, 16j + 16).
    for (int w = 0; w < kPbQBits / 32; ++w) {
      const int j = 2 * w;
      const uint32_t lo = j < m_h ? sat_queue(q[j]) : 0, hi = j + 1 < m_h ? sat_queue(q[j + 1]) : 0;
      m_v->q_i[static_cast<size_t>(w)] = lo | (hi << 16);
    }
    m_v->eval();
    const uint32_t s = m_v->sat_o;
    for (int j = 0; j < m_h; ++j) m_flags[static_cast<size_t>(j)] = (s >> j) & 1U;
    m_on_flags(m_flags.data());
  }

 private:
  std::unique_ptr<Vpb_sat_detector> m_v;
  int m_h;
  std::function<void(const uint32_t*)> m_on_flags;
  std::vector<uint32_t> m_flags;
};

// Every Verilated model of a run lives in the thread's one VerilatedContext (the SystemC
// ones must: Verilator's SystemC models take the default context), each under its own
// hierarchical name. Models with assertions (--assert) register scopes in a context and
// Verilator 5.006 removes them through the thread's current context at destruction, so
// private contexts per model could leave a model unregistering from a context destroyed
// before it (a hang on its freed mutex at exit).

// --- UGAL selector: Verilated C++ model, evaluated in process per routed head ---------------
class RtlSelection final : public SelectionBlocks {
 public:
  explicit RtlSelection(const std::string& name) : m_ugal(new Vugal_selector(Verilated::threadContextp(), name.c_str())) {}
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

// min_route.sv: one model for every shape within its widths; the shape registers are
// loaded once, here, as a network loads them at reset (the clock never ticks again).
class RtlMinRoute final : public MinHopBlock {
 public:
  RtlMinRoute(const Dragonfly& t, const std::string& name)
      : m_t(t), m_v(new Vmin_route(Verilated::threadContextp(), name.c_str())) {
    const DragonflyShape& s = t.shape();
    m_v->cfg_p_i = static_cast<uint32_t>(s.p);
    m_v->cfg_a_i = static_cast<uint32_t>(s.a);
    m_v->cfg_h_i = static_cast<uint32_t>(s.h);
    m_v->cfg_g_i = static_cast<uint32_t>(s.g);
    m_v->cfg_absolute_i = s.arrangement == Arrangement::Absolute;
    m_v->cfg_we_i = 1;  // one clock edge loads the shape registers
    m_v->clk_i = 0;
    m_v->eval();
    m_v->clk_i = 1;
    m_v->eval();
    m_v->cfg_we_i = 0;
  }
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
  std::unique_ptr<Vmin_route> m_v;
};

// --- Torus in-quadrant selector: Verilated C++ model, evaluated in process per routed head ----
// Packed ports of any width: Verilator gives them as 8/16/32/64-bit integers or as VlWide
// arrays of 32-bit words.
template <class P>
void put_field(P& port, int lsb, int bits, uint64_t v) {
  port = static_cast<P>(port | (static_cast<P>(v) << lsb));
  (void)bits;
}
template <std::size_t W>
void put_field(VlWide<W>& port, int lsb, int bits, uint64_t v) {
  for (int b = 0; b < bits; ++b)
    if ((v >> b) & 1) port[static_cast<std::size_t>((lsb + b) / 32)] |= 1u << ((lsb + b) % 32);
}
template <class P>
void clear_port(P& port) { port = 0; }
template <std::size_t W>
void clear_port(VlWide<W>& port) {
  for (std::size_t i = 0; i < W; ++i) port[i] = 0;
}
template <class P>
uint32_t get_field(const P& port, int lsb, int bits) {
  return static_cast<uint32_t>((static_cast<uint64_t>(port) >> lsb) & ((uint64_t{1} << bits) - 1));
}

template <class V>
class RtlQuadrant final : public QuadrantBlock {
 public:
  RtlQuadrant(const Torus& t, const std::string& name) : m_v(new V(Verilated::threadContextp(), name.c_str())) {
    const int n = t.n(), s = 2 * n;
    m_siw = 0;
    while ((1 << m_siw) < s) ++m_siw;
    m_v->k_i = static_cast<uint8_t>(t.k());
    m_v->mesh_i = t.mesh();
  }
  ~RtlQuadrant() override { m_v->final(); }
  int order(const Torus& t, int sw, int dst, uint8_t dir_set, uint8_t minus, Rng& rng, const SwitchLoad& load,
            int* ports) const override {
    const int n = t.n(), s = 2 * n, P = t.host_ports();
    clear_port(m_v->cur_i);
    clear_port(m_v->dst_i);
    for (int d = 0; d < n; ++d) {
      put_field(m_v->cur_i, kCoordBits * d, kCoordBits, static_cast<uint64_t>(t.coord(sw, d)));
      put_field(m_v->dst_i, kCoordBits * d, kCoordBits, static_cast<uint64_t>(t.coord(dst, d)));
    }
    const uint32_t dmask = (1u << n) - 1;
    m_v->dir_set_i = dir_set & dmask;
    m_v->minus_i = minus & dmask;
    // Phase 1: the productive slots, so the tie words are drawn as the C++ unit draws them
    // (one per candidate, in slot order, only when there are several).
    clear_port(m_v->q_i);
    clear_port(m_v->tie_i);
    m_v->eval();
    const uint32_t valid = static_cast<uint32_t>(m_v->valid_o);
    const int count = static_cast<int>(m_v->count_o);
    for (int sl = 0; sl < s; ++sl) {
      if (!((valid >> sl) & 1)) continue;
      put_field(m_v->q_i, kQueueBits * sl, kQueueBits, sat_queue(load.at(P + sl)));
      put_field(m_v->tie_i, kTieBits * sl, kTieBits, count > 1 ? rng.order_word() : 0);
    }
    m_v->eval();
    for (int i = 0; i < count; ++i) ports[i] = P + static_cast<int>(get_order(i));
    return count;
  }

 private:
  uint32_t get_order(int i) const { return get_field(m_v->order_o, m_siw * i, m_siw); }
  std::unique_ptr<V> m_v;
  int m_siw = 1;
};

// In-process clocked models (GAL controller, QCN blocks, forwarding table): an asynchronous
// reset (rst_ni high, low, high: Verilator sees the falling edge only after a first eval)
// and one rising clock edge, each settled.
template <class V>
void reset(V& v) {
  v.clk_i = 0;
  v.rst_ni = 1;
  v.eval();
  v.rst_ni = 0;
  v.eval();
  v.rst_ni = 1;
  v.eval();
}
template <class V>
void rising_edge(V& v) {
  v.clk_i = 1;
  v.eval();
  v.clk_i = 0;
  v.eval();
}

// --- GAL threshold controller: Verilated C++ model in process, clocked per cycle ------------
class RtlGalThreshold final : public GalThresholdBlock {
 public:
  RtlGalThreshold(const GalThresholdParams& p, const std::string& name)
      : m_v(new Vgal_threshold(Verilated::threadContextp(), name.c_str())) {
    m_v->adaptive_i = p.adaptive;
    m_v->t0_i = static_cast<uint16_t>(p.t0);
    m_v->t_min_i = static_cast<uint16_t>(p.t_min);
    m_v->t_max_i = static_cast<uint16_t>(p.t_max);
    m_v->n1_i = static_cast<uint16_t>(p.n1);
    m_v->n2_i = p.n2;
    m_v->dep_i = 0;
    reset(*m_v);
  }
  ~RtlGalThreshold() override { m_v->final(); }
  void departure(uint64_t t) override {
    clock(t);
    if (m_dep == kGalDepMax)
      throw std::logic_error(std::string("gal_threshold RTL ") + m_v->name() + ": more than " +
                             std::to_string(kGalDepMax) + " departures in cycle " + std::to_string(t));
    ++m_dep;
  }
  uint32_t value(uint64_t t) override {
    clock(t);
    return m_v->t_o;
  }
  // One rising edge per elapsed cycle, each carrying that cycle's departures.
  void clock(uint64_t t) override {
    while (m_cycle < t) {
      m_v->dep_i = static_cast<uint8_t>(m_dep);
      rising_edge(*m_v);
      m_dep = 0;
      ++m_cycle;
    }
  }

 private:
  std::unique_ptr<Vgal_threshold> m_v;
  uint64_t m_cycle = 0;  // the cycle whose departures m_dep counts
  uint32_t m_dep = 0;
};

// --- QCN port-probability unit: Verilated C++ model in process, one edge per update ---------
class RtlQcnPortProb final : public QcnPortBlock {
 public:
  RtlQcnPortProb(const QcnParams& q, int ports, const std::string& name)
      : m_v(new Vqcn_port_prob(Verilated::threadContextp(), name.c_str())) {
    m_v->np_i = static_cast<uint8_t>(ports);
    m_v->fbc_i = q.feedback_comparison;
    m_v->lf_den_i = q.lf_den;
    m_v->pc_limit_i = q.pc_limit;
    m_v->pi_i = q.pi;
    m_v->p_min_i = q.p_min;
    m_v->th1_i = static_cast<uint8_t>(q.th1);
    m_v->th2_i = static_cast<uint8_t>(q.th2);
    m_v->cnm_i = 0;
    m_v->pkt_i = 0;
    reset(*m_v);
  }
  ~RtlQcnPortProb() override { m_v->final(); }
  void cnm(int index, uint32_t fb) override {
    m_v->cnm_i = 1;
    m_v->fb_i = static_cast<uint8_t>(fb & kQcnFbMax);
    edge(index);
  }
  void packet(int index) override {
    m_v->pkt_i = 1;
    edge(index);
  }
  void read(int index, uint32_t& p, uint32_t& last_fb, uint32_t& cnt) const override {
    m_v->rd_port_i = static_cast<uint8_t>(index);
    m_v->eval();
    p = m_v->p_o;
    last_fb = m_v->last_fb_o;
    cnt = m_v->cnt_o;
  }
  uint32_t fb_avg() const override { return m_v->fb_avg_o; }

 private:
  void edge(int index) {
    m_v->port_i = static_cast<uint8_t>(index);
    rising_edge(*m_v);
    m_v->cnm_i = 0;
    m_v->pkt_i = 0;
  }
  std::unique_ptr<Vqcn_port_prob> m_v;
};

// --- QCN congestion points: Verilated C++ model in process, one edge per update ------------
class RtlQcnCp final : public QcnCpBlock {
 public:
  RtlQcnCp(const QcnParams& q, const std::vector<uint32_t>& qeq, const std::string& name)
      : m_v(new Vqcn_cp(Verilated::threadContextp(), name.c_str())) {
    m_v->w_i = static_cast<uint8_t>(q.w);
    m_v->cpc_i = q.cpc;
    m_v->pct_i = static_cast<uint8_t>(q.cnm_percent);
    reset(*m_v);
    // Q_eq of each port through the write port.
    for (size_t i = 0; i < qeq.size(); ++i) {
      m_v->cfg_we_i = 1;
      m_v->cfg_qeq_i = static_cast<uint16_t>(qeq[i]);
      edge(static_cast<int>(i));
    }
  }
  ~RtlQcnCp() override { m_v->final(); }
  bool count(int index, uint32_t n) override {
    m_v->count_i = 1;
    m_v->n_i = n;
    m_v->port_i = static_cast<uint8_t>(index);
    m_v->eval();
    const bool due = m_v->due_o != 0;
    edge(index);
    return due;
  }
  uint32_t sample(int index, uint32_t q) override {
    m_v->sample_i = 1;
    m_v->q_i = static_cast<uint16_t>(sat_queue(q));
    m_v->port_i = static_cast<uint8_t>(index);
    m_v->eval();
    const uint32_t fb = m_v->fb_o;
    edge(index);
    return fb;
  }
  void sample_empty(int index) override {
    m_v->empty_i = 1;
    edge(index);
  }
  bool emits(int index, uint32_t draw) const override {
    m_v->port_i = static_cast<uint8_t>(index);
    m_v->draw_i = draw;
    m_v->eval();
    return m_v->cnm_o != 0;
  }
  void read(int index, uint32_t& count, uint32_t& q_old, uint32_t& last_fb) const override {
    m_v->rd_port_i = static_cast<uint8_t>(index);
    m_v->eval();
    count = m_v->count_o;
    q_old = m_v->last_q_o;
    last_fb = m_v->last_fb_o;
  }

 private:
  void edge(int index) {
    m_v->port_i = static_cast<uint8_t>(index);
    rising_edge(*m_v);
    m_v->count_i = 0;
    m_v->sample_i = 0;
    m_v->empty_i = 0;
    m_v->cfg_we_i = 0;
  }
  std::unique_ptr<Vqcn_cp> m_v;
};

// --- Conditional forwarding table: Verilated C++ model in process, one eval per lookup -----
// V: the instance of NE rows (Vft_lookup_e16 ... _e256, CMakeLists.txt). Only the row
// address (ent_addr_i) and the chosen row (entry_o) are as wide as log2(NE), at most 8 bits
// (uint8_t) here; a lookup's result does not depend on NE while the table fits (the rows
// past it are written invalid and match nothing).
template <class V, int NE>
class RtlFtLookup final : public FtBlock {
  static_assert(NE >= 2 && NE <= 256, "ent_addr_i and entry_o are driven and read as 8-bit values");

 public:
  RtlFtLookup(const ForwardingTable& t, const Dragonfly& topo, const std::string& name)
      : m_v(new V(Verilated::threadContextp(), name.c_str())), m_a(topo.a()),
        m_switches(topo.num_switches()), m_radix(t.num_ports()) {
    m_v->own_switch_i = static_cast<uint16_t>(t.sw());
    m_v->own_index_i = static_cast<uint8_t>(t.sw() % m_a);
    m_v->p_i = static_cast<uint8_t>(topo.p());
    m_v->a_i = static_cast<uint8_t>(m_a);
    m_v->radix_i = static_cast<uint8_t>(m_radix);
    m_v->clk_i = 0;
    m_v->eval();
    // The entries, alternative by alternative in lookup order, members after their first;
    // every other row invalid (the rows have no reset).
    const std::vector<FlowEntry>& es = t.entries();
    int row = 0;
    for (const ForwardingTable::AltView& a : t.lookup_order())
      for (int k = 0; k < a.count; ++k) {
        const FlowEntry& fe = es[static_cast<size_t>(a.first + k)];
        write_row(row++, true, k == 0, a, fe);
        m_entry_of_row.push_back(a.first + k);
      }
    for (; row < NE; ++row) write_row(row, false, false, ForwardingTable::AltView{0, 0, TieDraw::IfSeveral, FlowCondition::None}, FlowEntry{});
    for (int port = 0; port < m_radix; ++port) set_probability(port, t.probability(port));
  }
  ~RtlFtLookup() override { m_v->final(); }

  RouteDecision lookup(int in_port, RouteHeader& h, Rng& rng, LookupInfo* info) const override {
    V& v = *m_v;
    v.in_valid_i = in_port >= 0 && in_port < m_radix;
    v.in_port_i = static_cast<uint8_t>(v.in_valid_i ? in_port : 0);
    const bool dst_ok = h.dst_switch >= 0 && h.dst_switch < m_switches;
    v.dst_valid_i = dst_ok;
    v.dst_switch_i = static_cast<uint16_t>(dst_ok ? h.dst_switch : 0);
    v.dst_group_i = static_cast<uint8_t>(dst_ok ? h.dst_switch / m_a : 0);
    v.dst_host_i = static_cast<uint8_t>(h.dst_host & ((1 << kFtPortBits) - 1));
    v.segment_i = h.segment;
    v.global_done_i = h.global_done;
    v.vc_shift_i = h.vc_shift;
    v.exit_valid_i = h.exit_switch >= 0;
    v.exit_switch_i = static_cast<uint16_t>(h.exit_switch >= 0 ? h.exit_switch : 0);
    v.exit_index_i = static_cast<uint8_t>(h.exit_switch >= 0 ? h.exit_switch % m_a : 0);
    v.exit_port_i = static_cast<uint8_t>(h.exit_port >= 0 ? h.exit_port : 0);
    // The words the lookup may take, peeked from a copy of the switch's Rng in draw order.
    Rng peek = rng;
    for (int j = 0; j < kFtDrawWords; ++j) v.draw_i[static_cast<size_t>(j)] = peek.next32();
    v.eval();
    if (v.overflow_o)
      throw std::logic_error(std::string("ft_lookup RTL ") + v.name() + ": a lookup needed more than " +
                             std::to_string(kFtVisitMax) + " alternatives or " + std::to_string(kFtDrawWords) +
                             " random words");
    for (uint32_t k = 0; k < v.used_o; ++k) (void)rng.next32();
    if (info) {
      *info = LookupInfo{};
      info->drew_n = v.drew_n_o != 0;
      info->n = info->drew_n ? static_cast<int>(v.n_o) : 0;
      info->tie_draws = static_cast<int>(v.used_o) - (info->drew_n ? 1 : 0);
      info->entry = v.miss_o ? -1 : m_entry_of_row[v.entry_o];
    }
    if (v.miss_o) return RouteDecision{};
    h.segment = v.segment_o;
    h.global_done = v.global_done_o;
    h.exit_switch = v.exit_valid_o ? static_cast<int32_t>(v.exit_switch_o) : -1;
    h.exit_port = v.exit_valid_o ? static_cast<int16_t>(v.exit_port_o) : -1;
    if (v.misroute_o) {
      h.nonminimal = true;
      h.policy = static_cast<uint8_t>(Misroute::CrgGr);
    }
    return RouteDecision{static_cast<int16_t>(v.port_o), static_cast<uint8_t>(v.vc_o)};
  }

  void set_probability(int port, int pct) override {
    m_v->prob_we_i = 1;
    m_v->prob_port_i = static_cast<uint8_t>(port);
    m_v->prob_val_i = static_cast<uint8_t>(pct);
    rising_edge(*m_v);
    m_v->prob_we_i = 0;
  }

 private:
  void write_row(int row, bool valid, bool first, const ForwardingTable::AltView& a, const FlowEntry& fe) {
    V& v = *m_v;
    const FlowMatch& m = fe.match;
    const FlowAction& x = fe.action;
    v.ent_we_i = 1;
    v.ent_addr_i = static_cast<uint8_t>(row);
    v.ent_valid_i = valid;
    v.ent_first_i = first;
    v.ent_count_i = static_cast<uint8_t>(a.count);
    v.ent_always_i = a.draw == TieDraw::Always;
    v.ent_cond_i = a.condition == FlowCondition::PortProbability;
    v.ent_any_switch_i = m.dst_switch == FlowMatch::kAny;
    v.ent_switch_i = static_cast<uint16_t>(m.dst_switch == FlowMatch::kAny ? 0 : m.dst_switch);
    v.ent_any_group_i = m.dst_group == FlowMatch::kAny;
    v.ent_group_i = static_cast<uint8_t>(m.dst_group == FlowMatch::kAny ? 0 : m.dst_group);
    v.ent_any_host_i = m.dst_host == FlowMatch::kAny;
    v.ent_host_i = static_cast<uint8_t>(m.dst_host == FlowMatch::kAny ? 0 : m.dst_host);
    v.ent_any_in_port_i = m.in_port == FlowMatch::kAny;
    v.ent_in_port_i = static_cast<uint8_t>(m.in_port == FlowMatch::kAny ? 0 : m.in_port);
    v.ent_any_class_i = !m.in_class.has_value();
    v.ent_class_i = static_cast<uint8_t>(m.in_class ? static_cast<int>(*m.in_class) : 0);
    v.ent_exit_i = static_cast<uint8_t>(m.exit);  // Any, Unpinned, Here, Elsewhere = 0..3
    v.ent_out_i = static_cast<uint8_t>(x.out);    // Fixed, DstHost, PinnedExit, TowardPinnedExit
    v.ent_port_i = static_cast<uint8_t>(x.port >= 0 ? x.port : 0);
    v.ent_vc_rule_i = x.vc_rule == VcRule::HopSlot ? 0 : x.vc_rule == VcRule::Fixed ? 1 : 2;
    v.ent_vc_i = static_cast<uint8_t>(x.vc);
    v.ent_op_i = static_cast<uint8_t>(x.op);      // None, TakeGlobal, PinExit, Misroute
    v.ent_pin_switch_i = static_cast<uint16_t>(x.pin_switch >= 0 ? x.pin_switch : 0);
    v.ent_pin_port_i = static_cast<uint8_t>(x.pin_port >= 0 ? x.pin_port : 0);
    rising_edge(*m_v);
    v.ent_we_i = 0;
  }
  std::unique_ptr<V> m_v;
  int m_a, m_switches, m_radix;
  std::vector<int> m_entry_of_row;  // row -> index in the table's entries
};

// The Verilated table instances (CMakeLists.txt), smallest first; the last holds
// scfly_pkg::FtEntriesMax rows.
struct FtModel {
  int rows;
  std::shared_ptr<FtBlock> (*make)(const ForwardingTable&, const Dragonfly&, const std::string&);
};
template <class V, int NE>
std::shared_ptr<FtBlock> make_ft(const ForwardingTable& t, const Dragonfly& topo, const std::string& name) {
  return std::make_shared<RtlFtLookup<V, NE>>(t, topo, name);
}
constexpr FtModel kFtModels[] = {
    {16, make_ft<Vft_lookup_e16, 16>},
    {64, make_ft<Vft_lookup_e64, 64>},
    {128, make_ft<Vft_lookup_e128, 128>},
    {256, make_ft<Vft_lookup_e256, 256>},
};
static_assert(kFtModels[std::size(kFtModels) - 1].rows == kFtEntriesMax, "the largest table holds FtEntriesMax rows");
const FtModel* find_ft(int entries) {
  for (const auto& m : kFtModels)
    if (entries <= m.rows) return &m;
  return nullptr;
}

// --- The switch's separable allocator: Verilated C++ model in process, one per switch ------
// Fields of packed ports of any width (8-64-bit integers or VlWide arrays of 32-bit words):
// written (the field's old bits cleared) and read, fields of at most 32 bits.
constexpr int clog2(int n) {
  int b = 0;
  while ((1 << b) < n) ++b;
  return b;
}
template <class T>
void set_bits(T& port, int lsb, int bits, uint64_t v) {
  const uint64_t m = ((uint64_t{1} << bits) - 1) << lsb;
  port = static_cast<T>((static_cast<uint64_t>(port) & ~m) | ((v << lsb) & m));
}
template <std::size_t W>
void set_bits(VlWide<W>& port, int lsb, int bits, uint64_t v) {
  const int w = lsb / 32, off = lsb % 32;
  const uint64_t m = ((uint64_t{1} << bits) - 1) << off;  // over words w and w + 1
  const uint64_t x = (static_cast<uint64_t>(port[static_cast<std::size_t>(w)]) |
                      (off + bits > 32 ? static_cast<uint64_t>(port[static_cast<std::size_t>(w) + 1]) << 32 : 0));
  const uint64_t y = (x & ~m) | ((v << off) & m);
  port[static_cast<std::size_t>(w)] = static_cast<uint32_t>(y);
  if (off + bits > 32) port[static_cast<std::size_t>(w) + 1] = static_cast<uint32_t>(y >> 32);
}
template <class T>
uint32_t get_bits(const T& port, int lsb, int bits) {
  return static_cast<uint32_t>((static_cast<uint64_t>(port) >> lsb) & ((uint64_t{1} << bits) - 1));
}
template <std::size_t W>
uint32_t get_bits(const VlWide<W>& port, int lsb, int bits) {
  const int w = lsb / 32, off = lsb % 32;
  uint64_t x = port[static_cast<std::size_t>(w)];
  if (off + bits > 32) x |= static_cast<uint64_t>(port[static_cast<std::size_t>(w) + 1]) << 32;
  return static_cast<uint32_t>((x >> off) & ((uint64_t{1} << bits) - 1));
}

// A port of one bit per entry (requests, grants): any bit set, and each set bit's index in
// ascending order, for ports of up to 64 bits and wide ones (the radix-64 instance's 128).
template <class T>
bool any_bit(const T& port) {
  return port != 0;
}
template <std::size_t W>
bool any_bit(const VlWide<W>& port) {
  for (std::size_t i = 0; i < W; ++i)
    if (port[i]) return true;
  return false;
}
template <class T, class F>
void for_each_bit(const T& port, F&& f) {
  for (uint64_t g = static_cast<uint64_t>(port); g; g &= g - 1) f(__builtin_ctzll(g));
}
template <std::size_t W, class F>
void for_each_bit(const VlWide<W>& port, F&& f) {
  for (std::size_t i = 0; i < W; ++i)
    for (uint32_t g = port[i]; g; g &= g - 1) f(static_cast<int>(i * 32) + __builtin_ctz(g));
}

// The ports every allocator model shares (sep_allocator.sv and the variants), written for a
// switch of configuration `c` before the reset: its ports, cap and VCs, no request, no
// connection, no load; with AGE the output order's transit and age ports too. NVW: the
// width of a per-port VC count.
template <bool AGE, class V>
void configure_allocator(V& v, const AllocatorConfig& c, int nvw) {
  v.ports_i = static_cast<uint8_t>(c.inputs);
  v.cap_i = static_cast<uint8_t>(c.conn_cap);
  v.iters_i = 1;
  for (int p = 0; p < c.inputs; ++p) {
    set_bits(v.nvc_i, p * nvw, nvw, c.vcs[static_cast<size_t>(p)]);
    set_bits(v.ndata_i, p * nvw, nvw, c.data_vcs[static_cast<size_t>(p)]);
  }
  if constexpr (AGE) {
    v.transit_prio_i = c.transit_priority;
    v.age_prio_i = c.age_priority;
    for (int p = 0; p < c.inputs; ++p) set_bits(v.inj_i, p, 1, c.injection[static_cast<size_t>(p)]);
    clear_port(v.req_age_i);
  }
  v.rr_all_en_i = c.rr_all >= 0;
  v.rr_all_i = static_cast<uint8_t>(c.rr_all >= 0 ? c.rr_all : 0);
  v.load_i = 0;
  clear_port(v.req_i);
  clear_port(v.req_port_i);
  clear_port(v.req_vc_i);
  clear_port(v.in_active_i);
  clear_port(v.out_active_i);
  clear_port(v.load_in_ptr_i);
}

// The grants of an allocator model's last evaluation, each with the output VC its entry
// requested and its pass (entry e = ip * VV + v; the field widths PW, VW, GW).
template <class V>
void read_grants(const V& v, int vv, int pw, int vw, int gw, std::vector<RtlGrant>& out) {
  for_each_bit(v.grant_o, [&](int e) {
    out.push_back(RtlGrant{static_cast<uint16_t>(e / vv), static_cast<uint16_t>(get_bits(v.req_port_i, e * pw, pw)),
                           static_cast<uint8_t>(e % vv), static_cast<uint8_t>(get_bits(v.req_vc_i, e * vw, vw)),
                           static_cast<uint8_t>(get_bits(v.grant_pass_o, e * gw, gw))});
  });
}

// sep_allocator with P ports, VV VCs per port, CAP connections per port and ITERS passes
// built (the parameters it was Verilated with).
template <class V, int P, int VV, int CAP, int ITERS>
class RtlAllocator final : public AllocatorBlock {
  static constexpr int N = P * VV, PW = clog2(P), VW = VV > 1 ? clog2(VV) : 1, NVW = clog2(VV + 1),
                       CW = clog2(CAP + 1), GW = ITERS > 1 ? clog2(ITERS) : 1, AB = kAllocAgeBits;

 public:
  RtlAllocator(const AllocatorConfig& c, const std::string& name)
      : m_v(new V(Verilated::threadContextp(), name.c_str())), m_age(c.age_priority), m_ports(c.inputs) {
    V& v = *m_v;
    configure_allocator<true>(v, c, NVW);
    clear_port(v.load_out_ptr_i);
    reset(v);  // pointers 0, as a new SeparableAllocator
    m_grants.reserve(static_cast<size_t>(N));
  }
  ~RtlAllocator() override { m_v->final(); }

  void begin() override {
    if (m_edge) {  // the previous evaluation's pointers, from its inputs (still applied)
      m_v->clk_i = 1;
      m_v->eval();
      m_v->clk_i = 0;  // falls in the next evaluation (nothing happens on it)
      m_edge = false;
    }
    clear_port(m_v->req_i);
  }
  void request(int ip, int v, int op, int ov, uint64_t age) override {
    const int e = ip * VV + v;
    set_bits(m_v->req_i, e, 1, 1);
    set_bits(m_v->req_port_i, e * PW, PW, static_cast<uint64_t>(op));
    set_bits(m_v->req_vc_i, e * VW, VW, static_cast<uint64_t>(ov));
    if (m_age) set_bits(m_v->req_age_i, e * AB, AB, age < (uint64_t{1} << AB) ? age : (uint64_t{1} << AB) - 1);
  }
  void evaluate(int passes, const uint8_t* in_active, const uint8_t* out_active) override {
    V& v = *m_v;
    m_grants.clear();
    const bool none = !any_bit(v.req_i);
    if (none && m_settled) return;  // its nets already show an evaluation without requests
    v.iters_i = static_cast<uint8_t>(passes);
    for (int p = 0; p < m_ports; ++p) {
      set_bits(v.in_active_i, p * CW, CW, in_active[p]);
      set_bits(v.out_active_i, p * CW, CW, out_active[p]);
    }
    v.eval();
    m_settled = none;
    read_grants(v, VV, PW, VW, GW, m_grants);
    m_edge = !m_grants.empty();  // no grant moves no pointer
  }
  const std::vector<RtlGrant>& grants() const override { return m_grants; }
  int out_pointer(int op) const override { return static_cast<int>(get_bits(m_v->out_ptr_o, op * PW, PW)); }
  int max_passes(int) const override { return ITERS; }
  AllocatorKind kind() const override { return AllocatorKind::SeparableInput; }

 private:
  std::unique_ptr<V> m_v;
  bool m_age;
  int m_ports;
  bool m_edge = false;     // the last evaluation granted: its pointers are clocked at begin()
  bool m_settled = true;   // the last evaluation had no request (reset: none)
  std::vector<RtlGrant> m_grants;
};

// An allocator variant of switch.allocator (alloc_output_first.sv, alloc_wavefront.sv,
// alloc_islip.sv) with P ports, VV VCs, CAP connections and ITERS passes built. As
// RtlAllocator, with what separates the variants' state from the separable one's:
//  - when its registers move. The C++ part's state between two passes of a cycle is not
//    always what the RTL writes at an edge after an evaluation of those passes alone (the
//    switch evaluates one pass at a time while a head has a second free candidate; see
//    Switch::allocate_rtl). The output-first allocator moves its pointers in every pass:
//    an edge after each evaluation that granted, as the separable one. iSLIP moves them
//    in the cycle's first iteration only: an edge after an evaluation starting at pass 0,
//    none after a later one (whose one iteration the RTL would take as a first), and such
//    an evaluation runs one pass (max_passes). The wavefront moves its first diagonal D
//    once per cycle, after every pass, granted or not: an edge after every evaluation, and
//    after one that is not the cycle's last, D is loaded back (load_i, with the VC
//    pointers the edge wrote). A cycle without a request moves D only: its move is owed
//    and loaded (D plus the moves owed) before the next evaluation with a request, so that
//    an idle switch costs no evaluation (its VCD shows D as of its last busy cycle).
//  - the order the switch records a pass's grants in (order_pass: Switch::allocate_rtl's
//    connections, as the C++ part calls `grant`): output-first, by input port, then the
//    VC's rank in its port's input order (control VCs by index, then data VCs round-robin
//    from the VC pointer); iSLIP, by input port, control first, the output port's distance
//    from the input's accept pointer, then the rank; the wavefront, control cells first,
//    then the diagonal (op - ip - D) mod ports, then the input port. The pointers those
//    orders read within an evaluation of several passes (the VC pointers, iSLIP's accept
//    pointers after its first iteration) are the registers' at the evaluation, moved past
//    each pass's grants as the C++ part moves them.
template <class V, AllocatorKind KIND, int P, int VV, int CAP, int ITERS>
class RtlVariantAllocator final : public AllocatorBlock {
  static constexpr int N = P * VV, PW = clog2(P), VW = VV > 1 ? clog2(VV) : 1, NVW = clog2(VV + 1),
                       CW = clog2(CAP + 1), GW = ITERS > 1 ? clog2(ITERS) : 1, AB = kAllocAgeBits;
  static constexpr bool kAge = KIND == AllocatorKind::SeparableOutput;  // transit and age ports

 public:
  RtlVariantAllocator(const AllocatorConfig& c, const std::string& name)
      : m_v(new V(Verilated::threadContextp(), name.c_str())), m_cfg(c), m_ports(c.inputs) {
    V& v = *m_v;
    configure_allocator<kAge>(v, c, NVW);
    if constexpr (kAge) clear_port(v.load_out_ptr_i);
    if constexpr (KIND == AllocatorKind::Wavefront) v.load_diag_i = 0;
    if constexpr (KIND == AllocatorKind::Islip) {
      clear_port(v.load_grant_ptr_i);
      clear_port(v.load_accept_ptr_i);
    }
    reset(v);  // pointers 0, as a new part
    m_grants.reserve(static_cast<size_t>(N));
    m_vc_ptr.assign(static_cast<size_t>(P), 0);
    m_acc_ptr.assign(static_cast<size_t>(P), 0);
  }
  ~RtlVariantAllocator() override { m_v->final(); }

  AllocatorKind kind() const override { return KIND; }
  void begin() override {
    V& v = *m_v;
    if (m_pending && KIND == AllocatorKind::Wavefront && m_pending_idle) {
      ++m_owed;  // an idle cycle's edge moves D only: owed, loaded before the next evaluation
      m_pending = false;
    }
    if (m_pending) {  // the previous evaluation's edge (deferred, as RtlAllocator's)
      bool clock = true;  // (no grant moves no pointer)
      if constexpr (KIND == AllocatorKind::Islip) clock = m_pending_from == 0 && m_pending_grants;
      if constexpr (KIND == AllocatorKind::SeparableOutput) clock = m_pending_grants;
      if (clock) edge();
      if constexpr (KIND == AllocatorKind::Wavefront) {
        if (!m_cycle_ended) {  // D moves at the cycle's end only: loaded back
          v.load_in_ptr_i = v.in_ptr_o;
          v.load_diag_i = static_cast<uint8_t>(m_diag);
          v.load_i = 1;
          edge();
          v.load_i = 0;
        }
      }
      m_pending = false;
    }
    m_cycle_ended = false;
    clear_port(v.req_i);
    m_requests = false;
  }
  void request(int ip, int vc, int op, int ov, uint64_t age) override {
    m_requests = true;
    const int e = ip * VV + vc;
    set_bits(m_v->req_i, e, 1, 1);
    set_bits(m_v->req_port_i, e * PW, PW, static_cast<uint64_t>(op));
    set_bits(m_v->req_vc_i, e * VW, VW, static_cast<uint64_t>(ov));
    if constexpr (kAge) {
      if (m_cfg.age_priority)
        set_bits(m_v->req_age_i, e * AB, AB, age < (uint64_t{1} << AB) ? age : (uint64_t{1} << AB) - 1);
    } else {
      (void)age;
    }
  }
  void evaluate(int passes, const uint8_t* in_active, const uint8_t* out_active) override {
    V& v = *m_v;
    m_grants.clear();
    // Without requests nothing is granted; the nets already show such an evaluation if the
    // last one had none either (a wavefront's diagonal register may have moved since).
    const bool skip = !m_requests && m_settled;
    if (!skip) {
      if constexpr (KIND == AllocatorKind::Wavefront) {
        if (m_owed > 0) {  // the idle cycles' moves of D since the last evaluation
          v.load_in_ptr_i = v.in_ptr_o;
          v.load_diag_i = static_cast<uint8_t>((static_cast<int>(v.diag_o) + m_owed) % m_ports);
          v.load_i = 1;
          edge();
          v.load_i = 0;
          m_owed = 0;
        }
      }
      v.iters_i = static_cast<uint8_t>(passes);
      for (int p = 0; p < m_ports; ++p) {
        set_bits(v.in_active_i, p * CW, CW, in_active[p]);
        set_bits(v.out_active_i, p * CW, CW, out_active[p]);
      }
      v.eval();
      m_fall_pending = false;
      m_settled = !m_requests;
    }
    if (m_requests) read_grants(v, VV, PW, VW, GW, m_grants);
    // The pointers the grant orders read, as the registers hold them now.
    for (int p = 0; p < m_ports; ++p) {
      m_vc_ptr[static_cast<size_t>(p)] = static_cast<uint8_t>(get_bits(v.in_ptr_o, p * VW, VW));
      if constexpr (KIND == AllocatorKind::Islip)
        m_acc_ptr[static_cast<size_t>(p)] = static_cast<uint8_t>(get_bits(v.accept_ptr_o, p * PW, PW));
    }
    if constexpr (KIND == AllocatorKind::Wavefront) m_diag = (static_cast<int>(v.diag_o) + m_owed) % m_ports;
    m_pending_idle = skip;  // (a skipped evaluation, no request, is its cycle's last)
    m_pending = true;
    m_pending_from = m_cycle_pass;
    m_pending_grants = !m_grants.empty();
    m_cycle_pass += passes;
  }
  const std::vector<RtlGrant>& grants() const override { return m_grants; }
  int out_pointer(int) const override { return 0; }  // (the separable allocator's order only)
  int max_passes(int from) const override { return KIND == AllocatorKind::Islip && from > 0 ? 1 : ITERS; }
  void order_pass(int k, std::vector<RtlGrant>& g) override {
    const int K = m_ports;
    auto nd_of = [this](int ip) {
      return ip == m_cfg.rr_all ? m_cfg.vcs[static_cast<size_t>(ip)] : m_cfg.data_vcs[static_cast<size_t>(ip)];
    };
    auto data = [this](const RtlGrant& r) -> uint64_t { return r.in_vc < m_cfg.data_vcs[r.in_port] ? 1 : 0; };  // 0: control, first
    auto rank = [&](const RtlGrant& r) {  // the position in the input port's order
      const int nd = nd_of(r.in_port), nv = m_cfg.vcs[r.in_port], v = r.in_vc;
      return v >= nd ? v - nd : (nv - nd) + (v - m_vc_ptr[r.in_port] + nd) % nd;
    };
    auto key = [&](const RtlGrant& r) -> uint64_t {
      if constexpr (KIND == AllocatorKind::Wavefront) {
        const uint64_t diag = static_cast<uint64_t>(((r.out_port - r.in_port - m_diag) % K + 2 * K) % K);
        return (data(r) << 32) | (diag << 16) | r.in_port;
      } else if constexpr (KIND == AllocatorKind::Islip) {
        const uint64_t dist = static_cast<uint64_t>((r.out_port - m_acc_ptr[r.in_port] + K) % K);
        return (static_cast<uint64_t>(r.in_port) << 40) | (data(r) << 39) | (dist << 16) |
               static_cast<uint64_t>(rank(r));
      } else {
        return (static_cast<uint64_t>(r.in_port) << 16) | static_cast<uint64_t>(rank(r));
      }
    };
    std::sort(g.begin(), g.end(), [&](const RtlGrant& x, const RtlGrant& y) { return key(x) < key(y); });
    // The pointers the next pass's order reads, moved as the C++ part moves them.
    if (KIND == AllocatorKind::Islip && k > 0) return;
    for (const RtlGrant& r : g) {
      if constexpr (KIND == AllocatorKind::Islip)
        m_acc_ptr[r.in_port] = static_cast<uint8_t>((r.out_port + 1) % K);
      const int nd = nd_of(r.in_port);
      if (r.in_vc < nd) m_vc_ptr[r.in_port] = static_cast<uint8_t>((r.in_vc + 1) % nd);
    }
  }
  void end_cycle() override {
    m_cycle_ended = true;
    m_cycle_pass = 0;
  }

 private:
  // The rising edge. The clock falls in the next evaluation (nothing happens on it), or
  // here before the next rise if no evaluation came between (a skipped one: the model
  // would not see the rise).
  void edge() {
    if (m_fall_pending) m_v->eval();
    m_v->clk_i = 1;
    m_v->eval();
    m_v->clk_i = 0;
    m_fall_pending = true;
  }

  std::unique_ptr<V> m_v;
  AllocatorConfig m_cfg;
  bool m_fall_pending = false;    // the clock's fall not yet evaluated
  int m_ports;
  bool m_pending = false;         // an evaluation whose edge is still to come (at begin())
  int m_pending_from = 0;         // the cycle's pass that evaluation started at
  bool m_pending_grants = false;  // it granted something
  bool m_pending_idle = false;    // it had no request and was not evaluated
  int m_owed = 0;                 // the wavefront: idle cycles' moves of D not yet loaded
  bool m_cycle_ended = true;      // end_cycle() since that evaluation: its edge is the cycle's
  int m_cycle_pass = 0;           // passes evaluated so far this cycle
  int m_diag = 0;                 // the wavefront's D at the evaluation
  bool m_requests = false;        // this evaluation has a request
  bool m_settled = true;          // the last model evaluation had none (reset: none)
  std::vector<uint8_t> m_vc_ptr, m_acc_ptr;
  std::vector<RtlGrant> m_grants;
};

// The Verilated allocator instances (CMakeLists.txt), smallest first per allocator.
struct AllocModel {
  AllocatorKind kind;
  int ports, vcs, cap;
  std::unique_ptr<AllocatorBlock> (*make)(const AllocatorConfig&, const std::string&);
};
template <class V, int P, int VV, int CAP, int ITERS>
std::unique_ptr<AllocatorBlock> make_alloc(const AllocatorConfig& c, const std::string& name) {
  return std::make_unique<RtlAllocator<V, P, VV, CAP, ITERS>>(c, name);
}
template <class V, AllocatorKind KIND, int P, int VV, int CAP, int ITERS>
std::unique_ptr<AllocatorBlock> make_variant(const AllocatorConfig& c, const std::string& name) {
  return std::make_unique<RtlVariantAllocator<V, KIND, P, VV, CAP, ITERS>>(c, name);
}
constexpr AllocatorKind kSepIn = AllocatorKind::SeparableInput, kSepOut = AllocatorKind::SeparableOutput,
                        kWave = AllocatorKind::Wavefront, kIslip = AllocatorKind::Islip;
const AllocModel kAllocModels[] = {
    {kSepIn, 4, 2, 2, make_alloc<Vsep_allocator_r4v2, 4, 2, 2, 3>},
    {kSepIn, 8, 4, 4, make_alloc<Vsep_allocator_r8v4, 8, 4, 4, 2>},
    {kSepIn, 16, 4, 4, make_alloc<Vsep_allocator_r16v4, 16, 4, 4, 3>},
    {kSepIn, 64, 2, 2, make_alloc<Vsep_allocator_r64v2, 64, 2, 2, 2>},
    {kSepOut, 4, 2, 2, make_variant<Valloc_output_first_r4v2, kSepOut, 4, 2, 2, 3>},
    {kSepOut, 8, 4, 4, make_variant<Valloc_output_first_r8v4, kSepOut, 8, 4, 4, 2>},
    {kSepOut, 16, 4, 4, make_variant<Valloc_output_first_r16v4, kSepOut, 16, 4, 4, 3>},
    {kSepOut, 64, 2, 2, make_variant<Valloc_output_first_r64v2, kSepOut, 64, 2, 2, 2>},
    {kWave, 4, 2, 2, make_variant<Valloc_wavefront_r4v2, kWave, 4, 2, 2, 3>},
    {kWave, 8, 4, 4, make_variant<Valloc_wavefront_r8v4, kWave, 8, 4, 4, 2>},
    {kWave, 16, 4, 4, make_variant<Valloc_wavefront_r16v4, kWave, 16, 4, 4, 3>},
    {kWave, 64, 2, 2, make_variant<Valloc_wavefront_r64v2, kWave, 64, 2, 2, 2>},
    {kIslip, 4, 2, 2, make_variant<Valloc_islip_r4v2, kIslip, 4, 2, 2, 3>},
    {kIslip, 8, 4, 4, make_variant<Valloc_islip_r8v4, kIslip, 8, 4, 4, 2>},
    {kIslip, 16, 4, 4, make_variant<Valloc_islip_r16v4, kIslip, 16, 4, 4, 3>},
    {kIslip, 64, 2, 2, make_variant<Valloc_islip_r64v2, kIslip, 64, 2, 2, 2>},
};
const AllocModel* find_alloc(AllocatorKind kind, int ports, int vcs, int cap) {
  for (const auto& m : kAllocModels)
    if (m.kind == kind && ports <= m.ports && vcs <= m.vcs && cap <= m.cap) return &m;
  return nullptr;
}

// --- One switch port's flow control: Verilated C++ model in process, one per port ---------
// VV VCs (the instance's V); the switch's port may have fewer (the rest idle: cap 0).
template <class V, int VV>
class RtlFlowControl final : public FlowControlBlock {
  static constexpr int CB = kCreditBits, UB = kCreditBits + 1, LB = kCreditLandBits;

 public:
  RtlFlowControl(const std::vector<uint32_t>& cap, uint32_t xoff_at, uint32_t xon_at, const std::string& name)
      : m_v(new V(Verilated::threadContextp(), name.c_str())), m_n(static_cast<int>(cap.size())) {
    V& v = *m_v;
    for (int c = 0; c < VV; ++c) {
      set_bits(v.cap_i, c * CB, CB, c < m_n ? cap[static_cast<size_t>(c)] : 0);
      set_bits(v.land_i, c * LB, LB, 0);
      set_bits(v.phits_i, c * CB, CB, 0);
      set_bits(v.spend_i, c * CB, CB, 0);
      set_bits(v.occ_i, c * CB, CB, 0);
    }
    v.fill_i = 0;
    v.drain_i = 0;
    v.xoff_at_i = xoff_at;
    v.xon_at_i = xon_at;
    reset(v);
  }
  ~RtlFlowControl() override { m_v->final(); }
  int vcs() const override { return VV; }
  void land(int c, uint32_t n) override {
    set_bits(m_v->land_i, c * LB, LB, n);
    m_dirty = true;
  }
  // occ_i is the occupancy at the cycle's start: before this filing, or before this drain
  // and after no filing (a filing set it already).
  void fill(int c, uint32_t occ) override {
    set_bits(m_v->occ_i, c * CB, CB, occ - 1);
    set_bits(m_v->fill_i, c, 1, 1);
    m_dirty = true;
  }
  void drain(int c, uint32_t occ) override {
    if (!get_bits(m_v->fill_i, c, 1)) set_bits(m_v->occ_i, c * CB, CB, occ + 1);
    set_bits(m_v->drain_i, c, 1, 1);
    m_dirty = true;
  }
  void evaluate() override {
    if (m_dirty) m_v->eval();  // else its outputs settled at the last edge
  }
  int64_t credits(int c) const override { return get_bits(m_v->credits_o, c * UB, UB); }
  bool overflow(int c) const override { return get_bits(m_v->overflow_o, c, 1) != 0; }
  bool pause(int c) const override { return get_bits(m_v->pause_o, c, 1) != 0; }
  bool resume(int c) const override { return get_bits(m_v->resume_o, c, 1) != 0; }
  void edge(const uint32_t* spend) override {
    V& v = *m_v;
    bool any = m_dirty;
    for (int c = 0; c < m_n; ++c) {
      set_bits(v.spend_i, c * CB, CB, spend[c]);
      any = any || spend[c] != 0;
    }
    if (!any) return;  // nothing landed, spent, filed or left: the registers hold, the nets settled
    // One evaluation for the spends and the edge: Verilator settles the logic on changed
    // inputs (its ico region) before it triggers on the clock.
    v.clk_i = 1;
    v.eval();
    v.clk_i = 0;
    for (int c = 0; c < m_n; ++c) {
      set_bits(v.spend_i, c * CB, CB, 0);
      set_bits(v.land_i, c * LB, LB, 0);
    }
    v.fill_i = 0;
    v.drain_i = 0;
    v.eval();  // the next cycle's outputs with no landing yet (what the VCD samples)
    m_dirty = false;
  }
  bool xoff(int c) const override { return get_bits(m_v->xoff_o, c, 1) != 0; }

 private:
  std::unique_ptr<V> m_v;
  int m_n;               // the port's VCs (<= VV)
  bool m_dirty = false;  // a landing, filing or drain this cycle
};

}  // namespace

std::unique_ptr<FlowControlBlock> make_rtl_flow_control(const std::vector<uint32_t>& cap, uint32_t xoff_at,
                                                        uint32_t xon_at, const std::string& name) {
  if (cap.empty() || cap.size() > static_cast<size_t>(kMaxPortVcs))
    throw std::invalid_argument("the RTL flow control holds 1-" + std::to_string(kMaxPortVcs) + " VCs per port, not " +
                                std::to_string(cap.size()));
  if (cap.size() <= 4) return std::make_unique<RtlFlowControl<Vflow_control_v4, 4>>(cap, xoff_at, xon_at, name);
  return std::make_unique<RtlFlowControl<Vflow_control_v16, 16>>(cap, xoff_at, xon_at, name);
}

namespace {

// --- One switch port's link arbiter: Verilated C++ model in process, one per port ---------
template <class V>
class RtlLinkArbiter final : public LinkArbiterBlock {
 public:
  RtlLinkArbiter(int nv, int nd, const std::string& name) : m_v(new V(Verilated::threadContextp(), name.c_str())) {
    V& v = *m_v;
    v.nv_i = static_cast<uint8_t>(nv);
    v.nd_i = static_cast<uint8_t>(nd);
    v.ready_i = 0;
    v.arb_i = 0;
    reset(v);
  }
  ~RtlLinkArbiter() override { m_v->final(); }
  int pick(uint32_t ready) override {
    V& v = *m_v;
    v.ready_i = static_cast<std::remove_reference_t<decltype(v.ready_i)>>(ready);
    v.arb_i = 1;
    v.eval();
    const int vc = v.valid_o ? static_cast<int>(v.vc_o) : -1;
    // The edge (the pointer past a data VC taken), then the nets as the next cycle's start
    // shows them: nothing asked.
    v.clk_i = 1;
    v.eval();
    v.clk_i = 0;
    v.arb_i = 0;
    v.ready_i = 0;
    v.eval();
    return vc;
  }
  int pointer() const override { return static_cast<int>(m_v->rr_o); }

 private:
  std::unique_ptr<V> m_v;
};

}  // namespace

std::unique_ptr<LinkArbiterBlock> make_rtl_link_arbiter(int nv, int nd, const std::string& name) {
  if (nv < 1 || nv > kMaxPortVcs || nd < 1 || nd > nv)
    throw std::invalid_argument("the RTL link arbiter holds 1-" + std::to_string(kMaxPortVcs) +
                                " VCs per port with 1 <= data VCs <= VCs, not " + std::to_string(nv) + " and " +
                                std::to_string(nd));
  if (nv <= 4) return std::make_unique<RtlLinkArbiter<Vlink_arbiter_v4>>(nv, nd, name);
  return std::make_unique<RtlLinkArbiter<Vlink_arbiter_v16>>(nv, nd, name);
}

bool rtl_available() { return true; }

bool rtl_allocator_fits(int ports, int vcs, int cap, AllocatorKind kind) {
  return find_alloc(kind, ports, vcs, cap) != nullptr;
}

std::string rtl_allocator_limits(AllocatorKind kind) {
  // The instances no other of the kind holds (the largest in some dimension).
  std::vector<const AllocModel*> top;
  for (const auto& x : kAllocModels) {
    if (x.kind != kind) continue;
    bool held = false;
    for (const auto& y : kAllocModels)
      held = held || (&y != &x && y.kind == kind && x.ports <= y.ports && x.vcs <= y.vcs && x.cap <= y.cap);
    if (!held) top.push_back(&x);
  }
  std::string s;
  for (const AllocModel* m : top)
    s += (s.empty() ? "" : ", or ") + std::to_string(m->ports) + " ports (internal ones included), " +
         std::to_string(m->vcs) + " VCs per port, " + std::to_string(m->cap) + " connections per port";
  return s;
}

std::unique_ptr<AllocatorBlock> make_rtl_allocator(const AllocatorConfig& c, const std::string& name,
                                                   AllocatorKind kind) {
  int vcs = 0;
  for (uint8_t n : c.vcs) vcs = std::max(vcs, static_cast<int>(n));
  const AllocModel* m = find_alloc(kind, c.inputs, vcs, c.conn_cap);
  if (!m)
    throw std::invalid_argument(std::string("the RTL allocator (") + to_string(kind) + ") holds " +
                                rtl_allocator_limits(kind) + ", not " + std::to_string(c.inputs) + " ports, " +
                                std::to_string(vcs) + " VCs and " + std::to_string(c.conn_cap) + " connections");
  return m->make(c, name);
}

int rtl_ft_lookup_rows(int entries) {
  const FtModel* m = find_ft(entries);
  return m ? m->rows : 0;
}

std::shared_ptr<FtBlock> make_rtl_ft_lookup(const ForwardingTable& t, const Dragonfly& topo, const std::string& name) {
  const FtModel* m = find_ft(t.size());
  if (!m)
    throw std::invalid_argument("the RTL forwarding table holds " + std::to_string(kFtEntriesMax) + " entries, not " +
                                std::to_string(t.size()));
  if (topo.num_switches() > (1 << kFtSwitchBits) - 1 || topo.g() > (1 << kFtGroupBits) - 1 ||
      topo.radix() > (1 << kFtPortBits) - 1)
    throw std::invalid_argument("the RTL forwarding table holds " + std::to_string((1 << kFtSwitchBits) - 1) +
                                " switches, " + std::to_string((1 << kFtGroupBits) - 1) + " groups and radix " +
                                std::to_string((1 << kFtPortBits) - 1));
  return m->make(t, topo, name);
}

std::unique_ptr<QcnCpBlock> make_rtl_qcn_cp(const QcnParams& q, const std::vector<uint32_t>& qeq,
                                            const std::string& name) {
  if (qeq.empty() || qeq.size() > static_cast<size_t>(kQcnPortsMax))
    throw std::invalid_argument("the RTL QCN congestion points hold 1-" + std::to_string(kQcnPortsMax) +
                                " transit ports, not " + std::to_string(qeq.size()));
  for (uint32_t e : qeq)
    if (e < 1 || e > kQueueMax)
      throw std::invalid_argument("the RTL QCN congestion points hold Q_eq in [1, " + std::to_string(kQueueMax) +
                                  "] phits, not " + std::to_string(e));
  if (q.w > 64 || q.cpc < 1 || q.cpc > (1u << kQcnCpcBits) - 1 || q.cnm_percent > 100)
    throw std::invalid_argument("the RTL QCN congestion points hold w <= 64, CPC in [1, " +
                                std::to_string((1u << kQcnCpcBits) - 1) + "] and %CNM <= 100");
  return std::make_unique<RtlQcnCp>(q, qeq, name);
}

std::unique_ptr<QcnPortBlock> make_rtl_qcn_port_prob(const QcnParams& q, int ports, const std::string& name) {
  if (ports < 1 || ports > kQcnPortsMax)
    throw std::invalid_argument("the RTL QCN port-probability unit holds 1-" + std::to_string(kQcnPortsMax) +
                                " transit ports, not " + std::to_string(ports));
  if (q.lf_den < 1 || q.lf_den > (1u << kQcnDenBits) - 1 || q.pc_limit < 1 ||
      q.pc_limit > (1u << kQcnCntBits) - 1 || q.pi > kQcnMax || q.p_min > kQcnMax || q.th1 > kQcnFbMax ||
      q.th2 > kQcnFbMax)
    throw std::invalid_argument("the RTL QCN port-probability unit holds D <= " +
                                std::to_string((1u << kQcnDenBits) - 1) + ", PC_l <= " +
                                std::to_string((1u << kQcnCntBits) - 1) + ", PI and P_min <= 100 % and Th <= 63");
  return std::make_unique<RtlQcnPortProb>(q, ports, name);
}

std::unique_ptr<QuadrantBlock> make_rtl_quadrant(const Torus& t, const std::string& name) {
  if (t.k() > kCoordMax)
    throw std::invalid_argument("the RTL quadrant selector holds coordinates of " + std::to_string(kCoordBits) +
                                " bits (k <= " + std::to_string(kCoordMax) + "), not k = " + std::to_string(t.k()));
  switch (t.n()) {
    case 1: return std::make_unique<RtlQuadrant<Vquadrant_sel_n1>>(t, name);
    case 2: return std::make_unique<RtlQuadrant<Vquadrant_sel_n2>>(t, name);
    case 3: return std::make_unique<RtlQuadrant<Vquadrant_sel_n3>>(t, name);
    case 4: return std::make_unique<RtlQuadrant<Vquadrant_sel_n4>>(t, name);
    case 5: return std::make_unique<RtlQuadrant<Vquadrant_sel_n5>>(t, name);
    case 6: return std::make_unique<RtlQuadrant<Vquadrant_sel_n6>>(t, name);
    default: break;
  }
  throw std::invalid_argument("the RTL quadrant selector is Verilated for n = 1.." + std::to_string(kTorusMaxDims) +
                              ", not n = " + std::to_string(t.n()));
}

std::unique_ptr<GalThresholdBlock> make_rtl_gal_threshold(const GalThresholdParams& p, const std::string& name) {
  if (p.n1 < 1 || p.n1 > static_cast<uint32_t>(kGalN1Max) || p.n2 < 1 || p.n2 > kGalN2Max || p.t0 > kGalTMax ||
      p.t_min > kGalTMax || p.t_max > kGalTMax)
    throw std::invalid_argument("the RTL GAL threshold controller holds n1 in [1, " + std::to_string(kGalN1Max) +
                                "], n2 in [1, " + std::to_string(kGalN2Max) + "] and thresholds up to " +
                                std::to_string(kGalTMax));
  return std::make_unique<RtlGalThreshold>(p, name);
}

// The shapes min_route.sv's widths hold (widths.def Mr*; the assertions of min_route.sv).
bool rtl_min_route_supports(const DragonflyShape& s) {
  if (s.arrangement != Arrangement::Palmtree && s.arrangement != Arrangement::Absolute) return false;
  if (s.p < 1 || s.a < 1 || s.h < 1 || s.g < 2) return false;
  if (s.g > (1 << kMrGroupBits) - 1 || s.a > (1 << kMrIndexBits) - 1 || s.p + s.a - 1 + s.h > (1 << kMrPortBits) - 1)
    return false;
  const int64_t links = int64_t{s.a} * s.h;
  if (s.arrangement == Arrangement::Palmtree) return links == s.g - 1;
  return links % (s.g - 1) == 0 && links / (s.g - 1) <= kMrLinksMax;
}

std::string rtl_min_route_shapes() {
  return "palmtree or absolute dfly(p,a,h,g) with g <= " + std::to_string((1 << kMrGroupBits) - 1) +
         ", a <= " + std::to_string((1 << kMrIndexBits) - 1) + ", p + a - 1 + h <= " +
         std::to_string((1 << kMrPortBits) - 1) + " and, absolute, a*h/(g-1) <= " + std::to_string(kMrLinksMax) +
         " links between two groups";
}

std::unique_ptr<MinHopBlock> make_rtl_min_route(const Dragonfly& t, const std::string& name) {
  if (!rtl_min_route_supports(t.shape()))
    throw std::invalid_argument("min_route.sv holds " + rtl_min_route_shapes() + ", not " + t.describe());
  return std::make_unique<RtlMinRoute>(t, name);
}

std::unique_ptr<SelectionBlocks> make_rtl_selection_blocks(const std::string& name) {
  return std::make_unique<RtlSelection>(name);
}


bool rtl_pb_supports(int h) { return h >= 1 && h <= kPbPortsMax; }

std::unique_ptr<PbDetectorBlock> make_rtl_pb_detector(int h, uint32_t cg, uint32_t tg,
                                                      std::function<void(const uint32_t*)> on_flags,
                                                      const std::string& name) {
  if (!rtl_pb_supports(h))
    throw std::invalid_argument("pb_sat_detector.sv holds " + rtl_pb_widths() + " global ports, not h = " +
                                std::to_string(h));
  if (cg > kCgMax || tg > kTgMax)
    throw std::invalid_argument("pb_sat_detector.sv holds C_g <= " + std::to_string(kCgMax) + " and T_g <= " +
                                std::to_string(kTgMax));
  return std::make_unique<RtlPbDetector>(name, h, cg, tg, std::move(on_flags));
}

std::string rtl_pb_widths() { return "h = 1.." + std::to_string(kPbPortsMax); }

std::unique_ptr<LevelCtrl> make_rtl_level_ctrl(const AcorLevelParams& p, const std::string& name) {
  return std::make_unique<RtlLevelCtrl>(p, name);
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
