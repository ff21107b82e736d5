// Progress lines for the command line's long single jobs: a run's cycles, building the
// network, the deadlock check. At most one line per interval, on stderr, and only when
// stderr is a terminal, so piped and CI output does not change. Two environment variables
// (docs/reliability.md):
//   SCFLY_PROGRESS=on|off     force the lines on (also off a terminal) or off
//   SCFLY_PROGRESS_INTERVAL=S seconds between lines (default 5; 0 = every chance, for tests)
// The format is "scfly: WHAT: DETAIL (elapsed M:SS)", e.g.
//   scfly: run: cycle 40000 of 1013000 (3.9 %), 8012 cycles/s, ETA 2:01 (elapsed 0:05)
// Nothing here is called from the model: the run advances in chunks (run_driver.cpp) only
// while the lines are on, and a heartbeat thread prints the time of work that cannot report
// its own progress (building the network), reading nothing of it.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>

namespace scfly {

class Progress {
 public:
  using Clock = std::chrono::steady_clock;

  // On: SCFLY_PROGRESS=on, or unset (or anything else but off) with stderr a terminal.
  static bool enabled() {
    const char* e = std::getenv("SCFLY_PROGRESS");
    if (e && std::strcmp(e, "on") == 0) return true;
    if (e && std::strcmp(e, "off") == 0) return false;
    return ::isatty(2) != 0;
  }
  // SCFLY_PROGRESS_INTERVAL in seconds, [0, 3600]; 5 when unset or not a number in range.
  static double interval() {
    const char* e = std::getenv("SCFLY_PROGRESS_INTERVAL");
    if (!e || !*e) return 5.0;
    char* end = nullptr;
    const double v = std::strtod(e, &end);
    return *end == '\0' && v >= 0 && v <= 3600 ? v : 5.0;
  }
  static std::string duration(double s) {
    if (!std::isfinite(s) || s < 0) return "--:--";
    const long t = static_cast<long>(s + 0.5);
    char buf[32];
    if (t >= 3600) std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else std::snprintf(buf, sizeof buf, "%ld:%02ld", t / 60, t % 60);
    return buf;
  }

  explicit Progress(std::string what) : m_what(std::move(what)), m_on(enabled()), m_interval(interval()) {}
  bool on() const { return m_on; }
  double seconds_between_lines() const { return m_interval; }
  double elapsed() const { return std::chrono::duration<double>(Clock::now() - m_t0).count(); }
  // True when a line is due (on, and the interval has passed since the last line or the start).
  bool due() const {
    return m_on && std::chrono::duration<double>(Clock::now() - m_last).count() >= m_interval;
  }
  // Prints a line if one is due; `detail` is only called then.
  void update(const std::function<std::string()>& detail) {
    if (!due()) return;
    print(detail());
  }
  void print(const std::string& detail) {
    m_last = Clock::now();
    std::cerr << "scfly: " << m_what << ": " << detail << " (elapsed " << duration(elapsed()) << ")\n"
              << std::flush;
  }

 private:
  std::string m_what;
  bool m_on;
  double m_interval;
  Clock::time_point m_t0 = Clock::now(), m_last = Clock::now();
};

// Prints "scfly: WHAT: DETAIL (elapsed M:SS)" every interval from its own thread until
// destroyed, for a step that cannot report its own progress. Off: no thread.
class Heartbeat {
 public:
  Heartbeat(std::string what, std::string detail) : m_p(std::move(what)), m_detail(std::move(detail)) {
    if (!m_p.on()) return;
    m_thread = std::thread([this] {
      std::unique_lock<std::mutex> lock(m_mu);
      // An interval of 0 would spin: a heartbeat beats at most every 10 ms.
      const auto step = std::chrono::duration<double>(std::max(Progress::interval(), 0.01));
      while (!m_stop) {
        if (m_cv.wait_for(lock, step, [this] { return m_stop; })) break;
        m_p.print(m_detail);
      }
    });
  }
  ~Heartbeat() {
    if (!m_thread.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(m_mu);
      m_stop = true;
    }
    m_cv.notify_all();
    m_thread.join();
  }
  Heartbeat(const Heartbeat&) = delete;
  Heartbeat& operator=(const Heartbeat&) = delete;

 private:
  Progress m_p;
  std::string m_detail;
  std::mutex m_mu;
  std::condition_variable m_cv;
  bool m_stop = false;
  std::thread m_thread;
};

// The deadlock check's progress callback (DeadlockCheckOptions::progress) printing through p.
inline std::function<void(uint64_t, uint64_t)> deadlock_progress(Progress& p, uint64_t budget) {
  return [&p, budget](uint64_t explored, uint64_t found) {
    p.update([&] {
      return std::to_string(explored) + " routing states explored, " + std::to_string(found) +
             " found (the budget is " + std::to_string(budget) + ")";
    });
  };
}

}  // namespace scfly
