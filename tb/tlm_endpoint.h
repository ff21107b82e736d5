// A host of the network bound to a user's SystemC model through standard TLM-2.0 sockets
// carrying tlm_generic_payload messages: the user's model replaces the built-in traffic
// generator and sink on that host (Network's TraceRequest::endpoints; docs/guide-embedding.md).
//
// Sending (`to_network`, a target socket the user's initiator binds to): b_transport with a
// WRITE whose address is the destination node and whose data is the message (data_length
// bytes, 1 or more). The message is cut into ceil(bytes / (packet_phits * phit_bytes))
// packets of packet_phits phits, generated at the first network clock edge after
// sc_time_stamp() + delay (so the result does not depend on the order SystemC runs the
// caller and the network within a time step), and queued at the host's NIC, which injects
// them as it injects generated packets. The call returns TLM_OK_RESPONSE at once, the delay
// unchanged (loosely timed: sending costs the caller no time), unless the NIC already holds
// `capacity` packets of this host not yet injected: then it waits (wait() on the network's
// injection; b_transport must be called from an SC_THREAD) until there is room for the whole
// message: that is the back-pressure. A destination that is not a TLM endpoint, a message
// with no data, or a command other than WRITE gets TLM_ADDRESS_ERROR_RESPONSE,
// TLM_GENERIC_ERROR_RESPONSE and TLM_COMMAND_ERROR_RESPONSE, and nothing is sent.
//
// Receiving (`from_network`, an initiator socket bound to the user's target): when the last
// packet of a message has arrived at this host (packets may arrive out of order under
// adaptive routing), the endpoint calls b_transport with a WRITE whose address is the
// source node and whose data is a copy of the message, at the network clock edge of that
// arrival (from the endpoint's own SC_THREAD, so the user's target may wait()), one message
// after another in arrival order. A MessageInfo extension on the payload gives the timing.
//
// The network runs on the SystemC kernel when it has endpoints (every switch and NIC a
// process on the network clock), so the user's model and the network share one time.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "rtl_models/switch/flit.h"

namespace scfly {

class Nic;
class MessageTable;

// The timing of a delivered message, attached to the payload the endpoint delivers.
struct MessageInfo : tlm::tlm_extension<MessageInfo> {
  int src_node = -1, dst_node = -1;
  uint32_t bytes = 0, packets = 0;
  sc_core::sc_time sent;       // sc_time_stamp() + delay of the sending b_transport
  uint64_t generated_cycle = 0;  // network cycle its packets were generated (queued at the NIC)
  uint64_t delivered_cycle = 0;  // network cycle its last packet arrived
  tlm::tlm_extension_base* clone() const override { return new MessageInfo(*this); }
  void copy_from(const tlm::tlm_extension_base& e) override { *this = static_cast<const MessageInfo&>(e); }
};

class TlmEndpoint : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<TlmEndpoint> to_network;
  tlm_utils::simple_initiator_socket<TlmEndpoint> from_network;

  TlmEndpoint(sc_core::sc_module_name name, int node, Nic& nic, MessageTable& table, const sc_core::sc_time& period,
              int packet_phits, int phit_bytes, uint32_t capacity);
  ~TlmEndpoint() override;

  int node() const { return m_node; }
  uint64_t messages_sent() const { return m_sent; }
  uint64_t messages_delivered() const { return m_delivered; }
  // The message table calls this when message `m`'s last packet arrived here at `cycle`.
  void arrived(uint32_t m, uint64_t cycle);
  // The NIC calls this when it injected one of this host's packets.
  void injected() { m_room.notify(sc_core::SC_ZERO_TIME); }

 private:
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  void deliver();  // SC_THREAD

  int m_node;
  Nic& m_nic;
  MessageTable& m_table;
  sc_core::sc_time m_period;
  int m_packet_phits;
  int m_phit_bytes;
  uint32_t m_capacity;  // packets queued at the NIC, at most (0: unbounded)
  std::deque<std::pair<uint32_t, uint64_t>> m_ready;  // (message, arrival cycle)
  // The delivering thread's payload, its extension and the data it points to: members, not
  // the thread's locals, since SystemC never unwinds a thread still waiting at the end.
  tlm::tlm_generic_payload m_payload;
  MessageInfo m_info;
  std::vector<unsigned char> m_data;
  sc_core::sc_event m_ready_ev, m_room;
  uint64_t m_sent = 0, m_delivered = 0;
};

// The messages in flight between endpoints (shared by the network's NICs through
// SimContext::messages): each one's data, its packets still to arrive, and the endpoints
// by node.
class MessageTable {
 public:
  struct Message {
    int src = -1, dst = -1;
    std::vector<unsigned char> data;
    uint32_t packets_left = 0, packets = 0;
    sc_core::sc_time sent;
    uint64_t generated_cycle = 0;
  };
  explicit MessageTable(int nodes) : m_by_node(static_cast<size_t>(nodes), nullptr) {}
  void add_endpoint(TlmEndpoint& e) { m_by_node[static_cast<size_t>(e.node())] = &e; }
  TlmEndpoint* endpoint(int node) const {
    return node >= 0 && static_cast<size_t>(node) < m_by_node.size() ? m_by_node[static_cast<size_t>(node)] : nullptr;
  }
  uint32_t open(Message m);
  Message& at(uint32_t i) { return m_msgs[i]; }
  void close(uint32_t i) {
    m_msgs[i] = Message{};
    m_free.push_back(i);
  }
  // A packet of message `m` arrived at its destination in `cycle`.
  void packet_arrived(uint32_t m, uint64_t cycle);
  uint64_t in_flight() const { return m_msgs.size() - m_free.size(); }

 private:
  std::vector<TlmEndpoint*> m_by_node;
  std::vector<Message> m_msgs;
  std::vector<uint32_t> m_free;
};

}  // namespace scfly
