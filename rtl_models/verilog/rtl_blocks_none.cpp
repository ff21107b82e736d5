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
std::unique_ptr<LevelCtrl> make_rtl_level_ctrl(const AcorLevelParams&, const std::string&) {
  no_rtl();
}
std::unique_ptr<PbDetectorBlock> make_rtl_pb_detector(int, uint32_t, uint32_t, std::function<void(const uint32_t*)>,
                                                      const std::string&) {
  no_rtl();
}
std::unique_ptr<SelectionBlocks> make_rtl_selection_blocks(const std::string&) { no_rtl(); }
std::vector<RtlSignal> rtl_signals(const sc_core::sc_object&) { return {}; }
std::string rtl_pb_widths() { return "none (this build has no RTL blocks)"; }
std::string rtl_min_route_shapes() { return "none (this build has no RTL blocks)"; }
std::unique_ptr<MinHopBlock> make_rtl_min_route(const Dragonfly&, const std::string&) { no_rtl(); }
std::unique_ptr<QuadrantBlock> make_rtl_quadrant(const Torus&, const std::string&) { no_rtl(); }
std::unique_ptr<GalThresholdBlock> make_rtl_gal_threshold(const GalThresholdParams&, const std::string&) { no_rtl(); }
std::unique_ptr<QcnPortBlock> make_rtl_qcn_port_prob(const QcnParams&, int, const std::string&) { no_rtl(); }
std::shared_ptr<FtBlock> make_rtl_ft_lookup(const ForwardingTable&, const Dragonfly&, const std::string&) { no_rtl(); }
int rtl_ft_lookup_rows(int) { return 0; }
bool rtl_allocator_fits(int, int, int, AllocatorKind) { return false; }
std::string rtl_allocator_limits(AllocatorKind) { return "none (this build has no RTL blocks)"; }
std::unique_ptr<AllocatorBlock> make_rtl_allocator(const AllocatorConfig&, const std::string&, AllocatorKind) {
  no_rtl();
}
std::unique_ptr<FlowControlBlock> make_rtl_flow_control(const std::vector<uint32_t>&, uint32_t, uint32_t,
                                                        const std::string&) {
  no_rtl();
}
std::unique_ptr<LinkArbiterBlock> make_rtl_link_arbiter(int, int, const std::string&) { no_rtl(); }
std::unique_ptr<QcnCpBlock> make_rtl_qcn_cp(const QcnParams&, const std::vector<uint32_t>&, const std::string&) {
  no_rtl();
}

}  // namespace scfly
