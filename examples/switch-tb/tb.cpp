// A user's testbench around one scfly switch: switch 0 of the network switch.yaml
// describes, every port driven through its TLM sockets by a port agent (tb/switch_bench.h).
//
// The experiment: a hot spot. Every input port (the other hosts of the switch, its local
// and global ports) sends a backlog of packets to host 0 of the switch, so that 14 inputs
// contend for one ejection link. A round-robin output arbiter should give each input the
// same share of that link and keep it busy every cycle. The testbench measures both over a
// window in which every input still has packets waiting, prints a table per input port, and
// checks (SwitchBench::check) that every packet left whole, in order, on the right port,
// with every credit home.
//
//   ./scfly-switch-tb switch.yaml [key=value ...]
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <systemc>

#include "sc_main/config.h"
#include "tb/switch_bench.h"

int sc_main(int argc, char* argv[]) {
  if (argc < 2) {
    std::cerr << "usage: scfly-switch-tb SWITCH.yaml [key=value ...]\n";
    return 2;
  }
  scfly::SimConfig cfg;
  try {
    cfg = scfly::load_config(argv[1], std::vector<std::string>(argv + 2, argv + argc));
  } catch (const std::exception& e) {
    std::cerr << "scfly-switch-tb: " << e.what() << "\n";
    return 2;
  }
  sc_core::sc_clock clk("clk", 1, sc_core::SC_NS);
  scfly::SwitchBench bench("bench", cfg, 0, clk);
  const scfly::Topology& topo = bench.topology();
  const int dst = topo.node_of(0, 0);
  const int hot = topo.host_port(0);

  // For every input port, sources whose path to the hot host enters the switch there.
  scfly::Rng rng(cfg.seed, scfly::StreamKind::Traffic, 1);
  std::map<int, std::vector<int>> sources;  // input port -> source nodes
  for (int src = 0; src < topo.num_nodes(); ++src) {
    if (src == dst) continue;
    const auto path = bench.walk(src, dst, rng);
    for (const auto& hop : path)
      if (hop.sw == 0) sources[hop.in_port].push_back(src);
  }
  // A backlog at every input: `per_port` packets each, all queued at cycle 0.
  const int per_port = 120;
  std::map<scfly::PacketId, int> in_port_of;
  for (const auto& [port, srcs] : sources)
    for (int k = 0; k < per_port; ++k) {
      const int src = srcs[static_cast<size_t>(k) % srcs.size()];
      const auto e = bench.inject(src, dst, rng, 0);
      if (!e || e->out_port != hot) {
        std::cerr << "scfly-switch-tb: the path of " << src << " -> " << dst << " does not end at the hot port\n";
        return 1;
      }
      in_port_of[e->pkt] = e->in_port;
    }
  const int inputs = static_cast<int>(sources.size());
  const uint64_t phits = static_cast<uint64_t>(cfg.packet_phits);
  std::cout << "switch 0 of " << topo.describe() << ", routing " << scfly::to_string(cfg.routing) << ", flow control "
            << scfly::to_string(cfg.sw.flow_control) << ", allocator " << scfly::to_string(cfg.sw.allocator) << ": "
            << inputs << " inputs x " << per_port
            << " packets toward host port " << hot << "\n";

  // Run until every packet is out, and the last credits are home.
  if (!bench.drain(clk, 200000)) {
    std::cerr << "scfly-switch-tb: not drained: " << bench.packets_delivered() << " of " << bench.packets_injected()
              << " delivered\n";
    return 1;
  }

  // The window: from the first delivery until the first input runs out of packets (while
  // every input is backlogged, the arbiter alone decides the shares).
  const auto& got = bench.port(hot).received();
  std::map<int, uint64_t> last_tail;
  for (const auto& r : got) last_tail[in_port_of[r.pkt]] = r.tail_cycle;
  uint64_t end = UINT64_MAX;
  for (const auto& [port, t] : last_tail) end = std::min(end, t);
  const uint64_t begin = got.front().head_cycle;
  std::map<int, uint64_t> in_window, latency_sum;
  uint64_t busy = 0;
  for (const auto& r : got) {
    latency_sum[in_port_of[r.pkt]] += r.tail_cycle - bench.context().pool[r.pkt].gen_cycle;
    if (r.tail_cycle > end) continue;
    ++in_window[in_port_of[r.pkt]];
    busy += phits;
  }
  std::cout << " port  class     packets in window  link share  mean latency (cycles)\n";
  double sum = 0, sum2 = 0;
  for (const auto& [port, srcs] : sources) {
    const uint64_t n = in_window[port];
    sum += static_cast<double>(n);
    sum2 += static_cast<double>(n) * static_cast<double>(n);
    std::cout << std::setw(5) << port << "  " << std::left << std::setw(8)
              << topo.port_class_name(topo.port_class_of(port)) << std::right << std::setw(19) << n << std::setw(12)
              << std::fixed << std::setprecision(3) << static_cast<double>(n) * static_cast<double>(phits) /
                                                          static_cast<double>(end - begin + 1)
              << std::setw(17) << std::setprecision(1)
              << static_cast<double>(latency_sum[port]) / static_cast<double>(per_port) << "\n";
  }
  const double jain = sum * sum / (static_cast<double>(inputs) * sum2);
  std::cout << std::setprecision(3) << "hot link busy " << static_cast<double>(busy) / static_cast<double>(end - begin + 1)
            << " of cycles " << begin << ".." << end << ", fairness (Jain) " << jain << " over " << inputs
            << " inputs\n";
  const auto bad = bench.check();
  for (const auto& b : bad) std::cout << "violation: " << b << "\n";
  std::cout << (bad.empty() ? "check: clean (every packet whole, in order, on its port; every credit home)\n"
                            : "check: FAILED\n");
  return bad.empty() ? 0 : 1;
}
