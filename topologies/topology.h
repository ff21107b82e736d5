// The one small interface through which the switch, the links, the NICs and the network
// builder see a topology (Dragonfly, and the k-ary n-cube torus and mesh of topologies/torus.h).
//
// Contract:
// - Switches are 0 .. num_switches()-1, each with radix() ports and hosts_per_switch() hosts.
// - Every host reaches its switch through terminal_ports() = W ports (1 on a Dragonfly; a
//   torus or mesh may give a node more terminal bandwidth, topology.terminal_ports): host
//   ports are ports [0, host_ports()) = [0, hosts_per_switch() * W) of every switch, port
//   host * W + j being terminal port j of that host (input = injection from the host,
//   output = ejection to it); node n is host n % hosts_per_switch() of switch
//   n / hosts_per_switch().
// - Every port has a class: class 0 (kHostClass) is the host class; the topology names its
//   other classes (Dragonfly: "local", "global"; a torus or mesh: "link"). Buffer depths, VC
//   counts and link latencies are configured per class by these names (sc_main/config.cpp),
//   and per-class hop counts are reported under them ("<name>_hops_avg").
// - neighbor(sw, port) is the far end of a switch-to-switch port; the map is an involution
//   (neighbor(neighbor(e)) = e), which is how the builder wires one channel each way. A
//   port may be unconnected (connected() false: a mesh's edge); the builder terminates it.
// Routing units that need more than this (groups, global-link arrangements, coordinates) take
// the concrete topology itself.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace scfly {

// Port classes per topology, host class included (Dragonfly 3, torus and mesh 2). Small on
// purpose: a packet counts its hops per class.
constexpr int kMaxPortClasses = 4;
constexpr int kHostClass = 0;
// VCs per port, data and control together (config: switch.vcs.* plus the control VCs).
constexpr int kMaxPortVcs = 16;

// One end of a link: a switch and one of its ports.
struct PortEnd {
  int32_t sw = -1;
  int16_t port = -1;
};

class Topology {
 public:
  virtual ~Topology() = default;

  // "dfly(2,4,2,9) palmtree": for summaries and messages.
  virtual std::string describe() const = 0;
  virtual int num_switches() const = 0;
  virtual int hosts_per_switch() const = 0;
  virtual int radix() const = 0;
  // Number of port classes, the host class included (<= kMaxPortClasses).
  virtual int num_port_classes() const = 0;
  virtual const char* port_class_name(int cls) const = 0;
  virtual int port_class_of(int port) const = 0;
  // The far end of switch-to-switch port `port` of switch `sw` (not for host ports); an
  // unconnected port (a mesh edge) gives PortEnd{} (sw = -1).
  virtual PortEnd neighbor(int sw, int port) const = 0;
  // False for a switch-to-switch port with no link (a mesh's edge); routing never uses it.
  virtual bool connected(int sw, int port) const { (void)sw, (void)port; return true; }
  // Ports per host (terminal bandwidth in phits/cycle each way); 1 unless the topology says.
  virtual int terminal_ports() const { return 1; }

  int num_nodes() const { return num_switches() * hosts_per_switch(); }
  int switch_of_node(int node) const { return node / hosts_per_switch(); }
  int host_of_node(int node) const { return node % hosts_per_switch(); }
  int node_of(int sw, int host) const { return sw * hosts_per_switch() + host; }
  int host_ports() const { return hosts_per_switch() * terminal_ports(); }
  // Terminal port j of host `host`.
  int host_port(int host, int j = 0) const { return host * terminal_ports() + j; }
  int host_of_port(int port) const { return port / terminal_ports(); }
  bool is_host_port(int port) const { return port < host_ports(); }
  // Class id of a name, -1 if the topology has no such class.
  int port_class_by_name(const std::string& name) const {
    for (int c = 0; c < num_port_classes(); ++c)
      if (name == port_class_name(c)) return c;
    return -1;
  }
};

}  // namespace scfly
