// A fixed set of worker threads that run one task per shard and wait at a barrier: the
// block scheduler's threads (sim.threads, tb/network.h). run(f) calls f(0) on the calling
// thread and f(1) ... f(n-1) on the workers, and returns when every call has returned.
//
// The calls of one run() are short (one block window of a group of switches, tens of
// microseconds to milliseconds) and come back to back, so a worker spins on the run counter
// for a while before it sleeps on a condition variable; the caller does the same while it
// waits for the workers. On a machine with fewer free cores than threads the spinning
// yields the core (sched_yield) so that the thread it waits for can run.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace scfly {

class WorkerPool {
 public:
  // A pool of `threads` threads in all, the caller's included (threads - 1 workers).
  explicit WorkerPool(int threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int threads() const { return static_cast<int>(m_workers.size()) + 1; }
  // Calls fn(ctx, t) for every t in [0, threads()): t = 0 on the calling thread. Returns
  // when all have returned. fn must not throw.
  void run(void (*fn)(void* ctx, int t), void* ctx);

 private:
  void work(int t);
  std::vector<std::thread> m_workers;
  std::atomic<uint64_t> m_round{0};  // run() calls so far; a new value starts the workers
  std::atomic<int> m_done{0};        // workers finished with the current round
  std::atomic<bool> m_stop{false};
  void (*m_fn)(void*, int) = nullptr;
  void* m_ctx = nullptr;
  std::mutex m_mutex;
  std::condition_variable m_cv;
  std::atomic<int> m_sleeping{0};
};

}  // namespace scfly
