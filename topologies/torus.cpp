#include "topologies/torus.h"

#include <cstdlib>
#include <stdexcept>

namespace scfly {

std::string check_shape(const TorusShape& s) {
  auto str = [](long v) { return std::to_string(v); };
  if (s.k < 2) return "topology.k=" + str(s.k) + ": switches per dimension must be >= 2";
  if (s.n < 1 || s.n > Torus::kMaxDims)
    return "topology.n=" + str(s.n) + ": dimensions must be in [1, " + str(Torus::kMaxDims) + "]";
  if (s.p < 1) return "topology.p=" + str(s.p) + ": hosts per switch must be >= 1";
  if (s.w < 1 || s.w > 8) return "topology.terminal_ports=" + str(s.w) + ": ports per host must be in [1, 8]";
  if (s.p * s.w + 2 * s.n > 250)
    return "switch radix p*terminal_ports+2n=" + str(s.p * s.w + 2 * s.n) + " exceeds the supported 250 ports";
  long switches = 1;
  for (int d = 0; d < s.n; ++d) {
    switches *= s.k;
    if (switches > (1L << 20))
      return "k^n = " + str(s.k) + "^" + str(s.n) + " exceeds the supported 2^20 switches";
  }
  if (switches * s.p > (1L << 24)) return "k^n * p exceeds the supported 2^24 nodes";
  return {};
}

Torus::Torus(const TorusShape& s) : m_s(s), m_hp(s.p * s.w) {
  if (auto why = check_shape(s); !why.empty()) throw std::invalid_argument(why);
  for (int d = 0; d < s.n; ++d) {
    m_stride.push_back(m_switches);
    m_switches *= s.k;
  }
}

std::string Torus::describe() const {
  std::string d = std::to_string(m_s.k) + "-ary " + std::to_string(m_s.n) + "-" + (m_s.mesh ? "mesh" : "cube");
  if (m_s.p != 1) d += ", " + std::to_string(m_s.p) + " hosts per switch";
  if (m_s.w != 1) d += ", " + std::to_string(m_s.w) + " terminal ports per host";
  return d;
}

bool Torus::connected(int sw, int port) const {
  if (port < m_hp || port >= radix()) return false;
  return !m_s.mesh || !crosses_wrap(coord(sw, dim_of(port)), minus_of(port));
}

PortEnd Torus::neighbor(int sw, int port) const {
  if (!connected(sw, port)) return PortEnd{};
  const int d = dim_of(port);
  const bool minus = minus_of(port);
  const int x = coord(sw, d);
  const int nx = minus ? (x + m_s.k - 1) % m_s.k : (x + 1) % m_s.k;
  return PortEnd{with_coord(sw, d, nx), static_cast<int16_t>(this->port(d, !minus))};
}

int Torus::distance(int a, int b) const {
  int h = 0;
  for (int d = 0; d < m_s.n; ++d) {
    const int xa = coord(a, d), xb = coord(b, d);
    if (m_s.mesh) {
      h += std::abs(xa - xb);
    } else {
      const int fwd = ring_hops(xa, xb, false);
      h += fwd < m_s.k - fwd ? fwd : m_s.k - fwd;
    }
  }
  return h;
}

double Torus::capacity() const {
  // Uniform random traffic over all k^n destinations (self included, the usual convention).
  const double k = m_s.k;
  if (!m_s.mesh) {
    // Edge-symmetric: every channel carries the mean load lambda * H / (2n) with
    // H = n * (mean ring distance) = n * (k^2 - (k mod 2)) / (4k).
    const double ring = (k * k - (m_s.k % 2)) / (4.0 * k);
    return 2.0 / ring / m_s.p;
  }
  // Mesh: the busiest channel is at the middle cut of a line: lambda * c (k - c) / k with
  // c = floor(k/2) switches on one side.
  const double c = m_s.k / 2;
  return k / (c * (k - c)) / m_s.p;
}

}  // namespace scfly
