// Verilated RTL blocks behind the C++ units' interfaces, for `--rtl` co-simulation: the
// switch drives the Verilated model from its own clocked process, one eval per clock
// edge, with the same inputs the C++ model gets (Verilator C++ models, called in
// process: no delta cycles between the switch and the block, so a run with the RTL
// block is cycle-for-cycle the run with the C++ unit). The Verilated models are built with
// SCFLY_RTL; without it (rtl_blocks_none.cpp) rtl_available() is false and every factory
// throws std::invalid_argument.
#pragma once

#include <memory>
#include <string>

#include "routing_units/acor_level_ctrl.h"
#include "routing_units/ugal.h"
#include "topologies/dragonfly.h"

namespace scfly {

// True if this build holds the Verilated blocks.
bool rtl_available();

// rtl_models/verilog/acor_level_ctrl.sv as a LevelCtrl. It is stepped on every cycle
// (needs_every_cycle): hardware has no closed-form catch-up for a sleeping switch.
std::unique_ptr<LevelCtrl> make_rtl_level_ctrl(const AcorLevelParams& p);

// ugal_selector.sv and pb_sat_detector.sv (built for H = 2 and H = 4 global ports) as the
// selection rules; `h` is the switches' global port count. Combinational: inputs set,
// eval, outputs read. Throws std::invalid_argument for an H without a Verilated model.
std::unique_ptr<SelectionBlocks> make_rtl_selection_blocks(int h);
bool rtl_pb_supports(int h);

// min_route.sv as the minimal-hop unit, Verilated per shape: palmtree dfly(2,4,2,9) and
// dfly(4,8,4,33); absolute dfly(2,4,2,g) for g = 3, 5, 9 and dfly(4,8,4,g) for g = 9, 17,
// 33. Throws std::invalid_argument for any other shape. rtl_min_route_shapes() lists them
// for messages ("palmtree dfly(2,4,2,9), ...; absolute ...").
std::unique_ptr<MinHopBlock> make_rtl_min_route(const Dragonfly& topo);
bool rtl_min_route_supports(const DragonflyShape& s);
std::string rtl_min_route_shapes();

}  // namespace scfly
