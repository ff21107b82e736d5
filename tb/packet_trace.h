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
//
// Row order: by delivery cycle, then (destination, source, generation cycle), then in the
// order the destination's NIC delivered them; so the file does not depend on the order in
// which the SystemC kernel runs the NICs within a cycle, nor on the block scheduler's
// (tb/network.h), which runs each group through a window of cycles before the next group
// and each shard of groups on its own thread. On the kernel a cycle's rows are written when
// the next cycle's first row arrives; on the block scheduler (`windowed`) each shard
// collects its rows in a shard trace of its own (the shard constructor: no file) and the
// network merges them into the file's trace at the window's end (absorb, end_window).
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

  // A shard's trace on the block scheduler: `file`'s format and window, no file; its rows go
  // to `file` through file.absorb(*this).
  struct Shard {};
  PacketTrace(Shard, const PacketTrace& file);

  void delivered(const Packet& p, uint64_t at);
  // The block scheduler: rows arrive out of cycle order within a window; kept until
  // end_window.
  void set_windowed() { m_windowed = true; }
  // Takes a shard trace's rows (call in shard order), then writes the window's rows in order.
  void absorb(PacketTrace& shard);
  void end_window();
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
  // The rows not yet written (the delivery cycle in progress, or the block window's), ordered
  // as the header says when they are written.
  // Their text is m_text[off, off + len): one buffer for every pending row, so that a row
  // costs no allocation of its own.
  struct Row {
    uint64_t at;
    int32_t dst, src;
    uint64_t gen;
    uint32_t off, len;
  };
  void write_pending();
  std::vector<Row> m_pending;
  std::string m_text;
  uint64_t m_cycle = 0;
  bool m_windowed = false;
};

}  // namespace scfly
