// The scfly command line.
//   scfly run CONFIG.yaml [key=value ...] [--json FILE] [--vcd FILE --trace-switches 0,3
//             [--trace-from C] [--trace-to C]] [--quiet]
// Exit codes: 0 ok; 1 usage error; 2 bad configuration; 3 simulation error (watchdog,
// invariant violation, conservation failure, or drain incomplete).
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>
#include <systemc>

#include "sc_main/config.h"
#include "sc_main/report.h"
#include "tb/network.h"

namespace {

std::vector<int> parse_switch_list(const std::string& s, int num_switches) {
  std::vector<int> out;
  std::stringstream ss(s);
  for (std::string tok; std::getline(ss, tok, ',');) {
    char* end = nullptr;
    const long v = std::strtol(tok.c_str(), &end, 10);
    if (tok.empty() || *end != '\0' || v < 0 || v >= num_switches)
      throw scfly::ConfigError("--trace-switches: '" + tok + "' is not a switch id in [0, " +
                               std::to_string(num_switches - 1) + "]");
    out.push_back(static_cast<int>(v));
  }
  return out;
}

int cmd_run(const std::string& config_path, const std::vector<std::string>& overrides,
            const std::string& json_path, const scfly::TraceRequest& trace_in,
            const std::string& trace_list, bool quiet) {
  using namespace scfly;
  SimConfig cfg;
  TraceRequest trace = trace_in;
  try {
    cfg = load_config(config_path, overrides);
    if (!trace.path.empty()) {
      const Dragonfly t(cfg.topology);
      trace.switches = parse_switch_list(trace_list.empty() ? "0" : trace_list, t.num_switches());
      if (!std::ofstream(trace.path))
        throw ConfigError("--vcd: cannot write '" + trace.path + "'");
      if (trace.to < trace.from)
        throw ConfigError("--trace-to " + std::to_string(trace.to) + " is before --trace-from " +
                          std::to_string(trace.from));
    }
  } catch (const ConfigError& e) {
    std::cerr << "scfly: error: " << e.what() << "\n";
    return 2;
  }
  const auto warnings = sizing_warnings(cfg);
  for (const auto& w : warnings) std::cerr << "scfly: warning: " << w << "\n";

  Network net("net", cfg, trace);
  const RunOutcome r = net.run();
  if (!quiet) std::cout << human_summary(cfg, r);
  if (!json_path.empty()) {
    std::ofstream out(json_path);
    if (!out) {
      std::cerr << "scfly: error: cannot write --json file '" << json_path << "'\n";
      return 1;
    }
    out << result_json(cfg, r, warnings).dump(2) << "\n";
  }
  if (!r.error.empty()) {
    if (quiet) std::cerr << "scfly: error: " << r.error << "\n";
    return 3;
  }
  if (!r.conservation_ok) {
    std::cerr << "scfly: error: conservation check failed: " << r.conservation << "\n";
    return 3;
  }
  if (cfg.drain && !r.drained) {
    std::cerr << "scfly: error: drain incomplete after " << cfg.drain_timeout_cycles
              << " cycles (" << r.metrics.packets_in_network << " packets in network, "
              << r.metrics.packets_queued << " queued)\n";
    return 3;
  }
  return 0;
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  CLI::App app{"scfly: cycle-accurate SystemC/TLM-2.0 Dragonfly network simulator"};
  app.require_subcommand(1);
  std::string config_path, json_path, vcd_path, trace_list;
  std::vector<std::string> overrides;
  uint64_t trace_from = 0, trace_to = UINT64_MAX;
  bool quiet = false;
  CLI::App* run = app.add_subcommand("run", "run one simulation and print a summary");
  run->add_option("config", config_path, "YAML configuration (e.g. sc_main/configs/dfly-tiny.yaml)")
      ->required();
  run->add_option("overrides", overrides, "key=value overrides, dotted paths (topology.p=4)");
  run->add_option("--json", json_path, "write config echo and metrics as JSON to FILE");
  run->add_option("--vcd", vcd_path, "write a VCD waveform of the traced switches to FILE");
  run->add_option("--trace-switches", trace_list, "comma-separated switch ids to trace (default 0)");
  run->add_option("--trace-from", trace_from, "first traced cycle");
  run->add_option("--trace-to", trace_to, "last traced cycle");
  run->add_flag("-q,--quiet", quiet, "no summary on stdout");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 1;
  }
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  if (run->parsed()) {
    scfly::TraceRequest tr;
    tr.path = vcd_path;
    tr.from = trace_from;
    tr.to = trace_to;
    return cmd_run(config_path, overrides, json_path, tr, trace_list, quiet);
  }
  return 1;
}

// Our own main so the SystemC banner is off before the kernel starts: the summary is the
// output. sc_elab_and_sim then calls sc_main as usual.
int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}
