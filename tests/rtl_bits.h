// Helpers of the RTL lockstep tests that drive wide Verilated ports (test_rtl_allocator.cpp,
// test_rtl_allocator_variants.cpp): packing fields into a port, reading them back.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <type_traits>
#include <vector>

namespace scfly::rtl_test {

// Bits of a Verilated port: an integer up to 64 bits, a VlWide beyond.
class Bits {
 public:
  explicit Bits(int n) : m_w(static_cast<size_t>((n + 31) / 32), 0u) {}
  void clear() { std::fill(m_w.begin(), m_w.end(), 0u); }
  void put(int lsb, int width, uint64_t v) {  // into cleared bits
    if (width < 64) v &= (1ULL << width) - 1;
    for (int b = lsb, done = 0; done < width;) {
      const int off = b % 32, take = std::min(32 - off, width - done);
      m_w[static_cast<size_t>(b / 32)] |= static_cast<uint32_t>((v >> done) << off);
      b += take;
      done += take;
    }
  }
  template <class T>
  void to(T& port) const {
    if constexpr (std::is_integral_v<T>) {
      uint64_t v = m_w[0];
      if (m_w.size() > 1) v |= static_cast<uint64_t>(m_w[1]) << 32;
      port = static_cast<T>(v);
    } else {
      const size_t words = std::min(m_w.size(), sizeof(T) / sizeof(uint32_t));
      for (size_t i = 0; i < words; ++i) port[i] = m_w[i];
    }
  }

 private:
  std::vector<uint32_t> m_w;
};

template <class T>
uint64_t get_bits(const T& port, int lsb, int width) {
  uint64_t v = 0;
  for (int i = 0; i < width; ++i) {
    const int b = lsb + i;
    uint32_t bit;
    if constexpr (std::is_integral_v<T>) bit = static_cast<uint32_t>((static_cast<uint64_t>(port) >> b) & 1u);
    else bit = (port[static_cast<size_t>(b / 32)] >> (b % 32)) & 1u;
    v |= static_cast<uint64_t>(bit) << i;
  }
  return v;
}

constexpr int clog2(int x) {
  int b = 0;
  while ((1 << b) < x) ++b;
  return b;
}

// A positive integer from the environment, or dflt.
inline long env_long(const char* name, long dflt) {
  const char* s = std::getenv(name);
  if (!s || !*s) return dflt;
  char* end = nullptr;
  const long v = std::strtol(s, &end, 10);
  return (end && *end == 0 && v > 0) ? v : dflt;
}

}  // namespace scfly::rtl_test
