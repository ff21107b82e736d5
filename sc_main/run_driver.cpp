#include "sc_main/run_driver.h"

#include <algorithm>
#include <chrono>

#include <systemc>

#include "sc_main/progress.h"

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
  Progress progress("run");
  if (!progress.on() && net.ranks() == 1) {
    advance(net, end);
  } else {
    // With progress lines (sc_main/progress.h) the run advances in chunks of about half a
    // second (at most half the interval; at least 1000 cycles), so the host can print between
    // them; the model sees the same cycles either way. With ranks too, whether rank 0 prints
    // or not: every rank takes this branch, and rank 0's chunks.
    const double target = std::min(0.5, progress.seconds_between_lines() / 2);
    uint64_t done = 0, chunk = 1000;
    while (done < end && !net.failed()) {
      // With ranks, rank 0's chunk: every rank must end its calls at the same cycles.
      const uint64_t n = net.rank0_value(std::min(chunk, end - done));
      const auto c0 = std::chrono::steady_clock::now();
      advance(net, n);
      done += n;
      const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - c0).count();
      chunk = dt > 0 ? std::clamp<uint64_t>(static_cast<uint64_t>(static_cast<double>(n) * target / dt), 1000,
                                            100000000)
                     : chunk * 2;
      if (done < end)
        progress.update([&] {
          const double rate = static_cast<double>(done) / std::max(progress.elapsed(), 1e-9);
          char buf[160];
          std::snprintf(buf, sizeof buf, "cycle %llu of %llu (%.1f %%), %.0f cycles/s, ETA %s",
                        static_cast<unsigned long long>(done), static_cast<unsigned long long>(end),
                        100.0 * static_cast<double>(done) / static_cast<double>(end), rate,
                        Progress::duration(static_cast<double>(end - done) / rate).c_str());
          return std::string(buf);
        });
    }
  }
  bool drained = false;
  if (!net.failed() && cfg.drain) {
    net.stop_generation(end);
    const uint64_t limit = end + cfg.drain_timeout_cycles;
    // (packets_pending is collective with ranks: called once per step on every rank.)
    uint64_t pending = net.packets_pending();
    while (!net.failed() && pending > 0 && net.cycle() < limit) {
      advance(net, std::min<uint64_t>(1000, limit - net.cycle()));
      pending = net.packets_pending();
      progress.update([&] {
        return "draining, " + std::to_string(pending) + " packets left at cycle " + std::to_string(net.cycle()) +
               " (timeout at " + std::to_string(limit) + ")";
      });
    }
    drained = pending == 0;
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return net.outcome(wall, drained);
}

}  // namespace scfly
