// ACOR: Adaptive Congestion-Oblivious Routing (ACOR-Packet and ACOR-Switch).
//
// Paper: Benito, Fuentes, Vallejo, Beivide, "ACOR: Adaptive Congestion-Oblivious Routing in
// Dragonfly networks" (Journal of Parallel and Distributed Computing, 2019),
// sec. 4.2 and Tables 2-3.
// Decision rule: Valiant (valiant.h) whose Phase-A misrouting policy is the current level
// of a policy sequence, shortest first: 2la = crg-gr, rrg-sw; 2lb = crg-sw, rrg-sw;
// 3l = crg-gr, crg-sw, rrg-sw. Intra-group traffic is always restricted (as in the paper's
// evaluation) and a blocked head at its injection buffer is always recomputed.
//  - ACOR-Packet: the level is per packet; it starts at 0 and rises by one before every
//    recomputation (each cycle the head is blocked), sticking at the last level (rrg-sw):
//    level = min(attempt, levels - 1).
//  - ACOR-Switch: every packet injected at a switch uses the switch's level, kept by an
//    AcorLevelCtrl (acor_level_ctrl.h) fed with the blocked non-minimal attempts at the
//    switch's injection buffers each cycle (thresholds IT/DT, interval HI).
// Congestion signal read: only output-port availability at injection (blocked attempts);
// no occupancy or credit is read: adaptive, but congestion-oblivious.
// VC use per hop: as VAL, 4 local / 2 global VCs (Phase A local 0, global 0, local 1;
// Phase B local 2, global 1, local 3).
#pragma once

#include <algorithm>

namespace scfly {

inline int acor_packet_level(int attempt, int levels) { return std::min(attempt, levels - 1); }

}  // namespace scfly
