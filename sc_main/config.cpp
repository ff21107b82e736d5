#include "sc_main/config.h"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "rtl_models/verilog/rtl_blocks.h"

namespace scfly {

namespace {

std::string show(const YAML::Node& n) {
  if (n.IsScalar()) return "'" + n.Scalar() + "'";
  YAML::Emitter e;
  e << YAML::Flow << n;
  return e.c_str();
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
    if (!v || v.IsNull()) return def;
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
    if (!v || v.IsNull()) return def;
    double x;
    if (!v.IsScalar() || !YAML::convert<double>::decode(v, x) || !std::isfinite(x))
      throw ConfigError(bad(k, v, allowed));
    if (!((lo_included ? x >= lo : x > lo) && x <= hi)) throw ConfigError(bad(k, v, allowed));
    return x;
  }
  bool boolean(const std::string& k, bool def) {
    YAML::Node v = raw(k);
    if (!v || v.IsNull()) return def;
    bool x;
    if (!v.IsScalar() || !YAML::convert<bool>::decode(v, x))
      throw ConfigError(bad(k, v, "true or false"));
    return x;
  }
  std::string text(const std::string& k, const std::string& def) {
    YAML::Node v = raw(k);
    if (!v || v.IsNull()) return def;
    if (!v.IsScalar()) throw ConfigError(bad(k, v, "a single value"));
    return v.Scalar();
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

// Buffer depth: an integer (phits) or a string with unit: "720", "720 phits", "18KB",
// "18 KiB", "4500B"; bytes are rounded up to whole phits.
uint32_t buffer_size(Section& s, const std::string& k, uint32_t def, int phit_bytes) {
  YAML::Node v = s.raw(k);
  if (!v || v.IsNull()) return def;
  const std::string allowed =
      "a depth per VC in phits (e.g. 64) or bytes (e.g. '18KB', '4500B'), 1 to 10^7 phits";
  if (!v.IsScalar()) throw ConfigError(s.bad(k, v, allowed));
  std::istringstream is(v.Scalar());
  double num;
  std::string unit;
  if (!(is >> num)) throw ConfigError(s.bad(k, v, allowed));
  is >> unit;
  std::string rest;
  if (is >> rest) throw ConfigError(s.bad(k, v, allowed));
  double phits;
  if (unit.empty() || unit == "phits" || unit == "phit") phits = num;
  else if (unit == "B") phits = std::ceil(num / phit_bytes);
  else if (unit == "KB" || unit == "KiB") phits = std::ceil(num * 1024 / phit_bytes);
  else throw ConfigError(s.bad(k, v, allowed));
  if (phits != std::floor(phits) || phits < 1 || phits > 1e7) throw ConfigError(s.bad(k, v, allowed));
  return static_cast<uint32_t>(phits);
}

// VC count: an integer, or "auto" = the minimum the routing needs (returned as 0).
int vc_count(Section& s, const std::string& k, int def) {
  YAML::Node v = s.raw(k);
  if (!v || v.IsNull()) return def;
  if (v.IsScalar() && v.Scalar() == "auto") return 0;
  int64_t x;
  if (!v.IsScalar() || !YAML::convert<int64_t>::decode(v, x) || x < 1 || x > 16)
    throw ConfigError(s.bad(k, v, "an integer in [1, 16] or 'auto'"));
  return static_cast<int>(x);
}

// Per-port-class keys. The host class (0) is "injection" on the input side and "ejection"
// on the output side; every other class is configured under the name the topology gives it
// (Dragonfly: local, global): switch.vcs.<in>, switch.input_buffer.<in>,
// switch.output_buffer.<out>, links.<in>_latency.
std::string class_in_key(const Topology& t, int c) { return c == kHostClass ? "injection" : t.port_class_name(c); }
std::string class_out_key(const Topology& t, int c) { return c == kHostClass ? "ejection" : t.port_class_name(c); }

struct ClassDefaults {
  int vcs;  // 0 = auto (what the routing needs)
  uint32_t in_buf, out_buf, latency;
};
ClassDefaults class_defaults(const std::string& in_key) {
  if (in_key == "injection") return {1, 64, 32, 1};
  if (in_key == "local") return {0, 64, 32, 10};
  if (in_key == "global") return {0, 128, 32, 40};
  return {0, 64, 32, 1};
}

// Minimum VCs of a class for the routing's deadlock freedom (hop-slot rule), by class name.
int class_vcs_needed(RoutingAlgo r, const std::string& in_key) {
  const VcBudget need = required_vcs(r);
  if (in_key == "local") return need.local;
  if (in_key == "global") return need.global;
  return 1;
}

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

SimConfig parse(YAML::Node root) {
  SimConfig c;
  int64_t pb_delay = -1;  // -1: the local link latency
  Section top(root, "");

  Section topo = top.sub("topology");
  const std::string kind = topo.text("kind", "dragonfly");
  if (kind == "dragonfly") c.topo_kind = TopologyKind::Dragonfly;
  else if (kind == "torus") c.topo_kind = TopologyKind::Torus;
  else if (kind == "mesh") c.topo_kind = TopologyKind::Mesh;
  else throw ConfigError(topo.bad("kind", YAML::Node(kind), "dragonfly, torus (k-ary n-cube) or mesh"));
  if (c.topo_kind == TopologyKind::Dragonfly) {
    c.topology.p = static_cast<int>(topo.integer("p", 2, 1, 250));
    c.topology.a = static_cast<int>(topo.integer("a", 4, 1, 250));
    c.topology.h = static_cast<int>(topo.integer("h", 2, 1, 250));
    c.topology.g = static_cast<int>(
        topo.integer("g", static_cast<int64_t>(c.topology.a) * c.topology.h + 1, 2, 1 << 20));
    const std::string arr = topo.text("arrangement", "palmtree");
    if (arr == "palmtree") c.topology.arrangement = Arrangement::Palmtree;
    else if (arr == "absolute") c.topology.arrangement = Arrangement::Absolute;
    else throw ConfigError(topo.bad("arrangement", YAML::Node(arr), "palmtree or absolute"));
    topo.finish();
    if (auto why = check_shape(c.topology); !why.empty())
      throw ConfigError("invalid topology dfly(" + std::to_string(c.topology.p) + "," +
                        std::to_string(c.topology.a) + "," + std::to_string(c.topology.h) + "," +
                        std::to_string(c.topology.g) + "): " + why);
  } else {
    c.torus.k = static_cast<int>(topo.integer("k", 8, 2, 1 << 20, " switches per dimension"));
    c.torus.n = static_cast<int>(topo.integer("n", 2, 1, Torus::kMaxDims, " dimensions"));
    c.torus.p = static_cast<int>(topo.integer("p", 1, 1, 250, " hosts per switch"));
    c.torus.w = static_cast<int>(topo.integer("terminal_ports", 1, 1, 8, " ports per host (phits/cycle each way)"));
    c.torus.mesh = c.topo_kind == TopologyKind::Mesh;
    topo.finish();
    if (auto why = check_shape(c.torus); !why.empty())
      throw ConfigError("invalid topology " + kind + " k=" + std::to_string(c.torus.k) + ", n=" +
                        std::to_string(c.torus.n) + ": " + why);
  }
  const std::unique_ptr<Topology> topo_ptr = make_topology(c);
  const Topology& tp = *topo_ptr;

  const std::string routing = top.text("routing", c.topo_kind == TopologyKind::Dragonfly ? "min" : "dor");
  if (!parse_routing(routing, c.routing))
    throw ConfigError(top.bad("routing", YAML::Node(routing), routing_choices()));
  if (c.topo_kind == TopologyKind::Dragonfly ? !routes_dragonfly(c.routing)
                                              : !routes_torus(c.routing, c.topo_kind == TopologyKind::Mesh))
    throw ConfigError("config key 'routing': value '" + routing + "' is not allowed on " + tp.describe() + "; use " +
                      (c.topo_kind == TopologyKind::Dragonfly
                           ? "min, val, acor-packet, acor-switch, ugal-l, ugal-g, par, pb, pb-acor, min-table or min-cond"
                           : c.topo_kind == TopologyKind::Mesh ? "dor, val or min-ad (goal and gal need the wrap links of a torus)"
                                                               : "dor, val, min-ad, goal or gal"));
  {
    Section val = top.sub("val");
    const std::string pol = val.text("policy", "rrg-sw");
    if (!parse_policy(pol, c.routing_prm.val.policy))
      throw ConfigError(val.bad("policy", YAML::Node(pol), policy_choices()));
    c.routing_prm.val.restricted = val.boolean("restricted", false);
    c.routing_prm.val.recompute = val.boolean("recompute", false);
    val.finish();
    Section acor = top.sub("acor");
    const std::string seq = acor.text("sequence", "3l");
    if (!parse_sequence(seq, c.routing_prm.acor.sequence))
      throw ConfigError(acor.bad("sequence", YAML::Node(seq), "2la, 2lb or 3l"));
    AcorLevelParams& lp = c.routing_prm.acor.ctrl;
    lp.hi = static_cast<uint32_t>(acor.integer("hi", 500, 1, 1LL << 30, " cycles"));
    lp.it[0] = static_cast<uint32_t>(acor.integer("it1", 15, 1, 1LL << 30));
    // PB-ACOR's Table 3 second threshold is 50 (fewer packets go non-minimal than in ACOR).
    lp.it[1] = static_cast<uint32_t>(acor.integer("it2", c.routing == RoutingAlgo::PbAcor ? 50 : 500, 1, 1LL << 30));
    lp.dt[0] = static_cast<uint32_t>(acor.integer("dt1", 5, 0, 1LL << 30));
    lp.dt[1] = static_cast<uint32_t>(acor.integer("dt2", 15, 0, 1LL << 30));
    acor.finish();
    Section ugal = top.sub("ugal");
    c.routing_prm.ugal.threshold =
        ugal.integer("threshold", 0, kThresholdMin, kThresholdMax, " (phits x hops, 24-bit signed as the RTL)");
    const std::string meas = ugal.text("occupancy", "output");
    if (!parse_measure(meas, c.routing_prm.ugal.measure))
      throw ConfigError(ugal.bad("occupancy", YAML::Node(meas),
                                 "output (output buffer), credits (downstream, from credits) or both"));
    ugal.finish();
    Section pb = top.sub("pb");
    c.routing_prm.pb.cg = static_cast<uint32_t>(pb.integer("cg", 120, 1, kCgMax, " percent (10 bits, as the RTL)"));
    c.routing_prm.pb.tg = static_cast<uint32_t>(pb.integer("tg", 5, 0, kTgMax, " phits (16 bits, as the RTL)"));
    pb_delay = pb.integer("delay", -1, 1, 1000000, " cycles (the group sees a flag from the next cycle on at the earliest)");
    pb.finish();
    Section mc = top.sub("min_cond");
    const std::string trig = mc.text("trigger", "qcn");
    if (trig == "qcn") c.routing_prm.trigger = MinCondTrigger::Qcn;
    else if (trig == "pause") c.routing_prm.trigger = MinCondTrigger::Pause;
    else throw ConfigError(mc.bad("trigger", YAML::Node(trig),
                                  "qcn (QCN-Switch port probabilities) or pause (the minimal output's pause state)"));
    mc.finish();
    Section qs = top.sub("qcn");
    QcnParams& q = c.routing_prm.qcn;
    const std::string samp = qs.text("sampling", "output");
    if (samp == "output") q.sampling = QcnSampling::Output;
    else if (samp == "input") q.sampling = QcnSampling::Input;
    else throw ConfigError(qs.bad("sampling", YAML::Node(samp), "output (output buffers of transit ports) or input"));
    const std::string clk = qs.text("sampling_clock", "packets");
    if (clk == "packets") q.clock = QcnClock::Packets;
    else if (clk == "time") q.clock = QcnClock::Time;
    else throw ConfigError(qs.bad("sampling_clock", YAML::Node(clk),
                                  "packets (one sample per CPC packets entering the queue) or time (one per CPC packet times)"));
    q.feedback_comparison = qs.boolean("feedback_comparison", true);
    q.source_processing = qs.boolean("source_processing", false);
    q.qeq = qs.real("qeq", 0.2, 0.0, 1.0, "a fraction of the sampled buffer in (0, 1] (Table I: 0.2)");
    q.w = static_cast<uint32_t>(qs.integer("w", 0, 0, 64));
    q.cpc = static_cast<uint32_t>(qs.integer("cpc", 100, 1, 1000000, " packets between samples"));
    q.cnm_percent = static_cast<uint32_t>(qs.integer("cnm_percent", 30, 0, 100, " percent"));
    {
      const std::string lf = qs.text("lf", "1/64");
      const std::string allowed = "a reduction factor written 1/D with D an integer in [1, 65536] (Table I: 1/64)";
      int64_t den = 0;
      size_t used = 0;
      if (lf.size() < 3 || lf.compare(0, 2, "1/") != 0) throw ConfigError(qs.bad("lf", YAML::Node(lf), allowed));
      try {
        den = std::stoll(lf.substr(2), &used);
      } catch (const std::exception&) {
        throw ConfigError(qs.bad("lf", YAML::Node(lf), allowed));
      }
      if (used != lf.size() - 2 || den < 1 || den > 65536) throw ConfigError(qs.bad("lf", YAML::Node(lf), allowed));
      q.lf_den = static_cast<uint32_t>(den);
    }
    q.pc_limit = static_cast<uint32_t>(qs.integer("pc_limit", 100, 1, 1000000, " packets per increase"));
    q.pi = static_cast<uint32_t>(std::lround(
        qs.real("pi", 1.0, 0.0, 100.0, "a probability increase in (0, 100] percentage points (Table I: 1)") * kQcnOne));
    if (q.pi == 0) q.pi = 1;
    q.th1 = static_cast<uint32_t>(qs.integer("th1", 0, 0, 63, " (6-bit feedback units)"));
    q.th2 = static_cast<uint32_t>(qs.integer("th2", 30, 0, 63, " (6-bit feedback units)"));
    q.p_min = static_cast<uint32_t>(
        std::lround(qs.real("p_min", 0.0, 0.0, 100.0, "a probability floor in [0, 100] percent (default 0)", true) * kQcnOne));
    q.cnm_phits = static_cast<uint16_t>(qs.integer("cnm_phits", 0, 1, 4096, " phits (default: one data packet)"));
    qs.finish();
    Section gs = top.sub("gal");
    GalParams& g = c.routing_prm.gal;
    const std::string sets = gs.text("sets", "all");
    if (sets == "all") g.sets = GalSets::All;
    else if (sets == "1") g.sets = GalSets::One;
    else if (sets == "2") g.sets = GalSets::Two;
    else if (sets == "4") g.sets = GalSets::Quadrant;
    else
      throw ConfigError(gs.bad("sets", YAML::Node(sets),
                               "all (one set per destination, the paper's S = N), 1, 2 (near/far) or 4 (by the "
                               "minimal quadrant: 2^n sets)"));
    g.queue_depth = static_cast<uint32_t>(gs.integer("queue_depth", 128, 1, 65535, " packets per injection queue"));
    GalThresholdParams& th = g.threshold;
    th.adaptive = gs.boolean("adaptive", true);
    th.t_min = static_cast<uint32_t>(gs.integer("t_min", 2, 0, 65535, " packets"));
    th.t_max = static_cast<uint32_t>(gs.integer("t_max", g.queue_depth, 0, 65535, " packets"));
    th.t0 = static_cast<uint32_t>(gs.integer("threshold", th.t_min, 0, 65535,
                                             " packets (the fixed T, or the adaptive controller's initial T)"));
    th.n1 = static_cast<uint32_t>(gs.integer("n1", 50, 1, 1000000, " cycles"));
    th.n2 = static_cast<uint32_t>(gs.integer("n2", 20, 1, 1000000, " cycles"));
    gs.finish();
    if (th.t_min > th.t_max)
      throw ConfigError("config key 'gal.t_min': value " + std::to_string(th.t_min) + " is not allowed; it must not "
                        "exceed gal.t_max = " + std::to_string(th.t_max));
    if (th.adaptive && (th.t0 < th.t_min || th.t0 > th.t_max))
      throw ConfigError("config key 'gal.threshold': value " + std::to_string(th.t0) + " is not allowed with "
                        "gal.adaptive: true; the initial threshold must lie in [gal.t_min, gal.t_max] = [" +
                        std::to_string(th.t_min) + ", " + std::to_string(th.t_max) + "]");
    if (q.source_processing && q.sampling != QcnSampling::Input)
      throw ConfigError("config key 'qcn.source_processing': value true is not allowed with qcn.sampling: output; "
                        "source processing is the input-sampling variant (paper sec. 3.3.1), output sampling "
                        "already notifies S_out's own port");
    Misroute pols[3];
    lp.levels = static_cast<uint32_t>(sequence_policies(c.routing_prm.acor.sequence, pols));
    for (int k = 0; k < 2; ++k)
      if (lp.dt[k] > lp.it[k])
        throw ConfigError("config key 'acor.dt" + std::to_string(k + 1) + "': value " +
                          std::to_string(lp.dt[k]) + " is not allowed; it must not exceed acor.it" +
                          std::to_string(k + 1) + " = " + std::to_string(lp.it[k]) +
                          " (hysteresis: a level entered at IT must not be left below DT at once)");
  }
  const std::string traffic = top.text("traffic", "un");
  if (auto why = parse_traffic(traffic, c.traffic); !why.empty())
    throw ConfigError("config key 'traffic': value '" + traffic + "' is not allowed: " + why);
  if (auto why = check_traffic(c.traffic, tp); !why.empty())
    throw ConfigError("config key 'traffic': value '" + traffic + "' is not allowed: " + why);
  // Up to the terminal bandwidth: 1 phit/node/cycle, w with w terminal ports (tori).
  const double max_load = tp.terminal_ports();
  const std::string load_range = max_load == 1.0 ? std::string("1]") : std::to_string(tp.terminal_ports()) + "] (the terminal_ports)";
  c.load = top.real("load", 0.1, 0.0, max_load, "an offered load in (0, " + load_range + " phits/node/cycle");
  c.seed = static_cast<uint64_t>(top.integer("seed", 1, 0, INT64_MAX));
  c.warmup_cycles = static_cast<uint64_t>(top.integer("warmup_cycles", 2000, 0, 1LL << 40, " cycles"));
  c.measure_cycles =
      static_cast<uint64_t>(top.integer("measure_cycles", 10000, 1, 1LL << 40, " cycles"));
  c.drain = top.boolean("drain", false);
  c.drain_timeout_cycles =
      static_cast<uint64_t>(top.integer("drain_timeout_cycles", 1000000, 1, 1LL << 40, " cycles"));
  c.watchdog_cycles =
      static_cast<uint64_t>(top.integer("watchdog_cycles", 20000, 100, 1LL << 40, " cycles"));
  c.packet_phits = static_cast<int>(top.integer("packet_phits", 8, 1, 4096, " phits"));
  if (c.routing_prm.qcn.cnm_phits == 0) c.routing_prm.qcn.cnm_phits = static_cast<uint16_t>(c.packet_phits);
  c.phit_bytes = static_cast<int>(top.integer("phit_bytes", 25, 1, 1 << 20, " bytes"));
  c.clock_ghz = top.real("clock_ghz", 1.0, 0.0, 1000.0, "a clock frequency in (0, 1000] GHz");

  const int classes = tp.num_port_classes();
  Section sw = top.sub("switch");
  c.sw.speedup = static_cast<int>(sw.integer("speedup", 2, 1, 8));
  c.sw.pipeline = static_cast<int>(sw.integer("pipeline_cycles", 5, 0, 100000, " cycles"));
  const std::string fc = sw.text("flow_control", "credit");
  if (fc == "credit") c.sw.flow_control = FlowControl::Credit;
  else if (fc == "pfc") c.sw.flow_control = FlowControl::Pfc;
  else throw ConfigError(sw.bad("flow_control", YAML::Node(fc), "credit (per-VC credits) or pfc (802.1Qbb pause per VC)"));
  const std::string arb = sw.text("output_arbiter", "round-robin");
  if (arb == "round-robin") c.sw.transit_priority = false;
  else if (arb == "transit-priority") c.sw.transit_priority = true;
  else if (arb == "age") c.sw.age_priority = true;
  else
    throw ConfigError(sw.bad("output_arbiter", YAML::Node(arb),
                             "round-robin (every input alike), transit-priority (transit inputs before injection "
                             "inputs, FOGSim's PrioLRS) or age (the oldest packet first, by network injection cycle)"));
  Section vcs = sw.sub("vcs");
  for (int k = 0; k < classes; ++k) {
    const std::string key = class_in_key(tp, k);
    // GAL: one injection VC per quadrant (its injection queues feed them, tb/nic.h).
    const int gal_inj = c.routing == RoutingAlgo::Gal ? 1 << c.torus.n : 0;
    int v = vc_count(vcs, key, k == kHostClass && gal_inj ? 0 : class_defaults(key).vcs);
    const int need = c.topo_kind == TopologyKind::Dragonfly
                         ? class_vcs_needed(c.routing, key)
                         : (k == kHostClass ? std::max(1, gal_inj)
                                            : required_link_vcs(c.routing, c.topo_kind == TopologyKind::Mesh));
    if (v == 0) v = need;
    if (v < need)
      throw ConfigError("config key 'switch.vcs." + key + "': value " + std::to_string(v) +
                        " is too few for routing " + to_string(c.routing) + ", which needs at least " +
                        std::to_string(need) + " " + key + " VCs " +
                        (k == kHostClass ? "(one per quadrant, fed by its injection queues)" : "to be deadlock-free") +
                        " (or use 'auto')");
    c.sw.vcs[k] = v;
    if (c.topo_kind != TopologyKind::Dragonfly && k != kHostClass) c.routing_prm.link_vcs = v;
  }
  vcs.finish();
  Section ib = sw.sub("input_buffer");
  for (int k = 0; k < classes; ++k) {
    const std::string key = class_in_key(tp, k);
    c.sw.in_buf[k] = buffer_size(ib, key, class_defaults(key).in_buf, c.phit_bytes);
  }
  ib.finish();
  Section ob = sw.sub("output_buffer");
  for (int k = 0; k < classes; ++k)
    c.sw.out_buf[k] = buffer_size(ob, class_out_key(tp, k), class_defaults(class_in_key(tp, k)).out_buf, c.phit_bytes);
  ob.finish();
  sw.finish();
  for (int k = 0; k < classes; ++k) {
    if (c.sw.in_buf[k] < static_cast<uint32_t>(c.packet_phits))
      throw ConfigError("config key 'switch.input_buffer." + class_in_key(tp, k) + "': value " +
                        std::to_string(c.sw.in_buf[k]) + " phits cannot hold one packet of " +
                        std::to_string(c.packet_phits) +
                        " phits; virtual cut-through needs at least packet_phits");
    if (c.sw.out_buf[k] < static_cast<uint32_t>(c.packet_phits))
      throw ConfigError("config key 'switch.output_buffer." + class_out_key(tp, k) +
                        "': value " + std::to_string(c.sw.out_buf[k]) +
                        " phits cannot hold one packet of " + std::to_string(c.packet_phits) +
                        " phits; virtual cut-through needs at least packet_phits");
  }

  // Phases: a list of {start, traffic, load}; traffic and load default to the top-level
  // keys. The first starts at 0; starts strictly increase. Absent or [] = one phase.
  {
    YAML::Node ph = top.raw("phases");
    if (!ph || ph.IsNull() || (ph.IsSequence() && ph.size() == 0)) {
      c.phases = {TrafficPhase{0, c.traffic, c.load}};  // [] = no phases (the JSON echo)
    } else {
      if (!ph.IsSequence())
        throw ConfigError(top.bad("phases", ph,
                                  "a list of {start: cycle, traffic: pattern, load: "
                                  "phits/node/cycle}"));
      c.phases_given = true;
      const Topology& t = tp;
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
          throw ConfigError("config key '" + e.key("traffic") + "': value '" + tr +
                            "' is not allowed: " + why);
        if (auto why = check_traffic(tp.traffic, t); !why.empty())
          throw ConfigError("config key '" + e.key("traffic") + "': value '" + tr +
                            "' is not allowed: " + why);
        tp.load = e.real("load", c.load, 0.0, t.terminal_ports(),
                         "an offered load in [0, " + std::to_string(t.terminal_ports()) +
                             "] phits/node/cycle (0 = sources silent)", true);
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
  }
  Section ts = top.sub("timeseries");
  c.timeseries.bin_cycles =
      static_cast<uint64_t>(ts.integer("bin_cycles", 0, 0, 1LL << 40, " cycles (0 = off)"));
  c.timeseries.per_switch = ts.boolean("per_switch", false);
  ts.finish();
  if (c.timeseries.bin_cycles != 0 &&
      (c.warmup_cycles + c.measure_cycles) / c.timeseries.bin_cycles > 1000000)
    throw ConfigError("config key 'timeseries.bin_cycles': value " +
                      std::to_string(c.timeseries.bin_cycles) +
                      " gives more than 10^6 bins over the run; use a larger bin");

  // RTL co-simulation: which Verilated blocks replace their C++ units in every switch.
  {
    YAML::Node r = top.raw("rtl");
    std::vector<std::string> names;
    if (r && r.IsScalar() && !r.Scalar().empty()) {
      std::stringstream ss(r.Scalar());
      for (std::string n; std::getline(ss, n, ',');) names.push_back(n);
    } else if (r && r.IsSequence()) {
      for (const auto& n : r) {
        if (!n.IsScalar()) throw ConfigError(top.bad("rtl", r, "a list of block names: min_route, acor, ugal, pb"));
        names.push_back(n.Scalar());
      }
    } else if (r && !r.IsNull() && !(r.IsScalar() && r.Scalar().empty())) {
      throw ConfigError(top.bad("rtl", r, "a list of RTL blocks, e.g. [acor]"));
    }
    if (!names.empty() && !rtl_available())
      throw ConfigError("config key 'rtl': this build has no RTL blocks (configure with -DSCFLY_RTL=ON)");
    if (!names.empty() && c.topo_kind != TopologyKind::Dragonfly)
      throw ConfigError("config key 'rtl': the RTL blocks (min_route, acor, ugal, pb) are Dragonfly units; " +
                        tp.describe() + " has none yet");
    const std::string routing_now = to_string(c.routing);
    for (const auto& n : names) {
      if (n == "acor") {
        if (!uses_level_ctrl(c.routing))
          throw ConfigError("config key 'rtl': block 'acor' (the ACOR-Switch level controller) needs routing "
                            "acor-switch or pb-acor, not " + routing_now);
        c.sw.rtl_acor = true;
      } else if (n == "ugal") {
        if (!is_adaptive(c.routing))
          throw ConfigError("config key 'rtl': block 'ugal' (the UGAL selector) needs routing ugal-l, ugal-g, par, "
                            "pb or pb-acor, not " + routing_now);
        c.sw.rtl_ugal = true;
      } else if (n == "pb") {
        if (!uses_sat_flags(c.routing))
          throw ConfigError("config key 'rtl': block 'pb' (the Piggyback detector) needs routing pb or pb-acor, "
                            "not " + routing_now);
        if (!rtl_pb_supports(c.topology.h))
          throw ConfigError("config key 'rtl': block 'pb' is Verilated in this build for " + rtl_pb_widths() +
                            " global ports (more with CMake -DSCFLY_RTL_EXTRA_PB_H=...), not h = " +
                            std::to_string(c.topology.h));
        c.sw.rtl_pb = true;
      } else if (n == "min_route") {
        if (c.routing == RoutingAlgo::MinTable)
          throw ConfigError("config key 'rtl': block 'min_route' (the minimal-hop unit) is not used by routing "
                            "min-table, which forwards by table lookup alone; use routing min");
        const DragonflyShape& t = c.topology;
        if (!rtl_min_route_supports(t))
          throw ConfigError("config key 'rtl': block 'min_route' is Verilated for " + rtl_min_route_shapes() +
                            " only, not " + to_string(t.arrangement) + " dfly(" + std::to_string(t.p) + "," +
                            std::to_string(t.a) + "," + std::to_string(t.h) + "," + std::to_string(t.g) +
                            ") (add shapes with CMake -DSCFLY_RTL_EXTRA_MIN_ROUTE_SHAPES=ARRANGEMENT:p,a,h,g)");
        c.sw.rtl_min_route = true;
      } else {
        throw ConfigError("config key 'rtl': value '" + n + "' is not allowed; blocks: min_route, acor, ugal, pb");
      }
    }
  }

  // Control class: a probe generator (and, later, QCN's notifications) needs the control VCs
  // above the data VCs of every switch-to-switch class: MIN's hop-slot budget.
  Section ctl = top.sub("control");
  c.sw.probe_interval = static_cast<uint32_t>(
      ctl.integer("probe_interval", 0, 0, 1LL << 30, " cycles between probe frames per switch (0 = off)"));
  c.sw.probe_phits = static_cast<uint16_t>(ctl.integer("frame_phits", c.packet_phits, 1, 4096, " phits"));
  ctl.finish();
  // Control frames on the network: probes and/or QCN's CNMs (routing min-cond, trigger qcn).
  const bool qcn = c.routing == RoutingAlgo::MinCond && c.routing_prm.trigger == MinCondTrigger::Qcn;
  std::vector<std::pair<std::string, uint32_t>> frames;  // (key, phits)
  if (c.sw.probe_interval > 0) frames.push_back({"control.frame_phits", c.sw.probe_phits});
  if (qcn) frames.push_back({"qcn.cnm_phits", c.routing_prm.qcn.cnm_phits});
  for (const auto& [fkey, fphits] : frames)
    for (int k = 0; k < classes; ++k) {
      // Virtual cut-through: a frame moves only into a buffer that holds all of it.
      const uint32_t room = std::min(c.sw.in_buf[k], c.sw.out_buf[k]);
      if (k != kHostClass && fphits > room)
        throw ConfigError("config key '" + fkey + "': value " + std::to_string(fphits) +
                          " phits does not fit the " + class_in_key(tp, k) + " buffers (input " +
                          std::to_string(c.sw.in_buf[k]) + ", output " + std::to_string(c.sw.out_buf[k]) +
                          " phits); virtual cut-through needs every buffer on the path to hold a whole frame");
    }
  if (!frames.empty())
    for (int k = 0; k < classes; ++k) {
      const std::string key = class_in_key(tp, k);
      const VcBudget need = RoutingUnit::control_vcs();
      if (c.topo_kind != TopologyKind::Dragonfly)
        c.sw.ctrl_vcs[k] = k == kHostClass ? 0 : RoutingUnit::control_link_vcs(c.topo_kind == TopologyKind::Mesh);
      else
        c.sw.ctrl_vcs[k] = key == "local" ? need.local : key == "global" ? need.global : 0;
      if (c.sw.vcs[k] + c.sw.ctrl_vcs[k] > 16)
        throw ConfigError("config key 'switch.vcs." + key + "': value " + std::to_string(c.sw.vcs[k]) +
                          " leaves no room for the " + std::to_string(c.sw.ctrl_vcs[k]) +
                          " control VCs above it (at most 16 VCs per port)");
    }

  if (c.sw.flow_control == FlowControl::Pfc) {
    if (c.routing_prm.ugal.measure != QueueMeasure::Output)
      throw ConfigError(std::string("config key 'ugal.occupancy': value '") + to_string(c.routing_prm.ugal.measure) +
                        "' is not allowed with switch.flow_control: pfc; under PFC no credits exist and routing "
                        "may read only its own output queues (use output)");
  }

  Section sim = top.sub("sim");
  c.sw.sleep = sim.boolean("sleep", true);
  c.sw.check_vc_order = sim.boolean("check_vc_order", false);
  if (c.sw.check_vc_order && c.topo_kind != TopologyKind::Dragonfly)
    throw ConfigError("config key 'sim.check_vc_order': value 'true' is allowed on topology.kind dragonfly only "
                      "(the check knows the Dragonfly hop-slot VC order; the torus schemes' orders are checked "
                      "statically by scfly check-deadlock)");
  sim.finish();

  Section links = top.sub("links");
  uint32_t max_latency = 0;
  for (int k = 0; k < classes; ++k) {
    const std::string key = class_in_key(tp, k);
    c.sw.latency[k] = static_cast<uint32_t>(
        links.integer(key + "_latency", class_defaults(key).latency, 1, 1000000, " cycles"));
    max_latency = std::max(max_latency, c.sw.latency[k]);
  }
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
  links.finish();
  top.finish();
  c.routing_prm.pb.delay = static_cast<uint32_t>(
      pb_delay >= 0 ? pb_delay : c.topo_kind == TopologyKind::Dragonfly ? c.sw.latency[static_cast<int>(PortClass::Local)] : 1);
  // The watchdog must not mistake a phit in flight on a long link for a stuck network.
  const uint64_t longest = 2ULL * max_latency +
                           static_cast<uint64_t>(c.sw.pipeline) + static_cast<uint64_t>(c.packet_phits);
  if (c.watchdog_cycles <= longest)
    throw ConfigError("config key 'watchdog_cycles': value " + std::to_string(c.watchdog_cycles) +
                      " is not longer than the slowest credit round trip plus a packet (" +
                      std::to_string(longest) + " cycles); use a larger value");
  return c;
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

SimConfig parse_with(YAML::Node root, const std::vector<std::string>& overrides) {
  if (!root.IsMap()) throw ConfigError("config: the top level must be a mapping of keys");
  for (const auto& ov : overrides) apply_override(root, ov);
  try {
    return parse(root);
  } catch (const YAML::Exception& e) {
    throw ConfigError(std::string("config: ") + e.what());
  }
}

}  // namespace

// yaml-cpp keeps both entries of a mapping key given twice and answers lookups with the
// first one: a typo'd duplicate would silently be ignored, so it is an error.
void reject_duplicate_keys(const YAML::Node& n, const std::string& origin, const std::string& where) {
  if (n.IsMap()) {
    std::set<std::string> seen;
    for (const auto& kv : n) {
      const std::string k = kv.first.IsScalar() ? kv.first.Scalar() : "?";
      const std::string path = where.empty() ? k : where + "." + k;
      if (kv.first.IsScalar() && !seen.insert(k).second)
        throw ConfigError(origin + ": key '" + path + "' is given twice (line " +
                          std::to_string(kv.first.Mark().line + 1) + "); keep one");
      reject_duplicate_keys(kv.second, origin, path);
    }
  } else if (n.IsSequence()) {
    for (size_t i = 0; i < n.size(); ++i) reject_duplicate_keys(n[i], origin, where + "[" + std::to_string(i) + "]");
  }
}

SimConfig parse_config_text(const std::string& yaml, const std::vector<std::string>& overrides) {
  return parse_with(load_yaml_text(yaml, "config"), overrides);
}

SimConfig load_config(const std::string& path, const std::vector<std::string>& overrides) {
  struct stat st{};
  if (::stat(path.c_str(), &st) != 0) throw ConfigError("config file '" + path + "' does not exist");
  if (!S_ISREG(st.st_mode)) throw ConfigError("config file '" + path + "' is not a regular file (a directory?)");
  std::ifstream in(path);
  if (!in) throw ConfigError("config file '" + path + "' cannot be read");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_with(load_yaml_text(ss.str(), path), overrides);
}

nlohmann::json config_to_json(const SimConfig& c) {
  using nlohmann::json;
  const std::unique_ptr<Topology> topo_ptr = make_topology(c);
  const Topology& tp = *topo_ptr;
  json vcs = json::object(), ib = json::object(), ob = json::object(), links = json::object();
  for (int k = 0; k < tp.num_port_classes(); ++k) {
    vcs[class_in_key(tp, k)] = c.sw.vcs[k];
    ib[class_in_key(tp, k)] = c.sw.in_buf[k];
    ob[class_out_key(tp, k)] = c.sw.out_buf[k];
    links[class_in_key(tp, k) + "_latency"] = c.sw.latency[k];
  }
  json j;
  // A Dragonfly's echo has no "kind" key, as before tori existed, so that sweep databases
  // keyed by the echo keep resuming; a torus or mesh names its kind.
  if (c.topo_kind == TopologyKind::Dragonfly)
    j["topology"] = {{"p", c.topology.p},
                     {"a", c.topology.a},
                     {"h", c.topology.h},
                     {"g", c.topology.g},
                     {"arrangement", to_string(c.topology.arrangement)}};
  else {
    j["topology"] = {{"kind", to_string(c.topo_kind)}, {"k", c.torus.k}, {"n", c.torus.n}, {"p", c.torus.p}};
    // Only when not 1, so that sweep databases of single-port tori keep resuming.
    if (c.torus.w != 1) j["topology"]["terminal_ports"] = c.torus.w;
  }
  j["routing"] = to_string(c.routing);
  j["val"] = {{"policy", to_string(c.routing_prm.val.policy)},
              {"restricted", c.routing_prm.val.restricted},
              {"recompute", c.routing_prm.val.recompute}};
  const AcorLevelParams& lp = c.routing_prm.acor.ctrl;
  j["acor"] = {{"sequence", to_string(c.routing_prm.acor.sequence)},
               {"hi", lp.hi}, {"it1", lp.it[0]}, {"it2", lp.it[1]}, {"dt1", lp.dt[0]}, {"dt2", lp.dt[1]}};
  j["ugal"] = {{"threshold", c.routing_prm.ugal.threshold},
               {"occupancy", to_string(c.routing_prm.ugal.measure)}};
  j["pb"] = {{"cg", c.routing_prm.pb.cg}, {"tg", c.routing_prm.pb.tg}, {"delay", c.routing_prm.pb.delay}};
  j["min_cond"] = {{"trigger", to_string(c.routing_prm.trigger)}};
  const QcnParams& q = c.routing_prm.qcn;
  j["qcn"] = {{"sampling", to_string(q.sampling)},
              {"sampling_clock", to_string(q.clock)},
              {"feedback_comparison", q.feedback_comparison},
              {"source_processing", q.source_processing},
              {"qeq", q.qeq},
              {"w", q.w},
              {"cpc", q.cpc},
              {"cnm_percent", q.cnm_percent},
              {"lf", "1/" + std::to_string(q.lf_den)},
              {"pc_limit", q.pc_limit},
              {"pi", static_cast<double>(q.pi) / kQcnOne},
              {"th1", q.th1},
              {"th2", q.th2},
              {"p_min", static_cast<double>(q.p_min) / kQcnOne},
              {"cnm_phits", q.cnm_phits}};
  if (c.topo_kind != TopologyKind::Dragonfly) {  // absent for a Dragonfly: its sweep keys stay as they were
    const GalParams& g = c.routing_prm.gal;
    const char* sets = g.sets == GalSets::All ? "all" : g.sets == GalSets::One ? "1" : g.sets == GalSets::Two ? "2" : "4";
    j["gal"] = {{"sets", sets},
                {"queue_depth", g.queue_depth},
                {"adaptive", g.threshold.adaptive},
                {"threshold", g.threshold.t0},
                {"t_min", g.threshold.t_min},
                {"t_max", g.threshold.t_max},
                {"n1", g.threshold.n1},
                {"n2", g.threshold.n2}};
  }
  j["traffic"] = to_string(c.traffic);
  j["load"] = c.load;
  j["seed"] = c.seed;
  j["warmup_cycles"] = c.warmup_cycles;
  j["measure_cycles"] = c.measure_cycles;
  j["drain"] = c.drain;
  j["drain_timeout_cycles"] = c.drain_timeout_cycles;
  j["watchdog_cycles"] = c.watchdog_cycles;
  j["packet_phits"] = c.packet_phits;
  j["phit_bytes"] = c.phit_bytes;
  j["clock_ghz"] = c.clock_ghz;
  j["switch"] = {
      {"speedup", c.sw.speedup},
      {"flow_control", to_string(c.sw.flow_control)},
      {"output_arbiter", c.sw.transit_priority ? "transit-priority" : c.sw.age_priority ? "age" : "round-robin"},
      {"pipeline_cycles", c.sw.pipeline},
      {"vcs", vcs},
      {"input_buffer", ib},
      {"output_buffer", ob}};
  j["phases"] = json::array();
  if (c.phases_given)
    for (const auto& p : c.phases)
      j["phases"].push_back({{"start", p.start}, {"traffic", to_string(p.traffic)}, {"load", p.load}});
  j["timeseries"] = {{"bin_cycles", c.timeseries.bin_cycles}, {"per_switch", c.timeseries.per_switch}};
  j["rtl"] = json::array();
  if (c.sw.rtl_acor) j["rtl"].push_back("acor");
  if (c.sw.rtl_ugal) j["rtl"].push_back("ugal");
  if (c.sw.rtl_pb) j["rtl"].push_back("pb");
  if (c.sw.rtl_min_route) j["rtl"].push_back("min_route");
  j["sim"] = {{"sleep", c.sw.sleep}};
  // A debug check that changes no result: echoed only when on, so the echo (and with it
  // every stored sweep point's hash) of a run without it is what it was before the key.
  if (c.sw.check_vc_order) j["sim"]["check_vc_order"] = true;
  j["control"] = {{"probe_interval", c.sw.probe_interval}, {"frame_phits", c.sw.probe_phits}};
  j["links"] = links;
  return j;
}

std::string routing_summary(const SimConfig& c) {
  std::string s = to_string(c.routing);
  const RoutingParams& r = c.routing_prm;
  if (c.routing == RoutingAlgo::Gal) {
    const GalParams& g = r.gal;
    const char* sets = g.sets == GalSets::All ? "all" : g.sets == GalSets::One ? "1" : g.sets == GalSets::Two ? "2" : "4";
    s += std::string(" (sets ") + sets + ", queues " + std::to_string(g.queue_depth) + ", T " +
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
