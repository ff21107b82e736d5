// The scfly command line.
//   scfly run CONFIG.yaml [key=value ...] [--json FILE] [--vcd FILE --trace-switches 0,3
//             [--trace-from C] [--trace-to C]] [--quiet] [--fault KIND:SW:PORT:VC:CYCLE]
//             [--shuffle-construction SEED]
//   scfly sweep SWEEP.yaml [--db FILE] [--jobs N] [--retry-failed] [--dry-run]
//   scfly sweep SWEEP.yaml --slurm [--partition P] [--time T] [--mem M] [--max-parallel N]
//             [--points-per-task K] [--sbatch-arg ARG ...] [--db FILE] [--retry-failed] [--dry-run]
//   scfly sweep SWEEP.yaml --gather [--db FILE]        (sc_main/slurm.h)
//   scfly plot DB [plot options]        (sc_main/scfly_plot.py; see --help there)
//   scfly export DB -o FILE.csv [--table points] [--sweep NAME] [--revision N|all]
//   scfly table CONFIG.yaml [key=value ...] --switch N [--at CYCLE]   (a switch's forwarding
//             table; --at: run to CYCLE first and show the live port probabilities)
//   scfly ideal CONFIG.yaml [key=value ...] [--json FILE] [--no-lp]   (throughput bounds)
//   scfly report-card CARD.yaml [--db FILE] [--jobs N] [--md FILE] [--json FILE] [--dry-run]
//   scfly tvlb CONFIG.yaml [key=value ...] [-o FILE.json] [--jobs N] [--quick] [--point P ...]
//             [--no-ordering] [--set-seed N] [--force] [--step2 SWEEP.yaml [--routing R,..] [--patterns N]
//             [--resolution R]]   (T-VLB Step 1: the LP throughput model, and Step 2 as a sweep file;
//             sc_main/tvlb_model.h)
//   scfly tvlb --select SWEEP.yaml --db DB [-o FILE.json]   (Step 2's choice from the finished sweep)
//   scfly tvlb CONFIG.yaml [key=value ...] --paths FILE.json [--tau-global X] [--tau-local Y]
//             (Step 2's load-balance removals from the configuration's T-VLB set, a path file for tugal.paths)
//   scfly check-deadlock CONFIG.yaml [key=value ...] [--vcs CLASS=N ...] [--min-vcs] [--json FILE]
//   scfly keys       (every configuration key: the keys table of docs/config.md, sc_main/config_schema.h)
// Exit codes: sc_main/exit_codes.h, and the table with examples in docs/reliability.md.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>
#include <systemc>

#include "sc_main/cli.h"
#include "sc_main/config.h"
#include "sc_main/config_schema.h"
#include "sc_main/deadlock_check.h"
#include "sc_main/deadlock_validation.h"
#include "sc_main/exit_codes.h"
#include "sc_main/output_file.h"
#include "sc_main/progress.h"
#include "sc_main/version.h"
#include "sc_main/ideal.h"
#include "routing_units/tvlb_balance.h"
#include "sc_main/tvlb_model.h"
#include "sc_main/report.h"
#include "sc_main/results_db.h"
#include "sc_main/run_driver.h"
#include "sc_main/slurm.h"
#include "sc_main/report_card.h"
#include "sc_main/sweep.h"
#include "routing_units/forwarding_table.h"
#include "tb/network.h"
#include "rtl_models/switch/fault_spec.h"
#include "scfly_git_rev.h"

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

// A non-negative integer option, read from its text: CLI11 reads "-5" into an unsigned
// option as 2^64 - 5, and a wrapped cycle or seed would silently mean something else.
uint64_t count_option(const std::string& option, const std::string& text, uint64_t hi, const std::string& what) {
  const std::string allowed = "; expected " + what + " in [0, " + std::to_string(hi) + "]";
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    throw scfly::ConfigError(option + ": value '" + text + "' is not allowed" + allowed);
  errno = 0;
  const unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
  if (errno == ERANGE || v > hi) throw scfly::ConfigError(option + ": value '" + text + "' is not allowed" + allowed);
  return v;
}

// Writes an output (sc_main/output_file.h); on failure prints "scfly: error: OPTION: writing
// 'F' failed: REASON" and returns false (the caller exits with kExitWriteFailed).
bool write_or_report(const std::string& option, const std::string& path, const std::string& text) {
  const std::string why = scfly::write_output(path, text);
  if (why.empty()) return true;
  std::cerr << "scfly: error: " << option << ": " << why << "\n";
  return false;
}

// Refuses an output that cannot be written, before any work (and without truncating it).
void check_output(const std::string& option, const std::string& path) {
  if (path.empty()) return;
  if (const std::string why = scfly::output_problem(path); !why.empty())
    throw scfly::ConfigError(option + ": " + why);
}

// One warning per key the user gave (file or override) that this configuration never reads
// (config_schema.h, KeySpec::inert_with). Not in a sweep's point: the sweep warns once.
void warn_inert_keys(const scfly::SimConfig& cfg, const std::vector<std::string>& given) {
  if (std::getenv("SCFLY_SWEEP_POINT")) return;
  for (const std::string& w : scfly::inert_key_warnings(cfg, given)) std::cerr << "scfly: warning: " << w << "\n";
}

// The options of `scfly run` as given (numbers as text: count_option reads them).
struct RunArgs {
  std::string config, json, vcd, trace_list, packet_trace, trace_from, trace_to, shuffle, fault;
  std::vector<std::string> overrides;
  bool quiet = false;
  bool profile = false;  // --profile
  scfly::Ranks* ranks = nullptr;  // MPI ranks (tb/ranks.h); null: one process
};

int cmd_run(const RunArgs& a) {
  using namespace scfly;
  const std::string& config_path = a.config;
  const std::string& json_path = a.json;
  const std::string& trace_list = a.trace_list;
  const std::string& fault = a.fault;
  const bool quiet = a.quiet;
  SimConfig cfg;
  std::vector<std::string> given;  // the keys the file and the overrides set
  TraceRequest trace;
  trace.path = a.vcd;
  trace.packet_trace = a.packet_trace;
  trace.ranks = a.ranks;
  trace.profile = a.profile;
  const bool speaker = !a.ranks || a.ranks->rank() == 0;  // writes the outputs
  DeadlockValidation deadlock;
  try {
    // The options first: they are cheap to check and refer to nothing the config decides.
    const uint64_t kMax = UINT64_MAX;
    if (!a.trace_from.empty()) trace.from = count_option("--trace-from", a.trace_from, kMax, "a cycle");
    if (!a.trace_to.empty()) trace.to = count_option("--trace-to", a.trace_to, kMax, "a cycle");
    if (!a.shuffle.empty())
      trace.shuffle_construction = count_option("--shuffle-construction", a.shuffle, kMax, "a seed (0 = off)");
    if (!trace_list.empty() && trace.path.empty())
      throw ConfigError("--trace-switches '" + trace_list + "' needs --vcd FILE: it picks the switches the VCD "
                        "traces (a --packet-trace records every packet)");
    if ((!a.trace_from.empty() || !a.trace_to.empty()) && trace.path.empty() && trace.packet_trace.empty())
      throw ConfigError(std::string(!a.trace_from.empty() ? "--trace-from" : "--trace-to") +
                        " needs --vcd FILE or --packet-trace FILE: it bounds what they record");
    if (trace.to < trace.from)
      throw ConfigError("--trace-to " + std::to_string(trace.to) + " is before --trace-from " +
                        std::to_string(trace.from));
    check_output("--json", json_path);
    check_output("--vcd", trace.path);
    check_output("--packet-trace", trace.packet_trace);
    cfg = load_config(config_path, a.overrides, &given);
    if (!fault.empty()) {
      // A fault that cannot apply, or cannot fire within the run, is refused here: a run with
      // it would test nothing (tb/network.h fault_problem; docs/reliability.md).
      try {
        trace.fault = parse_fault(fault);
      } catch (const std::invalid_argument& e) {
        throw ConfigError(e.what());
      }
      if (const std::string why = fault_problem(cfg, *make_topology(cfg), trace.fault); !why.empty())
        throw ConfigError(why);
      // The run's cycles are [0, end): the window, then the drain's timeout when drain is on
      // (sc_main/run_driver.cpp). A message sent at cycle C or later is the fault's.
      const uint64_t window = cfg.warmup_cycles + cfg.measure_cycles;
      const uint64_t end = cfg.drain ? window + std::min(cfg.drain_timeout_cycles, UINT64_MAX - window) : window;
      if (trace.fault.cycle >= end)
        throw ConfigError("--fault '" + to_string(trace.fault) + "': cycle " + std::to_string(trace.fault.cycle) +
                          " is not within the run, which simulates cycles 0-" + std::to_string(end - 1) +
                          " (warmup_cycles " + std::to_string(cfg.warmup_cycles) + " + measure_cycles " +
                          std::to_string(cfg.measure_cycles) +
                          (cfg.drain ? " + drain_timeout_cycles " + std::to_string(cfg.drain_timeout_cycles) +
                                           " at most, drain: true"
                                     : std::string()) +
                          "), so the fault could never fire; allowed: a cycle in [0, " + std::to_string(end - 1) + "]");
    }
    deadlock = validate_deadlock(cfg);  // a network that can deadlock is a configuration error
                                        // (its progress lines: sc_main/progress.h)
    if (!trace.path.empty()) {
      const std::unique_ptr<Topology> t = make_topology(cfg);
      trace.switches = parse_switch_list(trace_list.empty() ? "0" : trace_list, t->num_switches());
    }
  } catch (const ConfigError& e) {
    std::cerr << "scfly: error: " << e.what() << "\n";
    return 2;
  }
  warn_inert_keys(cfg, given);
  auto warnings = sizing_warnings(cfg);
  for (const auto& w : warnings) std::cerr << "scfly: warning: " << w << "\n";

  std::unique_ptr<Network> net_ptr;
  try {
    std::string shape;
    if (Progress::enabled()) shape = make_topology(cfg)->describe();
    const Heartbeat building("building the network", shape);
    net_ptr = std::make_unique<Network>("net", cfg, trace);
  } catch (const std::invalid_argument& e) {  // --fault on a port or VC the network lacks
    std::cerr << "scfly: error: " << e.what() << "\n";
    return 2;
  }
  if (trace.shuffle_construction != 0) {
    std::cerr << "scfly: construction order (--shuffle-construction " << trace.shuffle_construction << "):";
    for (const std::string& n : net_ptr->construction_order(8)) std::cerr << " " << n;
    std::cerr << " ...\n";
  }
  RunOutcome r;
  try {
    r = run(*net_ptr, cfg);
  } catch (const sc_core::sc_report& e) {  // an error raised inside the SystemC kernel
    std::cerr << "scfly: error: the simulation stopped in SystemC: " << e.what() << "\n";
    return kExitSimError;
  }
  // --fault: a fault that injected nothing tested nothing, and the run says so and fails
  // (exit 3) unless it failed already; one that fired with no check stopping the run is
  // the run's finding (exit 0), said in a warning (docs/reliability.md, exit codes).
  if (r.fault.kind != FaultKind::None) {
    if (r.fault_injected == 0 && r.error.empty()) r.error = fault_never_fired(cfg, r);
    if (const std::string w = fault_undetected(cfg, r); !w.empty()) {
      std::cerr << "scfly: warning: " << w << "\n";
      warnings.push_back(w);
    }
  }
  bool written = true;
  if (!trace.path.empty()) {
    net_ptr.reset();  // closes the VCD, so a failed write is known now
    if (!VcdWriter::write_error().empty()) {
      std::cerr << "scfly: error: " << VcdWriter::write_error() << "\n";
      written = false;
    }
  }
  // The process ends after the summary: the network is left to the OS, not torn down.
  // SystemC's teardown searches a parent's child list from its front and the port and
  // export registries from their back, so every order is quadratic in the modules of one
  // parent: dfly(16,32,16) with 17 groups (9,252 modules) spent 6 s of its 7 s tearing
  // down, with 513 groups (279,072 modules) minutes after the run had ended. (Kept reachable from a static, so leak checkers do not report it.)
  [[maybe_unused]] static Network* s_left_to_the_os = nullptr;
  s_left_to_the_os = net_ptr.release();
  // The packet trace's write failure is an output's, not the simulation's (exit code).
  const bool trace_failed = r.error.rfind("--packet-trace: ", 0) == 0;
  if (!quiet) std::cout << human_summary(cfg, r) << "  " << deadlock.summary() << "\n";
  if (!json_path.empty() && speaker) {
    nlohmann::json j = result_json(cfg, r, warnings);
    j["deadlock_check"] = deadlock.to_json();
    written = write_or_report("--json", json_path, j.dump(2) + "\n") && written;
  }
  if (!r.error.empty()) {
    if (quiet || trace_failed) std::cerr << "scfly: error: " << r.error << "\n";
    if (cfg.drain && !r.drained)  // e.g. lost credits: the balance names the channel, the drain what it left
      std::cerr << "scfly: error: drain incomplete after " << cfg.drain_timeout_cycles << " cycles ("
                << r.metrics.packets_in_network << " packets in network, " << r.metrics.packets_queued << " queued)\n";
    return trace_failed ? kExitWriteFailed : kExitSimError;
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
  return written ? kExitOk : kExitWriteFailed;
}

// How `scfly sweep` was asked to run: here, on Slurm, as one Slurm task, or gathering.
struct SweepMode {
  bool slurm = false, gather = false;
  std::string task_dir;
  int task = -1;
  scfly::SlurmOptions so;
  int ranks = 1;          // --ranks: MPI ranks per point
  std::string mpirun;     // --mpirun: the launcher command, before its -n R
  bool jobs_given = false;
  bool mpi_build = false;  // this executable has MPI
};

int cmd_sweep(const std::string& path, std::string db, int jobs, bool retry, bool dry, const SweepMode& mode) {
  using namespace scfly;
  SweepSpec spec;
  try {
    spec = load_sweep(path);
  } catch (const ConfigError& e) {
    std::cerr << "scfly: error: " << e.what() << "\n";
    return 2;
  }
  if (jobs < 1) {
    std::cerr << "scfly: error: --jobs " << jobs << " is not allowed; expected at least 1\n";
    return 2;
  }
  if (mode.ranks < 1 || mode.ranks > 4096) {
    std::cerr << "scfly: error: --ranks " << mode.ranks << " is not allowed; expected 1-4096 (MPI ranks per point)\n";
    return 2;
  }
  SweepOptions opt;
  if (mode.ranks > 1) {  // not with --gather or --slurm-task (the options exclude them)
    if (!mode.mpi_build) {
      std::cerr << "scfly: error: --ranks " << mode.ranks << ": this scfly was built without MPI (SCFLY_MPI OFF: cmake "
                << "found no MPI), so its runs cannot span ranks; build with -DSCFLY_MPI=ON (Debian: libopenmpi-dev)\n";
      return 2;
    }
    std::stringstream ss(mode.mpirun);
    for (std::string t; ss >> t;) opt.mpirun.push_back(t);
    if (opt.mpirun.empty()) {
      std::cerr << "scfly: error: --mpirun '' is not allowed; expected a launcher command such as mpirun or srun\n";
      return 2;
    }
    // Submitted to Slurm, the launcher runs on the compute nodes; here it must exist.
    const std::string& l = opt.mpirun[0];
    std::error_code ec;
    const bool found = l.find('/') == std::string::npos
                           ? in_path(l)
                           : std::filesystem::is_regular_file(l, ec) && ::access(l.c_str(), X_OK) == 0;
    if (!mode.slurm && !dry && !found) {
      std::cerr << "scfly: error: --mpirun " << l << ": not found in PATH or not an executable file (--ranks " << mode.ranks
                << " starts each point as '" << mode.mpirun << " -n " << mode.ranks << " scfly run ...'; Debian: openmpi-bin)\n";
      return 2;
    }
    opt.ranks = mode.ranks;
    // Each point takes R cores: by default as many points at once as the cores hold.
    if (!mode.jobs_given) jobs = std::max(1, static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN)) / mode.ranks);
  }
  opt.db_path = db.empty() ? spec.name + ".sqlite" : db;
  opt.jobs = jobs;
  opt.retry_failed = retry;
  opt.dry_run = dry;
  opt.progress_bar = ::isatty(2) != 0;
  if (mode.slurm) {
    scfly::SlurmOptions so = mode.so;
    so.dry_run = dry;
    return slurm_submit(path, spec, opt, so);
  }
  if (mode.gather) return slurm_gather(spec, opt);
  if (!mode.task_dir.empty()) return slurm_task(spec, opt, mode.task_dir, mode.task);
  return run_sweep(spec, opt);
}

// Prints switch N's conditional forwarding table as the builder fills it for the config.
int cmd_table(const std::string& config_path, const std::vector<std::string>& overrides, int sw,
              const std::string& at_text) {
  using namespace scfly;
  SimConfig cfg;
  std::vector<std::string> given;
  int64_t at = -1;  // no --at
  try {
    if (!at_text.empty())
      at = static_cast<int64_t>(count_option("--at", at_text, uint64_t{1} << 40, "a cycle"));
    cfg = load_config(config_path, overrides, &given);
  } catch (const ConfigError& e) {
    std::cerr << "scfly: error: " << e.what() << "\n";
    return 2;
  }
  warn_inert_keys(cfg, given);
  if (cfg.topo_kind != TopologyKind::Dragonfly) {
    std::cerr << "scfly: error: 'scfly table' shows a Dragonfly switch's forwarding table; this config is a "
              << to_string(cfg.topo_kind) << " (its routing units forward without a table)\n";
    return 2;
  }
  const Dragonfly t(cfg.topology);
  if (sw < 0 || sw >= t.num_switches()) {
    std::cerr << "scfly: error: --switch " << sw << " is not a switch of " << t.describe() << "; expected 0 to "
              << t.num_switches() - 1 << "\n";
    return 2;
  }
  const RoutingUnit routing(cfg.routing, t, cfg.routing_prm);
  if (!routing.uses_table()) {
    if (at >= 0) {
      std::cerr << "scfly: error: --at needs a routing that forwards by table (min-table, min-cond), not "
                << to_string(cfg.routing) << "\n";
      return 2;
    }
    std::cout << "(routing " << to_string(cfg.routing)
              << " does not forward by table; routing=min-table does, with this table)\n";
    std::cout << build_min_table(t, sw).format(t);
    return 0;
  }
  if (at < 0) {
    std::cout << routing.make_table(sw).format(t);
    return 0;
  }
  // The live table: run the configured network to cycle `at`, then print the switch's table
  // with its probability register as the mechanism left it.
  Network net("net", cfg);
  if (!advance(net, static_cast<uint64_t>(at))) {
    std::cerr << "scfly: error: the run failed before cycle " << at << ": " << net.context().error << "\n";
    return 3;
  }
  std::cout << "at cycle " << net.cycle() << " (" << routing_summary(cfg) << ", " << traffic_summary(cfg)
            << " at load " << cfg.load << "):\n";
  std::cout << net.switch_at(sw).table()->format(t);
  return 0;
}

bool is_file(const std::string& p) {
  struct stat st{};
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// `scfly plot` is the Python script sc_main/scfly_plot.py (matplotlib); its arguments pass
// through untouched. SCFLY_PLOT_SCRIPT and SCFLY_PYTHON override where they are found.
int cmd_plot(const std::vector<std::string>& args) {
  const char* env_script = std::getenv("SCFLY_PLOT_SCRIPT");
  // The source tree's script in a build tree, else the installed one.
  std::string script = env_script ? env_script : SCFLY_PLOT_SCRIPT_PATH;
  if (!env_script && access(script.c_str(), R_OK) != 0) script = SCFLY_PLOT_SCRIPT_INSTALLED;
  if (!is_file(script)) {
    std::cerr << "scfly plot: error: plotting script '" << script
              << "' not found (set SCFLY_PLOT_SCRIPT)\n";
    return 2;
  }
  const char* env_py = std::getenv("SCFLY_PYTHON");
  // Debian's interpreter first: python3-matplotlib installs for it, not for other pythons.
  const std::string py = env_py ? env_py : (is_file("/usr/bin/python3") ? "/usr/bin/python3" : "python3");
  std::vector<std::string> argv_s = {py, script};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::cout.flush();
  ::execvp(py.c_str(), argv.data());
  std::cerr << "scfly plot: error: cannot run '" << py << "' (install python3)\n";
  return 2;
}

int cmd_export(const std::string& db_path, const std::string& table, const std::string& out,
               const std::string& sweep, const std::string& revision) {
  if (!is_file(db_path)) {
    std::cerr << "scfly: error: results database '" << db_path << "' does not exist\n";
    return 2;
  }
  try {
    scfly::ResultsDb db(db_path);
    const std::string where = db.revision_condition(sweep, revision, table != "points");
    const int64_t n = db.export_csv(table, out, where);
    std::cout << "wrote " << n << " rows of table " << table << " to " << out << "\n";
  } catch (const scfly::DbError& e) {
    std::cerr << "scfly: error: " << e.what() << "\n";
    return scfly::kExitBadInput;
  } catch (const scfly::WriteError& e) {
    std::cerr << "scfly: error: " << e.what() << "\n";
    return scfly::kExitWriteFailed;
  }
  return 0;
}

// Prints the throughput bounds of a configuration (sc_main/ideal.h).
int cmd_ideal(const std::string& config_path, const std::vector<std::string>& overrides, const std::string& json_path,
              bool no_lp) {
  using namespace scfly;
  SimConfig cfg;
  try {
    check_output("--json", json_path);
    cfg = load_config(config_path, overrides);
  } catch (const ConfigError& e) {
    std::cerr << "scfly: error: " << e.what() << "\n";
    return 2;
  }
  try {
    const IdealResult r = ideal_throughput(cfg, !no_lp);
    std::cout << format(r);
    if (!json_path.empty() && !write_or_report("--json", json_path, to_json(r).dump(2) + "\n"))
      return kExitWriteFailed;
  } catch (const std::exception& e) {
    std::cerr << "scfly: error: " << e.what() << "\n";
    return 3;
  }
  return 0;
}

// T-VLB Step 1 of a Dragonfly configuration (sc_main/tvlb_model.h).
struct TvlbArgs {
  std::string config, output, step2, select, db, paths;
  std::vector<std::string> overrides, points, routings;
  double tau_global = 1.25, tau_local = 2.0;
  int patterns = 5;
  double resolution = 0.01;
  int jobs = 1, type2 = 20, step = 10;
  uint64_t set_seed = 1;
  bool quick = false, no_ordering = false, force = false;
};

// Step 2's choice from a finished Step 2 sweep.
int cmd_tvlb_select(const TvlbArgs& a) {
  using namespace scfly;
  try {
    if (a.db.empty()) throw ConfigError("--select needs --db (the database the Step 2 sweep ran into)");
    check_output("-o", a.output);
    const TvlbSelection s = tvlb_select(a.select, a.db);
    std::cout << format(s);
    if (!a.output.empty() && !write_or_report("-o", a.output, to_json(s).dump(2) + "\n")) return kExitWriteFailed;
    return s.best.empty() ? 3 : 0;
  } catch (const ConfigError& e) {
    std::cerr << "scfly: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "scfly: error: " << e.what() << "\n";
    return 3;
  }
}

// Step 2's load-balance adjustment of the configuration's T-VLB set, written as a path file
// (routing_units/tvlb_balance.h).
int cmd_tvlb_paths(const TvlbArgs& a) {
  using namespace scfly;
  SimConfig cfg;
  try {
    if (a.config.empty()) throw ConfigError("tvlb --paths needs a configuration");
    for (const std::string& o : a.overrides)
      if (o.rfind("tugal.", 0) == 0)
        throw ConfigError("--paths: the override '" + o + "' is not used: the bounds are --tau-global and "
                          "--tau-local, and the file is what --paths writes");
    for (const auto& [name, v] : {std::pair<const char*, double>{"--tau-global", a.tau_global}, {"--tau-local", a.tau_local}})
      if (v != 0 && (v < 1 || v > 1000))
        throw ConfigError(std::string(name) + ": value " + nlohmann::json(v).dump() +
                          " is not allowed; use 0 (off) or a bound in [1, 1000] (max / mean usage)");
    std::vector<std::string> ov = a.overrides;
    ov.push_back("tugal.tau_global=0");  // the bounds here are the options'
    ov.push_back("tugal.tau_local=0");
    cfg = load_config(a.config, ov);
    if (cfg.topo_kind != TopologyKind::Dragonfly)
      throw ConfigError("topology.kind: T-VLB sets are defined on a Dragonfly");
    if (cfg.routing_prm.ugal.vlb_set == TvlbClass::All)
      throw ConfigError("--paths: the configuration draws from no T-VLB set; use routing t-ugal-l, t-ugal-g or "
                        "t-par, or ugal.vlb_set=i5src (or another class)");
    check_output("--paths", a.paths);
  } catch (const ConfigError& e) {
    std::cerr << "scfly: error: " << e.what() << "\n";
    return 2;
  }
  try {
    const Dragonfly topo(cfg.topology);
    const UgalParams& u = cfg.routing_prm.ugal;
    const TvlbRule rule{u.vlb_set, u.vlb_percent, u.vlb_seed};
    TvlbBalanceReport rep;
    const TvlbRemovals removed = tvlb_balance(topo, rule, TvlbBalanceOptions{a.tau_global, a.tau_local}, &rep);
    std::cout << format(rep);
    if (!write_or_report("--paths", a.paths, tvlb_paths_json(topo, rule, removed, &rep).dump() + "\n"))
      return kExitWriteFailed;
    std::cout << "\npath file written to " << a.paths << "; run with routing=t-ugal-l (or t-ugal-g, t-par) "
              << tvlb_rule_overrides(rule) << " tugal.paths=" << a.paths << "\n";
  } catch (const std::exception& e) {
    std::cerr << "scfly: error: " << e.what() << "\n";
    return 3;
  }
  return 0;
}

int cmd_tvlb(const TvlbArgs& a) {
  using namespace scfly;
  if (!a.select.empty()) return cmd_tvlb_select(a);
  if (!a.paths.empty()) return cmd_tvlb_paths(a);
  SimConfig cfg;
  TvlbStep1Options opt;
  TvlbStep2Options step2;
  try {
    if (a.config.empty()) throw ConfigError("tvlb needs a configuration (or --select SWEEP --db DB)");
    cfg = load_config(a.config, a.overrides);
    if (cfg.topo_kind != TopologyKind::Dragonfly)
      throw ConfigError("topology.kind: T-VLB sets are defined on a Dragonfly; this configuration is a " +
                        std::string(to_string(cfg.topo_kind)));
    check_output("-o", a.output);
    for (const std::string& text : a.points) {
      TvlbPoint p;
      if (auto why = parse_tvlb_point(text, p); !why.empty()) throw ConfigError("--point: " + why);
      opt.points.push_back(p);
    }
    if (opt.points.empty()) opt.points = tvlb_table1_points(a.step);
    if (!a.step2.empty()) {
      check_output("--step2", a.step2);  // checked, not opened: a refused command keeps the file
      for (const std::string& o : a.overrides) {
        const std::string key = o.substr(0, o.find('='));
        if (key == "traffic" || key == "seed" || key == "load" || key == "phases" || key == "routing" ||
            key.rfind("ugal.vlb_", 0) == 0)
          throw ConfigError("--step2: the override '" + o + "' would be replaced: Step 2 sets traffic (group-perm), "
                            "seed (the pattern), load (the search), routing (--routing) and ugal.vlb_* (the "
                            "candidate)");
      }
      step2.routings = a.routings;
      if (step2.routings.empty()) step2.routings = {to_string(cfg.routing)};
      for (const std::string& r : step2.routings)
        if (r != "ugal-l" && r != "ugal-g" && r != "par" && r != "pb" && r != "t-ugal-l" && r != "t-ugal-g" &&
            r != "t-par")
          throw ConfigError("--routing: '" + r + "' does not draw from a T-VLB set; allowed: ugal-l, ugal-g, par, pb, "
                            "t-ugal-l, t-ugal-g, t-par");
      char* abs = ::realpath(a.config.c_str(), nullptr);
      step2.config_path = abs ? abs : a.config;
      std::free(abs);
      step2.overrides = a.overrides;
      step2.patterns = a.patterns;
      step2.resolution = a.resolution;
    }
  } catch (const ConfigError& e) {
    std::cerr << "scfly: error: " << e.what() << "\n";
    return 2;
  }
  const Dragonfly topo(cfg.topology);
  opt.quick = a.quick;
  opt.type2 = a.type2;
  opt.jobs = a.jobs;
  opt.lp.ordering = !a.no_ordering;
  opt.lp.seed = a.set_seed;
  int shown = -1;
  const bool tty = isatty(2) != 0;
  opt.progress = [&shown, tty](int done, int total) {
    const int pct = done * 100 / total, every = tty ? 1 : 10;
    if (pct / every != shown / every || done == total) {
      shown = pct;
      std::cerr << (tty ? "\r" : "") << "tvlb: " << done << "/" << total << " LPs (" << pct << " %)"
                << (tty && done < total ? "" : "\n") << std::flush;
    }
  };
  try {
    TvlbStep1 r;
    if (topo.links_per_group_pair() == 1 && !a.force) {
      r.topology = topo.describe();
      r.skipped = true;
    } else {
      r = run_tvlb_step1(topo, opt);
    }
    std::cout << format(r);
    if (!a.output.empty() && !write_or_report("-o", a.output, to_json(r).dump(2) + "\n")) return kExitWriteFailed;
    if (!a.step2.empty()) {
      if (r.skipped) {  // T-VLB = all: the one candidate
        TvlbPoint all;
        all.name = "all";
        TvlbStep1Point p;
        p.point = all;
        r.points.push_back(p);
        r.vicinity = {0};
      }
      if (!write_or_report("--step2", a.step2, tvlb_step2_sweep(r, step2))) return kExitWriteFailed;
      std::cout << "\nStep 2 sweep written to " << a.step2 << " (" << tvlb_step2_candidates(r).size()
                << " candidates x " << step2.patterns << " patterns x " << step2.routings.size()
                << " routing(s)); run it with scfly sweep " << a.step2 << " --db DB, then scfly tvlb --select "
                << a.step2 << " --db DB\n";
    }
  } catch (const std::exception& e) {
    std::cerr << "scfly: error: " << e.what() << "\n";
    return 3;
  }
  return 0;
}

// Checks deadlock freedom of a configuration (sc_main/deadlock_check.h).
int cmd_check_deadlock(const std::string& config_path, const std::vector<std::string>& overrides,
                       const std::vector<std::string>& vcs, bool minimize, const std::string& json_path,
                       const std::string& max_states) {
  using namespace scfly;
  SimConfig cfg;
  std::vector<std::string> given;
  DeadlockCheckOptions opt;
  try {
    if (!max_states.empty()) {
      opt.max_states = count_option("--max-states", max_states, uint64_t{1} << 40, "a state count");
      if (opt.max_states == 0) throw ConfigError("--max-states: value '0' is not allowed; expected a state count in [1, " +
                                                 std::to_string(uint64_t{1} << 40) + "]");
    }
    check_output("--json", json_path);
    cfg = load_config(config_path, overrides, &given);
    const std::unique_ptr<Topology> t = make_topology(cfg);
    std::string classes;
    for (int k = 1; k < t->num_port_classes(); ++k) classes += std::string(k > 1 ? ", " : "") + t->port_class_name(k);
    for (const std::string& v : vcs) {
      const auto eq = v.find('=');
      const int k = eq == std::string::npos ? -1 : t->port_class_by_name(v.substr(0, eq));
      int n = 0;
      try {
        n = eq == std::string::npos ? 0 : std::stoi(v.substr(eq + 1));
      } catch (const std::exception&) {
        n = 0;
      }
      if (k < 1 || n < 1 || n > 16)
        throw ConfigError("--vcs '" + v + "': expected CLASS=N with CLASS one of " + classes + " and N in 1-16");
      opt.vcs[k] = n;
    }
  } catch (const ConfigError& e) {
    std::cerr << "scfly: error: " << e.what() << "\n";
    return 2;
  }
  warn_inert_keys(cfg, given);
  Progress progress("check-deadlock");
  if (progress.on()) opt.progress = deadlock_progress(progress, opt.max_states);
  try {
    const DeadlockCheckResult r = check_deadlock(cfg, opt);
    std::cout << format(r);
    nlohmann::json j = to_json(r);
    if (minimize) {
      std::cout << "  smallest deadlock-free VC count per class (the others as analysed above):";
      nlohmann::json m = nlohmann::json::object();
      for (const auto& [name, n] : min_vcs(cfg, opt)) {
        std::cout << " " << name << " " << (n > 0 ? std::to_string(n) : std::string("none"));
        m[name] = n;
      }
      std::cout << "\n";
      j["min_vcs"] = m;
    }
    if (cfg.routing == RoutingAlgo::Chaos) {
      std::cout << "  routing chaos: deadlock freedom rests on derouting out of each switch's multiqueue "
                   "(routing_units/torus_routing.h), not on the channel dependency graph above\n";
      j["derouting"] = true;
    }
    if (!json_path.empty() && !write_or_report("--json", json_path, j.dump(2) + "\n")) return kExitWriteFailed;
    if (r.too_large) return kExitNotChecked;  // not a simulation error: nothing was checked
    if (cfg.routing == RoutingAlgo::Chaos) return kExitOk;
    return r.deadlock_free() ? kExitOk : kExitNegative;
  } catch (const std::exception& e) {
    std::cerr << "scfly: error: " << e.what() << "\n";
    return 3;
  }
}

}  // namespace

int scfly::cli_main(int argc, char* argv[], scfly::Ranks* ranks, bool mpi_build) {
  if (ranks && ranks->size() > 1) {
    // One simulation over several processes: rank 0 speaks for all of them.
    if (ranks->rank() != 0) {
      if (!std::freopen("/dev/null", "w", stdout) || !std::freopen("/dev/null", "w", stderr)) return kExitWriteFailed;
    }
    if (argc < 2 || std::string(argv[1]) != "run") {
      std::cerr << "scfly: error: started on " << ranks->size() << " MPI ranks; only 'scfly run' runs over ranks "
                << "(the others run as one process: start them without mpirun, or with -np 1)\n";
      return kExitUsage;
    }
  }
  CLI::App app{"scfly: cycle-accurate SystemC/TLM-2.0 Dragonfly and torus network simulator"};
  app.require_subcommand(1);
  RunArgs ra;
  CLI::App* run = app.add_subcommand("run", "run one simulation and print a summary");
  run->add_option("config", ra.config, "YAML configuration (e.g. sc_main/configs/dfly-tiny.yaml)")->required();
  run->add_option("overrides", ra.overrides, "key=value overrides, dotted paths (topology.p=4)");
  run->add_option("--json", ra.json, "write config echo and metrics as JSON to FILE");
  run->add_option("--vcd", ra.vcd, "write a VCD waveform of the traced switches to FILE");
  run->add_option("--trace-switches", ra.trace_list, "with --vcd: comma-separated switch ids to trace (default 0)");
  run->add_option("--packet-trace", ra.packet_trace,
                  "write every delivered packet (endpoints, cycles, hops per class, intermediate and the switch "
                  "that drew it) as CSV to FILE (tb/packet_trace.h)");
  run->add_option("--trace-from", ra.trace_from,
                  "with --vcd or --packet-trace: first traced cycle (packet trace: by delivery cycle)")
      ->type_name("CYCLE");
  run->add_option("--trace-to", ra.trace_to,
                  "with --vcd or --packet-trace: last traced cycle (packet trace: by delivery cycle)")
      ->type_name("CYCLE");
  run->add_flag("-q,--quiet", ra.quiet, "no summary on stdout");
  run->add_flag("--profile", ra.profile,
                "time the block scheduler's windows: the groups' work, the busiest thread's, the largest group's, "
                "the rank exchange, and the work's floor on 1-64 cores (a 'windows' line and run.profile in the "
                "JSON; results unchanged)");
  // The kinds and blocks come from the lists the parsers check against (fault_spec.h, config.h).
  run->add_option("--fault", ra.fault, std::string("inject a fault to see the safety checks fire: "
                                                   "KIND:SWITCH:PORT:VC:CYCLE, KIND one of ") +
                                           scfly::fault_kinds() +
                                           " (rtl_models/switch/fault_link.h). The summary and JSON give the events "
                                           "injected; a fault that cannot apply or falls after the run is refused "
                                           "(exit 2), one that never fired fails the run (exit 3)");
  run->add_option("--shuffle-construction", ra.shuffle,
                  "build the switches and NICs in an order shuffled by this seed (so SystemC evaluates them in another "
                  "order within a cycle); results must be identical (a test option)")
      ->type_name("SEED");
  std::string rtl_list;
  std::string rtl_help = "co-simulate these Verilated blocks (comma-separated; same as rtl=[...]); a routing block "
                         "replaces its routing's unit, so it needs that routing:";
  for (const scfly::RtlBlockInfo& b : scfly::rtl_blocks())
    rtl_help += " " + b.name + " (" +
                (b.plugin  ? "the plug-in's Verilated decision; routing " + b.routings
                 : b.net == scfly::RtlNet::Any ? b.routings + "; any network and routing"
                                             : (b.net == scfly::RtlNet::Torus ? "torus/mesh; " : "") +
                                                   std::string("routing ") + b.routings) +
                ");";
  rtl_help.back() = '.';
  run->add_option("--rtl", rtl_list, rtl_help);
  std::string rtl_switches;
  run->add_option("--rtl-switches", rtl_switches,
                  "with --rtl: the switches whose blocks are co-simulated, comma-separated ids (same as "
                  "rtl_switches=[...]; default every switch); the others run the C++ units")
      ->type_name("LIST");

  std::string sweep_path, db_path;
  int jobs = static_cast<int>(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
  bool retry = false, dry = false;
  CLI::App* sweep = app.add_subcommand("sweep", "run every point of a sweep file into a SQLite database");
  sweep->add_option("sweep", sweep_path, "sweep file (e.g. sc_main/experiments/example.yaml)")->required();
  sweep->add_option("--db", db_path, "results database (default: NAME.sqlite)");
  sweep->add_option("--jobs,-j", jobs, "points run in parallel (default: the core count)");
  sweep->add_flag("--retry-failed", retry, "run again the points recorded as failed");
  sweep->add_flag("--dry-run", dry, "list the points and their hashes, run nothing (with --slurm: write the job "
                                     "script and print it, submit nothing)");
  SweepMode sweep_mode;
  auto* o_slurm = sweep->add_flag("--slurm", sweep_mode.slurm,
                                  "submit the points still missing as a Slurm job array (one SQLite shard per task); "
                                  "prints the job id");
  auto* o_gather = sweep->add_flag("--gather", sweep_mode.gather,
                                   "merge the Slurm tasks' shards into the database, show progress, failed points and, "
                                   "when complete, the saturation summary");
  auto* o_task = sweep->add_option("--slurm-task", sweep_mode.task_dir,
                                   "run one task of a submission directory (what the job script calls)");
  sweep->add_option("--task", sweep_mode.task, "with --slurm-task: the task index (default $SLURM_ARRAY_TASK_ID)")
      ->needs(o_task);
  sweep->add_option("--partition", sweep_mode.so.partition, "Slurm partition")->needs(o_slurm);
  sweep->add_option("--time", sweep_mode.so.time, "Slurm time limit per task (e.g. 2:00:00)")->needs(o_slurm);
  sweep->add_option("--mem", sweep_mode.so.mem, "Slurm memory per task (e.g. 4G)")->needs(o_slurm);
  auto* o_max_parallel =
      sweep->add_option("--max-parallel", sweep_mode.so.max_parallel, "at most N array tasks at once (N >= 1; default no limit)")
          ->needs(o_slurm);
  sweep->add_option("--points-per-task", sweep_mode.so.units_per_task,
                    "points per array task (default 1; saturation_search and stop_after_saturation sweeps: series "
                    "per task)")
      ->needs(o_slurm);
  sweep->add_option("--sbatch-arg", sweep_mode.so.sbatch_args,
                    "an extra sbatch option written as an #SBATCH line (repeatable), e.g. --sbatch-arg=--account=A")
      ->needs(o_slurm);
  auto* o_jobs = sweep->get_option("--jobs");
  auto* o_ranks = sweep->add_option("--ranks", sweep_mode.ranks,
                                    "MPI ranks per point (default 1): each point runs as 'MPIRUN -n R scfly run ...' (an "
                                    "MPI build; with --slurm each array task gets R Slurm tasks); --jobs defaults to "
                                    "the cores / R");
  sweep->add_option("--mpirun", sweep_mode.mpirun,
                    "with --ranks: the launcher command, before its -n R (default mpirun; e.g. 'srun', or 'mpirun "
                    "--oversubscribe')")
      ->needs(o_ranks);
  sweep_mode.mpirun = "mpirun";
  o_slurm->excludes(o_gather)->excludes(o_task);
  o_gather->excludes(o_task);
  o_ranks->excludes(o_gather)->excludes(o_task);

  std::vector<std::string> plot_args;
  CLI::App* plot = app.add_subcommand("plot", "plot a results database (matplotlib)");
  plot->prefix_command();
  plot->allow_extras();
  plot->set_help_flag();

  std::string export_table = "points", export_out;
  CLI::App* exp = app.add_subcommand("export", "export a table of a results database to CSV");
  exp->add_option("db", db_path, "results database")->required();
  exp->add_option("-o,--output", export_out, "CSV file to write")->required();
  exp->add_option("--table", export_table, "points (default), timeseries, switch_series or saturation");
  std::string export_sweep, export_revision;
  exp->add_option("--sweep", export_sweep, "only the points of this sweep (points, timeseries, switch_series)");
  exp->add_option("--revision", export_revision,
                  "N|all: the sweep's revision N, or every point (default: the latest revision of each sweep)");
  std::string table_config;
  std::vector<std::string> table_overrides;
  int table_switch = 0;
  std::string table_at;
  CLI::App* tbl = app.add_subcommand("table", "print a switch's conditional forwarding table");
  tbl->add_option("config", table_config, "YAML configuration")->required();
  tbl->add_option("overrides", table_overrides, "key=value overrides, dotted paths (topology.g=5)");
  tbl->add_option("--switch,-s", table_switch, "switch id (default 0)");
  tbl->add_option("--at", table_at,
                  "run the configured network to this cycle first and show the live probabilities")
      ->type_name("CYCLE");
  std::string ideal_config, ideal_json;
  std::vector<std::string> ideal_overrides;
  bool ideal_no_lp = false;
  CLI::App* ideal = app.add_subcommand("ideal", "throughput bounds of a configuration: the max-concurrent-flow LP and "
                                                "the channel-load bound of each oblivious routing");
  ideal->add_option("config", ideal_config, "YAML configuration")->required();
  ideal->add_option("overrides", ideal_overrides, "key=value overrides, dotted paths (traffic=tor)");
  ideal->add_option("--json", ideal_json, "write the bounds as JSON to FILE");
  ideal->add_flag("--no-lp", ideal_no_lp, "only the oblivious bounds (skip the LP)");
  TvlbArgs tv;
  CLI::App* tvlb = app.add_subcommand("tvlb", "T-VLB sets (T-UGAL paper sec. 3.3): Step 1's LP throughput model of "
                                               "each candidate over the TYPE_1 and TYPE_2 patterns; Step 2 as a sweep "
                                               "file (--step2) and its choice (--select)");
  tvlb->add_option("config", tv.config, "YAML configuration (a Dragonfly); not with --select");
  tvlb->add_option("overrides", tv.overrides, "key=value overrides, dotted paths (topology.g=17)");
  tvlb->add_option("-o,--output", tv.output, "write the points, per-pattern values and the vicinity as JSON");
  tvlb->add_option("--jobs,-j", tv.jobs, "LPs solved in parallel (default 1)")->check(CLI::Range(1, 1024));
  tvlb->add_flag("--quick", tv.quick, "subsample the patterns: DG in {1, 2, (g-1)/2, g-1}, DS in {0, a/2}, 3 "
                                      "group permutations");
  tvlb->add_option("--point", tv.points, "only these points (e.g. '<=4 +60% 5-hop', i5src, all, min); default: the "
                                         "paper's Table 1 points, i5src, i5dst and all with generic segments");
  tvlb->add_option("--step", tv.step, "percent step of the Table 1 points (default 10)")->check(CLI::Range(1, 99));
  tvlb->add_option("--type2", tv.type2, "group permutations (TYPE_2) to use (default 20)")
      ->check(CLI::Range(0, 100000));
  tvlb->add_flag("--no-ordering", tv.no_ordering, "drop T-UGAL's constraint (a longer VLB path never carries more "
                                                  "than a shorter one)");
  tvlb->add_option("--set-seed", tv.set_seed, "hash seed of the fractional points' subsets (as ugal.vlb_seed; "
                                              "default 1)");
  tvlb->add_option("--step2", tv.step2, "also write Step 2 as a sweep file: the vicinity, i5src and i5dst on "
                                        "--patterns group permutations, a saturation search each");
  tvlb->add_option("--routing", tv.routings, "--step2: the mechanisms (ugal-l, ugal-g, par, pb; default the "
                                             "config's)")->delimiter(',');
  tvlb->add_option("--patterns", tv.patterns, "--step2: TYPE_2 patterns per candidate (default 5, the paper's)")
      ->check(CLI::Range(1, 1000));
  tvlb->add_option("--resolution", tv.resolution, "--step2: the saturation search's load step (default 0.01)")
      ->check(CLI::Range(0.001, 0.5));
  tvlb->add_option("--select", tv.select, "choose from a finished Step 2 sweep (with --db): the candidate with the "
                                          "highest mean saturation load per routing");
  tvlb->add_option("--db", tv.db, "--select: the sweep's results database");
  tvlb->add_option("--paths", tv.paths, "Step 2's load-balance adjustment instead of the LP: the configuration's "
                   "T-VLB set (routing t-ugal-*, or ugal.vlb_set) less the removals of the balance rules, written "
                   "as a path file for tugal.paths (routing_units/tvlb_balance.h)");
  tvlb->add_option("--tau-global", tv.tau_global, "--paths: the global rule's bound, max / mean channel usage "
                   "(default 1.25; 0 = off)");
  tvlb->add_option("--tau-local", tv.tau_local, "--paths: the local rule's bound per switch pair (default 2; 0 = off)");
  tvlb->add_flag("--force", tv.force, "run the LP even with one global link per group pair (T-VLB = all there)");
  std::string dl_config, dl_json;
  std::vector<std::string> dl_overrides, dl_vcs;
  bool dl_min = false;
  CLI::App* dl = app.add_subcommand("check-deadlock", "check deadlock freedom: the channel dependency graph of the "
                                                      "topology x routing x VCs, built from the routing units");
  dl->add_option("config", dl_config, "YAML configuration")->required();
  dl->add_option("overrides", dl_overrides, "key=value overrides, dotted paths (routing=val)");
  dl->add_option("--vcs", dl_vcs, "analyse CLASS with N VCs instead of the configured count (e.g. local=3); VCs the "
                                  "unit uses beyond N fold onto the last");
  dl->add_flag("--min-vcs", dl_min, "also find the smallest deadlock-free VC count of each class");
  dl->add_option("--json", dl_json, "write the result as JSON to FILE");
  std::string dl_max_states;
  dl->add_option("--max-states", dl_max_states, "give up (exit 6, NOT CHECKED) after exploring this many routing "
                                                "states (default 20000000)")
      ->type_name("N");
  std::string card_path, card_md, card_json;
  bool card_dry = false;
  CLI::App* card = app.add_subcommand("report-card", "run a report card (mechanisms x figures of merit, e.g. the GAL "
                                                     "paper's Table IV) and print it as Markdown");
  card->add_option("card", card_path, "report card file (e.g. sc_main/experiments/gal-report-card.yaml)")->required();
  card->add_option("--db", db_path, "results database (default: NAME.sqlite)");
  card->add_option("--jobs,-j", jobs, "points run in parallel (default: the core count)");
  card->add_option("--md", card_md, "also write the Markdown table to FILE");
  card->add_option("--json", card_json, "write every value (permutation lists, series, hop histograms) to FILE");
  card->add_flag("--dry-run", card_dry, "list each row's points, run nothing");
  std::string card_perms;
  std::vector<std::string> card_rows;
  card->add_option("--permutations", card_perms,
                   "N: run seeds 1..N of each row's permutations (a first look); A-B: seeds A..B only (a block "
                   "of a long row, e.g. for another machine)");
  card->add_option("--rows", card_rows, "run and report only these rows (names, comma-separated)")->delimiter(',');
  CLI::App* keys = app.add_subcommand("keys", "print every configuration key (default, allowed values, meaning) as "
                                               "the Markdown table of docs/config.md");
  bool keys_routings = false;
  keys->add_flag("--routings", keys_routings,
                 "print the registered routing mechanisms instead (topologies, VC budgets, observations), plug-ins "
                 "included");
  // Option values (tests/cli_fuzz.py): CLI11 reads an empty value as the option's default,
  // and an empty text or number held as text reads as "not given" (`--json ''` writes
  // nothing, `--slurm-task ''` runs the whole sweep); an unsigned one wraps "-1" to
  // 2^64 - 1 and saturates a number past 2^64. Refuse them (exit 2, "--OPTION: ...").
  const CLI::Validator not_empty(
      [](std::string& s) { return s.empty() ? std::string("the value is empty; give a number") : std::string(); }, "");
  const CLI::Validator not_empty_text(
      [](std::string& s) { return s.empty() ? std::string("the value is empty") : std::string(); }, "");
  const CLI::Validator unsigned_text(
      [](std::string& s) {
        errno = 0;
        if (!s.empty() && s.find_first_not_of("0123456789") == std::string::npos &&
            (std::strtoull(s.c_str(), nullptr, 10), errno != ERANGE))
          return std::string();
        return "value '" + s + "' is not allowed; expected an integer in [0, 18446744073709551615]";
      },
      "");
  for (CLI::App* sub : app.get_subcommands({}))
    for (CLI::Option* o : sub->get_options()) {
      const std::string t = o->get_type_name();
      if (t == "UINT") o->check(unsigned_text);
      else if (t == "INT" || t == "FLOAT" || t == "CYCLE" || t == "N" || t == "SEED") o->check(not_empty);
      else if (t == "TEXT" && !o->get_positional()) o->check(not_empty_text);  // "--json ''" = no output
    }
  // Before CLI11, which answers both with only "A subcommand is required".
  std::string subcommands;
  bool known = false;
  for (const CLI::App* sub : app.get_subcommands({})) {
    subcommands += (subcommands.empty() ? "" : ", ") + sub->get_name();
    known |= argc >= 2 && sub->get_name() == argv[1];
  }
  if (argc >= 2 && std::string(argv[1]) == "--version") {
    std::cout << "scfly " << SCFLY_VERSION << " (git " << SCFLY_GIT_REV << ")\n";
    return scfly::kExitOk;
  }
  if (argc < 2 || (argv[1][0] != '-' && !known)) {
    if (argc < 2) std::cerr << "scfly: error: a subcommand is required";
    else std::cerr << "scfly: error: unknown subcommand '" << argv[1] << "'";
    std::cerr << "; the subcommands are " << subcommands << " (scfly --help describes them, scfly SUBCOMMAND "
              << "--help their options)\n";
    return scfly::kExitUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    if (rc == 0) return scfly::kExitOk;  // --help
    // A value CLI11 could not convert or its check refused is bad input (the message names
    // the option); anything else (an unknown option, a missing argument) is usage.
    if (dynamic_cast<const CLI::ConversionError*>(&e) || dynamic_cast<const CLI::ValidationError*>(&e))
      return scfly::kExitBadInput;
    return scfly::kExitUsage;
  }
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  if (run->parsed()) {
    if (!rtl_list.empty()) ra.overrides.push_back("rtl=[" + rtl_list + "]");
    if (!rtl_switches.empty()) ra.overrides.push_back("rtl_switches=[" + rtl_switches + "]");
    ra.ranks = ranks;
    return cmd_run(ra);
  }
  if (keys->parsed()) {
    std::cout << (keys_routings ? scfly::routings_markdown() : scfly::keys_markdown());
    return 0;
  }
  if (sweep->parsed()) {
    sweep_mode.so.max_parallel_given = o_max_parallel->count() > 0;
    sweep_mode.jobs_given = o_jobs->count() > 0;
    sweep_mode.mpi_build = mpi_build;
    return cmd_sweep(sweep_path, db_path, jobs, retry, dry, sweep_mode);
  }
  if (plot->parsed()) return cmd_plot(plot->remaining());
  if (exp->parsed()) return cmd_export(db_path, export_table, export_out, export_sweep, export_revision);
  if (tbl->parsed()) return cmd_table(table_config, table_overrides, table_switch, table_at);
  if (ideal->parsed()) return cmd_ideal(ideal_config, ideal_overrides, ideal_json, ideal_no_lp);
  if (tvlb->parsed()) return cmd_tvlb(tv);
  if (dl->parsed()) return cmd_check_deadlock(dl_config, dl_overrides, dl_vcs, dl_min, dl_json, dl_max_states);
  if (card->parsed()) {
    if (jobs < 1) {
      std::cerr << "scfly: error: --jobs " << jobs << " is not allowed; expected at least 1\n";
      return 2;
    }
    scfly::ReportCardOptions o;
    o.db_path = db_path;
    o.md_path = card_md;
    o.json_path = card_json;
    o.jobs = jobs;
    o.dry_run = card_dry;
    o.permutations = card_perms;
    o.rows = card_rows;
    o.progress_bar = ::isatty(2) != 0;
    return scfly::run_report_card(card_path, o);
  }
  return 1;
}

// Our own main so the SystemC banner is off before the kernel starts: the summary is the
// output. sc_elab_and_sim then calls sc_main as usual.
int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}
