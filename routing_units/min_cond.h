// MIN-COND: minimal routing through the conditional forwarding table, misrouting at
// injection when the minimal port's probability says so (QCN-Switch's routing, and the
// older pause-triggered conditional routing it improves on).
//
// Paper: Benito, Vallejo, Izu, Beivide, "Non-minimal Adaptive Routing Based on Explicit
// Congestion Notifications" (Concurrency and Computation: Practice and Experience, 2019),
// sec. 3.1.1 and Fig. 3 (conditional entries, per-input-port non-minimal entries, the draw
// N), sec. 2.2 (the pause-triggered predecessor [7]). Where the paper is silent scfly
// follows FOGSim's MIN_COND, the authors' simulator (the draw of N, the VC order), or states
// its own rule (hosts to global ports when p != h), as below.
// Decision rule (source-adaptive, at injection only): the table of each switch holds
//   high priority  the MIN population (forwarding_table.h), its inter-group entries
//                  conditional on their output port's probability P (0..100 %);
//   low priority   one unconditional non-minimal entry per injection port (below).
// A head arriving on host port i toward another group matches both, so N is drawn
// (1..100, once per packet; the decision is kept while the head waits): N <= P[minimal
// port] takes the minimal entry, else the low-priority one. Intra-group entries are
// unconditional (always minimal), and transit heads match no low-priority entry, so the
// single matching entry applies regardless of its condition: transit is always minimal.
// The non-minimal entry sends the packet out of one of the switch's own global ports (the
// intermediate group is where that link lands; FOGSim's policy CRG) and it then goes
// minimally from the switch it lands on (fn. ++: the link may lead to the destination
// group itself; the packet still counts as misrouted, as in FOGSim).
// Host-to-port rule. The paper needs p = h: host i leaves through global port i, so each of
// the a*p hosts of a group owns one of its a*h global links. For any p and h scfly gives host
// i the own global ports j with floor(j*p/h) = i when p <= h (each host owns
// floor(h/p) or ceil(h/p) ports and draws one of them uniformly when it owns several), and
// the single port floor(i*h/p) when p > h (each port serves floor(p/h) or ceil(p/h) hosts).
// Both give port i when p = h, use every global port of the switch and keep the path
// G first (never a local hop before the misroute). Nothing is rejected.
// Congestion signal read: only P[port], the table's probability register, written by a
// mechanism unit: QCN-Switch (qcn.h; trigger qcn) or the pause state of the minimal
// output's first VC (trigger pause: P = 0 while that output VC is paused under PFC, or has
// credits for less than one packet under credit flow control; else 100). Never credits or
// occupancy directly.
// VC use per hop (FOGSim's L G L G L order): the VC is the number of global hops taken so
// far. Minimal L G L uses local 0, global 0, local 1; non-minimal G L G L uses global 0,
// local 1, global 1, local 2: 3 local / 2 global VCs, the index never decreasing along any
// path, every path a subsequence of L0 G0 L1 G1 L2 (acyclic). Control frames (the CNMs)
// travel on the control VCs above these (MIN's 2 local / 1 global).
#pragma once

#include <cstdint>
#include <vector>

#include "routing_units/forwarding_table.h"
#include "topologies/dragonfly.h"

namespace scfly {

// What sets the port probabilities MIN-COND reads.
enum class MinCondTrigger : uint8_t { Qcn, Pause };
const char* to_string(MinCondTrigger t);

constexpr int kPrioMinCondMisroute = 50;  // below every MIN entry

// The own global ports (port numbers) host `host` of a switch misroutes through.
std::vector<int> min_cond_misroute_ports(const Dragonfly& t, int host);

// Switch `sw`'s MIN-COND table (rule above).
ForwardingTable build_min_cond_table(const Dragonfly& t, int sw);

}  // namespace scfly
