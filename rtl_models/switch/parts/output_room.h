// The room a switch's output VCs offer new packets, as a part of its own (plain C++, no
// SystemC), testable alone against a reference model (tests/test_output_room.cpp).
//
// Allocation asks every candidate output VC of every waiting head, every cycle, whether it
// can take a whole packet (virtual cut-through). OutputRoom keeps that answer per output
// VC, up to date as packets are granted, cross the crossbar and leave, so that asking costs
// one load. Two peer-compatibility modes change what the room is; each is a kind of this
// part, chosen by config, with its own state:
//
//  OutputSharing (switch.output_sharing)
//   PerVc  each output VC has its own buffer: its room is its free phits while no
//          connection writes into it, 0 while one does.
//   Port   a switch-to-switch port's data VCs share one buffer (FOGSim's one OutQueueLength
//          FIFO per port): a data VC's room is the port's free phits less those granted to
//          connections and not yet switched in (port_free), 0 while a connection writes into
//          the VC; a grant takes the packet's phits from port_free, a phit leaving gives
//          one back. Ejection ports and control VCs keep their own buffers.
//
//  EjectionGrant (switch.ejection_grant)
//   Room      an ejection VC is granted like any other output VC.
//   HostIdle  a packet for a host is granted only while that host's link is idle, at most
//             one per allocator pass (FOGSim's consume port); several granted toward one
//             host cross into its ejection buffer one after another, so its room is its
//             free phits less the phits granted and not yet in it (owed).
//
// The switch owns the output buffers (their free phits, whether a connection writes into
// one); it tells this part what changed, and the part answers with the room.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace scfly {

enum class OutputSharing : uint8_t { PerVc, Port };
enum class EjectionGrant : uint8_t { Room, HostIdle };

class OutputRoom {
 public:
  OutputRoom() = default;
  // `ports` output ports with at most `stride` VCs each; per port its data VCs (the rest are
  // control VCs), whether it goes to a host, and (Port sharing) its shared buffer's phits.
  OutputRoom(int ports, size_t stride, std::vector<uint8_t> data_vcs, std::vector<uint8_t> is_host,
             const std::vector<uint32_t>& shared_phits, OutputSharing sharing, EjectionGrant eject)
      : m_room(static_cast<size_t>(ports) * stride, 0),
        m_stride(stride),
        m_shared(sharing == OutputSharing::Port),
        m_eject_idle(eject == EjectionGrant::HostIdle),
        m_data(std::move(data_vcs)),
        m_host(std::move(is_host)),
        m_port_free(static_cast<size_t>(ports), 0) {
    if (m_shared)  // each data VC may hold the whole shared buffer, the port all of it once
      for (size_t p = 0; p < m_port_free.size() && p < shared_phits.size(); ++p) m_port_free[p] = shared_phits[p];
    if (m_eject_idle) {
      m_owed.assign(static_cast<size_t>(ports), 0);
      m_pass.assign(static_cast<size_t>(ports), 0);
    }
  }

  // The room output VC (op, v) offers a new packet now.
  uint32_t room(int op, int v) const { return m_room[ix(op, v)]; }

  // Port sharing: (op, v) is a data VC of a switch-to-switch port (its room is the port's).
  bool shared(int op, int v) const {
    return m_shared && v < m_data[static_cast<size_t>(op)] && !m_host[static_cast<size_t>(op)];
  }
  // HostIdle: (op, v) is a host port's data VC, whose grants wait for an idle host and whose
  // connections queue.
  bool queued(int op, int v) const {
    return m_eject_idle && m_host[static_cast<size_t>(op)] && v < m_data[static_cast<size_t>(op)];
  }
  // HostIdle: the room of ejection port op's buffer (`free` phits) less the phits owed to it.
  uint32_t eject_room(int op, uint32_t free) const {
    const uint32_t owed = m_owed[static_cast<size_t>(op)];
    return free > owed ? free - owed : 0;
  }
  uint32_t port_free(int op) const { return m_port_free[static_cast<size_t>(op)]; }

  // The room of (op, v) from its buffer's state: 0 while a connection writes into it, else
  // its free phits (a shared data VC: the port's).
  uint32_t room_of(int op, int v, bool writing, uint32_t free) const {
    if (writing) return 0;
    if (shared(op, v)) return m_port_free[static_cast<size_t>(op)];
    return free;
  }
  // Sets (op, v)'s room (the switch, after its buffer changed).
  void set(int op, int v, uint32_t room) { m_room[ix(op, v)] = room; }
  // Refreshes (op, v)'s room, or, shared, the room of every data VC of op; `state(c)` gives
  // VC c's (writing, free phits) as a std::pair.
  template <typename State>
  void refresh(int op, int v, State&& state) {
    if (shared(op, v)) {
      for (int c = 0; c < m_data[static_cast<size_t>(op)]; ++c) {
        const auto s = state(c);
        m_room[ix(op, c)] = room_of(op, c, s.first, s.second);
      }
    } else {
      const auto s = state(v);
      m_room[ix(op, v)] = room_of(op, v, s.first, s.second);
    }
  }

  // Port sharing: a grant of `phits` to shared VC (op, v) takes them from the port's buffer;
  // false (nothing taken) when an earlier grant of this pass took the room.
  bool take_shared(int op, uint32_t phits) {
    uint32_t& f = m_port_free[static_cast<size_t>(op)];
    if (f < phits) return false;
    f -= phits;
    return true;
  }
  // Port sharing: a phit left shared port op's buffer.
  void left_shared(int op) { ++m_port_free[static_cast<size_t>(op)]; }

  // HostIdle: grant `phits` toward host port op in allocator pass `pass` (the allocator's
  // pass counter), its link busy or not, its buffer with `free` phits. False when the port
  // was granted in this pass already, its link is busy, or the packet does not fit.
  bool grant_eject(int op, uint32_t pass, bool link_busy, uint32_t free, uint32_t phits) {
    if (m_pass[static_cast<size_t>(op)] == pass || link_busy || eject_room(op, free) < phits) return false;
    m_pass[static_cast<size_t>(op)] = pass;
    m_owed[static_cast<size_t>(op)] += phits;
    return true;
  }
  // HostIdle: a phit of a queued connection crossed into host port op's buffer.
  void crossed_eject(int op) { --m_owed[static_cast<size_t>(op)]; }

 private:
  size_t ix(int op, int v) const { return static_cast<size_t>(op) * m_stride + static_cast<size_t>(v); }

  // What every allocation reads first (room(), queued()'s mode test), then the rest.
  std::vector<uint32_t> m_room;  // per output VC: what allocation reads
  size_t m_stride = 0;
  bool m_shared = false, m_eject_idle = false;
  std::vector<uint8_t> m_data, m_host;
  std::vector<uint32_t> m_port_free;  // Port: per port, the shared buffer's free phits less those granted
  std::vector<uint32_t> m_owed;       // HostIdle: per port, phits granted and not yet in its buffer
  std::vector<uint32_t> m_pass;       // HostIdle: per port, the allocator pass that last granted it
};

}  // namespace scfly
