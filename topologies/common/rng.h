// Per-component random streams. Every component (NIC, switch, traffic pattern) owns one
// stream seeded from (run seed, component id) through splitmix64, so a run is bit-
// reproducible whatever order SystemC evaluates processes in, and a Verilated block can be
// fed the very same draws. Generator: xoshiro256** (Blackman & Vigna); bounded integers by
// Lemire's multiply-shift, which is exact enough (bias < 2^-32 for the ranges used here)
// and, unlike std::uniform_int_distribution, identical on every standard library.
#pragma once

#include <cstdint>

namespace scfly {

inline uint64_t splitmix64(uint64_t& x) {
  uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Component id namespaces, so streams of different kinds never collide.
enum class StreamKind : uint64_t { Nic = 1, Switch = 2, Traffic = 3, Control = 4, Qcn = 5, Allocator = 6 };

// Scripted draws for analysis (the deadlock checker, sc_main/deadlock_check.h): while a
// script is attached to an Rng, below() and next32() return the script's values instead of
// the stream's, so a caller can enumerate every outcome of a routing decision. Simulation
// never attaches one; the cost is one well-predicted test per routing draw.
class DrawScript {
 public:
  virtual ~DrawScript() = default;
  virtual uint32_t below(uint32_t n) = 0;  // a value in [0, n)
  virtual uint32_t word() = 0;             // a 32-bit word that will be scaled to a choice
};

class Rng {
 public:
  Rng() : Rng(0, StreamKind::Traffic, 0) {}
  Rng(uint64_t seed, StreamKind kind, uint64_t index) {
    uint64_t x = seed ^ (static_cast<uint64_t>(kind) << 56) ^ (index * 0xd1b54a32d192ed03ULL);
    for (auto& w : m_s) w = splitmix64(x);
  }
  uint64_t next() {
    const uint64_t result = rotl(m_s[1] * 5, 7) * 9;
    const uint64_t t = m_s[1] << 17;
    m_s[2] ^= m_s[0];
    m_s[3] ^= m_s[1];
    m_s[1] ^= m_s[2];
    m_s[0] ^= m_s[3];
    m_s[2] ^= t;
    m_s[3] = rotl(m_s[3], 45);
    return result;
  }
  // Uniform integer in [0, n), n >= 1: scale(next32(), n).
  uint32_t below(uint32_t n) {
    if (__builtin_expect(m_script != nullptr, 0)) return m_script->below(n);
    return scale(static_cast<uint32_t>(next() >> 32), n);
  }
  // The upper 32 bits of the next draw: the word below() scales. An RTL block that draws
  // with the same multiply-shift is fed this word (min_route.sv's rand_i).
  uint32_t next32() {
    if (__builtin_expect(m_script != nullptr, 0)) return m_script->word();
    return static_cast<uint32_t>(next() >> 32);
  }
  // The same word where it only orders equally good options (a tie among candidates that
  // are all offered): under a script it is 0, since the order changes no outcome's set.
  uint32_t order_word() { return m_script ? 0 : static_cast<uint32_t>(next() >> 32); }
  // Attaches (or with null detaches) a script; the stream's state is left untouched.
  void attach(DrawScript* s) { m_script = s; }
  // A 32-bit word scaled to [0, n), n >= 1: (word * n) >> 32.
  static uint32_t scale(uint32_t word, uint32_t n) {
    return static_cast<uint32_t>((static_cast<uint64_t>(word) * n) >> 32);
  }
  // Uniform double in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t m_s[4];
  DrawScript* m_script = nullptr;
};

}  // namespace scfly
