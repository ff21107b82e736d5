// The routing-mechanism registry: every mechanism scfly knows, described once.
//
// A mechanism's descriptor (RoutingMechanism) holds its config name, one line of
// documentation, the topologies it routes on, its VC budget per port class (what deadlock
// freedom needs under its VC rule), which congestion observations the switch and network
// must provide (a congestion view, an ACOR level controller, Piggyback flags, UGAL-G's
// network view) and its own numeric config keys. The config schema's `routing` choices and
// error messages, `scfly keys`, docs/config.md, the VC checks, the deadlock checker's
// enumeration and the every-mechanism tests all read this registry, so a mechanism that is
// registered is everywhere at once.
//
// scfly's own mechanisms (RoutingAlgo's enumerators) are registered by routing.cpp. A
// user's mechanism is a plug-in: a RoutingPolicy (the decision function) and a descriptor
// with its factory, registered from the plug-in's own .cpp file with SCFLY_REGISTER_ROUTING;
// nothing in scfly is edited (docs/guide-routing.md, examples/custom-routing/). A plug-in
// gets a RoutingAlgo value past the built-in ones, so the rest of scfly handles it by value
// like any other mechanism.
//
// A plug-in may bring a mechanism unit of its own (RoutingMechanism::make_unit): a
// SwitchUnit (rtl_models/switch/switch_unit.h) built in every switch, clocked with it, which
// publishes the switch's level in [0, unit_levels) through SwitchUnit::observe into
// RouteContext::switch_level, where the plug-in's policy reads it (a hysteresis counter, a
// congestion detector: state the pure decision function may not keep). The deadlock checker
// routes every state under each of those levels, so the unit's state is covered whatever
// the traffic makes it; its signals() go into the VCD and per-switch series like a built-in
// unit's.
//
// A plug-in may bring an RTL variant of its decision (RoutingMechanism::make_rtl): a second
// factory whose policy decides through the plug-in's own Verilated model. `--rtl NAME` (the
// `rtl` key with the mechanism's name) builds the policy from it instead of `make`; the
// plug-in's lockstep test shows the two equal (docs/guide-routing.md, section 6).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "routing_units/route_types.h"
#include "topologies/common/rng.h"
#include "topologies/registry.h"
#include "topologies/topology.h"

namespace scfly {

enum class RoutingAlgo : uint8_t;
class SwitchUnit;  // rtl_models/switch/switch_unit.h

// Minimum VCs per port class for deadlock freedom under the hop-slot VC rule (Dragonfly).
struct VcBudget {
  int local = 1, global = 1;
};

// A plug-in's decision function: the same contract as RoutingUnit::route_candidates (route
// the head of a packet that arrived at switch `sw` on `in_port`; update the header; draw
// only from `rng`; read congestion only from `ctx`). It must be a pure function of its
// arguments and of what it was built with: the deadlock checker calls it with every draw
// sequence and congestion view and builds the channel dependency graph from the answers,
// and the switch may call it again for a blocked head (RoutingMechanism::recomputes).
// With `sim.threads` > 1 the network calls one policy from several threads at once, never
// for the same switch at once: a policy with state of its own (a Verilated model that
// route() evaluates) keeps that state per switch.
class RoutingPolicy {
 public:
  virtual ~RoutingPolicy() = default;
  virtual RouteCandidates route(int sw, int in_port, RouteHeader& h, Rng& rng, const RouteContext& ctx) const = 0;
};

// A plug-in's own config key, `<mechanism name>.<name>`: a number in [min, max] (whole when
// `integer`), echoed in the run's JSON when the mechanism is in use.
struct RoutingKey {
  std::string name;
  double def = 0, min = 0, max = 0;
  bool integer = false;
  std::string doc;
};

// The values of a plug-in's keys, by key name (without the mechanism prefix), resolved by
// the config loader and handed to the factory once, at construction.
using RoutingKeyValues = std::map<std::string, double>;

using RoutingFactory =
    std::function<std::unique_ptr<const RoutingPolicy>(const Topology& topo, const RoutingKeyValues& keys)>;
// A plug-in's mechanism unit for switch `sw` (see above), built once per switch at its
// construction with the plug-in's resolved keys.
using UnitFactory =
    std::function<std::unique_ptr<SwitchUnit>(int sw, const Topology& topo, const RoutingKeyValues& keys)>;

struct RoutingMechanism {
  std::string name;  // the `routing` config value
  std::string doc;   // one line: what it is (paper, rule)
  // Topologies it routes on (Dragonfly; torus; mesh).
  bool dragonfly = false, torus = false, mesh = false;
  VcBudget vcs;                // Dragonfly: minimum local / global data VCs
  int torus_vcs = 1;           // torus: minimum data VCs of the link class
  int mesh_vcs = 1;            // mesh: the same
  // Plug-ins: the plug-in topologies it routes on, by name (topologies/registry.h), and the
  // data VCs each of their switch-to-switch port classes needs (at least; `auto` gives it).
  std::vector<std::string> topologies;
  int link_vcs = 1;
  bool adaptive = false;       // reads the switch's congestion view (RouteContext::view)
  bool level_ctrl = false;     // needs an ACOR level controller (RouteContext::switch_level)
  bool sat_flags = false;      // needs Piggyback's saturation flags (AdaptiveView::flags)
  bool global_load = false;    // needs UGAL-G's network-wide view (AdaptiveView::global)
  bool recomputes = false;     // plug-ins: a head blocked at its injection buffer is routed
                               // again the next cycle (ctx.attempt counts the attempts)
  std::vector<RoutingKey> keys;  // plug-ins: its own config keys
  RoutingFactory make;           // plug-ins: builds the decision function; null for built-ins
  RoutingFactory make_rtl;       // plug-ins, optional: the same decision through the plug-in's
                                 // Verilated model, built under `--rtl <name>`; null: none
  UnitFactory make_unit;         // plug-ins, optional: its mechanism unit in every switch
  int unit_levels = 0;           // ... the levels it publishes (RouteContext::switch_level in
                                 // [0, unit_levels), 1-255), which the deadlock checker enumerates

  bool plugin() const { return static_cast<bool>(make); }
  bool has_rtl() const { return plugin() && static_cast<bool>(make_rtl); }
  bool routes_on(bool is_dragonfly, bool is_mesh) const { return is_dragonfly ? dragonfly : is_mesh ? mesh : torus; }
  bool routes_on(TopologyKind k) const;
};

// Registers a plug-in; returns its RoutingAlgo value. Throws std::logic_error on a name
// that is taken, empty or not lowercase letters, digits and '-', on no topology, on a
// missing factory, on a key whose default is outside its range, or on a unit without
// levels in 1-255 (or levels without a unit, or a unit beside level_ctrl: both would
// publish the switch's level).
RoutingAlgo register_routing(RoutingMechanism m);

// The config key of plug-in `m`'s key `key`: `<m.name with '-' as '_'>.<key>` (how the
// config's values are held, RoutingParams::plugin, so that two plug-ins' keys of one name
// stay apart).
std::string plugin_key(const RoutingMechanism& m, const std::string& key);

// Every registered mechanism (built-ins first, in RoutingAlgo order, then plug-ins in
// registration order).
const std::vector<const RoutingMechanism*>& routing_mechanisms();
const RoutingMechanism& mechanism(RoutingAlgo r);
RoutingAlgo algo_of(const RoutingMechanism& m);
// The mechanism named `name`, or null.
const RoutingMechanism* find_routing(const std::string& name);

// Registers a plug-in from its own .cpp file at static initialization: the file only has
// to be linked into the executable (an object file, not an unreferenced archive member).
#define SCFLY_REGISTER_ROUTING(ident, ...) \
  static const ::scfly::RoutingAlgo ident = ::scfly::register_routing(__VA_ARGS__)

}  // namespace scfly
