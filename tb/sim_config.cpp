#include "tb/sim_config.h"

#include <algorithm>

namespace scfly {

const char* to_string(TopologyKind k) {
  switch (k) {
    case TopologyKind::Dragonfly: return "dragonfly";
    case TopologyKind::Torus: return "torus";
    case TopologyKind::Mesh: return "mesh";
  }
  return "?";
}

std::unique_ptr<Topology> make_topology(const SimConfig& c) {
  if (c.topo_kind == TopologyKind::Dragonfly) return std::make_unique<Dragonfly>(c.topology);
  TorusShape t = c.torus;
  t.mesh = c.topo_kind == TopologyKind::Mesh;
  return std::make_unique<Torus>(t);
}

double mean_offered_load(const SimConfig& c, uint64_t from, uint64_t to) {
  if (to <= from) return c.phases.front().load;
  double sum = 0;
  for (size_t i = 0; i < c.phases.size(); ++i) {
    const uint64_t s = std::max(from, c.phases[i].start);
    const uint64_t e = std::min(to, i + 1 < c.phases.size() ? c.phases[i + 1].start : UINT64_MAX);
    if (e > s) sum += c.phases[i].load * static_cast<double>(e - s);
  }
  return sum / static_cast<double>(to - from);
}

}  // namespace scfly
