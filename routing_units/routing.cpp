#include "routing_units/routing.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "routing_units/acor.h"
#include "routing_units/forwarding_table.h"
#include "routing_units/minimal.h"
#include "routing_units/valiant.h"
#include "rtl_models/switch/switch_unit.h"

namespace scfly {

namespace detail {

// scfly's own mechanisms, one row each, in RoutingAlgo order (registry.h). The rule, signal
// and VC use per hop of each are in its header (minimal.h, valiant.h, acor.h, ugal.h,
// min_cond.h, torus_routing.h); `vcs` is the hop-slot VC budget those headers derive.
std::vector<RoutingMechanism> builtin_routings() {
  struct Row {
    RoutingAlgo algo;
    const char* name;
    const char* doc;
    bool dfly, torus, mesh;
    VcBudget vcs;
    TorusAlgo t;
    bool adaptive, level_ctrl, sat_flags, global_load;
  };
  using R = RoutingAlgo;
  using T = TorusAlgo;
  const Row rows[] = {
      {R::Min, "min", "minimal", true, false, false, {2, 1}, T::Dor, false, false, false, false},
      {R::Val, "val", "Valiant (Dragonfly: misrouting policies, restricted, recomputation; torus: its torus form)",
       true, true, true, {4, 2}, T::Val, false, false, false, false},
      {R::AcorPacket, "acor-packet", "ACOR-Packet: the misrouting policy by the head's blocked attempts", true, false,
       false, {4, 2}, T::Dor, false, false, false, false},
      {R::AcorSwitch, "acor-switch", "ACOR-Switch: the misrouting policy by the switch's hysteresis level", true,
       false, false, {4, 2}, T::Dor, false, true, false, false},
      {R::UgalL, "ugal-l", "UGAL-L: minimal or Valiant by local queue x hops", true, false, false, {4, 2}, T::Dor,
       true, false, false, false},
      {R::UgalG, "ugal-g", "UGAL-G: minimal or Valiant by every queue on both paths", true, false, false, {4, 2},
       T::Dor, true, false, false, true},
      {R::Par, "par", "PAR: UGAL-L again at the source group's second switch", true, false, false, {5, 2}, T::Dor,
       true, false, false, false},
      {R::Pb, "pb", "Piggyback: UGAL-L with the group's global-link saturation flags", true, false, false, {4, 2},
       T::Dor, true, false, true, false},
      {R::PbAcor, "pb-acor", "PB-ACOR: Piggyback with ACOR-Switch's misrouting policy", true, false, false, {4, 2},
       T::Dor, true, true, true, false},
      {R::MinTable, "min-table", "MIN by lookup in the conditional forwarding table", true, false, false, {2, 1},
       T::Dor, false, false, false, false},
      {R::MinCond, "min-cond", "MIN-COND: the conditional table with a misroute at injection when N > P", true,
       false, false, {3, 2}, T::Dor, false, false, false, false},
      {R::Dor, "dor", "dimension-order routing", false, true, true, {}, T::Dor, false, false, false, false},
      {R::MinAd, "min-ad", "minimal adaptive (Duato escape VCs)", false, true, true, {}, T::MinAd, true, false,
       false, false},
      {R::Goal, "goal", "GOAL: oblivious quadrant, minimal adaptive inside it", false, true, false, {}, T::Goal,
       true, false, false, false},
      {R::Gal, "gal", "GAL: quadrant by the NIC's injection queues and threshold", false, true, false, {}, T::Gal,
       true, false, false, false},
      {R::TugalL, "t-ugal-l", "T-UGAL: UGAL-L over a T-VLB set", true, false, false, {4, 2}, T::Dor, true, false,
       false, false},
      {R::TugalG, "t-ugal-g", "T-UGAL: UGAL-G over a T-VLB set", true, false, false, {4, 2}, T::Dor, true, false,
       false, true},
      {R::TPar, "t-par", "T-UGAL: PAR over a T-VLB set", true, false, false, {5, 2}, T::Dor, true, false, false,
       false},
      {R::Chaos, "chaos", "the chaotic router: minimal adaptive, random derouting from the multiqueue", false, true,
       true, {}, T::Chaos, true, false, false, false},
  };
  std::vector<RoutingMechanism> out;
  for (const Row& r : rows) {
    if (static_cast<size_t>(r.algo) != out.size()) throw std::logic_error("routing rows out of RoutingAlgo order");
    RoutingMechanism m;
    m.name = r.name;
    m.doc = r.doc;
    m.dragonfly = r.dfly;
    m.torus = r.torus;
    m.mesh = r.mesh;
    m.vcs = r.vcs;
    m.torus_vcs = torus_required_vcs(r.t, false);
    m.mesh_vcs = torus_required_vcs(r.t, true);
    m.adaptive = r.adaptive;
    m.level_ctrl = r.level_ctrl;
    m.sat_flags = r.sat_flags;
    m.global_load = r.global_load;
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace detail

const char* to_string(RoutingAlgo r) { return mechanism(r).name.c_str(); }

bool routes_dragonfly(RoutingAlgo r) { return mechanism(r).dragonfly; }

bool routes_torus(RoutingAlgo r, bool mesh) { return mechanism(r).routes_on(false, mesh); }

namespace {
TorusAlgo torus_algo(RoutingAlgo r) {
  switch (r) {
    case RoutingAlgo::Val: return TorusAlgo::Val;
    case RoutingAlgo::MinAd: return TorusAlgo::MinAd;
    case RoutingAlgo::Goal: return TorusAlgo::Goal;
    case RoutingAlgo::Gal: return TorusAlgo::Gal;
    case RoutingAlgo::Chaos: return TorusAlgo::Chaos;
    default: return TorusAlgo::Dor;  // DOR itself; never read for a mechanism not on a torus, or a plug-in
  }
}
}  // namespace

int required_link_vcs(RoutingAlgo r, bool mesh) {
  const RoutingMechanism& m = mechanism(r);
  return mesh ? m.mesh_vcs : m.torus_vcs;
}

int required_link_vcs(RoutingAlgo r, TopologyKind k) {
  const RoutingMechanism& m = mechanism(r);
  return k == TopologyKind::Torus ? m.torus_vcs : k == TopologyKind::Mesh ? m.mesh_vcs : m.link_vcs;
}

bool parse_routing(const std::string& s, RoutingAlgo& out) {
  const RoutingMechanism* m = find_routing(s);
  if (!m) return false;
  out = algo_of(*m);
  return true;
}

std::string routing_names(bool dragonfly, bool mesh, bool last_or) {
  return routing_names(dragonfly ? TopologyKind::Dragonfly : mesh ? TopologyKind::Mesh : TopologyKind::Torus, last_or);
}

std::string routing_names(TopologyKind k, bool last_or) {
  std::vector<std::string> names;
  for (const RoutingMechanism* m : routing_mechanisms())
    if (m->routes_on(k)) names.push_back(m->name);
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) out += last_or && i + 1 == names.size() ? " or " : ", ";
    out += names[i];
  }
  return out;
}

std::string routing_choices() {
  std::string s = "Dragonfly: " + routing_names(true, false) + "; torus: " + routing_names(false, false) +
                  "; mesh: " + routing_names(false, true);
  for (const TopologyPlugin* p : topology_plugins()) {
    const std::string names = routing_names(kind_of(*p));
    s += "; " + p->name + ": " + (names.empty() ? "none registered" : names);
  }
  return s;
}

const char* to_string(AcorSequence s) {
  switch (s) {
    case AcorSequence::TwoLevelA: return "2la";
    case AcorSequence::TwoLevelB: return "2lb";
    case AcorSequence::ThreeLevel: return "3l";
  }
  return "?";
}

bool parse_sequence(const std::string& s, AcorSequence& out) {
  for (AcorSequence q : {AcorSequence::TwoLevelA, AcorSequence::TwoLevelB, AcorSequence::ThreeLevel})
    if (s == to_string(q)) {
      out = q;
      return true;
    }
  return false;
}

int sequence_policies(AcorSequence s, Misroute out[3]) {
  switch (s) {
    case AcorSequence::TwoLevelA:
      out[0] = Misroute::CrgGr;
      out[1] = Misroute::RrgSw;
      return 2;
    case AcorSequence::TwoLevelB:
      out[0] = Misroute::CrgSw;
      out[1] = Misroute::RrgSw;
      return 2;
    case AcorSequence::ThreeLevel:
      out[0] = Misroute::CrgGr;
      out[1] = Misroute::CrgSw;
      out[2] = Misroute::RrgSw;
      return 3;
  }
  return 0;
}

bool uses_level_ctrl(RoutingAlgo r) { return mechanism(r).level_ctrl; }

bool is_adaptive(RoutingAlgo r) { return mechanism(r).adaptive; }

bool uses_sat_flags(RoutingAlgo r) { return mechanism(r).sat_flags; }

VcBudget required_vcs(RoutingAlgo r) {
  const RoutingMechanism& m = mechanism(r);
  return m.dragonfly ? m.vcs : VcBudget{};  // torus only: required_link_vcs
}

std::unique_ptr<SwitchUnit> RoutingUnit::make_plugin_unit(int sw) const {
  if (!m_mech->make_unit) return nullptr;
  std::unique_ptr<SwitchUnit> u = m_mech->make_unit(sw, *m_any, m_plugin_keys);
  if (!u)
    throw std::invalid_argument(std::string("routing ") + to_string(m_algo) + ": its unit factory built nothing");
  return u;
}

RoutingUnit::RoutingUnit(RoutingAlgo algo, const Topology& topo, const RoutingParams& prm)
    : m_algo(algo), m_mech(&scfly::mechanism(algo)), m_any(&topo), m_prm(prm) {
  m_topo = dynamic_cast<const Dragonfly*>(&topo);
  m_torus = dynamic_cast<const Torus*>(&topo);
  // On a plug-in topology (neither a Dragonfly nor a torus), a plug-in that names plug-in
  // topologies (the config has checked it names this one).
  if (m_topo ? !routes_dragonfly(algo)
             : m_torus ? !routes_torus(algo, m_torus->mesh()) : !(m_mech->plugin() && !m_mech->topologies.empty()))
    throw std::invalid_argument(std::string("routing ") + to_string(algo) + " does not route on " + topo.describe());
  m_torus_algo = torus_algo(algo);
  if (m_mech->plugin()) {
    RoutingKeyValues keys;
    for (const RoutingKey& k : m_mech->keys) {
      const auto it = prm.plugin.find(plugin_key(*m_mech, k.name));
      keys[k.name] = it == prm.plugin.end() ? k.def : it->second;
    }
    if (prm.plugin_rtl && !m_mech->has_rtl())
      throw std::invalid_argument(std::string("routing ") + to_string(algo) + " has no RTL variant");
    m_plugin = (prm.plugin_rtl ? m_mech->make_rtl : m_mech->make)(topo, keys);
    m_plugin_keys = keys;
    if (!m_plugin)
      throw std::invalid_argument(std::string("routing ") + to_string(algo) + ": its " +
                                  (prm.plugin_rtl ? "RTL " : "") + "factory built nothing");
  }
  m_other = m_torus || m_plugin;
  // torus.dateline traversal: DOR, VAL and MIN AD on a torus only (torus_routing.h; their
  // control frames with them); everything else keeps the wrap rule.
  if (!m_torus || m_torus->mesh() ||
      !(algo == RoutingAlgo::Dor || algo == RoutingAlgo::Val || algo == RoutingAlgo::MinAd))
    m_prm.dateline = TorusDateline::Wrap;
  if (algo == RoutingAlgo::AcorPacket || algo == RoutingAlgo::AcorSwitch || algo == RoutingAlgo::PbAcor) {
    m_levels = sequence_policies(prm.acor.sequence, m_seq);
    m_prm.acor.ctrl.levels = static_cast<uint32_t>(m_levels);
  }
}

bool RoutingUnit::recomputes() const {
  switch (m_algo) {
    case RoutingAlgo::Min:
    case RoutingAlgo::MinTable:
    case RoutingAlgo::MinCond: return false;
    case RoutingAlgo::Val: return m_torus ? false : m_prm.val.recompute;
    case RoutingAlgo::AcorPacket:
    case RoutingAlgo::AcorSwitch: return true;
    case RoutingAlgo::UgalL:
    case RoutingAlgo::UgalG:
    case RoutingAlgo::Par:
    case RoutingAlgo::TugalL:
    case RoutingAlgo::TugalG:
    case RoutingAlgo::TPar: return replays_draws();
    case RoutingAlgo::Pb: return m_torus ? false : m_prm.val.recompute || replays_draws();
    case RoutingAlgo::PbAcor: return true;
    case RoutingAlgo::Dor:
    case RoutingAlgo::MinAd:
    case RoutingAlgo::Goal:
    case RoutingAlgo::Gal:
    case RoutingAlgo::Chaos: return false;
  }
  return m_mech->recomputes;  // a plug-in
}

bool RoutingUnit::replays_draws() const {
  switch (m_algo) {
    case RoutingAlgo::UgalL:
    case RoutingAlgo::UgalG:
    case RoutingAlgo::Par:
    case RoutingAlgo::TugalL:
    case RoutingAlgo::TugalG:
    case RoutingAlgo::TPar: return !m_torus && m_prm.ugal.reevaluate != UgalReeval::Once;
    case RoutingAlgo::Pb: return !m_torus && m_prm.ugal.reevaluate != UgalReeval::Once && !m_prm.val.recompute;
    default: return false;
  }
}

ForwardingTable RoutingUnit::make_table(int sw) const {
  if (m_algo == RoutingAlgo::MinCond) return build_min_cond_table(*m_topo, sw);
  return build_min_table(*m_topo, sw);
}

RouteDecision RoutingUnit::route_control(int sw, RouteHeader& h, Rng& rng, const MinHopBlock* min_hop) const {
  if (m_torus) {
    if (sw == h.dst_switch) return RouteDecision{static_cast<int16_t>(m_torus->host_port(h.dst_host)), 0};
    int cls = 0;
    const int port = torus_dor_port(*m_torus, sw, h.dst_switch, h, rng, cls, m_prm.dateline);
    return RouteDecision{static_cast<int16_t>(port), static_cast<uint8_t>(cls)};
  }
  return route_min(*m_topo, sw, h, rng, min_hop);
}

RouteCandidates RoutingUnit::route_torus_candidates(int sw, int in_port, RouteHeader& h, Rng& rng,
                                                    const RouteContext& ctx) const {
  if (m_plugin) return m_plugin->route(sw, in_port, h, rng, ctx);
  static const SwitchLoad kNone{};
  const SwitchLoad& load = ctx.view ? ctx.view->local : kNone;
  // CHAOS keeps no path state in the header (each hop is minimal from where the packet is),
  // and its multiqueue heads are routed from the switch's internal port (radix).
  if (m_torus_algo == TorusAlgo::Chaos)
    return route_chaos(*m_torus, sw, h, rng, load, m_prm.link_vcs, ctx.deroute, ctx.quadrant);
  torus_arrive(*m_torus, sw, in_port, h);
  return route_torus(m_torus_algo, *m_torus, sw, in_port, h, rng, load, m_prm.link_vcs, ctx.quadrant,
                     m_prm.dateline);
}

RouteDecision RoutingUnit::route(int sw, int in_port, RouteHeader& h, Rng& rng,
                                 const RouteContext& ctx) const {
  if (m_other) {
    const RouteCandidates c = route_torus_candidates(sw, in_port, h, rng, ctx);
    return c.n ? RouteDecision{c.c[0].port, c.c[0].vc_lo} : RouteDecision{};
  }
  switch (m_algo) {
    case RoutingAlgo::Min: return route_min(*m_topo, sw, h, rng, ctx.min_hop);
    case RoutingAlgo::MinTable:
    case RoutingAlgo::MinCond: {
      (void)sw;
      if (!ctx.table) return {};  // no table given: the switch reports a routing failure
      return ctx.table->lookup(in_port, h, rng);
    }
    case RoutingAlgo::Val:
      return route_val(*m_topo, sw, in_port, h, rng, ctx.min_hop, m_prm.val.policy, m_prm.val.restricted);
    case RoutingAlgo::AcorPacket:
    case RoutingAlgo::AcorSwitch: {
      const int level = m_algo == RoutingAlgo::AcorPacket
                            ? acor_packet_level(ctx.attempt, m_levels)
                            : std::min<int>(ctx.switch_level, m_levels - 1);
      return route_val(*m_topo, sw, in_port, h, rng, ctx.min_hop, m_seq[level], true);
    }
    case RoutingAlgo::UgalL:
    case RoutingAlgo::UgalG:
    case RoutingAlgo::Par:
    case RoutingAlgo::TugalL:
    case RoutingAlgo::TugalG:
    case RoutingAlgo::TPar:
    case RoutingAlgo::Pb:
    case RoutingAlgo::PbAcor: {
      AdaptiveParams ap;
      ap.threshold = m_prm.ugal.threshold;
      ap.policy = m_prm.val.policy;
      ap.restricted = m_prm.val.restricted;
      ap.intermediate = m_prm.ugal.intermediate;
      ap.segment_link = m_prm.ugal.segment_link;
      ap.multiplier = m_prm.ugal.multiplier;
      ap.vlb_set = m_prm.ugal.vlb_set;
      ap.vlb_percent = m_prm.ugal.vlb_percent;
      ap.vlb_seed = m_prm.ugal.vlb_seed;
      ap.vlb_removed = m_prm.ugal.removed.get();
      ap.par_set = m_prm.ugal.par_set;
      switch (ugal_base(m_algo)) {
        case RoutingAlgo::UgalG: ap.kind = AdaptiveKind::UgalG; break;
        case RoutingAlgo::Par: ap.kind = AdaptiveKind::Par; break;
        case RoutingAlgo::Pb: ap.kind = AdaptiveKind::Pb; break;
        case RoutingAlgo::PbAcor:
          ap.kind = AdaptiveKind::PbAcor;
          ap.policy = m_seq[std::min<int>(ctx.switch_level, m_levels - 1)];
          ap.restricted = true;
          break;
        default: ap.kind = AdaptiveKind::UgalL; break;
      }
      static const AdaptiveView kNone{};
      return route_adaptive(*m_topo, sw, in_port, h, rng, ap, ctx.view ? *ctx.view : kNone, ctx.min_hop);
    }
    case RoutingAlgo::Dor:
    case RoutingAlgo::MinAd:
    case RoutingAlgo::Goal:
    case RoutingAlgo::Gal:
    case RoutingAlgo::Chaos: break;  // torus only (handled above)
  }
  return {};
}

}  // namespace scfly
