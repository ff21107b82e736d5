// Routing-unit selection and the VC budget each mechanism needs. Mechanisms are chosen by
// enum from the config loader; each one's rule, congestion signal and VC use per hop is
// documented in its own header (minimal.h, valiant.h, misrouting.h, acor.h).
#pragma once

#include <memory>
#include <string>

#include "routing_units/acor_level_ctrl.h"
#include "routing_units/congestion.h"
#include "routing_units/gal_threshold.h"
#include "routing_units/min_cond.h"
#include "routing_units/misrouting.h"
#include "routing_units/qcn.h"
#include "routing_units/registry.h"
#include "routing_units/ugal.h"
#include "routing_units/route_types.h"
#include "routing_units/torus_routing.h"
#include "topologies/common/rng.h"
#include "topologies/dragonfly.h"
#include "topologies/torus.h"

namespace scfly {

// MinTable: MIN by lookup in the switch's conditional forwarding table alone
// (forwarding_table.h, build_min_table; table semantics of Benito, Vallejo, Izu, Beivide,
// "Non-minimal Adaptive Routing Based on Explicit Congestion Notifications", Concurrency and
// Computation: Practice and Experience, 2019, sec. 3.1.1); identical results to Min on every shape. Rule: the
// highest-priority matching entry (all unconditional here); congestion signal: none; VCs:
// MIN's hop-slot rule (minimal.h), 2 local / 1 global.
// MinCond: MIN-COND (min_cond.h), minimal through the conditional forwarding table with a
// misroute at injection when N > P[minimal port]; P set by QCN-Switch (qcn.h) or by the
// minimal output's pause state (min_cond.trigger).
// On k-ary n-cubes (torus_routing.h): Dor, Val (the same name, its torus form), MinAd, Goal,
// Gal (its quadrant chosen by the NIC's injection queues, tb/nic.h), Chaos (the chaotic
// router: minimal adaptive, derouting from the switch's multiqueue, rtl_models/switch).
// TugalL, TugalG, TPar: T-UGAL (ugal.h, tvlb.h; Rahman, Bhowmik, Ryasnianskiy, Yuan, Lang,
// "Topology-Custom UGAL Routing on Dragonfly", SC'19, sec. 3):
// UGAL-L, UGAL-G and PAR whose Valiant intermediate is drawn from a T-VLB set (ugal.vlb_set,
// by default the paper's final set for the shape) less Step 2's load-balance removals
// (tugal.paths or tugal.tau_*; tvlb_balance.h); rule, signal and VCs as the UGAL they refine.
// Each one's descriptor (topologies, VC budget, observations) is its row of the registry
// (registry.h; the rows are in routing.cpp); a plug-in mechanism registered by a user takes
// a value past Chaos (register_routing), so a RoutingAlgo is an index into the registry.
enum class RoutingAlgo : uint8_t { Min, Val, AcorPacket, AcorSwitch, UgalL, UgalG, Par, Pb, PbAcor, MinTable, MinCond,
                                   Dor, MinAd, Goal, Gal, TugalL, TugalG, TPar, Chaos };
constexpr size_t kBuiltinRoutings = static_cast<size_t>(RoutingAlgo::Chaos) + 1;

// T-UGAL's names and the UGAL each refines (UgalL, UgalG, Par; itself for the others).
inline bool is_tugal(RoutingAlgo r) {
  return r == RoutingAlgo::TugalL || r == RoutingAlgo::TugalG || r == RoutingAlgo::TPar;
}
inline RoutingAlgo ugal_base(RoutingAlgo r) {
  return r == RoutingAlgo::TugalL ? RoutingAlgo::UgalL
         : r == RoutingAlgo::TugalG ? RoutingAlgo::UgalG
         : r == RoutingAlgo::TPar   ? RoutingAlgo::Par
                                    : r;
}

// Which topologies a mechanism routes on.
bool routes_dragonfly(RoutingAlgo r);
bool routes_torus(RoutingAlgo r, bool mesh);

const char* to_string(RoutingAlgo r);
// Parses a config value (any registered mechanism); returns false if unknown.
bool parse_routing(const std::string& s, RoutingAlgo& out);
// The registered names, per topology: "Dragonfly: min, val, ...; torus: ...; mesh: ...".
std::string routing_choices();
// The names that route on one kind of topology, comma-separated, the last after "or" when
// `last_or` (error messages), else after ", ".
std::string routing_names(bool dragonfly, bool mesh, bool last_or = false);
// The mechanisms that route on topology kind `k`.
std::string routing_names(TopologyKind k, bool last_or = false);

// Valiant options (ACOR paper sec. 3 and Table 1).
struct ValParams {
  Misroute policy = Misroute::RrgSw;  // Phase A misrouting policy
  bool restricted = false;            // intra-group traffic misroutes inside the group
  bool recompute = false;             // redraw the intermediate while blocked at injection
};

// ACOR misrouting-policy sequences (ACOR paper Table 2).
enum class AcorSequence { TwoLevelA, TwoLevelB, ThreeLevel };
const char* to_string(AcorSequence s);  // "2la", "2lb", "3l"
bool parse_sequence(const std::string& s, AcorSequence& out);
// The policies of a sequence, shortest first; returns the number of levels (2 or 3).
int sequence_policies(AcorSequence s, Misroute out[3]);

struct AcorParams {
  AcorSequence sequence = AcorSequence::ThreeLevel;
  AcorLevelParams ctrl;  // ACOR-Switch hysteresis (levels filled from the sequence)
};

// ugal.reevaluate: once = the choice made when the head is first routed stands; blocked =
// made again every blocked cycle, either way (FOGSim's PB); minimal = made again while it is
// minimal, a Valiant choice stands (FOGSim's UGAL).
enum class UgalReeval : uint8_t { Once, Blocked, Minimal };

// UGAL family (ugal.h).
struct UgalParams {
  int64_t threshold = 0;                     // T, phits x hops (T-UGAL sec. 4.1.2: 0)
  QueueMeasure measure = QueueMeasure::Output;  // what a port's queue occupancy counts
  // ugal.occupancy_scope: vc: the UGAL comparison (UGAL-L, PAR, PB) reads the occupancy of
  // the output VC each candidate would take, not the sum over the port's VCs (FOGSim).
  bool per_vc = false;
  // ugal.reevaluate (UgalReeval): whether a head blocked at the injection buffer (not
  // granted the crossbar) makes its minimal/Valiant comparison again the next cycle, always
  // against the same candidates (the same Valiant intermediate and links: the switch replays
  // the draws of its first attempt) and the occupancies of that cycle.
  UgalReeval reevaluate = UgalReeval::Once;
  UgalIntermediate intermediate = UgalIntermediate::Any;  // the T-UGAL paper's baseline options (ugal.h)
  SegmentLink segment_link = SegmentLink::Shortest;
  UgalMultiplier multiplier = UgalMultiplier::Hops;
  TvlbClass vlb_set = TvlbClass::All;  // T-UGAL's Valiant set (tvlb.h)
  int vlb_percent = 0;                 // + this % of the next class (tvlb.h TvlbRule)
  uint64_t vlb_seed = 1;               // the fraction's hash seed
  // Step 2's load-balance removals from the set (tvlb_balance.h): read from a path file
  // (tugal.paths) or computed with these bounds (tugal.tau_global/local; 0 = off).
  std::string paths;
  double tau_global = 0, tau_local = 0;
  ParSet par_set = ParSet::Current;  // tugal.par_set (ugal.h)
  std::shared_ptr<const TvlbRemovals> removed;  // resolved by the config loader; null = none
};

// Piggyback (ugal.h; ACOR paper Table 3).
struct PbParams {
  uint32_t cg = 120;     // C_g, percent of the switch's average global-link occupancy
  uint32_t tg = 5;       // T_g, phits
  uint32_t delay = 10;   // cycles for a flag to reach the other switches of the group
};

// GAL (torus_routing.h, gal_threshold.h; GAL paper sec. III, IV.E, V.B).
struct GalParams {
  GalSets sets = GalSets::All;   // gal.sets
  uint32_t queue_depth = 128;    // packets per injection queue (T_max by default)
  GalThresholdParams threshold;  // gal.adaptive, gal.threshold (T_0), gal.t_min/t_max/n1/n2
};

struct RoutingParams {
  ValParams val;
  AcorParams acor;
  UgalParams ugal;
  PbParams pb;
  MinCondTrigger trigger = MinCondTrigger::Qcn;  // min_cond.trigger
  QcnParams qcn;
  int link_vcs = 0;  // torus/mesh: data VCs of the link class (0 = the routing's minimum)
  TorusDateline dateline = TorusDateline::Wrap;  // torus.dateline (torus_routing.h)
  GalParams gal;
  RoutingKeyValues plugin;  // a plug-in mechanism's own keys (registry.h), by config key (plugin_key)
  bool plugin_rtl = false;  // `--rtl <plug-in>`: build its policy with make_rtl (registry.h)
};

// What a mechanism needs from the switch and the network (its registry row; used by
// RoutingUnit and by the config validation, so the two cannot disagree).
bool uses_level_ctrl(RoutingAlgo r);  // ACOR-Switch, PB-ACOR: an ACOR level controller
bool is_adaptive(RoutingAlgo r);      // UGAL-L/G, PAR, PB, PB-ACOR, torus adaptive: congestion observations
bool uses_sat_flags(RoutingAlgo r);   // PB, PB-ACOR: Piggyback saturation flags

// Minimum VCs per port class for deadlock freedom (Dragonfly; VcBudget in registry.h).
VcBudget required_vcs(RoutingAlgo r);
// The same on a torus or mesh: VCs of the "link" class (torus_routing.h).
int required_link_vcs(RoutingAlgo r, bool mesh);
// The same on any topology that is not a Dragonfly: a torus's or mesh's link class, or each
// switch-to-switch class of a plug-in topology (RoutingMechanism::link_vcs).
int required_link_vcs(RoutingAlgo r, TopologyKind k);

// The per-switch routing unit: pure decision logic plus the topology it routes on (a
// Dragonfly, or a torus or mesh; the mechanism must route on it, routes_dragonfly /
// routes_torus, else std::invalid_argument).
class RoutingUnit {
 public:
  RoutingUnit(RoutingAlgo algo, const Topology& topo, const RoutingParams& prm = {});
  // Route the head of a packet that arrived at switch `sw` on `in_port`. At the source
  // switch a recomputing unit may be called again for the same head (ctx.attempt > 0)
  // with the header restored to what it was before the first call.
  RouteDecision route(int sw, int in_port, RouteHeader& h, Rng& rng,
                      const RouteContext& ctx = {}) const;
  // The same as an ordered candidate set (route_types.h), what the switch calls. Every
  // mechanism here returns one candidate; minimal-adaptive units with escape VCs return
  // several.
  RouteCandidates route_candidates(int sw, int in_port, RouteHeader& h, Rng& rng,
                                   const RouteContext& ctx = {}) const {
    // One test for a torus or a plug-in (route_torus_candidates starts with the plug-in), so
    // that scfly's Dragonfly mechanisms pay for plug-ins nothing per routed head.
    if (m_other) return route_torus_candidates(sw, in_port, h, rng, ctx);
    return RouteCandidates::one(route(sw, in_port, h, rng, ctx));
  }
  // Control frames (TrafficClass::Control) are routed minimally whatever the data routing:
  // the hop-slot VC of MIN (the switch adds the port's data VC count), through `min_hop`
  // on a Dragonfly as data's minimal hops (RouteContext::min_hop). Needs the control VCs
  // of control_vcs().
  RouteDecision route_control(int sw, RouteHeader& h, Rng& rng, const MinHopBlock* min_hop) const;
  static VcBudget control_vcs() { return required_vcs(RoutingAlgo::Min); }
  // On a torus or mesh control frames go by DOR: its link VCs.
  static int control_link_vcs(bool mesh) { return required_link_vcs(RoutingAlgo::Dor, mesh); }
  // Which inputs route a blocked head again the next cycle (recomputation, in-transit
  // adaptive routing): none, the injection (host) inputs only, or every input.
  enum class Reroute : uint8_t { None, Injection, AnyInput };
  Reroute reroute() const { return recomputes() ? Reroute::Injection : Reroute::None; }
  RoutingAlgo algo() const { return m_algo; }
  const Topology& topology() const { return *m_any; }
  // The Dragonfly routed on (null on a torus or mesh) and the torus or mesh (null on a
  // Dragonfly).
  const Dragonfly* dragonfly() const { return m_topo; }
  const Torus* torus() const { return m_torus; }
  const RoutingParams& params() const { return m_prm; }
  // True if a head blocked at its injection buffer is routed again (recomputation).
  bool recomputes() const;
  // Re-routing at injection replays the first attempt's draws (ugal.reevaluate: blocked or
  // minimal, UGAL family) instead of drawing anew (val.recompute, ACOR).
  bool replays_draws() const;
  // True if the switch needs an ACOR level controller (ACOR-Switch, PB-ACOR).
  bool needs_level_ctrl() const { return m_mech->level_ctrl; }
  // The levels RouteContext::switch_level takes: the ACOR controller's 3, a plug-in unit's
  // unit_levels, else 1 (the deadlock checker routes under each).
  int route_levels() const { return m_mech->level_ctrl ? 3 : m_mech->make_unit ? m_mech->unit_levels : 1; }
  // A plug-in's mechanism unit for switch `sw` (RoutingMechanism::make_unit), built with its
  // resolved keys; null when it has none.
  std::unique_ptr<SwitchUnit> make_plugin_unit(int sw) const;
  // Congestion observations the unit reads (the switch and network provide them).
  bool needs_global_load() const { return m_mech->global_load; }
  bool needs_sat_flags() const { return m_mech->sat_flags; }
  bool is_adaptive() const { return m_mech->adaptive; }
  // The mechanism's registry row.
  const RoutingMechanism& mechanism() const { return *m_mech; }
  // True if the switch forwards through its conditional forwarding table (RouteContext::table).
  bool uses_table() const { return m_algo == RoutingAlgo::MinTable || m_algo == RoutingAlgo::MinCond; }
  // Switch `sw`'s forwarding table as this mechanism populates it (uses_table() only).
  ForwardingTable make_table(int sw) const;
  // MIN-COND driven by QCN-Switch: the switches exchange CNMs (control frames).
  bool uses_qcn() const { return m_algo == RoutingAlgo::MinCond && m_prm.trigger == MinCondTrigger::Qcn; }

 private:
  RouteCandidates route_torus_candidates(int sw, int in_port, RouteHeader& h, Rng& rng,
                                         const RouteContext& ctx) const;

  RoutingAlgo m_algo;
  const RoutingMechanism* m_mech;
  std::shared_ptr<const RoutingPolicy> m_plugin;  // a plug-in's decision function, else null
  RoutingKeyValues m_plugin_keys;                  // ... its keys, resolved
  const Topology* m_any;
  const Dragonfly* m_topo = nullptr;
  const Torus* m_torus = nullptr;
  bool m_other = false;  // m_torus or m_plugin: not a built-in Dragonfly mechanism
  TorusAlgo m_torus_algo = TorusAlgo::Dor;
  RoutingParams m_prm;
  Misroute m_seq[3] = {Misroute::RrgSw, Misroute::RrgSw, Misroute::RrgSw};
  int m_levels = 1;
};

}  // namespace scfly
