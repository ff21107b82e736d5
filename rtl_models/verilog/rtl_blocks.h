// Verilated RTL blocks behind the C++ units' interfaces, for `--rtl` co-simulation: the
// switch drives the Verilated model from its own clocked process, one eval per clock
// edge, with the same inputs the C++ model gets (Verilator C++ models, called in
// process: no delta cycles between the switch and the block, so a run with the RTL
// block is cycle-for-cycle the run with the C++ unit). Built with SCFLY_RTL.
#pragma once

#include <memory>

#include "routing_units/acor_level_ctrl.h"

namespace scfly {

// rtl_models/verilog/acor_level_ctrl.sv as a LevelCtrl. It is stepped on every cycle
// (needs_every_cycle): hardware has no closed-form catch-up for a sleeping switch.
std::unique_ptr<LevelCtrl> make_rtl_level_ctrl(const AcorLevelParams& p);

}  // namespace scfly
