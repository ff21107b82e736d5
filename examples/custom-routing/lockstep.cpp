// Lockstep test of threshold-val's RTL variant: threshold_val.sv (Verilated) against the
// C++ rule (threshold_val.h) on every input combination around the threshold and on 10^6
// random ones. Exit 0 when equal; otherwise the first difference, exit 1.
#include <cstdint>
#include <cstdio>
#include <random>

#include "threshold_val.h"

int main() {
  threshold_val::RtlDecider rtl(1);
  uint64_t n = 0;
  const auto check = [&](bool at_source, bool ejects, uint32_t queued, uint32_t threshold, bool on_valiant) {
    ++n;
    const bool want = threshold_val::goes_valiant(at_source, ejects, queued, threshold, on_valiant);
    const bool got = rtl(0, at_source, ejects, queued, threshold, on_valiant);
    if (got == want) return true;
    std::printf("differ: at_source %d ejects %d queued %u threshold %u on_valiant %d: C++ %d, RTL %d\n", at_source,
                ejects, queued, threshold, on_valiant, want, got);
    return false;
  };
  // Exhaustive over the flags and over queue and threshold near each other and the extremes.
  const uint32_t edges[] = {0u, 1u, 2u, 15u, 16u, 17u, 63u, 64u, 65u, 1u << 20, 0x7fffffffu, 0x80000000u, 0xfffffffeu, 0xffffffffu};
  for (int f = 0; f < 8; ++f)
    for (uint32_t q : edges)
      for (uint32_t t : edges)
        if (!check(f & 1, f & 2, q, t, f & 4)) return 1;
  std::mt19937_64 rng(7);
  for (int i = 0; i < 1'000'000; ++i) {
    const uint64_t r = rng();
    const uint32_t t = static_cast<uint32_t>(rng() % (1u << 20));
    const uint32_t q = (r >> 3) & 1 ? static_cast<uint32_t>(rng()) : t + static_cast<uint32_t>(rng() % 5) - 2;
    if (!check(r & 1, r & 2, q, t, r & 4)) return 1;
  }
  std::printf("threshold-val RTL == C++ on %llu inputs\n", static_cast<unsigned long long>(n));
  return 0;
}
