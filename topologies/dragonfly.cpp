#include "topologies/dragonfly.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace scfly {

const char* to_string(Arrangement a) {
  switch (a) {
    case Arrangement::Palmtree: return "palmtree";
    case Arrangement::Absolute: return "absolute";
    case Arrangement::AbsoluteFsu: return "absolute-fsu";
  }
  return "?";
}

namespace {

// One global link of the absolute-fsu arrangement: (switch, port index j) at each end.
struct FsuLink {
  int sw_a, j_a, sw_b, j_b;
};

// The absolute-fsu wiring (dragonfly.h), or "" in `why` and the links in creation order.
std::vector<FsuLink> fsu_links(const DragonflyShape& s, std::string& why) {
  const int a = s.a, h = s.h, g = s.g, n = a * g;
  std::vector<int> deg(static_cast<size_t>(n), 0);
  std::vector<FsuLink> out;
  int cg = 1 % g, ci = 0;  // the cursor (group, index)
  for (int src = 0; src < n; ++src) {
    int idle = 0;  // cursor steps since the last link: a whole round without one = stuck
    while (deg[static_cast<size_t>(src)] < h) {
      const int dst = cg * a + ci;
      if (cg != src / a && deg[static_cast<size_t>(dst)] < h) {
        out.push_back({src, deg[static_cast<size_t>(src)]++, dst, deg[static_cast<size_t>(dst)]++});
        idle = 0;
      } else if (++idle > n) {
        why = "switch " + std::to_string(src) + " keeps free global ports that no switch of another group can take";
        return {};
      }
      if (++cg == g) {
        cg = 0;
        ci = (ci + 1) % a;
      }
    }
  }
  const int k = a * h / (g - 1);
  std::vector<int> pairs(static_cast<size_t>(g) * g, 0);
  for (const FsuLink& l : out) {
    ++pairs[static_cast<size_t>(l.sw_a / a) * g + l.sw_b / a];
    ++pairs[static_cast<size_t>(l.sw_b / a) * g + l.sw_a / a];
  }
  for (int x = 0; x < g; ++x)
    for (int y = 0; y < g; ++y)
      if (x != y && pairs[static_cast<size_t>(x) * g + y] != k) {
        why = "groups " + std::to_string(x) + " and " + std::to_string(y) + " get " +
              std::to_string(pairs[static_cast<size_t>(x) * g + y]) + " links, not a*h/(g-1) = " + std::to_string(k);
        return {};
      }
  return out;
}

}  // namespace

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
  if (s.arrangement == Arrangement::AbsoluteFsu) {
    if (ah % (s.g - 1) != 0)
      return "topology.g=" + str(s.g) + ": the absolute-fsu arrangement needs (g-1) to divide a*h=" + str(ah) +
             " (use topology.arrangement=absolute, which says which g it takes)";
    std::string why;
    fsu_links(s, why);
    if (!why.empty())
      return "topology.arrangement=absolute-fsu: the T-UGAL authors' greedy wiring does not build dfly(" +
             str(s.p) + "," + str(s.a) + "," + str(s.h) + "," + str(s.g) + ") (" + why +
             "); use topology.arrangement=absolute";
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
  if (s.arrangement == Arrangement::AbsoluteFsu) {
    // Both directions of a group pair list a link at the same position, as the other
    // arrangements do.
    std::string why;
    for (const FsuLink& l : fsu_links(s, why)) {
      const int16_t pa = static_cast<int16_t>(first_global_port() + l.j_a);
      const int16_t pb = static_cast<int16_t>(first_global_port() + l.j_b);
      m_peer[static_cast<size_t>(l.sw_a) * h + l.j_a] = GlobalLinkEnd{l.sw_b, pb};
      m_peer[static_cast<size_t>(l.sw_b) * h + l.j_b] = GlobalLinkEnd{l.sw_a, pa};
      const int ga = l.sw_a / a, gb = l.sw_b / a;
      const size_t ab = static_cast<size_t>(ga) * g + gb, ba = static_cast<size_t>(gb) * g + ga;
      m_pair_links[ab * m_links_per_pair + filled[ab]++] = GlobalLinkEnd{l.sw_a, pa};
      m_pair_links[ba * m_links_per_pair + filled[ba]++] = GlobalLinkEnd{l.sw_b, pb};
    }
    return;
  }
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
