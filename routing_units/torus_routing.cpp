#include "routing_units/torus_routing.h"

#include <algorithm>
#include <utility>

#include "routing_units/rtl_widths.h"

namespace scfly {

namespace {

inline bool bit(uint8_t m, int d) { return ((m >> d) & 1u) != 0; }

// The direction of dimension d from coordinate x to y (x != y): the fixed one if the
// header has it, else the minimal one (a k/2 tie drawn from rng, mesh: toward y).
bool direction(const Torus& t, const RouteHeader& h, int d, int x, int y, Rng& rng) {
  if (bit(h.dir_set, d)) return bit(h.minus, d);
  if (t.mesh()) return y < x;
  const int fwd = t.ring_hops(x, y, false), back = t.k() - fwd;
  if (fwd != back) return back < fwd;
  return rng.below(2) != 0;
}

// The dateline class of a hop in dimension d from coordinate x toward y (x != y) in
// direction `minus`: `wrap`, 1 once the packet crosses d's wrap link (this hop or an earlier
// one); `traversal`, 1 for every hop of a traversal of d that crosses the wrap link anywhere
// (it has, or it will: moving + toward a smaller coordinate, - toward a larger one).
int dateline_class(const Torus& t, const RouteHeader& h, int d, int x, int y, bool minus, TorusDateline dl) {
  if (t.mesh()) return 0;
  if (bit(h.wrapped, d)) return 1;
  if (dl == TorusDateline::Traversal) return (minus ? y > x : y < x) ? 1 : 0;
  return t.crosses_wrap(x, minus) ? 1 : 0;
}

// VC range `idx` of `parts` equal ranges of `vcs` VCs (the first ranges take the remainder).
void vc_range(int vcs, int parts, int idx, int& lo, int& hi) {
  const int base = vcs / parts, extra = vcs % parts;
  lo = idx * base + (idx < extra ? idx : extra);
  hi = lo + base + (idx < extra ? 1 : 0) - 1;
}

int target_of(const RouteHeader& h) { return h.segment == 0 && h.inter_switch >= 0 ? h.inter_switch : h.dst_switch; }

// Ejection: the destination host's port; with w terminal ports per host, its w ports in a
// random rotation (the first free one is taken). Not sorted by queue: heads arriving on
// different inputs in the same cycle would all ask for the same emptiest port, and a
// separable allocator grants only `speedup` of them.
RouteCandidates eject(const Torus& t, const RouteHeader& h, Rng& rng) {
  RouteCandidates c;
  const int w = t.terminal_ports();
  if (w == 1) {
    c.add(h.dst_host, 0, 0);
    return c;
  }
  const int first = t.host_port(h.dst_host), r = static_cast<int>(rng.below(static_cast<uint32_t>(w)));
  for (int j = 0; j < w; ++j) c.add(first + (r + j) % w, 0, 0);
  return c;
}

// A productive port with its output queue and a random tie word.
struct PortOpt {
  int port;
  uint32_t q;
  uint32_t tie;
};

// The productive ports from `sw` toward `dst` into `opts`, ordered by output queue
// (shortest first, ties by a random order word when there are several): a dimension whose
// bit is set in `dir_set` moves in the direction of `minus`; any other in its minimal
// direction (both at a k/2 tie; mesh: toward dst). Returns their count (at most
// 2 * kMaxDims). Always inlined: called per routed head (as a call, or with the ports copied
// out, MIN AD ran 0.5-1.5 % more instructions).
[[gnu::always_inline]] inline int productive_by_queue(const Torus& t, int sw, int dst, uint8_t dir_set,
                                                      uint8_t minus, Rng& rng, const SwitchLoad& load,
                                                      PortOpt* opts, const QuadrantBlock* quadrant) {
  int n = 0;
  if (quadrant) [[unlikely]] {
    int ports[2 * Torus::kMaxDims];
    n = quadrant->order(t, sw, dst, dir_set, minus, rng, load, ports);
    for (int i = 0; i < n; ++i) opts[i] = PortOpt{ports[i], 0, 0};
    return n;
  }
  for (int d = 0; d < t.n(); ++d) {
    const int x = t.coord(sw, d), y = t.coord(dst, d);
    if (x == y) continue;
    if (bit(dir_set, d)) {
      opts[n++] = PortOpt{t.port(d, bit(minus, d)), 0, 0};
    } else if (t.mesh()) {
      opts[n++] = PortOpt{t.port(d, y < x), 0, 0};
    } else {
      const int fwd = t.ring_hops(x, y, false), back = t.k() - fwd;
      if (fwd <= back) opts[n++] = PortOpt{t.port(d, false), 0, 0};
      if (back <= fwd) opts[n++] = PortOpt{t.port(d, true), 0, 0};
    }
  }
  for (int i = 0; i < n; ++i) {
    opts[i].q = sat_queue(load.at(opts[i].port));  // the RTL selector's QueueBits
    opts[i].tie = n > 1 ? rng.order_word() : 0;
  }
  // Insertion sort by (queue, random tie word): n <= 2 * kMaxDims.
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && (opts[j].q < opts[j - 1].q || (opts[j].q == opts[j - 1].q && opts[j].tie < opts[j - 1].tie)); --j)
      std::swap(opts[j], opts[j - 1]);
  return n;
}

}  // namespace

int torus_productive_ports(const Torus& t, int sw, int dst, uint8_t dir_set, uint8_t minus, Rng& rng,
                           const SwitchLoad& load, int* ports, const QuadrantBlock* quadrant) {
  PortOpt opts[2 * Torus::kMaxDims];
  const int n = productive_by_queue(t, sw, dst, dir_set, minus, rng, load, opts, quadrant);
  for (int i = 0; i < n; ++i) ports[i] = opts[i].port;
  return n;
}

namespace {

// MIN AD / GOAL: adaptive candidates on VC 0 ordered by output queue, then the escape.
RouteCandidates adaptive(const Torus& t, int sw, RouteHeader& h, Rng& rng, const SwitchLoad& load, int vcs,
                         const QuadrantBlock* quadrant, TorusDateline dl) {
  const int dst = h.dst_switch;
  PortOpt opts[2 * Torus::kMaxDims];
  const int n = productive_by_queue(t, sw, dst, h.dir_set, h.minus, rng, load, opts, quadrant);
  // Escape VCs: the last two (torus: one per dateline class) or the last one (mesh);
  // adaptive VCs: all below them.
  const int esc_vcs = t.mesh() ? 1 : 2, adaptive_hi = vcs - esc_vcs - 1;
  RouteCandidates c;
  for (int i = 0; i < n && i < kMaxCandidates - 1; ++i) c.add(opts[i].port, 0, adaptive_hi);
  int cls = 0;
  const int esc = torus_dor_port(t, sw, dst, h, rng, cls, dl);
  c.add(esc, vcs - esc_vcs + cls, vcs - esc_vcs + cls);
  return c;
}

}  // namespace

int torus_required_vcs(TorusAlgo a, bool mesh) {
  switch (a) {
    case TorusAlgo::Dor: return mesh ? 1 : 2;
    case TorusAlgo::Val: return mesh ? 2 : 4;
    case TorusAlgo::MinAd:
    case TorusAlgo::Goal:
    case TorusAlgo::Gal: return mesh ? 2 : 3;
    case TorusAlgo::Chaos: return 1;
  }
  return 1;
}

int gal_num_sets(const Torus& t, GalSets s) {
  switch (s) {
    case GalSets::All: return t.num_switches();
    case GalSets::One: return 1;
    case GalSets::Two: return 2;
    case GalSets::Quadrant: return 1 << t.n();
  }
  return 1;
}

int gal_set(const Torus& t, GalSets s, int src, int dst) {
  switch (s) {
    case GalSets::All: return dst;
    case GalSets::One: return 0;
    case GalSets::Two:
      for (int d = 0; d < t.n(); ++d) {
        const int D = t.ring_hops(t.coord(src, d), t.coord(dst, d), false);
        if (4 * std::min(D, t.k() - D) > t.k()) return 1;
      }
      return 0;
    case GalSets::Quadrant: {
      int q = 0;
      for (int d = 0; d < t.n(); ++d) {
        const int D = t.ring_hops(t.coord(src, d), t.coord(dst, d), false);
        if (t.k() - D < D) q |= 1 << d;  // strictly shorter the - way
      }
      return q;
    }
  }
  return 0;
}

void set_quadrant(const Torus& t, int src, int dst, int q, RouteHeader& h) {
  h.dir_set = h.minus = 0;
  bool longer = false;
  for (int d = 0; d < t.n(); ++d) {
    const int D = t.ring_hops(t.coord(src, d), t.coord(dst, d), false);
    if (D == 0) continue;
    const uint8_t m = static_cast<uint8_t>(1u << d);
    h.dir_set |= m;
    const bool minus = (q >> d) & 1;
    if (minus) h.minus |= m;
    const int hops = minus ? t.k() - D : D;
    longer = longer || hops > t.k() - hops;
  }
  h.nonminimal = longer;
}

int gal_choose(const Torus& t, int src, int dst, const uint16_t* occ, uint32_t T, Rng& rng, bool& minimal) {
  const int n = t.n(), k = t.k();
  int zero = 0, hops_plus[Torus::kMaxDims];
  for (int d = 0; d < n; ++d) {
    hops_plus[d] = t.ring_hops(t.coord(src, d), t.coord(dst, d), false);
    if (hops_plus[d] == 0) zero |= 1 << d;
  }
  auto hops = [&](int q) {
    int h = 0;
    for (int d = 0; d < n; ++d)
      if (hops_plus[d]) h += ((q >> d) & 1) ? k - hops_plus[d] : hops_plus[d];
    return h;
  };
  auto is_minimal = [&](int q) {
    for (int d = 0; d < n; ++d)
      if (hops_plus[d]) {
        const int h = ((q >> d) & 1) ? k - hops_plus[d] : hops_plus[d];
        if (h > k - h) return false;
      }
    return true;
  };
  // The minimal queue: the shortest of the minimal quadrants (several only on k/2 ties).
  int qmin = -1, nmin_ties = 0;
  for (int q = 0; q < (1 << n); ++q) {
    if ((q & zero) || !is_minimal(q)) continue;
    if (qmin < 0 || occ[q] < occ[qmin]) {
      qmin = q;
      nmin_ties = 1;
    } else if (occ[q] == occ[qmin] && rng.below(static_cast<uint32_t>(++nmin_ties)) == 0) {
      qmin = q;  // reservoir draw among equally short minimal queues
    }
  }
  if (occ[qmin] < T) {
    minimal = true;
    return qmin;
  }
  // The shortest usable queue; ties: minimal first, then fewer hops, then at random.
  int best = -1, ties = 0;
  for (int q = 0; q < (1 << n); ++q) {
    if (q & zero) continue;
    if (best < 0) {
      best = q;
      ties = 1;
      continue;
    }
    const bool qm = is_minimal(q), bm = is_minimal(best);
    const int qh = hops(q), bh = hops(best);
    if (occ[q] < occ[best] || (occ[q] == occ[best] && (qm > bm || (qm == bm && qh < bh)))) {
      best = q;
      ties = 1;
    } else if (occ[q] == occ[best] && qm == bm && qh == bh && rng.below(static_cast<uint32_t>(++ties)) == 0) {
      best = q;
    }
  }
  minimal = is_minimal(best);
  return best;
}

void torus_arrive(const Torus& t, int sw, int in_port, RouteHeader& h) {
  if (t.is_host_port(in_port)) return;
  const int d = t.dim_of(in_port);
  // Input P+2d comes from the + neighbour: the packet travels in the - direction.
  const bool moved_minus = !t.minus_of(in_port);
  const uint8_t m = static_cast<uint8_t>(1u << d);
  h.dir_set |= m;
  h.minus = static_cast<uint8_t>(moved_minus ? (h.minus | m) : (h.minus & ~m));
  const int x = t.coord(sw, d);
  if (!t.mesh() && (moved_minus ? x == t.k() - 1 : x == 0)) h.wrapped |= m;
}

int torus_dor_port(const Torus& t, int sw, int target, const RouteHeader& h, Rng& rng, int& cls, TorusDateline dl) {
  for (int d = 0; d < t.n(); ++d) {
    const int x = t.coord(sw, d), y = t.coord(target, d);
    if (x == y) continue;
    const bool minus = direction(t, h, d, x, y, rng);
    cls = dateline_class(t, h, d, x, y, minus, dl);
    return t.port(d, minus);
  }
  cls = 0;
  return -1;  // sw == target
}

RouteCandidates route_torus(TorusAlgo a, const Torus& t, int sw, int in_port, RouteHeader& h, Rng& rng,
                            const SwitchLoad& load, int vcs, const QuadrantBlock* quadrant, TorusDateline dl) {
  // The traversal rule is deadlock-free only where every traversal of a dimension is
  // minimal (DOR, VAL's segments, MIN AD's escape); GOAL's and GAL's quadrants keep the wrap rule.
  if (a == TorusAlgo::Goal || a == TorusAlgo::Gal) dl = TorusDateline::Wrap;
  const bool source = t.is_host_port(in_port);
  if (vcs < torus_required_vcs(a, t.mesh())) vcs = torus_required_vcs(a, t.mesh());
  int lo = 0, hi = 0;
  switch (a) {
    case TorusAlgo::Dor: {
      if (sw == h.dst_switch) return eject(t, h, rng);
      int cls = 0;
      const int port = torus_dor_port(t, sw, h.dst_switch, h, rng, cls, dl);
      vc_range(vcs, t.mesh() ? 1 : 2, cls, lo, hi);
      RouteCandidates c;
      c.add(port, lo, hi);
      return c;
    }
    case TorusAlgo::Val: {
      if (source && h.segment == 0 && h.inter_switch < 0) {
        h.inter_switch = static_cast<int32_t>(rng.below(static_cast<uint32_t>(t.num_switches())));
        // Counted non-minimal when the detour is longer than the minimal path.
        h.nonminimal = t.distance(sw, h.inter_switch) + t.distance(h.inter_switch, h.dst_switch) >
                       t.distance(sw, h.dst_switch);
      }
      if (h.segment == 0 && sw == h.inter_switch) {
        h.segment = 1;
        h.dir_set = h.minus = h.wrapped = 0;
      }
      if (sw == h.dst_switch && h.segment == 1) return eject(t, h, rng);
      const int target = target_of(h);
      int cls = 0;
      const int port = torus_dor_port(t, sw, target, h, rng, cls, dl);
      if (t.mesh()) vc_range(vcs, 2, h.segment, lo, hi);
      else vc_range(vcs, 4, 2 * h.segment + cls, lo, hi);
      RouteCandidates c;
      c.add(port, lo, hi);
      return c;
    }
    case TorusAlgo::Goal:
      if (source && h.dir_set == 0) {
        // Draw the quadrant: per dimension, - with probability D/k, D = (y - x) mod k.
        int q = 0;
        for (int d = 0; d < t.n(); ++d) {
          const int D = t.ring_hops(t.coord(sw, d), t.coord(h.dst_switch, d), false);
          if (D != 0 && static_cast<int>(rng.below(static_cast<uint32_t>(t.k()))) < D) q |= 1 << d;
        }
        set_quadrant(t, sw, h.dst_switch, q, h);
      }
      [[fallthrough]];
    case TorusAlgo::MinAd:
    case TorusAlgo::Gal:  // the quadrant came with the header from the NIC (gal_choose)
      if (sw == h.dst_switch) return eject(t, h, rng);
      return adaptive(t, sw, h, rng, load, vcs, quadrant, dl);
    case TorusAlgo::Chaos: break;  // route_chaos (RoutingUnit calls it directly, with its deroute flag)
  }
  return {};
}

RouteCandidates route_chaos(const Torus& t, int sw, RouteHeader& h, Rng& rng, const SwitchLoad& load, int vcs,
                            bool deroute, const QuadrantBlock* quadrant) {
  const int hi = (vcs < 1 ? 1 : vcs) - 1;
  RouteCandidates c;
  if (deroute) {
    // Every connected link port, in a random order (a mesh's edge ports lead nowhere).
    int ports[2 * Torus::kMaxDims], n = 0;
    for (int d = 0; d < t.n(); ++d)
      for (int m = 0; m < 2; ++m)
        if (t.connected(sw, t.port(d, m != 0))) ports[n++] = t.port(d, m != 0);
    for (int i = n - 1; i > 0; --i) std::swap(ports[i], ports[rng.below(static_cast<uint32_t>(i + 1))]);
    for (int i = 0; i < n; ++i) c.add(ports[i], 0, hi);
    h.nonminimal = true;
    return c;
  }
  if (sw == h.dst_switch) return eject(t, h, rng);
  // No direction state: every hop is minimal from where the packet is.
  PortOpt opts[2 * Torus::kMaxDims];
  const int n = productive_by_queue(t, sw, h.dst_switch, 0, 0, rng, load, opts, quadrant);
  for (int i = 0; i < n; ++i) c.add(opts[i].port, 0, hi);
  return c;
}

}  // namespace scfly
