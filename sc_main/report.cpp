#include "sc_main/report.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace scfly {

nlohmann::json metrics_to_json(const Metrics& m) {
  nlohmann::json pf = nlohmann::json::object();
  for (int k = 0; k < kMisrouteKinds; ++k) pf[to_string(static_cast<Misroute>(k))] = m.policy_fractions[k];
  nlohmann::json j{
      {"policy_fractions", pf},
      {"offered_load", m.offered_load},
      {"generated_load", m.generated_load},
      {"accepted_load", m.accepted_load},
      {"accepted_packets", m.accepted_packets},
      {"latency_avg", m.latency_avg},
      {"latency_p50", m.latency_p50},
      {"latency_p99", m.latency_p99},
      {"latency_max", m.latency_max},
      {"network_latency_avg", m.network_latency_avg},
      {"network_latency_p50", m.network_latency_p50},
      {"network_latency_p99", m.network_latency_p99},
      {"network_latency_max", m.network_latency_max},
      {"hops_avg", m.hops_avg},
      {"hops_histogram", m.hops_histogram},
      {"nonminimal_fraction", m.nonminimal_fraction},
      {"jain_fairness", m.jain_fairness},
      {"switch_accepted_min", m.switch_accepted_min},
      {"switch_accepted_max", m.switch_accepted_max},
      {"switch_accepted", m.switch_accepted},
      {"packets_measured", m.packets_measured},
      {"packets_generated", m.packets_generated},
      {"packets_injected", m.packets_injected},
      {"packets_delivered", m.packets_delivered},
      {"packets_in_network", m.packets_in_network},
      {"packets_queued", m.packets_queued},
      {"cycles", m.cycles},
  };
  for (const auto& [name, v] : m.class_hops_avg) j[name + "_hops_avg"] = v;
  for (const auto& [name, v] : m.class_residence_avg) j[name + "_residence_avg"] = v;
  // No packet measured: latency, hops and the non-minimal fraction are not 0, they were not
  // measured (null, "n/a" in the summary); nothing accepted anywhere: no fairness either.
  if (m.packets_measured == 0) {
    for (const char* k : {"latency_avg", "latency_p50", "latency_p99", "latency_max", "network_latency_avg",
                          "network_latency_p50", "network_latency_p99", "network_latency_max", "hops_avg",
                          "nonminimal_fraction"})
      j[k] = nullptr;
    for (const auto& [name, v] : m.class_hops_avg) j[name + "_hops_avg"] = nullptr;
    for (const auto& [name, v] : m.class_residence_avg) j[name + "_residence_avg"] = nullptr;
  }
  if (!(m.switch_accepted_max > 0)) j["jain_fairness"] = nullptr;
  if (m.has_control) {
    j["control_frames_originated"] = m.control_originated;
    j["control_frames_intercepted"] = m.control_intercepted;
    j["control_latency_avg"] = m.control_latency_avg;
    j["control_latency_max"] = m.control_latency_max;
  }
  if (!m.counters.empty()) j["counters"] = m.counters;
  return j;
}

nlohmann::json timeseries_to_json(const TimeSeries& t) {
  nlohmann::json j = {{"bin_cycles", t.bin_cycles},
                      {"t_start", t.t_start},
                      {"t_end", t.t_end},
                      {"latency_avg", t.latency_avg},
                      {"latency_inj_avg", t.latency_inj_avg},
                      {"network_latency_avg", t.network_latency_avg},
                      {"accepted_load", t.accepted_load},
                      {"generated_load", t.generated_load},
                      {"nonminimal_fraction", t.nonminimal_fraction},
                      {"packets", t.packets}};
  if (!t.reactions.empty()) {
    j["reactions"] = nlohmann::json::array();
    for (const Reaction& r : t.reactions)
      j["reactions"].push_back({{"phase", r.phase},
                                {"start", r.start},
                                {"steady_latency", std::isnan(r.steady_latency) ? nlohmann::json() : nlohmann::json(r.steady_latency)},
                                {"reaction_cycles", r.reaction_cycles < 0 ? nlohmann::json() : nlohmann::json(r.reaction_cycles)}});
  }
  j["per_switch"] = nlohmann::json::object();
  for (const auto& [name, rows] : t.per_switch) j["per_switch"][name] = rows;
  return j;
}

nlohmann::json result_json(const SimConfig& cfg, const RunOutcome& r,
                           const std::vector<std::string>& warnings) {
  nlohmann::json j;
  j["config"] = config_to_json(cfg);
  j["metrics"] = metrics_to_json(r.metrics);
  if (!r.timeseries.reactions.empty()) {
    // The first phase change's reaction as metric columns, so sweeps can compare it.
    const Reaction& re = r.timeseries.reactions.front();
    j["metrics"]["reaction_cycles"] = re.reaction_cycles < 0 ? nlohmann::json() : nlohmann::json(re.reaction_cycles);
    j["metrics"]["reaction_steady_latency"] =
        std::isnan(re.steady_latency) ? nlohmann::json() : nlohmann::json(re.steady_latency);
  }
  if (r.timeseries.bin_cycles) j["timeseries"] = timeseries_to_json(r.timeseries);
  j["run"] = {{"status", r.error.empty() ? (r.conservation_ok ? "ok" : "conservation-failed")
                                         : "error"},
              {"error", r.error},
              {"drained", r.drained},
              {"conservation_ok", r.conservation_ok},
              {"conservation", r.conservation},
              {"sim_wall_s", r.sim_wall_s},
              {"router_cycles_per_s", r.router_cycles_per_s},
              {"scheduler", r.scheduler},
              {"memory",
               {{"estimate_bytes", r.memory.measured ? nlohmann::json(r.memory.total()) : nlohmann::json()},
                {"per_switch_bytes", r.memory.per_switch},
                {"per_host_bytes", r.memory.per_host},
                {"packets_bytes", r.memory.packets},
                {"limit_bytes", r.memory.limit},
                {"peak_rss_bytes", r.peak_rss}}},
              {"warnings", warnings}};
  if (r.profile.on) {
    nlohmann::json bound = nlohmann::json::object();
    for (const auto& [p, s] : r.profile.work_bound_s) bound[std::to_string(p)] = s;
    j["run"]["profile"] = {{"windows", r.profile.windows},
                           {"wall_s", r.profile.wall_s},
                           {"work_s", r.profile.work_s},
                           {"busiest_thread_s", r.profile.busiest_s},
                           {"largest_group_s", r.profile.largest_s},
                           {"exchange_s", r.profile.exchange_s},
                           {"exchange_bytes", r.profile.exchange_bytes},
                           {"threads", r.profile.threads},
                           {"ranks", r.profile.ranks},
                           {"work_bound_s", bound}};
  }
  if (r.fault.kind != FaultKind::None)
    j["fault"] = {{"kind", to_string(r.fault.kind)}, {"switch", r.fault.sw}, {"port", r.fault.port},
                  {"vc", r.fault.vc}, {"cycle", r.fault.cycle}, {"injected", r.fault_injected}};
  return j;
}

namespace {
std::string fmt_seconds(double s) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3f s", s);
  return b;
}
}  // namespace

namespace {
std::string events(uint64_t n) { return std::to_string(n) + (n == 1 ? " event" : " events"); }

// "switch S port P (to switch S' port P')".
std::string fault_channel(const SimConfig& cfg, const FaultSpec& f) {
  const PortEnd far = make_topology(cfg)->neighbor(f.sw, f.port);
  return "switch " + std::to_string(f.sw) + " port " + std::to_string(f.port) + " (to switch " +
         std::to_string(far.sw) + " port " + std::to_string(far.port) + ")";
}
}  // namespace

std::string fault_summary(const RunOutcome& r) {
  const FaultSpec& f = r.fault;
  std::string s = "  fault             " + std::string(to_string(f.kind)) + " at switch " + std::to_string(f.sw) +
                  " port " + std::to_string(f.port) + " VC " + std::to_string(f.vc) + " from cycle " +
                  std::to_string(f.cycle) + ": injected " + events(r.fault_injected);
  if (r.fault_injected == 0) s += " (it never fired)";
  return s + "\n";
}

std::string fault_never_fired(const SimConfig& cfg, const RunOutcome& r) {
  const FaultSpec& f = r.fault;
  const std::string vc = "VC " + std::to_string(f.vc);
  const std::string none = "traffic and routing sent nothing of " + vc + " that way after the cycle";
  const std::string idle = none + " (the routing may never use " + vc +
                           " on that port's class, the load was too light or the cycle too late)";
  std::string what, why;  // what had to cross the channel for the fault to act; why it may not have
  switch (f.kind) {
    case FaultKind::ExtraCredit:
    case FaultKind::DoubleCredits:
    case FaultKind::LoseCredits:
      what = "no credit of " + vc + " came back (the receiver returns one for each phit that crossed)";
      why = idle;
      break;
    case FaultKind::WrongVc:
      what = "no phit of " + vc + " crossed";
      why = idle;
      break;
    case FaultKind::DropPause:
      what = "the receiver sent no PAUSE for " + vc;
      why = "its input VC never filled to the XOFF threshold: the channel was not congested enough, or " + none;
      break;
    case FaultKind::DupPhit:
      what = "no body phit (one after a head) of " + vc + " crossed";
      why = idle;
      break;
    case FaultKind::ClearGlobalDone:
      what = "no head of " + vc + " crossed with its \"global hop taken\" bit set";
      why = "a head carries the bit from its segment's global hop to the segment's end: over a global link, and over "
            "a local link of the group it lands in on the VCs the routing gives it there (MIN: local VC 1, never 0); "
            "or " + none;
      break;
    default: break;
  }
  return "--fault '" + to_string(f) + "' never fired (0 events injected): on the channel from " +
         fault_channel(cfg, f) + ", from cycle " + std::to_string(f.cycle) + " to the end of the run (cycle " +
         std::to_string(r.cycles) + "), " + what + "; " + why +
         ". A fault run that injected nothing tested nothing: pick a busier channel, another VC or an earlier cycle";
}

std::string fault_undetected(const SimConfig& cfg, const RunOutcome& r) {
  if (r.fault.kind == FaultKind::None || r.fault_injected == 0 || !r.error.empty() || !r.conservation_ok ||
      (cfg.drain && !r.drained))
    return {};
  std::string s = "--fault '" + to_string(r.fault) + "' injected " + events(r.fault_injected) +
                  " and no check stopped the run";
  if (r.fault.kind == FaultKind::ClearGlobalDone && !cfg.sw.check_vc_order)
    s += " (only sim.check_vc_order=true sees a cleared \"global hop taken\" bit, by the VC order it breaks)";
  return s;
}

namespace {
// " (rrg-sw 80.0 %, local 20.0 %)" when any packet misrouted, else "".
std::string policy_line(const Metrics& m) {
  std::string s;
  for (int k = 1; k < kMisrouteKinds; ++k) {
    if (m.policy_fractions[k] <= 0) continue;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s%s %.1f %%", s.empty() ? " (" : ", ",
                  to_string(static_cast<Misroute>(k)), 100.0 * m.policy_fractions[k]);
    s += buf;
  }
  return s.empty() ? s : s + ")";
}
}  // namespace

std::string human_summary(const SimConfig& c, const RunOutcome& r) {
  const Metrics& m = r.metrics;
  const std::unique_ptr<Topology> topo = make_topology(c);
  const Topology& t = *topo;
  const double ns = 1.0 / c.clock_ghz;
  // Per port class: "inj/local/global" and the VCs and link latencies in that order.
  std::string cls_names, cls_vcs, cls_lat;
  for (int k = 0; k < t.num_port_classes(); ++k) {
    const char* sep = k ? "/" : "";
    cls_names += sep + std::string(k == kHostClass ? "inj" : t.port_class_name(k));
    cls_vcs += sep + std::to_string(c.sw.vcs[k]);
    cls_lat += sep + std::to_string(c.sw.latency[k]);
  }
  std::string capacity;
  if (const auto* torus = dynamic_cast<const Torus*>(&t)) {
    char cb[96];
    std::snprintf(cb, sizeof cb, " (%.1f %% of the UR capacity %.4g)", 100.0 * m.accepted_load / torus->capacity(),
                  torus->capacity());
    capacity = cb;
  }
  std::string class_hops;
  for (const auto& [name, v] : m.class_hops_avg) {
    char h[64];
    std::snprintf(h, sizeof h, "%s%s %.3f", class_hops.empty() ? "" : ", ", name.c_str(), v);
    class_hops += h;
  }
  std::string residence;
  for (const auto& [name, v] : m.class_residence_avg) {
    char h[64];
    std::snprintf(h, sizeof h, "%s%s-in %.1f", residence.empty() ? "" : ", ", name.c_str(), v);
    residence += h;
  }
  char buf[4096];
  std::snprintf(
      buf, sizeof buf,
      "scfly: %s, %d switches, %d nodes | routing %s | traffic %s\n"
      "  packets %d phits, speedup %d, pipeline %d cycles, VCs %s %s, "
      "links %s %s cycles\n"
      "  window: warm-up %llu + measure %llu cycles (%.1f us), seed %llu\n"
      "\n"
      "  offered load      %.4f phits/node/cycle (generated %.4f)\n"
      "  accepted load     %.4f phits/node/cycle = %.5f packets/node/cycle%s\n"
      "  latency (total)   avg %.1f  p50 %.0f  p99 %.0f  max %.0f cycles   (avg %.1f ns)\n"
      "  latency (network) avg %.1f  p50 %.0f  p99 %.0f  max %.0f cycles\n"
      "  hops              avg %.3f (%s)\n"
      "  in switches       %s cycles per packet (head landing to leaving, by input port class)\n"
      "  non-minimal       %.1f %% of packets%s\n"
      "  fairness          Jain %.4f over switches; per-switch accepted min %.4f max %.4f\n"
      "  packets           %llu measured; %llu generated, %llu delivered, %llu in network, "
      "%llu queued at end\n"
      "  conservation      %s (%s)\n"
      "  speed             %llu cycles in %.2f s = %.0f router-cycles/s, scheduler %s\n",
      t.describe().c_str(), t.num_switches(), t.num_nodes(), routing_summary(c).c_str(), traffic_summary(c).c_str(),
      c.packet_phits, c.sw.speedup, c.sw.pipeline, cls_names.c_str(), cls_vcs.c_str(), cls_names.c_str(),
      cls_lat.c_str(),
      static_cast<unsigned long long>(c.warmup_cycles),
      static_cast<unsigned long long>(c.measure_cycles), c.measure_cycles * ns / 1000.0,
      static_cast<unsigned long long>(c.seed), m.offered_load, m.generated_load, m.accepted_load,
      m.accepted_packets, capacity.c_str(), m.latency_avg, m.latency_p50, m.latency_p99, m.latency_max,
      m.latency_avg * ns, m.network_latency_avg, m.network_latency_p50, m.network_latency_p99,
      m.network_latency_max, m.hops_avg, class_hops.c_str(), residence.c_str(),
      100.0 * m.nonminimal_fraction, policy_line(m).c_str(), m.jain_fairness, m.switch_accepted_min,
      m.switch_accepted_max, static_cast<unsigned long long>(m.packets_measured),
      static_cast<unsigned long long>(m.packets_generated),
      static_cast<unsigned long long>(m.packets_delivered),
      static_cast<unsigned long long>(m.packets_in_network),
      static_cast<unsigned long long>(m.packets_queued), r.conservation_ok ? "ok" : "FAILED",
      r.conservation.c_str(), static_cast<unsigned long long>(r.cycles), r.sim_wall_s,
      r.router_cycles_per_s, r.scheduler.c_str());
  std::string s = buf;
  if (r.profile.asked && !r.profile.on)
    s += "  windows           none: this run is on the SystemC kernel (--profile times the block scheduler's windows)\n";
  if (r.profile.on) {
    const WindowProfile& p = r.profile;
    const double sync = p.wall_s - p.busiest_s - p.exchange_s;
    std::string bound;
    for (const auto& [cores, sec] : p.work_bound_s)
      if (cores == 16 || cores == 64) bound += (bound.empty() ? "" : ", ") + std::to_string(cores) + " cores " + fmt_seconds(sec);
    char line[512];
    std::snprintf(line, sizeof line,
                  "  windows           %llu: %s in all; groups' work %s (busiest thread %s, largest group %s), "
                  "scheduling and barriers %s%s; the work's floor on %s\n",
                  static_cast<unsigned long long>(p.windows), fmt_seconds(p.wall_s).c_str(),
                  fmt_seconds(p.work_s).c_str(), fmt_seconds(p.busiest_s).c_str(), fmt_seconds(p.largest_s).c_str(),
                  fmt_seconds(sync).c_str(),
                  p.ranks > 1 ? (", rank exchange " + fmt_seconds(p.exchange_s) + " (" +
                                 format_bytes(p.exchange_bytes) + " sent)")
                                    .c_str()
                              : "",
                  bound.c_str());
    s += line;
  }
  if (r.memory.measured)
    s += "  memory            estimated " + r.memory.describe() + "; peak resident " + format_bytes(r.peak_rss) +
         (r.memory.ranks > 1 ? " (rank 0's part of " + std::to_string(r.memory.ranks) + " ranks)" : std::string()) +
         "\n";
  // Nothing measured: say so instead of printing zeros (metrics_to_json writes null).
  const auto replace_line = [&s](const std::string& head, const std::string& text) {
    const size_t at = s.find("  " + head);
    if (at == std::string::npos) return;
    const size_t end = s.find('\n', at);
    s.replace(at, end - at, "  " + head + text);
  };
  if (m.packets_measured == 0) {
    replace_line("latency (total)   ", "n/a (no packet measured)");
    replace_line("latency (network) ", "n/a");
    replace_line("hops              ", "n/a");
    replace_line("in switches       ", "n/a");
    replace_line("non-minimal       ", "n/a");
  }
  if (!(m.switch_accepted_max > 0)) replace_line("fairness          ", "Jain n/a (no switch accepted a packet)");
  if (c.sw.any_rtl() || c.routing_prm.plugin_rtl) {
    // Which units are the Verilated RTL in this run (--rtl), after the window line.
    std::string blocks;
    auto add = [&](bool on, const char* what) {
      if (on) blocks += (blocks.empty() ? "" : ", ") + std::string(what);
    };
    add(c.sw.rtl_min_route, "min_route.sv (in process)");
    add(c.sw.rtl_acor, "acor_level_ctrl.sv (in process per switch)");
    add(c.sw.rtl_ugal, "ugal_selector.sv (in process)");
    add(c.sw.rtl_pb, "pb_sat_detector.sv (in process per switch)");
    add(c.sw.rtl_table, "ft_lookup.sv (in process per switch)");
    add(c.sw.rtl_qcn, "qcn_port_prob.sv (in process per switch)");
    add(c.sw.rtl_qcn_cp, "qcn_cp.sv (in process per switch)");
    add(c.sw.rtl_quadrant, "quadrant_sel.sv (in process)");
    add(c.sw.rtl_gal_threshold, "gal_threshold.sv (per NIC and set, clocked every cycle)");
    const char* alloc_sv = c.sw.allocator == AllocatorKind::SeparableOutput ? "alloc_output_first.sv"
                           : c.sw.allocator == AllocatorKind::Wavefront     ? "alloc_wavefront.sv"
                           : c.sw.allocator == AllocatorKind::Islip         ? "alloc_islip.sv"
                                                                            : "sep_allocator.sv";
    add(c.sw.rtl_allocator, (std::string(alloc_sv) + " (in process per switch)").c_str());
    add(c.sw.rtl_flow_control, "flow_control.sv (in process per switch port)");
    add(c.sw.rtl_link_arbiter, "link_arbiter.sv (in process per switch port)");
    const std::string plugin = std::string(to_string(c.routing)) + "'s own Verilated decision (plug-in)";
    add(c.routing_prm.plugin_rtl, plugin.c_str());
    const size_t at = s.find("\n\n");
    std::string where;
    for (int k : c.rtl_switches) where += (where.empty() ? "" : ", ") + std::to_string(k);
    if (!where.empty()) blocks += " in switch" + std::string(c.rtl_switches.size() > 1 ? "es " : " ") + where + " only";
    s.insert(at + 1, "  rtl: " + blocks + "\n");
  }
  if (m.has_control) {
    char cl[256];
    std::snprintf(cl, sizeof cl,
                  "  control frames    %llu originated, %llu intercepted; latency avg %.1f max %.0f cycles "
                  "(not in the data metrics)\n",
                  static_cast<unsigned long long>(m.control_originated),
                  static_cast<unsigned long long>(m.control_intercepted), m.control_latency_avg, m.control_latency_max);
    const size_t at = s.find("  fairness");
    s.insert(at, cl);
  }
  auto n = [&](const char* k) {  // a mechanism's run counter, 0 when absent
    const auto it = m.counters.find(k);
    return static_cast<unsigned long long>(it == m.counters.end() ? 0 : it->second);
  };
  if (m.counters.count("qcn_samples")) {
    char ql[256];
    std::snprintf(ql, sizeof ql,
                  "  qcn               %llu samples, %llu congested; %llu CNMs sent, %llu received, "
                  "%llu local updates (whole run)\n",
                  n("qcn_samples"), n("qcn_congested_samples"), n("qcn_cnms_sent"), n("qcn_cnms_received"),
                  n("qcn_local_updates"));
    const size_t at = s.find("  fairness");
    s.insert(at, ql);
  }
  if (m.counters.count("chaos_multiqueue_entries")) {
    char cl[192];
    std::snprintf(cl, sizeof cl, "  multiqueue        %llu packets entered, %llu derouted (whole run, all switches)\n",
                  n("chaos_multiqueue_entries"), n("chaos_deroutes"));
    const size_t at = s.find("  fairness");
    s.insert(at, cl);
  }
  for (const Reaction& re : r.timeseries.reactions) {
    char rl[256];
    const TrafficPhase& ph = c.phases[re.phase];
    if (re.reaction_cycles >= 0)
      std::snprintf(rl, sizeof rl,
                    "  reaction          phase %zu (%s at %llu): latency within 10 %% of its steady %.1f after %lld "
                    "cycles (%.1f us)\n",
                    re.phase, to_string(ph.traffic).c_str(), static_cast<unsigned long long>(re.start), re.steady_latency,
                    static_cast<long long>(re.reaction_cycles), static_cast<double>(re.reaction_cycles) * ns / 1000.0);
    else
      std::snprintf(rl, sizeof rl, "  reaction          phase %zu (%s at %llu): did not settle within the run\n", re.phase,
                    to_string(ph.traffic).c_str(), static_cast<unsigned long long>(re.start));
    s += rl;
  }
  if (c.drain) s += std::string("  drain             ") + (r.drained ? "complete" : "INCOMPLETE") + "\n";
  if (r.fault.kind != FaultKind::None) s += fault_summary(r);
  if (!r.error.empty()) s += "\nERROR: " + r.error + "\n";
  return s;
}

}  // namespace scfly
