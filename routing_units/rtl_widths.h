// Fixed-point widths shared by the C++ routing units and their SystemVerilog mirrors
// (rtl_models/verilog/*.sv). The widths themselves are defined once, in
// rtl_models/interface/widths.def, from which the build generates this header's constants
// (scfly_widths.h: kQueueBits, kHopBits, ...) and the SystemVerilog package scfly_pkg the
// blocks take their port widths from; here only the derived limits and saturation helpers.
// A Verilated block and the C++ model so compute bit-identical results. Config validation
// keeps parameters inside these widths.
#pragma once

#include <cstdint>

#include "scfly_widths.h"

namespace scfly {

static_assert(kTgBits == kQueueBits, "Piggyback T_g is compared with queue occupancies");

constexpr uint32_t kQueueMax = (1u << kQueueBits) - 1;
constexpr int64_t kThresholdMax = (int64_t{1} << (kThresholdBits - 1)) - 1;
constexpr int64_t kThresholdMin = -(int64_t{1} << (kThresholdBits - 1));
constexpr uint32_t kCgMax = (1u << kCgBits) - 1;
constexpr uint32_t kTgMax = (1u << kTgBits) - 1;
constexpr uint32_t kGalTMax = (1u << kGalTBits) - 1;
constexpr uint32_t kGalDepMax = (1u << kGalDepBits) - 1;
constexpr uint32_t kGalN2Max = (1u << kGalN2Bits) - 1;
constexpr int kCoordMax = (1 << kCoordBits) - 1;

inline uint32_t sat_queue(uint64_t q) { return q > kQueueMax ? kQueueMax : static_cast<uint32_t>(q); }

}  // namespace scfly
