#include "tb/traffic.h"

#include <cstdlib>

namespace scfly {

std::string parse_traffic(const std::string& s, TrafficSpec& out) {
  if (s == "un") {
    out = TrafficSpec{TrafficKind::Uniform, 0};
    return {};
  }
  if (s.rfind("adv+", 0) == 0 && s.size() > 4) {
    char* end = nullptr;
    const long i = std::strtol(s.c_str() + 4, &end, 10);
    if (*end == '\0' && i >= 1 && i < 1000000) {
      out = TrafficSpec{TrafficKind::Adversarial, static_cast<int>(i)};
      return {};
    }
    return "adv+N needs an integer group offset N >= 1";
  }
  return std::string("unknown pattern; allowed: ") + traffic_choices();
}

std::string to_string(const TrafficSpec& t) {
  return t.kind == TrafficKind::Uniform ? "un" : "adv+" + std::to_string(t.offset);
}

const char* traffic_choices() { return "un, adv+N (N >= 1)"; }

std::string check_traffic(const TrafficSpec& t, const Dragonfly& topo) {
  if (t.kind == TrafficKind::Adversarial && t.offset % topo.g() == 0)
    return "adv+" + std::to_string(t.offset) + " maps every group onto itself with g=" +
           std::to_string(topo.g()) + "; use an offset not divisible by g";
  if (t.kind == TrafficKind::Uniform && topo.num_nodes() < 2)
    return "un needs at least 2 nodes";
  return {};
}

int TrafficPattern::dest(int src, Rng& rng) const {
  const Dragonfly& t = *m_topo;
  switch (m_spec.kind) {
    case TrafficKind::Uniform: {
      int d = static_cast<int>(rng.below(static_cast<uint32_t>(t.num_nodes() - 1)));
      return d >= src ? d + 1 : d;
    }
    case TrafficKind::Adversarial: {
      const int per_group = t.a() * t.p();
      const int g = (src / per_group + m_spec.offset) % t.g();
      return g * per_group + static_cast<int>(rng.below(static_cast<uint32_t>(per_group)));
    }
  }
  return src;
}

}  // namespace scfly
