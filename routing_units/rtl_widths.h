// Fixed-point widths shared by the C++ routing units and their Verilog mirrors
// (rtl_models/verilog/*.sv): defined once here, so a Verilated block and the C++ model
// compute bit-identical results. Config validation keeps parameters inside these widths.
#pragma once

#include <cstdint>

namespace scfly {

constexpr int kQueueBits = 16;      // queue occupancy in phits, saturating at 2^16-1
constexpr int kHopBits = 4;         // switch-to-switch hops of a candidate path (<= 15)
constexpr int kThresholdBits = 24;  // UGAL T, signed two's complement
constexpr int kCgBits = 10;         // Piggyback C_g in percent (<= 1023 %)
constexpr int kTgBits = kQueueBits; // Piggyback T_g in phits

constexpr uint32_t kQueueMax = (1u << kQueueBits) - 1;
constexpr int64_t kThresholdMax = (int64_t{1} << (kThresholdBits - 1)) - 1;
constexpr int64_t kThresholdMin = -(int64_t{1} << (kThresholdBits - 1));
constexpr uint32_t kCgMax = (1u << kCgBits) - 1;
constexpr uint32_t kTgMax = (1u << kTgBits) - 1;

inline uint32_t sat_queue(uint64_t q) { return q > kQueueMax ? kQueueMax : static_cast<uint32_t>(q); }

}  // namespace scfly
