// A set of port indices (radix <= 256) as a bitmask, iterated in increasing port order.
// The switch keeps one per kind of pending work so each stage visits only busy ports.
#pragma once

#include <cstdint>

// Forces inlining of the small per-port bodies of the switch's hot stages: GCC's heuristics
// otherwise outline some of them (a call per port per stage per cycle), which costs a few
// per cent of the whole run.
#define SCFLY_ALWAYS_INLINE __attribute__((always_inline))

namespace scfly {

struct PortMask {
  uint64_t w[4] = {0, 0, 0, 0};
  void set(int i) { w[i >> 6] |= 1ULL << (i & 63); }
  void clear(int i) { w[i >> 6] &= ~(1ULL << (i & 63)); }
  bool any() const { return (w[0] | w[1] | w[2] | w[3]) != 0; }
  // Calls f(port) for every member of a snapshot taken on entry (f may modify the mask).
  template <typename F>
  SCFLY_ALWAYS_INLINE void for_each(F&& f) const {
    const uint64_t snap[4] = {w[0], w[1], w[2], w[3]};
    for (int k = 0; k < 4; ++k)
      for (uint64_t b = snap[k]; b != 0; b &= b - 1) f((k << 6) | __builtin_ctzll(b));
  }
};

}  // namespace scfly
