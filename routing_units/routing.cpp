#include "routing_units/routing.h"

#include <algorithm>

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
  }
  return "?";
}

bool parse_routing(const std::string& s, RoutingAlgo& out) {
  for (RoutingAlgo r : {RoutingAlgo::Min, RoutingAlgo::Val, RoutingAlgo::AcorPacket, RoutingAlgo::AcorSwitch,
                        RoutingAlgo::UgalL, RoutingAlgo::UgalG, RoutingAlgo::Par, RoutingAlgo::Pb,
                        RoutingAlgo::PbAcor, RoutingAlgo::MinTable, RoutingAlgo::MinCond})
    if (s == to_string(r)) {
      out = r;
      return true;
    }
  return false;
}

const char* routing_choices() {
  return "min, val, acor-packet, acor-switch, ugal-l, ugal-g, par, pb, pb-acor, min-table, min-cond";
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
  return r == RoutingAlgo::UgalL || r == RoutingAlgo::UgalG || r == RoutingAlgo::Par || uses_sat_flags(r);
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
    case RoutingAlgo::Pb:
    case RoutingAlgo::PbAcor: return {4, 2};
    case RoutingAlgo::Par: return {5, 2};
    case RoutingAlgo::MinCond: return {3, 2};
  }
  return {};
}

RoutingUnit::RoutingUnit(RoutingAlgo algo, const Dragonfly& topo, const RoutingParams& prm)
    : m_algo(algo), m_topo(&topo), m_prm(prm) {
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
    case RoutingAlgo::Val: return m_prm.val.recompute;
    case RoutingAlgo::AcorPacket:
    case RoutingAlgo::AcorSwitch: return true;
    case RoutingAlgo::UgalL:
    case RoutingAlgo::UgalG:
    case RoutingAlgo::Par: return false;
    case RoutingAlgo::Pb: return m_prm.val.recompute;
    case RoutingAlgo::PbAcor: return true;
  }
  return false;
}

ForwardingTable RoutingUnit::make_table(int sw) const {
  if (m_algo == RoutingAlgo::MinCond) return build_min_cond_table(*m_topo, sw);
  return build_min_table(*m_topo, sw);
}

RouteDecision RoutingUnit::route_control(int sw, RouteHeader& h, Rng& rng) const {
  return route_min(*m_topo, sw, h, rng);
}

RouteDecision RoutingUnit::route(int sw, int in_port, RouteHeader& h, Rng& rng,
                                 const RouteContext& ctx) const {
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
    case RoutingAlgo::Pb:
    case RoutingAlgo::PbAcor: {
      AdaptiveParams ap;
      ap.threshold = m_prm.ugal.threshold;
      ap.policy = m_prm.val.policy;
      ap.restricted = m_prm.val.restricted;
      switch (m_algo) {
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
  }
  return {};
}

}  // namespace scfly
