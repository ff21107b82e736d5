#include "routing_units/misrouting.h"

#include <algorithm>

namespace scfly {

const char* to_string(Misroute m) {
  switch (m) {
    case Misroute::None: return "min";
    case Misroute::Local: return "local";
    case Misroute::CrgGr: return "crg-gr";
    case Misroute::CrgSw: return "crg-sw";
    case Misroute::RrgGr: return "rrg-gr";
    case Misroute::RrgSw: return "rrg-sw";
  }
  return "?";
}

bool parse_policy(const std::string& s, Misroute& out) {
  for (Misroute m : {Misroute::CrgGr, Misroute::CrgSw, Misroute::RrgGr, Misroute::RrgSw})
    if (s == to_string(m)) {
      out = m;
      return true;
    }
  return false;
}

const char* policy_choices() { return "rrg-sw, rrg-gr, crg-sw, crg-gr"; }

int max_phase_a_hops(Misroute m) {
  switch (m) {
    case Misroute::None: return 0;
    case Misroute::Local: return 1;
    case Misroute::CrgGr: return 1;
    case Misroute::CrgSw: return 2;
    case Misroute::RrgGr: return 2;
    case Misroute::RrgSw: return 3;
  }
  return 0;
}

namespace {
bool local_restriction(const Dragonfly& t, int src, int dst, bool restricted) {
  return restricted && t.group_of(src) == t.group_of(dst);
}
}  // namespace

int draw_other_in_group(const Dragonfly& t, int src, int dst, Rng& rng) {
  if (src == dst || t.a() <= 2) return -1;  // nothing to misroute through
  // One of the a-2 switch indices other than source and destination, in order.
  int k = static_cast<int>(rng.below(static_cast<uint32_t>(t.a() - 2)));
  const int lo = std::min(t.index_of(src), t.index_of(dst)), hi = std::max(t.index_of(src), t.index_of(dst));
  if (k >= lo) ++k;
  if (k >= hi) ++k;
  return t.switch_id(t.group_of(src), k);
}

Intermediate draw_intermediate(const Dragonfly& t, int src, int dst, Misroute policy,
                               bool restricted, Rng& rng) {
  Intermediate im;
  const int G = t.group_of(src);
  if (local_restriction(t, src, dst, restricted)) {
    im.sw = draw_other_in_group(t, src, dst, rng);
    if (im.sw >= 0) im.policy = Misroute::Local;
    return im;
  }
  im.policy = policy;
  switch (policy) {
    case Misroute::RrgSw:
      im.sw = static_cast<int32_t>(rng.below(static_cast<uint32_t>(t.num_switches())));
      break;
    case Misroute::RrgGr: {
      const int link = static_cast<int>(rng.below(static_cast<uint32_t>(t.a() * t.h())));
      const int owner = t.switch_id(G, link / t.h());
      const int port = t.first_global_port() + link % t.h();
      im.sw = t.global_peer(owner, port).sw;
      im.exit_switch = owner;
      im.exit_port = static_cast<int16_t>(port);
      break;
    }
    case Misroute::CrgSw:
    case Misroute::CrgGr: {
      const int port = t.first_global_port() + static_cast<int>(rng.below(static_cast<uint32_t>(t.h())));
      const int landing = t.global_peer(src, port).sw;
      im.sw = policy == Misroute::CrgGr
                  ? landing
                  : t.switch_id(t.group_of(landing), static_cast<int>(rng.below(static_cast<uint32_t>(t.a()))));
      im.exit_switch = src;
      im.exit_port = static_cast<int16_t>(port);
      break;
    }
    case Misroute::None:
    case Misroute::Local:
      im = Intermediate{};
      break;
  }
  return im;
}

std::vector<int> intermediate_set(const Dragonfly& t, int src, int dst, Misroute policy, bool restricted) {
  std::vector<int> out;
  const int G = t.group_of(src);
  if (local_restriction(t, src, dst, restricted)) {
    if (src == dst) return out;
    for (int r = 0; r < t.a(); ++r) {
      const int s = t.switch_id(G, r);
      if (s != src && s != dst) out.push_back(s);
    }
    return out;
  }
  switch (policy) {
    case Misroute::RrgSw:
      for (int s = 0; s < t.num_switches(); ++s) out.push_back(s);
      break;
    case Misroute::RrgGr:
      for (int r = 0; r < t.a(); ++r)
        for (int j = 0; j < t.h(); ++j)
          out.push_back(t.global_peer(t.switch_id(G, r), t.first_global_port() + j).sw);
      break;
    case Misroute::CrgSw:
      for (int j = 0; j < t.h(); ++j) {
        const int g2 = t.global_target_group(src, t.first_global_port() + j);
        for (int r = 0; r < t.a(); ++r) out.push_back(t.switch_id(g2, r));
      }
      break;
    case Misroute::CrgGr:
      for (int j = 0; j < t.h(); ++j) out.push_back(t.global_peer(src, t.first_global_port() + j).sw);
      break;
    case Misroute::None:
    case Misroute::Local:
      break;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace scfly
