#include "sc_main/run_driver.h"

#include <algorithm>
#include <chrono>

#include <systemc>

namespace scfly {

namespace {
// The command line stops the simulation at the model's first fatal error, and prints the
// error itself (the outcome's `error`): cache the report, no display.
void stop_on_model_errors() {
  sc_core::sc_report_handler::set_actions(kReportType, sc_core::SC_ERROR,
                                          sc_core::SC_STOP | sc_core::SC_CACHE_REPORT);
}
}  // namespace

bool advance(Network& net, uint64_t cycles) {
  stop_on_model_errors();
  // Nothing to run (a benchmark without warm-up): no kernel call, so that the block
  // scheduler is never woken with no cycle to run.
  if (cycles == 0) return !net.failed();
  const uint64_t now = net.cycle();
  net.set_horizon(now + cycles);
  sc_core::sc_start(net.period() * static_cast<double>(cycles));
  return !net.failed();
}

RunOutcome run(Network& net, const SimConfig& cfg) {
  const auto t0 = std::chrono::steady_clock::now();
  const uint64_t end = cfg.warmup_cycles + cfg.measure_cycles;
  advance(net, end);
  bool drained = false;
  if (!net.failed() && cfg.drain) {
    net.stop_generation(end);
    const uint64_t limit = end + cfg.drain_timeout_cycles;
    while (!net.failed() && net.packets_pending() > 0 && net.cycle() < limit)
      advance(net, std::min<uint64_t>(1000, limit - net.cycle()));
    drained = net.packets_pending() == 0;
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return net.outcome(wall, drained);
}

}  // namespace scfly
