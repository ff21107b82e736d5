// A build without the Verilated blocks (SCFLY_RTL=OFF): the config refuses `rtl` through
// rtl_available(), and the factories throw if reached anyway.
#include <stdexcept>

#include "rtl_models/verilog/rtl_blocks.h"

namespace scfly {

namespace {
[[noreturn]] void no_rtl() {
  throw std::invalid_argument("this build has no RTL blocks (configure with -DSCFLY_RTL=ON)");
}
}  // namespace

bool rtl_available() { return false; }
bool rtl_pb_supports(int) { return false; }
bool rtl_min_route_supports(const DragonflyShape&) { return false; }
std::string rtl_min_route_shapes() { return "none (this build has no RTL blocks)"; }
std::unique_ptr<LevelCtrl> make_rtl_level_ctrl(const AcorLevelParams&) { no_rtl(); }
std::unique_ptr<SelectionBlocks> make_rtl_selection_blocks(int) { no_rtl(); }
std::unique_ptr<MinHopBlock> make_rtl_min_route(const Dragonfly&) { no_rtl(); }

}  // namespace scfly
