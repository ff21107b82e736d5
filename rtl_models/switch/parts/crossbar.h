// The switch's crossbar as a part of its own, plain C++ (no SystemC), testable alone
// against a reference model (tests/test_crossbar.cpp): the connections that join an input
// VC to an output VC for a whole packet, how many each port holds, and how many phits a
// connection moves per cycle.
//
// switch.crossbar chooses how the switch's speedup S is spent (CrossbarKind):
//   connections  each input and each output port holds up to S connections at once, each
//                moving one phit per cycle;
//   transfer     each port holds one connection, which moves up to S phits per cycle
//                (FOGSim's IOQ switch, its InternalSpeedup).
// Either way no input and no output port moves more than S phits in a cycle, and the two
// are the same at S = 1.
//
// What the switch does with it, each cycle:
//  - allocation asks input_full / output_full (and hands in_active / out_active to the
//    allocator parts, which read the same counts) and connects what is granted;
//  - the crossbar stage calls traverse(step): for each connection, in order, step(c) moves
//    one phit of c from its input VC to its output VC, if one has landed, and says what it
//    moved. A connection moves up to rate() phits, stops at the first step that moves
//    none (cut-through: the rest of the packet has not arrived), and is released after the
//    step that moved its packet's tail; the last connection then takes its place in the
//    order (the order is what the next cycle's traversal follows, and what an RTL twin of
//    the switch must reproduce).
// Connections are never dropped otherwise: a packet holds its connection from its grant to
// its tail, so a connection is the virtual cut-through reservation of an output VC.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "rtl_models/switch/parts/allocator.h"

namespace scfly {

enum class CrossbarKind : uint8_t { Connections, Transfer };

class Crossbar {
 public:
  // What one step moved.
  enum class Moved : uint8_t {
    None,  // nothing (no phit has landed, or the connection must wait): the connection stops for this cycle
    Body,  // a phit that is not its packet's tail
    Tail,  // the tail: the connection is released
  };

  Crossbar() = default;
  // `ports` inputs and outputs (the switch's internal port included), speedup S >= 1.
  Crossbar(int ports, int speedup, CrossbarKind kind)
      : m_kind(kind),
        m_cap(kind == CrossbarKind::Transfer ? 1 : speedup),
        m_rate(kind == CrossbarKind::Transfer ? speedup : 1),
        m_in(static_cast<size_t>(ports), 0),
        m_out(static_cast<size_t>(ports), 0) {
    if (ports < 1 || ports > kMaxAllocPorts)
      throw std::invalid_argument("crossbar: " + std::to_string(ports) + " ports, allowed 1-" +
                                  std::to_string(kMaxAllocPorts));
    if (speedup < 1 || speedup > UINT8_MAX)
      throw std::invalid_argument("crossbar: speedup " + std::to_string(speedup) + ", allowed 1-255");
    m_conns.reserve(static_cast<size_t>(ports) * static_cast<size_t>(m_cap));
  }

  CrossbarKind kind() const { return m_kind; }
  int cap() const { return m_cap; }    // connections per input and per output port
  int rate() const { return m_rate; }  // phits a connection moves per cycle
  int ports() const { return static_cast<int>(m_in.size()); }

  bool input_full(int ip) const { return m_in[static_cast<size_t>(ip)] >= m_cap; }
  bool output_full(int op) const { return m_out[static_cast<size_t>(op)] >= m_cap; }
  // The connections each port holds, indexed by port (what the allocator parts read).
  const uint8_t* in_active() const { return m_in.data(); }
  const uint8_t* out_active() const { return m_out.data(); }
  // Every connection, in the order traverse() visits them.
  const std::vector<AllocRequest>& connections() const { return m_conns; }

  // Joins c.in_port's VC c.in_vc to c.out_port's VC c.out_vc until its packet's tail has
  // crossed. The caller has checked that neither port is full (the allocator's grant).
  void connect(const AllocRequest& c) {
    ++m_in[c.in_port];
    ++m_out[c.out_port];
    m_conns.push_back(c);
  }

  // One cycle of traversal (see the header). kMulti: rate() may exceed 1 (transfer with
  // S > 1); false compiles the per-connection loop down to one step.
  template <bool kMulti, typename Step>
  SCFLY_ALWAYS_INLINE void traverse(Step&& step) {
    const int rate = kMulti ? m_rate : 1;
    for (size_t i = 0; i < m_conns.size();) {
      const AllocRequest c = m_conns[i];
      Moved m = Moved::None;
      for (int k = 0; k < rate; ++k) {
        m = step(c);
        if (m != Moved::Body) break;
      }
      if (m == Moved::Tail) {
        --m_in[c.in_port];
        --m_out[c.out_port];
        m_conns[i] = m_conns.back();
        m_conns.pop_back();
        continue;
      }
      ++i;
    }
  }

 private:
  // Counts fit 8 bits: a port holds at most S <= 255 connections.
  CrossbarKind m_kind = CrossbarKind::Connections;
  int m_cap = 1;
  int m_rate = 1;
  std::vector<uint8_t> m_in, m_out;
  std::vector<AllocRequest> m_conns;
};

}  // namespace scfly
