// hyperx: a topology written as an scfly plug-in, with the routing that runs on it. Nothing in
// scfly is edited: this file and its two registrations are the whole topology.
//
// The topology: a HyperX of L dimensions with S switches in each (Ahn, Binkert, Davis,
// McLaren, Schreiber, "HyperX: Topology, Routing, and Packaging of Efficient Large-Scale
// Networks", SC 2009, sec. 3), one link between two switches (trunking K = 1) and p hosts per
// switch: a switch at coordinates (c_0, ..., c_{L-1}) is linked to every switch that differs
// from it in exactly one coordinate, so each dimension is a complete graph of S switches.
// Keys: topology.hyperx.s (S), topology.hyperx.l (L), topology.p. Ports: the p host ports,
// then dimension 0's S-1 links, dimension 1's, ...; link j of dimension d goes to coordinate
// j (j < c_d) or j + 1 (j >= c_d). One port class, "hx" (its keys: switch.vcs.hx,
// switch.input_buffer.hx, switch.output_buffer.hx, links.hx_latency).
//
// The routing, hyperx-dor: dimension-order routing (the paper's DOR, sec. 4.1). Decision rule:
// at each switch, the lowest dimension whose coordinate differs from the destination's is
// corrected in one hop, straight to the destination's coordinate; at the destination switch
// the packet ejects. Minimal: a path has as many hops as coordinates differ, at most L.
// Congestion signal read: none (oblivious). VC use per hop: VC 0 on every hop. One VC is
// deadlock-free: a packet only moves to a higher dimension, so the channel dependencies run
// from dimension d's links to higher dimensions' and no cycle closes; `scfly check-deadlock`
// verifies it from this very function.
#include <scfly/routing_units/registry.h>
#include <scfly/topologies/registry.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

class HyperX final : public scfly::Topology {
 public:
  HyperX(int s, int l, int p) : m_s(s), m_l(l), m_p(p) {
    m_switches = 1;
    for (int d = 0; d < l; ++d) {
      m_stride.push_back(m_switches);
      m_switches *= s;
    }
  }

  std::string describe() const override {
    return "hyperx(S=" + std::to_string(m_s) + ",L=" + std::to_string(m_l) + ",p=" + std::to_string(m_p) + ")";
  }
  int num_switches() const override { return m_switches; }
  int hosts_per_switch() const override { return m_p; }
  int radix() const override { return m_p + m_l * (m_s - 1); }
  int num_port_classes() const override { return 2; }
  const char* port_class_name(int cls) const override { return cls == scfly::kHostClass ? "host" : "hx"; }
  int port_class_of(int port) const override { return port < m_p ? scfly::kHostClass : 1; }
  scfly::PortEnd neighbor(int sw, int port) const override {
    const int link = port - m_p, d = link / (m_s - 1), j = link % (m_s - 1);
    const int c = coord(sw, d), to = j < c ? j : j + 1;
    const int far = sw + (to - c) * m_stride[static_cast<size_t>(d)];
    return scfly::PortEnd{far, static_cast<int16_t>(port_to(d, to, c))};
  }

  int dims() const { return m_l; }
  int coord(int sw, int d) const { return sw / m_stride[static_cast<size_t>(d)] % m_s; }
  // The port of a switch at coordinate `from` in dimension d toward coordinate `to`.
  int port_to(int d, int from, int to) const { return m_p + d * (m_s - 1) + (to < from ? to : to - 1); }

 private:
  int m_s, m_l, m_p, m_switches = 1;
  std::vector<int> m_stride;
};

class HyperXDor final : public scfly::RoutingPolicy {
 public:
  explicit HyperXDor(const HyperX& t) : m_t(t) {}
  scfly::RouteCandidates route(int sw, int, scfly::RouteHeader& h, scfly::Rng&,
                               const scfly::RouteContext&) const override {
    for (int d = 0; d < m_t.dims(); ++d) {
      const int here = m_t.coord(sw, d), there = m_t.coord(h.dst_switch, d);
      if (here != there) return scfly::RouteCandidates::one({static_cast<int16_t>(m_t.port_to(d, here, there)), 0});
    }
    return scfly::RouteCandidates::one({static_cast<int16_t>(m_t.host_port(h.dst_host)), 0});  // eject
  }

 private:
  const HyperX& m_t;
};

scfly::TopologyPlugin topology() {
  scfly::TopologyPlugin t;
  t.name = "hyperx";
  t.doc = "example plug-in: HyperX, a complete graph of S switches in each of L dimensions (Ahn et al., SC 2009)";
  t.keys = {{"s", 4, 2, 64, "switches per dimension (S)"}, {"l", 2, 1, 4, "dimensions (L)"}};
  t.classes = {{"hx", 64, 32, 10}};  // input / output buffer phits per VC, link latency cycles
  t.default_p = 2;
  t.make = [](const scfly::TopologyKeyValues& k) -> std::unique_ptr<scfly::Topology> {
    const int64_t s = k.at("s"), l = k.at("l");
    int64_t switches = 1;
    for (int64_t d = 0; d < l; ++d) switches *= s;
    if (switches > 65536)
      throw std::invalid_argument("S^L = " + std::to_string(switches) + " switches; at most 65536");
    if (k.at("p") + l * (s - 1) > 256)
      throw std::invalid_argument("a radix of p + L(S-1) = " + std::to_string(k.at("p") + l * (s - 1)) +
                                  " ports; at most 256");
    return std::make_unique<HyperX>(static_cast<int>(s), static_cast<int>(l), static_cast<int>(k.at("p")));
  };
  return t;
}

scfly::RoutingMechanism dor() {
  scfly::RoutingMechanism m;
  m.name = "hyperx-dor";
  m.doc = "example plug-in: dimension-order routing on a HyperX, one hop per differing coordinate";
  m.topologies = {"hyperx"};
  m.link_vcs = 1;
  m.make = [](const scfly::Topology& topo,
              const scfly::RoutingKeyValues&) -> std::unique_ptr<const scfly::RoutingPolicy> {
    const auto* hx = dynamic_cast<const HyperX*>(&topo);
    if (!hx) throw std::invalid_argument("hyperx-dor routes on a hyperx topology only");
    return std::make_unique<HyperXDor>(*hx);
  };
  return m;
}

}  // namespace

SCFLY_REGISTER_TOPOLOGY(kHyperX, topology());
SCFLY_REGISTER_ROUTING(kHyperXDor, dor());
