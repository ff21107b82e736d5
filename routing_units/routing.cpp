#include "routing_units/routing.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "routing_units/acor.h"
#include "routing_units/forwarding_table.h"
#include "routing_units/minimal.h"
#include "routing_units/valiant.h"

namespace scfly {

const char* to_string(RoutingAlgo r) {
  switch (r) {
    case RoutingAlgo::Min: return "min";
    case RoutingAlgo::Val: return "val";
    case RoutingAlgo::AcorPacket: return "acor-packet";
    case RoutingAlgo::AcorSwitch: return "acor-switch";
    case RoutingAlgo::UgalL: return "ugal-l";
    case RoutingAlgo::UgalG: return "ugal-g";
    case RoutingAlgo::Par: return "par";
    case RoutingAlgo::Pb: return "pb";
    case RoutingAlgo::PbAcor: return "pb-acor";
    case RoutingAlgo::MinTable: return "min-table";
    case RoutingAlgo::MinCond: return "min-cond";
    case RoutingAlgo::Dor: return "dor";
    case RoutingAlgo::MinAd: return "min-ad";
    case RoutingAlgo::Goal: return "goal";
    case RoutingAlgo::Gal: return "gal";
    case RoutingAlgo::TugalL: return "t-ugal-l";
    case RoutingAlgo::TugalG: return "t-ugal-g";
    case RoutingAlgo::TPar: return "t-par";
    case RoutingAlgo::Chaos: return "chaos";
  }
  return "?";
}

bool routes_dragonfly(RoutingAlgo r) {
  return r != RoutingAlgo::Dor && r != RoutingAlgo::MinAd && r != RoutingAlgo::Goal && r != RoutingAlgo::Gal &&
         r != RoutingAlgo::Chaos;
}

bool routes_torus(RoutingAlgo r, bool mesh) {
  switch (r) {
    case RoutingAlgo::Dor:
    case RoutingAlgo::Val:
    case RoutingAlgo::MinAd:
    case RoutingAlgo::Chaos: return true;
    case RoutingAlgo::Goal:
    case RoutingAlgo::Gal: return !mesh;  // a mesh has no non-minimal quadrant
    default: return false;
  }
}

namespace {
TorusAlgo torus_algo(RoutingAlgo r) {
  switch (r) {
    case RoutingAlgo::Val: return TorusAlgo::Val;
    case RoutingAlgo::MinAd: return TorusAlgo::MinAd;
    case RoutingAlgo::Goal: return TorusAlgo::Goal;
    case RoutingAlgo::Gal: return TorusAlgo::Gal;
    case RoutingAlgo::Chaos: return TorusAlgo::Chaos;
    default: return TorusAlgo::Dor;
  }
}
}  // namespace

int required_link_vcs(RoutingAlgo r, bool mesh) { return torus_required_vcs(torus_algo(r), mesh); }

bool parse_routing(const std::string& s, RoutingAlgo& out) {
  for (RoutingAlgo r : {RoutingAlgo::Min, RoutingAlgo::Val, RoutingAlgo::AcorPacket, RoutingAlgo::AcorSwitch,
                        RoutingAlgo::UgalL, RoutingAlgo::UgalG, RoutingAlgo::Par, RoutingAlgo::Pb,
                        RoutingAlgo::PbAcor, RoutingAlgo::MinTable, RoutingAlgo::MinCond, RoutingAlgo::Dor,
                        RoutingAlgo::MinAd, RoutingAlgo::Goal, RoutingAlgo::Gal, RoutingAlgo::TugalL,
                        RoutingAlgo::TugalG, RoutingAlgo::TPar, RoutingAlgo::Chaos})
    if (s == to_string(r)) {
      out = r;
      return true;
    }
  return false;
}

const char* routing_choices() {
  return "min, val, acor-packet, acor-switch, ugal-l, ugal-g, par, pb, pb-acor, min-table, min-cond, t-ugal-l, t-ugal-g, "
         "t-par (Dragonfly); "
         "dor, val, min-ad, goal, gal, chaos (torus; goal and gal not on a mesh)";
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

bool uses_level_ctrl(RoutingAlgo r) { return r == RoutingAlgo::AcorSwitch || r == RoutingAlgo::PbAcor; }

bool is_adaptive(RoutingAlgo r) {
  return r == RoutingAlgo::UgalL || r == RoutingAlgo::UgalG || r == RoutingAlgo::Par || is_tugal(r) || uses_sat_flags(r) ||
         r == RoutingAlgo::MinAd || r == RoutingAlgo::Goal || r == RoutingAlgo::Gal || r == RoutingAlgo::Chaos;
}

bool uses_sat_flags(RoutingAlgo r) { return r == RoutingAlgo::Pb || r == RoutingAlgo::PbAcor; }

VcBudget required_vcs(RoutingAlgo r) {
  switch (r) {
    case RoutingAlgo::Min:
    case RoutingAlgo::MinTable: return {2, 1};
    case RoutingAlgo::Val:
    case RoutingAlgo::AcorPacket:
    case RoutingAlgo::AcorSwitch:
    case RoutingAlgo::UgalL:
    case RoutingAlgo::UgalG:
    case RoutingAlgo::TugalL:
    case RoutingAlgo::TugalG:
    case RoutingAlgo::Pb:
    case RoutingAlgo::PbAcor: return {4, 2};
    case RoutingAlgo::Par:
    case RoutingAlgo::TPar: return {5, 2};
    case RoutingAlgo::MinCond: return {3, 2};
    case RoutingAlgo::Dor:
    case RoutingAlgo::MinAd:
    case RoutingAlgo::Goal:
    case RoutingAlgo::Gal:
    case RoutingAlgo::Chaos: return {};  // torus only: required_link_vcs
  }
  return {};
}

RoutingUnit::RoutingUnit(RoutingAlgo algo, const Topology& topo, const RoutingParams& prm)
    : m_algo(algo), m_any(&topo), m_prm(prm) {
  m_topo = dynamic_cast<const Dragonfly*>(&topo);
  m_torus = dynamic_cast<const Torus*>(&topo);
  if (m_topo ? !routes_dragonfly(algo) : !(m_torus && routes_torus(algo, m_torus->mesh())))
    throw std::invalid_argument(std::string("routing ") + to_string(algo) + " does not route on " + topo.describe());
  m_torus_algo = torus_algo(algo);
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
  return false;
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

RouteDecision RoutingUnit::route_control(int sw, RouteHeader& h, Rng& rng) const {
  if (m_torus) {
    if (sw == h.dst_switch) return RouteDecision{static_cast<int16_t>(m_torus->host_port(h.dst_host)), 0};
    int cls = 0;
    const int port = torus_dor_port(*m_torus, sw, h.dst_switch, h, rng, cls);
    return RouteDecision{static_cast<int16_t>(port), static_cast<uint8_t>(cls)};
  }
  return route_min(*m_topo, sw, h, rng);
}

RouteCandidates RoutingUnit::route_torus_candidates(int sw, int in_port, RouteHeader& h, Rng& rng,
                                                    const RouteContext& ctx) const {
  static const SwitchLoad kNone{};
  const SwitchLoad& load = ctx.view ? ctx.view->local : kNone;
  // CHAOS keeps no path state in the header (each hop is minimal from where the packet is),
  // and its multiqueue heads are routed from the switch's internal port (radix).
  if (m_torus_algo == TorusAlgo::Chaos) return route_chaos(*m_torus, sw, h, rng, load, m_prm.link_vcs, ctx.deroute);
  torus_arrive(*m_torus, sw, in_port, h);
  return route_torus(m_torus_algo, *m_torus, sw, in_port, h, rng, load, m_prm.link_vcs);
}

RouteDecision RoutingUnit::route(int sw, int in_port, RouteHeader& h, Rng& rng,
                                 const RouteContext& ctx) const {
  if (m_torus) {
    const RouteCandidates c = route_torus_candidates(sw, in_port, h, rng, ctx);
    return c.n ? RouteDecision{c.c[0].port, c.c[0].vc_lo} : RouteDecision{};
  }
  switch (m_algo) {
    case RoutingAlgo::Min: return route_min(*m_topo, sw, h, rng);
    case RoutingAlgo::MinTable:
    case RoutingAlgo::MinCond: {
      (void)sw;
      if (!ctx.table) return {};  // no table given: the switch reports a routing failure
      return ctx.table->lookup(in_port, h, rng);
    }
    case RoutingAlgo::Val:
      return route_val(*m_topo, sw, in_port, h, rng, m_prm.val.policy, m_prm.val.restricted);
    case RoutingAlgo::AcorPacket:
    case RoutingAlgo::AcorSwitch: {
      const int level = m_algo == RoutingAlgo::AcorPacket
                            ? acor_packet_level(ctx.attempt, m_levels)
                            : std::min<int>(ctx.switch_level, m_levels - 1);
      return route_val(*m_topo, sw, in_port, h, rng, m_seq[level], true);
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
      return route_adaptive(*m_topo, sw, in_port, h, rng, ap, ctx.view ? *ctx.view : kNone);
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
