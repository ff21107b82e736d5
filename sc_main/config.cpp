#include "sc_main/config.h"
#include "sc_main/config_schema.h"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <iomanip>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "routing_units/tvlb_balance.h"
#include "routing_units/rtl_widths.h"
#include "rtl_models/switch/parts/allocator_plugin.h"
#include "rtl_models/verilog/rtl_blocks.h"

namespace scfly {

namespace {

std::string show(const YAML::Node& n) {
  std::string text;
  if (n.IsScalar()) {
    text = "'" + n.Scalar() + "'";
  } else {
    YAML::Emitter e;
    e << YAML::Flow << n;
    text = e.c_str();
  }
  // A message quotes a value, not a megabyte of it.
  if (text.size() > 240) text = text.substr(0, 200) + "... (" + std::to_string(text.size()) + " characters)";
  return text;
}

// A YAML mapping being read: remembers which keys were read, so that any other key is
// reported as unknown, with the list of allowed ones.
class Section {
 public:
  Section(YAML::Node n, std::string path) : m_n(std::move(n)), m_path(std::move(path)) {
    if (m_n && !m_n.IsNull() && !m_n.IsMap())
      throw ConfigError("config key '" + (m_path.empty() ? std::string("(top)") : m_path) +
                        "': value " + show(m_n) + " is not a mapping of keys");
  }
  std::string key(const std::string& k) const { return m_path.empty() ? k : m_path + "." + k; }
  YAML::Node raw(const std::string& k) {
    m_known.push_back(k);
    if (!m_n || m_n.IsNull()) return YAML::Node();
    return m_n[k];
  }
  Section sub(const std::string& k) { return Section(raw(k), key(k)); }

  int64_t integer(const std::string& k, int64_t def, int64_t lo, int64_t hi,
                  const std::string& unit = "") {
    YAML::Node v = raw(k);
    if (!v) return def;
    if (v.IsNull()) throw ConfigError(null_value(k));
    int64_t x;
    if (!v.IsScalar() || !YAML::convert<int64_t>::decode(v, x))
      throw ConfigError(bad(k, v, "an integer in [" + std::to_string(lo) + ", " +
                                      std::to_string(hi) + "]" + unit));
    if (x < lo || x > hi)
      throw ConfigError(bad(k, v, "in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]" +
                                      unit));
    return x;
  }
  // A finite number in (lo, hi], or with `lo_included` in [lo, hi].
  double real(const std::string& k, double def, double lo, double hi,
              const std::string& allowed, bool lo_included = false) {
    YAML::Node v = raw(k);
    if (!v) return def;
    if (v.IsNull()) throw ConfigError(null_value(k));
    double x;
    if (!v.IsScalar() || !YAML::convert<double>::decode(v, x) || !std::isfinite(x))
      throw ConfigError(bad(k, v, allowed));
    if (!((lo_included ? x >= lo : x > lo) && x <= hi)) throw ConfigError(bad(k, v, allowed));
    return x;
  }
  bool boolean(const std::string& k, bool def) {
    YAML::Node v = raw(k);
    if (!v) return def;
    if (v.IsNull()) throw ConfigError(null_value(k));
    bool x;
    if (!v.IsScalar() || !YAML::convert<bool>::decode(v, x))
      throw ConfigError(bad(k, v, "true or false"));
    return x;
  }
  std::string text(const std::string& k, const std::string& def) {
    YAML::Node v = raw(k);
    if (!v) return def;
    if (v.IsNull()) throw ConfigError(null_value(k));
    if (!v.IsScalar()) throw ConfigError(bad(k, v, "a single value"));
    return v.Scalar();
  }
  std::string null_value(const std::string& k) const {
    return "config key '" + key(k) + "': the value is empty (null); give a value or leave the key out for its default";
  }
  std::string bad(const std::string& k, const YAML::Node& v, const std::string& allowed) const {
    return "config key '" + key(k) + "': value " + show(v) + " is not allowed; expected " + allowed;
  }
  // Every key present must have been read.
  void finish() const {
    if (!m_n || m_n.IsNull()) return;
    for (const auto& kv : m_n) {
      const std::string k = kv.first.Scalar();
      bool found = false;
      for (const auto& known : m_known) found |= known == k;
      if (!found) {
        std::string allowed;
        for (const auto& known : m_known) allowed += (allowed.empty() ? "" : ", ") + known;
        throw ConfigError("unknown config key '" + key(k) + "'; allowed here: " + allowed);
      }
    }
  }

 private:
  YAML::Node m_n;
  std::string m_path;
  std::vector<std::string> m_known;
};

// Per-port-class keys. The host class (0) is "injection" on the input side and "ejection"
// on the output side; every other class is configured under the name the topology gives it
// (Dragonfly: local, global): switch.vcs.<in>, switch.input_buffer.<in>,
// switch.output_buffer.<out>, links.<in>_latency.
std::string class_in_key(const Topology& t, int c) { return c == kHostClass ? "injection" : t.port_class_name(c); }
std::string class_out_key(const Topology& t, int c) { return c == kHostClass ? "ejection" : t.port_class_name(c); }

void apply_override(YAML::Node& root, const std::string& ov) {
  const auto eq = ov.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError("override '" + ov + "' is not of the form key=value (e.g. topology.p=4)");
  const std::string path = ov.substr(0, eq), value = ov.substr(eq + 1);
  if (value.find_first_not_of(" \t") == std::string::npos)
    throw ConfigError("override '" + ov + "': empty value for key '" + path +
                      "'; give a value (key=value) or leave the key out for its default");
  std::vector<std::string> parts;
  std::stringstream ss(path);
  for (std::string part; std::getline(ss, part, '.');) {
    if (part.empty()) throw ConfigError("override '" + ov + "': empty component in key '" + path + "'");
    parts.push_back(part);
  }
  YAML::Node val;
  try {
    val = YAML::Load(value);
  } catch (const YAML::Exception& e) {
    throw ConfigError("override '" + ov + "': value is not valid YAML: " + e.what());
  }
  reject_duplicate_keys(val, "override of '" + path + "'", path);
  std::vector<YAML::Node> chain{root};
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    YAML::Node cur = chain.back();
    if (cur[parts[i]] && !cur[parts[i]].IsMap() && !cur[parts[i]].IsNull())
      throw ConfigError("override '" + ov + "': '" + parts[i] + "' holds a value, not a mapping");
    if (!cur[parts[i]] || cur[parts[i]].IsNull()) cur[parts[i]] = YAML::Node(YAML::NodeType::Map);
    chain.push_back(cur[parts[i]]);
  }
  chain.back()[parts.back()] = val;
}

std::string join_or(const std::vector<std::string>& items) {
  std::string s;
  for (size_t i = 0; i < items.size(); ++i)
    s += (i == 0 ? "" : i + 1 == items.size() ? " or " : ", ") + items[i];
  return s;
}

std::string range_text(int64_t lo, int64_t hi) { return "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]"; }
std::string with_unit(const std::string& unit) { return unit.empty() ? "" : " " + unit; }

// Buffer depth: an integer (phits) or a string with unit: "720", "720 phits", "18KB",
// "18 KiB", "4500B"; bytes are rounded up to whole phits.
const char* kBufferAllowed = "a depth per VC in phits (e.g. 64) or bytes (e.g. '18KB', '4500B'), 1 to 10^7 phits";

// Reads a present value of a key's kind, or throws the error naming key, value and what is
// allowed.
KeyValue read_value(const KeySpec& k, const YAML::Node& v, const ParseState& s) {
  const auto bad = [&](const std::string& allowed) {
    return ConfigError("config key '" + k.path + "': value " + show(v) + " is not allowed; expected " + allowed);
  };
  KeyValue out;
  switch (k.kind) {
    case KeyKind::Integer: {
      const std::string range = range_text(k.lo, k.hi) + with_unit(k.unit);
      if (!v.IsScalar() || !YAML::convert<int64_t>::decode(v, out.i)) throw bad("an integer in " + range);
      if (out.i < k.lo || out.i > k.hi) throw bad("in " + range);
      return out;
    }
    case KeyKind::Real: {
      const double hi = k.rhi_of ? k.rhi_of(s) : k.rhi;
      const std::string allowed = expected_text(k, s);
      if (!v.IsScalar() || !YAML::convert<double>::decode(v, out.r) || !std::isfinite(out.r)) throw bad(allowed);
      if (!((k.rlo_included ? out.r >= k.rlo : out.r > k.rlo) && out.r <= hi)) throw bad(allowed);
      return out;
    }
    case KeyKind::Boolean:
      if (!v.IsScalar() || !YAML::convert<bool>::decode(v, out.b)) throw bad("true or false");
      return out;
    case KeyKind::Choice:
    case KeyKind::Text:
      if (!v.IsScalar()) throw bad("a single value");
      out.s = v.Scalar();
      if (k.kind == KeyKind::Choice) {
        bool ok = false;
        for (const KeyChoice& c : k.choices) ok |= c.value == out.s;
        if (!ok) throw bad(expected_text(k, s));
      }
      return out;
    case KeyKind::VcCount:
      if (v.IsScalar() && v.Scalar() == "auto") return out;  // 0 = auto
      if (!v.IsScalar() || !YAML::convert<int64_t>::decode(v, out.i) || out.i < 1 || out.i > kMaxPortVcs)
        throw bad("an integer in [1, " + std::to_string(kMaxPortVcs) + "] or 'auto'");
      return out;
    case KeyKind::Buffer: {
      if (!v.IsScalar()) throw bad(kBufferAllowed);
      std::istringstream is(v.Scalar());
      double num;
      std::string unit, rest;
      if (!(is >> num)) throw bad(kBufferAllowed);
      is >> unit;
      if (is >> rest) throw bad(kBufferAllowed);
      double phits;
      if (unit.empty() || unit == "phits" || unit == "phit") phits = num;
      else if (unit == "B") phits = std::ceil(num / s.c.phit_bytes);
      else if (unit == "KB" || unit == "KiB") phits = std::ceil(num * 1024 / s.c.phit_bytes);
      else throw bad(kBufferAllowed);
      if (phits != std::floor(phits) || phits < 1 || phits > 1e7) throw bad(kBufferAllowed);
      out.i = static_cast<int64_t>(phits);
      return out;
    }
    case KeyKind::Custom: break;
  }
  throw std::logic_error("config key '" + k.path + "': a custom key has no plain value");
}

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> parts;
  std::stringstream ss(path);
  for (std::string p; std::getline(ss, p, '.');) parts.push_back(p);
  return parts;
}

// The node at a dotted path (invalid when absent); the sections on the way were checked to be
// mappings by check_keys.
YAML::Node lookup(const YAML::Node& root, const std::string& path) {
  // yaml-cpp's Node::operator= writes through to the node referred to; reset() rebinds.
  YAML::Node cur;
  cur.reset(root);
  for (const std::string& p : split_path(path)) {
    if (!cur.IsDefined() || !cur.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
    const YAML::Node& c = cur;
    YAML::Node next = c[p];
    if (!next) return YAML::Node(YAML::NodeType::Undefined);  // absent (an invalid node cannot be rebound)
    cur.reset(next);
  }
  return cur;
}

// Every key present must be a key of the schema on this topology kind (or a section above
// some); sections must be mappings. Unknown keys name the keys allowed at their level.
void check_keys(const YAML::Node& n, const std::string& prefix, TopologyKind kind) {
  if (!n || n.IsNull()) return;
  if (!n.IsMap())
    throw ConfigError("config key '" + (prefix.empty() ? std::string("(top)") : prefix) + "': value " + show(n) +
                      " is not a mapping of keys");
  const std::string pre = prefix.empty() ? "" : prefix + ".";
  std::vector<std::string> here;  // the names allowed at this level, in schema order
  for (const KeySpec& k : config_keys()) {
    if (!k.applies(kind) || k.path.compare(0, pre.size(), pre) != 0) continue;
    const std::string rest = k.path.substr(pre.size());
    const std::string name = rest.substr(0, rest.find('.'));
    if (std::find(here.begin(), here.end(), name) == here.end()) here.push_back(name);
  }
  for (const auto& kv : n) {
    const std::string name = kv.first.IsScalar() ? kv.first.Scalar() : show(kv.first);
    if (std::find(here.begin(), here.end(), name) == here.end()) {
      std::string allowed;
      for (const auto& h : here) allowed += (allowed.empty() ? "" : ", ") + h;
      throw ConfigError("unknown config key '" + pre + name + "'; allowed here: " + allowed);
    }
    // `load:` and `load: ~` are YAML nulls: refused like `load=` on the command line, not read
    // as "the default" (which would hide a value deleted by mistake).
    if (kv.second.IsDefined() && kv.second.IsNull())
      throw ConfigError("config key '" + pre + name + "': the value is empty (null); give a value or leave the key "
                        "out for its default");
    bool leaf = false;
    for (const KeySpec& k : config_keys()) leaf |= k.applies(kind) && k.path == pre + name;
    if (!leaf) check_keys(kv.second, pre + name, kind);
  }
}

// Rules that relate several keys, checked once every key is read; derived fields.
// T-VLB Step 2's removals of a configuration (tugal.paths or tugal.tau_*), computed once per
// process for each topology, rule and bounds (a sweep parses the same configuration per point).
std::shared_ptr<const TvlbRemovals> resolve_tvlb_removals(const SimConfig& c, const Dragonfly& t) {
  const UgalParams& u = c.routing_prm.ugal;
  const TvlbRule rule{u.vlb_set, u.vlb_percent, u.vlb_seed};
  if (!u.paths.empty()) {
    TvlbPathFile f;
    try {
      f = read_tvlb_paths(u.paths, t);
    } catch (const std::exception& e) {
      throw ConfigError(std::string("config key 'tugal.paths': ") + e.what());
    }
    if (f.rule.set != rule.set || f.rule.percent != rule.percent || (rule.percent > 0 && f.rule.seed != rule.seed))
      throw ConfigError("config key 'tugal.paths': value '" + u.paths + "' was made for the set " +
                        tvlb_rule_overrides(f.rule) + ", not for " + tvlb_rule_overrides(rule) +
                        "; set those keys, or write a path file for this set");
    return std::make_shared<const TvlbRemovals>(std::move(f.removed));
  }
  if (u.tau_global == 0 && u.tau_local == 0) return nullptr;
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<const TvlbRemovals>> cache;
  const std::string key = t.describe() + "|" + tvlb_rule_overrides(rule) + "|" + std::to_string(rule.seed) + "|" +
                          nlohmann::json(u.tau_global).dump() + "|" + nlohmann::json(u.tau_local).dump();
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = cache[key];
  if (!slot) slot = std::make_shared<const TvlbRemovals>(tvlb_balance(t, rule, TvlbBalanceOptions{u.tau_global, u.tau_local}));
  return slot;
}

void validate(ParseState& s) {
  SimConfig& c = s.c;
  const Topology& tp = *s.topo;
  if (const auto* d = dynamic_cast<const Dragonfly*>(&tp); d && c.routing_prm.ugal.vlb_set != TvlbClass::All)
    c.routing_prm.ugal.removed = resolve_tvlb_removals(c, *d);
  const int classes = tp.num_port_classes();
  GalThresholdParams& th = c.routing_prm.gal.threshold;
  if (th.t_min > th.t_max)
    throw ConfigError("config key 'gal.t_min': value " + std::to_string(th.t_min) + " is not allowed; it must not "
                      "exceed gal.t_max = " + std::to_string(th.t_max));
  if (th.adaptive && (th.t0 < th.t_min || th.t0 > th.t_max))
    throw ConfigError("config key 'gal.threshold': value " + std::to_string(th.t0) + " is not allowed with "
                      "gal.adaptive: true; the initial threshold must lie in [gal.t_min, gal.t_max] = [" +
                      std::to_string(th.t_min) + ", " + std::to_string(th.t_max) + "]");
  if (c.sw.rtl_gal_threshold) {
    if (th.tie != GalTie::Lower)
      throw ConfigError(std::string("config key 'gal.tie': value '") + (th.tie == GalTie::Hold ? "hold" : "raise") +
                        "' is not allowed with rtl gal_threshold; the RTL controller implements the rule as "
                        "published (lower)");
    // The RTL controller's widths (rtl_models/interface/widths.def).
    if (th.n1 > static_cast<uint32_t>(kGalN1Max))
      throw ConfigError("config key 'gal.n1': value " + std::to_string(th.n1) + " is not allowed with rtl "
                        "gal_threshold; the RTL controller keeps " + std::to_string(kGalN1Max) +
                        " cycles of departures (1-" + std::to_string(kGalN1Max) + ")");
    static_assert(kGalN2Max >= 1000000, "gal.n2 allows 10^6 cycles");  // its counter holds every gal.n2
    // Departures per cycle and set <= terminal ports <= 8 (topology.terminal_ports) fit
    // the controller's kGalDepBits-bit input.
    static_assert(kGalDepMax >= 8, "topology.terminal_ports allows 8 departures per cycle");
  }
  QcnParams& q = c.routing_prm.qcn;
  if (c.sw.rtl_qcn_cp) {
    // Q_eq per sampled buffer (QcnUnit::attach) within the RTL's kQueueBits.
    for (const int cls : {static_cast<int>(PortClass::Local), static_cast<int>(PortClass::Global)}) {
      const uint32_t depth = q.sampling == QcnSampling::Output ? c.sw.out_buf[cls] : c.sw.in_buf[cls];
      const double qeq = q.qeq * depth + 0.5;
      if (qeq > kQueueMax)
        throw ConfigError("config key 'qcn.qeq': value " + nlohmann::json(q.qeq).dump() + " is not allowed with rtl qcn_cp; Q_eq = " +
                          std::to_string(static_cast<uint64_t>(qeq)) + " phits of the " + to_string(static_cast<PortClass>(cls)) +
                          " buffers exceeds the RTL's " + std::to_string(kQueueBits) + " bits (" +
                          std::to_string(kQueueMax) + ")");
    }
  }
  if (q.source_processing && q.sampling != QcnSampling::Input)
    throw ConfigError("config key 'qcn.source_processing': value true is not allowed with qcn.sampling: output; "
                      "source processing is the input-sampling variant (paper sec. 3.3.1), output sampling "
                      "already notifies S_out's own port");
  if (q.cp_queue == QcnCpQueue::Output && q.sampling != QcnSampling::Output)
    throw ConfigError("config key 'qcn.cp_queue': value output is not allowed with qcn.sampling: input; it chooses "
                      "what an output-buffer congestion point reads; use waiting");
  AcorLevelParams& lp = c.routing_prm.acor.ctrl;
  Misroute pols[3];
  lp.levels = static_cast<uint32_t>(sequence_policies(c.routing_prm.acor.sequence, pols));
  for (int k = 0; k < 2; ++k)
    if (lp.dt[k] > lp.it[k])
      throw ConfigError("config key 'acor.dt" + std::to_string(k + 1) + "': value " + std::to_string(lp.dt[k]) +
                        " is not allowed; it must not exceed acor.it" + std::to_string(k + 1) + " = " +
                        std::to_string(lp.it[k]) +
                        " (hysteresis: a level entered at IT must not be left below DT at once)");
  if (q.cnm_phits == 0) q.cnm_phits = static_cast<uint16_t>(c.packet_phits);

  for (int k = 0; k < classes; ++k) {
    if (c.sw.in_buf[k] < static_cast<uint32_t>(c.packet_phits))
      throw ConfigError("config key 'switch.input_buffer." + class_in_key(tp, k) + "': value " +
                        std::to_string(c.sw.in_buf[k]) + " phits cannot hold one packet of " +
                        std::to_string(c.packet_phits) + " phits; virtual cut-through needs at least packet_phits");
    if (c.sw.out_buf[k] < static_cast<uint32_t>(c.packet_phits))
      throw ConfigError("config key 'switch.output_buffer." + class_out_key(tp, k) + "': value " +
                        std::to_string(c.sw.out_buf[k]) + " phits cannot hold one packet of " +
                        std::to_string(c.packet_phits) + " phits; virtual cut-through needs at least packet_phits");
  }
  if (!c.phases_given) c.phases = {TrafficPhase{0, c.traffic, c.load}};  // [] = no phases (the JSON echo)
  if (c.timeseries.bin_cycles != 0 && (c.warmup_cycles + c.measure_cycles) / c.timeseries.bin_cycles > 1000000)
    throw ConfigError("config key 'timeseries.bin_cycles': value " + std::to_string(c.timeseries.bin_cycles) +
                      " gives more than 10^6 bins over the run; use a larger bin");

  // Control frames on the network: probes and/or QCN's CNMs (routing min-cond, trigger qcn)
  // need the control VCs above the data VCs of every switch-to-switch class: MIN's hop-slot
  // budget (Dragonfly) or DOR's link VCs (torus, mesh).
  const bool qcn = c.routing == RoutingAlgo::MinCond && c.routing_prm.trigger == MinCondTrigger::Qcn;
  std::vector<std::pair<std::string, uint32_t>> frames;  // (key, phits)
  if (c.sw.probe_interval > 0) frames.push_back({"control.frame_phits", c.sw.probe_phits});
  if (qcn) frames.push_back({"qcn.cnm_phits", q.cnm_phits});
  for (const auto& [fkey, fphits] : frames)
    for (int k = 0; k < classes; ++k) {
      // Virtual cut-through: a frame moves only into a buffer that holds all of it.
      const uint32_t room = std::min(c.sw.in_buf[k], c.sw.out_buf[k]);
      if (k != kHostClass && fphits > room)
        throw ConfigError("config key '" + fkey + "': value " + std::to_string(fphits) + " phits does not fit the " +
                          class_in_key(tp, k) + " buffers (input " + std::to_string(c.sw.in_buf[k]) + ", output " +
                          std::to_string(c.sw.out_buf[k]) +
                          " phits); virtual cut-through needs every buffer on the path to hold a whole frame");
    }
  if (!frames.empty() && topology_plugin(c.topo_kind))
    throw ConfigError("config key '" + frames.front().first + "': control frames are routed by scfly's minimal routing "
                      "of a Dragonfly, torus or mesh; topology " + to_string(c.topo_kind) +
                      " (a plug-in) has none, so leave control frames off");
  if (!frames.empty())
    for (int k = 0; k < classes; ++k) {
      const std::string key = class_in_key(tp, k);
      const VcBudget need = RoutingUnit::control_vcs();
      if (c.topo_kind != TopologyKind::Dragonfly)
        c.sw.ctrl_vcs[k] = k == kHostClass ? 0 : RoutingUnit::control_link_vcs(c.topo_kind == TopologyKind::Mesh);
      else
        c.sw.ctrl_vcs[k] = key == "local" ? need.local : key == "global" ? need.global : 0;
      if (c.sw.vcs[k] + c.sw.ctrl_vcs[k] > kMaxPortVcs)
        throw ConfigError("config key 'switch.vcs." + key + "': value " + std::to_string(c.sw.vcs[k]) +
                          " leaves no room for the " + std::to_string(c.sw.ctrl_vcs[k]) +
                          " control VCs above it (at most " + std::to_string(kMaxPortVcs) + " VCs per port)");
    }

  // CHAOS: the multiqueue is a switch variant of routing chaos only.
  if (c.routing != RoutingAlgo::Chaos) {
    c.sw.multiqueue = 0;
  } else {
    if (!frames.empty())
      throw ConfigError("config key '" + frames.front().first +
                        "': control frames are not allowed with routing chaos (its multiqueue takes the switch's "
                        "internal port); use another routing or no control frames");
    if (c.sw.flow_control == FlowControl::Pfc)
      throw ConfigError("config key 'switch.flow_control': value 'pfc' is not allowed with routing chaos; use credit");
    if (c.torus.n > 4)
      throw ConfigError("config key 'topology.n': value " + std::to_string(c.torus.n) +
                        " is not allowed with routing chaos (a deroute offers every link port, at most 8); use 1-4");
  }

  if (c.sw.rtl_allocator) {
    if (allocator_plugin(c.sw.allocator))
      throw ConfigError("config key 'rtl': block 'allocator' co-simulates scfly's own allocators only, not the plug-in "
                        "switch.allocator " + std::string(to_string(c.sw.allocator)) +
                        "; use separable-input, separable-output, wavefront or islip, or drop allocator from rtl");
    // The Verilated allocator's widths (rtl_blocks.h): the allocator's ports (the radix, + 1
    // internal port with control frames or a multiqueue), the VCs of a port (the
    // multiqueue's slots are its internal port's) and the connections a port holds.
    bool control = false;
    for (int k = 0; k < classes; ++k) control = control || c.sw.ctrl_vcs[k] > 0;
    const int ports = tp.radix() + (control || c.sw.multiqueue > 0 ? 1 : 0);
    int vcs = std::max(c.sw.multiqueue, control ? 1 : 0);
    for (int k = 0; k < classes; ++k) vcs = std::max(vcs, c.sw.vcs[k] + c.sw.ctrl_vcs[k]);
    const int cap = c.sw.xbar_transfer ? 1 : c.sw.speedup;
    if (!rtl_allocator_fits(ports, vcs, cap, c.sw.allocator))
      throw ConfigError("config key 'rtl': block 'allocator' (the switch's allocator, switch.allocator " +
                        std::string(to_string(c.sw.allocator)) + ") is Verilated in this build for up to " +
                        rtl_allocator_limits(c.sw.allocator) + "; " + tp.describe() + " with these options "
                        "needs " + std::to_string(ports) + " ports" + (ports > tp.radix() ? " (an internal one)" : "") +
                        ", " + std::to_string(vcs) + " VCs on a port" +
                        (c.sw.multiqueue > 0 ? " (chaos.multiqueue slots)" : "") + " and " + std::to_string(cap) +
                        " connections per port (switch.speedup)");
    // Grants that change the room of other output VCs than their own: not in the RTL.
    if (c.sw.out_shared)
      throw ConfigError("config key 'rtl': block 'allocator' is not allowed with switch.output_sharing: port; the RTL "
                        "allocator takes each output VC's room as fixed within a cycle, which a buffer shared by a "
                        "port's VCs is not (use switch.output_sharing: vc)");
    if (c.sw.eject_on_idle_host)
      throw ConfigError("config key 'rtl': block 'allocator' is not allowed with switch.ejection_grant: host-idle; "
                        "the RTL allocator grants an output VC once per cycle, which host-idle ejection does not "
                        "(use switch.ejection_grant: room)");
  }

  // The flow-control block drains one phit per input VC per cycle (its drain_i is a bit): a
  // transfer crossbar at speedup S moves S phits of an input VC per cycle, each of which may
  // cross XON under PFC (credits land as a count and are not limited).
  if (c.sw.rtl_flow_control && c.sw.flow_control == FlowControl::Pfc && c.sw.xbar_transfer && c.sw.speedup > 1)
    throw ConfigError("config key 'rtl': block 'flow_control' is not allowed with switch.flow_control: pfc and "
                      "switch.crossbar: transfer at switch.speedup " + std::to_string(c.sw.speedup) +
                      "; the RTL flow control drains one phit per input VC per cycle, a transfer crossbar " +
                      std::to_string(c.sw.speedup) + " (use switch.crossbar: phit, switch.speedup: 1 or credit flow control)");

  if (c.sw.flow_control == FlowControl::Pfc && c.routing_prm.ugal.measure != QueueMeasure::Output)
    throw ConfigError(std::string("config key 'ugal.occupancy': value '") + to_string(c.routing_prm.ugal.measure) +
                      "' is not allowed with switch.flow_control: pfc; under PFC no credits exist and routing "
                      "may read only its own output queues (use output)");

  uint32_t max_latency = 0;
  for (int k = 0; k < classes; ++k) max_latency = std::max(max_latency, c.sw.latency[k]);
  if (c.sw.flow_control == FlowControl::Pfc)
    for (int k = 0; k < classes; ++k) {
      // PFC thresholds: after the receiver's PAUSE, up to a link round trip of phits and the
      // rest of a packet in progress can still arrive; 2 x latency + 2 packets of headroom
      // (the QCN spec's default, 2 MTU) keep the network lossless. XON one packet below.
      const uint64_t P = static_cast<uint64_t>(c.packet_phits);
      const uint64_t headroom = 2ULL * c.sw.latency[k] + 2 * P;
      if (c.sw.in_buf[k] < headroom + P)
        throw ConfigError("config key 'switch.input_buffer." + class_in_key(tp, k) + "': value " +
                          std::to_string(c.sw.in_buf[k]) + " phits is too small for switch.flow_control: pfc, "
                          "which needs PFC headroom 2 x latency + 2 packets = " + std::to_string(headroom) +
                          " phits plus one packet below XOFF, at least " + std::to_string(headroom + P) + " phits");
      c.sw.pfc_xoff[k] = static_cast<uint32_t>(c.sw.in_buf[k] - headroom);
      c.sw.pfc_xon[k] = static_cast<uint32_t>(c.sw.pfc_xoff[k] - P);
    }
  c.routing_prm.pb.delay = static_cast<uint32_t>(
      s.pb_delay >= 0 ? s.pb_delay
                      : c.topo_kind == TopologyKind::Dragonfly ? c.sw.latency[static_cast<int>(PortClass::Local)] : 1);
  // The run's last cycle must be a time the simulation can reach (2^63 ps, about 107 days, the
  // largest time the run reaches; measured: with a slower clock the run ended at 2^63 ps,
  // early and silently).
  {
    const double period_ps = 1000.0 / c.clock_ghz;
    const double cycles = static_cast<double>(c.warmup_cycles) + static_cast<double>(c.measure_cycles) +
                          (c.drain ? static_cast<double>(c.drain_timeout_cycles) : 0.0) + 2.0;
    const double max_ps = 9223372036854775808.0;  // 2^63
    if (cycles * period_ps >= max_ps) {
      std::ostringstream os;
      os << "config key 'clock_ghz': value " << c.clock_ghz << " is not allowed with a run of "
         << static_cast<uint64_t>(cycles) << " cycles (warm-up, measurement"
         << (c.drain ? ", drain timeout" : "") << "): its last cycle would lie past the longest time a run reaches "
         << "(2^63 ps, about 107 days); use clock_ghz >= " << std::setprecision(3) << cycles * 1000.0 / max_ps * 1.001
         << " or fewer cycles";
      throw ConfigError(os.str());
    }
  }
  // The watchdog must not mistake a phit in flight on a long link for a stuck network.
  const uint64_t longest = 2ULL * max_latency + static_cast<uint64_t>(c.sw.pipeline) +
                           static_cast<uint64_t>(c.packet_phits);
  if (c.watchdog_cycles <= longest)
    throw ConfigError("config key 'watchdog_cycles': value " + std::to_string(c.watchdog_cycles) +
                      " is not longer than the slowest credit round trip plus a packet (" + std::to_string(longest) +
                      " cycles); use a larger value");
}

// Reads every key of the schema in its order (config_schema.h), then the rules between keys.
SimConfig parse(YAML::Node root, std::vector<std::string>* given) {
  ParseState s;
  bool checked = false;
  for (const KeySpec& k : config_keys()) {
    if (checked && !k.applies(s.c.topo_kind)) continue;
    if (checked && !s.topo && k.path.compare(0, 9, "topology.") != 0) {
      // Every topology key read: the shape is checked and built (later keys read it).
      if (s.c.topo_kind == TopologyKind::Dragonfly) {
        if (auto why = check_shape(s.c.topology); !why.empty())
          throw ConfigError("invalid topology dfly(" + std::to_string(s.c.topology.p) + "," +
                            std::to_string(s.c.topology.a) + "," + std::to_string(s.c.topology.h) + "," +
                            std::to_string(s.c.topology.g) + "): " + why);
      } else if (const TopologyPlugin* p = topology_plugin(s.c.topo_kind)) {
        try {
          s.topo = make_plugin_topology(*p, s.c.topo_plugin);
        } catch (const std::invalid_argument& e) {
          std::string shape;
          for (const auto& [key, value] : s.c.topo_plugin)
            shape += (shape.empty() ? "" : ", ") + key + "=" + std::to_string(value);
          throw ConfigError("invalid topology " + p->name + " (" + shape + "): " + e.what());
        }
      } else {
        s.c.torus.mesh = s.c.topo_kind == TopologyKind::Mesh;
        if (auto why = check_shape(s.c.torus); !why.empty())
          throw ConfigError("invalid topology " + std::string(to_string(s.c.topo_kind)) + " k=" +
                            std::to_string(s.c.torus.k) + ", n=" + std::to_string(s.c.torus.n) + ": " + why);
      }
      if (!s.topo) s.topo = make_topology(s.c);
    }
    const YAML::Node v = lookup(root, k.path);
    if (given && v && !v.IsNull()) given->push_back(k.path);
    if (k.kind == KeyKind::Custom) {
      k.custom(s, v);
      continue;
    }
    const KeyValue val = !v || v.IsNull() ? k.def(s) : read_value(k, v, s);
    if (k.check)
      if (std::string why = k.check(s, val); !why.empty()) throw ConfigError(why);
    k.set(s, val);
    if (!checked) {  // topology.kind comes first: it decides which keys exist
      check_keys(root, "", s.c.topo_kind);
      checked = true;
    }
  }
  validate(s);
  return s.c;
}

YAML::Node load_yaml_text(const std::string& text, const std::string& origin) {
  try {
    YAML::Node n = YAML::Load(text);
    if (!n || n.IsNull()) return YAML::Node(YAML::NodeType::Map);
    reject_duplicate_keys(n, origin, "");
    return n;
  } catch (const YAML::Exception& e) {
    throw ConfigError(origin + ": not valid YAML: " + e.what());
  }
}

SimConfig parse_with(YAML::Node root, const std::vector<std::string>& overrides, std::vector<std::string>* given) {
  if (!root.IsMap()) throw ConfigError("config: the top level must be a mapping of keys");
  for (const auto& ov : overrides) apply_override(root, ov);
  if (given) given->clear();
  try {
    return parse(root, given);
  } catch (const YAML::Exception& e) {
    throw ConfigError(std::string("config: ") + e.what());
  }
}

}  // namespace

void parse_phases(ParseState& s, const YAML::Node& ph) {
  // Phases: a list of {start, traffic, load}; traffic and load default to the top-level
  // keys. The first starts at 0; starts strictly increase. Absent or [] = one phase.
  SimConfig& c = s.c;
  if (!ph || ph.IsNull() || (ph.IsSequence() && ph.size() == 0)) return;
  if (!ph.IsSequence())
    throw ConfigError("config key 'phases': value " + show(ph) +
                      " is not allowed; expected a list of {start: cycle, traffic: pattern, load: phits/node/cycle}");
  c.phases_given = true;
  const Topology& t = *s.topo;
  for (size_t i = 0; i < ph.size(); ++i) {
    Section e(ph[i], "phases[" + std::to_string(i) + "]");
    TrafficPhase tp;
    const int64_t start = e.integer("start", i == 0 ? 0 : -1, 0, 1LL << 40, " cycles");
    if (start < 0)
      throw ConfigError("config key '" + e.key("start") +
                        "' is missing; every phase after the first needs a start cycle");
    tp.start = static_cast<uint64_t>(start);
    const std::string tr = e.text("traffic", to_string(c.traffic));
    if (auto why = parse_traffic(tr, tp.traffic); !why.empty())
      throw ConfigError("config key '" + e.key("traffic") + "': value '" + tr + "' is not allowed: " + why);
    if (auto why = check_traffic(tp.traffic, t); !why.empty())
      throw ConfigError("config key '" + e.key("traffic") + "': value '" + tr + "' is not allowed: " + why);
    tp.load = e.real("load", c.load, 0.0, t.terminal_ports(),
                     "an offered load in [0, " + std::to_string(t.terminal_ports()) +
                         "] phits/node/cycle (0 = sources silent)",
                     true);
    e.finish();
    if (i == 0 && tp.start != 0)
      throw ConfigError("config key 'phases[0].start': value " + std::to_string(tp.start) +
                        " is not allowed; the first phase starts at cycle 0");
    if (i > 0 && tp.start <= c.phases.back().start)
      throw ConfigError("config key '" + e.key("start") + "': value " + std::to_string(tp.start) +
                        " is not allowed; phase starts must strictly increase (previous " +
                        std::to_string(c.phases.back().start) + ")");
    c.phases.push_back(tp);
  }
}

namespace {

// scfly's own RTL blocks, each described once: its name, the networks it serves, the
// routings it needs (as `scfly run --help` prints them), what it is, the switch's flag it
// sets (SwitchParams::rtl_*), whether the configuration's routing uses the unit (null:
// every routing) and the limits it holds that parse_rtl checks (null: none; ConfigErrors
// naming the key and the limit). Limits that need the whole configuration resolved (the
// allocator's, flow control's, the threshold controller's, QCN's Q_eq) are validate()'s.
struct RtlBlockSpec {
  const char* name;
  RtlNet net;
  const char* routings;
  const char* what;
  bool SwitchParams::*flag;
  bool (*uses)(const SimConfig&);
  void (*limits)(const ParseState&);
};

void qcn_limits(const ParseState& s, const char* n) {
  const SimConfig& c = s.c;
  const int transit = c.topology.a - 1 + c.topology.h;
  if (transit > kQcnPortsMax)
    throw ConfigError(std::string("config key 'rtl': block '") + n + "' holds " + std::to_string(kQcnPortsMax) +
                      " transit ports; dfly(" + std::to_string(c.topology.p) + "," + std::to_string(c.topology.a) +
                      "," + std::to_string(c.topology.h) + "," + std::to_string(c.topology.g) + ") has " +
                      std::to_string(transit));
}

bool uses_qcn(const SimConfig& c) {
  return c.routing == RoutingAlgo::MinCond && c.routing_prm.trigger == MinCondTrigger::Qcn;
}

const RtlBlockSpec kRtlBlocks[] = {
    {"min_route", RtlNet::Dragonfly, "any but min-table", "the minimal-hop unit", &SwitchParams::rtl_min_route,
     nullptr,
     [](const ParseState& s) {
       const SimConfig& c = s.c;
       if (c.routing == RoutingAlgo::MinTable)
         throw ConfigError("config key 'rtl': block 'min_route' (the minimal-hop unit) is not used by routing "
                           "min-table, which forwards by table lookup alone; use routing min");
       if (c.routing_prm.ugal.segment_link == SegmentLink::Random)
         throw ConfigError("config key 'rtl': block 'min_route' (the minimal-hop unit) draws among fewest-hop "
                           "links only; ugal.segment_link random has no RTL mirror yet");
       const DragonflyShape& t = c.topology;
       if (!rtl_min_route_supports(t))
         throw ConfigError("config key 'rtl': block 'min_route' holds " + rtl_min_route_shapes() + ", not " +
                           to_string(t.arrangement) + " dfly(" + std::to_string(t.p) + "," + std::to_string(t.a) +
                           "," + std::to_string(t.h) + "," + std::to_string(t.g) +
                           ") (its widths: rtl_models/interface/widths.def Mr*)");
     }},
    {"acor", RtlNet::Dragonfly, "acor-switch or pb-acor", "the ACOR-Switch level controller", &SwitchParams::rtl_acor,
     [](const SimConfig& c) { return uses_level_ctrl(c.routing); }, nullptr},
    {"ugal", RtlNet::Dragonfly, "ugal-l, ugal-g, par, pb or pb-acor", "the UGAL selector", &SwitchParams::rtl_ugal,
     [](const SimConfig& c) { return is_adaptive(c.routing); }, nullptr},
    {"pb", RtlNet::Dragonfly, "pb or pb-acor", "the Piggyback detector", &SwitchParams::rtl_pb,
     [](const SimConfig& c) { return uses_sat_flags(c.routing); },
     [](const ParseState& s) {
       if (!rtl_pb_supports(s.c.topology.h))
         throw ConfigError("config key 'rtl': block 'pb' (pb_sat_detector.sv) holds " + rtl_pb_widths() +
                           " global ports per switch, not topology.h = " + std::to_string(s.c.topology.h));
     }},
    {"table", RtlNet::Dragonfly, "min-table or min-cond", "the conditional forwarding table", &SwitchParams::rtl_table,
     [](const SimConfig& c) { return c.routing == RoutingAlgo::MinTable || c.routing == RoutingAlgo::MinCond; },
     nullptr},  // its size limit: checked per switch when the table is built
    {"qcn", RtlNet::Dragonfly, "min-cond with min_cond.trigger qcn", "QCN-Switch's port-probability unit",
     &SwitchParams::rtl_qcn, uses_qcn, [](const ParseState& s) { qcn_limits(s, "qcn"); }},
    {"qcn_cp", RtlNet::Dragonfly, "min-cond with min_cond.trigger qcn", "QCN's congestion points",
     &SwitchParams::rtl_qcn_cp, uses_qcn, [](const ParseState& s) { qcn_limits(s, "qcn_cp"); }},
    {"quadrant", RtlNet::Torus, "min-ad, goal, gal or chaos", "the in-quadrant selector", &SwitchParams::rtl_quadrant,
     [](const SimConfig& c) {
       return c.routing == RoutingAlgo::MinAd || c.routing == RoutingAlgo::Goal || c.routing == RoutingAlgo::Gal ||
              c.routing == RoutingAlgo::Chaos;
     },
     [](const ParseState& s) {
       if (s.c.torus.k > kCoordMax)
         throw ConfigError("config key 'rtl': block 'quadrant' holds " + std::to_string(kCoordBits) +
                           "-bit coordinates (topology.k <= " + std::to_string(kCoordMax) + "), not topology.k = " +
                           std::to_string(s.c.torus.k));
     }},
    {"gal_threshold", RtlNet::Torus, "gal", "GAL's threshold controller", &SwitchParams::rtl_gal_threshold,
     [](const SimConfig& c) { return c.routing == RoutingAlgo::Gal; }, nullptr},
    {"allocator", RtlNet::Any, "the switch's allocator", "the switch's allocator", &SwitchParams::rtl_allocator,
     nullptr, nullptr},
    {"flow_control", RtlNet::Any, "each switch port's credit counters and PFC state", "the switch's flow control",
     &SwitchParams::rtl_flow_control, nullptr, nullptr},
    {"link_arbiter", RtlNet::Any, "each switch port's link arbiter", "the switch's link arbiters",
     &SwitchParams::rtl_link_arbiter, nullptr, nullptr},
};

const RtlBlockSpec* rtl_block_spec(const std::string& n) {
  for (const RtlBlockSpec& b : kRtlBlocks)
    if (n == b.name) return &b;
  return nullptr;
}

}  // namespace

// The blocks `rtl` accepts, each with the routings it needs: the list parse_rtl checks
// against and `scfly run --help` prints (scfly's own, kRtlBlocks, then the plug-ins').
std::vector<RtlBlockInfo> rtl_blocks() {
  std::vector<RtlBlockInfo> blocks;
  for (const RtlBlockSpec& b : kRtlBlocks) blocks.push_back({b.name, b.net, b.routings});
  // A plug-in that routes on Dragonflies and tori alike is offered on both (Any); its
  // topologies are checked with its routing.
  for (const RoutingMechanism* m : routing_mechanisms())
    if (m->has_rtl())
      blocks.push_back({m->name, m->dragonfly && !(m->torus || m->mesh) ? RtlNet::Dragonfly
                                 : !m->dragonfly                         ? RtlNet::Torus
                                                                         : RtlNet::Any,
                        m->name, true});
  return blocks;
}

std::string rtl_block_names(int dragonfly) {
  std::string out;
  for (const RtlBlockInfo& b : rtl_blocks())
    if (dragonfly < 0 || b.net == RtlNet::Any || (b.net == RtlNet::Dragonfly) == (dragonfly == 1))
      out += (out.empty() ? "" : ", ") + b.name;
  return out;
}

// rtl_switches: the switches that co-simulate the `rtl` blocks (read after `rtl`).
void parse_rtl_switches(ParseState& s, const YAML::Node& r) {
  SimConfig& c = s.c;
  const int S = s.topo->num_switches();
  const std::string allowed = "a list of distinct switch ids in [0, " + std::to_string(S - 1) + "] (" +
                              s.topo->describe() + "), e.g. [0, 5]";
  std::vector<std::string> items;
  if (r && r.IsScalar() && !r.Scalar().empty()) {
    std::stringstream ss(r.Scalar());
    for (std::string n; std::getline(ss, n, ',');) items.push_back(n);
  } else if (r && r.IsSequence()) {
    for (const auto& n : r) {
      if (!n.IsScalar())
        throw ConfigError("config key 'rtl_switches': value " + show(r) + " is not allowed; expected " + allowed);
      items.push_back(n.Scalar());
    }
  } else if (r && !r.IsNull() && !(r.IsScalar() && r.Scalar().empty())) {
    throw ConfigError("config key 'rtl_switches': value " + show(r) + " is not allowed; expected " + allowed);
  }
  for (const std::string& it : items) {
    size_t used = 0;
    long v = -1;
    try {
      v = std::stol(it, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != it.size() || v < 0 || v >= S)
      throw ConfigError("config key 'rtl_switches': value '" + it + "' is not allowed; expected " + allowed);
    if (std::find(c.rtl_switches.begin(), c.rtl_switches.end(), static_cast<int>(v)) != c.rtl_switches.end())
      throw ConfigError("config key 'rtl_switches': switch " + it + " is named twice; expected " + allowed);
    c.rtl_switches.push_back(static_cast<int>(v));
  }
  std::sort(c.rtl_switches.begin(), c.rtl_switches.end());
  if (c.rtl_switches.empty()) return;
  const bool any = c.sw.any_rtl();
  if (c.routing_prm.plugin_rtl)
    throw ConfigError(std::string("config key 'rtl_switches': not allowed with the plug-in block '") +
                      to_string(c.routing) + "' in 'rtl' (the plug-in's RTL is the network's routing, in every " +
                      "switch); drop rtl_switches or that block");
  if (!any)
    throw ConfigError("config key 'rtl_switches': names switches for RTL blocks, and 'rtl' names none; add blocks "
                      "with --rtl (" + rtl_block_names(c.topo_kind == TopologyKind::Dragonfly) + ") or drop rtl_switches");
}

// RTL co-simulation: which Verilated blocks replace their C++ units in every switch.
void parse_rtl(ParseState& s, const YAML::Node& r) {
  SimConfig& c = s.c;
  const auto bad = [&](const std::string& allowed) {
    return ConfigError("config key 'rtl': value " + show(r) + " is not allowed; expected " + allowed);
  };
  std::vector<std::string> names;
  if (r && r.IsScalar() && !r.Scalar().empty()) {
    std::stringstream ss(r.Scalar());
    for (std::string n; std::getline(ss, n, ',');) names.push_back(n);
  } else if (r && r.IsSequence()) {
    for (const auto& n : r) {
      if (!n.IsScalar()) throw bad("a list of block names: " + rtl_block_names(-1));
      names.push_back(n.Scalar());
    }
  } else if (r && !r.IsNull() && !(r.IsScalar() && r.Scalar().empty())) {
    throw bad("a list of RTL blocks, e.g. [acor]");
  }
  const std::vector<RtlBlockInfo> blocks = rtl_blocks();
  const auto plugin_block = [&](const std::string& n) {
    for (const RtlBlockInfo& b : blocks)
      if (b.name == n) return b.plugin;
    return false;
  };
  // scfly's own blocks need an SCFLY_RTL build; a plug-in's RTL is its own, and a name that
  // is no block is refused below with the list.
  for (const auto& n : names)
    for (const RtlBlockInfo& b : blocks)
      if (b.name == n && !b.plugin && !rtl_available())
        throw ConfigError("config key 'rtl': this build has no RTL blocks (configure with -DSCFLY_RTL=ON)");
  const bool dfly_net = c.topo_kind == TopologyKind::Dragonfly;
  const std::string routing_now = to_string(c.routing);
  for (const auto& n : names) {
    bool dfly_block = false, torus_block = false;
    for (const RtlBlockInfo& b : blocks)
      if (b.name == n && b.net != RtlNet::Any) (b.net == RtlNet::Dragonfly ? dfly_block : torus_block) = true;
    const bool torus_net = c.topo_kind == TopologyKind::Torus || c.topo_kind == TopologyKind::Mesh;
    if (dfly_block && !dfly_net)
      throw ConfigError("config key 'rtl': block '" + n + "' is a Dragonfly unit; " + s.topo->describe() +
                        (torus_net ? " has the torus blocks " + rtl_block_names(0) : std::string(" is not a Dragonfly")));
    if (torus_block && !torus_net)
      throw ConfigError("config key 'rtl': block '" + n + "' is a torus/mesh unit; " + s.topo->describe() +
                        (dfly_net ? " has the Dragonfly blocks " + rtl_block_names(1)
                                  : std::string(" is neither a torus nor a mesh")));
    if (plugin_block(n)) {
      // A routing plug-in's RTL variant: its policy built by make_rtl (registry.h).
      if (to_string(c.routing) != n)
        throw ConfigError("config key 'rtl': block '" + n + "' (the plug-in's Verilated decision) needs routing " + n +
                          ", not " + routing_now);
      c.routing_prm.plugin_rtl = true;
    } else if (const RtlBlockSpec* b = rtl_block_spec(n)) {
      if (b->uses && !b->uses(c))
        throw ConfigError("config key 'rtl': block '" + n + "' (" + b->what + ") needs routing " + b->routings +
                          ", not " + routing_now);
      if (b->limits) b->limits(s);
      c.sw.*(b->flag) = true;
    } else {
      std::string dfly, torus, any;
      for (const RtlBlockInfo& b : blocks) {
        std::string& l = b.net == RtlNet::Dragonfly ? dfly : b.net == RtlNet::Torus ? torus : any;
        l += (l.empty() ? "" : ", ") + b.name;
      }
      throw ConfigError("config key 'rtl': value '" + n + "' is not allowed; blocks: " + dfly + " (Dragonfly), " +
                        torus + " (torus/mesh), " + any + " (any network)");
    }
  }
}

std::string allowed_text(const KeySpec& k) {
  if (!k.allowed_doc.empty()) return k.allowed_doc;
  switch (k.kind) {
    case KeyKind::Integer: {
      // The unit's first word ("cycles", "packets"), none for a gloss in parentheses.
      const std::string u = k.unit.empty() || k.unit[0] == '(' ? "" : with_unit(k.unit.substr(0, k.unit.find(' ')));
      if (k.hi >= (int64_t{1} << 30)) return "≥ " + std::to_string(k.lo) + u;
      return std::to_string(k.lo) + "–" + std::to_string(k.hi) + u;
    }
    case KeyKind::Real: {
      std::ostringstream os;
      os << (k.rlo_included ? "[" : "(") << k.rlo << ", " << k.rhi << "]";
      return os.str();
    }
    case KeyKind::Boolean: return "bool";
    case KeyKind::Choice: {
      std::string s;
      for (const KeyChoice& c : k.choices) s += (s.empty() ? "" : ", ") + c.value;
      return s;
    }
    case KeyKind::VcCount: return "1–16 or auto";
    case KeyKind::Buffer: return "≥ packet_phits";
    case KeyKind::Text:
    case KeyKind::Custom: break;
  }
  return "";
}

std::string expected_text(const KeySpec& k, const ParseState& s) {
  if (k.expected_of) return k.expected_of(s);
  if (!k.expected.empty()) return k.expected;
  if (k.kind == KeyKind::Choice) {
    std::vector<std::string> items;
    for (const KeyChoice& c : k.choices) items.push_back(c.note.empty() ? c.value : c.value + " (" + c.note + ")");
    return join_or(items);
  }
  return allowed_text(k);
}

namespace {
// A Markdown table cell: a '|' inside it would end the cell.
std::string cell(const std::string& text) {
  std::string out;
  for (char ch : text) out += ch == '|' ? std::string("\\|") : std::string(1, ch);
  return out;
}
}  // namespace

std::string keys_markdown() {
  std::string md = "| key | default | allowed | meaning |\n|---|---|---|---|\n";
  std::string conditional, run_only;
  for (const KeySpec& k : config_keys()) {
    if (k.run_only) run_only += (run_only.empty() ? "`" : ", `") + k.path + "`";
    const std::string where = k.scope == KeyScope::Torus       ? "torus/mesh: "
                              : k.scope == KeyScope::Dragonfly ? "Dragonfly: "
                              : k.scope == KeyScope::Plugin    ? std::string(to_string(k.plugin_kind)) + ": "
                                                               : "";
    const std::string read_by = k.used_by.empty() ? "" : " (read only by " + k.used_by + ")";
    md += "| `" + k.path + "` | " + cell(k.default_doc) + " | " + cell(allowed_text(k)) + " | " +
          cell(where + k.doc + read_by) + " |\n";
    if (!k.echo_note.empty()) conditional += (conditional.empty() ? "" : ", ") + ("`" + k.path + "` (" + k.echo_note + ")");
  }
  md += "\nEvery key above is in the JSON `config` echo with its resolved value, except " + conditional +
        ": these appeared after sweep databases keyed by the echo existed, so the echo holds them only where "
        "they were not the behaviour before them, and every stored point keeps its hash.\n\nKeys that change "
        "no route and no VC are left out of the routing shape that keys the cached deadlock verdict of a run "
        "(docs/model.md, Deadlock freedom): " + run_only + "; so are the keys a configuration never reads (those "
        "marked \"read only by\").\n\nA key marked \"read only by\" that a configuration gives (in the file or as an "
        "override) but does not read gets a warning, `scfly: warning: config key 'K' has no effect with routing R; "
        "it is read by ...` (exit code unchanged: one base file serves a sweep over routings; a sweep warns once, of "
        "the keys no point reads).\n";
  return md;
}

std::string routings_markdown() {
  std::string md =
      "| routing | topologies | minimum VCs | the switch provides | kind | what it is |\n|---|---|---|---|---|---|\n";
  for (const RoutingMechanism* m : routing_mechanisms()) {
    std::string topo, vcs, needs;
    auto add = [](std::string& s, const std::string& x) { s += (s.empty() ? "" : ", ") + x; };
    if (m->dragonfly) {
      add(topo, "Dragonfly");
      add(vcs, "local " + std::to_string(m->vcs.local) + " / global " + std::to_string(m->vcs.global));
    }
    if (m->torus) {
      add(topo, "torus");
      add(vcs, "torus link " + std::to_string(m->torus_vcs));
    }
    if (m->mesh) {
      add(topo, "mesh");
      add(vcs, "mesh link " + std::to_string(m->mesh_vcs));
    }
    for (const std::string& t : m->topologies) {  // plug-in topologies
      add(topo, t);
      add(vcs, t + " " + std::to_string(m->link_vcs) + " per class");
    }
    if (m->adaptive) add(needs, "congestion view");
    if (m->level_ctrl) add(needs, "ACOR level controller");
    if (m->sat_flags) add(needs, "Piggyback flags");
    if (m->global_load) add(needs, "network-wide view (kernel scheduler)");
    if (m->recomputes) add(needs, "re-routing at injection");
    std::string kind = m->plugin() ? "plug-in" : "built-in";
    std::string prefix = m->name;
    std::replace(prefix.begin(), prefix.end(), '-', '_');
    for (const RoutingKey& k : m->keys) kind += ", `" + prefix + "." + k.name + "`";
    md += "| `" + m->name + "` | " + topo + " | " + vcs + " | " + (needs.empty() ? "-" : needs) + " | " + kind +
          " | " + cell(m->doc) + " |\n";
  }
  return md;
}

// yaml-cpp keeps both entries of a mapping key given twice and answers lookups with the
// first one: a typo'd duplicate would silently be ignored, so it is an error.
//
// The same walk bounds what a hostile file can make every later reader do: yaml-cpp resolves
// an alias to the anchored node itself, so `a: &a [*a]` is a node that contains itself (an
// unbounded walk) and a "billion laughs" file of nested aliases expands exponentially. The
// walk counts every node as often as an alias repeats it, and refuses a node inside itself,
// nesting deeper than kYamlMaxDepth, more than kYamlMaxNodes nodes or a scalar longer than
// kYamlMaxScalar characters, naming the file.
namespace {
struct YamlWalk {
  const std::string& origin;
  size_t nodes = 0;
  std::vector<YAML::Node> stack;  // the ancestors of the node being walked
};

std::string yaml_where(const std::string& where) { return where.empty() ? std::string("the top level") : "'" + where + "'"; }

void walk_yaml(YamlWalk& w, const YAML::Node& n, const std::string& where) {
  for (const YAML::Node& up : w.stack)
    if (up.is(n))
      throw ConfigError(w.origin + ": the alias at " + yaml_where(where) + " (line " + std::to_string(n.Mark().line + 1) +
                        ") refers to a node that contains it (a recursive alias); YAML data must be a tree");
  if (++w.nodes > kYamlMaxNodes)
    throw ConfigError(w.origin + ": more than " + std::to_string(kYamlMaxNodes) +
                      " YAML nodes, counting each use of an alias (at " + yaml_where(where) +
                      "); a configuration needs far fewer (an alias bomb?)");
  if (w.stack.size() >= kYamlMaxDepth)
    throw ConfigError(w.origin + ": YAML nested more than " + std::to_string(kYamlMaxDepth) + " levels deep (at " +
                      yaml_where(where.substr(0, 200)) + ")");
  if (n.IsScalar()) {
    if (n.Scalar().size() > kYamlMaxScalar)
      throw ConfigError(w.origin + ": the value at " + yaml_where(where) + " (line " +
                        std::to_string(n.Mark().line + 1) + ") is " + std::to_string(n.Scalar().size()) +
                        " characters long; at most " + std::to_string(kYamlMaxScalar) + " are allowed");
    return;
  }
  w.stack.push_back(n);
  if (n.IsMap()) {
    std::set<std::string> seen;
    for (const auto& kv : n) {
      walk_yaml(w, kv.first, where);
      const std::string k = kv.first.IsScalar() ? kv.first.Scalar() : "?";
      const std::string path = where.empty() ? k : where + "." + k;
      if (kv.first.IsScalar() && !seen.insert(k).second)
        throw ConfigError(w.origin + ": key '" + path + "' is given twice (line " +
                          std::to_string(kv.first.Mark().line + 1) + "); keep one");
      walk_yaml(w, kv.second, path);
    }
  } else if (n.IsSequence()) {
    size_t i = 0;
    for (const auto& e : n) walk_yaml(w, e, where + "[" + std::to_string(i++) + "]");
  }
  w.stack.pop_back();
}
}  // namespace

void reject_duplicate_keys(const YAML::Node& n, const std::string& origin, const std::string& where) {
  if (!n.IsDefined()) return;
  YamlWalk w{origin, 0, {}};
  walk_yaml(w, n, where);
}

std::string read_yaml_file(const std::string& path, const std::string& what) {
  struct stat st{};
  if (::stat(path.c_str(), &st) != 0) throw ConfigError(what + " '" + path + "' does not exist");
  if (!S_ISREG(st.st_mode)) throw ConfigError(what + " '" + path + "' is not a regular file (a directory?)");
  if (static_cast<uint64_t>(st.st_size) > kYamlMaxFileBytes)
    throw ConfigError(what + " '" + path + "' is " + std::to_string(st.st_size) + " bytes; at most " +
                      std::to_string(kYamlMaxFileBytes) + " are allowed (is it the right file?)");
  std::ifstream in(path);
  if (!in) throw ConfigError(what + " '" + path + "' cannot be read");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

SimConfig parse_config_text(const std::string& yaml, const std::vector<std::string>& overrides,
                            std::vector<std::string>* given) {
  return parse_with(load_yaml_text(yaml, "config"), overrides, given);
}

SimConfig load_config(const std::string& path, const std::vector<std::string>& overrides,
                      std::vector<std::string>* given) {
  YAML::Node root = load_yaml_text(read_yaml_file(path, "config file"), path);
  // An empty file would silently run every default: almost certainly the wrong file.
  if (root.IsMap() && root.size() == 0)
    throw ConfigError("config file '" + path + "' has no keys (it is empty); a configuration names at least its "
                      "topology (start from sc_main/configs/dfly-tiny.yaml; `scfly keys` lists every key)");
  return parse_with(root, overrides, given);
}

std::vector<std::string> inert_keys(const SimConfig& c, const std::vector<std::string>& given) {
  std::vector<std::string> out;
  for (const KeySpec& k : config_keys())
    if (k.inert_with && k.applies(c.topo_kind) && std::find(given.begin(), given.end(), k.path) != given.end() &&
        !k.inert_with(c).empty())
      out.push_back(k.path);
  return out;
}

std::string inert_key_warning(const SimConfig& c, const std::string& key) {
  for (const KeySpec& k : config_keys())
    if (k.path == key && k.inert_with)
      return "config key '" + key + "' has no effect with " + k.inert_with(c) + "; it is read by " + k.used_by;
  return "";
}

std::vector<std::string> inert_key_warnings(const SimConfig& c, const std::vector<std::string>& given) {
  std::vector<std::string> out;
  for (const std::string& k : inert_keys(c, given)) out.push_back(inert_key_warning(c, k));
  return out;
}

// The echo, derived from the schema: every key of this topology with its resolved value
// (config_schema.h says which keys are echoed only in some configurations, and why).
namespace {
nlohmann::json echo_keys(const SimConfig& c, bool shape_only) {
  nlohmann::json j = nlohmann::json::object();
  for (const KeySpec& k : config_keys()) {
    if (!k.applies(c.topo_kind) || (k.echo_if && !k.echo_if(c)) || (shape_only && k.run_only)) continue;
    // A key this configuration never reads (KeySpec::inert_with) shapes nothing either.
    if (shape_only && k.inert_with && !k.inert_with(c).empty()) continue;
    const std::vector<std::string> parts = split_path(k.path);
    nlohmann::json* cur = &j;
    for (size_t i = 0; i + 1 < parts.size(); ++i) cur = &(*cur)[parts[i]];
    (*cur)[parts.back()] = k.echo(c);
  }
  return j;
}
}  // namespace

nlohmann::json config_to_json(const SimConfig& c) { return echo_keys(c, false); }
nlohmann::json routing_shape_json(const SimConfig& c) { return echo_keys(c, true); }

std::string routing_summary(const SimConfig& c) {
  std::string s = to_string(c.routing);
  const RoutingParams& r = c.routing_prm;
  if (const RoutingMechanism& m = mechanism(c.routing); m.plugin()) {
    std::string keys;
    for (const RoutingKey& k : m.keys) {
      const auto it = r.plugin.find(plugin_key(m, k.name));
      std::ostringstream v;
      v << (it == r.plugin.end() ? k.def : it->second);
      keys += (keys.empty() ? "" : ", ") + k.name + " " + v.str();
    }
    s += " (plug-in" + (keys.empty() ? std::string() : ": " + keys) + ")";
  } else if (c.routing == RoutingAlgo::Gal) {
    const GalParams& g = r.gal;
    std::string sets;  // the value as the schema names it
    for (const KeySpec& k : config_keys())
      if (k.path == "gal.sets") sets = k.echo(c).get<std::string>();
    s += " (sets " + sets + ", queues " + std::to_string(g.queue_depth) + ", T " +
         (g.threshold.adaptive ? "adaptive " + std::to_string(g.threshold.t_min) + ".." + std::to_string(g.threshold.t_max) +
                                     " n1 " + std::to_string(g.threshold.n1) + " n2 " + std::to_string(g.threshold.n2)
                               : "fixed " + std::to_string(g.threshold.t0)) +
         ")";
  } else if (c.topo_kind != TopologyKind::Dragonfly) {
    // torus routings have no options beyond the VCs
  } else if (c.routing == RoutingAlgo::Val) {
    s += std::string(" ") + to_string(r.val.policy);
    if (r.val.restricted) s += " restricted";
    if (r.val.recompute) s += " recompute";
  } else if (c.routing == RoutingAlgo::AcorPacket) {
    s += std::string(" ") + to_string(r.acor.sequence);
  } else if (is_tugal(c.routing) || (r.ugal.vlb_set != TvlbClass::All && is_adaptive(c.routing))) {
    s += std::string(" (T-VLB ") + tvlb_rule_overrides(TvlbRule{r.ugal.vlb_set, r.ugal.vlb_percent, r.ugal.vlb_seed})
                                       .substr(std::string("ugal.vlb_set=").size());
    const size_t removed = r.ugal.removed ? r.ugal.removed->keys.size() : 0;
    if (!r.ugal.paths.empty()) s += ", " + std::to_string(removed) + " removed by " + r.ugal.paths;
    else if (r.ugal.tau_global > 0 || r.ugal.tau_local > 0)
      s += ", " + std::to_string(removed) + " removed by the balance rule";
    s += ")";
  } else if (r.val.policy != Misroute::RrgSw && (c.routing == RoutingAlgo::UgalL ||
                                                c.routing == RoutingAlgo::UgalG ||
                                                c.routing == RoutingAlgo::Par || c.routing == RoutingAlgo::Pb)) {
    s += std::string(" (VLB ") + to_string(r.val.policy) + ")";
  } else if (c.routing == RoutingAlgo::MinCond) {
    if (r.trigger == MinCondTrigger::Pause) {
      s += " (pause-triggered)";
    } else {
      const QcnParams& q = r.qcn;
      s += std::string(" QCN-Switch ") + to_string(q.sampling) + (q.source_processing ? "+SP" : "") +
           (q.feedback_comparison ? "+FbC" : "") + " (CPC " + std::to_string(q.cpc) + ", " +
           std::to_string(q.cnm_percent) + "% CNMs, Lf 1/" + std::to_string(q.lf_den) + ", PC_l " +
           std::to_string(q.pc_limit) + ")";
    }
  } else if (c.routing == RoutingAlgo::AcorSwitch || c.routing == RoutingAlgo::PbAcor) {
    const AcorLevelParams& l = r.acor.ctrl;
    s += std::string(" ") + to_string(r.acor.sequence) + " (HI " + std::to_string(l.hi) + ", IT " +
         std::to_string(l.it[0]) + "/" + std::to_string(l.it[1]) + ", DT " + std::to_string(l.dt[0]) +
         "/" + std::to_string(l.dt[1]) + ")";
  }
  const UgalParams& u = r.ugal;
  if (is_adaptive(c.routing) && c.topo_kind == TopologyKind::Dragonfly &&
      (u.intermediate != UgalIntermediate::Any || u.segment_link != SegmentLink::Shortest ||
       u.multiplier != UgalMultiplier::Hops)) {
    std::string b;
    if (u.intermediate != UgalIntermediate::Any) b += "intermediate other-groups";
    if (u.segment_link != SegmentLink::Shortest) b += std::string(b.empty() ? "" : ", ") + "random segment links";
    if (u.multiplier != UgalMultiplier::Hops) b += std::string(b.empty() ? "" : ", ") + "q_min <= 2 q_vlb";
    s += " [" + b + "]";
  }
  return s;
}

std::string traffic_summary(const SimConfig& c) {
  if (!c.phases_given) return to_string(c.traffic);
  std::string s;
  for (const auto& p : c.phases) {
    std::ostringstream os;
    os << (s.empty() ? "" : " -> ") << to_string(p.traffic) << " " << p.load << "@" << p.start;
    s += os.str();
  }
  return s;
}

std::vector<std::string> sizing_warnings(const SimConfig& c) {
  std::vector<std::string> out;
  const std::unique_ptr<Topology> topo_ptr = make_topology(c);
  const Topology& tp = *topo_ptr;
  for (int k = 0; k < tp.num_port_classes(); ++k) {
    const std::string name = class_in_key(tp, k);
    const uint64_t rt = 2ULL * c.sw.latency[k] + static_cast<uint64_t>(c.sw.pipeline);
    if (c.sw.in_buf[k] >= rt) continue;
    const double cap = static_cast<double>(c.sw.in_buf[k]) / static_cast<double>(rt);
    std::ostringstream os;
    os.precision(3);
    os << "switch.input_buffer." << name << " = " << c.sw.in_buf[k]
       << " phits is smaller than the credit round trip of a " << name << " link (2 x "
       << c.sw.latency[k] << " + " << c.sw.pipeline << " pipeline = " << rt
       << " cycles): one VC can carry at most " << cap << " phits/cycle, and a link at most "
       << std::min(1.0, cap * c.sw.vcs[k]) << " phits/cycle with all " << c.sw.vcs[k]
       << " VCs busy";
    out.push_back(os.str());
  }
  return out;
}

}  // namespace scfly
