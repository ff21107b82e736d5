// Routing-unit selection and the VC budget each mechanism needs. Mechanisms are chosen by
// enum from the config loader; each one's rule, congestion signal and VC use per hop is
// documented in its own header (minimal.h, valiant.h).
#pragma once

#include <string>

#include "routing_units/route_types.h"
#include "tb/rng.h"
#include "topologies/dragonfly.h"

namespace scfly {

enum class RoutingAlgo { Min, Val };

const char* to_string(RoutingAlgo r);
// Parses a config value; returns false if unknown.
bool parse_routing(const std::string& s, RoutingAlgo& out);
const char* routing_choices();

// Minimum VCs per port class for deadlock freedom under the hop-slot VC rule.
struct VcBudget {
  int local = 1, global = 1;
};
VcBudget required_vcs(RoutingAlgo r);

// The per-switch routing unit: pure decision logic plus the topology it routes on.
class RoutingUnit {
 public:
  RoutingUnit(RoutingAlgo algo, const Dragonfly& topo) : m_algo(algo), m_topo(&topo) {}
  // Route the head of a packet that arrived at switch `sw` on `in_port`.
  RouteDecision route(int sw, int in_port, RouteHeader& h, Rng& rng) const;
  RoutingAlgo algo() const { return m_algo; }

 private:
  RoutingAlgo m_algo;
  const Dragonfly* m_topo;
};

}  // namespace scfly
