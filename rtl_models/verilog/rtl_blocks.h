// Verilated RTL blocks behind the C++ units' interfaces, for `--rtl` co-simulation.
//
// Every block is a Verilated C++ model called in process, inside the cycle of the switch
// (or NIC) that owns it, like the C++ unit it replaces: inputs set, eval(), outputs read.
// - Clocked blocks (acor_level_ctrl.sv, gal_threshold.sv, qcn_port_prob.sv, qcn_cp.sv, the
//   allocators, flow_control.sv, link_arbiter.sv) get one clock edge where the C++ unit
//   updates its state, so their registers hold what the unit's do, cycle for cycle.
// - Combinational blocks are evaluated where the C++ unit is called: the PB detector once
//   per cycle, the selectors and route units once per routed head.
// Each model is named by its place in the SystemC hierarchy (net.sw7.acor_rtl.
// u_acor_level_ctrl), so its ports and internal nets go into the VCD under the switch
// (rtl_signals()). Per-switch models belong to their switch, so threads and ranks step them
// with it; the network-wide ones (min_route, quadrant, ugal) are one per shard of switches.
// A run with an RTL block is cycle-for-cycle the run with the C++ unit (tests:
// test_rtl_*.cpp). The Verilated models are built with SCFLY_RTL; without it
// (rtl_blocks_none.cpp) rtl_available() is false and every factory throws
// std::invalid_argument.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "routing_units/acor_level_ctrl.h"
#include "routing_units/forwarding_table.h"
#include "routing_units/gal_threshold.h"
#include "routing_units/qcn.h"
#include "routing_units/torus_routing.h"
#include "routing_units/ugal.h"
#include "rtl_models/switch/parts/allocator.h"
#include "rtl_models/switch/parts/allocator_variant_base.h"
#include "topologies/dragonfly.h"

namespace scfly {

// True if this build holds the Verilated blocks.
bool rtl_available();

// rtl_models/verilog/acor_level_ctrl.sv as a LevelCtrl: a Verilated model in process, named
// `name` (net.swN.acor_rtl.u_acor_level_ctrl), reset at construction. step() drives
// blocked_i for the current cycle and clocks the registers once; level()/counter()/timer()
// read its outputs. It must see every cycle (needs_every_cycle): hardware has no
// closed-form catch-up for a sleeping switch, and idle() with a non-zero gap throws
// std::logic_error.
std::unique_ptr<LevelCtrl> make_rtl_level_ctrl(const AcorLevelParams& p, const std::string& name);

// rtl_models/verilog/pb_sat_detector.sv for a switch with `h` global ports: one model for
// every h = 1..kPbPortsMax (widths.def PbPortsMax; h, C_g and T_g are inputs held from
// construction, as a switch sets them at reset; throws std::invalid_argument beyond), in
// process, named `name` (net.swN.pb_rtl.u_pb_sat_detector). drive(q) sets this cycle's h
// global-port occupancies (saturated to 16 bits), evaluates the block and calls
// `on_flags(flags)` with its h flags before it returns.
class PbDetectorBlock {
 public:
  virtual ~PbDetectorBlock() = default;
  virtual void drive(const uint32_t* q) = 0;
};
std::unique_ptr<PbDetectorBlock> make_rtl_pb_detector(int h, uint32_t cg, uint32_t tg,
                                                      std::function<void(const uint32_t* flags)> on_flags,
                                                      const std::string& name);
bool rtl_pb_supports(int h);
std::string rtl_pb_widths();  // "h = 1..16" (the global-port counts the model holds), for messages

// ugal_selector.sv as the UGAL selection rule (in process, see above), one Verilated model
// named `name` (the network makes one per shard of its switches, each evaluated by one
// thread at a time: rtl_ugal_selector, rtl_ugal_selector1, ...).
std::unique_ptr<SelectionBlocks> make_rtl_selection_blocks(const std::string& name = "rtl_ugal_selector");

// Every port and internal net of the Verilated blocks named under `parent` (built with
// --public-flat-rw), for the VCD writer: scope (dotted SystemC hierarchy plus the Verilog
// instance), name, pointer to the value as Verilator stores it (1-8 bits uint8_t, 9-16
// uint16_t, 17-32 uint32_t, 33-64 uint64_t) and width in bits. Wider nets are skipped.
struct RtlSignal {
  std::string scope, name;
  const void* data;
  int bits;
};
std::vector<RtlSignal> rtl_signals(const sc_core::sc_object& parent);

// min_route.sv as the minimal-hop unit: one Verilated model for every palmtree or absolute
// shape within its widths (widths.def Mr*), the shape written into its shape registers when
// the unit is made. Throws std::invalid_argument for a shape beyond them;
// rtl_min_route_shapes() says which for messages. Named `name` (one per shard of the
// network's switches, like the UGAL selector).
std::unique_ptr<MinHopBlock> make_rtl_min_route(const Dragonfly& topo, const std::string& name = "rtl_min_route");
bool rtl_min_route_supports(const DragonflyShape& s);
std::string rtl_min_route_shapes();

// quadrant_sel.sv as the torus in-quadrant selector (in process, see above), Verilated for
// n = 1..6 dimensions; k <= 255 (scfly_pkg::CoordBits). Throws std::invalid_argument for a
// torus outside that. Draws the same order words from the caller's Rng as the C++ unit.
// Named `name` (one per shard, like the UGAL selector).
std::unique_ptr<QuadrantBlock> make_rtl_quadrant(const Torus& t, const std::string& name = "rtl_quadrant_sel");

// gal_threshold.sv as one GAL set's threshold controller: a Verilated model in process,
// named `name` (under its NIC, e.g. net.nic3.gal_rtl5, so rtl_signals(nic) finds its nets
// for the VCD), clocked once per cycle up to the cycle of each call. Needs p.n1 <=
// scfly_pkg::GalN1Max and p's thresholds within 16 bits (the config checks both).
std::unique_ptr<GalThresholdBlock> make_rtl_gal_threshold(const GalThresholdParams& p, const std::string& name);

// qcn_port_prob.sv as a switch's QCN port-probability unit for `ports` transit ports (<=
// scfly_pkg::QcnPortsMax): a Verilated model in process, named `name` (under its switch,
// e.g. net.sw3.qcn_rtl, so rtl_signals(switch) finds its nets for the VCD), one clock edge
// per update. Throws std::invalid_argument outside its widths.
std::unique_ptr<QcnPortBlock> make_rtl_qcn_port_prob(const QcnParams& q, int ports, const std::string& name);

// qcn_cp.sv as a switch's congestion points, one per transit port with Q_eq `qeq[i]` (<=
// 65535, loaded through its write port): in process, named `name` (net.swN.qcn_cp_rtl), one
// clock edge per update. Throws std::invalid_argument outside its widths.
std::unique_ptr<QcnCpBlock> make_rtl_qcn_cp(const QcnParams& q, const std::vector<uint32_t>& qeq,
                                            const std::string& name);

// ft_lookup.sv as switch `t.sw()`'s conditional forwarding table (in process, one
// evaluation per lookup), loaded with t's entries in lookup order through its write port
// and the probability register; named `name` (net.swN.ft_rtl). The build holds instances of
// 16, 64, 128 and 256 rows (scfly_pkg::FtEntriesMax); the table gets the smallest whose rows
// hold its entries (rtl_ft_lookup_rows), as an evaluation costs in proportion to the rows:
// dfly(2,4,2)'s tables (14 entries MIN-TABLE, 16 MIN-COND) take 16, dfly(4,8,4)'s (42, 46)
// 64, dfly(6,12,6)'s (86, 92) 128. The rows past the table are invalid and match nothing,
// so every lookup is the same in any instance that holds the table. Throws
// std::invalid_argument for a table of more than scfly_pkg::FtEntriesMax entries or a shape
// beyond its widths.
std::shared_ptr<FtBlock> make_rtl_ft_lookup(const ForwardingTable& t, const Dragonfly& topo, const std::string& name);
// The rows of the instance make_rtl_ft_lookup takes for a table of `entries` entries (16,
// 64, 128 or 256); 0 if none holds it (or the build has no RTL blocks).
int rtl_ft_lookup_rows(int entries);

// The switch's allocator as RTL (--rtl allocator): a Verilated model in process, one per
// switch, named `name` (net.swN.alloc_rtl, so rtl_signals(switch) finds its nets for the
// VCD), of the switch.allocator `kind` (sep_allocator.sv, alloc_output_first.sv,
// alloc_wavefront.sv, alloc_islip.sv), the smallest instance of the build that holds the
// switch (rtl_allocator_fits: radix 4 with 2 VCs, radix 8 and 16 with 4 VCs, radix 64 with 2
// VCs and 2 connections per port), configured with `cfg` and reset (pointers 0, as a new C++
// part). Its registers are the switch's arbiter state; the C++ part's are not used. One
// evaluation:
//   begin()             clocks the registers past the previous evaluation (if that moves
//                       them: the edge is deferred to here, so that between evaluations the
//                       nets show the last one's requests and grants) and clears the
//                       requests;
//   request(...)        input VC (ip, v) asks for output VC (op, ov); `age` is its head's
//                       injection cycle (read only with age priority, saturated here);
//   evaluate(n, ...)    n request-grant passes (1..max_passes(first pass)) over them with
//                       the connections each port holds (input / output side);
//   grants()            what it granted, each with its requested output VC and pass;
//   out_pointer(op)     (separable input-first) output op's pointer register as the
//                       evaluation started from;
//   order_pass(k, g)    (the variants) sorts g, the grants of the cycle's pass k, into the
//                       order the C++ part calls the switch's `grant` in;
//   end_cycle()         the cycle's last evaluation is done (the wavefront's diagonal moves
//                       at its edge).
struct RtlGrant {
  uint16_t in_port, out_port;
  uint8_t in_vc, out_vc, pass;
};
class AllocatorBlock {
 public:
  virtual ~AllocatorBlock() = default;
  virtual AllocatorKind kind() const = 0;
  virtual void begin() = 0;
  virtual void request(int ip, int v, int op, int ov, uint64_t age) = 0;
  virtual void evaluate(int passes, const uint8_t* in_active, const uint8_t* out_active) = 0;
  virtual const std::vector<RtlGrant>& grants() const = 0;
  virtual int out_pointer(int op) const = 0;
  // The passes one evaluation may run when it starts at the cycle's pass `from` (iSLIP's
  // later iterations: one, see rtl_blocks.cpp).
  virtual int max_passes(int from) const = 0;
  virtual void order_pass(int, std::vector<RtlGrant>&) {}
  virtual void end_cycle() {}
};
// True if an instance of allocator `kind` in this build holds a switch of `ports` allocator
// ports (internal ones included), at most `vcs` VCs on a port and `cap` connections per
// port; rtl_allocator_limits(kind) names the largest ("16 ports, 4 VCs per port, 4
// connections per port").
bool rtl_allocator_fits(int ports, int vcs, int cap, AllocatorKind kind = AllocatorKind::SeparableInput);
std::string rtl_allocator_limits(AllocatorKind kind = AllocatorKind::SeparableInput);
std::unique_ptr<AllocatorBlock> make_rtl_allocator(const AllocatorConfig& cfg, const std::string& name,
                                                   AllocatorKind kind = AllocatorKind::SeparableInput);

// flow_control.sv as one switch port's link-level flow control (--rtl flow_control): a
// Verilated model in process per port, named `name` (net.swN.fc_rtlP, so rtl_signals(switch)
// finds its nets for the VCD), the 4-VC instance (Vflow_control_v4) or, for a port with more
// VCs, the 16-VC one (Vflow_control_v16, kMaxPortVcs), reset with the port's downstream
// buffer per output VC (`cap`, 0 toward a host) and its PFC thresholds. One switch cycle:
//   land(v, n)        n credits of output VC v landed this cycle (set before evaluate);
//   fill(v, occ)      a phit was filed into input VC v, whose occupancy is now occ (PFC);
//   drain(v, occ)     a phit left input VC v (after any filing), whose occupancy is now occ;
//   evaluate()        settles the outputs: credits(v), overflow(v), pause(v), resume(v);
//   edge(spend)       spend[v] phits spent by output VC v this cycle, then the rising clock
//                     edge; this cycle's landings, fillings and drains are cleared;
//   xoff(v)           the paused register of input VC v (after the edge).
class FlowControlBlock {
 public:
  virtual ~FlowControlBlock() = default;
  virtual int vcs() const = 0;
  virtual void land(int v, uint32_t n) = 0;
  virtual void fill(int v, uint32_t occ) = 0;
  virtual void drain(int v, uint32_t occ) = 0;
  virtual void evaluate() = 0;
  virtual int64_t credits(int v) const = 0;
  virtual bool overflow(int v) const = 0;
  virtual bool pause(int v) const = 0;
  virtual bool resume(int v) const = 0;
  virtual void edge(const uint32_t* spend) = 0;
  virtual bool xoff(int v) const = 0;
};
std::unique_ptr<FlowControlBlock> make_rtl_flow_control(const std::vector<uint32_t>& cap, uint32_t xoff_at,
                                                        uint32_t xon_at, const std::string& name);

// link_arbiter.sv as one switch port's link arbiter (--rtl link_arbiter): a Verilated model
// in process per port, named `name` (net.swN.la_rtlP, so rtl_signals(switch) finds its nets
// for the VCD), the 4-VC instance (Vlink_arbiter_v4) or, for a port with more VCs, the 16-VC
// one (Vlink_arbiter_v16, kMaxPortVcs), configured with the port's `nv` VCs of which the
// first `nd` carry data, and reset (pointer 0, as a new LinkArbiter). Its pointer register is
// the port's arbiter state; the C++ part's is not used.
//   pick(ready)   the link is free: bit c of `ready` says VC c holds a head that may leave
//                 now; returns the VC the block picks (-1: none ready) and clocks the
//                 pointer past it at the edge (a cycle with no arbitration clocks nothing:
//                 the pointer would hold);
//   pointer()     the round-robin pointer after the last pick.
class LinkArbiterBlock {
 public:
  virtual ~LinkArbiterBlock() = default;
  virtual int pick(uint32_t ready) = 0;
  virtual int pointer() const = 0;
};
std::unique_ptr<LinkArbiterBlock> make_rtl_link_arbiter(int nv, int nd, const std::string& name);

}  // namespace scfly
