// One simulation over MPI ranks (`mpirun -np R scfly run`, tb/ranks.h, tb/network.h):
// the same results as one process, for every number of ranks, and refusals with exit 2.
// Built only when the scfly executable has MPI (SCFLY_MPI): SCFLY_MPIEXEC is the launcher.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <sys/stat.h>

#include <gtest/gtest.h>

#include "scfly_run.h"

#ifdef SCFLY_MPIEXEC
namespace {

// `scfly run CONFIG ARGS` on `np` ranks (oversubscribed: the test machine may have fewer
// cores), with --json unless `json` is false.
ScflyRun run_ranks(int np, const std::string& config, const std::string& args, bool json = true) {
  return run_scfly(config, args, json,
                   std::string(SCFLY_MPIEXEC) + " --allow-run-as-root --oversubscribe -np " + std::to_string(np));
}

std::string config(const std::string& name) { return std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/" + name; }

// A database's points exported to CSV, each row without the columns that differ from run to
// run (id, wall_s, created).
std::vector<std::string> exported_points(const std::string& db) {
  const std::string csv = tmp("points.csv");
  const Cmd c = scfly_cmd("export " + db + " -o " + csv);
  EXPECT_EQ(c.code, 0) << c.err;
  std::stringstream ss(slurp(csv));
  std::string header;
  std::getline(ss, header);
  std::vector<std::string> names;
  std::stringstream hs(header);
  for (std::string n; std::getline(hs, n, ',');) names.push_back(n);
  std::vector<std::string> rows;
  for (std::string line; std::getline(ss, line);) {
    // Fields may be quoted JSON with commas: split outside quotes.
    std::vector<std::string> f(1);
    bool q = false;
    for (const char ch : line) {
      if (ch == '"') q = !q;
      if (ch == ',' && !q) f.emplace_back();
      else f.back() += ch;
    }
    std::string row;
    for (size_t i = 0; i < f.size() && i < names.size(); ++i)
      if (names[i] != "id" && names[i] != "wall_s" && names[i] != "created") row += names[i] + "=" + f[i] + ";";
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

// Every rank runs its switches' blocks and sends what crosses to the others per window; rank
// 0 adds up the statistics. Metrics, time series, per-switch series and the reaction times
// are those of one process, on 2 and 3 ranks (3 does not divide dfly-tiny's 9 groups
// evenly, nor the torus's 4 slabs): Dragonfly MIN with a drain, UGAL-L on credits, ACOR-Switch under PFC,
// PB-ACOR (Piggyback's flags, read within a group, and ACOR's levels), QCN-Switch's CNMs
// (control frames crossing ranks), GAL on a torus (the NICs' injection
// queues), MIN AD with two threads in each rank, and RTL co-simulation (in-process blocks,
// each rank with its own Verilated models). The one-process summary's line counts
// the packets delivered: the ranks' summary prints the same.
TEST(Ranks, GiveTheOneProcessResults) {
  const std::string ts = " timeseries.bin_cycles=500 timeseries.per_switch=true";
  const std::vector<std::pair<std::string, std::string>> cases{
      {config("dfly-tiny.yaml"), "routing=min load=0.6 measure_cycles=3000 drain=true" + ts},
      {config("dfly-tiny.yaml"), "routing=ugal-l traffic=adv+1 load=0.45 measure_cycles=3000" + ts},
      {config("dfly-tiny.yaml"), "routing=acor-switch traffic=adv+1 load=0.45 switch.flow_control=pfc measure_cycles=3000"},
      {config("dfly-tiny.yaml"), "routing=pb-acor traffic=adv+1 load=0.45 measure_cycles=2000" + ts},
      {config("qcn-tiny.yaml"), "traffic=adv+1 load=0.4 warmup_cycles=1000 measure_cycles=3000" + ts},
      {config("torus-8x8-gal.yaml"), "topology.k=4 routing=gal traffic=tor load=0.6 warmup_cycles=500 measure_cycles=2000" + ts},
      {config("torus-8x8-gal.yaml"), "routing=min-ad traffic=un load=0.8 warmup_cycles=500 measure_cycles=1000 sim.threads=2"},
      {config("dfly-tiny.yaml"), "routing=ugal-l traffic=adv+1 load=0.45 measure_cycles=2000 --rtl ugal,min_route,allocator" + ts},
  };
  for (const auto& [cfg, args] : cases) {
    SCOPED_TRACE(args);
    const ScflyRun one = run_scfly(cfg, args);
    ASSERT_EQ(one.code, 0) << one.err;
    EXPECT_GT(one.json["metrics"]["packets_delivered"].get<int>(), 500);
    for (int np : {2, 3}) {
      SCOPED_TRACE("ranks " + std::to_string(np));
      const ScflyRun r = run_ranks(np, cfg, args);
      ASSERT_EQ(r.code, 0) << r.err;
      EXPECT_EQ(one.json.at("metrics"), r.json.at("metrics"));
      EXPECT_EQ(one.json.contains("timeseries"), args.find("bin_cycles") != std::string::npos);
      if (one.json.contains("timeseries")) {
        EXPECT_EQ(one.json.at("timeseries"), r.json.at("timeseries"));
      }
      EXPECT_NE(r.out.find(std::to_string(np) + " ranks"), std::string::npos) << r.out;
      const auto line = [](const std::string& out) { return out.substr(out.find("packets  ")).substr(0, 80); };
      EXPECT_EQ(line(one.out), line(r.out));
    }
  }
}

// What needs the SystemC kernel (a VCD here), more ranks than switches, and the subcommands
// other than run: refused on every rank, with rank 0's message.
// `scfly sweep --ranks R`: each point runs as `MPIRUN -n R scfly run ...` and stores what one
// process stores (metrics, time series, status). The launcher here is a script that logs its
// arguments and starts the real mpirun, so the test sees that every point went over 2 ranks.
// With --slurm each array task asks Slurm for R tasks and its task list carries the launcher.
TEST(Ranks, SweepPointsRunOverRanksAndStoreTheOneProcessResults) {
  const std::string sw = tmp("sweep.yaml"), log = tmp("launcher.log"), launcher = tmp("mpirun.sh");
  std::ofstream(sw) << "name: ranks_sweep\nbase: " << config("dfly-tiny.yaml")
                    << "\nset: {warmup_cycles: 500, measure_cycles: 1500, timeseries.bin_cycles: 500}\n"
                    << "axes:\n  routing: [min, ugal-l]\n  load: [0.2, 0.45]\n";
  std::ofstream(launcher) << "#!/bin/sh\nprintf '%s\\n' \"$*\" >> " << log << "\nexec " << SCFLY_MPIEXEC
                          << " --allow-run-as-root --oversubscribe \"$@\"\n";
  ::chmod(launcher.c_str(), 0755);
  const std::string one = tmp("one.sqlite"), two = tmp("two.sqlite");
  const Cmd a = scfly_cmd("sweep " + sw + " --db " + one + " --jobs 2");
  ASSERT_EQ(a.code, 0) << a.err;
  const Cmd b = scfly_cmd("sweep " + sw + " --db " + two + " --jobs 1 --ranks 2 --mpirun " + launcher);
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_NE(b.err.find("each point over 2 MPI ranks"), std::string::npos) << b.err;
  const std::string calls = slurp(log);
  size_t n = 0;
  for (size_t at = calls.find("-n 2 " SCFLY_BIN " run "); at != std::string::npos;
       at = calls.find("-n 2 " SCFLY_BIN " run ", at + 1))
    ++n;
  EXPECT_EQ(n, 4u) << calls;
  const std::vector<std::string> pa = exported_points(one), pb = exported_points(two);
  ASSERT_EQ(pa.size(), 4u);
  EXPECT_EQ(pa, pb);

  const std::string three = tmp("three.sqlite");
  const Cmd s = scfly_cmd("sweep " + sw + " --db " + three + " --slurm --dry-run --ranks 3 --mpirun 'srun --mpi=pmix'");
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_NE(s.out.find("#SBATCH --ntasks=3\n"), std::string::npos) << s.out;
  const std::string tasks = slurp(three + ".slurm/sub-1/tasks.json");
  EXPECT_NE(tasks.find("\"ranks\": 3"), std::string::npos) << tasks;
  EXPECT_NE(tasks.find("\"srun\",\n  \"--mpi=pmix\""), std::string::npos) << tasks;

  const Cmd zero = scfly_cmd("sweep " + sw + " --db " + three + " --ranks 0");
  EXPECT_EQ(zero.code, 2);
  EXPECT_NE(zero.err.find("--ranks 0 is not allowed; expected 1-4096"), std::string::npos) << zero.err;
  const Cmd none = scfly_cmd("sweep " + sw + " --db " + three + " --ranks 2 --mpirun no-such-launcher");
  EXPECT_EQ(none.code, 2);
  EXPECT_NE(none.err.find("--mpirun no-such-launcher: not found in PATH or not an executable file"), std::string::npos) << none.err;
}

// --profile on ranks: rank 0's windows, with what it sent the other rank and the time the
// exchange took (its wait for the other rank included); the results are still one process's.
TEST(Ranks, ProfileCountsTheExchange) {
  const std::string a = "load=0.5 warmup_cycles=500 measure_cycles=1500";
  const ScflyRun one = run_scfly(config("dfly-tiny.yaml"), a);
  const ScflyRun r = run_ranks(2, config("dfly-tiny.yaml"), a + " --profile");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(one.json.at("metrics"), r.json.at("metrics"));
  const nlohmann::json& p = r.json.at("run").at("profile");
  EXPECT_EQ(p.at("ranks").get<int>(), 2);
  EXPECT_GE(p.at("windows").get<int>(), 200);
  EXPECT_GT(p.at("exchange_bytes").get<double>(), 0);
  EXPECT_GT(p.at("exchange_s").get<double>(), 0);
  EXPECT_NE(r.out.find("rank exchange "), std::string::npos) << r.out;
}

TEST(Ranks, RefusalsNameTheReason) {
  const ScflyRun vcd = run_ranks(2, config("dfly-tiny.yaml"), "measure_cycles=500 --vcd " + tmp("r.vcd"), false);
  EXPECT_EQ(vcd.code, 2);
  EXPECT_NE(vcd.err.find("--vcd: a simulation over 2 ranks writes no VCD"), std::string::npos) << vcd.err;
  const ScflyRun fault =
      run_ranks(2, config("dfly-tiny.yaml"), "measure_cycles=500 --fault lose-credits:0:5:0:100", false);
  EXPECT_EQ(fault.code, 2);
  EXPECT_NE(fault.err.find("--fault: a simulation over 2 ranks injects no fault"), std::string::npos) << fault.err;
  const ScflyRun vco = run_ranks(2, config("dfly-tiny.yaml"), "measure_cycles=500 sim.check_vc_order=true", false);
  EXPECT_EQ(vco.code, 2);
  EXPECT_NE(vco.err.find("sim.check_vc_order: a simulation over 2 ranks does not check"), std::string::npos)
      << vco.err;
  const ScflyRun pb = run_ranks(4, config("dfly-tiny.yaml"), "routing=pb topology.g=3 topology.arrangement=absolute "
                                "measure_cycles=500", false);
  EXPECT_EQ(pb.code, 2);
  EXPECT_NE(pb.err.find("Piggyback's flags need whole groups on each rank, at most 3 ranks"), std::string::npos)
      << pb.err;
  const ScflyRun ugalgb =
      run_ranks(2, config("dfly-tiny.yaml"), "routing=ugal-g ugal_g.view=block measure_cycles=500", false);
  EXPECT_EQ(ugalgb.code, 2);
  EXPECT_NE(ugalgb.err.find("UGAL-G over 2 ranks: its view of every queue spans the ranks"), std::string::npos)
      << ugalgb.err;
  const ScflyRun ugalg = run_ranks(2, config("dfly-tiny.yaml"), "routing=ugal-g measure_cycles=500", false);
  EXPECT_EQ(ugalg.code, 2);
  EXPECT_NE(ugalg.err.find("2 ranks runs on the block scheduler, and this one needs the SystemC kernel (UGAL-G"),
            std::string::npos)
      << ugalg.err;
  const ScflyRun pt = run_ranks(2, config("dfly-tiny.yaml"), "measure_cycles=500 --packet-trace " + tmp("r.csv"), false);
  EXPECT_EQ(pt.code, 2);
  EXPECT_NE(pt.err.find("--packet-trace: a simulation over 2 ranks writes no packet trace"), std::string::npos)
      << pt.err;
  const ScflyRun many = run_ranks(4, config("torus-ring-8.yaml"), "topology.k=3 measure_cycles=500", false);
  EXPECT_EQ(many.code, 2);
  EXPECT_NE(many.err.find("4 ranks for"), std::string::npos) << many.err;
  EXPECT_NE(many.err.find("at most one rank per switch"), std::string::npos) << many.err;
  const std::string o = tmp("keys.out"), e = tmp("keys.err");
  const int st = std::system((std::string(SCFLY_MPIEXEC) + " --allow-run-as-root --oversubscribe -np 2 " + SCFLY_BIN +
                              " keys >" + o + " 2>" + e)
                                 .c_str());
  EXPECT_EQ(WIFEXITED(st) ? WEXITSTATUS(st) : -1, 1);
  EXPECT_NE(slurp(e).find("only 'scfly run' runs over ranks"), std::string::npos) << slurp(e);
}
#endif
