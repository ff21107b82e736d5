#include "tb/traffic.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace scfly {

namespace {

constexpr int kMaxArg = 1000000;

// A strict non-negative decimal integer in [0, kMaxArg]: digits only, no sign, no spaces,
// no leading zeros, so that to_string writes back exactly the accepted text.
bool parse_uint(const std::string& s, int& v) {
  if (s.empty() || s.size() > 7 || (s.size() > 1 && s[0] == '0')) return false;
  long x = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    x = x * 10 + (c - '0');
  }
  if (x > kMaxArg) return false;
  v = static_cast<int>(x);
  return true;
}

// If s is "name(...)", splits what is inside the parentheses at commas into `args` (each
// a strict non-negative integer) and returns true with `ok` telling whether that worked.
// Returns false when s does not start with "name(".
bool parse_call(const std::string& s, const std::string& name, std::vector<int>& args,
                bool& ok) {
  const std::string head = name + "(";
  if (s.rfind(head, 0) != 0) return false;
  args.clear();
  ok = false;
  if (s.size() <= head.size() || s.back() != ')') return true;
  const std::string inner = s.substr(head.size(), s.size() - head.size() - 1);
  size_t from = 0;
  for (;;) {
    const size_t comma = inner.find(',', from);
    int v = 0;
    if (!parse_uint(inner.substr(from, comma - from), v)) return true;
    args.push_back(v);
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  ok = true;
  return true;
}

// A uniformly random permutation of [0, n) with no fixed point (n >= 2): Fisher-Yates
// shuffles, rejected until one has no fixed point (e ~ 2.72 tries expected).
std::vector<int> random_derangement(int n, Rng& r) {
  std::vector<int> v(static_cast<size_t>(n));
  for (;;) {
    std::iota(v.begin(), v.end(), 0);
    for (int i = n - 1; i > 0; --i)
      std::swap(v[static_cast<size_t>(i)], v[r.below(static_cast<uint32_t>(i + 1))]);
    bool fixed_point = false;
    for (int i = 0; i < n && !fixed_point; ++i) fixed_point = v[static_cast<size_t>(i)] == i;
    if (!fixed_point) return v;
  }
}

std::vector<int> random_permutation(int n, Rng& r) {
  std::vector<int> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), 0);
  for (int i = n - 1; i > 0; --i)
    std::swap(v[static_cast<size_t>(i)], v[r.below(static_cast<uint32_t>(i + 1))]);
  return v;
}

// The registered plug-ins (TrafficPlugin): stable addresses, indices in registration order.
struct PluginRegistry {
  std::vector<std::unique_ptr<TrafficPlugin>> all;
  std::vector<const TrafficPlugin*> list;
};
PluginRegistry& plugins() {
  static PluginRegistry r;
  return r;
}

bool is_mixed(TrafficKind k) { return k == TrafficKind::Mixed || k == TrafficKind::TimeMixed; }

std::string shift_text(const TrafficSpec& t) {
  return std::to_string(t.shift_groups) + "," + std::to_string(t.shift_switches);
}

}  // namespace

// mix(P1:W1,P2:W2,...): components split at the commas outside parentheses.
static std::string parse_mix(const std::string& s, TrafficSpec& out) {
  const std::string form =
      "mix(P1:W1,P2:W2,...) needs 2 to 8 components pattern:weight (integer weights in [1, 1000000], "
      "no spaces, no nested mix), e.g. mix(nnc:9,tor:1)";
  if (s.size() < 5 || s.back() != ')') return form;
  const std::string inner = s.substr(4, s.size() - 5);
  std::vector<std::string> items;
  int depth = 0;
  size_t from = 0;
  for (size_t i = 0; i <= inner.size(); ++i) {
    if (i == inner.size() || (inner[i] == ',' && depth == 0)) {
      items.push_back(inner.substr(from, i - from));
      from = i + 1;
    } else if (inner[i] == '(') {
      ++depth;
    } else if (inner[i] == ')') {
      if (--depth < 0) return form;
    }
  }
  if (depth != 0 || items.size() < 2 || items.size() > 8) return form;
  TrafficSpec t{TrafficKind::Mix, 0};
  for (const std::string& item : items) {
    const size_t colon = item.rfind(':');
    int w = 0;
    if (colon == std::string::npos || !parse_uint(item.substr(colon + 1), w) || w < 1)
      return form + "; '" + item + "' is not pattern:weight";
    const std::string pat = item.substr(0, colon);
    if (pat.rfind("mix(", 0) == 0) return form + "; '" + pat + "' is a mix";
    TrafficSpec part;
    if (auto why = parse_traffic(pat, part); !why.empty()) return "mix component '" + pat + "': " + why;
    t.parts.push_back(part);
    t.weights.push_back(w);
  }
  out = t;
  return {};
}

// The names the built-in patterns take (plain names and call or prefix forms).
const char* const kBuiltinTrafficNames[] = {"un", "advc", "advl", "hot", "perm", "group-perm", "nn", "nnc", "tor",
                                            "bc", "tp", "hs", "adv", "advs", "mix", "shift", "mixed", "tmixed"};

int register_traffic(TrafficPlugin p) {
  const std::string who = "traffic pattern '" + p.name + "': ";
  const bool valid = !p.name.empty() && p.name.front() != '-' && p.name.back() != '-' &&
                     p.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") == std::string::npos &&
                     std::isalpha(static_cast<unsigned char>(p.name.front()));
  if (!valid) throw std::logic_error(who + "a name is lowercase letters, digits and '-', starting with a letter");
  for (const char* b : kBuiltinTrafficNames)
    if (p.name == b) throw std::logic_error(who + "the name is a built-in pattern's");
  for (const TrafficPlugin* q : plugins().list)
    if (q->name == p.name) throw std::logic_error(who + "the name is already registered");
  if (!p.make) throw std::logic_error(who + "a plug-in needs a factory (TrafficPlugin::make)");
  if (!p.dragonfly && !p.torus && !p.plugin_topologies) throw std::logic_error(who + "defined on no topology");
  if (p.min_args < 0 || p.max_args < p.min_args || p.max_args > 8)
    throw std::logic_error(who + "arguments: 0 <= min_args <= max_args <= 8");
  PluginRegistry& r = plugins();
  r.all.push_back(std::make_unique<TrafficPlugin>(std::move(p)));
  r.list.push_back(r.all.back().get());
  return static_cast<int>(r.list.size() - 1);
}

const std::vector<const TrafficPlugin*>& traffic_plugins() { return plugins().list; }

std::string parse_traffic(const std::string& s, TrafficSpec& out) {
  const std::pair<const char*, TrafficKind> plain[] = {
      {"un", TrafficKind::Uniform},       {"advc", TrafficKind::AdvConsecutive},
      {"advl", TrafficKind::AdvLocal},    {"hot", TrafficKind::HotRegion},
      {"perm", TrafficKind::Permutation}, {"group-perm", TrafficKind::GroupPerm},
      {"nn", TrafficKind::NearestNeighbor}, {"nnc", TrafficKind::NeighborFixed},
      {"tor", TrafficKind::Tornado},      {"bc", TrafficKind::BitComplement},
      {"tp", TrafficKind::Transpose},   {"hs", TrafficKind::HotSpot}};
  for (const auto& [name, kind] : plain) {
    if (s == name) {
      out = TrafficSpec{kind, 0};
      return {};
    }
  }
  for (const auto& [prefix, kind] :
       {std::pair<std::string, TrafficKind>{"adv+", TrafficKind::Adversarial},
        std::pair<std::string, TrafficKind>{"advs+", TrafficKind::AdvSameSwitch}}) {
    if (s.rfind(prefix, 0) != 0 || s.size() <= prefix.size()) continue;
    char* end = nullptr;
    const long i = std::strtol(s.c_str() + prefix.size(), &end, 10);
    if (*end == '\0' && i >= 1 && i < 1000000) {
      out = TrafficSpec{kind, static_cast<int>(i)};
      return {};
    }
    return prefix + "N needs an integer group offset 1 <= N < 1000000, got '" + s + "'";
  }
  if (s.rfind("mix(", 0) == 0) return parse_mix(s, out);
  std::vector<int> args;
  bool ok = false;
  if (parse_call(s, "shift", args, ok)) {
    if (!ok || args.size() != 2)
      return "shift(DG,DS) needs two integers 0 <= DG, DS <= 1000000 (group and switch "
             "offsets, no spaces), e.g. shift(2,0)";
    if (args[0] == 0 && args[1] == 0)
      return "shift(0,0) maps every node onto itself; use DG > 0 or DS > 0, e.g. shift(1,0)";
    TrafficSpec t{TrafficKind::Shift, 0};
    t.shift_groups = args[0];
    t.shift_switches = args[1];
    out = t;
    return {};
  }
  for (const auto& [name, kind] :
       {std::pair<const char*, TrafficKind>{"mixed", TrafficKind::Mixed},
        std::pair<const char*, TrafficKind>{"tmixed", TrafficKind::TimeMixed}}) {
    if (!parse_call(s, name, args, ok)) continue;
    const std::string form = std::string(name) + "(UR,ADV) or " + name + "(UR,ADV,DG,DS)";
    if (!ok || (args.size() != 2 && args.size() != 4))
      return form + " needs integer percentages UR + ADV = 100 and optional shift offsets "
                    "DG, DS (no spaces), e.g. " + name + "(50,50)";
    if (args[0] > 100 || args[1] > 100 || args[0] + args[1] != 100)
      return form + ": the percentages UR=" + std::to_string(args[0]) +
             " and ADV=" + std::to_string(args[1]) + " must be in [0,100] and sum to 100";
    TrafficSpec t{kind, 0};
    t.uniform_percent = args[0];
    if (args.size() == 4) {
      if (args[2] == 1 && args[3] == 0)
        return std::string("shift(1,0) is the default adversarial pattern of ") + name +
               "; write " + name + "(" + std::to_string(args[0]) + "," +
               std::to_string(args[1]) + ")";
      if (args[2] == 0 && args[3] == 0)
        return form + ": shift offsets DG=0, DS=0 map every node onto itself; use DG > 0 "
                      "or DS > 0";
      t.shift_groups = args[2];
      t.shift_switches = args[3];
    }
    out = t;
    return {};
  }
  const auto& pl = plugins().list;
  for (size_t i = 0; i < pl.size(); ++i) {
    const TrafficPlugin& p = *pl[i];
    const std::string form = p.max_args == 0 ? p.name : p.name + "(" + std::to_string(p.min_args) + " to " +
                                                            std::to_string(p.max_args) + " integers in [0, 1000000])";
    TrafficSpec t{TrafficKind::Plugin, 0};
    t.plugin = static_cast<int>(i);
    if (s == p.name) {
      if (p.min_args > 0) return p.name + " needs arguments: " + form;
      out = t;
      return {};
    }
    if (!parse_call(s, p.name, args, ok)) continue;
    if (!ok || args.empty() || static_cast<int>(args.size()) < p.min_args || static_cast<int>(args.size()) > p.max_args)
      return "'" + s + "': the plug-in pattern takes " + form + ", no spaces";
    t.args = args;
    out = t;
    return {};
  }
  return std::string("unknown pattern '") + s + "'; allowed: " + traffic_choices();
}

std::string to_string(const TrafficSpec& t) {
  switch (t.kind) {
    case TrafficKind::Uniform: return "un";
    case TrafficKind::Adversarial: return "adv+" + std::to_string(t.offset);
    case TrafficKind::AdvSameSwitch: return "advs+" + std::to_string(t.offset);
    case TrafficKind::AdvConsecutive: return "advc";
    case TrafficKind::AdvLocal: return "advl";
    case TrafficKind::HotRegion: return "hot";
    case TrafficKind::Permutation: return "perm";
    case TrafficKind::GroupPerm: return "group-perm";
    case TrafficKind::NearestNeighbor: return "nn";
    case TrafficKind::NeighborFixed: return "nnc";
    case TrafficKind::Tornado: return "tor";
    case TrafficKind::BitComplement: return "bc";
    case TrafficKind::Transpose: return "tp";
    case TrafficKind::HotSpot: return "hs";
    case TrafficKind::Mix: {
      std::string m = "mix(";
      for (size_t i = 0; i < t.parts.size(); ++i)
        m += (i ? "," : "") + to_string(t.parts[i]) + ":" + std::to_string(t.weights[i]);
      return m + ")";
    }
    case TrafficKind::Shift: return "shift(" + shift_text(t) + ")";
    case TrafficKind::Plugin: {
      std::string r = plugins().list[static_cast<size_t>(t.plugin)]->name;
      if (t.args.empty()) return r;
      for (size_t i = 0; i < t.args.size(); ++i) r += (i ? "," : "(") + std::to_string(t.args[i]);
      return r + ")";
    }
    case TrafficKind::Mixed:
    case TrafficKind::TimeMixed: {
      std::string s = t.kind == TrafficKind::Mixed ? "mixed(" : "tmixed(";
      s += std::to_string(t.uniform_percent) + "," + std::to_string(100 - t.uniform_percent);
      if (t.shift_groups != 1 || t.shift_switches != 0) s += "," + shift_text(t);
      return s + ")";
    }
  }
  return "?";
}

std::string traffic_choices() {
  std::string r =
      "un, adv+N, advs+N (N >= 1), advc, advl, hot, perm, shift(DG,DS) (DG, DS >= 0, not both 0), "
      "group-perm, mixed(UR,ADV), mixed(UR,ADV,DG,DS), tmixed(UR,ADV), "
      "tmixed(UR,ADV,DG,DS) (UR + ADV = 100) on a Dragonfly; un, nn, nnc, tor, bc, tp, hs, perm, hot on a "
      "torus or mesh; un, perm, hot on a plug-in topology; mix(P1:W1,P2:W2,...) of those on any";
  for (const TrafficPlugin* p : plugins().list) {
    std::string on;
    if (!(p->dragonfly && p->torus && p->plugin_topologies)) {
      if (p->dragonfly) on += "Dragonfly";
      if (p->torus) on += std::string(on.empty() ? "" : " or ") + "torus or mesh";
      if (p->plugin_topologies) on += std::string(on.empty() ? "" : " or ") + "plug-in topologies";
      on = ", " + on;
    }
    r += "; " + p->name + (p->max_args ? "(...)" : "") + " (plug-in" + on + ")";
  }
  return r;
}

std::string check_traffic(const TrafficSpec& t, const Topology& any) {
  const std::string name = to_string(t);
  const int n = any.num_nodes();
  const auto* torus = dynamic_cast<const Torus*>(&any);
  switch (t.kind) {
    case TrafficKind::Uniform:
    case TrafficKind::Permutation:
    case TrafficKind::HotRegion:
      break;
    case TrafficKind::Plugin: {
      const TrafficPlugin& p = *plugins().list[static_cast<size_t>(t.plugin)];
      const bool dfly = dynamic_cast<const Dragonfly*>(&any) != nullptr;
      if (torus ? !p.torus : dfly ? !p.dragonfly : !p.plugin_topologies) {
        std::string on;
        if (p.dragonfly) on += "a Dragonfly";
        if (p.torus) on += std::string(on.empty() ? "" : " or ") + "a torus or mesh";
        if (p.plugin_topologies) on += std::string(on.empty() ? "" : " or ") + "plug-in topologies";
        return name + " (a plug-in) is defined on " + on + ", not on " + any.describe();
      }
      if (n < 2) return name + " needs at least 2 nodes";
      return p.check ? p.check(any, t.args) : std::string();
    }
    case TrafficKind::Mix:
      for (const TrafficSpec& part : t.parts)
        if (auto why = check_traffic(part, any); !why.empty()) return "mix component " + to_string(part) + ": " + why;
      return {};
    case TrafficKind::HotSpot:
    case TrafficKind::NearestNeighbor:
    case TrafficKind::NeighborFixed:
    case TrafficKind::Tornado:
    case TrafficKind::BitComplement:
    case TrafficKind::Transpose:
      if (!torus) return name + " is a torus pattern; " + any.describe() + " is not a torus or mesh";
      if (t.kind == TrafficKind::Tornado && torus->k() < 3)
        return "tor moves ceil(k/2)-1 hops, none with k=" + std::to_string(torus->k()) + "; it needs k >= 3";
      if (t.kind == TrafficKind::Transpose && torus->n() % 2 != 0)
        return "tp swaps the two halves of the coordinates, which needs an even n (n=" + std::to_string(torus->n()) + ")";
      return {};
    default:
      if (!dynamic_cast<const Dragonfly*>(&any))
        return name + " is a Dragonfly pattern; on " + any.describe() + " use " +
               (torus ? "un, nn, nnc, tor, bc, tp, hs, perm or hot" : "un, perm or hot");
      break;
  }
  if (!dynamic_cast<const Dragonfly*>(&any)) {
    // un, perm, hot on a torus or mesh or a plug-in topology
    if (t.kind == TrafficKind::HotRegion && n < 9)
      return "hot needs at least 9 nodes (a hot region of ceil(N/8) >= 2 nodes); N=" + std::to_string(n);
    if (n < 2) return name + " needs at least 2 nodes";
    return {};
  }
  const Dragonfly& topo = static_cast<const Dragonfly&>(any);
  switch (t.kind) {
    case TrafficKind::Uniform:
    case TrafficKind::Permutation:
      if (n < 2) return name + " needs at least 2 nodes";
      return {};
    case TrafficKind::Adversarial:
    case TrafficKind::AdvSameSwitch:
      if (t.offset % topo.g() == 0)
        return name + " maps every group onto itself with g=" +
               std::to_string(topo.g()) + "; use an offset not divisible by g";
      return {};
    case TrafficKind::AdvConsecutive:
      if (topo.h() >= topo.g())
        return "advc sends to the h=" + std::to_string(topo.h()) +
               " groups after the source's, which needs h < g (g=" + std::to_string(topo.g()) +
               "); use adv+N instead";
      return {};
    case TrafficKind::AdvLocal:
      if (topo.a() < 2) return "advl needs at least 2 switches per group (a >= 2)";
      return {};
    case TrafficKind::HotRegion:
      if (n < 9)
        return "hot needs at least 9 nodes (a hot region of ceil(N/8) >= 2 nodes); N=" +
               std::to_string(n);
      return {};
    case TrafficKind::GroupPerm:
      if (topo.g() < 2) return "group-perm needs at least 2 groups";
      return {};
    case TrafficKind::Shift:
    case TrafficKind::Mixed:
    case TrafficKind::TimeMixed:
      if (t.shift_groups % topo.g() == 0 && t.shift_switches % topo.a() == 0)
        return name + ": shift(" + shift_text(t) + ") maps every node onto itself with g=" +
               std::to_string(topo.g()) + ", a=" + std::to_string(topo.a()) +
               "; use DG not divisible by g or DS not divisible by a";
      if (is_mixed(t.kind) && n < 2) return name + " needs at least 2 nodes";
      return {};
    default:
      return {};
  }
}

TrafficPattern::TrafficPattern(const TrafficSpec& spec, const Topology& any, uint64_t seed,
                               uint64_t instance)
    : m_spec(spec), m_any(&any) {
  if (auto why = check_traffic(spec, any); !why.empty())
    throw std::invalid_argument("traffic pattern: " + why);
  m_topo = dynamic_cast<const Dragonfly*>(&any);
  m_torus = dynamic_cast<const Torus*>(&any);
  Rng r(seed, StreamKind::Traffic, instance);
  const int n = any.num_nodes();
  if (spec.kind == TrafficKind::Mix) {
    m_silent.assign(static_cast<size_t>(n), 1);
    for (size_t i = 0; i < spec.parts.size(); ++i) {
      m_parts.push_back(std::make_unique<TrafficPattern>(spec.parts[i], any, seed, instance * 16 + 1 + i));
      for (int v = 0; v < n; ++v)
        if (!m_parts.back()->silent(v)) m_silent[static_cast<size_t>(v)] = 0;
    }
    return;
  }
  const bool hs = spec.kind == TrafficKind::HotSpot;
  if (spec.kind == TrafficKind::BitComplement || spec.kind == TrafficKind::Transpose || hs) {
    m_map.resize(static_cast<size_t>(n));
    m_silent.assign(static_cast<size_t>(n), 0);
    const Torus& t = *m_torus;
    const int P = t.hosts_per_switch();
    for (int s = 0; s < t.num_switches(); ++s) {
      int to = 0;
      for (int d = 0; d < t.n(); ++d) {
        const int x = spec.kind != TrafficKind::Transpose ? t.k() - 1 - t.coord(s, d)
                                                          : t.coord(s, (d + t.n() / 2) % t.n());
        to = t.with_coord(to, d, x);
      }
      for (int host = 0; host < P; ++host) {
        m_map[static_cast<size_t>(s * P + host)] = to * P + host;
        if (to == s && !hs) m_silent[static_cast<size_t>(s * P + host)] = 1;
      }
    }
    if (hs) {
      m_silent.clear();
      int centre = 0;
      for (int d = 0; d < t.n(); ++d) centre = t.with_coord(centre, d, t.k() / 2);
      std::vector<int> sw{centre};
      for (int q = 0; q < 2 * t.n(); ++q)
        if (t.connected(centre, t.host_ports() + q)) sw.push_back(t.neighbor(centre, t.host_ports() + q).sw);
      m_is_hot.assign(static_cast<size_t>(n), 0);
      for (int s : sw)
        for (int host = 0; host < P; ++host) m_is_hot[static_cast<size_t>(s * P + host)] = 1;
      for (int v = 0; v < n; ++v)
        if (m_is_hot[static_cast<size_t>(v)]) m_hot_list.push_back(v);
    }
    return;
  }
  if (spec.kind == TrafficKind::Plugin) {
    m_plugin = plugins().list[static_cast<size_t>(spec.plugin)]->make(any, spec.args, r);
    if (!m_plugin) throw std::invalid_argument("traffic pattern " + to_string(spec) + ": its factory made nothing");
    for (int v = 0; v < n; ++v)
      if (m_plugin->silent(v)) {
        if (m_silent.empty()) m_silent.assign(static_cast<size_t>(n), 0);
        m_silent[static_cast<size_t>(v)] = 1;
      }
    return;
  }
  if (!m_topo) {
    if (spec.kind == TrafficKind::HotRegion) m_hot = (n + 7) / 8;
    if (spec.kind == TrafficKind::Permutation) m_map = random_derangement(n, r);
    return;
  }
  const Dragonfly& topo = *m_topo;
  const int p = topo.p(), a = topo.a(), g = topo.g();
  switch (spec.kind) {
    case TrafficKind::HotRegion:
      m_hot = (n + 7) / 8;
      break;
    case TrafficKind::Permutation:
      m_map = random_derangement(n, r);
      break;
    case TrafficKind::GroupPerm: {
      m_map.resize(static_cast<size_t>(n));
      const std::vector<int> to_group = random_derangement(g, r);
      for (int grp = 0; grp < g; ++grp) {
        const std::vector<int> to_switch = random_permutation(a, r);
        for (int i = 0; i < a; ++i)
          for (int host = 0; host < p; ++host)
            m_map[static_cast<size_t>((grp * a + i) * p + host)] =
                (to_group[static_cast<size_t>(grp)] * a + to_switch[static_cast<size_t>(i)]) *
                    p + host;
      }
      break;
    }
    case TrafficKind::Mixed: {
      // round(n * UR / 100) nodes, chosen by a partial Fisher-Yates shuffle.
      const int k = static_cast<int>((static_cast<int64_t>(n) * spec.uniform_percent + 50) / 100);
      std::vector<int> idx(static_cast<size_t>(n));
      std::iota(idx.begin(), idx.end(), 0);
      m_uniform_src.assign(static_cast<size_t>(n), 0);
      for (int j = 0; j < k; ++j) {
        std::swap(idx[static_cast<size_t>(j)],
                  idx[static_cast<size_t>(j) + r.below(static_cast<uint32_t>(n - j))]);
        m_uniform_src[static_cast<size_t>(idx[static_cast<size_t>(j)])] = 1;
      }
      break;
    }
    default:
      break;
  }
}

int TrafficPattern::uniform(int src, Rng& rng) const {
  const int d = static_cast<int>(rng.below(static_cast<uint32_t>(m_any->num_nodes() - 1)));
  return d >= src ? d + 1 : d;
}

int TrafficPattern::shifted(int src) const {
  const Dragonfly& t = *m_topo;
  const int s = src / t.p();
  const int grp = (s / t.a() + m_spec.shift_groups % t.g()) % t.g();
  const int idx = (s % t.a() + m_spec.shift_switches % t.a()) % t.a();
  return (grp * t.a() + idx) * t.p() + src % t.p();
}

// A plug-in's destination, checked: a pattern that returns its source or a node outside
// the network is a bug in the plug-in, stopped here rather than simulated.
int TrafficPattern::plugin_dest(int src, Rng& rng) const {
  const int d = m_plugin->dest(src, rng);
  if (d < 0 || d >= m_any->num_nodes() || d == src)
    throw std::logic_error("traffic pattern " + to_string(m_spec) + " (a plug-in) returned node " + std::to_string(d) +
                           " for source " + std::to_string(src) + "; a destination is another node in 0.." +
                           std::to_string(m_any->num_nodes() - 1));
  return d;
}

int TrafficPattern::dest(int src, Rng& rng) const {
  switch (m_spec.kind) {
    case TrafficKind::Plugin:
      return plugin_dest(src, rng);
    case TrafficKind::Uniform:
      return uniform(src, rng);
    case TrafficKind::HotRegion: {
      if (rng.below(4) != 0) return uniform(src, rng);
      if (src >= m_hot) return static_cast<int>(rng.below(static_cast<uint32_t>(m_hot)));
      const int d = static_cast<int>(rng.below(static_cast<uint32_t>(m_hot - 1)));
      return d >= src ? d + 1 : d;
    }
    case TrafficKind::Permutation:
    case TrafficKind::GroupPerm:
    case TrafficKind::BitComplement:
    case TrafficKind::Transpose:
      return m_map[static_cast<size_t>(src)];
    case TrafficKind::HotSpot: {
      const int bc = m_map[static_cast<size_t>(src)];
      if (bc != src && rng.below(2) == 0) return bc;
      // Weight 5 per hot node, 1 per other node, the source excluded: N - 1 + 4 H' tickets,
      // the first N - 1 one per node, then 4 more per hot node.
      const bool self_hot = m_is_hot[static_cast<size_t>(src)] != 0;
      const int others = m_any->num_nodes() - 1;
      const int hot = static_cast<int>(m_hot_list.size()) - (self_hot ? 1 : 0);
      const int u = static_cast<int>(rng.below(static_cast<uint32_t>(others + 4 * hot)));
      if (u < others) return u >= src ? u + 1 : u;
      int i = (u - others) / 4;
      if (self_hot && m_hot_list[static_cast<size_t>(i)] >= src) ++i;
      return m_hot_list[static_cast<size_t>(i)];
    }
    case TrafficKind::Mix: {
      uint32_t total = 0;
      for (size_t i = 0; i < m_parts.size(); ++i)
        if (!m_parts[i]->silent(src)) total += static_cast<uint32_t>(m_spec.weights[i]);
      uint32_t u = rng.below(total);
      for (size_t i = 0; i < m_parts.size(); ++i) {
        if (m_parts[i]->silent(src)) continue;
        const uint32_t w = static_cast<uint32_t>(m_spec.weights[i]);
        if (u < w) return m_parts[i]->dest(src, rng);
        u -= w;
      }
      return src;  // not reached: total > 0 for a node that is not silent
    }
    case TrafficKind::NearestNeighbor:
    case TrafficKind::NeighborFixed:
    case TrafficKind::Tornado: {
      const Torus& t = *m_torus;
      const int P = t.hosts_per_switch(), s = src / P;
      int to;
      if (m_spec.kind == TrafficKind::NearestNeighbor) {
        // One of the connected switch-to-switch ports at random (all 2n on a torus).
        int ports[2 * Torus::kMaxDims], np = 0;
        for (int q = 0; q < 2 * t.n(); ++q)
          if (t.connected(s, t.host_ports() + q)) ports[np++] = t.host_ports() + q;
        to = t.neighbor(s, ports[rng.below(static_cast<uint32_t>(np))]).sw;
      } else {
        const int step = m_spec.kind == TrafficKind::NeighborFixed ? 1 : (t.k() + 1) / 2 - 1;
        to = t.with_coord(s, 0, (t.coord(s, 0) + step) % t.k());
      }
      return to * P + src % P;
    }
    default:
      break;
  }
  const Dragonfly& t = *m_topo;
  switch (m_spec.kind) {
    case TrafficKind::Adversarial: {
      const int per_group = t.a() * t.p();
      const int g = (src / per_group + m_spec.offset) % t.g();
      return g * per_group + static_cast<int>(rng.below(static_cast<uint32_t>(per_group)));
    }
    case TrafficKind::AdvSameSwitch: {
      const int s = t.switch_of_node(src);
      const int to = t.switch_id((t.group_of(s) + m_spec.offset) % t.g(), t.index_of(s));
      return to * t.p() + static_cast<int>(rng.below(static_cast<uint32_t>(t.p())));
    }
    case TrafficKind::AdvConsecutive: {
      // One draw over the h*a*p nodes of groups G+1 ... G+h: uniform group, uniform node.
      const int per_group = t.a() * t.p();
      const int k = static_cast<int>(rng.below(static_cast<uint32_t>(t.h() * per_group)));
      const int g = (src / per_group + 1 + k / per_group) % t.g();
      return g * per_group + k % per_group;
    }
    case TrafficKind::AdvLocal: {
      const int s = t.switch_of_node(src);
      const int next = t.switch_id(t.group_of(s), (t.index_of(s) + 1) % t.a());
      return next * t.p() + static_cast<int>(rng.below(static_cast<uint32_t>(t.p())));
    }
    case TrafficKind::Shift:
      return shifted(src);
    case TrafficKind::Mixed:
      return m_uniform_src[static_cast<size_t>(src)] ? uniform(src, rng) : shifted(src);
    case TrafficKind::TimeMixed:
      return static_cast<int>(rng.below(100)) < m_spec.uniform_percent ? uniform(src, rng)
                                                                        : shifted(src);
    default:
      break;
  }
  return src;
}

void TrafficPattern::weights(int src, std::vector<std::pair<int, double>>& out) const {
  out.clear();
  if (silent(src)) return;
  const int N = m_any->num_nodes();
  auto uniform_into = [&](double w) {
    for (int d = 0; d < N; ++d)
      if (d != src) out.push_back({d, w / (N - 1)});
  };
  auto range_into = [&](int first, int count, double w) {  // uniform over [first, first+count)
    for (int d = first; d < first + count; ++d) out.push_back({d, w / count});
  };
  switch (m_spec.kind) {
    case TrafficKind::Plugin:
      if (!m_plugin->weights(src, out))
        throw std::invalid_argument("traffic pattern " + to_string(m_spec) +
                                    " (a plug-in) gives no exact distribution (TrafficPolicy::weights); the "
                                    "ideal-throughput model cannot use it");
      return;
    case TrafficKind::Uniform:
      uniform_into(1.0);
      return;
    case TrafficKind::HotRegion:
      uniform_into(0.75);
      if (src >= m_hot) {
        range_into(0, m_hot, 0.25);
      } else {
        for (int d = 0; d < m_hot; ++d)
          if (d != src) out.push_back({d, 0.25 / (m_hot - 1)});
      }
      break;
    case TrafficKind::Permutation:
    case TrafficKind::GroupPerm:
    case TrafficKind::BitComplement:
    case TrafficKind::Transpose:
      out.push_back({m_map[static_cast<size_t>(src)], 1.0});
      return;
    case TrafficKind::HotSpot: {
      const int bc = m_map[static_cast<size_t>(src)];
      const double w_bc = bc != src ? 0.5 : 0.0;
      if (w_bc > 0) out.push_back({bc, w_bc});
      const bool self_hot = m_is_hot[static_cast<size_t>(src)] != 0;
      const double tickets = N - 1 + 4.0 * (static_cast<double>(m_hot_list.size()) - (self_hot ? 1 : 0));
      for (int d = 0; d < N; ++d)
        if (d != src) out.push_back({d, (1.0 - w_bc) * (m_is_hot[static_cast<size_t>(d)] ? 5.0 : 1.0) / tickets});
      break;
    }
    case TrafficKind::Mix: {
      double total = 0;
      for (size_t i = 0; i < m_parts.size(); ++i)
        if (!m_parts[i]->silent(src)) total += m_spec.weights[i];
      std::vector<std::pair<int, double>> part;
      for (size_t i = 0; i < m_parts.size(); ++i) {
        if (m_parts[i]->silent(src)) continue;
        m_parts[i]->weights(src, part);
        for (const auto& [d, p] : part) out.push_back({d, p * m_spec.weights[i] / total});
      }
      break;
    }
    case TrafficKind::NearestNeighbor: {
      const Torus& t = *m_torus;
      const int P = t.hosts_per_switch(), s = src / P;
      int np = 0;
      const int L = t.host_ports();  // the first switch-to-switch port
      for (int q = 0; q < 2 * t.n(); ++q) np += t.connected(s, L + q);
      for (int q = 0; q < 2 * t.n(); ++q)
        if (t.connected(s, L + q)) out.push_back({t.neighbor(s, L + q).sw * P + src % P, 1.0 / np});
      break;
    }
    case TrafficKind::NeighborFixed:
    case TrafficKind::Tornado: {
      Rng unused(0, StreamKind::Traffic, 0);
      out.push_back({dest(src, unused), 1.0});  // deterministic
      return;
    }
    case TrafficKind::Adversarial: {
      const Dragonfly& t = *m_topo;
      const int per_group = t.a() * t.p();
      range_into((src / per_group + m_spec.offset) % t.g() * per_group, per_group, 1.0);
      return;
    }
    case TrafficKind::AdvSameSwitch: {
      const Dragonfly& t = *m_topo;
      const int s = t.switch_of_node(src);
      range_into(t.switch_id((t.group_of(s) + m_spec.offset) % t.g(), t.index_of(s)) * t.p(), t.p(), 1.0);
      return;
    }
    case TrafficKind::AdvConsecutive: {
      const Dragonfly& t = *m_topo;
      const int per_group = t.a() * t.p();
      for (int k = 1; k <= t.h(); ++k) range_into((src / per_group + k) % t.g() * per_group, per_group, 1.0 / t.h());
      break;
    }
    case TrafficKind::AdvLocal: {
      const Dragonfly& t = *m_topo;
      const int s = t.switch_of_node(src);
      range_into(t.switch_id(t.group_of(s), (t.index_of(s) + 1) % t.a()) * t.p(), t.p(), 1.0);
      return;
    }
    case TrafficKind::Shift:
      out.push_back({shifted(src), 1.0});
      return;
    case TrafficKind::Mixed:
      if (m_uniform_src[static_cast<size_t>(src)]) uniform_into(1.0);
      else out.push_back({shifted(src), 1.0});
      return;
    case TrafficKind::TimeMixed:
      uniform_into(m_spec.uniform_percent / 100.0);
      if (m_spec.uniform_percent < 100) out.push_back({shifted(src), 1.0 - m_spec.uniform_percent / 100.0});
      break;
  }
  // Merge repeated destinations (hot region inside uniform, mixtures, a k = 2 ring's two
  // neighbours being one switch).
  std::sort(out.begin(), out.end());
  size_t w = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    if (w > 0 && out[w - 1].first == out[i].first) out[w - 1].second += out[i].second;
    else out[w++] = out[i];
  }
  out.resize(w);
}

}  // namespace scfly
