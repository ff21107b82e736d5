// scfly run --packet-trace FILE: one CSV line per data packet delivered to a NIC, written as
// it is delivered (a buffered writer; nothing is kept per packet). Columns, in this order:
//
//   src_node, dst_node, src_switch, dst_switch  the endpoints
//   phits                                        the packet's length
//   gen_cycle, inject_cycle, deliver_cycle       generated into the source queue, head onto
//                                                the injection link, tail at the sink
//   latency, network_latency                     deliver - gen, deliver - inject
//   hops_<class>                                 switch-to-switch hops per port class of the
//                                                topology (Dragonfly: local, global; torus
//                                                and mesh: network)
//   nonminimal                                   1 if routed through a Valiant intermediate
//   policy                                       the Phase A misrouting policy (min, local,
//                                                crg-gr, crg-sw, rrg-gr, rrg-sw)
//   inter_switch                                 the Valiant intermediate, -1 for none
//   vlb_at                                       the switch that drew it: on a Dragonfly the
//                                                source switch or, for PAR turning
//                                                non-minimal in transit, the second switch of
//                                                the source group; on a torus the source
//                                                switch; -1 for none
//
// Only packets delivered in [from, to] (cycles, the --trace-from/--trace-to window) are
// written. Control frames never reach a NIC and are not traced.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "rtl_models/switch/flit.h"
#include "topologies/topology.h"

namespace scfly {

class Dragonfly;

class PacketTrace {
 public:
  // Opens `path` and writes the header line; throws std::runtime_error naming the file.
  PacketTrace(const std::string& path, const Topology& topo, uint64_t from, uint64_t to);
  ~PacketTrace();
  PacketTrace(const PacketTrace&) = delete;
  PacketTrace& operator=(const PacketTrace&) = delete;

  void delivered(const Packet& p, uint64_t at);
  // Flushes and closes the file; false (with the reason in error()) if a write failed.
  bool close();
  const std::string& error() const { return m_error; }

 private:
  void flush();
  void end_cycle();  // appends the pending cycle's rows to m_buf in their canonical order

  std::string m_path;
  std::FILE* m_f = nullptr;
  const Topology& m_topo;
  const Dragonfly* m_dfly = nullptr;  // the topology if a Dragonfly (vlb_at from the header's index)
  int m_classes = 0;
  uint64_t m_from, m_to;
  std::string m_buf;
  std::string m_error;
  // The rows of the delivery cycle in progress, ordered by (destination, source, generation
  // cycle) when the cycle ends: the file does not depend on the order in which SystemC runs
  // the NICs within a cycle.
  struct Row {
    int32_t dst, src;
    uint64_t gen;
    std::string text;
  };
  std::vector<Row> m_pending;
  uint64_t m_cycle = 0;
};

}  // namespace scfly
