#include "tb/worker_pool.h"

#include <sched.h>

namespace scfly {

namespace {
// Spins before a waiter yields its core: about 20-50 microseconds of polling.
constexpr int kSpins = 4000;
// Yields before a worker sleeps: a worker waits this long between windows only when the
// SystemC thread does something else (the driver's progress line, the end of the run).
constexpr int kYields = 200;

inline void relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}
}  // namespace

WorkerPool::WorkerPool(int threads) {
  for (int t = 1; t < threads; ++t) m_workers.emplace_back([this, t] { work(t); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_stop.store(true, std::memory_order_release);
    m_round.fetch_add(1, std::memory_order_release);
  }
  m_cv.notify_all();
  for (std::thread& w : m_workers) w.join();
}

void WorkerPool::run(void (*fn)(void*, int), void* ctx) {
  m_fn = fn;
  m_ctx = ctx;
  m_done.store(0, std::memory_order_relaxed);
  // Sequentially consistent, as the sleeping worker's count and check below: one of the
  // two sides sees the other's store, so no wake-up is lost.
  m_round.fetch_add(1);  // publishes fn and ctx
  if (m_sleeping.load() > 0) {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_cv.notify_all();
  }
  fn(ctx, 0);
  const int n = static_cast<int>(m_workers.size());
  for (int i = 0; m_done.load(std::memory_order_acquire) != n; ++i) {
    if (i < kSpins) relax();
    else sched_yield();
  }
}

void WorkerPool::work(int t) {
  uint64_t seen = 0;
  for (;;) {
    uint64_t r = m_round.load(std::memory_order_acquire);
    for (int i = 0; r == seen; ++i) {
      if (i < kSpins) {
        relax();
      } else if (i < kSpins + kYields) {
        sched_yield();
      } else {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_sleeping.fetch_add(1);
        m_cv.wait(lock, [&] { return m_round.load() != seen; });
        m_sleeping.fetch_sub(1);
        i = 0;
      }
      r = m_round.load(std::memory_order_acquire);
    }
    seen = r;
    if (m_stop.load(std::memory_order_acquire)) return;
    m_fn(m_ctx, t);
    m_done.fetch_add(1, std::memory_order_release);
  }
}

}  // namespace scfly
