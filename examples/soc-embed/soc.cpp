// An SoC-level SystemC model with a scfly Dragonfly inside it: two CPU-like initiators send
// read requests to two memory controllers through the network, as TLM-2.0 generic payloads,
// and the memories answer with the data. The other 68 hosts of the dfly(2,4,2) run scfly's
// built-in background traffic. The program prints each initiator's round-trip latencies and
// exits 0 only if every request got its response with the right data.
//
// The message protocol is the example's own (scfly carries bytes): a request is 16 bytes
// {requester node, tag, address, length}; a response is {requester node, tag} followed by
// `length` bytes of the memory's contents.
//   scfly-soc net.yaml
#include <scfly/rtl_models/switch/fault_spec.h>
#include <scfly/sc_main/config.h>
#include <scfly/tb/network.h>
#include <scfly/tb/tlm_endpoint.h>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <vector>

using sc_core::sc_time;
using sc_core::SC_NS;

namespace {

struct Request {
  uint32_t requester, tag;
  uint32_t address, length;
};

// Sends one message through an endpoint socket (loosely timed: returns at once unless the
// endpoint applies back-pressure).
template <class Socket>
tlm::tlm_response_status send(Socket& s, int dst, unsigned char* data, unsigned len) {
  tlm::tlm_generic_payload p;
  p.set_command(tlm::TLM_WRITE_COMMAND);
  p.set_address(static_cast<uint64_t>(dst));
  p.set_data_ptr(data);
  p.set_data_length(len);
  p.set_streaming_width(len);
  sc_time delay = sc_core::SC_ZERO_TIME;
  s->b_transport(p, delay);
  return p.get_response_status();
}

// A CPU: `n` reads of 64 bytes, one every `gap`, alternating between the memories.
struct Cpu : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Cpu> net_out;
  tlm_utils::simple_target_socket<Cpu> net_in;
  int node, n;
  std::vector<int> memories;
  sc_time gap;
  std::map<uint32_t, std::pair<sc_time, uint32_t>> outstanding;  // tag -> (sent, address)
  std::vector<double> latency_ns;
  int errors = 0;

  Cpu(sc_core::sc_module_name nm, int node_, std::vector<int> mems, int n_, sc_time gap_)
      : sc_module(nm), net_out("net_out"), net_in("net_in"), node(node_), n(n_), memories(std::move(mems)), gap(gap_) {
    net_in.register_b_transport(this, &Cpu::response);
    SC_HAS_PROCESS(Cpu);
    SC_THREAD(run);
  }
  void run() {
    for (int k = 0; k < n; ++k) {
      Request r{static_cast<uint32_t>(node), static_cast<uint32_t>(k), static_cast<uint32_t>(k * 64), 64};
      outstanding[r.tag] = {sc_core::sc_time_stamp(), r.address};
      unsigned char buf[sizeof r];
      std::memcpy(buf, &r, sizeof r);
      if (send(net_out, memories[static_cast<size_t>(k) % memories.size()], buf, sizeof buf) != tlm::TLM_OK_RESPONSE)
        ++errors;
      sc_core::wait(gap);
    }
  }
  void response(tlm::tlm_generic_payload& p, sc_time&) {
    uint32_t hdr[2];
    std::memcpy(hdr, p.get_data_ptr(), sizeof hdr);
    const auto it = outstanding.find(hdr[1]);
    if (it == outstanding.end() || p.get_data_length() != 8 + 64) {
      ++errors;
    } else {
      for (uint32_t i = 0; i < 64; ++i)  // memory contents: byte at address a is a mod 251
        if (p.get_data_ptr()[8 + i] != static_cast<unsigned char>((it->second.second + i) % 251)) ++errors;
      latency_ns.push_back((sc_core::sc_time_stamp() - it->second.first).to_seconds() * 1e9);
      outstanding.erase(it);
    }
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

// A memory controller: answers a request after a fixed access time.
struct Memory : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Memory> net_out;
  tlm_utils::simple_target_socket<Memory> net_in;
  sc_time access;
  int served = 0;
  Memory(sc_core::sc_module_name nm, sc_time access_)
      : sc_module(nm), net_out("net_out"), net_in("net_in"), access(access_) {
    net_in.register_b_transport(this, &Memory::request);
  }
  void request(tlm::tlm_generic_payload& p, sc_time&) {
    Request r;
    std::memcpy(&r, p.get_data_ptr(), sizeof r);
    sc_core::wait(access);  // the endpoint delivers from its own thread: a target may wait
    std::vector<unsigned char> out(8 + r.length);
    std::memcpy(out.data(), &r.requester, 4);
    std::memcpy(out.data() + 4, &r.tag, 4);
    for (uint32_t i = 0; i < r.length; ++i) out[8 + i] = static_cast<unsigned char>((r.address + i) % 251);
    send(net_out, static_cast<int>(r.requester), out.data(), static_cast<unsigned>(out.size()));
    ++served;
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

// The SoC: the network and the four modules on hosts 0 and 9 (CPUs) and 40 and 70 (memories).
struct Soc : sc_core::sc_module {
  std::unique_ptr<scfly::Network> net;
  Cpu cpu0, cpu1;
  Memory mem0, mem1;
  static scfly::TraceRequest endpoints() {
    scfly::TraceRequest t;
    t.endpoints = {0, 9, 40, 70};
    t.endpoint_capacity = 16;  // packets a host's NIC holds before a sender waits
    // SCFLY_SOC_FAULT=KIND:SWITCH:PORT:VC:CYCLE injects a fault (scfly run --fault's syntax),
    // to see a model error reach the host.
    if (const char* f = std::getenv("SCFLY_SOC_FAULT")) t.fault = scfly::parse_fault(f);
    return t;
  }
  Soc(sc_core::sc_module_name nm, const scfly::SimConfig& cfg)
      : sc_module(nm),
        net(std::make_unique<scfly::Network>("net", cfg, endpoints())),
        cpu0("cpu0", 0, {40, 70}, 50, sc_time(300, SC_NS)),
        cpu1("cpu1", 9, {70, 40}, 50, sc_time(300, SC_NS)),
        mem0("mem0", sc_time(40, SC_NS)),
        mem1("mem1", sc_time(40, SC_NS)) {
    attach(cpu0.net_out, cpu0.net_in, 0);
    attach(cpu1.net_out, cpu1.net_in, 9);
    attach(mem0.net_out, mem0.net_in, 40);
    attach(mem1.net_out, mem1.net_in, 70);
  }
  template <class Out, class In>
  void attach(Out& out, In& in, int node) {
    out.bind(net->endpoint(node).to_network);
    net->endpoint(node).from_network.bind(in);
  }
};

void report(const Cpu& c) {
  std::vector<double> l = c.latency_ns;
  std::sort(l.begin(), l.end());
  double sum = 0;
  for (double x : l) sum += x;
  std::cout << c.name() << ": " << l.size() << " of " << c.n << " responses";
  if (!l.empty())
    std::cout << ", round trip min " << l.front() << " ns, mean " << sum / static_cast<double>(l.size())
              << " ns, max " << l.back() << " ns";
  std::cout << ", " << c.errors << " errors\n";
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  if (argc < 2) {
    std::cerr << "usage: scfly-soc NET.yaml [key=value ...]\n";
    return 2;
  }
  std::vector<std::string> overrides(argv + 2, argv + argc);
  scfly::SimConfig cfg;
  try {
    cfg = scfly::load_config(argv[1], overrides);
  } catch (const std::exception& e) {
    std::cerr << "scfly-soc: " << e.what() << "\n";
    return 2;
  }
  Soc soc("soc", cfg);
  const uint64_t cycles = cfg.warmup_cycles + cfg.measure_cycles;
  soc.net->set_horizon(cycles);
  sc_core::sc_start(soc.net->period() * static_cast<double>(cycles));

  // A model error does not stop the host's simulation (the network halts and reports it
  // through SystemC's report handler); the host decides what it means: here, it says so.
  report(soc.cpu0);
  report(soc.cpu1);
  if (soc.net->failed()) {
    std::cout << "scfly-soc: the network failed: " << soc.net->error() << "\n";
    return 3;
  }
  std::cout << "memories served " << soc.mem0.served << " + " << soc.mem1.served << " requests\n";
  const scfly::RunOutcome r = soc.net->outcome(0, false);
  std::cout << "background traffic: accepted " << r.metrics.accepted_load << " phits/node/cycle, latency "
            << r.metrics.latency_avg << " cycles\n";
  const bool ok = soc.cpu0.outstanding.empty() && soc.cpu1.outstanding.empty() && soc.cpu0.errors == 0 &&
                  soc.cpu1.errors == 0 && soc.cpu0.latency_ns.size() == 50 && soc.cpu1.latency_ns.size() == 50;
  std::cout << (ok ? "every request got its response\n" : "RESPONSES MISSING OR WRONG\n");
  return ok ? 0 : 1;
}
