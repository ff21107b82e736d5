#include "routing_units/registry.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <stdexcept>

#include "routing_units/routing.h"

namespace scfly {

namespace detail {
// scfly's own mechanisms, in RoutingAlgo order (routing.cpp).
std::vector<RoutingMechanism> builtin_routings();
}  // namespace detail

namespace {

struct Registry {
  std::deque<RoutingMechanism> all;  // stable addresses
  std::vector<const RoutingMechanism*> list;
};

Registry& registry() {
  static Registry r = [] {
    Registry x;
    for (RoutingMechanism& m : detail::builtin_routings()) {
      x.all.push_back(std::move(m));
      x.list.push_back(&x.all.back());
    }
    if (x.list.size() != kBuiltinRoutings) throw std::logic_error("routing registry: built-in table out of step");
    return x;
  }();
  return r;
}

bool valid_name(const std::string& s) {
  if (s.empty() || s.front() == '-' || s.back() == '-') return false;
  for (char ch : s)
    if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-')) return false;
  return true;
}

}  // namespace

bool RoutingMechanism::routes_on(TopologyKind k) const {
  switch (k) {
    case TopologyKind::Dragonfly: return dragonfly;
    case TopologyKind::Torus: return torus;
    case TopologyKind::Mesh: return mesh;
  }
  const TopologyPlugin* p = topology_plugin(k);
  return p && std::find(topologies.begin(), topologies.end(), p->name) != topologies.end();
}

RoutingAlgo register_routing(RoutingMechanism m) {
  Registry& r = registry();
  const std::string who = "routing mechanism '" + m.name + "': ";
  if (!valid_name(m.name))
    throw std::logic_error(who + "a name is lowercase letters, digits and '-' (not at either end)");
  if (find_routing(m.name)) throw std::logic_error(who + "the name is already registered");
  if (!m.make) throw std::logic_error(who + "a plug-in needs a factory (RoutingMechanism::make)");
  if (!m.dragonfly && !m.torus && !m.mesh && m.topologies.empty())
    throw std::logic_error(who + "routes on no topology");
  for (const std::string& t : m.topologies)
    if (t == "dragonfly" || t == "torus" || t == "mesh")
      throw std::logic_error(who + "scfly's own topologies are the flags dragonfly, torus and mesh; "
                                   "RoutingMechanism::topologies names plug-in topologies");
  if (m.vcs.local < 1 || m.vcs.global < 1 || m.torus_vcs < 1 || m.mesh_vcs < 1 || m.link_vcs < 1)
    throw std::logic_error(who + "a VC budget is at least 1 per class");
  for (const RoutingKey& k : m.keys) {
    if (k.name.empty() || k.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string::npos)
      throw std::logic_error(who + "key '" + k.name + "' is not a key name");
    if (!(k.min <= k.def && k.def <= k.max) || (k.integer && std::floor(k.def) != k.def))
      throw std::logic_error(who + "key '" + k.name + "': its default is outside its range");
  }
  if (m.make_unit && (m.unit_levels < 1 || m.unit_levels > 255))
    throw std::logic_error(who + "a mechanism unit publishes 1-255 levels (unit_levels), not " +
                           std::to_string(m.unit_levels));
  if (!m.make_unit && m.unit_levels != 0)
    throw std::logic_error(who + "unit_levels without a mechanism unit (make_unit)");
  if (m.make_unit && m.level_ctrl)
    throw std::logic_error(who + "a mechanism unit and an ACOR level controller (level_ctrl) would both set the "
                                 "switch's level");
  if (r.list.size() >= 255) throw std::logic_error(who + "too many mechanisms (at most 255)");
  r.all.push_back(std::move(m));
  r.list.push_back(&r.all.back());
  return static_cast<RoutingAlgo>(r.list.size() - 1);
}

std::string plugin_key(const RoutingMechanism& m, const std::string& key) {
  std::string prefix = m.name;
  std::replace(prefix.begin(), prefix.end(), '-', '_');
  return prefix + "." + key;
}

const std::vector<const RoutingMechanism*>& routing_mechanisms() { return registry().list; }

const RoutingMechanism& mechanism(RoutingAlgo r) {
  const auto& l = registry().list;
  const size_t i = static_cast<size_t>(r);
  if (i >= l.size()) throw std::out_of_range("routing: no mechanism with index " + std::to_string(i));
  return *l[i];
}

RoutingAlgo algo_of(const RoutingMechanism& m) {
  const auto& l = registry().list;
  for (size_t i = 0; i < l.size(); ++i)
    if (l[i] == &m) return static_cast<RoutingAlgo>(i);
  throw std::out_of_range("routing: mechanism '" + m.name + "' is not registered");
}

const RoutingMechanism* find_routing(const std::string& name) {
  for (const RoutingMechanism* m : registry().list)
    if (m->name == name) return m;
  return nullptr;
}

}  // namespace scfly
