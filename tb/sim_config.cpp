#include "tb/sim_config.h"

#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <string>

namespace scfly {

std::unique_ptr<Topology> make_topology(const SimConfig& c) {
  if (c.topo_kind == TopologyKind::Dragonfly) return std::make_unique<Dragonfly>(c.topology);
  if (const TopologyPlugin* p = topology_plugin(c.topo_kind)) return make_plugin_topology(*p, c.topo_plugin);
  TorusShape t = c.torus;
  t.mesh = c.topo_kind == TopologyKind::Mesh;
  return std::make_unique<Torus>(t);
}

int available_cores() {
  int cores = 1;
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) cores = std::max(1, CPU_COUNT(&set));
  if (const char* e = std::getenv("SCFLY_CORES")) {
    char* end = nullptr;
    const long v = std::strtol(e, &end, 10);
    if (end != e && *end == '\0' && v >= 1) cores = static_cast<int>(std::min<long>(v, cores));
  }
  return cores;
}

int resolve_threads(int threads, int switches, uint64_t window) {
  if (threads <= 0) {
    const uint64_t work = static_cast<uint64_t>(switches) * window / kMinWindowWork;
    threads = static_cast<int>(std::min<uint64_t>(static_cast<uint64_t>(available_cores()), work));
  }
  return std::max(1, std::min(threads, switches));
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
