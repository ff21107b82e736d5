// Routing on k-ary n-cubes (topologies/torus.h): DOR, VAL, MIN AD and GOAL.
//
// Paper (the GAL paper): Singh, Dally, Towles, Gupta, "Globally Adaptive Load-Balanced
// Routing on k-ary n-cubes" (Stanford University; published as "Globally Adaptive
// Load-Balanced Routing on Tori", IEEE Computer Architecture Letters, 2004): sec. II.A
// (minimal adaptive), II.C and IV.D (GOAL), I and IV.C-D (VAL), III.B (quadrants and the
// in-quadrant rule). Sec. III.C's deadlock scheme is lost from our copy of the text after
// "3 virtual channels"; scfly reads it as Gravano's *-channels (the paper's ref. [7]): a
// dateline escape pair below adaptive VCs, a choice where the paper is silent (docs/model.md,
// "Routing", tori and meshes).
//
// Common state (RouteHeader, per dimension d, for the current segment): dir_set/minus = the
// direction the packet travels in d once fixed (a quadrant is the vector of them); wrapped =
// it has crossed d's wrap link. torus_arrive() updates them from the input port at every
// switch: the header carries what was done, the unit derives nothing else from the path.
//
// Datelines (torus only; a mesh has no wrap links): a hop in dimension d uses the dateline
// class 1 if the packet has crossed d's wrap link or crosses it now, else class 0. Every
// traversal of a ring here is shorter than k hops (minimal, or one quadrant direction), so
// it crosses the wrap link at most once: class-0 channels never include a wrap link and a
// class-1 packet never reaches the wrap link again, so neither class closes a cycle around
// the ring (Dally & Seitz). With torus.dateline traversal (TorusDateline::Traversal; DOR, VAL
// and MIN AD's escape, whose traversals are minimal) a hop takes class 1 if its traversal of
// d crosses the wrap link anywhere, before or after this hop (BookSim2's dim_order_torus,
// whose VC set is fixed at the first hop of a dimension): the traversals that wrap spread
// over both classes' VCs from their first hop. Deadlock-free for minimal traversals only: a
// class-0 traversal never includes the wrap link, and a minimal one that includes it
// (at most k/2 hops) never includes the link from k/2 - 1 to k/2 (+) or back (-), so
// neither class closes the ring. GOAL's and GAL's quadrant traversals may be longer, so they
// keep the wrap rule whatever the key says.
//
// DOR (dimension order): decision rule: the lowest dimension whose coordinate differs, in
// the minimal direction (a k/2 tie drawn at random at the dimension's first hop, then kept).
// Signal: none. VCs (torus): the dateline class, VC 0 or 1 (2 VCs); mesh: VC 0 (1 VC).
// (With more VCs configured, each VC named here is a range of them: see route_torus.)
// Dimension order breaks the dependencies between dimensions.
//
// VAL (Valiant): decision rule: at the source switch draw the intermediate switch uniformly
// over all k^n switches (source and destination included, as sec. IV.D's hop counts
// require), DOR to it (segment 0), then DOR to the destination (segment 1); the direction
// and dateline state restart at the intermediate. Signal: none. VCs (torus): 2 * segment +
// dateline class (4 VCs); mesh: the segment (2 VCs). Segment 1 never feeds segment 0.
//
// MIN AD (minimal adaptive): decision rule: every productive dimension (coordinate still
// differs) in its minimal direction (both on an undecided k/2 tie) is an adaptive candidate
// on VC 0, ordered by the switch's output queue of the port (shortest first, ties at
// random); the allocator takes the first with a free VC (sec. II.A: "based on availability,
// buffer utilization"). Last comes the escape candidate: the DOR hop on VCs 1 + dateline
// class (torus) or VC 1 (mesh). Signal: the output queue of each candidate port in phits
// (ugal.occupancy: output buffer, credits in use, or both). VCs: 3 on a torus (1 adaptive,
// 2 escape), 2 on a mesh. Deadlock freedom by Duato's condition: the escape sub-network
// (DOR with datelines) is acyclic, and a packet on any VC may always request it; packets are
// whole in each buffer (virtual cut-through), so they may return from escape to VC 0.
//
// GOAL (Globally Oblivious, Adaptive Locally): decision rule: at the source switch draw the
// quadrant, each dimension on its own: with D = (x_dst - x_src) mod k, the - direction with
// probability D/k and + with probability (k - D)/k (the non-minimal direction with
// probability m/k, m the minimal distance: sec. II.C; D = 0: no movement); then route inside
// the quadrant as MIN AD does, every productive dimension in the quadrant's direction.
// Signal and VCs: as MIN AD (escape = DOR inside the quadrant, with datelines; a traversal
// of a dimension in the quadrant's direction is shorter than k hops). Torus only. Hop count
// = sum over dimensions of the hops in the drawn direction (at most n (k - 1)).
//
// GAL (Globally Adaptive Load-balanced, sec. III): the quadrant is chosen at the source
// node by the NIC's injection unit (tb/nic.h) from its injection queues: for a destination
// of set s, queue q_min of the minimal quadrant if it holds fewer than T packets, else the
// shortest queue of the set (gal_choose below; T from the set's threshold controller,
// gal_threshold.h). The header arrives at the source switch with the quadrant set, and the
// switches route inside it exactly as GOAL does (same signal, same VCs). A dimension the
// packet need not move in (D = 0) has only the + queue: GAL never offers a k-hop ring loop.
//
// CHAOS (the chaotic router of Bolding, Fulgham and Snyder, the paper's ref. [6]; paper
// sec. I, II.B, V.C give its principle only, so the multiqueue and derouting below follow the
// chaos router's design, a choice where the paper is silent): decision rule: every productive
// dimension in its minimal direction (both at a k/2 tie), recomputed from the coordinates at
// every hop (the header keeps no direction: a derouted packet goes on minimally from where
// it is), ordered by output queue (shortest first, ties at random), on any link VC. A head
// that cannot advance moves into the switch's multiqueue, whose packets have priority for
// outputs; when the multiqueue is full and a transit head is waiting to enter it, one
// multiqueue packet drawn at random is derouted: its candidates are then every output link
// in a random order (route_chaos with deroute), and it is marked non-minimal. The
// multiqueue is a switch variant (rtl_models/switch/switch.h, chaos.multiqueue). Signal:
// the output queue of each candidate port, as MIN AD. VCs: one (more are one range). No VC
// scheme breaks cycles: the channel dependency graph is cyclic, and deadlock freedom rests
// on derouting out of the multiqueue (the chaos router's argument; the deadlock checker
// reports it as not a channel-dependency property). Torus and mesh, n <= 4 (a deroute
// offers every link port: 2n <= kMaxCandidates).
#pragma once

#include "routing_units/congestion.h"
#include "routing_units/route_types.h"
#include "topologies/common/rng.h"
#include "topologies/torus.h"

namespace scfly {

enum class TorusAlgo : uint8_t { Dor, Val, MinAd, Goal, Gal, Chaos };

// torus.dateline: when a hop takes dateline class 1 (above): from the wrap link on (`wrap`,
// the default), or for the whole traversal of a dimension that crosses it (`traversal`).
enum class TorusDateline : uint8_t { Wrap, Traversal };

// Minimum VCs on the switch-to-switch ("link") class for `a` on a torus or a mesh.
int torus_required_vcs(TorusAlgo a, bool mesh);

// Records the hop the packet just made (arrival on `in_port` of switch `sw`): sets the
// dimension's direction and its wrapped bit. A host port (injection) records nothing.
void torus_arrive(const Torus& t, int sw, int in_port, RouteHeader& h);

// The routing units. `in_port` is the input the head arrived on (a host port at the
// source); torus_arrive() has been applied. `load` is the switch's output-queue view (MIN AD
// and GOAL; ignored by DOR and VAL). `vcs` is the number of data VCs of the link class
// (below torus_required_vcs: that minimum); each VC class above is then a range of VCs
// (the allocator takes the lowest free one), so VCs beyond the minimum relieve head-of-line
// blocking without changing the deadlock argument: DOR splits them in 2 dateline ranges
// (mesh: 1), VAL in 4 (segment x dateline; mesh: 2 by segment), MIN AD and GOAL keep the
// last 2 (mesh: 1) as escape VCs and make every VC below adaptive. At the destination
// switch every unit ejects on VC 0 of the destination host's port, or with w terminal ports
// (topology.terminal_ports) offers the host's w ports in a random rotation.
// `quadrant`: the in-quadrant selector to order productive ports with (MIN AD, GOAL, GAL;
// RouteContext::quadrant), null = torus_productive_ports' C++ rule. `dl`: the dateline rule
// (GOAL and GAL always take `wrap`).
RouteCandidates route_torus(TorusAlgo a, const Torus& t, int sw, int in_port, RouteHeader& h, Rng& rng,
                            const SwitchLoad& load, int vcs, const QuadrantBlock* quadrant,
                            TorusDateline dl = TorusDateline::Wrap);

// CHAOS (above; route_torus returns no candidate for it): the minimal candidates from `sw`, or with `deroute` every connected link
// port in a random order (the header marked non-minimal); at the destination switch the
// ejection port(s). `vcs` link VCs (below 1: 1), offered as one range.
RouteCandidates route_chaos(const Torus& t, int sw, RouteHeader& h, Rng& rng, const SwitchLoad& load, int vcs,
                            bool deroute, const QuadrantBlock* quadrant);

// The in-quadrant selector of MIN AD, GOAL, GAL and CHAOS: the productive ports from `sw`
// toward switch `dst` (a dimension whose bit is set in `dir_set` moves in the direction of
// its `minus` bit, any other in its minimal direction, both at a k/2 tie; mesh: toward
// dst) into `ports`, ordered by output queue (`load`, saturated to kQueueBits), shortest
// first, equal queues by a random order word drawn from `rng` per candidate when there are
// several (stable on equal words). Returns their count (at most 2 * Torus::kMaxDims).
// Through `quadrant` when it is not null (the co-simulated RTL, --rtl quadrant;
// RouteContext::quadrant).
int torus_productive_ports(const Torus& t, int sw, int dst, uint8_t dir_set, uint8_t minus, Rng& rng,
                           const SwitchLoad& load, int* ports, const QuadrantBlock* quadrant);

// A replacement for that selector: the co-simulated RTL (rtl_models/verilog/quadrant_sel.sv).
// Same contract as torus_productive_ports(), drawing the same order words from `rng`.
class QuadrantBlock {
 public:
  virtual ~QuadrantBlock() = default;
  virtual int order(const Torus& t, int sw, int dst, uint8_t dir_set, uint8_t minus, Rng& rng,
                    const SwitchLoad& load, int* ports) const = 0;
};

// GAL's destination sets (sec. V.B): all = one per destination switch (the paper's S = N);
// one; two = far if the minimal distance exceeds k/4 in some dimension, else near; quadrant
// = by the minimal quadrant's sign vector (2^n sets, the paper's S = 4 on a 2-D torus; a
// dimension with D = 0 or a k/2 tie counts as +).
enum class GalSets : uint8_t { All, One, Two, Quadrant };
int gal_num_sets(const Torus& t, GalSets s);
int gal_set(const Torus& t, GalSets s, int src_sw, int dst_sw);

// GAL's injection queue for a packet from switch `src` to `dst`: `occ[q]` = packets in the
// set's queue of quadrant q (bit d set = the - direction in dimension d; 2^n entries),
// `T` the set's threshold. The minimal queue (on a k/2 tie the shorter of the minimal
// queues) if it holds fewer than T packets, else the shortest usable queue (ties: a minimal
// quadrant, then fewer hops, then a random draw). Quadrants that move the wrong way in a
// dimension with D = 0 are not usable. Returns q; `minimal` says whether q is minimal.
int gal_choose(const Torus& t, int src, int dst, const uint16_t* occ, uint32_t T, Rng& rng, bool& minimal);
// Sets the header's quadrant (dir_set, minus) for quadrant q from src to dst (GOAL's draw,
// GAL's injection queue), and marks it non-minimal if the quadrant's path is longer than the
// minimal distance.
void set_quadrant(const Torus& t, int src, int dst, int q, RouteHeader& h);

// The DOR hop from `sw` toward switch `target` (sw != target) with its dateline class under
// rule `dl`: the port, and the class (0/1) through `cls`. Draws a k/2 tie from `rng` when the
// dimension's direction is not fixed yet.
int torus_dor_port(const Torus& t, int sw, int target, const RouteHeader& h, Rng& rng, int& cls,
                   TorusDateline dl = TorusDateline::Wrap);

}  // namespace scfly
