#include "routing_units/tvlb.h"

#include <algorithm>
#include <iterator>
#include <tuple>

#include "routing_units/minimal.h"

namespace scfly {

namespace {

// i is at the far end of one of x's global links.
bool is_global_neighbor(const Dragonfly& t, int x, int i) {
  for (int j = 0; j < t.h(); ++j)
    if (t.global_peer(x, t.first_global_port() + j).sw == i) return true;
  return false;
}

// i owns a global link into group g.
bool links_into(const Dragonfly& t, int i, int g) {
  for (int j = 0; j < t.h(); ++j)
    if (t.global_target_group(i, t.first_global_port() + j) == g) return true;
  return false;
}

bool in_all(const Dragonfly& t, int s, int d, int i) {
  const int g = t.group_of(i);
  return g != t.group_of(s) && g != t.group_of(d);
}

VlbSegment segment(const Dragonfly& t, int from, int to) {
  VlbSegment seg;
  seg.hops = minimal_distance(t, from, to);
  if (from == to || t.group_of(from) == t.group_of(to)) return seg;
  const GlobalLinkEnd* links = t.links_between(t.group_of(from), t.group_of(to));
  for (int k = 0; k < t.links_per_group_pair(); ++k)
    if (hops_via_link(t, from, to, k) == seg.hops) seg.links.push_back(links[k]);
  return seg;
}

}  // namespace

const char* to_string(TvlbClass c) {
  switch (c) {
    case TvlbClass::All: return "all";
    case TvlbClass::I3: return "i3";
    case TvlbClass::I4: return "i4";
    case TvlbClass::I5: return "i5";
    case TvlbClass::I5Src: return "i5src";
    case TvlbClass::I5Dst: return "i5dst";
    case TvlbClass::I6: return "i6";
  }
  return "?";
}

std::vector<VlbRoute> enumerate_vlb(const Dragonfly& t, int s, int d) {
  std::vector<VlbRoute> out;
  for (int i = 0; i < t.num_switches(); ++i) {
    if (!in_all(t, s, d, i)) continue;
    VlbRoute r;
    r.inter = i;
    r.a = segment(t, s, i);
    r.b = segment(t, i, d);
    out.push_back(std::move(r));
  }
  return out;
}

bool in_tvlb_class(const Dragonfly& t, int s, int d, int i, TvlbClass c) {
  if (!in_all(t, s, d, i)) return false;
  switch (c) {
    case TvlbClass::All:
    case TvlbClass::I6: return true;
    case TvlbClass::I3:
      return (minimal_distance(t, s, i) <= 2 && is_global_neighbor(t, d, i)) ||
             (is_global_neighbor(t, s, i) && minimal_distance(t, i, d) <= 2);
    case TvlbClass::I4:
      return is_global_neighbor(t, s, i) || is_global_neighbor(t, d, i) ||
             (links_into(t, i, t.group_of(s)) && links_into(t, i, t.group_of(d)));
    case TvlbClass::I5: return minimal_distance(t, s, i) <= 2 || minimal_distance(t, i, d) <= 2;
    case TvlbClass::I5Src: return minimal_distance(t, s, i) <= 2;
    case TvlbClass::I5Dst: return minimal_distance(t, i, d) <= 2;
  }
  return false;
}

TvlbClass tvlb_next_class(TvlbClass c) {
  switch (c) {
    case TvlbClass::I3: return TvlbClass::I4;
    case TvlbClass::I4: return TvlbClass::I5;
    default: return TvlbClass::All;
  }
}

bool tvlb_in_fraction(uint64_t seed, int s, int d, int i, int percent) {
  if (percent <= 0) return false;
  if (percent >= 100) return true;
  uint64_t x = seed ^ 0x7476'6c62'0000'0000ULL;
  uint64_t h = splitmix64(x) ^ static_cast<uint64_t>(s);
  h = splitmix64(h) ^ (static_cast<uint64_t>(d) << 20);
  h = splitmix64(h) ^ (static_cast<uint64_t>(i) << 40);
  h = splitmix64(h);
  return static_cast<double>(h >> 11) * 0x1.0p-53 * 100.0 < percent;
}

namespace {

// Extra intermediates of a fractional rule: in the next class of the rule's own class and
// under the hash.
bool in_extra(const Dragonfly& t, int s, int d, int i, const TvlbRule& r) {
  return r.percent > 0 && in_tvlb_class(t, s, d, i, tvlb_next_class(r.set)) &&
         tvlb_in_fraction(r.seed, s, d, i, r.percent);
}

}  // namespace

// The class falls back as tvlb_set does (I3 -> I4 -> I_all) when it is empty for (s, d); the
// extra intermediates stay those of the rule's own class (none beyond I4 for an empty I3).
// One scan counts both, so the usual case costs what the class alone did.
int tvlb_draw(const Dragonfly& t, int s, int d, const TvlbRule& r, Rng& rng, const TvlbRemovals* removed) {
  TvlbClass c = r.set;
  const uint64_t* rm_first = nullptr;
  const uint64_t* rm_last = nullptr;
  if (removed && !removed->empty()) std::tie(rm_first, rm_last) = removed->of(s, d);
  const uint64_t rm_base = TvlbRemovals::key(t.num_switches(), s, d, 0);
  for (;;) {
    int n = 0, base = 0;
    const uint64_t* rm = rm_first;
    for (int i = 0; i < t.num_switches(); ++i) {
      const bool b = in_tvlb_class(t, s, d, i, c);
      base += b;
      if (!(b || in_extra(t, s, d, i, r))) continue;
      if (rm != rm_last && *rm == rm_base + static_cast<uint64_t>(i)) {
        ++rm;
        continue;
      }
      ++n;
    }
    if (base == 0 && c != TvlbClass::All) {
      c = c == TvlbClass::I3 ? TvlbClass::I4 : TvlbClass::All;
      continue;
    }
    if (n == 0) return -1;
    int k = static_cast<int>(rng.below(static_cast<uint32_t>(n)));
    rm = rm_first;
    for (int i = 0; i < t.num_switches(); ++i) {
      if (!(in_tvlb_class(t, s, d, i, c) || in_extra(t, s, d, i, r))) continue;
      if (rm != rm_last && *rm == rm_base + static_cast<uint64_t>(i)) {
        ++rm;
        continue;
      }
      if (k-- == 0) return i;
    }
    return -1;
  }
}

std::pair<const uint64_t*, const uint64_t*> TvlbRemovals::of(int s, int d) const {
  const uint64_t lo = key(switches, s, d, 0), hi = lo + static_cast<uint64_t>(switches);
  const uint64_t* b = keys.data();
  const uint64_t* e = b + keys.size();
  const uint64_t* first = std::lower_bound(b, e, lo);
  return {first, std::lower_bound(first, e, hi)};
}

bool TvlbRemovals::removed(int s, int d, int i) const {
  return std::binary_search(keys.begin(), keys.end(), key(switches, s, d, i));
}

void tvlb_segment_paths(const Dragonfly& t, const TvlbChannels& ch, int x, int y, bool generic,
                        std::vector<TvlbPath>& out) {
  out.clear();
  if (x == y) {
    out.emplace_back();
    return;
  }
  const int gx = t.group_of(x), gy = t.group_of(y);
  if (gx == gy) {
    out.push_back({ch.local(t, x, y)});
    return;
  }
  const GlobalLinkEnd* links = t.links_between(gx, gy);
  int best = 99;
  if (!generic)
    for (int k = 0; k < t.links_per_group_pair(); ++k) best = std::min(best, hops_via_link(t, x, y, k));
  for (int k = 0; k < t.links_per_group_pair(); ++k) {
    if (!generic && hops_via_link(t, x, y, k) != best) continue;
    const int u = links[k].sw, port = links[k].port, v = t.global_peer(u, port).sw;
    TvlbPath p;
    if (u != x) p.push_back(ch.local(t, x, u));
    p.push_back(ch.global(t, u, port));
    if (v != y) p.push_back(ch.local(t, v, y));
    out.push_back(std::move(p));
  }
}

std::vector<int> tvlb_rule_set(const Dragonfly& t, int s, int d, const TvlbRule& r) {
  std::vector<int> out = tvlb_set(t, s, d, r.set);
  if (r.percent <= 0) return out;
  std::vector<int> extra;
  for (int i = 0; i < t.num_switches(); ++i)
    if (in_extra(t, s, d, i, r) && !std::binary_search(out.begin(), out.end(), i)) extra.push_back(i);
  std::vector<int> merged;
  std::merge(out.begin(), out.end(), extra.begin(), extra.end(), std::back_inserter(merged));
  return merged;
}

std::vector<int> tvlb_set(const Dragonfly& t, int s, int d, TvlbClass c) {
  std::vector<int> out;
  for (int i = 0; i < t.num_switches(); ++i)
    if (in_tvlb_class(t, s, d, i, c)) out.push_back(i);
  if (out.empty() && c == TvlbClass::I3) return tvlb_set(t, s, d, TvlbClass::I4);
  if (out.empty() && c != TvlbClass::All) return tvlb_set(t, s, d, TvlbClass::All);
  return out;
}

}  // namespace scfly
