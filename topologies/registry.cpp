#include "topologies/registry.h"

#include <stdexcept>

namespace scfly {

namespace {

constexpr int kBuiltinKinds = 3;  // Dragonfly, Torus, Mesh

struct Registry {
  std::vector<std::unique_ptr<TopologyPlugin>> all;
  std::vector<const TopologyPlugin*> list;
};

Registry& registry() {
  static Registry r;
  return r;
}

bool valid_name(const std::string& s, const char* extra) {
  if (s.empty() || !(s.front() >= 'a' && s.front() <= 'z')) return false;
  for (char ch : s)
    if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || std::string(extra).find(ch) != std::string::npos))
      return false;
  return s.back() != '-' && s.back() != '_';
}

// The class names scfly's own topologies use (their per-class keys exist already).
const char* const kBuiltinClassNames[] = {"injection", "ejection", "host", "local", "global", "link"};

}  // namespace

const char* to_string(TopologyKind k) {
  switch (k) {
    case TopologyKind::Dragonfly: return "dragonfly";
    case TopologyKind::Torus: return "torus";
    case TopologyKind::Mesh: return "mesh";
  }
  if (const TopologyPlugin* p = topology_plugin(k)) return p->name.c_str();
  return "?";
}

TopologyKind register_topology(TopologyPlugin p) {
  Registry& r = registry();
  const std::string who = "topology '" + p.name + "': ";
  if (!valid_name(p.name, "-"))
    throw std::logic_error(who + "a name is lowercase letters, digits and '-', starting with a letter");
  for (const char* b : {"dragonfly", "torus", "mesh"})
    if (p.name == b) throw std::logic_error(who + "the name is one of scfly's own topologies");
  // Its keys are topology.<name>.*: a name that is one of scfly's own topology keys would
  // put them under that key.
  for (const char* k : {"kind", "p", "a", "h", "g", "arrangement", "k", "n", "terminal_ports"})
    if (p.name == k)
      throw std::logic_error(who + "the name is one of scfly's own topology keys (topology." + p.name + ")");
  for (const TopologyPlugin* q : r.list)
    if (q->name == p.name) throw std::logic_error(who + "the name is already registered");
  if (!p.make) throw std::logic_error(who + "a plug-in needs a factory (TopologyPlugin::make)");
  if (p.classes.empty() || static_cast<int>(p.classes.size()) > kMaxPortClasses - 1)
    throw std::logic_error(who + "it needs 1 to " + std::to_string(kMaxPortClasses - 1) +
                           " switch-to-switch port classes (TopologyPlugin::classes)");
  if (p.default_p < 1 || p.default_p > 250) throw std::logic_error(who + "default_p must be in 1-250");
  for (size_t i = 0; i < p.classes.size(); ++i) {
    const TopologyPortClass& c = p.classes[i];
    const std::string cw = who + "port class '" + c.name + "': ";
    if (!valid_name(c.name, "_")) throw std::logic_error(cw + "a name is lowercase letters, digits and '_'");
    for (const char* b : kBuiltinClassNames)
      if (c.name == b)
        throw std::logic_error(cw + "scfly's own topologies name a class so (its keys switch.vcs." + c.name +
                               " ... exist); choose another name");
    for (size_t j = 0; j < i; ++j)
      if (p.classes[j].name == c.name) throw std::logic_error(cw + "named twice");
    for (const TopologyPlugin* q : r.list)
      for (const TopologyPortClass& qc : q->classes)
        if (qc.name == c.name)
          throw std::logic_error(cw + "topology '" + q->name + "' names a class so (the per-class keys would clash)");
    if (c.in_buf < 1 || c.out_buf < 1 || c.latency < 1 || c.latency > 1000000)
      throw std::logic_error(cw + "buffers of at least 1 phit and a latency of 1-1000000 cycles");
  }
  for (size_t i = 0; i < p.keys.size(); ++i) {
    const TopologyKey& k = p.keys[i];
    const std::string kw = who + "key '" + k.name + "': ";
    if (!valid_name(k.name, "_")) throw std::logic_error(kw + "a name is lowercase letters, digits and '_'");
    if (k.name == "p") throw std::logic_error(kw + "hosts per switch is topology.p, every topology's key");
    for (size_t j = 0; j < i; ++j)
      if (p.keys[j].name == k.name) throw std::logic_error(kw + "named twice");
    if (k.min > k.max || k.def < k.min || k.def > k.max)
      throw std::logic_error(kw + "its default must lie in [min, max]");
  }
  r.all.push_back(std::make_unique<TopologyPlugin>(std::move(p)));
  r.list.push_back(r.all.back().get());
  return static_cast<TopologyKind>(kBuiltinKinds + static_cast<int>(r.list.size()) - 1);
}

const std::vector<const TopologyPlugin*>& topology_plugins() { return registry().list; }

const TopologyPlugin* topology_plugin(TopologyKind k) {
  const int i = static_cast<int>(k) - kBuiltinKinds;
  const auto& l = registry().list;
  return i >= 0 && i < static_cast<int>(l.size()) ? l[static_cast<size_t>(i)] : nullptr;
}

const TopologyPlugin* find_topology_plugin(const std::string& name) {
  for (const TopologyPlugin* p : registry().list)
    if (p->name == name) return p;
  return nullptr;
}

TopologyKind kind_of(const TopologyPlugin& p) {
  const auto& l = registry().list;
  for (size_t i = 0; i < l.size(); ++i)
    if (l[i] == &p) return static_cast<TopologyKind>(kBuiltinKinds + static_cast<int>(i));
  throw std::logic_error("topology '" + p.name + "' is not registered");
}

std::unique_ptr<Topology> make_plugin_topology(const TopologyPlugin& p, const TopologyKeyValues& values) {
  std::unique_ptr<Topology> t = p.make(values);
  const std::string who = "topology '" + p.name + "' built ";
  if (!t) throw std::invalid_argument(who + "nothing");
  const int classes = 1 + static_cast<int>(p.classes.size());
  if (t->num_port_classes() != classes)
    throw std::invalid_argument(who + "a topology of " + std::to_string(t->num_port_classes()) +
                                " port classes; its descriptor names " + std::to_string(classes) + " (host included)");
  if (std::string(t->port_class_name(kHostClass)) != "host")
    throw std::invalid_argument(who + "a topology whose class 0 is not named \"host\"");
  for (int c = 1; c < classes; ++c)
    if (p.classes[static_cast<size_t>(c - 1)].name != t->port_class_name(c))
      throw std::invalid_argument(who + "a topology whose class " + std::to_string(c) + " is named \"" +
                                  t->port_class_name(c) + "\"; its descriptor names it \"" +
                                  p.classes[static_cast<size_t>(c - 1)].name + "\"");
  const int S = t->num_switches(), R = t->radix(), H = t->host_ports();
  if (S < 1 || t->hosts_per_switch() < 1 || t->terminal_ports() < 1 || H >= R)
    throw std::invalid_argument(who + "a topology with " + std::to_string(S) + " switches of radix " +
                                std::to_string(R) + " and " + std::to_string(H) +
                                " host ports each; it needs switches, hosts and a switch-to-switch port");
  for (int sw = 0; sw < S; ++sw)
    for (int port = 0; port < R; ++port) {
      const int cls = t->port_class_of(port);
      const std::string at = "switch " + std::to_string(sw) + " port " + std::to_string(port);
      if (port < H) {
        if (cls != kHostClass) throw std::invalid_argument(who + at + " (a host port) in class " + std::to_string(cls));
        continue;
      }
      if (cls < 1 || cls >= classes)
        throw std::invalid_argument(who + at + " in class " + std::to_string(cls) + ", not a switch-to-switch class");
      const PortEnd e = t->neighbor(sw, port);
      if (!t->connected(sw, port)) {
        if (e.sw != -1) throw std::invalid_argument(who + at + " unconnected, yet with a neighbor");
        continue;
      }
      if (e.sw < 0 || e.sw >= S || e.port < H || e.port >= R || e.sw == sw)
        throw std::invalid_argument(who + at + " linked to switch " + std::to_string(e.sw) + " port " +
                                    std::to_string(e.port) + ", not another switch's switch-to-switch port");
      const PortEnd back = t->neighbor(e.sw, e.port);
      if (back.sw != sw || back.port != port)
        throw std::invalid_argument(who + at + " linked to switch " + std::to_string(e.sw) + " port " +
                                    std::to_string(e.port) + ", which links back to switch " + std::to_string(back.sw) +
                                    " port " + std::to_string(back.port) + " (neighbor must be an involution)");
      if (t->port_class_of(e.port) != cls)
        throw std::invalid_argument(who + at + " (class " + t->port_class_name(cls) + ") linked to a " +
                                    t->port_class_name(t->port_class_of(e.port)) + " port; a link joins one class");
    }
  return t;
}

}  // namespace scfly
