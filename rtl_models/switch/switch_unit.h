// Mechanism units: the small clocked state blocks a routing mechanism adds to a switch
// (ACOR's level controller, Piggyback's saturation detector, the congestion publisher of
// UGAL-G; later QCN's congestion point and GAL's threshold controller). The switch holds
// none of their state; it drives each through this one interface:
//   in   idle(n)       the n cycles the switch slept since the unit last ran (no events);
//        end_cycle(c)  this cycle's events (SwitchCycle), after the switch's stages;
//   out  route_stage(now) the route stage is about to route this cycle's first data head:
//                      a unit whose register the routing unit reads (MIN-COND's pause
//                      trigger, into the forwarding table) refreshes it from the switch's
//                      state now, once per cycle (routing changes no state it samples);
//        observe(ctx)  the unit's state a routing unit may read, into its RouteContext
//                      (const: it writes the context only);
//        attach(view)  state the adaptive view points at (e.g. the switch's own PB flags);
//        attach(table) the switch's forwarding table, whose probability register the unit
//                      writes (QCN-Switch, MIN-COND's pause trigger);
//   in   attach(state) read-only state of the switch the unit samples (SwitchState);
//        on_control()  a control frame addressed to one of the switch's hosts;
//        signals()     named values for the VCD and per-switch time series;
//   clock needs_clock() while true the switch stays on the clock even when idle (a pending
//        hysteresis decrease, or an RTL block that must see every edge).
// Timing: end_cycle() of cycle t sees the events of t; what it changes is observed by heads
// routed from cycle t+1 on (the per-cycle stage order, switch.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "routing_units/congestion.h"
#include "routing_units/route_types.h"

namespace scfly {

struct AdaptiveView;
struct Packet;
class ForwardingTable;

// Read-only state of its switch a unit may sample (QCN's congestion point, the pause
// trigger). "Data" means the data VCs of a port (never the control VCs above them).
// Counters are cumulative since the start of the run.
class SwitchState {
 public:
  virtual ~SwitchState() = default;
  virtual int switch_id() const = 0;
  virtual uint64_t data_packets_in(int port) const = 0;   // heads landed in the port's input VCs
  virtual uint64_t data_packets_out(int port) const = 0;  // heads switched into its output VCs
  // Both, summed over every port: unchanged since a cycle means no port saw a data packet.
  virtual uint64_t data_packets_total() const = 0;
  virtual uint32_t data_phits_in(int port) const = 0;     // phits now in the port's input VCs
  virtual uint32_t in_depth(int port) const = 0;          // one input VC's depth, phits
  virtual uint32_t out_depth(int port) const = 0;         // one output VC's depth, phits
  // True while output VC `vc` of `port` may start no packet of `phits`: paused by PFC, or
  // (credit flow control) fewer credits than `phits`.
  virtual bool out_stopped(int port, int vc, uint32_t phits) const = 0;
  // The port's output queue as a congestion point sees it, in phits: its output data VCs
  // plus every input data VC whose routed head waits for this port (the virtual output
  // queue: in this CIOQ switch a single-VC flow leaves the output buffer at line rate and
  // its backlog builds at the inputs, as head-of-line blocked packets).
  virtual uint32_t queued_for_output(int port) const = 0;
  // The port's output data VCs only, in phits (qcn.cp_queue: output).
  virtual uint32_t output_phits(int port) const = 0;
  // The packet at the front of the first non-empty output data VC of the port, in VC order
  // (null: all empty). Within a VC this is the oldest packet (FIFO).
  virtual const Packet* first_output_packet(int port) const = 0;
  // The data packet most recently switched into the port's output VCs (null: none yet);
  // valid at the end of the cycle it was switched (it may be delivered later).
  virtual const Packet* last_packet_out(int port) const = 0;
  // The packets of that queue: every packet with a phit in the port's output data VCs, and
  // the head packet of every input data VC routed to the port.
  virtual void output_queue_packets(int port, std::vector<const Packet*>& out) const = 0;
  // Every packet with a phit in the port's input data VCs, once each, in buffer order.
  virtual void in_packets(int port, std::vector<const Packet*>& out) const = 0;
};

// What a unit may do with control frames: originate one toward a host (it is routed on the
// control VCs with strict priority and intercepted by that host's switch; one addressed to
// a host of this switch is handed to this switch's units at once).
class ControlPort {
 public:
  virtual ~ControlPort() = default;
  virtual void originate(int dst_node, uint32_t payload, uint16_t phits) = 0;
};

// What a unit is told at the end of one active cycle of its switch.
struct SwitchCycle {
  uint64_t now = 0;
  uint32_t blocked_nonmin = 0;     // non-minimal heads blocked at injection inputs this cycle
  const SwitchLoad* load = nullptr;  // the switch's per-port occupancy, as routing reads it
};

// A named observable value of a unit: traced in the VCD when `vcd` is set, sampled as a
// per-switch time series when `series` is set.
struct UnitSignal {
  std::string name;
  const uint32_t* vcd = nullptr;
  std::function<double()> series;
};

class SwitchUnit {
 public:
  virtual ~SwitchUnit() = default;
  virtual void idle(uint64_t cycles) { (void)cycles; }
  virtual void end_cycle(const SwitchCycle& c) = 0;
  virtual bool needs_clock() const { return false; }
  virtual void route_stage(uint64_t now) { (void)now; }
  virtual void observe(RouteContext& ctx) const { (void)ctx; }
  virtual void attach(AdaptiveView& view) { (void)view; }
  virtual void attach(ControlPort& port) { (void)port; }
  virtual void attach(const SwitchState& state) { (void)state; }
  virtual void attach(ForwardingTable& table) { (void)table; }
  // A control frame addressed to one of this switch's hosts, intercepted before ejection
  // (in the cycle its tail crosses the crossbar), with the payload word it was originated
  // with and the input port it arrived on (-1: originated by this switch for its own host).
  virtual void on_control(const Packet& frame, uint32_t payload, int in_port, uint64_t now) {
    (void)frame, (void)payload, (void)in_port, (void)now;
  }
  virtual void signals(std::vector<UnitSignal>& out) const { (void)out; }
};

}  // namespace scfly
