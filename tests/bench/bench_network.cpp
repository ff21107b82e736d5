// Simulation speed in router-cycles per second (switches x simulated cycles / wall second)
// on one configuration per process, since SystemC elaborates one network per process.
//   scfly_bench CONFIG.yaml [key=value ...] [--benchmark_* flags]
// The network is warmed up (warmup_cycles) before timing; each iteration then simulates
// `bench_chunk` cycles (default 1000). Reported counters: router_cycles_per_s,
// accepted_load (to confirm the point is what it claims) and peak_rss_mb.
// tests/bench/run_benchmarks.sh runs the named configurations and prints a table.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "sc_main/config.h"
#include "sc_main/run_driver.h"
#include "tb/network.h"

namespace {

std::unique_ptr<scfly::Network> g_net;
scfly::SimConfig g_cfg;
uint64_t g_chunk = 1000;

void BM_Network(benchmark::State& state) {
  const int switches = g_net->topology().num_switches();
  const uint64_t phits0 = g_net->phit_moves();
  uint64_t cycles = 0;
  for (auto _ : state) {
    if (!scfly::advance(*g_net, g_chunk)) {
      state.SkipWithError(g_net->context().error.c_str());
      break;
    }
    cycles += g_chunk;
  }
  state.counters["router_cycles_per_s"] = benchmark::Counter(
      static_cast<double>(cycles) * switches, benchmark::Counter::kIsRate);
  state.counters["phit_hops_per_s"] = benchmark::Counter(
      static_cast<double>(g_net->phit_moves() - phits0), benchmark::Counter::kIsRate);
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  state.counters["peak_rss_mb"] = static_cast<double>(ru.ru_maxrss) / 1024.0;
  // The block scheduler's block length (0: every block a SystemC process, sim.scheduler).
  state.counters["block_cycles"] = static_cast<double>(g_net->block_cycles());
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  std::vector<char*> bench_args{argv[0]};
  std::string config;
  std::vector<std::string> overrides;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--benchmark", 0) == 0) bench_args.push_back(argv[i]);
    else if (a.rfind("bench_chunk=", 0) == 0) g_chunk = std::stoull(a.substr(12));
    else if (config.empty()) config = a;
    else overrides.push_back(a);
  }
  if (config.empty()) {
    std::cerr << "usage: scfly_bench CONFIG.yaml [key=value ...] [bench_chunk=N] [--benchmark_*]\n";
    return 1;
  }
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  try {
    g_cfg = scfly::load_config(config, overrides);
  } catch (const scfly::ConfigError& e) {
    std::cerr << "scfly_bench: error: " << e.what() << "\n";
    return 2;
  }
  g_net = std::make_unique<scfly::Network>("net", g_cfg);
  if (!scfly::advance(*g_net, g_cfg.warmup_cycles)) {
    std::cerr << g_net->context().error << "\n";
    return 3;
  }
  std::string label = config;
  for (const auto& o : overrides) label += " " + o;
  benchmark::RegisterBenchmark(label.c_str(), BM_Network)->UseRealTime()->Unit(benchmark::kMillisecond);
  int bargc = static_cast<int>(bench_args.size());
  benchmark::Initialize(&bargc, bench_args.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  // Destroy the network here, not at exit: Verilated SystemC blocks (rtl=[acor,pb])
  // unregister from Verilator's context, a static that may be gone by then.
  g_net.reset();
  return 0;
}

int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}
