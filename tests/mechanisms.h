// The every-mechanism lists of the tests, derived from the routing registry
// (routing_units/registry.h): a mechanism registered in scfly (or a plug-in linked into a
// test executable) is covered by every test that iterates these, with no list to edit.
#pragma once

#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "routing_units/routing.h"

namespace scfly_test {

// Every registered mechanism that routes on a Dragonfly (dragonfly), a torus (!dragonfly,
// !mesh) or a mesh, in registry order, less `covered_elsewhere`: those a test runs with a
// configuration of their own (the call says where). A name there that is not registered,
// or not on that topology, is an error, so the exclusions cannot go stale.
inline std::vector<std::string> registered_routings(bool dragonfly, bool mesh,
                                                    const std::set<std::string>& covered_elsewhere = {}) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const scfly::RoutingMechanism* m : scfly::routing_mechanisms()) {
    if (!m->routes_on(dragonfly, mesh)) continue;
    if (covered_elsewhere.count(m->name)) {
      seen.insert(m->name);
      continue;
    }
    out.push_back(m->name);
  }
  for (const std::string& n : covered_elsewhere)
    if (!seen.count(n)) throw std::logic_error("registered_routings: '" + n + "' is not a mechanism of this topology");
  return out;
}

}  // namespace scfly_test
