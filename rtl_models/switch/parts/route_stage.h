// The switch's route stage, the part of it that is the switch's and not the routing
// unit's, as a part of its own (plain C++, no SystemC), testable alone
// (tests/test_route_stage.cpp).
//
// When a head at the front of an input VC becomes routable, the switch asks the routing
// unit for its candidates (output port, range of output VCs, in order of preference). This
// part holds what the switch adds around that call:
//
//  Re-routing. Some mechanisms route a head again, from the header as it arrived, every
//  cycle it is routed and not granted (ACOR, PB-ACOR and UGAL-family re-evaluation: a
//  blocked injection is re-decided with fresh congestion). The inputs that do are the
//  first `reroute_ports()` (the injection ports, or none). Each attempt starts from the
//  header as the head arrived (begin() saves it on the first attempt and restores it on
//  the next). With `replay` (ugal.reevaluate blocked) every attempt draws what the first
//  drew: the switch's random stream as the first attempt found it is kept per VC and
//  replayed, so the head meets the same candidates unless the congestion changed; without
//  it each attempt draws anew from the switch's stream. With `keep_valiant` (ugal.reevaluate
//  minimal) a head whose choice was non-minimal keeps it (it is not routed again).
//
//  Checking. Whatever a routing unit returns (a user's plug-in included) must name ports
//  and VCs that exist on this switch: check() says what is wrong, for the run's error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "routing_units/route_types.h"
#include "topologies/common/rng.h"

namespace scfly {

class RouteStage {
 public:
  RouteStage() = default;
  // `reroute_ports`: inputs [0, reroute_ports) re-route blocked heads; `vcs`: the input VC
  // slots (the switch's port x VC index space); `replay`, `keep_valiant`: see above.
  RouteStage(int reroute_ports, size_t vcs, bool replay, bool keep_valiant)
      : m_reroute_ports(reroute_ports), m_keep_valiant(keep_valiant) {
    if (replay && reroute_ports > 0) m_first_rng.assign(vcs, Rng());
  }

  int reroute_ports() const { return m_reroute_ports; }
  bool reroutes(int port) const { return port < m_reroute_ports; }

  // Before routing attempt `attempt` (0 = first) of the head at input `port`, VC slot
  // `vc_slot`: on the first attempt saves its header into `arrived`, on a later one
  // restores `header` from it. Returns the stream the attempt draws from: `rng` (the
  // switch's), or with replay the first attempt's stream again, copied into `replay`.
  Rng* begin(int port, size_t vc_slot, uint16_t attempt, RouteHeader& header, RouteHeader& arrived, Rng& rng,
             std::optional<Rng>& replay) {
    if (!reroutes(port)) return &rng;
    if (attempt == 0) arrived = header;
    else header = arrived;  // recomputation starts from the header as it arrived
    if (m_first_rng.empty()) return &rng;
    Rng& first = m_first_rng[vc_slot];
    if (attempt == 0) {
      first = rng;
      return &rng;
    }
    return &replay.emplace(first);
  }

  // After allocation, a head routed at a re-routing input and not granted: whether it is
  // routed again next cycle (false: its non-minimal choice stands, keep_valiant).
  bool routes_again(bool nonminimal) const { return !(m_keep_valiant && nonminimal); }

  // Every candidate names one of the switch's `radix` ports and a VC range within that
  // port's output VCs (`out_vcs(port)`), and there is one.
  template <typename OutVcs>
  static bool valid(const RouteCandidates& cands, int radix, OutVcs&& out_vcs) {
    bool ok = cands.n > 0;
    for (int i = 0; ok && i < cands.n; ++i) {
      const RouteCandidate& c = cands.c[i];
      ok = c.port >= 0 && c.port < radix && c.vc_lo <= c.vc_hi && c.vc_hi < out_vcs(c.port);
    }
    return ok;
  }
  // Empty if valid(); else the candidates as the run's error names them.
  template <typename OutVcs>
  static std::string check(const RouteCandidates& cands, int radix, OutVcs&& out_vcs) {
    if (valid(cands, radix, out_vcs)) return {};
    std::string got;
    for (int i = 0; i < cands.n; ++i)
      got += (i ? ", " : "") + std::string("port ") + std::to_string(cands.c[i].port) + " VCs " +
             std::to_string(cands.c[i].vc_lo) + "-" + std::to_string(cands.c[i].vc_hi);
    return got.empty() ? "no candidate" : got;
  }

 private:
  int m_reroute_ports = 0;
  bool m_keep_valiant = false;
  std::vector<Rng> m_first_rng;  // replay: per VC slot, the switch's stream at the first attempt
};

}  // namespace scfly
