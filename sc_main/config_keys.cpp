// The config schema's table: every key, once (config_schema.h). The order is the order keys
// are read, so a default may depend on a key above it; it is also the order of the keys table
// in docs/config.md.
#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <type_traits>

#include "rtl_models/switch/parts/allocator_plugin.h"
#include "sc_main/config.h"
#include "sc_main/config_schema.h"

namespace scfly {

namespace {

template <class T>
void assign(T& x, const KeyValue& v) {
  if constexpr (std::is_same_v<T, bool>) x = v.b;
  else if constexpr (std::is_floating_point_v<T>) x = v.r;
  else if constexpr (std::is_integral_v<T>) x = static_cast<T>(v.i);
  else x = v.s;
}

KeyValue iv(int64_t i) {
  KeyValue v;
  v.i = i;
  return v;
}
KeyValue rv(double r) {
  KeyValue v;
  v.r = r;
  return v;
}
KeyValue bv(bool b) {
  KeyValue v;
  v.b = b;
  return v;
}
KeyValue sv(std::string s) {
  KeyValue v;
  v.s = std::move(s);
  return v;
}

// Builds one KeySpec in a readable chain and appends it to the table when it goes out of scope.
class K {
 public:
  K(std::vector<KeySpec>& out, std::string path) : m_out(out) { m_k.path = std::move(path); }
  ~K() { m_out.push_back(std::move(m_k)); }
  K(const K&) = delete;
  K& operator=(const K&) = delete;

  K& integer(int64_t lo, int64_t hi, std::string unit = "") {
    m_k.kind = KeyKind::Integer;
    m_k.lo = lo;
    m_k.hi = hi;
    m_k.unit = std::move(unit);
    return *this;
  }
  K& real(double lo, double hi, std::string expected, bool lo_included = false) {
    m_k.kind = KeyKind::Real;
    m_k.rlo = lo;
    m_k.rhi = hi;
    m_k.rlo_included = lo_included;
    m_k.expected = std::move(expected);
    return *this;
  }
  K& boolean() {
    m_k.kind = KeyKind::Boolean;
    return *this;
  }
  K& text(std::string expected) {
    m_k.kind = KeyKind::Text;
    m_k.expected = std::move(expected);
    return *this;
  }
  K& run_only() {
    m_k.run_only = true;
    return *this;
  }
  K& kind(KeyKind k) {
    m_k.kind = k;
    return *this;
  }
  K& scope(KeyScope s) {
    m_k.scope = s;
    return *this;
  }
  // Only on plug-in topology `k` (topologies/registry.h).
  K& plugin_scope(TopologyKind k) {
    m_k.scope = KeyScope::Plugin;
    m_k.plugin_kind = k;
    return *this;
  }
  // A choice stored in an enum: (value, enum, note) for each; set and echo map between them.
  template <class E, class F>
  K& choice(std::vector<std::tuple<std::string, E, std::string>> opts, F field) {
    m_k.kind = KeyKind::Choice;
    for (const auto& [s, e, note] : opts) m_k.choices.push_back({s, note});
    m_k.set = [opts, field](ParseState& st, const KeyValue& v) {
      for (const auto& [s, e, note] : opts)
        if (s == v.s) field(st.c) = e;
    };
    m_k.echo = [opts, field](const SimConfig& c) {
      for (const auto& [s, e, note] : opts)
        if (field(const_cast<SimConfig&>(c)) == e) return nlohmann::json(s);
      return nlohmann::json("?");
    };
    return *this;
  }
  // Value and echo bound to one field of SimConfig.
  template <class F>
  K& bind(F field) {
    m_k.set = [field](ParseState& st, const KeyValue& v) { assign(field(st.c), v); };
    m_k.echo = [field](const SimConfig& c) { return nlohmann::json(field(const_cast<SimConfig&>(c))); };
    return *this;
  }
  K& def(KeyValue v) {
    m_k.def = [v](const ParseState&) { return v; };
    return *this;
  }
  K& def(std::function<KeyValue(const ParseState&)> f) {
    m_k.def = std::move(f);
    return *this;
  }
  K& set(std::function<void(ParseState&, const KeyValue&)> f) {
    m_k.set = std::move(f);
    return *this;
  }
  K& custom(std::function<void(ParseState&, const YAML::Node&)> f) {
    m_k.kind = KeyKind::Custom;
    m_k.custom = std::move(f);
    return *this;
  }
  K& check(std::function<std::string(const ParseState&, const KeyValue&)> f) {
    m_k.check = std::move(f);
    return *this;
  }
  K& echo(std::function<nlohmann::json(const SimConfig&)> f) {
    m_k.echo = std::move(f);
    return *this;
  }
  K& echo_if(std::function<bool(const SimConfig&)> f, std::string note) {
    m_k.echo_if = std::move(f);
    m_k.echo_note = std::move(note);
    return *this;
  }
  K& rhi_of(std::function<double(const ParseState&)> f) {
    m_k.rhi_of = std::move(f);
    return *this;
  }
  K& expected_of(std::function<std::string(const ParseState&)> f) {
    m_k.expected_of = std::move(f);
    return *this;
  }
  // Docs: default, allowed (empty: derived), meaning.
  K& doc(std::string default_doc, std::string allowed_doc, std::string meaning) {
    m_k.default_doc = std::move(default_doc);
    m_k.allowed_doc = std::move(allowed_doc);
    m_k.doc = std::move(meaning);
    return *this;
  }

 private:
  std::vector<KeySpec>& m_out;
  KeySpec m_k;
};

bool dfly(const SimConfig& c) { return c.topo_kind == TopologyKind::Dragonfly; }
bool torus_kind(const SimConfig& c) { return c.topo_kind == TopologyKind::Torus || c.topo_kind == TopologyKind::Mesh; }

// The largest count of cycles or bytes a key takes.
constexpr int64_t kBig = 1LL << 40;

// A Real kept in QCN fixed point (2^-16 %).
uint32_t to_qcn_fixed(double percent) { return static_cast<uint32_t>(std::lround(percent * kQcnOne)); }

// Every registered routing mechanism (registry.h), in registry order.
std::vector<std::tuple<std::string, RoutingAlgo, std::string>> routing_options() {
  std::vector<std::tuple<std::string, RoutingAlgo, std::string>> out;
  for (const RoutingMechanism* m : routing_mechanisms()) out.emplace_back(m->name, algo_of(*m), "");
  return out;
}

std::string fmt_num(double x) {
  std::ostringstream o;
  o << x;
  return o.str();
}

template <class E>
std::vector<std::tuple<std::string, E, std::string>> named(std::initializer_list<E> values) {
  std::vector<std::tuple<std::string, E, std::string>> out;
  for (E e : values) out.emplace_back(to_string(e), e, "");
  return out;
}

// The per-port-class keys of a topology kind: (class id, input-side name, output-side name).
struct ClassKeys {
  int cls;
  const char* in;
  const char* out;
  int64_t vcs;  // default; 0 = auto
  int64_t in_buf, out_buf, latency;
};

void add_class_keys(std::vector<KeySpec>& t, KeyScope scope, const std::vector<ClassKeys>& classes,
                    const char* which, TopologyKind plugin = TopologyKind::Dragonfly) {
  const auto scoped = [scope, plugin](K& k) -> K& {
    return scope == KeyScope::Plugin ? k.plugin_scope(plugin) : k.scope(scope);
  };
  if (std::string(which) == "vcs") {
    for (const ClassKeys& ck : classes) {
      const int k = ck.cls;
      const std::string name = ck.in;
      std::string doc, def_doc;
      if (k == kHostClass) {
        def_doc = "1 (gal: 2^n)";
        doc = "VCs of the injection (host) input (GAL needs one per quadrant, 2^n, fed by its injection queues)";
      } else if (name == "local") {
        def_doc = "auto";
        doc = "local data VCs (auto: MIN 2, MIN-COND 3, PAR 5, others 4; fewer is an error); with control frames "
              "(probes, QCN's CNMs) 2 control VCs above them";
      } else if (name == "global") {
        def_doc = "auto";
        doc = "global data VCs (auto: MIN 1, others 2); with control frames 1 control VC above them";
      } else if (scope == KeyScope::Plugin) {
        def_doc = "auto";
        doc = "data VCs of the " + name + " ports of topology " + to_string(plugin) +
              " (a plug-in; auto: what the routing needs, RoutingMechanism::link_vcs)";
      } else {
        def_doc = "auto";
        doc = "data VCs of every switch-to-switch port (auto: torus DOR 2, VAL 4, MIN AD, GOAL and GAL 3, CHAOS 1; "
              "mesh DOR 1, VAL 2, MIN AD 2, CHAOS 1). More VCs widen each VC class into a range (docs/model.md); with control "
              "frames 2 (mesh 1) control VCs above them";
      }
      K kk(t, "switch.vcs." + name);
      scoped(kk)
          .kind(KeyKind::VcCount)
          .def([k, ck](const ParseState& s) {
            // GAL: one injection VC per quadrant (its injection queues feed them, tb/nic.h).
            return iv(k == kHostClass && s.c.routing == RoutingAlgo::Gal ? 0 : ck.vcs);
          })
          .set([k, name](ParseState& s, const KeyValue& v) {
            SimConfig& c = s.c;
            const int gal_inj = c.routing == RoutingAlgo::Gal ? 1 << c.torus.n : 0;
            int need = 1;
            if (c.topo_kind == TopologyKind::Dragonfly) {
              const VcBudget b = required_vcs(c.routing);
              need = name == "local" ? b.local : name == "global" ? b.global : 1;
            } else {
              need = k == kHostClass ? std::max(1, gal_inj) : required_link_vcs(c.routing, c.topo_kind);
            }
            const int n = v.i == 0 ? need : static_cast<int>(v.i);
            if (n < need)
              throw ConfigError("config key 'switch.vcs." + name + "': value " + std::to_string(n) +
                                " is too few for routing " + to_string(c.routing) + ", which needs at least " +
                                std::to_string(need) + " " + name + " VCs " +
                                (k == kHostClass ? "(one per quadrant, fed by its injection queues)"
                                                 : "to be deadlock-free") +
                                " (or use 'auto')");
            c.sw.vcs[k] = n;
            if (c.topo_kind != TopologyKind::Dragonfly && k != kHostClass) c.routing_prm.link_vcs = n;
          })
          .echo([k](const SimConfig& c) { return nlohmann::json(c.sw.vcs[k]); })
          .doc(def_doc, "1–16 or auto", doc);
    }
  } else if (std::string(which) == "input_buffer" || std::string(which) == "output_buffer") {
    const bool in = std::string(which) == "input_buffer";
    for (const ClassKeys& ck : classes) {
      const int k = ck.cls;
      const std::string name = in ? ck.in : ck.out;
      K kk(t, std::string("switch.") + which + "." + name);
      scoped(kk)
          .kind(KeyKind::Buffer)
          .def(iv(in ? ck.in_buf : ck.out_buf))
          .set([k, in](ParseState& s, const KeyValue& v) {
            (in ? s.c.sw.in_buf : s.c.sw.out_buf)[k] = static_cast<uint32_t>(v.i);
          })
          .echo([k, in](const SimConfig& c) { return nlohmann::json((in ? c.sw.in_buf : c.sw.out_buf)[k]); })
          .doc(std::to_string(in ? ck.in_buf : ck.out_buf), "≥ packet_phits phits, or bytes",
               std::string(in ? "input" : "output") + " buffer depth per VC of the " + name + " " +
                   (in ? "inputs" : "outputs"));
    }
  } else {  // links
    for (const ClassKeys& ck : classes) {
      const int k = ck.cls;
      const std::string name = ck.in;
      const std::string meaning = k == kHostClass ? "NIC↔switch latency"
                                  : scope == KeyScope::Torus ? "switch-to-switch link latency"
                                                             : name + " link latency";
      K kk(t, "links." + name + "_latency");
      scoped(kk)
          .run_only()
          .integer(1, 1000000, "cycles")
          .def(iv(ck.latency))
          .set([k](ParseState& s, const KeyValue& v) { s.c.sw.latency[k] = static_cast<uint32_t>(v.i); })
          .echo([k](const SimConfig& c) { return nlohmann::json(c.sw.latency[k]); })
          .doc(std::to_string(ck.latency), "", meaning + ", cycles");
    }
  }
}

// ---- Which configurations read a mechanism's keys (KeySpec::inert_with, used_by), key by
// key from where each value is read: routing_units/routing.cpp (RoutingUnit: val.* for VAL,
// the ACOR sequence, the UGAL family's AdaptiveParams), ugal.cpp (which of those each
// UGAL variant reads), torus_routing.cpp (the torus mechanisms read none of val/ugal but
// the occupancy measure), rtl_models/switch/switch.cpp (ugal.occupancy and its scope feed
// the congestion view), mechanism_units.cpp (the ACOR level controller, Piggyback's
// detector, UGAL-G's load publisher), tb/network.cpp and tb/nic.cpp (QCN with MIN-COND's
// qcn trigger; GAL's injection queues) and config.cpp's validate() (the multiqueue only
// with chaos).
using R = RoutingAlgo;

bool one_of(RoutingAlgo r, std::initializer_list<RoutingAlgo> rs) {
  return std::find(rs.begin(), rs.end(), r) != rs.end();
}

// "routing min", "routing val on a torus".
std::string routing_text(const SimConfig& c) {
  std::string s = std::string("routing ") + to_string(c.routing);
  if (c.topo_kind == TopologyKind::Mesh) s += " on a mesh";
  else if (c.topo_kind == TopologyKind::Torus) s += " on a torus";
  else if (!dfly(c)) s += std::string(" on ") + to_string(c.topo_kind);
  return s;
}

// The UGAL family: scfly's Dragonfly mechanisms that route by RoutingUnit's AdaptiveParams.
bool ugal_family(RoutingAlgo r) {
  return one_of(r, {R::UgalL, R::UgalG, R::Par, R::Pb, R::PbAcor, R::TugalL, R::TugalG, R::TPar});
}

// Read iff the routing is one of `rs` (and the network a Dragonfly when `dfly_only`).
std::function<std::string(const SimConfig&)> routings(std::vector<RoutingAlgo> rs, bool dfly_only = true) {
  return [rs, dfly_only](const SimConfig& c) -> std::string {
    if (std::find(rs.begin(), rs.end(), c.routing) != rs.end() && (!dfly_only || dfly(c))) return "";
    return routing_text(c);
  };
}

// Read iff `pred` holds of the routing's mechanism (registry.h flags, plug-ins included).
std::function<std::string(const SimConfig&)> mechanisms(std::function<bool(const RoutingMechanism&)> pred) {
  return [pred](const SimConfig& c) -> std::string { return pred(mechanism(c.routing)) ? "" : routing_text(c); };
}

// The names of the registered mechanisms `pred` holds of, "a, b, c".
std::string names_of(const std::function<bool(const RoutingMechanism&)>& pred) {
  std::string out;
  for (const RoutingMechanism* m : routing_mechanisms())
    if (pred(*m)) out += (out.empty() ? "" : ", ") + m->name;
  return out;
}

void read_by(std::vector<KeySpec>& t, const std::vector<std::pair<std::string, std::string>>& plugin_groups) {
  const auto in_family = [](const SimConfig& c) { return dfly(c) && ugal_family(c.routing); };
  const auto vlb_set_text = [](const SimConfig& c) {
    return routing_text(c) + " with ugal.vlb_set " + to_string(c.routing_prm.ugal.vlb_set);
  };
  // The UGAL family's keys, read through AdaptiveParams (routing.cpp) by every member.
  const auto family = [in_family](const SimConfig& c) -> std::string { return in_family(c) ? "" : routing_text(c); };
  const std::string family_names = "ugal-l, ugal-g, par, pb, pb-acor, t-ugal-l, t-ugal-g, t-par";
  // With a T-VLB set (ugal.vlb_set other than all): its draw replaces val.policy's, and the
  // set's own keys apply.
  const auto with_tvlb = [in_family, vlb_set_text](const SimConfig& c) -> std::string {
    if (!in_family(c)) return routing_text(c);
    return c.routing_prm.ugal.vlb_set == TvlbClass::All ? vlb_set_text(c) : "";
  };
  struct Row {
    std::string key;  // a key, or a group "qcn." (every key under it)
    std::function<std::string(const SimConfig&)> inert_with;
    std::string used_by;
  };
  const std::vector<Row> rows = {
      {"min_cond.trigger", routings({R::MinCond}), "min-cond"},
      {"qcn.",
       [](const SimConfig& c) -> std::string {
         if (!dfly(c) || c.routing != R::MinCond) return routing_text(c);
         return c.routing_prm.trigger == MinCondTrigger::Qcn ? "" : "routing min-cond with min_cond.trigger pause";
       },
       "min-cond with min_cond.trigger qcn (the QCN-Switch units)"},
      {"gal.", routings({R::Gal}, false), "gal (its NICs' injection queues and threshold)"},
      {"chaos.multiqueue", routings({R::Chaos}, false), "chaos"},
      {"torus.dateline",
       [](const SimConfig& c) -> std::string {
         if (c.topo_kind == TopologyKind::Mesh) return "a mesh (no wrap links)";
         return one_of(c.routing, {R::Dor, R::Val, R::MinAd}) ? "" : routing_text(c);
       },
       "dor, val, min-ad (torus)"},
      // VAL's draw (route_val), and the UGAL family's Valiant candidate when val.policy
      // draws it: no T-VLB set, ugal.intermediate any; ACOR and PB-ACOR take the policy from
      // their level and restrict themselves.
      {"val.policy",
       [vlb_set_text](const SimConfig& c) -> std::string {
         if (!dfly(c) || !one_of(c.routing, {R::Val, R::UgalL, R::UgalG, R::Par, R::Pb, R::TugalL, R::TugalG, R::TPar}))
           return routing_text(c);
         if (c.routing == R::Val) return "";
         if (c.routing_prm.ugal.vlb_set != TvlbClass::All) return vlb_set_text(c);
         if (c.routing_prm.ugal.intermediate != UgalIntermediate::Any)
           return routing_text(c) + " with ugal.intermediate other-groups";
         return "";
       },
       "val (Dragonfly); ugal-l, ugal-g, par and pb with ugal.vlb_set all and ugal.intermediate any"},
      {"val.restricted", nullptr, ""},  // as val.policy (filled below)
      {"val.recompute", routings({R::Val, R::Pb}), "val (Dragonfly), pb"},
      {"acor.sequence",
       [](const SimConfig& c) -> std::string {
         return c.routing == R::AcorPacket || uses_level_ctrl(c.routing) ? "" : routing_text(c);
       },
       "acor-packet, " + names_of([](const RoutingMechanism& m) { return m.level_ctrl; })},
      {"acor.hi", mechanisms([](const RoutingMechanism& m) { return m.level_ctrl; }),
       names_of([](const RoutingMechanism& m) { return m.level_ctrl; }) + " (the ACOR-Switch level controller)"},
      {"acor.it1", nullptr, ""},
      {"acor.it2", nullptr, ""},
      {"acor.dt1", nullptr, ""},
      {"acor.dt2", nullptr, ""},
      {"ugal.threshold", family, family_names},
      // The congestion view's measure: every adaptive mechanism reads its queues through it.
      {"ugal.occupancy", mechanisms([](const RoutingMechanism& m) { return m.adaptive; }),
       names_of([](const RoutingMechanism& m) { return m.adaptive; })},
      // Per-VC occupancy: only the local comparison reads it (UGAL-G compares the network
      // view's port sums; the torus mechanisms read port sums); an adaptive plug-in may.
      {"ugal.occupancy_scope",
       [](const SimConfig& c) -> std::string {
         const RoutingMechanism& m = mechanism(c.routing);
         if (m.plugin() ? m.adaptive
                        : dfly(c) && one_of(c.routing, {R::UgalL, R::Par, R::Pb, R::PbAcor, R::TugalL, R::TPar}))
           return "";
         return routing_text(c);
       },
       "ugal-l, par, pb, pb-acor, t-ugal-l, t-par (and adaptive plug-ins)"},
      {"ugal.reevaluate", routings({R::UgalL, R::UgalG, R::Par, R::Pb, R::TugalL, R::TugalG, R::TPar}),
       "ugal-l, ugal-g, par, pb, t-ugal-l, t-ugal-g, t-par"},
      {"ugal.intermediate",
       [in_family, vlb_set_text](const SimConfig& c) -> std::string {
         if (!in_family(c)) return routing_text(c);
         return c.routing_prm.ugal.vlb_set == TvlbClass::All ? "" : vlb_set_text(c);
       },
       family_names + " with ugal.vlb_set all"},
      {"ugal.segment_link", family, family_names},
      {"ugal.multiplier", routings({R::UgalL, R::Par, R::Pb, R::PbAcor, R::TugalL, R::TPar}),
       "ugal-l, par, pb, pb-acor, t-ugal-l, t-par"},
      {"ugal.vlb_set", family, family_names},
      {"ugal.vlb_percent", with_tvlb, family_names + " with a T-VLB set (ugal.vlb_set other than all)"},
      {"ugal.vlb_seed",
       [in_family](const SimConfig& c) -> std::string {
         if (!in_family(c)) return routing_text(c);
         return c.routing_prm.ugal.vlb_percent > 0 ? "" : routing_text(c) + " with ugal.vlb_percent 0";
       },
       family_names + " with ugal.vlb_percent above 0"},
      {"tugal.paths", with_tvlb, family_names + " with a T-VLB set (ugal.vlb_set other than all)"},
      {"tugal.tau_global", with_tvlb, family_names + " with a T-VLB set (ugal.vlb_set other than all)"},
      {"tugal.tau_local", with_tvlb, family_names + " with a T-VLB set (ugal.vlb_set other than all)"},
      {"tugal.par_set", routings({R::Par, R::TPar}), "par and t-par with a T-VLB set"},
      {"ugal_g.view", mechanisms([](const RoutingMechanism& m) { return m.global_load; }),
       names_of([](const RoutingMechanism& m) { return m.global_load; }) + " (the view of every queue)"},
      {"pb.", mechanisms([](const RoutingMechanism& m) { return m.sat_flags; }),
       names_of([](const RoutingMechanism& m) { return m.sat_flags; }) + " (Piggyback's saturation flags)"},
  };
  const Row* prev = nullptr;
  for (const Row& row : rows) {
    const Row& use = row.inert_with ? row : *prev;  // a row without a rule reads as the one above
    if (row.inert_with) prev = &row;
    size_t hits = 0;
    for (KeySpec& k : t) {
      const bool group = row.key.back() == '.';
      if (group ? k.path.compare(0, row.key.size(), row.key) != 0 : k.path != row.key) continue;
      k.inert_with = use.inert_with;
      k.used_by = use.used_by;
      ++hits;
    }
    if (hits == 0) throw std::logic_error("read_by: no config key '" + row.key + "'");
  }
  // A plug-in's keys: read by that plug-in alone.
  for (const auto& [group, mech] : plugin_groups) {
    const RoutingMechanism* m = find_routing(mech);
    if (!m) continue;
    const RoutingAlgo algo = algo_of(*m);
    for (KeySpec& k : t)
      if (k.path.compare(0, group.size() + 1, group + ".") == 0) {
        k.inert_with = [algo](const SimConfig& c) -> std::string { return c.routing == algo ? "" : routing_text(c); };
        k.used_by = mech + " (its plug-in key)";
      }
  }
}

// The keys, section by section, in the order they are read and documented (one function a
// section: one function of 1,000 lines took the optimizer minutes).
// topology
void add_topology_keys(std::vector<KeySpec>& t) {
  std::vector<std::tuple<std::string, TopologyKind, std::string>> kinds = {
      {"dragonfly", TopologyKind::Dragonfly, ""}, {"torus", TopologyKind::Torus, "k-ary n-cube"}, {"mesh", TopologyKind::Mesh, ""}};
  std::string plugin_doc;
  for (const TopologyPlugin* p : topology_plugins()) {
    kinds.emplace_back(p->name, kind_of(*p), "a plug-in");
    plugin_doc += "; " + p->name + " (a plug-in: " + p->doc + ")";
  }
  K(t, "topology.kind")
      .choice(kinds, [](SimConfig& c) -> TopologyKind& { return c.topo_kind; })
      .def(sv("dragonfly"))
      // A Dragonfly's echo has no "kind" key, as before tori existed, so that sweep
      // databases keyed by the echo keep resuming; a torus or mesh names its kind.
      .echo_if([](const SimConfig& c) { return !dfly(c); }, "echoed when not dragonfly")
      .doc("dragonfly", "",
           "the network: a Dragonfly (keys p, a, h, g, arrangement) or a k-ary n-cube torus or mesh (keys k, n, p, "
           "terminal_ports; topologies/torus.h), or a registered plug-in topology (keys p and its own, "
           "topology.<name>.*; topologies/registry.h)" + plugin_doc + "; the other kinds' keys are unknown keys");
  K(t, "topology.p")
      .integer(1, 250, "hosts per switch")
      .def([](const ParseState& s) {
        const TopologyPlugin* p = topology_plugin(s.c.topo_kind);
        return iv(p ? p->default_p : dfly(s.c) ? 2 : 1);
      })
      .set([](ParseState& s, const KeyValue& v) {
        if (topology_plugin(s.c.topo_kind)) s.c.topo_plugin["p"] = v.i;
        else (dfly(s.c) ? s.c.topology.p : s.c.torus.p) = static_cast<int>(v.i);
      })
      .echo([](const SimConfig& c) {
        if (topology_plugin(c.topo_kind)) return nlohmann::json(c.topo_plugin.at("p"));
        return nlohmann::json(dfly(c) ? c.topology.p : c.torus.p);
      })
      .doc("2 (torus/mesh 1; a plug-in: its default)", "1–250", "hosts per switch");
  K(t, "topology.a")
      .integer(1, 250)
      .scope(KeyScope::Dragonfly)
      .def(iv(4))
      .bind([](SimConfig& c) -> int& { return c.topology.a; })
      .doc("4", "", "switches per group");
  K(t, "topology.h")
      .integer(1, 250)
      .scope(KeyScope::Dragonfly)
      .def(iv(2))
      .bind([](SimConfig& c) -> int& { return c.topology.h; })
      .doc("2", "", "global ports per switch");
  K(t, "topology.g")
      .integer(2, 1 << 20)
      .scope(KeyScope::Dragonfly)
      .def([](const ParseState& s) { return iv(static_cast<int64_t>(s.c.topology.a) * s.c.topology.h + 1); })
      .bind([](SimConfig& c) -> int& { return c.topology.g; })
      .doc("a·h+1", "2 … a·h+1", "groups");
  K(t, "topology.arrangement")
      .choice(named({Arrangement::Palmtree, Arrangement::Absolute, Arrangement::AbsoluteFsu}),
              [](SimConfig& c) -> Arrangement& { return c.topology.arrangement; })
      .scope(KeyScope::Dragonfly)
      .def(sv("palmtree"))
      .doc("palmtree", "palmtree (needs g=a·h+1), absolute (needs (g−1) | a·h), absolute-fsu (the same where its wiring works)",
           "global-link arrangement (topologies/dragonfly.h; absolute-fsu: the T-UGAL authors' BookSim wiring)");
  K(t, "topology.k")
      .integer(2, 1 << 20, "switches per dimension")
      .scope(KeyScope::Torus)
      .def(iv(8))
      .bind([](SimConfig& c) -> int& { return c.torus.k; })
      .doc("8", "≥ 2 (k^n ≤ 2^20)", "switches per dimension");
  K(t, "topology.n")
      .integer(1, Torus::kMaxDims, "dimensions")
      .scope(KeyScope::Torus)
      .def(iv(2))
      .bind([](SimConfig& c) -> int& { return c.torus.n; })
      .doc("2", "1–6", "dimensions");
  K(t, "topology.terminal_ports")
      .integer(1, 8, "ports per host (phits/cycle each way)")
      .scope(KeyScope::Torus)
      .def(iv(1))
      .bind([](SimConfig& c) -> int& { return c.torus.w; })
      // Only when not 1, so that sweep databases of single-port tori keep resuming.
      .echo_if([](const SimConfig& c) { return c.torus.w != 1; }, "echoed when not 1")
      .doc("1", "1–8",
           "ports per host, each 1 phit/cycle each way, so a node injects and ejects up to w "
           "phits/cycle and `load` may go up to w (the GAL paper's NN row needs 2n; docs/model.md)");
  // A plug-in topology's own keys, topology.<name>.<key> (topologies/registry.h).
  for (const TopologyPlugin* p : topology_plugins()) {
    const TopologyKind kind = kind_of(*p);
    for (const TopologyKey& tk : p->keys) {
      const std::string name = tk.name;
      K(t, "topology." + p->name + "." + tk.name)
          .integer(tk.min, tk.max)
          .plugin_scope(kind)
          .def(iv(tk.def))
          .set([name](ParseState& s, const KeyValue& v) { s.c.topo_plugin[name] = v.i; })
          .echo([name](const SimConfig& c) { return nlohmann::json(c.topo_plugin.at(name)); })
          .doc(std::to_string(tk.def), std::to_string(tk.min) + "–" + std::to_string(tk.max), tk.doc);
    }
  }
}

// routing
void add_routing_keys(std::vector<KeySpec>& t, std::vector<std::pair<std::string, std::string>>& plugin_groups) {
  K(t, "routing")
      .choice(routing_options(), [](SimConfig& c) -> RoutingAlgo& { return c.routing; })
      .def([](const ParseState& s) {
        if (topology_plugin(s.c.topo_kind)) {  // the first mechanism registered for it
          for (const RoutingMechanism* m : routing_mechanisms())
            if (m->routes_on(s.c.topo_kind)) return sv(m->name);
          return sv("none");
        }
        return sv(dfly(s.c) ? "min" : "dor");
      })
      .expected_of([](const ParseState&) { return routing_choices(); })
      .check([](const ParseState& s, const KeyValue& v) -> std::string {
        RoutingAlgo r;
        const SimConfig& c = s.c;
        if (!parse_routing(v.s, r)) {  // only the default "none" of a plug-in topology gets here
          return "config key 'routing': topology " + std::string(to_string(c.topo_kind)) +
                 " (a plug-in) has no routing mechanism registered for it (RoutingMechanism::topologies)";
        }
        const bool mesh = c.topo_kind == TopologyKind::Mesh;
        if (mechanism(r).routes_on(c.topo_kind)) return "";
        std::string use = routing_names(c.topo_kind, true);
        if (use.empty()) use = "a routing plug-in registered for it (none is)";
        if (mesh) {  // the torus mechanisms a mesh lacks
          std::vector<std::string> wrap;
          for (const RoutingMechanism* m : routing_mechanisms())
            if (m->torus && !m->mesh) wrap.push_back(m->name);
          std::string w;
          for (size_t i = 0; i < wrap.size(); ++i) w += (i ? (i + 1 == wrap.size() ? " and " : ", ") : "") + wrap[i];
          if (!wrap.empty()) use += " (" + w + " need the wrap links of a torus)";
        }
        return "config key 'routing': value '" + v.s + "' is not allowed on " + s.topo->describe() + "; use " + use;
      })
      .doc("min (torus/mesh: dor)", routing_choices(),
           "routing mechanism, one of the registered mechanisms (`scfly keys --routings` lists them with their VC "
           "budgets; torus family: `routing_units/torus_routing.h`, docs/model.md) (`min-table`: MIN by "
           "lookup in the switch's conditional forwarding table alone, identical results to `min`; `min-cond`: "
           "MIN-COND, minimal through the conditional table with a misroute at injection when N > P[minimal port], "
           "QCN-Switch paper sec. 3.1.1; `scfly table CONFIG --switch N [--at CYCLE]` prints a table, live at CYCLE)");
  // A plug-in mechanism's own keys (registry.h), `<name>.<key>` with the name's '-' as '_'
  // (as min_cond.* for min-cond), echoed when it routes. Their groups are checked against
  // scfly's own at the end of build().
  plugin_groups.clear();
  for (const RoutingMechanism* m : routing_mechanisms()) {
    const RoutingAlgo algo = algo_of(*m);
    std::string prefix = m->name;
    std::replace(prefix.begin(), prefix.end(), '-', '_');
    if (!m->keys.empty()) plugin_groups.emplace_back(prefix, m->name);
    for (const RoutingKey& rk : m->keys) {
      K k(t, prefix + "." + rk.name);
      if (rk.integer)
        k.integer(static_cast<int64_t>(rk.min), static_cast<int64_t>(rk.max)).def(iv(static_cast<int64_t>(rk.def)));
      else
        k.real(rk.min, rk.max, "a number in [" + fmt_num(rk.min) + ", " + fmt_num(rk.max) + "]", true).def(rv(rk.def));
      // Scoped to the one kind of topology it routes on; on several kinds, any.
      const bool other = !m->topologies.empty(), tor = m->torus || m->mesh;
      if (m->dragonfly && !tor && !other) k.scope(KeyScope::Dragonfly);
      if (!m->dragonfly && tor && !other) k.scope(KeyScope::Torus);
      if (!m->dragonfly && !tor && m->topologies.size() == 1)
        if (const TopologyPlugin* tp = find_topology_plugin(m->topologies.front())) k.plugin_scope(kind_of(*tp));
      const bool integer = rk.integer;
      const std::string name = plugin_key(*m, rk.name);  // (two plug-ins' keys of one name stay apart)
      k.set([integer, name](ParseState& st, const KeyValue& v) {
         st.c.routing_prm.plugin[name] = integer ? static_cast<double>(v.i) : v.r;
       })
          .echo([integer, name](const SimConfig& c) {
            const auto it = c.routing_prm.plugin.find(name);
            const double x = it == c.routing_prm.plugin.end() ? 0.0 : it->second;
            return integer ? nlohmann::json(static_cast<int64_t>(x)) : nlohmann::json(x);
          })
          .echo_if([algo](const SimConfig& c) { return c.routing == algo; }, "echoed for routing " + m->name)
          .doc(fmt_num(rk.def), "", rk.doc + " (plug-in " + m->name + ")");
    }
  }
  // (Which routings read each plug-in key: read_by() at the end.)
}

// MIN-COND and QCN-Switch
void add_qcn_keys(std::vector<KeySpec>& t) {
  K(t, "min_cond.trigger")
      .choice(std::vector<std::tuple<std::string, MinCondTrigger, std::string>>{
                  {"qcn", MinCondTrigger::Qcn, "QCN-Switch port probabilities"},
                  {"pause", MinCondTrigger::Pause, "the minimal output's pause state"}},
              [](SimConfig& c) -> MinCondTrigger& { return c.routing_prm.trigger; })
      .def(sv("qcn"))
      .doc("qcn", "",
           "what sets MIN-COND's port probabilities: QCN-Switch (CNMs, below), or the minimal output's pause state "
           "(P = 0 while its first VC is paused under PFC, or has credits for less than a packet under credit flow "
           "control; the conditional routing of the QCN-Switch paper, sec. 2.2 [7])");
  K(t, "qcn.sampling")
      .choice(std::vector<std::tuple<std::string, QcnSampling, std::string>>{
                  {"output", QcnSampling::Output, "output buffers of transit ports"},
                  {"input", QcnSampling::Input, ""}},
              [](SimConfig& c) -> QcnSampling& { return c.routing_prm.qcn.sampling; })
      .def(sv("output"))
      .doc("output", "",
           "QCN congestion point on the output buffers of transit ports (802.1Qau; the paper's final design) or on "
           "their input buffers ([Neeser12])");
  K(t, "qcn.sampling_clock")
      .choice(std::vector<std::tuple<std::string, QcnClock, std::string>>{
                  {"packets", QcnClock::Packets, "one sample per CPC packets entering the queue"},
                  {"time", QcnClock::Time, "one per CPC packet times"}},
              [](SimConfig& c) -> QcnClock& { return c.routing_prm.qcn.clock; })
      .def(sv("packets"))
      .doc("packets", "",
           "what paces the samples: one per CPC data packets entering the sampled queue (the paper), or one per CPC "
           "packet times (CPC × packet_phits cycles) whatever flows, so a paused congested port is sampled too "
           "(FOGSim samples on a cycle counter)");
  K(t, "qcn.feedback_comparison")
      .boolean()
      .def(bv(true))
      .bind([](SimConfig& c) -> bool& { return c.routing_prm.qcn.feedback_comparison; })
      .doc("true", "",
           "feedback comparison (QCN-Switch paper, sec. 3.2): compare each CNM's Fb with the average LastFb over the switch's transit "
           "ports");
  K(t, "qcn.source_processing")
      .boolean()
      .def(bv(false))
      .bind([](SimConfig& c) -> bool& { return c.routing_prm.qcn.source_processing; })
      .doc("false", "bool, input sampling only", "a CP also applies its CNM to its own port toward the victim (QCN-Switch paper, sec. 3.3.1)");
  K(t, "qcn.qeq")
      .real(0.0, 1.0, "a fraction of the sampled buffer in (0, 1] (Table I: 0.2)")
      .def(rv(0.2))
      .bind([](SimConfig& c) -> double& { return c.routing_prm.qcn.qeq; })
      .doc("0.2", "",
           "Q_eq as a fraction of one VC buffer of the sampled side of the port (Table I: 20 %); Q sums the port's "
           "data VCs (output sampling: its output queue, docs/model.md)");
  K(t, "qcn.w")
      .integer(0, 64)
      .def(iv(0))
      .bind([](SimConfig& c) -> uint32_t& { return c.routing_prm.qcn.w; })
      .doc("0", "", "weight of Q_δ in Fb (Table I: 0; QCN's own default 2)");
  K(t, "qcn.cpc")
      .integer(1, 1000000, "packets between samples")
      .def(iv(100))
      .bind([](SimConfig& c) -> uint32_t& { return c.routing_prm.qcn.cpc; })
      .doc("100", "1–10^6 packets", "congestion point cycle: one sample per CPC data packets entering the sampled buffer");
  K(t, "qcn.cnm_percent")
      .integer(0, 100, "percent")
      .def(iv(30))
      .bind([](SimConfig& c) -> uint32_t& { return c.routing_prm.qcn.cnm_percent; })
      .doc("30", "0–100", "% of congested samples (Fb > 0) that emit a CNM");
  K(t, "qcn.lf")
      .text("a reduction factor written 1/D with D an integer in [1, 65536] (Table I: 1/64)")
      .def(sv("1/64"))
      .check([](const ParseState&, const KeyValue& v) -> std::string {
        const std::string& lf = v.s;
        const std::string bad = "config key 'qcn.lf': value '" + lf +
                                "' is not allowed; expected a reduction factor written 1/D with D an integer in "
                                "[1, 65536] (Table I: 1/64)";
        if (lf.size() < 3 || lf.compare(0, 2, "1/") != 0) return bad;
        size_t used = 0;
        int64_t den = 0;
        try {
          den = std::stoll(lf.substr(2), &used);
        } catch (const std::exception&) {
          return bad;
        }
        return used != lf.size() - 2 || den < 1 || den > 65536 ? bad : "";
      })
      .set([](ParseState& s, const KeyValue& v) { s.c.routing_prm.qcn.lf_den = static_cast<uint32_t>(std::stoll(v.s.substr(2))); })
      .echo([](const SimConfig& c) { return nlohmann::json("1/" + std::to_string(c.routing_prm.qcn.lf_den)); })
      .doc("1/64", "`1/D`, D = 1–65536", "reduction limiting factor L_f: P ×= 1 − L_f·Fb (floored at `qcn.p_min`)");
  K(t, "qcn.pc_limit")
      .integer(1, 1000000, "packets per increase")
      .def(iv(100))
      .bind([](SimConfig& c) -> uint32_t& { return c.routing_prm.qcn.pc_limit; })
      .doc("100", "1–10^6 packets", "PC_l: +PI every PC_l packets through a transit port without a CNM");
  K(t, "qcn.pi")
      .real(0.0, 100.0, "a probability increase in (0, 100] percentage points (Table I: 1)")
      .def(rv(1.0))
      .set([](ParseState& s, const KeyValue& v) { s.c.routing_prm.qcn.pi = std::max<uint32_t>(1, to_qcn_fixed(v.r)); })
      .echo([](const SimConfig& c) { return nlohmann::json(static_cast<double>(c.routing_prm.qcn.pi) / kQcnOne); })
      .doc("1", "(0, 100] percentage points", "PI, the additive increase (fixed point 2^-16 %)");
  K(t, "qcn.th1")
      .integer(0, 63, "(6-bit feedback units)")
      .def(iv(0))
      .bind([](SimConfig& c) -> uint32_t& { return c.routing_prm.qcn.th1; })
      .doc("0", "", "feedback-comparison window: increase iff Fb ≤ avg − Th1");
  K(t, "qcn.th2")
      .integer(0, 63, "(6-bit feedback units)")
      .def(iv(30))
      .bind([](SimConfig& c) -> uint32_t& { return c.routing_prm.qcn.th2; })
      .doc("30", "", "feedback-comparison window: decrease by 1 − L_f(Fb − avg) iff Fb ≥ avg + Th2");
  K(t, "qcn.p_min")
      .real(0.0, 100.0, "a probability floor in [0, 100] percent (default 0)", true)
      .def(rv(0.0))
      .set([](ParseState& s, const KeyValue& v) { s.c.routing_prm.qcn.p_min = to_qcn_fixed(v.r); })
      .echo([](const SimConfig& c) { return nlohmann::json(static_cast<double>(c.routing_prm.qcn.p_min) / kQcnOne); })
      .doc("0", "[0, 100] percent", "probability floor (not in the paper; FOGSim's QCN_MIN_RATE)");
  K(t, "qcn.cnm_phits")
      .integer(1, 4096, "phits (default: one data packet)")
      .def(iv(0))  // 0: packet_phits, resolved once that is read
      .bind([](SimConfig& c) -> uint16_t& { return c.routing_prm.qcn.cnm_phits; })
      .doc("packet_phits", "1–4096, at most every local/global buffer",
           "CNM frame size (FOGSim sends packet-sized CNMs)");
  K(t, "qcn.cp_queue")
      .choice(std::vector<std::tuple<std::string, QcnCpQueue, std::string>>{
                  {"waiting", QcnCpQueue::Waiting, "output VCs + input VCs waiting for the port"},
                  {"output", QcnCpQueue::Output, "the output VCs only (FOGSim)"}},
              [](SimConfig& c) -> QcnCpQueue& { return c.routing_prm.qcn.cp_queue; })
      .def(sv("waiting"))
      // Added after sweep databases existed: echoed only when output, so stored points keep their hash.
      .echo_if([](const SimConfig& c) { return c.routing_prm.qcn.cp_queue != QcnCpQueue::Waiting; },
               "echoed when output")
      .doc("waiting", "waiting, output; output needs qcn.sampling output",
           "what an output congestion point reads as the port's queue Q: `waiting`, the port's output data VCs plus "
           "the landed phits of every input data VC whose routed head waits for the port (the virtual output queue), "
           "the culprit being the packet whose arrival was sampled; `output`, the port's output data VCs only, the "
           "culprit being the first data packet in them (FOGSim's IOQ congestion point reads its output FIFO and "
           "takes the first non-CNM packet from the head; an empty output queue sends no CNM). An output VC is "
           "filled by one connection at a time, so with `switch.crossbar: connections` (one phit per cycle, the "
           "link's rate) a port whose traffic takes one VC never queues more than about a packet there: use "
           "`output` with `switch.crossbar: transfer`, as FOGSim's IOQ switch does");
  K(t, "qcn.local_update_port")
      .choice(std::vector<std::tuple<std::string, QcnLocalPort, std::string>>{
                  {"sampled", QcnLocalPort::Sampled, "the port whose congestion point fired"},
                  {"minimal", QcnLocalPort::Minimal, "the culprit's minimal output port (FOGSim)"}},
              [](SimConfig& c) -> QcnLocalPort& { return c.routing_prm.qcn.local_port; })
      .def(sv("sampled"))
      // Added after sweep databases existed: echoed only when minimal, so stored points keep their hash.
      .echo_if([](const SimConfig& c) { return c.routing_prm.qcn.local_port != QcnLocalPort::Sampled; },
               "echoed when minimal")
      .doc("sampled", "sampled, minimal",
           "the port a local update decreases (a congested sample whose culprit came from one of the switch's own "
           "hosts, so its CNM would come back to this switch): `sampled`, the port whose congestion point fired; "
           "`minimal`, the culprit's minimal output port at this switch, as FOGSim does (they differ when the "
           "culprit was misrouted through the sampled port)");
}

// GAL (tori)
void add_gal_keys(std::vector<KeySpec>& t) {
  K(t, "gal.sets")
      .choice(std::vector<std::tuple<std::string, GalSets, std::string>>{
                  {"all", GalSets::All, "one set per destination, the paper's S = N"},
                  {"1", GalSets::One, ""},
                  {"2", GalSets::Two, "near/far"},
                  {"4", GalSets::Quadrant, "by the minimal quadrant: 2^n sets"}},
              [](SimConfig& c) -> GalSets& { return c.routing_prm.gal.sets; })
      .def(sv("all"))
      // Absent from a Dragonfly's echo: its sweep keys stay as they were before tori.
      .echo_if(torus_kind, "echoed for a torus or mesh")
      .doc("all", "",
           "GAL destination sets (GAL §V.B): one per destination switch (the paper's S = N), one, near/far (far: "
           "minimal distance > k/4 in some dimension), or by the minimal quadrant's sign vector (2^n sets; 4 on a 2-D "
           "torus)");
  K(t, "gal.queue_depth")
      .integer(1, 65535, "packets per injection queue")
      .def(iv(128))
      .bind([](SimConfig& c) -> uint32_t& { return c.routing_prm.gal.queue_depth; })
      .echo_if(torus_kind, "echoed for a torus or mesh")
      .doc("128", "1–65535 packets", "each injection queue's depth (a full chosen queue holds the source queue's head back)");
  K(t, "gal.adaptive")
      .boolean()
      .def(bv(true))
      .bind([](SimConfig& c) -> bool& { return c.routing_prm.gal.threshold.adaptive; })
      .echo_if(torus_kind, "echoed for a torus or mesh")
      .doc("true", "", "adaptive threshold (GAL §IV.E); false: T stays `gal.threshold`");
  K(t, "gal.t_min")
      .integer(0, 65535, "packets")
      .def(iv(2))
      .bind([](SimConfig& c) -> uint32_t& { return c.routing_prm.gal.threshold.t_min; })
      .echo_if(torus_kind, "echoed for a torus or mesh")
      .doc("2", "0–65535 packets", "the adaptive threshold's lower clamp (Fig. 14: 2)");
  K(t, "gal.t_max")
      .integer(0, 65535, "packets")
      .def([](const ParseState& s) { return iv(s.c.routing_prm.gal.queue_depth); })
      .bind([](SimConfig& c) -> uint32_t& { return c.routing_prm.gal.threshold.t_max; })
      .echo_if(torus_kind, "echoed for a torus or mesh")
      .doc("queue_depth", "0–65535 packets", "the adaptive threshold's upper clamp (Fig. 14: 128)");
  K(t, "gal.threshold")
      .integer(0, 65535, "packets (the fixed T, or the adaptive controller's initial T)")
      .def([](const ParseState& s) { return iv(s.c.routing_prm.gal.threshold.t_min); })
      .bind([](SimConfig& c) -> uint32_t& { return c.routing_prm.gal.threshold.t0; })
      .echo_if(torus_kind, "echoed for a torus or mesh")
      .doc("t_min", "packets, in [t_min, t_max] when adaptive", "the fixed T, or the controller's initial T");
  K(t, "gal.tie")
      .choice(std::vector<std::tuple<std::string, GalTie, std::string>>{
                  {"lower", GalTie::Lower, "the rule as published: dD >= 0 lowers T"},
                  {"hold", GalTie::Hold, "dD = 0 leaves T unchanged"},
                  {"raise", GalTie::Raise, "dD <= 0 raises T: T falls only when the departures rose"}},
              [](SimConfig& c) -> GalTie& { return c.routing_prm.gal.threshold.tie; })
      .def(sv("lower"))
      .echo_if([](const SimConfig& c) { return c.routing_prm.gal.threshold.tie != GalTie::Lower; },
               "echoed when not lower")
      .doc("lower", "",
           "what a threshold update with unchanged departures (dD = 0) does (GAL §IV.E): lower T (the rule as "
           "published; drifts to t_min in a steady state), hold it, or raise it (stable past saturation; "
           "docs/repro-gal.md)");
  K(t, "gal.n1")
      .integer(1, 1000000, "cycles")
      .def(iv(50))
      .bind([](SimConfig& c) -> uint32_t& { return c.routing_prm.gal.threshold.n1; })
      .echo_if(torus_kind, "echoed for a torus or mesh")
      .doc("50", "1–10^6 cycles", "departure window n1 (Fig. 14)");
  K(t, "gal.n2")
      .integer(1, 1000000, "cycles")
      .def(iv(20))
      .bind([](SimConfig& c) -> uint32_t& { return c.routing_prm.gal.threshold.n2; })
      .echo_if(torus_kind, "echoed for a torus or mesh")
      .doc("20", "1–10^6 cycles", "update period n2 (Fig. 14)");
}

// The torus VC rule (torus_routing.h, Datelines)
void add_torus_keys(std::vector<KeySpec>& t) {
  K(t, "torus.dateline")
      .choice(std::vector<std::tuple<std::string, TorusDateline, std::string>>{
                  {"wrap", TorusDateline::Wrap, "class 1 from the wrap link on"},
                  {"traversal", TorusDateline::Traversal, "class 1 for a whole traversal that crosses the wrap link"}},
              [](SimConfig& c) -> TorusDateline& { return c.routing_prm.dateline; })
      .scope(KeyScope::Torus)
      .def(sv("wrap"))
      // Added after sweep databases existed: echoed only when not wrap, so stored points keep their hash.
      .echo_if([](const SimConfig& c) { return c.routing_prm.dateline != TorusDateline::Wrap; },
               "echoed when not wrap")
      .doc("wrap", "",
           "when a hop in a dimension takes dateline class 1 (the upper of its two VC classes): `wrap`, once the "
           "packet crosses the dimension's wrap link; `traversal`, for every hop of a traversal that crosses it, "
           "before or after the hop (BookSim2's dim_order_torus: a packet that will wrap starts on class 1, which "
           "spreads the traversals over both classes); deadlock-free for minimal traversals, so GOAL and GAL keep "
           "`wrap` (docs/model.md)");
}

// CHAOS (tori)
void add_chaos_keys(std::vector<KeySpec>& t) {
  K(t, "chaos.multiqueue")
      .integer(1, 64, "packets")
      .def(iv(5))
      .bind([](SimConfig& c) -> int& { return c.sw.multiqueue; })
      // Only for routing chaos: the other tori keep their sweep keys.
      .echo_if([](const SimConfig& c) { return c.routing == RoutingAlgo::Chaos; }, "echoed for routing chaos")
      .doc("5", "1–64 packets",
           "CHAOS: packet slots of each switch's multiqueue (blocked transit packets move into it; when full, one is "
           "derouted; rtl_models/switch/switch.h)");
}

// Valiant, ACOR, UGAL, Piggyback (Dragonfly mechanisms; read on every topology)
void add_dragonfly_mechanism_keys(std::vector<KeySpec>& t) {
  K(t, "val.policy")
      .choice(named({Misroute::RrgSw, Misroute::RrgGr, Misroute::CrgSw, Misroute::CrgGr}),
              [](SimConfig& c) -> Misroute& { return c.routing_prm.val.policy; })
      .def(sv("rrg-sw"))
      .expected_of([](const ParseState&) { return std::string(policy_choices()); })
      .doc("rrg-sw", "", "Valiant Phase-A misrouting policy (ACOR paper Table 1)");
  K(t, "val.restricted")
      .boolean()
      .def(bv(false))
      .bind([](SimConfig& c) -> bool& { return c.routing_prm.val.restricted; })
      .doc("false", "", "Restricted Valiant: intra-group traffic misroutes inside its group");
  K(t, "val.recompute")
      .boolean()
      .def(bv(false))
      .bind([](SimConfig& c) -> bool& { return c.routing_prm.val.recompute; })
      .doc("false", "", "redraw the intermediate while the head is blocked at injection");
  K(t, "acor.sequence")
      .choice(named({AcorSequence::TwoLevelA, AcorSequence::TwoLevelB, AcorSequence::ThreeLevel}),
              [](SimConfig& c) -> AcorSequence& { return c.routing_prm.acor.sequence; })
      .def(sv("3l"))
      .doc("3l", "", "ACOR policy sequence (Table 2)");
  K(t, "acor.hi")
      .integer(1, 1LL << 30, "cycles")
      .def(iv(500))
      .bind([](SimConfig& c) -> uint32_t& { return c.routing_prm.acor.ctrl.hi; })
      .doc("500", "", "ACOR-Switch hysteresis interval, cycles");
  K(t, "acor.it1")
      .integer(1, 1LL << 30)
      .def(iv(15))
      .bind([](SimConfig& c) -> uint32_t& { return c.routing_prm.acor.ctrl.it[0]; })
      .doc("15", "", "first increase threshold (blocked attempts per interval)");
  K(t, "acor.it2")
      .integer(1, 1LL << 30)
      // PB-ACOR's Table 3 second threshold is 50 (fewer packets go non-minimal than in ACOR).
      .def([](const ParseState& s) { return iv(s.c.routing == RoutingAlgo::PbAcor ? 50 : 500); })
      .bind([](SimConfig& c) -> uint32_t& { return c.routing_prm.acor.ctrl.it[1]; })
      .doc("500 (PB-ACOR 50)", "", "second increase threshold (blocked attempts per interval)");
  K(t, "acor.dt1")
      .integer(0, 1LL << 30)
      .def(iv(5))
      .bind([](SimConfig& c) -> uint32_t& { return c.routing_prm.acor.ctrl.dt[0]; })
      .doc("5", "0 … it1", "first decrease threshold");
  K(t, "acor.dt2")
      .integer(0, 1LL << 30)
      .def(iv(15))
      .bind([](SimConfig& c) -> uint32_t& { return c.routing_prm.acor.ctrl.dt[1]; })
      .doc("15", "0 … it2", "second decrease threshold");
  K(t, "ugal.threshold")
      .integer(kThresholdMin, kThresholdMax, "(phits x hops, 24-bit signed as the RTL)")
      .def(iv(0))
      .bind([](SimConfig& c) -> int64_t& { return c.routing_prm.ugal.threshold; })
      .doc("0", "integer (phits × hops), 24-bit signed",
           "UGAL T: minimal iff q_min·H_min ≤ q_vlb·H_vlb + T (UGAL-L/G, PAR, PB)");
  K(t, "ugal.occupancy")
      .choice(std::vector<std::tuple<std::string, QueueMeasure, std::string>>{
                  {to_string(QueueMeasure::Output), QueueMeasure::Output, "output buffer"},
                  {to_string(QueueMeasure::Credits), QueueMeasure::Credits, "downstream, from credits"},
                  {to_string(QueueMeasure::Both), QueueMeasure::Both, ""}},
              [](SimConfig& c) -> QueueMeasure& { return c.routing_prm.ugal.measure; })
      .def(sv("output"))
      .doc("output", "output, credits, both (credit flow control only)",
           "what a port's queue occupancy counts: output-buffer phits, downstream phits not yet credited, or both");
  K(t, "ugal.occupancy_scope")
      .choice(std::vector<std::tuple<std::string, bool, std::string>>{
                  {"port", false, "summed over the port's VCs"},
                  {"vc", true, "the candidate's output VC"}},
              [](SimConfig& c) -> bool& { return c.routing_prm.ugal.per_vc; })
      .doc("port", "port, vc",
           "UGAL-L, PAR, PB, PB-ACOR: whose occupancy the minimal/Valiant comparison reads: the output port's, summed "
           "over its VCs (`port`), or that of the output VC the candidate would take (`vc`, FOGSim's UGAL and PB); "
           "what it counts is `ugal.occupancy`")
      .def(sv("port"))
      // Added after sweep databases existed: echoed only when vc, so stored points keep their hash.
      .echo_if([](const SimConfig& c) { return c.routing_prm.ugal.per_vc; }, "echoed when vc");
  K(t, "ugal_g.view")
      .choice(std::vector<std::tuple<std::string, UgalGView, std::string>>{
                  {"exact", UgalGView::Exact, "every queue as it was at the end of the previous cycle"},
                  {"block", UgalGView::Block,
                   "every queue as it was at the end of the last cycle before the current block"}},
              [](SimConfig& c) -> UgalGView& { return c.ugal_g_view; })
      .scope(KeyScope::Dragonfly)
      .def(sv("exact"))
      // Added after sweep databases existed: echoed only when not exact, so stored points keep their hash.
      .echo_if([](const SimConfig& c) { return c.ugal_g_view != UgalGView::Exact; }, "echoed when not exact")
      .doc("exact", "",
           "UGAL-G's global view: `exact`, every switch's queues one cycle old (the paper's oracle, which the "
           "SystemC kernel drives: every switch reads every other's state each cycle); `block`, as of the end of "
           "the cycle before the current block of B cycles (B the shortest switch-to-switch link latency, cycles "
           "counted from 0), up to B cycles old, which the block scheduler and its threads run (a departure from "
           "the paper, for runs at scale; docs/model.md)");
  K(t, "ugal.reevaluate")
      .run_only()
      .choice(std::vector<std::tuple<std::string, UgalReeval, std::string>>{
                  {"once", UgalReeval::Once, "the choice made at first routing stands"},
                  {"blocked", UgalReeval::Blocked, "made again each cycle the head waits at injection (FOGSim's PB)"},
                  {"minimal", UgalReeval::Minimal, "made again while minimal; a Valiant choice stands (FOGSim's UGAL)"}},
              [](SimConfig& c) -> UgalReeval& { return c.routing_prm.ugal.reevaluate; })
      .def(sv("once"))
      .check([](const ParseState& s, const KeyValue& v) -> std::string {
        if (v.s != "once" && s.c.routing == RoutingAlgo::Pb && s.c.routing_prm.val.recompute)
          return "config key 'ugal.reevaluate': value '" + v.s +
                 "' keeps the Valiant intermediate while val.recompute true redraws it; choose one";
        return "";
      })
      .doc("once", "",
           "UGAL-L, UGAL-G, PAR, T-UGAL, PB: whether a head waiting at the injection buffer without a crossbar grant "
           "makes the minimal/Valiant choice again the next cycle, against the same candidates (the same Valiant "
           "intermediate and links) and the occupancies of that cycle: `once`, never; `blocked`, every such cycle, "
           "either way (FOGSim's PB); `minimal`, while its choice is minimal, a Valiant choice standing (FOGSim's "
           "UGAL)")
      // Added after sweep databases existed: echoed only away from once, so stored points keep their hash.
      .echo_if([](const SimConfig& c) { return c.routing_prm.ugal.reevaluate != UgalReeval::Once; }, "echoed when not once");
  // The T-UGAL paper's baseline UGAL as options (ugal.h); added after sweep databases existed,
  // so echoed only away from the default (every stored point keeps its hash).
  K(t, "ugal.intermediate")
      .choice(std::vector<std::tuple<std::string, UgalIntermediate, std::string>>{
                  {"any", UgalIntermediate::Any, "as val.policy draws it"},
                  {"other-groups", UgalIntermediate::OtherGroups, "outside the source and destination groups"}},
              [](SimConfig& c) -> UgalIntermediate& { return c.routing_prm.ugal.intermediate; })
      .def(sv("any"))
      .check([](const ParseState& s, const KeyValue& v) -> std::string {
        if (v.s != "other-groups") return "";
        if (s.c.routing == RoutingAlgo::PbAcor)
          return "config key 'ugal.intermediate': value 'other-groups' is not allowed with routing pb-acor, whose "
                 "ACOR level chooses the Valiant policy; use ugal-l, ugal-g, par or pb";
        if (s.c.routing_prm.val.policy != Misroute::RrgSw)
          return "config key 'ugal.intermediate': value 'other-groups' is not allowed with val.policy " +
                 std::string(to_string(s.c.routing_prm.val.policy)) +
                 "; other-groups is a draw of its own (leave val.policy at rrg-sw)";
        return "";
      })
      .echo_if([](const SimConfig& c) { return c.routing_prm.ugal.intermediate != UgalIntermediate::Any; },
               "echoed when not any")
      .doc("any", "",
           "UGAL-L/G, PAR, PB: the Valiant candidate's intermediate: as `val.policy` draws it (rrg-sw: any "
           "switch), or uniform over the switches outside the source and destination groups, another switch of "
           "the group for an intra-group pair (the T-UGAL paper's baseline UGAL as its authors' published simulator draws the intermediate)");
  K(t, "ugal.segment_link")
      .choice(std::vector<std::tuple<std::string, SegmentLink, std::string>>{
                  {"shortest", SegmentLink::Shortest, "a fewest-hop global link"},
                  {"random", SegmentLink::Random, "any link of the group pair"}},
              [](SimConfig& c) -> SegmentLink& { return c.routing_prm.ugal.segment_link; })
      .def(sv("shortest"))
      .echo_if([](const SimConfig& c) { return c.routing_prm.ugal.segment_link != SegmentLink::Shortest; },
               "echoed when not shortest")
      .doc("shortest", "",
           "UGAL-L/G, PAR, PB, PB-ACOR: the global link of each path segment (the minimal candidate and both "
           "Valiant segments): uniform among the fewest-hop links, or among all links joining the two groups, "
           "both Valiant segments drawn at the source (the T-UGAL paper's baseline); the same with one link per "
           "group pair");
  K(t, "ugal.multiplier")
      .choice(std::vector<std::tuple<std::string, UgalMultiplier, std::string>>{
                  {"hops", UgalMultiplier::Hops, "q x path hops"},
                  {"one-vs-two", UgalMultiplier::OneVsTwo, "q_min x 1 against q_vlb x 2"}},
              [](SimConfig& c) -> UgalMultiplier& { return c.routing_prm.ugal.multiplier; })
      .def(sv("hops"))
      .echo_if([](const SimConfig& c) { return c.routing_prm.ugal.multiplier != UgalMultiplier::Hops; },
               "echoed when not hops")
      .doc("hops", "",
           "UGAL-L, PAR, PB, PB-ACOR: minimal iff q_min·H_min ≤ q_vlb·H_vlb + T (H = the candidate's hops), or q_min ≤ "
           "2·q_vlb + T (stock BookSim, the T-UGAL artifact's default)");
  K(t, "ugal.vlb_set")
      .choice(named({TvlbClass::All, TvlbClass::I3, TvlbClass::I4, TvlbClass::I5, TvlbClass::I5Src, TvlbClass::I5Dst,
                     TvlbClass::I6}),
              [](SimConfig& c) -> TvlbClass& { return c.routing_prm.ugal.vlb_set; })
      // T-UGAL's default: the paper's final T-VLB (sec. 4.2) -- i5src where several global
      // links join each group pair (dfly(4,8,4,9) and (4,8,4,17)), every path (i6) where one
      // does (dfly(4,8,4,33)).
      .def([](const ParseState& s) {
        if (!is_tugal(s.c.routing)) return sv("all");
        const auto* d = dynamic_cast<const Dragonfly*>(s.topo.get());
        return sv(d && d->links_per_group_pair() > 1 ? "i5src" : "i6");
      })
      .check([](const ParseState& s, const KeyValue& v) -> std::string {
        if (v.s == "all") {
          if (is_tugal(s.c.routing))
            return "config key 'ugal.vlb_set': value 'all' is not allowed with routing " +
                   std::string(to_string(s.c.routing)) + ", which draws from a T-VLB set; use i3, i4, i5, i5src, "
                   "i5dst or i6 (every path), or routing " + to_string(ugal_base(s.c.routing));
          return "";
        }
        if (s.c.routing == RoutingAlgo::PbAcor)
          return "config key 'ugal.vlb_set': value '" + v.s + "' is not allowed with routing pb-acor, whose ACOR "
                 "level chooses the Valiant policy; use ugal-l, ugal-g, par or pb";
        if (s.c.routing_prm.val.policy != Misroute::RrgSw || s.c.routing_prm.ugal.intermediate != UgalIntermediate::Any)
          return "config key 'ugal.vlb_set': value '" + v.s + "' is a draw of its own; leave val.policy at rrg-sw "
                 "and ugal.intermediate at any";
        return "";
      })
      .echo_if([](const SimConfig& c) { return c.routing_prm.ugal.vlb_set != TvlbClass::All; }, "echoed when not all")
      .doc("all (t-ugal-l/g, t-par: i5src; i6 with one link per group pair)", "",
           "UGAL-L/G, PAR, PB: the Valiant intermediate from a T-VLB set of (this switch, destination switch) "
           "(routing_units/tvlb.h; T-UGAL sec. 3.3): i3, i4, i5 (≤ 3, 4, 5-hop paths), i5src (2-hop then 3-hop "
           "segments: the paper's final T-VLB for dfly(4,8,4,9) and (4,8,4,17)), i5dst, i6 (every intermediate outside "
           "the source and destination groups: the final T-VLB of dfly(4,8,4,33)), with fewest-hop segments "
           "(`ugal.segment_link` then applies to the minimal candidate only: the paper's T-UGAL); all: as "
           "`ugal.intermediate` and `val.policy` say (not with t-ugal-l/g, t-par)");
  K(t, "ugal.vlb_percent")
      .integer(0, 99, "percent")
      .def(iv(0))
      .bind([](SimConfig& c) -> int& { return c.routing_prm.ugal.vlb_percent; })
      .check([](const ParseState& s, const KeyValue& v) -> std::string {
        const TvlbClass c = s.c.routing_prm.ugal.vlb_set;
        if (v.i != 0 && c != TvlbClass::I3 && c != TvlbClass::I4 && c != TvlbClass::I5)
          return "config key 'ugal.vlb_percent': value '" + std::to_string(v.i) + "' needs ugal.vlb_set i3, i4 or i5 "
                 "(the class a fraction of the next class is added to); ugal.vlb_set is '" + to_string(c) + "'";
        return "";
      })
      .echo_if([](const SimConfig& c) { return c.routing_prm.ugal.vlb_percent != 0; }, "echoed when not 0")
      .doc("0", "0–99",
           "with `ugal.vlb_set` i3, i4 or i5: plus this percent of the next class's extra intermediates (i4, i5, "
           "all), a fixed subset per switch pair by a hash of `ugal.vlb_seed`: the T-UGAL paper's Table 1 points "
           "\"≤ k-hop + X %\" (the same sets as `scfly tvlb`)");
  K(t, "ugal.vlb_seed")
      .integer(0, INT64_MAX)
      .def(iv(1))
      .bind([](SimConfig& c) -> uint64_t& { return c.routing_prm.ugal.vlb_seed; })
      .echo_if([](const SimConfig& c) { return c.routing_prm.ugal.vlb_seed != 1; }, "echoed when not 1")
      .doc("1", "≥ 0", "the hash seed of `ugal.vlb_percent`'s subset (`scfly tvlb --set-seed`)");
  // T-VLB Step 2's load-balance removals (tvlb_balance.h); resolved in validate() once every
  // key is read (config.cpp).
  K(t, "tugal.paths")
      .scope(KeyScope::Dragonfly)
      .text("a T-VLB path file written by scfly tvlb CONFIG --paths FILE")
      .def(sv(""))
      .check([](const ParseState& s, const KeyValue& v) -> std::string {
        if (!v.s.empty() && s.c.routing_prm.ugal.vlb_set == TvlbClass::All)
          return "config key 'tugal.paths': value '" + v.s + "' needs a T-VLB set (routing t-ugal-l, t-ugal-g or "
                 "t-par, or ugal.vlb_set other than all)";
        return "";
      })
      .set([](ParseState& s, const KeyValue& v) { s.c.routing_prm.ugal.paths = v.s; })
      .echo([](const SimConfig& c) { return nlohmann::json(c.routing_prm.ugal.paths); })
      .echo_if([](const SimConfig& c) { return !c.routing_prm.ugal.paths.empty(); }, "echoed when given")
      .doc("\"\"", "a file name (relative to the working directory)",
           "T-UGAL: the T-VLB set less Step 2's load-balance removals, from a path file of `scfly tvlb CONFIG "
           "--paths FILE` (made for this topology and this `ugal.vlb_set`/`vlb_percent`/`vlb_seed`, else an "
           "error); replaces `tugal.tau_*`");
  for (const bool global : {true, false}) {
    const std::string key = global ? "tugal.tau_global" : "tugal.tau_local";
    K(t, key)
        .scope(KeyScope::Dragonfly)
        .real(0, 1000, "0 (off) or a bound in [1, 1000] (max / mean usage)", true)
        .def(rv(0))
        .check([key](const ParseState& s, const KeyValue& v) -> std::string {
          if (v.r == 0) return "";
          const std::string val = "config key '" + key + "': value " + nlohmann::json(v.r).dump();
          if (v.r < 1) return val + " is not allowed; use 0 (off) or a bound of at least 1 (max / mean usage)";
          if (s.c.routing_prm.ugal.vlb_set == TvlbClass::All)
            return val + " needs a T-VLB set (routing t-ugal-l, t-ugal-g or t-par, or ugal.vlb_set other than all)";
          if (!s.c.routing_prm.ugal.paths.empty())
            return val + " is not allowed with tugal.paths, whose file holds the removals (set it to 0)";
          return "";
        })
        .set([global](ParseState& s, const KeyValue& v) {
          (global ? s.c.routing_prm.ugal.tau_global : s.c.routing_prm.ugal.tau_local) = v.r;
        })
        .echo([global](const SimConfig& c) {
          return nlohmann::json(global ? c.routing_prm.ugal.tau_global : c.routing_prm.ugal.tau_local);
        })
        .echo_if([global](const SimConfig& c) {
          return (global ? c.routing_prm.ugal.tau_global : c.routing_prm.ugal.tau_local) != 0;
        }, "echoed when not 0")
        .doc("0", "0 or 1–1000",
             global ? "T-VLB Step 2's global balance rule (routing_units/tvlb_balance.h): while the busiest local or "
                      "global channel's mean usage over every switch pair exceeds this × its class's mean, remove "
                      "the (pair, intermediate) that relieves it most, kept only if the imbalance falls (`scfly tvlb "
                      "--paths` uses 1.25; off by default: the paper's final sets are whole classes)"
                    : "T-VLB Step 2's local balance rule: per switch pair and hop position, while a channel's usage "
                      "probability exceeds this × the mean of its group, remove the intermediate loading it most "
                      "if that lowers the pair's worst ratio (a pair keeps at least half its set; `scfly tvlb --paths` uses 2)");
  }
  K(t, "tugal.par_set")
      .scope(KeyScope::Dragonfly)
      .choice(std::vector<std::tuple<std::string, ParSet, std::string>>{
                  {"current", ParSet::Current, "the second switch's set (the paper's artifact)"},
                  {"source", ParSet::Source, "the source switch's set"}},
              [](SimConfig& c) -> ParSet& { return c.routing_prm.ugal.par_set; })
      .def(sv("current"))
      .check([](const ParseState& s, const KeyValue& v) -> std::string {
        if (v.s != "source") return "";
        if (ugal_base(s.c.routing) != RoutingAlgo::Par || s.c.routing_prm.ugal.vlb_set == TvlbClass::All)
          return "config key 'tugal.par_set': value 'source' needs PAR with a T-VLB set (routing t-par, or par with "
                 "ugal.vlb_set other than all); routing " + std::string(to_string(s.c.routing)) +
                 " has no second evaluation from a T-VLB set";
        return "";
      })
      .echo_if([](const SimConfig& c) { return c.routing_prm.ugal.par_set != ParSet::Current; },
               "echoed when not current")
      .doc("current", "",
           "T-PAR's second evaluation (at the source group's second switch): the Valiant intermediate from the T-VLB "
           "set of (that switch, destination), as the T-UGAL artifact does, or of (source switch, destination), "
           "both segments still fewest-hop from the second switch (docs/experiments.md: T-PAR's unfairness)");
  K(t, "pb.cg")
      .integer(1, kCgMax, "percent (10 bits, as the RTL)")
      .def(iv(120))
      .bind([](SimConfig& c) -> uint32_t& { return c.routing_prm.pb.cg; })
      .doc("120", "", "Piggyback: a global link is saturated when q > C_g % × switch average + T_g");
  K(t, "pb.tg")
      .integer(0, kTgMax, "phits (16 bits, as the RTL)")
      .def(iv(5))
      .bind([](SimConfig& c) -> uint32_t& { return c.routing_prm.pb.tg; })
      .doc("5", "", "Piggyback: T_g of the saturation rule above, phits");
  K(t, "pb.delay")
      .integer(1, 1000000, "cycles (the group sees a flag from the next cycle on at the earliest)")
      .def(iv(-1))  // -1: the local link latency, resolved once that is read
      .set([](ParseState& s, const KeyValue& v) { s.pb_delay = v.i; })
      .echo([](const SimConfig& c) { return nlohmann::json(c.routing_prm.pb.delay); })
      .doc("local link latency (torus/mesh 1)", "cycles ≥ 1",
           "delay before the group's other switches see a flag (a switch sees its own flags from the next cycle; "
           "with 0 the result would depend on the order the switches are evaluated in a cycle)");
}

// traffic and the run
void add_run_keys(std::vector<KeySpec>& t) {
  K(t, "traffic")
      .run_only()
      .text("")
      .def(sv("un"))
      .check([](const ParseState& s, const KeyValue& v) -> std::string {
        TrafficSpec spec;
        if (auto why = parse_traffic(v.s, spec); !why.empty())
          return "config key 'traffic': value '" + v.s + "' is not allowed: " + why;
        if (auto why = check_traffic(spec, *s.topo); !why.empty())
          return "config key 'traffic': value '" + v.s + "' is not allowed: " + why;
        return "";
      })
      .set([](ParseState& s, const KeyValue& v) { parse_traffic(v.s, s.c.traffic); })
      .echo([](const SimConfig& c) { return nlohmann::json(to_string(c.traffic)); })
      .doc("un", "see below", "traffic pattern");
  K(t, "load")
      .run_only()
      .real(0.0, 1.0, "")
      // Up to the terminal bandwidth: 1 phit/node/cycle, w with w terminal ports (tori).
      .rhi_of([](const ParseState& s) { return static_cast<double>(s.topo->terminal_ports()); })
      .expected_of([](const ParseState& s) {
        const int w = s.topo->terminal_ports();
        return "an offered load in (0, " +
               (w == 1 ? std::string("1]") : std::to_string(w) + "] (the terminal_ports)") +
               " phits/node/cycle";
      })
      .def(rv(0.1))
      .bind([](SimConfig& c) -> double& { return c.load; })
      .doc("0.1", "(0, 1]; (0, w] with `topology.terminal_ports` w",
           "offered load, phits/node/cycle (at most the node's terminal bandwidth)");
  K(t, "seed")
      .run_only()
      .integer(0, INT64_MAX)
      .def(iv(1))
      .bind([](SimConfig& c) -> uint64_t& { return c.seed; })
      .doc("1", "≥ 0", "run seed (every component derives its own stream)");
  K(t, "warmup_cycles")
      .run_only()
      .integer(0, kBig, "cycles")
      .def(iv(2000))
      .bind([](SimConfig& c) -> uint64_t& { return c.warmup_cycles; })
      .doc("2000", "", "cycles before the measurement window");
  K(t, "measure_cycles")
      .run_only()
      .integer(1, kBig, "cycles")
      .def(iv(10000))
      .bind([](SimConfig& c) -> uint64_t& { return c.measure_cycles; })
      .doc("10000", "", "measurement window");
  K(t, "drain")
      .run_only()
      .boolean()
      .def(bv(false))
      .bind([](SimConfig& c) -> bool& { return c.drain; })
      .doc("false", "", "after the window stop sources and deliver everything");
  K(t, "drain_timeout_cycles")
      .run_only()
      .integer(1, kBig, "cycles")
      .def(iv(1000000))
      .bind([](SimConfig& c) -> uint64_t& { return c.drain_timeout_cycles; })
      .doc("1000000", "", "drain gives up (exit 3) after this");
  K(t, "watchdog_cycles")
      .run_only()
      .integer(100, kBig, "cycles")
      .def(iv(20000))
      .bind([](SimConfig& c) -> uint64_t& { return c.watchdog_cycles; })
      .doc("20000", "≥ 100 cycles, longer than the slowest credit round trip plus a packet",
           "stuck-network detection interval");
  K(t, "packet_phits")
      .integer(1, 4096, "phits")
      .def(iv(8))
      .bind([](SimConfig& c) -> int& { return c.packet_phits; })
      .doc("8", "", "packet length");
  K(t, "phit_bytes")
      .run_only()
      .integer(1, 1 << 20, "bytes")
      .def(iv(25))
      .bind([](SimConfig& c) -> int& { return c.phit_bytes; })
      .doc("25", "", "for byte-sized buffers (25 B = 200 Gb/s at 1 GHz)");
  K(t, "clock_ghz")
      .run_only()
      // At most 250 GHz: a cycle of at least 4 ps, SystemC's default time resolution being
      // 1 ps (the clock's low half and the RTL clock's quarter-cycle offset must not round
      // to zero; at 1000 GHz SystemC stopped with its error E103).
      .real(0.0, 250.0, "a clock frequency in (0, 250] GHz (a cycle must last at least 4 ps, 4 steps of SystemC's 1 ps time resolution)")
      .def(rv(1.0))
      .bind([](SimConfig& c) -> double& { return c.clock_ghz; })
      .doc("1.0", "(0, 250]", "network clock (a cycle of at least 4 ps: SystemC's time resolution is 1 ps)");
}

// the switch
void add_switch_keys(std::vector<KeySpec>& t) {
  K(t, "switch.speedup")
      .run_only()
      .integer(1, 8)
      .def(iv(2))
      .bind([](SimConfig& c) -> int& { return c.sw.speedup; })
      .doc("2", "", "crossbar speedup S");
  K(t, "switch.allocator_iterations")
      .run_only()
      .integer(1, 8, "passes")
      .def(iv(1))
      .bind([](SimConfig& c) -> int& { return c.sw.allocator_iterations; })
      // Added after sweep databases existed: echoed only away from 1, so stored points keep their hash.
      .echo_if([](const SimConfig& c) { return c.sw.allocator_iterations != 1; }, "echoed when not 1")
      .doc("1", "1–8",
           "request-grant passes of the switch's allocator (`switch.allocator`) per cycle: in a later pass every input "
           "with fewer connections than it may hold requests again, for its VCs not granted yet, among the output VCs and "
           "output ports still free (a request that lost to another input's grant may find another candidate); "
           "round-robin pointers move on every grant, with `islip` on the first pass's only (FOGSim's "
           "`ArbiterIterations`, 2 in its example configuration)");
  std::vector<std::tuple<std::string, AllocatorKind, std::string>> allocators = {
      {"separable-input", AllocatorKind::SeparableInput,
       "input-first: each input offers round-robin VCs, each output grants in its order"},
      {"separable-output", AllocatorKind::SeparableOutput,
       "output-first: each output grants among all requests, each input accepts round-robin"},
      {"wavefront", AllocatorKind::Wavefront,
       "a VC per input and output port, then a wavefront over the port matrix, rotating diagonal"},
      {"islip", AllocatorKind::Islip, "iSLIP: request, grant, accept; pointers move on first-iteration grants only"}};
  std::string plugin_allocators;
  for (const AllocatorPlugin* p : allocator_plugins()) {
    allocators.emplace_back(p->name, kind_of(*p), "a plug-in: " + p->doc);
    plugin_allocators += "; " + p->name + " (a plug-in: " + p->doc + ")";
  }
  K(t, "switch.allocator")
      .run_only()
      .choice(allocators, [](SimConfig& c) -> AllocatorKind& { return c.sw.allocator; })
      .doc("separable-input", "",
           "the switch's allocator (docs/model.md, the allocator): `separable-input`, separable input-first with "
           "round-robin arbiters; `separable-output`, separable output-first (grant, then accept); `wavefront`, a "
           "wavefront over the input-port x output-port matrix after a round-robin VC choice per input; `islip`, "
           "iSLIP. All keep control VCs first and run `switch.allocator_iterations` passes; "
           "`switch.output_arbiter` transit-priority and age order the output stage of the separable ones only. "
           "`--rtl allocator` co-simulates each one's SystemVerilog twin. A registered plug-in allocator "
           "(rtl_models/switch/parts/allocator_plugin.h) is chosen by its name" + plugin_allocators)
      .def(sv("separable-input"))
      // Added after sweep databases existed: echoed only away from the default, so stored points keep their hash.
      .echo_if([](const SimConfig& c) { return c.sw.allocator != AllocatorKind::SeparableInput; },
               "echoed when not separable-input");
  K(t, "switch.pipeline_cycles")
      .run_only()
      .integer(0, 100000, "cycles")
      .def(iv(5))
      .bind([](SimConfig& c) -> int& { return c.sw.pipeline; })
      .doc("5", "", "head arrival to routable");
  K(t, "switch.flow_control")
      .choice(std::vector<std::tuple<std::string, FlowControl, std::string>>{
                  {"credit", FlowControl::Credit, "per-VC credits"},
                  {"pfc", FlowControl::Pfc, "802.1Qbb pause per VC"}},
              [](SimConfig& c) -> FlowControl& { return c.sw.flow_control; })
      .def(sv("credit"))
      .doc("credit", "",
           "link flow control: per-VC credits, or Ethernet PFC (802.1Qbb) pause per VC with XOFF = input buffer − "
           "(2 × link latency + 2 packets), XON = XOFF − 1 packet; under `pfc` every input buffer must hold 2 × "
           "latency + 3 packets, and `ugal.occupancy` must be `output` (no credits exist)");
  K(t, "switch.output_arbiter")
      .run_only()
      .kind(KeyKind::Choice)
      .doc("round-robin", "",
           "output-port arbitration among the inputs requesting it: round-robin over every input; transit inputs "
           "(round-robin among them) strictly before injection inputs (FOGSim's default PrioLRS arbiter); or the "
           "oldest packet first by generation cycle (ties round-robin); control frames go first either way")
      .def(sv("round-robin"))
      .set([](ParseState& s, const KeyValue& v) {
        s.c.sw.transit_priority = v.s == "transit-priority";
        s.c.sw.age_priority = v.s == "age";
      })
      .echo([](const SimConfig& c) {
        return nlohmann::json(c.sw.transit_priority ? "transit-priority" : c.sw.age_priority ? "age" : "round-robin");
      });
  t.back().choices = {{"round-robin", "every input alike"},
                      {"transit-priority", "transit inputs before injection inputs, FOGSim's PrioLRS"},
                      {"age", "the oldest packet first, by network injection cycle"}};
  K(t, "switch.crossbar")
      .run_only()
      .choice(std::vector<std::tuple<std::string, bool, std::string>>{
                  {"connections", false, "S connections per port, one phit per cycle each"},
                  {"transfer", true, "one connection per port, S phits per cycle (FOGSim)"}},
              [](SimConfig& c) -> bool& { return c.sw.xbar_transfer; })
      .doc("connections", "",
           "how the crossbar speedup S is spent: `connections`, each input and output port holds up to S "
           "connections at once, each moving one phit per cycle; `transfer`, one connection per port moving up to S "
           "phits per cycle (FOGSim's IOQ switch, `InternalSpeedup`); the same when S = 1")
      .def(sv("connections"))
      // Added after sweep databases existed: echoed only when transfer, so stored points keep their hash.
      .echo_if([](const SimConfig& c) { return c.sw.xbar_transfer; }, "echoed when transfer");
  K(t, "switch.pipeline_position")
      .run_only()
      .choice(std::vector<std::tuple<std::string, bool, std::string>>{
                  {"input", false, "from head landing to routable"},
                  {"output", true, "from crossing to leaving (FOGSim)"}},
              [](SimConfig& c) -> bool& { return c.sw.pipeline_at_output; })
      .doc("input", "input, output",
           "where the `switch.pipeline_cycles` delay sits: `input`, a head becomes routable that many cycles after it "
           "lands (routing, allocation and a wait for the crossbar overlap it); `output`, a head is routable when it "
           "lands and may leave the output buffer that many cycles after it crossed into it (FOGSim's `XbarDelay`): "
           "the same zero-load latency, but a hop where the head waited pays the delay in full")
      .def(sv("input"))
      // Added after sweep databases existed: echoed only when output, so stored points keep their hash.
      .echo_if([](const SimConfig& c) { return c.sw.pipeline_at_output; }, "echoed when output");
  K(t, "switch.output_credits")
      .run_only()
      .choice(std::vector<std::tuple<std::string, bool, std::string>>{
                  {"outside", false, "credits needed to leave on the link"},
                  {"inside", true, "credits for the whole packet spent at the grant (FOGSim)"}},
              [](SimConfig& c) -> bool& { return c.sw.out_in_credit_loop; })
      .doc("outside", "outside, inside; inside needs switch.flow_control credit",
           "where the output buffers sit in the credit loop: `outside`, a packet enters an output VC with room for "
           "it and needs downstream credits only to leave on the link (an output VC adds its buffer to the "
           "downstream one); `inside`, it is switched into the output VC only when the downstream input VC has "
           "credits for all of it, spent at the grant, so everything in an output buffer can leave (FOGSim's IOQ "
           "output port)")
      .def(sv("outside"))
      .check([](const ParseState& s, const KeyValue& v) -> std::string {
        if (v.s == "inside" && s.c.sw.flow_control == FlowControl::Pfc)
          return "config key 'switch.output_credits': value 'inside' needs switch.flow_control credit (under pfc no "
                 "credits exist); use outside";
        return "";
      })
      // Added after sweep databases existed: echoed only when inside, so stored points keep their hash.
      .echo_if([](const SimConfig& c) { return c.sw.out_in_credit_loop; }, "echoed when inside");
  K(t, "switch.credit_return")
      .run_only()
      .choice(std::vector<std::tuple<std::string, bool, std::string>>{
                  {"phit", false, "a credit per phit as it leaves"},
                  {"packet", true, "the whole packet's credits at its grant (FOGSim)"}},
              [](SimConfig& c) -> bool& { return c.sw.credit_at_grant; })
      .doc("phit", "phit, packet; packet needs switch.output_credits inside",
           "when an input VC credits the sender for a packet's phits: `phit`, one credit per phit as it leaves the "
           "input buffer; `packet`, the credits for the whole packet the cycle its head is granted the crossbar "
           "(FOGSim's input buffer, which removes a packet whole at its grant; the buffer then holds up to one "
           "packet beyond its credited depth while the granted one leaves)")
      .def(sv("phit"))
      .check([](const ParseState& s, const KeyValue& v) -> std::string {
        if (v.s == "packet" && !s.c.sw.out_in_credit_loop)
          return "config key 'switch.credit_return': value 'packet' needs switch.output_credits inside (every "
                 "sender must spend a packet's credits when it starts); use phit";
        return "";
      })
      // Added after sweep databases existed: echoed only when packet, so stored points keep their hash.
      .echo_if([](const SimConfig& c) { return c.sw.credit_at_grant; }, "echoed when packet");
  K(t, "switch.ejection_grant")
      .run_only()
      .choice(std::vector<std::tuple<std::string, bool, std::string>>{
                  {"room", false, "when the ejection buffer has room and nothing else crosses into it"},
                  {"host-idle", true, "only while the host link is idle (FOGSim's consume port)"}},
              [](SimConfig& c) -> bool& { return c.sw.eject_on_idle_host; })
      .doc("room", "room, host-idle",
           "when a packet for a host is granted the crossbar: `room`, like any output, when the ejection buffer "
           "has room for it and no other packet is crossing into it; `host-idle`, only while the host link is "
           "idle (the node is not receiving a packet), at most one per allocator pass, the buffer's room counted "
           "with the packets granted and not yet in it, which cross into it one after another (FOGSim's IOQ "
           "consume port, whose arbiter asks the node, not the buffer: with a crossbar faster than the host link "
           "or `switch.pipeline_position: output`, packets wait for the node's idle cycles)")
      .def(sv("room"))
      // Added after sweep databases existed: echoed only when host-idle, so stored points keep their hash.
      .echo_if([](const SimConfig& c) { return c.sw.eject_on_idle_host; }, "echoed when host-idle");
  K(t, "switch.output_sharing")
      .run_only()
      .choice(std::vector<std::tuple<std::string, bool, std::string>>{
                  {"vc", false, "an output buffer per VC"},
                  {"port", true, "one output buffer per port, shared by its data VCs"}},
              [](SimConfig& c) -> bool& { return c.sw.out_shared; })
      .doc("vc", "vc, port",
           "how a switch-to-switch output port's data VCs hold their phits: `vc`, each VC has its own "
           "`switch.output_buffer.<class>` phits; `port`, the VCs share one buffer of `switch.output_buffer.<class>` "
           "phits, any VC taking what the others leave (FOGSim's one `OutQueueLength` FIFO per port); ejection "
           "ports and control VCs keep their own")
      .def(sv("vc"))
      // Added after sweep databases existed: echoed only when port, so stored points keep their hash.
      .echo_if([](const SimConfig& c) { return c.sw.out_shared; }, "echoed when port");
  const std::vector<ClassKeys> host_class = {{kHostClass, "injection", "ejection", 1, 64, 32, 1}};
  const std::vector<ClassKeys> dfly_classes = {{static_cast<int>(PortClass::Local), "local", "local", 0, 64, 32, 10},
                                               {static_cast<int>(PortClass::Global), "global", "global", 0, 128, 32, 40}};
  const std::vector<ClassKeys> torus_classes = {{1, "link", "link", 0, 64, 32, 1}};
  // The host class (injection/ejection) exists on every topology; the others are the
  // topology's own port classes.
  for (const char* which : {"vcs", "input_buffer", "output_buffer", "links"}) {
    add_class_keys(t, KeyScope::Any, host_class, which);
    add_class_keys(t, KeyScope::Dragonfly, dfly_classes, which);
    add_class_keys(t, KeyScope::Torus, torus_classes, which);
    for (const TopologyPlugin* p : topology_plugins()) {  // a plug-in topology's classes
      std::vector<ClassKeys> classes;
      for (size_t i = 0; i < p->classes.size(); ++i) {
        const TopologyPortClass& pc = p->classes[i];
        classes.push_back({static_cast<int>(i) + 1, pc.name.c_str(), pc.name.c_str(), 0, pc.in_buf, pc.out_buf, pc.latency});
      }
      add_class_keys(t, KeyScope::Plugin, classes, which, kind_of(*p));
    }
  }
}

// control frames
void add_control_keys(std::vector<KeySpec>& t) {
  K(t, "control.probe_interval")
      .integer(0, 1LL << 30, "cycles between probe frames per switch (0 = off)")
      .def(iv(0))
      .bind([](SimConfig& c) -> uint32_t& { return c.sw.probe_interval; })
      .doc("0 (off)", "cycles ≥ 0",
           "every switch originates a control frame toward a random host every this many cycles (random phase per "
           "switch); control frames travel on their own VCs above the data VCs (local 2, global 1 more; data + "
           "control ≤ 16) with strict priority, are intercepted by the host's switch and reported apart "
           "(`control_frames_*`, `control_latency_*`)");
  K(t, "control.frame_phits")
      .integer(1, 4096, "phits")
      .def([](const ParseState& s) { return iv(s.c.packet_phits); })
      .bind([](SimConfig& c) -> uint16_t& { return c.sw.probe_phits; })
      .doc("packet_phits", "1–4096, at most every local/global input and output buffer",
           "control frame length (virtual cut-through: a frame moves only into a buffer that holds all of it)");
}

// sources
void add_source_keys(std::vector<KeySpec>& t) {
  K(t, "source.when_full")
      .run_only()
      .choice(std::vector<std::tuple<std::string, SourceWhenFull, std::string>>{
                  {"queue", SourceWhenFull::Queue, "the packet waits in the unbounded source queue"},
                  {"skip", SourceWhenFull::Skip, "the packet is not generated (FOGSim)"}},
              [](SimConfig& c) -> SourceWhenFull& { return c.source_when_full; })
      .def(sv("queue"))
      .check([](const ParseState& s, const KeyValue& v) -> std::string {
        if (v.s != "skip") return "";
        if (s.c.routing == RoutingAlgo::Gal)
          return "config key 'source.when_full': value 'skip' is not allowed with routing gal (its packets wait in "
                 "GAL's injection queues, not in the switch's injection buffer); use queue";
        return "";
      })
      // Added after sweep databases existed: echoed only when skip, so stored points keep their hash.
      .echo_if([](const SimConfig& c) { return c.source_when_full != SourceWhenFull::Queue; }, "echoed when skip")
      .doc("queue", "queue, skip; skip not with routing gal",
           "a packet generated while the switch's injection buffer has no room for it (its credits, over the "
           "injection VCs and terminal ports, less the packets already waiting at the node): `queue` keeps it in "
           "the unbounded source queue (the offered load is generated whatever the network accepts); `skip` does "
           "not generate it, as FOGSim's hosts do (generated load falls to what the network accepts; counter "
           "`source_skipped_generations`). Under `switch.flow_control: pfc` the injection link still pauses and "
           "resumes on PFC frames; with `skip` the switch also returns a packet's credits from its host input "
           "buffer when the packet is granted the crossbar (FOGSim's input buffer frees a packet's room then), "
           "used only for this room check (the buffer's room as the NIC sees it one host-link latency later, as "
           "under credit flow control)");

  K(t, "source.injection_vc")
      .run_only()
      .choice(std::vector<std::tuple<std::string, InjectionVc, std::string>>{
                  {"rr", InjectionVc::RoundRobin, "the next VC with room, round-robin"},
                  {"dest", InjectionVc::Dest, "VC floor(dst * V / N), one queue per VC (FOGSim)"}},
              [](SimConfig& c) -> InjectionVc& { return c.injection_vc; })
      .def(sv("rr"))
      .check([](const ParseState& s, const KeyValue& v) -> std::string {
        if (v.s == "dest" && s.c.routing == RoutingAlgo::Gal)
          return "config key 'source.injection_vc': value 'dest' is not allowed with routing gal (GAL's injection "
                 "queues feed one VC per quadrant); use rr";
        return "";
      })
      // Added after sweep databases existed: echoed only when dest, so stored points keep their hash.
      .echo_if([](const SimConfig& c) { return c.injection_vc != InjectionVc::RoundRobin; }, "echoed when dest")
      .doc("rr", "rr, dest; dest not with routing gal",
           "the switch injection VC a packet takes: `rr` starts the oldest packet at the node on the next VC "
           "(round-robin) with room for it; `dest` fixes VC floor(dst * V / N) (V injection VCs, N nodes) when the "
           "packet is generated and keeps one queue per VC at the node, a free port starting the oldest packet "
           "among the queues whose VC has room (FOGSim's `VcInjectionPolicy=DEST`: under adv+N every packet of a "
           "node takes one VC); with `source.when_full: skip` the room checked is that VC's");
}

// simulation options
void add_sim_keys(std::vector<KeySpec>& t) {
  K(t, "sim.sleep")
      .run_only()
      .boolean()
      .def(bv(true))
      .bind([](SimConfig& c) -> bool& { return c.sw.sleep; })
      .doc("true", "",
           "idle switches and NICs sleep until a link wakes them; `false` clocks every block every cycle (identical "
           "results, slower: for checking)");
  K(t, "sim.scheduler")
      .run_only()
      .choice(std::vector<std::tuple<std::string, Scheduler, std::string>>{
                  {"blocks", Scheduler::Blocks, "each switch with its NICs runs a block of cycles at a time"},
                  {"kernel", Scheduler::Kernel, "every switch and NIC is a SystemC process clocked each cycle"}},
              [](SimConfig& c) -> Scheduler& { return c.scheduler; })
      .def(sv("blocks"))
      // Changes no result: echoed only when not the default, so that every stored sweep
      // point keeps its hash.
      .echo_if([](const SimConfig& c) { return c.scheduler != Scheduler::Blocks; }, "echoed when kernel")
      .doc("blocks", "",
           "how the simulation is driven (identical results): `blocks` runs each switch with its hosts' NICs for "
           "as many cycles as the shortest switch-to-switch link latency before the next switch (nothing one sends "
           "reaches another sooner), so its state stays in the cache; `kernel` makes every switch and NIC a "
           "SystemC process clocked each cycle. UGAL-G with `ugal_g.view: exact` (every queue, one cycle old), PB and PB-ACOR "
           "with `pb.delay` shorter than the block, and runs with TLM endpoints use `kernel` whatever this says (every RTL block, a routing plug-in's own RTL among them, runs on either)");
  K(t, "sim.threads")
      .run_only()
      .integer(0, 256, "threads (0 = the cores available)")
      .def(iv(0))
      .bind([](SimConfig& c) -> int& { return c.threads; })
      // Changes no result: echoed only when given, so that every stored sweep point keeps its hash.
      .echo_if([](const SimConfig& c) { return c.threads != 0; }, "echoed when not 0")
      .doc("0", "0-256",
           "threads of the block scheduler (identical results for every value): the switches are split into "
           "contiguous shards, four per thread, which the threads run at once, with a barrier at each block "
           "window's end; 0 takes the cores available to the process (its CPU affinity; a sweep gives each of its "
           "runs a share), at most one thread per 512 switch-cycles of a window (switches x the window's cycles: "
           "1 on dfly-tiny and the 8x8 torus, 2 on dfly(4,8,4) on two cores). Runs on the `kernel` scheduler use "
           "one thread");
  K(t, "sim.max_memory")
      .run_only()
      .integer(0, int64_t{1} << 30, "MiB (0 = the memory available)")
      .def(iv(0))
      .bind([](SimConfig& c) -> uint64_t& { return c.max_memory_mib; })
      // Changes no result: echoed only when given, so that every stored sweep point keeps its hash.
      .echo_if([](const SimConfig& c) { return c.max_memory_mib != 0; }, "echoed when not 0")
      .doc("0", "MiB, ≥ 0",
           "the most memory the network may need, MiB: the network measures its first switch and NIC as it builds "
           "them and refuses (exit 2, before the rest is allocated) when switches, hosts and the packets alive at "
           "the offered load would exceed this; 0 takes the memory available when the run starts (MemAvailable, "
           "or the cgroup's limit). The summary prints the estimate beside the peak resident memory");
  K(t, "sim.check_vc_order")
      .run_only()
      .boolean()
      .def(bv(false))
      .bind([](SimConfig& c) -> bool& { return c.sw.check_vc_order; })
      .check([](const ParseState& s, const KeyValue& v) -> std::string {
        if (!v.b || dfly(s.c)) return "";
        return "config key 'sim.check_vc_order': value 'true' is allowed on topology.kind dragonfly only (the check "
               "knows the Dragonfly hop-slot VC order; the torus schemes' orders are checked statically by scfly "
               "check-deadlock)";
      })
      // A debug check that changes no result: echoed only when on, so the echo (and with it
      // every stored sweep point's hash) of a run without it is what it was before the key.
      .echo_if([](const SimConfig& c) { return c.sw.check_vc_order; }, "echoed when true")
      .doc("false", "bool; Dragonfly only",
           "debug check: stop the run (exit 3, naming switch, port, VC and packet) unless every packet's VC strictly "
           "increases within each port class along its path, as the hop-slot rule (docs/model.md) and every "
           "Dragonfly mechanism's VC use give; results are unchanged");
}

// phases, RTL blocks, time series
void add_phase_rtl_timeseries_keys(std::vector<KeySpec>& t) {
  K(t, "phases")
      .run_only()
      .custom(parse_phases)
      .echo([](const SimConfig& c) {
        nlohmann::json a = nlohmann::json::array();
        if (c.phases_given)
          for (const auto& p : c.phases)
            a.push_back({{"start", p.start}, {"traffic", to_string(p.traffic)}, {"load", p.load}});
        return a;
      })
      .doc("[]", "list of `{start, traffic, load}`", "traffic phases (below); [] = one phase of `traffic` at `load`");
  K(t, "rtl")
      .run_only()
      .custom(parse_rtl)
      .echo([](const SimConfig& c) {
        nlohmann::json a = nlohmann::json::array();
        if (c.sw.rtl_acor) a.push_back("acor");
        if (c.sw.rtl_ugal) a.push_back("ugal");
        if (c.sw.rtl_pb) a.push_back("pb");
        if (c.sw.rtl_min_route) a.push_back("min_route");
        if (c.sw.rtl_table) a.push_back("table");
        if (c.sw.rtl_qcn) a.push_back("qcn");
        if (c.sw.rtl_qcn_cp) a.push_back("qcn_cp");
        if (c.sw.rtl_quadrant) a.push_back("quadrant");
        if (c.sw.rtl_gal_threshold) a.push_back("gal_threshold");
        if (c.sw.rtl_allocator) a.push_back("allocator");
        if (c.sw.rtl_flow_control) a.push_back("flow_control");
        if (c.sw.rtl_link_arbiter) a.push_back("link_arbiter");
        if (c.routing_prm.plugin_rtl) a.push_back(to_string(c.routing));
        return a;
      })
      .doc("[]",
           "Dragonfly: any of min_route (palmtree or absolute, g <= 1023, a <= 63, p+a-1+h <= 127, absolute "
           "a*h/(g-1) <= 16), acor (routing acor-switch/pb-acor), ugal "
           "(ugal-l/ugal-g/par/pb/pb-acor), pb (pb/pb-acor, h <= 16), qcn and qcn_cp (min-cond, a-1+h <= 32 transit ports), table "
           "(min-table/min-cond, <= 256 entries). Torus/mesh: quadrant (min-ad/goal/gal/chaos, "
           "k <= 255), gal_threshold (gal, n1 <= 256, terminal ports <= 15). Any network and routing: allocator (<= 16 "
           "ports, 4 VCs per port, speedup 4; not with switch.output_sharing port or switch.ejection_grant "
           "host-idle), flow_control (each port's credit counters and PFC state, one block per port; not with "
           "switch.flow_control pfc and switch.crossbar transfer at speedup > 1), link_arbiter (each port's link "
           "arbiter, one block per port). Needs an SCFLY_RTL build. A "
           "routing plug-in with an RTL variant: its name (its own Verilated decision; needs that routing, not an "
           "SCFLY_RTL build)",
           "Verilated blocks co-simulated in every switch (gal_threshold: in every NIC), or in those of "
           "`rtl_switches`; `--rtl min_route,acor,ugal,pb` on the command line");
  K(t, "rtl_switches")
      .run_only()
      .custom(parse_rtl_switches)
      .echo([](const SimConfig& c) { return nlohmann::json(c.rtl_switches); })
      .echo_if([](const SimConfig& c) { return !c.rtl_switches.empty(); }, "echoed when not empty")
      .doc("[] (every switch)", "list of distinct switch ids in [0, switches); needs `rtl`",
           "the switches whose blocks `rtl` co-simulates (gal_threshold: the NICs of these switches); the others "
           "run the C++ units. Not with a routing plug-in's RTL (the network's one routing). `--rtl-switches 0,5` on "
           "the command line");
  K(t, "timeseries.bin_cycles")
      .run_only()
      .integer(0, kBig, "cycles (0 = off)")
      .def(iv(0))
      .bind([](SimConfig& c) -> uint64_t& { return c.timeseries.bin_cycles; })
      .doc("0 (off)", "≥ 0, at most 10^6 bins per run", "time-series bin width, cycles");
  K(t, "timeseries.per_switch")
      .run_only()
      .boolean()
      .def(bv(false))
      .bind([](SimConfig& c) -> bool& { return c.timeseries.per_switch; })
      .doc("false", "", "also sample per-switch series at each bin end");
}

std::vector<KeySpec> build() {
  std::vector<KeySpec> t;
  std::vector<std::pair<std::string, std::string>> plugin_groups;  // (group, mechanism)
  add_topology_keys(t);
  add_routing_keys(t, plugin_groups);
  add_qcn_keys(t);
  add_gal_keys(t);
  add_torus_keys(t);
  add_chaos_keys(t);
  add_dragonfly_mechanism_keys(t);
  add_run_keys(t);
  add_switch_keys(t);
  add_control_keys(t);
  add_source_keys(t);
  add_sim_keys(t);
  add_phase_rtl_timeseries_keys(t);
  read_by(t, plugin_groups);
  // A plug-in's keys must form a group of their own: a mechanism named e.g. `switch` or
  // `ugal` would put its keys among scfly's (and could shadow one of them).
  for (const auto& [group, mech] : plugin_groups) {
    size_t members = 0;
    for (const KeySpec& k : t)
      if (k.path.compare(0, group.size() + 1, group + ".") == 0) ++members;
    size_t own = 0;
    if (const RoutingMechanism* m = find_routing(mech)) own = m->keys.size();
    if (members != own || std::count_if(t.begin(), t.end(), [&](const KeySpec& k) { return k.path == group; }) != 0)
      throw std::logic_error("routing plug-in '" + mech + "': its keys '" + group + ".*' fall in scfly's own key group '" +
                             group + "' (`scfly keys` lists the groups); register it under another name");
  }
  return t;
}

}  // namespace

const std::vector<KeySpec>& config_keys() {
  static const std::vector<KeySpec> table = build();
  return table;
}

}  // namespace scfly
