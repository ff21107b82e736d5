// FIFO ring buffer with a logical capacity and lazily grown storage (power of two), so a
// network of thousands of deep, mostly empty VC buffers costs memory only where phits
// actually queue. No allocation once a buffer has reached its working depth.
#pragma once

#include <cassert>
#include <cstdint>
#include <vector>

namespace scfly {

template <typename T>
class RingBuffer {
 public:
  explicit RingBuffer(uint32_t capacity = 0) : m_cap(capacity) {}
  void set_capacity(uint32_t c) { m_cap = c; }
  uint32_t capacity() const { return m_cap; }
  uint32_t size() const { return m_size; }
  const uint32_t* size_ptr() const { return &m_size; }
  bool empty() const { return m_size == 0; }
  bool full() const { return m_size >= m_cap; }
  uint32_t free() const { return m_cap - m_size; }

  // Unbounded push (for delay lines whose depth is bounded by the protocol, not by m_cap).
  void push_unbounded(const T& v) {
    if (m_size == m_store.size()) grow();
    m_store[(m_head + m_size) & m_mask] = v;
    ++m_size;
  }
  void push(const T& v) {
    assert(m_size < m_cap);
    push_unbounded(v);
  }
  T& front() { return m_store[m_head]; }
  const T& front() const { return m_store[m_head]; }
  const T& at(uint32_t i) const { return m_store[(m_head + i) & m_mask]; }
  T& back() { return m_store[(m_head + m_size - 1) & m_mask]; }
  void pop() {
    m_head = (m_head + 1) & m_mask;
    --m_size;
  }

 private:
  void grow() {
    const size_t n = m_store.empty() ? 4 : m_store.size() * 2;
    std::vector<T> s(n);
    for (uint32_t i = 0; i < m_size; ++i) s[i] = m_store[(m_head + i) & m_mask];
    m_store.swap(s);
    m_head = 0;
    m_mask = static_cast<uint32_t>(n - 1);
  }
  std::vector<T> m_store;
  uint32_t m_head = 0, m_size = 0, m_mask = 0, m_cap;
};

}  // namespace scfly
