// k-ary n-cube: a torus (every ring closed by a wrap-around link) or a mesh (rings left
// open), k >= 2 switches per dimension, n >= 1 dimensions, p hosts per switch (default 1).
// The network of the GAL paper (Singh, Dally, Towles, Gupta, "Globally Adaptive Load-Balanced
// Routing on k-ary n-cubes"; published as "... on Tori", IEEE Computer Architecture Letters,
// 2004; its evaluation network is the 8-ary 2-cube, its analytic one the 8-node ring).
//
// Identifiers: switch s has coordinates (x_0, ..., x_{n-1}) with s = sum x_d k^d (dimension 0
// least significant, BookSim's kncube numbering); node n = s*p + host.
// Terminal bandwidth: each host has w terminal ports (topology.terminal_ports, default 1),
// so a node injects and ejects up to w phits per cycle (the GAL paper's NN row needs 2n:
// Table IV gives NN 8 x VAL's 0.5 = 4 phits/node/cycle on the 8-ary 2-cube). Let P = p * w,
// the host ports.
// Port map (stated once, used everywhere):
//   ports [0, P)        host ports (injection / ejection): port host * w + j is terminal
//                       port j of host `host`, as in every topology
//   port P + 2d         dimension d, + direction: output to the switch with x_d + 1 (mod k),
//                       input from it (so a packet arriving here travels in the - direction)
//   port P + 2d + 1     dimension d, - direction: output to x_d - 1 (mod k), input from it
// The + output of s is wired to the - input of its + neighbour and back, so
// neighbor(s, P+2d) = (s + e_d, P+2d+1). With k = 2 a torus has two distinct channels each
// way between the two switches of a ring (the + and the - one).
// Wrap links: the channel from x_d = k-1 to 0 (+) and from 0 to k-1 (-); a mesh lacks them,
// and the ports that would carry them are unconnected (connected() = false).
// Port classes: host and one class "link" for every switch-to-switch port (buffers, VCs
// and latency are configured per class: switch.vcs.link, links.link_latency, ...).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "topologies/topology.h"

namespace scfly {

struct TorusShape {
  int k = 8, n = 2, p = 1;
  bool mesh = false;
  int w = 1;  // terminal ports per host
};

// Empty when the shape is buildable, else why not and what is allowed.
std::string check_shape(const TorusShape& s);

class Torus final : public Topology {
 public:
  static constexpr int kMaxDims = 6;  // header masks are 8 bits; radix stays small
  explicit Torus(const TorusShape& s);  // throws std::invalid_argument on a bad shape

  // Topology
  std::string describe() const override;
  int num_switches() const override { return m_switches; }
  int hosts_per_switch() const override { return m_s.p; }
  int radix() const override { return m_hp + 2 * m_s.n; }
  int num_port_classes() const override { return 2; }
  const char* port_class_name(int cls) const override { return cls == kHostClass ? "host" : "link"; }
  int port_class_of(int port) const override { return port < m_hp ? kHostClass : 1; }
  PortEnd neighbor(int sw, int port) const override;
  bool connected(int sw, int port) const override;
  int terminal_ports() const override { return m_s.w; }
  // Topology's host-port helpers without its virtual calls (the routing hot path sees a
  // Torus): same results.
  int host_ports() const { return m_hp; }
  int host_port(int host, int j = 0) const { return host * m_s.w + j; }
  bool is_host_port(int port) const { return port < m_hp; }

  const TorusShape& shape() const { return m_s; }
  int k() const { return m_s.k; }
  int n() const { return m_s.n; }
  bool mesh() const { return m_s.mesh; }
  int coord(int sw, int d) const { return (sw / m_stride[static_cast<size_t>(d)]) % m_s.k; }
  // The switch with coordinate x in dimension d and sw's coordinates elsewhere.
  int with_coord(int sw, int d, int x) const {
    return sw + (x - coord(sw, d)) * m_stride[static_cast<size_t>(d)];
  }
  // Output port of dimension d in direction `minus` (false: +, true: -).
  int port(int d, bool minus) const { return m_hp + 2 * d + (minus ? 1 : 0); }
  // For a switch-to-switch port: its dimension and direction.
  int dim_of(int port) const { return (port - m_hp) / 2; }
  bool minus_of(int port) const { return ((port - m_hp) & 1) != 0; }
  // True if leaving a switch at coordinate x in direction `minus` crosses the wrap link
  // (the dateline of the ring).
  bool crosses_wrap(int x, bool minus) const { return minus ? x == 0 : x == m_s.k - 1; }
  // Hops from coordinate a to b in direction `minus` (0 if a == b; < k).
  int ring_hops(int a, int b, bool minus) const {
    const int fwd = ((b - a) % m_s.k + m_s.k) % m_s.k;
    return minus ? (fwd == 0 ? 0 : m_s.k - fwd) : fwd;
  }
  // Minimal hops between switches (ring or line distance summed over the dimensions).
  int distance(int a, int b) const;
  // UR capacity in phits/node/cycle with unit channels: the load at which the bisection
  // saturates under uniform random traffic (8/k for an even-k torus, 4/k for an even-k
  // mesh, per host: divided by p; the GAL paper's normalization, fn. 6).
  double capacity() const;

 private:
  TorusShape m_s;
  int m_hp = 1;  // host ports p * w
  int m_switches = 1;
  std::vector<int> m_stride;  // k^d
};

}  // namespace scfly
