#include "tb/tlm_endpoint.h"

#include <string>

#include "rtl_models/switch/sim_context.h"
#include "tb/nic.h"

namespace scfly {

uint32_t MessageTable::open(Message m) {
  if (!m_free.empty()) {
    const uint32_t i = m_free.back();
    m_free.pop_back();
    m_msgs[i] = std::move(m);
    return i;
  }
  m_msgs.push_back(std::move(m));
  return static_cast<uint32_t>(m_msgs.size() - 1);
}

void MessageTable::packet_arrived(uint32_t m, uint64_t cycle) {
  Message& msg = m_msgs[m];
  if (--msg.packets_left == 0) m_by_node[static_cast<size_t>(msg.dst)]->arrived(m, cycle);
}

TlmEndpoint::TlmEndpoint(sc_core::sc_module_name name, int node, Nic& nic, MessageTable& table,
                         const sc_core::sc_time& period, int packet_phits, int phit_bytes, uint32_t capacity)
    : sc_core::sc_module(name),
      to_network("to_network"),
      from_network("from_network"),
      m_node(node),
      m_nic(nic),
      m_table(table),
      m_period(period),
      m_packet_phits(packet_phits),
      m_phit_bytes(phit_bytes),
      m_capacity(capacity) {
  to_network.register_b_transport(this, &TlmEndpoint::b_transport);
  nic.attach_endpoint(*this);
  table.add_endpoint(*this);
  m_payload.set_extension(&m_info);
  SC_HAS_PROCESS(TlmEndpoint);
  SC_THREAD(deliver);
}

TlmEndpoint::~TlmEndpoint() { m_payload.clear_extension(&m_info); }  // a member: not the payload's to free

void TlmEndpoint::b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  if (p.get_command() != tlm::TLM_WRITE_COMMAND) {
    p.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  const uint64_t dst = p.get_address();
  if (dst >= static_cast<uint64_t>(INT32_MAX) || !m_table.endpoint(static_cast<int>(dst))) {
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  const uint32_t bytes = p.get_data_length();
  if (bytes == 0 || !p.get_data_ptr()) {
    p.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  const uint32_t per_packet = static_cast<uint32_t>(m_packet_phits * m_phit_bytes);
  const uint32_t packets = (bytes + per_packet - 1) / per_packet;
  // Back-pressure: wait until the NIC holds room for the whole message.
  while (m_capacity && m_nic.message_packets_queued() + packets > m_capacity &&
         m_nic.message_packets_queued() > 0)
    sc_core::wait(m_room);
  const sc_core::sc_time at = sc_core::sc_time_stamp() + delay;
  const uint64_t gen = at.value() / m_period.value() + 1;  // the first edge after `at`
  MessageTable::Message m;
  m.src = m_node;
  m.dst = static_cast<int>(dst);
  m.data.assign(p.get_data_ptr(), p.get_data_ptr() + bytes);
  m.packets = m.packets_left = packets;
  m.sent = at;
  m.generated_cycle = gen;
  const uint32_t id = m_table.open(std::move(m));
  for (uint32_t k = 0; k < packets; ++k) m_nic.push_message_packet(gen, static_cast<int>(dst), id);
  ++m_sent;
  p.set_response_status(tlm::TLM_OK_RESPONSE);
}

void TlmEndpoint::arrived(uint32_t m, uint64_t cycle) {
  m_ready.emplace_back(m, cycle);
  m_ready_ev.notify(sc_core::SC_ZERO_TIME);
}

void TlmEndpoint::deliver() {
  tlm::tlm_generic_payload& p = m_payload;
  MessageInfo* const info = &m_info;
  for (;;) {
    while (m_ready.empty()) sc_core::wait(m_ready_ev);
    const auto [id, cycle] = m_ready.front();
    m_ready.pop_front();
    MessageTable::Message& m = m_table.at(id);
    m_data = std::move(m.data);
    std::vector<unsigned char>& data = m_data;
    info->src_node = m.src;
    info->dst_node = m.dst;
    info->bytes = static_cast<uint32_t>(data.size());
    info->packets = m.packets;
    info->sent = m.sent;
    info->generated_cycle = m.generated_cycle;
    info->delivered_cycle = cycle;
    m_table.close(id);
    p.set_command(tlm::TLM_WRITE_COMMAND);
    p.set_address(static_cast<uint64_t>(info->src_node));
    p.set_data_ptr(data.data());
    p.set_data_length(static_cast<unsigned>(data.size()));
    p.set_streaming_width(static_cast<unsigned>(data.size()));
    p.set_byte_enable_ptr(nullptr);
    p.set_dmi_allowed(false);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    ++m_delivered;
    from_network->b_transport(p, delay);
    if (p.is_response_error())
      SC_REPORT_WARNING(kReportType, (std::string(name()) + ": the user's target answered a delivered message with an "
                                                          "error response")
                                         .c_str());
  }
}

}  // namespace scfly
