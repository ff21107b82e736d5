#include "topologies/dragonfly.h"

#include <stdexcept>

namespace scfly {

const char* to_string(Arrangement a) {
  return a == Arrangement::Palmtree ? "palmtree" : "absolute";
}

const char* to_string(PortClass c) {
  switch (c) {
    case PortClass::Host: return "host";
    case PortClass::Local: return "local";
    case PortClass::Global: return "global";
  }
  return "?";
}

std::string Dragonfly::describe() const {
  return "dfly(" + std::to_string(m_s.p) + "," + std::to_string(m_s.a) + "," + std::to_string(m_s.h) + "," +
         std::to_string(m_s.g) + ") " + to_string(m_s.arrangement);
}

PortEnd Dragonfly::neighbor(int sw, int port) const {
  if (port_class(port) == PortClass::Global) return global_peer(sw, port);
  const int r = index_of(sw);
  const int r2 = local_neighbor(r, port);
  return PortEnd{switch_id(group_of(sw), r2), static_cast<int16_t>(local_port(r2, r))};
}

std::string check_shape(const DragonflyShape& s) {
  auto str = [](long v) { return std::to_string(v); };
  if (s.p < 1) return "topology.p=" + str(s.p) + ": hosts per switch must be >= 1";
  if (s.a < 1) return "topology.a=" + str(s.a) + ": switches per group must be >= 1";
  if (s.h < 1) return "topology.h=" + str(s.h) + ": global ports per switch must be >= 1";
  if (s.p + s.a - 1 + s.h > 250)
    return "switch radix p+a-1+h=" + str(s.p + s.a - 1 + s.h) + " exceeds the supported 250 ports";
  const long ah = static_cast<long>(s.a) * s.h;
  if (s.g < 2 || s.g > ah + 1)
    return "topology.g=" + str(s.g) + ": groups must be in [2, a*h+1] = [2, " + str(ah + 1) + "]";
  if (static_cast<long>(s.g) * s.a * s.p > (1L << 24))
    return "network of " + str(static_cast<long>(s.g) * s.a * s.p) +
           " nodes exceeds the supported 16,777,216";
  if (s.arrangement == Arrangement::Palmtree && s.g != ah + 1)
    return "topology.g=" + str(s.g) + ": the palmtree arrangement needs g = a*h+1 = " +
           str(ah + 1) + " (use topology.arrangement=absolute for fewer groups)";
  if (s.arrangement == Arrangement::Absolute && ah % (s.g - 1) != 0) {
    std::string ok;
    for (long g = 2; g <= ah + 1; ++g)
      if (ah % (g - 1) == 0) ok += (ok.empty() ? "" : ", ") + str(g);
    return "topology.g=" + str(s.g) + ": the absolute arrangement needs (g-1) to divide a*h=" +
           str(ah) + " so every group pair gets the same number of global links; allowed g: " + ok;
  }
  return {};
}

Dragonfly::Dragonfly(const DragonflyShape& s) : m_s(s) {
  if (auto why = check_shape(s); !why.empty()) throw std::invalid_argument(why);
  const int a = s.a, h = s.h, g = s.g, ah = a * h;
  m_links_per_pair = ah / (g - 1);
  m_peer.resize(static_cast<size_t>(g) * a * h);
  m_pair_links.resize(static_cast<size_t>(g) * g * m_links_per_pair, GlobalLinkEnd{-1, -1});
  std::vector<int> filled(static_cast<size_t>(g) * g, 0);
  for (int G = 0; G < g; ++G) {
    for (int t = 0; t < ah; ++t) {
      int G2, t2;
      if (s.arrangement == Arrangement::Palmtree) {
        G2 = ((G - t - 1) % g + g) % g;
        t2 = ah - 1 - t;
      } else {
        const int j = t % (g - 1), k = t / (g - 1);
        G2 = j < G ? j : j + 1;
        t2 = k * (g - 1) + (G < G2 ? G : G - 1);
      }
      const int sw = switch_id(G, t / h);
      const GlobalLinkEnd far{switch_id(G2, t2 / h),
                              static_cast<int16_t>(first_global_port() + t2 % h)};
      m_peer[static_cast<size_t>(sw) * h + t % h] = far;
      const size_t pair = static_cast<size_t>(G) * g + G2;
      m_pair_links[pair * m_links_per_pair + filled[pair]++] =
          GlobalLinkEnd{sw, static_cast<int16_t>(first_global_port() + t % h)};
    }
  }
}

}  // namespace scfly
