// Traffic patterns: pure, seeded destination generators. dest(src, rng) draws from the
// caller's stream (each NIC owns one), so patterns hold no mutable state.
//   un     uniform random over all nodes except the source (ACOR paper sec. 5.2, UN)
//   adv+i  a random node of group (G_src + i) mod g (ACOR paper sec. 5.2, ADV+i; the
//          paper's definition, not FOGSim's harsher same-offset variant)
#pragma once

#include <string>

#include "tb/rng.h"
#include "topologies/dragonfly.h"

namespace scfly {

enum class TrafficKind { Uniform, Adversarial };

struct TrafficSpec {
  TrafficKind kind = TrafficKind::Uniform;
  int offset = 1;  // adv+i: group offset i
};

// Parses "un" or "adv+N"; returns an empty string on success, else why not.
std::string parse_traffic(const std::string& s, TrafficSpec& out);
std::string to_string(const TrafficSpec& t);
const char* traffic_choices();
// Checks the pattern fits the topology (e.g. adv+i needs i mod g != 0).
std::string check_traffic(const TrafficSpec& t, const Dragonfly& topo);

class TrafficPattern {
 public:
  // `seed` and `instance` (e.g. the phase index) seed the pattern's fixed per-run state,
  // such as a random permutation, from its own stream (StreamKind::Traffic, instance).
  TrafficPattern(const TrafficSpec& spec, const Dragonfly& topo, uint64_t seed = 0,
                 uint64_t instance = 0)
      : m_spec(spec), m_topo(&topo) {
    (void)seed;
    (void)instance;
  }
  int dest(int src, Rng& rng) const;

 private:
  TrafficSpec m_spec;
  const Dragonfly* m_topo;
};

}  // namespace scfly
