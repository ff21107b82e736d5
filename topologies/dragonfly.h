// Dragonfly dfly(p, a, h, g): g fully connected groups of a fully connected switches, each
// switch with p hosts, a-1 local ports and h global ports.
//
// Port map (stated once, used everywhere; see port_class()):
//   ports [0, p)                 host ports: input = injection from host n, output = ejection
//   ports [p, p+a-1)             local ports; local port i reaches switch index i (i < r) or
//                                i+1 (i >= r) of the same group, r being this switch's index
//   ports [p+a-1, p+a-1+h)       global ports; global port j of switch r carries the group's
//                                global link t = r*h + j
// Identifiers: switch s = G*a + r (group G, index r); node n = s*p + host.
//
// Global-link arrangements (which group and which remote link global link t of group G joins):
//   palmtree (canonical, needs g = a*h+1): t -> group (G - t - 1) mod g, landing on link
//     a*h-1-t there. This is FOGSim's orientation (the mirror of G + t + 1; both are
//     palmtrees). Under it ADV+1 ... ADV+h from group G all use links t = a*h-h ... a*h-1,
//     owned by switch a-1: the ADVc bottleneck is the last switch of the group, as in the
//     ACOR paper (sec. 5.2, Fig. 8).
//   absolute (any g with (g-1) dividing a*h, Hastings et al. 2015 as used by T-UGAL SC'19):
//     the a*h links of a group are dealt round-robin over the other g-1 groups in increasing
//     group order: link t goes to the (t mod (g-1))-th other group, its k = t div (g-1)-th
//     link to that group; it lands on the k-th link of the remote group that points back.
//     Each group pair is joined by a*h/(g-1) global links.
//   absolute-fsu (the T-UGAL authors' BookSim arrangement `absolute_improved`, in the
//     artifact of their SC'19 paper): one cursor (group, index) over the switches,
//     starting at (1, 0); for each switch in id order, while it has a free global port, the
//     cursor's switch is linked to it if it lies in another group and has a free port, and
//     the cursor steps to the next group (wrapping to group 0 and the next index). Ports are
//     taken in order on both ends. Built only where that gives every group pair a*h/(g-1)
//     links and fills every port (dfly(4,8,4,{9,17,33}) among others); check_shape says so
//     otherwise. The same link counts as absolute, placed differently (on dfly(4,8,4,9) 127
//     of the 144 links differ).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "topologies/topology.h"

namespace scfly {

enum class Arrangement { Palmtree, Absolute, AbsoluteFsu };
// Dragonfly port classes; the values are the Topology class ids (Host = kHostClass).
enum class PortClass : uint8_t { Host = 0, Local = 1, Global = 2 };

const char* to_string(Arrangement a);
const char* to_string(PortClass c);

struct DragonflyShape {
  int p = 2, a = 4, h = 2, g = 9;
  Arrangement arrangement = Arrangement::Palmtree;
};

// Returns an empty string when the shape is buildable, else a message saying why not and
// what is allowed.
std::string check_shape(const DragonflyShape& s);

using GlobalLinkEnd = PortEnd;  // the far end of a global link: switch id and its port

class Dragonfly final : public Topology {
 public:
  explicit Dragonfly(const DragonflyShape& s);  // throws std::invalid_argument on bad shape

  // Topology
  std::string describe() const override;
  int num_switches() const override { return m_s.g * m_s.a; }
  int hosts_per_switch() const override { return m_s.p; }
  int radix() const override { return m_s.p + m_s.a - 1 + m_s.h; }
  int num_port_classes() const override { return 3; }
  const char* port_class_name(int cls) const override { return to_string(static_cast<PortClass>(cls)); }
  int port_class_of(int port) const override { return static_cast<int>(port_class(port)); }
  PortEnd neighbor(int sw, int port) const override;

  const DragonflyShape& shape() const { return m_s; }
  int p() const { return m_s.p; }
  int a() const { return m_s.a; }
  int h() const { return m_s.h; }
  int g() const { return m_s.g; }
  int links_per_group_pair() const { return m_links_per_pair; }

  int group_of(int sw) const { return sw / m_s.a; }
  int index_of(int sw) const { return sw % m_s.a; }
  int switch_id(int group, int index) const { return group * m_s.a + index; }

  PortClass port_class(int port) const {
    return port < m_s.p ? PortClass::Host
                        : (port < m_s.p + m_s.a - 1 ? PortClass::Local : PortClass::Global);
  }
  int first_local_port() const { return m_s.p; }
  int first_global_port() const { return m_s.p + m_s.a - 1; }
  // Local port of switch index `from` that reaches switch index `to` (same group, from != to).
  int local_port(int from, int to) const { return m_s.p + (to < from ? to : to - 1); }
  // Switch index reached through local port `port` of switch index `from`.
  int local_neighbor(int from, int port) const {
    int i = port - m_s.p;
    return i < from ? i : i + 1;
  }
  // The far end of global port `port` of switch `sw`.
  GlobalLinkEnd global_peer(int sw, int port) const {
    return m_peer[static_cast<size_t>(sw) * m_s.h + (port - first_global_port())];
  }
  // Group reached through global port `port` of switch `sw`.
  int global_target_group(int sw, int port) const { return group_of(global_peer(sw, port).sw); }

  // The global links leaving group `from` toward group `to` (from != to), as
  // (switch id in `from`, global port) pairs; links_per_group_pair() of them.
  const GlobalLinkEnd* links_between(int from, int to) const {
    return &m_pair_links[(static_cast<size_t>(from) * m_s.g + to) * m_links_per_pair];
  }

 private:
  DragonflyShape m_s;
  int m_links_per_pair = 1;
  std::vector<GlobalLinkEnd> m_peer;        // [switch*h + j]
  std::vector<GlobalLinkEnd> m_pair_links;  // [(from*g + to)*links_per_pair + k]
};

}  // namespace scfly
