// TLM-2.0 endpoints (tb/tlm_endpoint.h): user initiators and targets on four hosts of a
// dfly(2,4,2) whose other 68 hosts run the built-in traffic. Requests and responses cross
// the network as tlm_generic_payload messages; every one arrives whole, in time, with its
// data; errors come back as TLM response statuses; back-pressure holds a sender. One
// elaboration per process: this executable holds this one test.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "sc_main/config.h"
#include "tb/network.h"
#include "tb/tlm_endpoint.h"

namespace {

using sc_core::sc_time;
using sc_core::SC_NS;

// A requester: sends `n` requests of 64 bytes (its id and a sequence number in the first
// 8 bytes) to the server nodes in turn, and records each response.
struct Requester : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Requester> out;
  tlm_utils::simple_target_socket<Requester> in;
  int node;
  std::vector<int> servers;
  int n;
  std::map<uint32_t, sc_time> sent;  // sequence -> send time
  std::vector<double> latency_ns;
  int bad = 0;
  std::vector<tlm::tlm_response_status> errors;  // of the deliberate bad sends
  bool burst = false;        // send a burst first (back-pressure)
  sc_time burst_took;        // time spent inside the burst's b_transport calls
  int burst_responses = 0;

  Requester(sc_core::sc_module_name nm, int node_, std::vector<int> servers_, int n_)
      : sc_module(nm), out("out"), in("in"), node(node_), servers(std::move(servers_)), n(n_) {
    in.register_b_transport(this, &Requester::response);
    SC_HAS_PROCESS(Requester);
    SC_THREAD(run);
  }
  tlm::tlm_response_status send(uint64_t dst, unsigned char* data, unsigned len, tlm::tlm_command cmd) {
    tlm::tlm_generic_payload p;
    p.set_command(cmd);
    p.set_address(dst);
    p.set_data_ptr(data);
    p.set_data_length(len);
    p.set_streaming_width(len);
    sc_time delay = sc_core::SC_ZERO_TIME;
    out->b_transport(p, delay);
    return p.get_response_status();
  }
  void run() {
    unsigned char buf[64] = {};
    // Errors first: a node with no endpoint, a READ, no data.
    errors.push_back(send(1, buf, 64, tlm::TLM_WRITE_COMMAND));
    errors.push_back(send(static_cast<uint64_t>(servers[0]), buf, 64, tlm::TLM_READ_COMMAND));
    errors.push_back(send(static_cast<uint64_t>(servers[0]), buf, 0, tlm::TLM_WRITE_COMMAND));
    if (burst) {  // 4 messages of 600 B (3 packets each) into a NIC that holds 4 packets
      const sc_time t0 = sc_core::sc_time_stamp();
      std::vector<unsigned char> big(600, 7);
      for (uint32_t k = 0; k < 4; ++k) {
        const uint32_t me = static_cast<uint32_t>(node), seq = 1000 + k;
        std::memcpy(big.data(), &me, 4);
        std::memcpy(big.data() + 4, &seq, 4);
        if (send(static_cast<uint64_t>(servers[0]), big.data(), 600, tlm::TLM_WRITE_COMMAND) != tlm::TLM_OK_RESPONSE)
          ++bad;
      }
      burst_took = sc_core::sc_time_stamp() - t0;
    }
    for (int k = 0; k < n; ++k) {
      const uint32_t seq = static_cast<uint32_t>(k);
      const uint32_t me = static_cast<uint32_t>(node);
      std::memcpy(buf, &me, 4);
      std::memcpy(buf + 4, &seq, 4);
      for (int i = 8; i < 64; ++i) buf[i] = static_cast<unsigned char>(seq + i);
      sent[seq] = sc_core::sc_time_stamp();
      if (send(static_cast<uint64_t>(servers[static_cast<size_t>(k) % servers.size()]), buf, 64,
               tlm::TLM_WRITE_COMMAND) != tlm::TLM_OK_RESPONSE)
        ++bad;
      sc_core::wait(200, SC_NS);
    }
  }
  void response(tlm::tlm_generic_payload& p, sc_time&) {
    uint32_t seq = 0;
    std::memcpy(&seq, p.get_data_ptr() + 4, 4);
    if (seq >= 1000) {
      ++burst_responses;
      p.set_response_status(tlm::TLM_OK_RESPONSE);
      return;
    }
    const auto it = sent.find(seq);
    if (it == sent.end() || p.get_data_length() != 256) {
      ++bad;
    } else {
      latency_ns.push_back((sc_core::sc_time_stamp() - it->second).to_seconds() * 1e9);
      for (unsigned i = 8; i < 256; ++i)
        if (p.get_data_ptr()[i] != static_cast<unsigned char>(seq * 3 + i)) ++bad;
      sent.erase(it);
    }
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

// A server: answers each request with 256 bytes (the request's first 8, then a pattern)
// after 50 ns of "work".
struct Server : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Server> out;
  tlm_utils::simple_target_socket<Server> in;
  int served = 0;
  std::vector<uint64_t> hops_seen;
  Server(sc_core::sc_module_name nm) : sc_module(nm), out("out"), in("in") {
    in.register_b_transport(this, &Server::request);
  }
  void request(tlm::tlm_generic_payload& p, sc_time&) {
    const scfly::MessageInfo* info = nullptr;
    p.get_extension(info);
    EXPECT_NE(info, nullptr);
    if (info) {
      EXPECT_EQ(static_cast<uint64_t>(info->src_node), p.get_address());
      EXPECT_GT(info->delivered_cycle, info->generated_cycle);
      EXPECT_TRUE(info->bytes == 64u || info->bytes == 600u) << info->bytes;
    }
    sc_core::wait(50, SC_NS);  // the endpoint delivers from a thread: a target may wait
    unsigned char r[256];
    std::memcpy(r, p.get_data_ptr(), 8);
    uint32_t seq = 0;
    std::memcpy(&seq, p.get_data_ptr() + 4, 4);
    for (unsigned i = 8; i < 256; ++i) r[i] = static_cast<unsigned char>(seq * 3 + i);
    tlm::tlm_generic_payload q;
    q.set_command(tlm::TLM_WRITE_COMMAND);
    q.set_address(p.get_address());  // back to the requester
    q.set_data_ptr(r);
    q.set_data_length(256);
    q.set_streaming_width(256);
    sc_time d = sc_core::SC_ZERO_TIME;
    out->b_transport(q, d);
    EXPECT_EQ(q.get_response_status(), tlm::TLM_OK_RESPONSE);
    ++served;
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

}  // namespace

TEST(TlmEndpoint, RequestsAndResponsesCrossTheNetworkWhole) {
  // dfly(2,4,2): 8 nodes per group; requesters in groups 0 and 1, servers in groups 5 and 8.
  const scfly::SimConfig cfg = scfly::load_config(std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/dfly-tiny.yaml",
                                                  {"load=0.1", "warmup_cycles=1000", "measure_cycles=20000"});
  scfly::TraceRequest tr;
  tr.endpoints = {0, 9, 40, 70};
  tr.endpoint_capacity = 4;  // packets queued at a NIC: 64 B requests are 1 packet (8 x 25 B phits = 200 B)
  scfly::Network net("net", cfg, tr);
  EXPECT_EQ(net.block_cycles(), 0u);  // the kernel drives a network with endpoints
  EXPECT_THROW(net.endpoint(1), std::out_of_range);
  Requester a("a", 0, {40, 70}, 30), b("b", 9, {70, 40}, 30);
  b.burst = true;
  Server s40("s40"), s70("s70");
  a.out.bind(net.endpoint(0).to_network);
  net.endpoint(0).from_network.bind(a.in);
  b.out.bind(net.endpoint(9).to_network);
  net.endpoint(9).from_network.bind(b.in);
  s40.out.bind(net.endpoint(40).to_network);
  net.endpoint(40).from_network.bind(s40.in);
  s70.out.bind(net.endpoint(70).to_network);
  net.endpoint(70).from_network.bind(s70.in);

  net.set_horizon(21000);
  sc_core::sc_start(21000, SC_NS);
  ASSERT_FALSE(net.failed()) << net.error();
  for (const Requester* r : {&a, &b}) {
    SCOPED_TRACE(r->name());
    ASSERT_EQ(r->errors.size(), 3u);
    EXPECT_EQ(r->errors[0], tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(r->errors[1], tlm::TLM_COMMAND_ERROR_RESPONSE);
    EXPECT_EQ(r->errors[2], tlm::TLM_GENERIC_ERROR_RESPONSE);
    EXPECT_EQ(r->bad, 0);
    EXPECT_TRUE(r->sent.empty()) << r->sent.size() << " responses missing";
    ASSERT_EQ(r->latency_ns.size(), 30u);
    // Each way crosses at least the injection, one global (40) and the ejection link, and
    // the server works 50 ns.
    for (double l : r->latency_ns) EXPECT_GT(l, 2 * (1 + 40 + 1) + 50.0);
  }
  EXPECT_EQ(s40.served + s70.served, 64);
  // Back-pressure: the burst's sender waited for its NIC to inject; every burst message was
  // answered.
  EXPECT_GT(b.burst_took, sc_core::SC_ZERO_TIME);
  EXPECT_EQ(a.burst_took, sc_core::SC_ZERO_TIME);
  EXPECT_EQ(b.burst_responses, 4);
  EXPECT_EQ(net.endpoint(0).messages_sent(), 30u);
  EXPECT_EQ(net.endpoint(0).messages_delivered(), 30u);
  EXPECT_EQ(net.endpoint(40).messages_sent() + net.endpoint(70).messages_sent(), 64u);
  // The built-in traffic ran beside them, and nothing was lost.
  const scfly::RunOutcome out = net.outcome(0, false);
  EXPECT_GT(out.metrics.packets_delivered, 1000u);
  EXPECT_TRUE(out.conservation_ok) << out.conservation;
}
