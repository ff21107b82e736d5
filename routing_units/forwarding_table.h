// The OpenFlow-like conditional forwarding table of a switch, and its MIN population.
//
// Paper (the QCN-Switch paper): Benito, Vallejo, Izu, Beivide, "Non-minimal Adaptive Routing
// Based on Explicit Congestion Notifications" (Concurrency and Computation: Practice and
// Experience, 2019), sec. 2.2 (flow-table routing, proactively installed entries) and sec.
// 3.1.1 (conditional entries with priorities, per-port "minimal port probability", random N,
// Fig. 3). The entry format, lookup rule and Dragonfly population below are scfly's reading
// of sec. 3.1.1 and Fig. 3; where the paper is silent (how N is drawn, the integer P) they
// follow FOGSim's MIN_COND routing, the authors' simulator.
// The table is modelled semantically, not as a TCAM (the paper's MAC rewriting and TCAM
// compaction are "not relevant for this study").
//
// Entry: {match, priority, action, condition}.
//   match     each field optional (wildcard): destination group, destination switch,
//             destination host, input port, input-port class, and the header's pinned exit
//             (the global link MIN chose at the first switch of the segment and keeps in the
//             header, exit_switch/exit_port): a label that is unpinned, pinned to this switch
//             or pinned to another switch.
//   priority  integer, higher wins; equal priorities are taken in insertion order.
//   action    output port (a given port, the header's destination host, the header's pinned
//             exit port, or the local port toward the switch owning the pinned exit), a VC
//             rule (HopSlot: the hop-slot rule of minimal.h from the header and the output
//             port's class; Fixed: a given VC), and the header update the hop implies
//             (TakeGlobal: global_done = 1 and the pinned exit cleared; PinExit: the chosen
//             exit link written into the header). The VC is computed before the update.
//   condition None, or PortProbability: holds iff N <= P[output port of the action].
// Equal-cost sets: entries with one match, priority and condition added together
// (add_equal_cost) are one alternative; it takes its nth member, nth = Rng::scale(word,
// count), the word drawn with Rng::next32() when the lookup reaches the set: only if it has
// several members (TieDraw::IfSeveral) or always, even with a single member
// (TieDraw::Always, as route_min draws whenever several global links join the group pair).
//
// Probability register: one integer percent 0..100 per port (initially 100). N is drawn
// uniformly in {1..100} as in FOGSim (N = 1 + Rng::below(100)); the action is taken iff
// N <= P, i.e. P = 100 never falls through, P = 0 always does (when an alternative exists).
// A mechanism (QCN-Switch, later) may keep finer internal state (e.g. a real-valued P) and
// writes the integer percent here (FOGSim truncates P to an integer before comparing).
//
// Lookup rule (the QCN-Switch paper, sec. 3.1.1): collect the matching alternatives (entries,
// equal-cost sets counting as one). If exactly one matches it applies regardless of its
// condition. Otherwise they are tried from the highest priority down: the first whose
// condition holds applies; if none holds, the lowest-priority matching one applies (the last
// alternative's condition is ignored). Draws from the switch's Rng, in the order they happen:
// an equal-cost set's word when the lookup reaches the set (before its condition is tested),
// and N lazily, at most once per lookup, only when a conditional alternative is tested while
// another alternative follows it. A table without conditional entries never draws N; a
// table without equal-cost sets never draws at all. No match at all is a table miss (port -1).
// Cost: entries are indexed by destination (a bucket per destination switch, one per
// destination group, and a list of destination-wildcard entries), each kept in priority
// order; a lookup merges the three lists it needs, O(matching entries), no allocation.
//
// MIN population (build_min_table, switch sw = (group G, index r)); route_min reproduced
// exactly (port, VC, header, Rng draws) on either arrangement:
//   prio 300  dst_switch = sw                      -> the header's dst host, VC 0
//   prio 300  dst_switch = s (s in G, s != sw)     -> local port to s, hop-slot VC
//   prio 200  exit pinned here                     -> pinned exit port, hop-slot VC,
//                                                     TakeGlobal
//   prio 200  exit pinned elsewhere                -> local port toward the pinned exit's
//                                                     switch, hop-slot VC
//   prio 150  dst_switch = d (d in G' != G),       -> d's fewest-hop exit(s), only where they
//             unpinned                                differ from the dst_group entry's
//   prio 100  dst_group = G' != G, unpinned        -> the fewest-hop exit(s) most switches
//                                                     of G' share
// An exit link (owner switch o, port q) becomes the action "port q, hop-slot VC, TakeGlobal"
// when o = sw, else "local port to o, hop-slot VC, PinExit(o, q)". The intra-group entries
// outrank the pinned ones because route_min ignores a pinned exit inside the destination
// group; ejection outranks everything.
//   palmtree (g = a*h+1): one global link per group pair, so one plain dst_group entry per
//     other group and no switch entries, no draws: 1 + (a-1) + 2 + (g-1) entries
//     (dfly(4,8,4,33): 42 per switch).
//   absolute with n = a*h/(g-1) > 1 links per group pair: each unpinned inter-group entry is
//     an equal-cost set over the fewest-hop links in links_between order, TieDraw::Always
//     (route_min draws one word even when a single link is the closest). The dst_group entry
//     holds the set most switches of G' share (ties: the lowest switch), usually sw's
//     own links to G' when it owns some, else all n links; a switch of G' whose set differs
//     (a link lands on it: 1 hop through an own link, or 2 through another owner's) gets a
//     dst_switch entry, so at most n of them per other group (dfly(4,8,4,9): 70 entries in
//     46 alternatives per switch). With n = 1 (g = a*h+1) the table is the palmtree's shape.
// For a conditional mechanism built on this population: a dst_switch entry and the
// dst_group entry it refines both match the same packets, so conditioning both would let a
// failing switch entry fall to the group entry rather than to a non-minimal one.

#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "routing_units/route_types.h"
#include "topologies/common/rng.h"
#include "topologies/dragonfly.h"

namespace scfly {

// The header's pinned-exit label, as a match field.
enum class ExitPin : uint8_t { Any, Unpinned, Here, Elsewhere };

struct FlowMatch {
  static constexpr int kAny = -1;
  int32_t dst_group = kAny;
  int32_t dst_switch = kAny;
  int16_t dst_host = kAny;
  int16_t in_port = kAny;
  std::optional<PortClass> in_class;  // class of the input port; empty = wildcard
  ExitPin exit = ExitPin::Any;
};

// Where the action's output port comes from.
enum class OutPort : uint8_t {
  Fixed,            // FlowAction::port
  DstHost,          // the header's dst_host (ejection)
  PinnedExit,       // the header's exit_port (the pinned global link, owned by this switch)
  TowardPinnedExit  // the local port toward the header's exit_switch
};
// HopSlot: minimal.h's rule (local VC 2*segment + global_done, global VC segment);
// GlobalCount: the VC is the number of global hops taken so far (segment + global_done),
// local and global alike: the L G L G L order of MIN-COND (min_cond.h); Fixed: FlowAction::vc.
enum class VcRule : uint8_t { HopSlot, Fixed, GlobalCount };
// TakeGlobal: global_done = 1, pinned exit cleared. PinExit: the exit link written into the
// header. Misroute (MIN-COND's non-minimal entry, a global hop to an intermediate group):
// the packet starts its minimal segment 1 at the switch it lands on (segment = 1,
// global_done = 0, exit cleared) and is marked non-minimal with policy crg-gr.
enum class HeaderOp : uint8_t { None, TakeGlobal, PinExit, Misroute };

struct FlowAction {
  OutPort out = OutPort::Fixed;
  int16_t port = -1;  // OutPort::Fixed
  VcRule vc_rule = VcRule::HopSlot;
  uint8_t vc = 0;  // VcRule::Fixed
  HeaderOp op = HeaderOp::None;
  int32_t pin_switch = -1;  // HeaderOp::PinExit: the exit link written into the header
  int16_t pin_port = -1;

  static FlowAction to_port(int port, VcRule rule = VcRule::HopSlot, int vc = 0);
  static FlowAction eject();               // DstHost, VC 0
  static FlowAction take_pinned_exit();    // PinnedExit, hop-slot VC, TakeGlobal
  static FlowAction toward_pinned_exit();  // TowardPinnedExit, hop-slot VC
};

enum class FlowCondition : uint8_t { None, PortProbability };
// When an equal-cost set draws its tie-break word (see the header comment).
enum class TieDraw : uint8_t { IfSeveral, Always };

struct FlowEntry {
  FlowMatch match;
  int priority = 0;
  FlowAction action;
  FlowCondition condition = FlowCondition::None;
  int equal_cost_set = -1;  // set id of an add_equal_cost member, -1 = a plain entry
};

// What one lookup did (for statistics and tests).
struct LookupInfo {
  int entry = -1;            // entry applied (the member taken for a set); -1 = table miss
  int alternatives = 0;      // matching alternatives the lookup looked at (stops early)
  bool drew_n = false;       // N was drawn ...
  int n = 0;                 // ... and its value, 1..100
  int tie_draws = 0;         // equal-cost words drawn
  bool skipped = false;      // a higher-priority conditional alternative failed (a misroute)
  int skipped_entry = -1;    // the first one skipped ...
  int skipped_port = -1;     // ... and its output port
};

class ForwardingTable;

// A replacement for the table's lookup and probability register: the co-simulated RTL
// (rtl_models/verilog/ft_lookup.sv, --rtl table), loaded with the table's entries in lookup
// order. Same contract as ForwardingTable::lookup (same decision, header update and Rng
// draws); set_probability mirrors the register writes.
class FtBlock {
 public:
  virtual ~FtBlock() = default;
  virtual RouteDecision lookup(int in_port, RouteHeader& h, Rng& rng, LookupInfo* info) const = 0;
  virtual void set_probability(int port, int pct) = 0;
};

class ForwardingTable {
 public:
  static constexpr int kMaxProbability = 100;

  // An empty table of switch `sw` of `t`, every port probability at 100.
  ForwardingTable(const Dragonfly& t, int sw);

  // Add one entry; returns its index. Throws std::invalid_argument on a field out of range.
  int add(const FlowMatch& m, int priority, const FlowAction& a,
          FlowCondition c = FlowCondition::None);
  // Add an equal-cost set: members sharing one match, priority and condition, one
  // alternative, taken in this order by Rng::scale(word, count); returns its set id.
  int add_equal_cost(const FlowMatch& m, int priority, const std::vector<FlowAction>& members,
                     TieDraw draw, FlowCondition c = FlowCondition::None);

  // Route a head that arrived at this table's switch on `in_port` (-1 = unknown): the
  // decision of the entry the lookup rule selects; the header is updated by its action.
  // Table miss: port -1.
  RouteDecision lookup(int in_port, RouteHeader& h, Rng& rng, LookupInfo* info = nullptr) const;

  // Probability register, integer percent per port (0..100; throws std::out_of_range on a
  // bad port, std::invalid_argument on a bad percent).
  void set_probability(int port, int pct);
  int probability(int port) const;
  const uint8_t* probabilities() const { return m_prob.data(); }  // [num_ports()], tracing

  int sw() const { return m_sw; }
  int num_ports() const { return m_radix; }
  int size() const { return static_cast<int>(m_entries.size()); }
  const std::vector<FlowEntry>& entries() const { return m_entries; }

  // Readable dump: one line per entry in lookup (priority) order, then the register.
  std::string format(const Dragonfly& t) const;

  // One alternative as the RTL table stores it: its first entry and member count, in the
  // global lookup order (priority descending, insertion order among equals).
  struct AltView {
    int first, count;
    TieDraw draw;
    FlowCondition condition;
  };
  std::vector<AltView> lookup_order() const;
  // From now on lookups and register writes go to the block too (--rtl table); the
  // register here keeps the same values (tracing).
  void set_block(std::shared_ptr<FtBlock> b) { m_block = std::move(b); }
  int first_local_port() const { return m_p; }
  int switches_per_group() const { return m_a; }

 private:
  struct Alt {  // one alternative: a plain entry or an equal-cost set
    FlowMatch match;
    int priority;
    FlowCondition condition;
    TieDraw draw;
    int first;  // first member in m_entries
    int count;
  };
  struct Ref {  // a bucket slot, kept sorted: priority descending, then alternative index
    int32_t priority;
    int32_t alt;
  };
  int add_alt(const FlowMatch& m, int priority, const std::vector<FlowAction>& members,
              TieDraw draw, FlowCondition c, bool set);
  void check_action(const FlowAction& a) const;
  int resolve_port(const FlowAction& a, const RouteHeader& h) const;

  int m_sw, m_p, m_a, m_radix, m_num_switches, m_num_groups;
  std::vector<FlowEntry> m_entries;
  std::vector<Alt> m_alts;
  std::vector<std::vector<Ref>> m_by_switch;  // [dst switch]
  std::vector<std::vector<Ref>> m_by_group;   // [dst group], entries without dst_switch
  std::vector<Ref> m_any;                     // entries without dst_switch and dst_group
  std::vector<uint8_t> m_prob;                // [port], percent
  std::shared_ptr<FtBlock> m_block;           // --rtl table
};

// Priorities of the MIN population (a conditional mechanism adds its entries around them).
constexpr int kPrioMinDeliver = 300;
constexpr int kPrioMinPinned = 200;
constexpr int kPrioMinSwitch = 150;
constexpr int kPrioMinGroup = 100;

// How build_min_table writes the MIN population. The defaults give MIN itself.
struct MinTableOptions {
  VcRule vc_rule = VcRule::HopSlot;  // the VC rule of every transit entry
  // Inter-group entries conditional on their output port's probability (MIN-COND). With
  // several links per group pair every destination switch of another group then gets its
  // own (conditional) entry and no dst_group entry exists, so a failing entry never falls
  // to another minimal entry (see the note above).
  bool conditional = false;
};

// Switch `sw`'s table holding the minimal routes of `t` (population in the header comment):
// lookup alone reproduces route_min exactly (with the default options).
ForwardingTable build_min_table(const Dragonfly& t, int sw, const MinTableOptions& o = {});

}  // namespace scfly
