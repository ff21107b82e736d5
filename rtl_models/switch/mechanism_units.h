// The mechanism units of scfly's routing mechanisms (switch_unit.h), and the factory that
// gives a switch the ones its routing unit needs:
//  - AcorUnit          ACOR-Switch / PB-ACOR level controller (routing_units/acor_level_ctrl.h,
//                      or the Verilated acor_level_ctrl.sv with --rtl acor): counts this
//                      cycle's blocked non-minimal injection heads; routing reads its level.
//  - LoadPublisher     UGAL-G: publishes the switch's per-port occupancy to the network view
//                      (NetworkLoad, read one cycle later by any switch).
//  - ControlProbe      (control.probe_interval) originates a control frame of
//                      control.frame_phits toward a random host every interval, from a
//                      random phase per switch: control-plane latency under data load.
//  - PbUnit            Piggyback / PB-ACOR: the switch's global-link saturation flags from its
//                      global-port occupancies (ugal.h pb_saturated, or the Verilated
//                      pb_sat_detector.sv with --rtl pb); its own flags are read at once, the
//                      group's other switches see them after pb.delay (SatFlagTable).
// The factory must run inside the switch's constructor: the Verilated SystemC blocks become
// children of the switch module (net.swN.acor_rtl, net.swN.pb_rtl); the in-process QCN
// port-probability unit (--rtl qcn) is named under the switch's name `sw_name`
// (net.swN.qcn_rtl) so its nets trace with the switch.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "rtl_models/switch/sim_context.h"
#include "rtl_models/switch/switch_unit.h"
#include "routing_units/routing.h"

namespace scfly {

struct SwitchParams;

std::vector<std::unique_ptr<SwitchUnit>> make_mechanism_units(int sw, const RoutingUnit& routing,
                                                              const SwitchParams& prm, SimContext& ctx,
                                                              uint64_t seed, const std::string& sw_name);

}  // namespace scfly
