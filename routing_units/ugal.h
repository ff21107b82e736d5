// Source-adaptive selection between one minimal and one Valiant candidate: UGAL-L, UGAL-G,
// PAR, Piggyback (PB) and PB-ACOR. Candidate generation is shared with VAL/ACOR
// (misrouting.h); this file is the selection.
//
// Papers: Kim, Dally, Scott, Abts (ISCA'08) UGAL on the Dragonfly; Jiang, Kim, Dally
// (ISCA'09) PAR and Piggyback; the T-UGAL paper (Rahman, Bhowmik, Ryasnianskiy, Yuan, Lang,
// "Topology-Custom UGAL Routing on Dragonfly", SC'19) sec. 2.2 (UGAL-L, UGAL-G, PAR) and
// 4.1.2 (1 MIN + 1 VLB candidate, T = 0, 4 VCs, 5 for PAR); the ACOR paper (Benito, Fuentes,
// Vallejo, Beivide, "ACOR: Adaptive Congestion-Oblivious Routing in Dragonfly networks",
// Journal of Parallel and Distributed Computing, 2019) sec. 3, 4.3, 5.3 (PB with restriction
// and recomputation, PB-ACOR) and Table 3 (C_g = 120 %, T_g = 5).
//
// Decision rules (at the source switch, when the head arrives on a host port; H = switch-
// to-switch hops of the candidate path; q = queue occupancy in phits, congestion.h: of the
// output port summed over its VCs, or with ugal.occupancy_scope vc (FOGSim's UGAL and PB) of
// the output VC the candidate takes; what it counts is ugal.occupancy):
//  UGAL-L  minimal iff q(first hop of MIN) * H_min <= q(first hop of VLB) * H_vlb + T.
//  UGAL-G  minimal iff sum of q over every hop of MIN <= the same over VLB + T, read from
//          every switch's occupancy one cycle old (global information: the reference).
//  PAR     UGAL-L at the source; a packet sent minimally through a local hop is evaluated
//          again at the next switch (still in the source group, before its global hop)
//          with a fresh Valiant candidate from there, and may turn non-minimal there.
//  PB      minimal unless the minimal path's global link is flagged saturated (flags of the
//          group's global links, congestion.h; this switch's own flags without delay) or
//          the UGAL-L comparison prefers the Valiant candidate. A global link is saturated
//          when its occupancy q_g satisfies 100 * q_g * n > C_g * sum(q of the switch's n
//          global links) + 100 * T_g * n (integer form of q_g > C_g% x average + T_g).
//  PB-ACOR PB whose Valiant candidate follows the switch's ACOR level (acor.h); only heads
//          blocked on a non-minimal path feed the level controller.
// When: once, as the head is first routed (ugal.reevaluate once). With ugal.reevaluate
// blocked|minimal (FOGSim's PB|UGAL) a head blocked at the injection buffer is routed again
// each cycle it waits, the switch replaying the draws of its first attempt (the same
// candidates, the occupancies of that cycle); under minimal a Valiant choice stands.
// Fixed point (rtl_widths.h, mirrored by ugal_selector.sv / pb_sat_detector.sv): queue
// occupancies saturate at 16 bits, hop counts are 4 bits, T is a signed 24-bit value
// (negative biases toward Valiant), C_g a 10-bit percentage, T_g 16 bits; products and
// sums are exact in the widths the RTL uses.
// Congestion signals read: UGAL-L/PAR/PB: this switch's output ports; UGAL-G: all switches'
// ports; PB/PB-ACOR additionally the group's saturation flags.
// VC use per hop: the hop-slot rule (minimal.h) with 2 segments, 4 local / 2 global VCs;
// a minimal path uses segment 0 only. PAR adds one: a packet that turns non-minimal after
// its first local hop takes local VC 1 for its next local hop (still before its first global
// hop), and every packet's local hops after that stage (after a global hop or in segment 1)
// are one VC up, 2-4: local VC order 0 < 1 < global 0 < 2 < 3 < global 1 < 4 along every
// path, so PAR needs 5 local / 2 global VCs. (Shifting only the turned packets, as scfly did
// before the deadlock checker, sc_main/deadlock_check.h, found the cycle local 3 -> global 1
// -> local 3: a turned packet's segment-1 local hop before its global hop shared VC 3 with an
// unturned packet's hop after it.)
#pragma once

#include <cstdint>

#include "routing_units/congestion.h"
#include "routing_units/misrouting.h"
#include "routing_units/route_types.h"
#include "routing_units/rtl_widths.h"
#include "routing_units/tvlb.h"
#include "topologies/common/rng.h"
#include "topologies/dragonfly.h"

namespace scfly {

// The UGAL comparison: true = minimal (ugal_selector.sv). q saturates to 16 bits.
inline bool ugal_prefers_min(uint64_t q_min, uint32_t h_min, uint64_t q_vlb, uint32_t h_vlb, int64_t t) {
  const int64_t lhs = static_cast<int64_t>(sat_queue(q_min)) * (h_min & 0xF);
  const int64_t rhs = static_cast<int64_t>(sat_queue(q_vlb)) * (h_vlb & 0xF);
  return lhs <= rhs + t;
}

// Piggyback saturation test for one global link (integer form, see above;
// pb_sat_detector.sv). `q_sum` is the sum of the n (<= 16) saturated link occupancies.
inline bool pb_saturated(uint64_t q_link, uint64_t q_sum, uint32_t n_links, uint32_t cg_percent,
                         uint32_t tg) {
  return 100 * static_cast<uint64_t>(sat_queue(q_link)) * n_links >
         static_cast<uint64_t>(cg_percent) * q_sum + 100ULL * tg * n_links;
}

// The UGAL selection rule as a replaceable block: ugal_prefers_min() above, or the Verilated
// ugal_selector.sv (rtl_models/verilog/rtl_blocks.h, `--rtl ugal`). (The PB detector is
// replaced per switch: rtl_models/verilog/rtl_blocks.h, PbDetectorBlock.)
class SelectionBlocks {
 public:
  virtual ~SelectionBlocks() = default;
  virtual bool prefers_min(uint64_t q_min, uint32_t h_min, uint64_t q_vlb, uint32_t h_vlb, int64_t t) const = 0;
};

enum class AdaptiveKind : uint8_t { UgalL, UgalG, Par, Pb, PbAcor };

// The T-UGAL paper's baseline UGAL, as its authors' artifact implements it (the text does
// not go into these details), as options beside scfly's own (the defaults):
//  ugal.intermediate  any: the Valiant intermediate follows val.policy (rrg-sw: any switch);
//                     other-groups: uniform over the switches outside the source and
//                     destination groups (intra-group pairs: another switch of the group).
//  ugal.segment_link  shortest: each segment takes a fewest-hop global link (minimal.h);
//                     random: a link drawn uniformly among all links of the group pair, for
//                     the minimal candidate and both Valiant segments, the second segment's
//                     drawn at the source with the first (the whole path known to UGAL-L's
//                     hop count and UGAL-G's walk), as the artifact source-routes.
//  ugal.multiplier    hops: q_min * H_min <= q_vlb * H_vlb + T (the paper's text, sec. 2.2);
//                     one-vs-two: q_min * 1 <= q_vlb * 2 + T (stock BookSim, the artifact's
//                     default). UGAL-G compares path sums without factors either way.
// and T-UGAL itself (sec. 3):
//  ugal.vlb_set       all: as above; i3, i4, i5, i5src, i5dst, i6: the intermediate drawn
//                     uniformly from that T-VLB class of (this switch, destination switch)
//                     (tvlb.h; PAR's second evaluation relative to its current switch), both
//                     Valiant segments over fewest-hop links (ugal.segment_link then applies
//                     to the minimal candidate only, the paper's T-UGAL with random MIN links).
//  ugal.vlb_percent   with i3, i4, i5: plus X % of the next class's extra intermediates
//                     (the paper's Table 1 points "<= k-hop + X %", a fixed subset per pair
//                     chosen by a hash of ugal.vlb_seed; tvlb.h TvlbRule). Costs a hash per
//                     candidate intermediate of the class above in the draw's two scans.
//  tugal.paths /      Step 2's load-balance removals (tvlb_balance.h): the draw skips the
//  tugal.tau_*        pair's removed intermediates (one binary search per draw); none by
//                     default.
//  tugal.par_set      PAR with a T-VLB set, its second evaluation: current: the set of
//                     (second switch, destination), as the paper's artifact does
//                     (`PAR_dragonflyfull`); source: the set of (source switch,
//                     destination), the segments still fewest-hop from the second switch.
//                     An option for the question docs/experiments.md asks of T-PAR's
//                     unfairness under MIXED(25,75), not the paper's.
// routing t-ugal-l, t-ugal-g, t-par (routing.h) are UGAL-L, UGAL-G and PAR with a T-VLB set
// required (ugal.vlb_set defaults to the paper's final set for the shape: i5src with several
// links per group pair, i6 with one); decision rule, congestion signal and VCs as theirs.
// Every option keeps the congestion signal above and the VC use per hop below: each segment
// is still at most L-G-L, so the hop-slot rule's 4 local / 2 global VCs (PAR 5) suffice
// (tests/test_deadlock.cpp checks each option with the deadlock checker).
enum class UgalIntermediate : uint8_t { Any, OtherGroups };
enum class SegmentLink : uint8_t { Shortest, Random };
enum class UgalMultiplier : uint8_t { Hops, OneVsTwo };
enum class ParSet : uint8_t { Current, Source };

struct AdaptiveParams {
  AdaptiveKind kind = AdaptiveKind::UgalL;
  int64_t threshold = 0;          // T, phits x hops
  Misroute policy = Misroute::RrgSw;  // Valiant candidate's policy (PB-ACOR: from the level)
  bool restricted = false;
  UgalIntermediate intermediate = UgalIntermediate::Any;
  SegmentLink segment_link = SegmentLink::Shortest;
  UgalMultiplier multiplier = UgalMultiplier::Hops;
  TvlbClass vlb_set = TvlbClass::All;
  int vlb_percent = 0;    // with vlb_set i3/i4/i5: + this % of the next class (tvlb.h)
  uint64_t vlb_seed = 1;
  const TvlbRemovals* vlb_removed = nullptr;  // Step 2's removals from the set (tvlb_balance.h)
  ParSet par_set = ParSet::Current;           // PAR's second evaluation: whose T-VLB set
};

// What the switch passes in (explicit observation, no pointers to switches).
struct AdaptiveView {
  SwitchLoad local;                      // this switch's ports
  const NetworkLoad* global = nullptr;   // UGAL-G
  const SatFlagTable* flags = nullptr;   // PB, PB-ACOR
  const uint32_t* own_flags = nullptr;   // PB: this switch's flags now, [global port j]
  const SelectionBlocks* rtl_ugal = nullptr;  // co-simulated UGAL selector, or null (C++)
  uint64_t now = 0;
};

// Routes one head: at the source switch makes the adaptive choice (and for PAR, at the
// second switch of the source group), otherwise follows the header like VAL. Every minimal
// hop, the candidates' and UGAL-G's path walks included, goes through `min_hop`
// (dragonfly_minimal_hop, minimal.h; RouteContext::min_hop).
RouteDecision route_adaptive(const Dragonfly& topo, int sw, int in_port, RouteHeader& h, Rng& rng,
                             const AdaptiveParams& prm, const AdaptiveView& view, const MinHopBlock* min_hop);

}  // namespace scfly
