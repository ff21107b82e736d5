#include "routing_units/ugal.h"

#include <algorithm>

#include "routing_units/minimal.h"
#include "routing_units/valiant.h"

namespace scfly {

namespace {

struct Candidate {
  RouteHeader h;        // header after committing to this candidate at this switch
  RouteDecision first;  // its first hop
  uint32_t hops = 0;    // switch-to-switch hops of the whole path from this switch
  int gl_sw = -1, gl_port = -1;  // the path's first global link (owner, port), if any
};

// The switch reached through `port` of `sw`.
int next_switch(const Dragonfly& t, int sw, int port) {
  if (t.port_class(port) == PortClass::Global) return t.global_peer(sw, port).sw;
  return t.switch_id(t.group_of(sw), t.local_neighbor(t.index_of(sw), port));
}

constexpr uint16_t kNoLink = 0xFFFF;

// The packet reaches its Valiant intermediate: segment B starts, on the global link drawn
// at the source if there is one (ugal.segment_link random).
void enter_segment_b(const Dragonfly& t, RouteHeader& h) {
  h.segment = 1;
  h.global_done = 0;
  h.exit_switch = -1;
  h.exit_port = -1;
  if (h.seg2_link != kNoLink) {
    const GlobalLinkEnd& l = t.links_between(t.group_of(h.inter_switch), t.group_of(h.dst_switch))[h.seg2_link];
    h.exit_switch = l.sw;
    h.exit_port = l.port;
    h.seg2_link = kNoLink;
  }
}

// ugal.intermediate other-groups: uniform over the switches outside the source and
// destination groups; for an intra-group pair another switch of the group (as the T-UGAL
// authors' artifact draws its baseline's intermediate).
Intermediate draw_other_groups(const Dragonfly& t, int src, int dst, Rng& rng) {
  Intermediate im;
  const int gs = t.group_of(src), gd = t.group_of(dst), a = t.a();
  if (gs == gd) {
    im.sw = draw_other_in_group(t, src, dst, rng);
    if (im.sw >= 0) im.policy = Misroute::Local;
    return im;
  }
  if (t.g() <= 2) return im;
  const int r = static_cast<int>(rng.below(static_cast<uint32_t>((t.g() - 2) * a)));
  int grp = r / a;
  const int lo = std::min(gs, gd), hi = std::max(gs, gd);
  if (grp >= lo) ++grp;
  if (grp >= hi) ++grp;
  im.sw = t.switch_id(grp, r % a);
  im.policy = Misroute::RrgSw;
  return im;
}

Candidate minimal_candidate(const Dragonfly& t, int sw, const RouteHeader& h0, Rng& rng, SegmentLink link,
                            const MinHopBlock* mh) {
  Candidate c;
  c.h = h0;  // a minimal path stays in segment 0 (local VC 0, global VC 0, local VC 1)
  c.h.random_exit = link == SegmentLink::Random;
  c.h.inter_switch = -1;
  c.h.vlb_from = RouteHeader::kNotDrawn;
  c.h.nonminimal = false;
  c.h.policy = static_cast<uint8_t>(Misroute::None);
  if (sw == c.h.dst_switch) {
    c.first = RouteDecision{c.h.dst_host, 0};
    return c;
  }
  c.first = dragonfly_minimal_hop(t, sw, c.h.dst_switch, c.h, rng, mh);
  if (t.port_class(c.first.port) == PortClass::Global) {
    c.gl_sw = sw;
    c.gl_port = c.first.port;
  } else if (c.h.exit_switch >= 0) {
    c.gl_sw = c.h.exit_switch;
    c.gl_port = c.h.exit_port;
  }
  c.hops = static_cast<uint32_t>(c.h.random_exit ? committed_hops(t, sw, c.h.dst_switch, c.h, c.first)
                                                 : minimal_distance(t, sw, c.h.dst_switch));
  return c;
}

// `set_sw`: the switch whose T-VLB set the intermediate comes from (`sw` itself, or with
// tugal.par_set source PAR's source switch at its second evaluation).
Candidate valiant_candidate(const Dragonfly& t, int sw, int set_sw, const RouteHeader& h0, Rng& rng,
                            Misroute policy, bool restricted, const AdaptiveParams& prm, const MinHopBlock* mh) {
  Candidate c;
  c.h = h0;
  Intermediate im;
  if (prm.vlb_set != TvlbClass::All && t.group_of(sw) != t.group_of(h0.dst_switch)) {
    im.sw = tvlb_draw(t, set_sw, h0.dst_switch, TvlbRule{prm.vlb_set, prm.vlb_percent, prm.vlb_seed}, rng,
                      prm.vlb_removed);
    im.policy = Misroute::RrgSw;
  } else if (prm.vlb_set != TvlbClass::All || prm.intermediate == UgalIntermediate::OtherGroups) {
    im = draw_other_groups(t, sw, h0.dst_switch, rng);
  } else {
    im = draw_intermediate(t, sw, h0.dst_switch, policy, restricted, rng);
  }
  c.h.policy = static_cast<uint8_t>(im.policy);
  if (im.sw < 0) return minimal_candidate(t, sw, h0, rng, prm.segment_link, mh);
  // A T-VLB path is its intermediate with fewest-hop segments.
  const bool random = prm.segment_link == SegmentLink::Random && prm.vlb_set == TvlbClass::All;
  c.h.random_exit = random;
  c.h.inter_switch = im.sw;
  c.h.vlb_from = static_cast<uint8_t>(t.index_of(sw));
  c.h.nonminimal = true;
  c.h.segment = 0;
  c.h.global_done = 0;
  c.h.exit_switch = im.exit_switch;
  c.h.exit_port = im.exit_port;
  // Phase A from here (or straight into Phase B if the intermediate is this switch).
  c.hops = static_cast<uint32_t>(minimal_distance(t, sw, im.sw) + minimal_distance(t, im.sw, h0.dst_switch));
  if (sw == im.sw) {
    c.h.segment = 1;
    c.h.exit_switch = -1;
    c.h.exit_port = -1;
    c.first = sw == c.h.dst_switch ? RouteDecision{c.h.dst_host, 0}
                                   : dragonfly_minimal_hop(t, sw, c.h.dst_switch, c.h, rng, mh);
    if (random) c.hops = static_cast<uint32_t>(committed_hops(t, sw, c.h.dst_switch, c.h, c.first));
  } else {
    c.first = dragonfly_minimal_hop(t, sw, im.sw, c.h, rng, mh);
    if (random) {
      // Both segments as the path will take them: A through the exit just pinned, B through
      // a link drawn now among all those joining the intermediate's and destination's groups.
      uint32_t hb = static_cast<uint32_t>(minimal_distance(t, im.sw, h0.dst_switch));
      const int n = t.links_per_group_pair();
      if (n > 1 && t.group_of(im.sw) != t.group_of(h0.dst_switch)) {
        const int k = static_cast<int>(rng.below(static_cast<uint32_t>(n)));
        c.h.seg2_link = static_cast<uint16_t>(k);
        hb = static_cast<uint32_t>(hops_via_link(t, im.sw, h0.dst_switch, k));
      }
      c.hops = static_cast<uint32_t>(committed_hops(t, sw, im.sw, c.h, c.first)) + hb;
    }
  }
  return c;
}

// UGAL-G: queue occupancy summed over every hop of the candidate's path (a copy of the
// header is walked through the wiring with the same rules the switches will apply).
uint64_t path_occupancy(const Dragonfly& t, int sw, const Candidate& c, const AdaptiveView& v, Rng& rng,
                        const MinHopBlock* mh) {
  uint64_t sum = 0;
  RouteHeader h = c.h;
  RouteDecision d = c.first;
  int at = sw;
  for (int step = 0; step < 12 && t.port_class(d.port) != PortClass::Host; ++step) {
    if (v.global) sum += v.global->at(at, d.port, v.now);
    at = next_switch(t, at, d.port);
    if (h.segment == 0 && at == h.inter_switch) enter_segment_b(t, h);
    // A minimal candidate (no intermediate) heads for the destination in segment 0.
    const bool to_dst = h.segment == 1 || h.inter_switch < 0;
    if (to_dst && at == h.dst_switch) break;
    d = dragonfly_minimal_hop(t, at, to_dst ? h.dst_switch : h.inter_switch, h, rng, mh);
  }
  return sum;
}

bool link_saturated(const Dragonfly& t, int sw, const Candidate& c, const AdaptiveView& v) {
  if (c.gl_sw < 0) return false;
  const int j = c.gl_port - t.first_global_port();
  if (c.gl_sw == sw) return v.own_flags && v.own_flags[j] != 0;
  return v.flags && v.flags->seen(c.gl_sw, j, v.now);
}

bool prefers_min(const AdaptiveView& v, uint64_t qm, uint32_t hm, uint64_t qv, uint32_t hv, int64_t t) {
  return v.rtl_ugal ? v.rtl_ugal->prefers_min(qm, hm, qv, hv, t) : ugal_prefers_min(qm, hm, qv, hv, t);
}

// The adaptive choice at switch `sw`; returns true if the Valiant candidate wins.
bool choose_valiant(const Dragonfly& t, int sw, const Candidate& mn, const Candidate& vl,
                    const AdaptiveParams& prm, const AdaptiveView& v, Rng& rng, const MinHopBlock* mh) {
  if (!vl.h.nonminimal) return false;  // no Valiant candidate exists (restricted, same switch)
  if (prm.kind == AdaptiveKind::UgalG) {
    // The walks draw only for multi-link exits later on; use a copy of the stream so the
    // estimate does not perturb the switch's draws.
    Rng r2 = rng;
    return !prefers_min(v, path_occupancy(t, sw, mn, v, r2, mh), 1, path_occupancy(t, sw, vl, v, r2, mh), 1,
                        prm.threshold);
  }
  const uint64_t qm = t.port_class(mn.first.port) == PortClass::Host ? 0 : v.local.at_vc(mn.first.port, mn.first.vc);
  const uint64_t qv = t.port_class(vl.first.port) == PortClass::Host ? 0 : v.local.at_vc(vl.first.port, vl.first.vc);
  const bool hops = prm.multiplier == UgalMultiplier::Hops;
  const bool local_prefers_vlb = !prefers_min(v, qm, hops ? mn.hops : 1, qv, hops ? vl.hops : 2, prm.threshold);
  if (prm.kind == AdaptiveKind::Pb || prm.kind == AdaptiveKind::PbAcor)
    return link_saturated(t, sw, mn, v) || local_prefers_vlb;
  return local_prefers_vlb;
}

}  // namespace

RouteDecision route_adaptive(const Dragonfly& t, int sw, int in_port, RouteHeader& h, Rng& rng,
                             const AdaptiveParams& prm, const AdaptiveView& v, const MinHopBlock* mh) {
  const bool at_source = h.segment == 0 && h.inter_switch < 0 && !h.nonminimal &&
                         t.port_class(in_port) == PortClass::Host;
  if (at_source) {
    if (sw == h.dst_switch) {
      h.policy = static_cast<uint8_t>(Misroute::None);
      return RouteDecision{h.dst_host, 0};
    }
    Candidate mn = minimal_candidate(t, sw, h, rng, prm.segment_link, mh);
    Candidate vl = valiant_candidate(t, sw, sw, h, rng, prm.policy, prm.restricted, prm, mh);
    const bool vlb = choose_valiant(t, sw, mn, vl, prm, v, rng, mh);
    Candidate& c = vlb ? vl : mn;
    if (!vlb && prm.kind == AdaptiveKind::Par && t.port_class(c.first.port) == PortClass::Local &&
        t.group_of(sw) != t.group_of(h.dst_switch))
      c.h.par_pending = 1;
    h = c.h;
    return c.first;
  }
  if (prm.kind == AdaptiveKind::Par && h.par_pending && t.port_class(in_port) == PortClass::Local) {
    // PAR: second switch of the source group, still minimal, global hop not taken yet.
    h.par_pending = 0;
    if (sw != h.dst_switch && !h.global_done) {
      Candidate mn = minimal_candidate(t, sw, h, rng, prm.segment_link, mh);
      const int set_sw = prm.par_set == ParSet::Source
                             ? t.switch_id(t.group_of(sw), t.local_neighbor(t.index_of(sw), in_port))
                             : sw;
      Candidate vl = valiant_candidate(t, sw, set_sw, h, rng, prm.policy, false, prm, mh);
      if (choose_valiant(t, sw, mn, vl, prm, v, rng, mh)) {
        // Every later local hop is one VC up, this one included (local VC 0 is taken).
        vl.h.vc_shift = 1;
        if (t.port_class(vl.first.port) == PortClass::Local) vl.first.vc = static_cast<uint8_t>(vl.first.vc + 1);
        h = vl.h;
        return vl.first;
      }
      h = mn.h;
      return mn.first;
    }
  }
  // In transit: follow the header as VAL does (minimal packets have no intermediate).
  if (h.segment == 0 && h.inter_switch >= 0 && sw == h.inter_switch) enter_segment_b(t, h);
  // PAR: past the source group's pre-global stage every packet's local VCs are one up (2-4),
  // whether it turned non-minimal in transit or not, so that local VC 1 (a turned packet's
  // second source-group hop, before its first global hop) is never also used after one.
  if (prm.kind == AdaptiveKind::Par && (h.segment == 1 || h.global_done)) h.vc_shift = 1;
  if (h.segment == 0 && h.inter_switch >= 0) return dragonfly_minimal_hop(t, sw, h.inter_switch, h, rng, mh);
  if (sw == h.dst_switch) return RouteDecision{h.dst_host, 0};
  return dragonfly_minimal_hop(t, sw, h.dst_switch, h, rng, mh);
}

}  // namespace scfly
