#include "routing_units/tvlb.h"

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
    case TvlbClass::All: return true;
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

int tvlb_draw(const Dragonfly& t, int s, int d, TvlbClass c, Rng& rng) {
  for (;;) {
    int n = 0;
    for (int i = 0; i < t.num_switches(); ++i) n += in_tvlb_class(t, s, d, i, c);
    if (n == 0) {
      if (c == TvlbClass::All) return -1;
      c = c == TvlbClass::I3 ? TvlbClass::I4 : TvlbClass::All;  // the fallbacks of tvlb_set
      continue;
    }
    int k = static_cast<int>(rng.below(static_cast<uint32_t>(n)));
    for (int i = 0; i < t.num_switches(); ++i)
      if (in_tvlb_class(t, s, d, i, c) && k-- == 0) return i;
  }
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
