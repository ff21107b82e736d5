// The topology registry: a user's topology as a plug-in, beside scfly's own.
//
// scfly builds three topologies itself (`topology.kind` dragonfly, torus, mesh; their keys
// are in the config schema, sc_main/config_keys.cpp). A user's topology is a plug-in: a
// class implementing Topology (topologies/topology.h) and a descriptor (TopologyPlugin)
// registered from the plug-in's own .cpp file with SCFLY_REGISTER_TOPOLOGY; nothing in scfly
// is edited (docs/guide-topology.md, examples/custom-routing/hyperx.cpp). A registered
// topology is everywhere at once:
//   - `topology.kind: <name>` selects it; its keys are `topology.<name>.<key>` (integers,
//     checked against their ranges) beside `topology.p`, the hosts per switch;
//   - its switch-to-switch port classes get the per-class keys every class has:
//     `switch.vcs.<class>`, `switch.input_buffer.<class>`, `switch.output_buffer.<class>`
//     and `links.<class>_latency`, with the defaults the descriptor gives;
//   - `scfly keys` and docs/config.md list them; the config names the allowed kinds.
// What routes on it: routing plug-ins that name it in RoutingMechanism::topologies
// (routing_units/registry.h), with the data VCs each of its classes needs for deadlock
// freedom (RoutingMechanism::link_vcs); scfly's own mechanisms route on their own topologies
// only. Traffic: the patterns defined on any topology (un, perm, hot, and plug-in patterns
// that accept it). Control frames (control.probe_interval, QCN's CNMs) are routed by scfly's
// minimal routing of a Dragonfly or a torus, so a plug-in topology has none. The deadlock
// checker, the block scheduler and its threads work on it as on scfly's own. (MPI ranks are
// in scfly's own executable only, which links no plug-in.)
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "topologies/topology.h"

namespace scfly {

// topology.kind: a Dragonfly (the default), a k-ary n-cube torus or mesh, or a plug-in
// (values past Mesh, in registration order).
enum class TopologyKind : uint8_t { Dragonfly, Torus, Mesh };
const char* to_string(TopologyKind k);

// One of a plug-in topology's keys, `topology.<topology>.<name>`: an integer in [min, max].
struct TopologyKey {
  std::string name;  // lowercase letters, digits and '_'
  int64_t def = 0, min = 0, max = 0;
  std::string doc;
};

// The values of a plug-in topology's keys by name (without the prefix), and "p" (hosts per
// switch, `topology.p`), resolved by the config loader.
using TopologyKeyValues = std::map<std::string, int64_t>;

// One of its switch-to-switch port classes: the name the topology's port_class_name() gives
// it (class ids 1, 2, ... in this order; class 0 is the host class every topology has) and
// the defaults of its per-class keys.
struct TopologyPortClass {
  std::string name;  // lowercase letters, digits and '_'; not a class name another topology uses
  int64_t in_buf = 64, out_buf = 32;  // phits per VC (switch.input_buffer / output_buffer.<name>)
  int64_t latency = 1;                // cycles (links.<name>_latency)
};

struct TopologyPlugin {
  std::string name;  // the `topology.kind` value: lowercase letters, digits and '-'
  std::string doc;   // one line: what it is (a citation where it comes from a paper)
  std::vector<TopologyKey> keys;
  std::vector<TopologyPortClass> classes;  // 1 .. kMaxPortClasses - 1
  int64_t default_p = 1;                   // topology.p's default
  // Builds the topology from its keys; throws std::invalid_argument with the reason when the
  // values make no valid topology (the config reports it as "invalid topology <name>: ...").
  std::function<std::unique_ptr<Topology>(const TopologyKeyValues&)> make;
};

// Registers a plug-in; returns its TopologyKind value (past scfly's own). Throws
// std::logic_error on a name that is taken (a topology's, or one of scfly's topology.* keys),
// empty or not lowercase letters, digits and '-';
// on a missing factory; on no class or more than kMaxPortClasses - 1; on a class name that
// another topology uses (the per-class keys are named by it); on a key name that is taken
// or a default outside its range.
TopologyKind register_topology(TopologyPlugin p);

// Every plug-in topology, in registration order.
const std::vector<const TopologyPlugin*>& topology_plugins();
// The plug-in behind `k`, or null for scfly's own kinds.
const TopologyPlugin* topology_plugin(TopologyKind k);
// The plug-in named `name`, or null.
const TopologyPlugin* find_topology_plugin(const std::string& name);
TopologyKind kind_of(const TopologyPlugin& p);

// Builds plug-in `p` from `values` and checks what it built against the Topology contract:
// its port classes are the descriptor's (class 0 named "host"), every switch-to-switch port's neighbor is an involution joining ports of one class, and a
// port with no link is connected() false. Throws std::invalid_argument naming the first
// violation (the factory's own std::invalid_argument passes through).
std::unique_ptr<Topology> make_plugin_topology(const TopologyPlugin& p, const TopologyKeyValues& values);

// Registers a plug-in topology from its own .cpp file at static initialization: the file
// only has to be linked into the executable (an object file, not an unreferenced archive
// member).
#define SCFLY_REGISTER_TOPOLOGY(ident, ...) \
  static const ::scfly::TopologyKind ident = ::scfly::register_topology(__VA_ARGS__)

}  // namespace scfly
