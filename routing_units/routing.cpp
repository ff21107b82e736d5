#include "routing_units/routing.h"

#include "routing_units/minimal.h"
#include "routing_units/valiant.h"

namespace scfly {

const char* to_string(RoutingAlgo r) { return r == RoutingAlgo::Min ? "min" : "val"; }

bool parse_routing(const std::string& s, RoutingAlgo& out) {
  if (s == "min") out = RoutingAlgo::Min;
  else if (s == "val") out = RoutingAlgo::Val;
  else return false;
  return true;
}

const char* routing_choices() { return "min, val"; }

VcBudget required_vcs(RoutingAlgo r) {
  switch (r) {
    case RoutingAlgo::Min: return {2, 1};
    case RoutingAlgo::Val: return {4, 2};
  }
  return {};
}

RouteDecision RoutingUnit::route(int sw, int in_port, RouteHeader& h, Rng& rng) const {
  switch (m_algo) {
    case RoutingAlgo::Min: return route_min(*m_topo, sw, h, rng);
    case RoutingAlgo::Val: return route_val(*m_topo, sw, in_port, h, rng);
  }
  return {};
}

}  // namespace scfly
