// Hostile and careless input (issue 50, docs/reliability.md): each case gets the exit code
// of sc_main/exit_codes.h and a message naming the file or option, the value and what is
// allowed; nothing crashes, hangs, wraps, silently defaults or reports a failed write as
// success.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <fstream>

#include "routing_units/registry.h"
#include "sc_main/config.h"
#include "sc_main/config_schema.h"
#include "scfly_run.h"

namespace {

std::string write_file(const std::string& name, const std::string& text) {
  const std::string p = tmp(name);
  std::ofstream(p) << text;
  return p;
}

// A config: dfly-tiny's shape with short windows and `extra`.
std::string tiny_with(const std::string& extra) {
  return write_file("cfg.yaml", "topology: {p: 2, a: 4, h: 2, g: 9, arrangement: palmtree}\nwarmup_cycles: 200\n"
                                "measure_cycles: 400\n" + extra);
}

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

// 10 levels of 9 aliases each: 9^10 nodes when expanded.
std::string billion_laughs() {
  std::string y = "l0: &l0 [x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i <= 10; ++i) {
    const std::string p = "*l" + std::to_string(i - 1);
    y += "l" + std::to_string(i) + ": &l" + std::to_string(i) + " [" + p;
    for (int k = 1; k < 9; ++k) y += ", " + p;
    y += "]\n";
  }
  return y;
}

bool have_dev_full() {
  struct stat st{};
  return ::stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode);
}

}  // namespace

// ---------------------------------------------------------------- hostile YAML
TEST(Hostile, RecursiveAliasInConfigAndSweepExits2) {
  const std::string cfg = write_file("recursive.yaml", "a: &a [*a]\n");
  const ScflyRun r = run_scfly(cfg, "-q", false);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(has(r.err, cfg + ": the alias at 'a[0]'")) << r.err;
  EXPECT_TRUE(has(r.err, "(a recursive alias)")) << r.err;
  // Deeper, in a key the config has (phases), and as a sweep file.
  const std::string ph = tiny_with("phases: &p [{start: 0, traffic: un}, *p]\n");
  const ScflyRun r2 = run_scfly(ph, "-q", false);
  EXPECT_EQ(r2.code, 2) << r2.err;
  EXPECT_TRUE(has(r2.err, "recursive alias")) << r2.err;
  const Cmd s = scfly_cmd("sweep " + cfg + " --dry-run");
  EXPECT_EQ(s.code, 2) << s.err;
  EXPECT_TRUE(has(s.err, "sweep file '" + cfg + "': the alias at 'a[0]'")) << s.err;
}

TEST(Hostile, RecursiveAliasInOverrideExits2) {
  const ScflyRun r = run_scfly(tiny_config(), "'phases=&p [*p]' -q", false);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "override of 'phases'")) << r.err;
  EXPECT_TRUE(has(r.err, "recursive alias")) << r.err;
}

TEST(Hostile, BillionLaughsIsRefusedAtOnce) {
  const std::string cfg = write_file("laughs.yaml", billion_laughs());
  const ScflyRun r = run_scfly(cfg, "-q", false);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(has(r.err, cfg + ": more than 100000 YAML nodes, counting each use of an alias")) << r.err;
  const Cmd s = scfly_cmd("sweep " + cfg + " --dry-run");
  EXPECT_EQ(s.code, 2) << s.err;
  EXPECT_TRUE(has(s.err, "sweep file '" + cfg + "': more than 100000 YAML nodes")) << s.err;
}

TEST(Hostile, DeepNestingHugeScalarsAndHugeFilesExit2) {
  std::string deep = "a: ";
  for (int i = 0; i < 100; ++i) deep += "[";
  for (int i = 0; i < 100; ++i) deep += "]";
  const std::string d = write_file("deep.yaml", deep + "\n");
  const ScflyRun r = run_scfly(d, "-q", false);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(has(r.err, d + ": YAML nested more than 64 levels deep")) << r.err;

  const std::string big = tiny_with("traffic: " + std::string(100000, 'u') + "\n");
  const ScflyRun b = run_scfly(big, "-q", false);
  EXPECT_EQ(b.code, 2) << b.err;
  EXPECT_TRUE(has(b.err, "the value at 'traffic' (line")) << b.err;
  EXPECT_TRUE(has(b.err, "is 100000 characters long; at most 65536 are allowed")) << b.err;
  EXPECT_LT(b.err.size(), 1000u) << "the message quotes the value whole";

  const std::string huge = write_file("huge.yaml", "# " + std::string(9u << 20, 'x') + "\n");
  const ScflyRun h = run_scfly(huge, "-q", false);
  EXPECT_EQ(h.code, 2) << h.err;
  EXPECT_TRUE(has(h.err, "config file '" + huge + "' is 9437187 bytes; at most 8388608 are allowed")) << h.err;
  std::remove(huge.c_str());
}

// ---------------------------------------------------------------- silent defaults
TEST(Hostile, NullValuesAreRefusedNamingTheKey) {
  for (const char* v : {"load: ~\n", "load:\n", "load: null\n"}) {
    const ScflyRun r = run_scfly(tiny_with(v), "-q", false);
    EXPECT_EQ(r.code, 2) << v << r.err;
    EXPECT_TRUE(has(r.err, "config key 'load': the value is empty (null); give a value or leave the key out")) << v
                                                                                                            << r.err;
  }
  const ScflyRun ph = run_scfly(tiny_with("phases: [{start: 0, load: ~}]\n"), "-q", false);
  EXPECT_EQ(ph.code, 2) << ph.err;
  EXPECT_TRUE(has(ph.err, "config key 'phases[0].load': the value is empty (null)")) << ph.err;
  const ScflyRun ov = run_scfly(tiny_config(), "'switch.speedup=~' -q", false);
  EXPECT_EQ(ov.code, 2) << ov.err;
  EXPECT_TRUE(has(ov.err, "config key 'switch.speedup': the value is empty (null)")) << ov.err;
}

TEST(Hostile, EmptyConfigFileExits2) {
  for (const char* text : {"", "# only a comment\n", "{}\n"}) {
    const std::string p = write_file("empty.yaml", text);
    const ScflyRun r = run_scfly(p, "-q", false);
    EXPECT_EQ(r.code, 2) << text << r.err;
    EXPECT_TRUE(has(r.err, "config file '" + p + "' has no keys (it is empty)")) << r.err;
  }
}

TEST(Hostile, NegativeOptionValuesExit2NamingTheRange) {
  const std::string vcd = tmp("x.vcd");
  const ScflyRun from = run_scfly(tiny_config(), "-q --vcd " + vcd + " --trace-from -5", false);
  EXPECT_EQ(from.code, 2) << from.err;
  EXPECT_TRUE(has(from.err, "--trace-from: value '-5' is not allowed; expected a cycle in [0, 18446744073709551615]"))
      << from.err;
  struct stat st{};
  EXPECT_NE(::stat(vcd.c_str(), &st), 0) << "the refused run created its VCD";
  const ScflyRun to = run_scfly(tiny_config(), "-q --packet-trace " + tmp("t.csv") + " --trace-to 1e3", false);
  EXPECT_EQ(to.code, 2) << to.err;
  EXPECT_TRUE(has(to.err, "--trace-to: value '1e3' is not allowed")) << to.err;
  const ScflyRun sh = run_scfly(tiny_config(), "-q --shuffle-construction -1", false);
  EXPECT_EQ(sh.code, 2) << sh.err;
  EXPECT_TRUE(has(sh.err, "--shuffle-construction: value '-1' is not allowed; expected a seed (0 = off) in [0, "))
      << sh.err;
  const Cmd at = scfly_cmd("table " + std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/qcn-tiny.yaml --at -1");
  EXPECT_EQ(at.code, 2) << at.err;
  EXPECT_TRUE(has(at.err, "--at: value '-1' is not allowed; expected a cycle in [0, 1099511627776]")) << at.err;
  EXPECT_TRUE(at.out.empty()) << at.out;
  // A value CLI11 refuses (its own range check) is bad input too, not a usage error.
  const Cmd jobs = scfly_cmd("tvlb " + tiny_config() + " --quick --jobs 0");
  EXPECT_EQ(jobs.code, 2) << jobs.err;
  EXPECT_TRUE(has(jobs.err, "--jobs")) << jobs.err;
}

TEST(Hostile, TraceOptionsWithoutATraceExit2) {
  const ScflyRun sw = run_scfly(tiny_config(), "-q --trace-switches 3", false);
  EXPECT_EQ(sw.code, 2) << sw.err;
  EXPECT_TRUE(has(sw.err, "--trace-switches '3' needs --vcd FILE")) << sw.err;
  const ScflyRun from = run_scfly(tiny_config(), "-q --trace-from 100", false);
  EXPECT_EQ(from.code, 2) << from.err;
  EXPECT_TRUE(has(from.err, "--trace-from needs --vcd FILE or --packet-trace FILE")) << from.err;
}

// No packet measured: latency, hops and fairness were not measured; not 0.
TEST(Hostile, NothingMeasuredIsNotAZeroLatency) {
  const ScflyRun r = run_scfly(tiny_config(), "warmup_cycles=0 measure_cycles=1");
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_EQ(metrics(r)["packets_measured"], 0);
  for (const char* k : {"latency_avg", "latency_p99", "network_latency_avg", "hops_avg", "jain_fairness"})
    EXPECT_TRUE(metrics(r)[k].is_null()) << k << " " << metrics(r)[k];
  EXPECT_TRUE(has(r.out, "latency (total)   n/a (no packet measured)")) << r.out;
  EXPECT_TRUE(has(r.out, "fairness          Jain n/a")) << r.out;
  EXPECT_FALSE(has(r.out, "avg 0.0")) << r.out;
  // A measured run keeps its numbers.
  const ScflyRun ok = run_scfly(tiny_config(), "warmup_cycles=500 measure_cycles=1000 -q");
  ASSERT_EQ(ok.code, 0) << ok.err;
  EXPECT_TRUE(metrics(ok)["latency_avg"].is_number());
  EXPECT_TRUE(metrics(ok)["jain_fairness"].is_number());
}

// ---------------------------------------------------------------- failed writes
TEST(Hostile, FailedWritesExit5NamingTheFile) {
  if (!have_dev_full()) GTEST_SKIP() << "no /dev/full";
  const std::string q = "warmup_cycles=200 measure_cycles=400 -q ";
  const ScflyRun json = run_scfly(tiny_config(), q + "--json /dev/full", false);
  EXPECT_EQ(json.code, 5) << json.err;
  EXPECT_TRUE(has(json.err, "--json: writing '/dev/full' failed: No space left on device")) << json.err;
  const ScflyRun vcd = run_scfly(tiny_config(), q + "--vcd /dev/full --trace-switches 0,1,2,3", false);
  EXPECT_EQ(vcd.code, 5) << vcd.err;
  EXPECT_TRUE(has(vcd.err, "--vcd: writing '/dev/full' failed: ")) << vcd.err;
  const ScflyRun pt = run_scfly(tiny_config(), q + "--packet-trace /dev/full", false);
  EXPECT_EQ(pt.code, 5) << pt.err;
  EXPECT_TRUE(has(pt.err, "--packet-trace: writing '/dev/full' failed")) << pt.err;
  const Cmd ideal = scfly_cmd("ideal " + tiny_config() + " --no-lp --json /dev/full");
  EXPECT_EQ(ideal.code, 5) << ideal.err;
  EXPECT_TRUE(has(ideal.err, "--json: writing '/dev/full' failed: No space left on device")) << ideal.err;
  const Cmd dl = scfly_cmd("check-deadlock " + tiny_config() + " --json /dev/full");
  EXPECT_EQ(dl.code, 5) << dl.err;
  EXPECT_TRUE(has(dl.err, "--json: writing '/dev/full' failed: No space left on device")) << dl.err;
}

TEST(Hostile, ExportReportsAFailedWrite) {
  const std::string sw = write_file("sweep.yaml", "base: " + tiny_config() +
                                                      "\nset: {warmup_cycles: 200, measure_cycles: 400}\n"
                                                      "axes:\n  load: [0.1]\n");
  const std::string db = tmp("db.sqlite"), csv = tmp("points.csv");
  ASSERT_EQ(scfly_cmd("sweep " + sw + " --db " + db + " --jobs 1").code, 0);
  const Cmd ok = scfly_cmd("export " + db + " -o " + csv);
  EXPECT_EQ(ok.code, 0) << ok.err;
  EXPECT_TRUE(has(ok.out, "wrote 1 rows of table points to " + csv)) << ok.out;
  EXPECT_TRUE(has(slurp(csv), "latency_avg")) << slurp(csv);
  const Cmd missing_dir = scfly_cmd("export " + db + " -o /nonexistent-dir/x.csv");
  EXPECT_EQ(missing_dir.code, 2) << missing_dir.err;
  EXPECT_TRUE(has(missing_dir.err, "-o: cannot write '/nonexistent-dir/x.csv'")) << missing_dir.err;
  if (have_dev_full()) {
    const Cmd full = scfly_cmd("export " + db + " -o /dev/full");
    EXPECT_EQ(full.code, 5) << full.err;
    EXPECT_TRUE(has(full.err, "-o: writing '/dev/full' failed: No space left on device")) << full.err;
    EXPECT_FALSE(has(full.out, "wrote")) << full.out;
  }
  for (const std::string& f : {sw, db, csv}) std::remove(f.c_str());
}

// A sweep whose results database fills the disk (here: the file-size limit, which makes the
// database's writes fail as a full disk does) exits 5 with the database's message, keeps the
// points it had stored intact, and a rerun with room resumes it.
TEST(Hostile, SweepDatabaseOnAFullDiskExits5AndResumes) {
  const std::string sw = write_file("full.yaml", "base: " + tiny_config() +
                                                     "\nset: {warmup_cycles: 200, measure_cycles: 500}\n"
                                                     "axes:\n  routing: [min, val]\n  load: \"0.05:0.95:0.05\"\n");
  const std::string db = tmp("full.sqlite"), err = tmp("full.err");
  // 200 blocks of 512 bytes: the schema and a few points fit, 38 points do not.
  const std::string cmd = "trap '' XFSZ; ulimit -f 200 && exec " + std::string(SCFLY_BIN) + " sweep " + sw +
                          " --db " + db + " --jobs 2 >/dev/null 2>" + err;
  const int st = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(st)) << st;
  const std::string e = slurp(err);
  EXPECT_EQ(WEXITSTATUS(st), 5) << e;
  EXPECT_TRUE(has(e, "results database '" + db + "': ") &&
              (has(e, "disk I/O error") || has(e, "database or disk is full")))
      << e;
  const int64_t kept = rows_now(db);
  EXPECT_GT(kept, 0);
  EXPECT_LT(kept, 38);
  const Cmd again = scfly_cmd("sweep " + sw + " --db " + db + " --jobs 2");
  EXPECT_EQ(again.code, 0) << again.err;
  EXPECT_TRUE(has(again.err, std::to_string(kept) + " already in the database")) << again.err;
  EXPECT_EQ(rows_now(db), 38);
  for (const std::string& f : {sw, db, err}) std::remove(f.c_str());
}

// A refused tvlb --step2 keeps the file it would have written.
TEST(Hostile, RefusedTvlbKeepsItsOutputFiles) {
  const std::string keep = write_file("keep.yaml", "precious\n"), out = write_file("keep.json", "precious\n");
  const Cmd c = scfly_cmd("tvlb " + tiny_config() + " topology.g=5 topology.arrangement=absolute routing=ugal-l "
                          "--quick --step2 " + keep + " -o " + out);
  EXPECT_EQ(c.code, 2) << c.err;
  EXPECT_TRUE(has(c.err, "--step2: the override 'routing=ugal-l' would be replaced")) << c.err;
  EXPECT_EQ(slurp(keep), "precious\n");
  EXPECT_EQ(slurp(out), "precious\n");
  const Cmd p = scfly_cmd("tvlb " + tiny_config() + " topology.g=5 topology.arrangement=absolute --quick "
                          "--point bogus -o " + out);
  EXPECT_EQ(p.code, 2) << p.err;
  EXPECT_EQ(slurp(out), "precious\n");
}

// ---------------------------------------------------------------- exit codes, help
TEST(Hostile, CheckDeadlockNotCheckedHasItsOwnExitCode) {
  const Cmd c = scfly_cmd("check-deadlock " + tiny_config() + " routing=val --max-states 100");
  EXPECT_EQ(c.code, 6) << c.out << c.err;
  EXPECT_TRUE(has(c.out, "NOT CHECKED")) << c.out;
  const Cmd zero = scfly_cmd("check-deadlock " + tiny_config() + " --max-states 0");
  EXPECT_EQ(zero.code, 2) << zero.err;
  EXPECT_TRUE(has(zero.err, "--max-states: value '0' is not allowed")) << zero.err;
}

TEST(Hostile, UnknownSubcommandAndVersion) {
  const Cmd foo = scfly_cmd("foo");
  EXPECT_EQ(foo.code, 1);
  EXPECT_TRUE(has(foo.err, "unknown subcommand 'foo'; the subcommands are run, sweep, plot, export, table, ideal, "
                           "tvlb, check-deadlock, report-card, keys"))
      << foo.err;
  const Cmd none = scfly_cmd("");
  EXPECT_EQ(none.code, 1);
  EXPECT_TRUE(has(none.err, "a subcommand is required; the subcommands are run, sweep")) << none.err;
  const Cmd v = scfly_cmd("--version");
  EXPECT_EQ(v.code, 0) << v.err;
  EXPECT_EQ(v.out.rfind("scfly 0.1.0 (git ", 0), 0u) << v.out;
  EXPECT_FALSE(has(v.out, "(git )")) << v.out;
}

// run --help names every fault kind and every RTL block the parsers accept.
TEST(Hostile, RunHelpListsEveryFaultKindAndRtlBlock) {
  const Cmd h = scfly_cmd("run --help");
  EXPECT_EQ(h.code, 0);
  std::string flat;  // CLI11 wraps long descriptions
  for (char ch : h.out) {
    if (ch == '\n') continue;
    if (ch == ' ' && !flat.empty() && flat.back() == ' ') continue;
    flat += ch;
  }
  for (const char* k : {"extra-credit", "double-credits", "lose-credits", "wrong-vc", "drop-pause", "dup-phit",
                        "clear-global-done"})
    EXPECT_TRUE(has(flat, k)) << k;
  for (const char* b : {"min_route (", "acor (", "ugal (", "pb (", "table (", "qcn (", "qcn_cp (", "quadrant (",
                        "gal_threshold (", "allocator ("})
    EXPECT_TRUE(has(flat, b)) << b;
  EXPECT_TRUE(has(flat, "ugal (routing ugal-l, ugal-g, par, pb or pb-acor)")) << flat;
}

// scfly plot --recipe throughput --ideal B.json on a database with two traffic patterns (the
// README's example sweep has two) used to crash with a TypeError.
TEST(Hostile, PlotIdealBoundsWithTwoTrafficPatterns) {
  if (std::system("/usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "python3-matplotlib is not installed; .ci/setup-deps installs it";
  const std::string sw = write_file("sweep.yaml", "base: " + tiny_config() +
                                                      "\nset: {warmup_cycles: 200, measure_cycles: 400}\n"
                                                      "axes:\n  traffic: [un, adv+1]\n  load: [0.1, 0.2]\n");
  const std::string db = tmp("db.sqlite"), bounds = tmp("ideal.json"), png = tmp("thru.png");
  ASSERT_EQ(scfly_cmd("sweep " + sw + " --db " + db + " --jobs 2").code, 0);
  ASSERT_EQ(scfly_cmd("ideal " + tiny_config() + " --no-lp --json " + bounds).code, 0);
  for (const char* recipe : {"throughput", "latency"}) {
    const Cmd p = scfly_cmd("plot " + db + " --recipe " + recipe + " --ideal " + bounds + " -o " + png);
    EXPECT_EQ(p.code, 0) << recipe << p.out << p.err;
    EXPECT_FALSE(has(p.err, "TypeError")) << p.err;
    expect_png(png, 1000);
  }
  for (const std::string& f : {sw, db, bounds, png}) std::remove(f.c_str());
}

// ---------------------------------------------------------------- networks too big
// The network measures its first switches and NICs as it builds them and refuses the rest
// (exit 2) when the projection exceeds sim.max_memory (tb/memory.h). A sanitizer's
// allocator does not report its heap to mallinfo2, so nothing is measured there.
#ifndef SCFLY_SANITIZED
TEST(Hostile, NetworkOverMaxMemoryIsRefusedBeforeItIsBuilt) {
  const ScflyRun r = run_scfly(tiny_config(), "sim.max_memory=1 -q", false);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "scfly: error: the network needs an estimated ")) << r.err;
  EXPECT_TRUE(has(r.err, "(36 switches x ")) << r.err;
  EXPECT_TRUE(has(r.err, "72 hosts x ")) << r.err;
  EXPECT_TRUE(has(r.err, "more than sim.max_memory = 1 MiB; give sim.max_memory (MiB) a larger value")) << r.err;
}

// The review's networks that grew to 8 GB and died of bad_alloc: refused by their estimate
// (a limit is given, so the verdict does not depend on this machine's free memory).
TEST(Hostile, HugeNetworksAreRefusedByTheirEstimate) {
  const std::string torus = std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/torus-8x8-1port.yaml";
  const ScflyRun t = run_scfly(torus, "topology.k=1024 topology.n=2 sim.max_memory=8192 -q", false);
  EXPECT_EQ(t.code, 2) << t.err;
  EXPECT_TRUE(has(t.err, "(1048576 switches x ")) << t.err;
  const ScflyRun d = run_scfly(tiny_config(),
                               "topology.p=32 topology.a=64 topology.h=32 topology.g=2049 sim.max_memory=8192 -q", false);
  EXPECT_EQ(d.code, 2) << d.err;
  EXPECT_TRUE(has(d.err, "(131136 switches x ")) << d.err;
}

// The estimate is in the summary and the JSON beside the measured peak, and it is close to
// it: within 25 % for a network large enough to dominate the process (876 switches).
TEST(Hostile, MemoryEstimateIsReportedBesideThePeak) {
  const std::string acor = std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/acor-table3.yaml";
  const ScflyRun r = run_scfly(acor, "warmup_cycles=200 measure_cycles=200");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "  memory            estimated ")) << r.out;
  const auto& m = r.json["run"]["memory"];
  const double est = m["estimate_bytes"].get<double>(), peak = m["peak_rss_bytes"].get<double>();
  EXPECT_GT(m["per_switch_bytes"].get<double>(), 0);
  EXPECT_GT(m["per_host_bytes"].get<double>(), 0);
  EXPECT_GT(est, 0.75 * peak) << est << " vs peak " << peak;
  EXPECT_LT(est, 1.25 * peak) << est << " vs peak " << peak;
}
#endif

// A cycle must last at least 4 ps (SystemC's time resolution is 1 ps): 667 and 1000 GHz
// stopped inside SystemC (E103, exit 1); they are refused naming the key.
TEST(Hostile, ClockFasterThanTheTimeResolutionAllowsExits2) {
  for (const char* g : {"667", "1000", "250.5"}) {
    const ScflyRun r = run_scfly(tiny_config(), std::string("clock_ghz=") + g + " -q", false);
    EXPECT_EQ(r.code, 2) << g << r.err;
    EXPECT_TRUE(has(r.err, "config key 'clock_ghz'")) << r.err;
    EXPECT_TRUE(has(r.err, "(0, 250] GHz")) << r.err;
  }
  const ScflyRun ok = run_scfly(tiny_config(), "clock_ghz=250 warmup_cycles=100 measure_cycles=100 -q", false);
  EXPECT_EQ(ok.code, 0) << ok.err;
}

// A clock so slow that the run's last cycle lies past the longest time a run reaches (2^63
// ps) used to end the run early with exit 0 (9,223 of 20,100 cycles run at 1e-12 GHz); it
// is refused, naming the slowest clock that fits.
TEST(Hostile, ClockTooSlowForTheRunExits2) {
  const ScflyRun r = run_scfly(tiny_config(), "clock_ghz=1e-12 warmup_cycles=100 measure_cycles=20000 -q", false);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "config key 'clock_ghz': value 1e-12 is not allowed with a run of 20102 cycles")) << r.err;
  EXPECT_TRUE(has(r.err, "use clock_ghz >= 2.18e-12 or fewer cycles")) << r.err;
  // 9,100 cycles fit, and run to their end.
  const ScflyRun ok = run_scfly(tiny_config(), "clock_ghz=1e-12 warmup_cycles=100 measure_cycles=9000");
  ASSERT_EQ(ok.code, 0) << ok.err;
  EXPECT_TRUE(has(ok.out, "9100 cycles in")) << ok.out;
}

// ---- Keys of a mechanism not in use (review X13, X14): a warning per key, exit unchanged.

namespace {

// A valid non-default value of every key a configuration may call inert (KeySpec::inert_with),
// each key's prerequisites before it (ugal.vlb_set before ugal.vlb_percent, qcn.sampling
// before qcn.source_processing).
const std::vector<std::pair<std::string, std::string>>& inert_values() {
  static const std::vector<std::pair<std::string, std::string>> v = {
      {"min_cond.trigger", "pause"}, {"qcn.sampling", "input"}, {"qcn.sampling_clock", "time"},
      {"qcn.feedback_comparison", "false"}, {"qcn.source_processing", "true"}, {"qcn.qeq", "0.5"},
      {"qcn.w", "2"}, {"qcn.cpc", "7"}, {"qcn.cnm_percent", "90"}, {"qcn.lf", "1/8"}, {"qcn.pc_limit", "10"},
      {"qcn.pi", "5"}, {"qcn.th1", "3"}, {"qcn.th2", "10"}, {"qcn.p_min", "5"}, {"qcn.cnm_phits", "4"},
      {"qcn.cp_queue", "output"}, {"qcn.local_update_port", "minimal"},
      {"gal.sets", "2"}, {"gal.queue_depth", "16"}, {"gal.adaptive", "false"}, {"gal.t_min", "0"},
      {"gal.t_max", "1"}, {"gal.threshold", "0"}, {"gal.tie", "hold"}, {"gal.n1", "10"}, {"gal.n2", "5"},
      {"chaos.multiqueue", "2"}, {"torus.dateline", "traversal"},
      {"val.policy", "crg-gr"}, {"val.restricted", "true"}, {"val.recompute", "true"},
      {"acor.sequence", "2la"}, {"acor.hi", "50"}, {"acor.it1", "3"}, {"acor.it2", "7"}, {"acor.dt1", "1"},
      {"acor.dt2", "2"},
      {"ugal.threshold", "50"}, {"ugal.occupancy", "credits"}, {"ugal.occupancy_scope", "vc"},
      {"ugal.reevaluate", "blocked"}, {"ugal.intermediate", "other-groups"}, {"ugal.segment_link", "random"},
      {"ugal.multiplier", "one-vs-two"}, {"ugal.vlb_set", "i4"}, {"ugal.vlb_percent", "50"},
      {"ugal.vlb_seed", "7"}, {"tugal.tau_global", "1.5"}, {"tugal.tau_local", "2"}, {"tugal.par_set", "source"},
      {"pb.cg", "50"}, {"pb.tg", "1"}, {"pb.delay", "3"}, {"ugal_g.view", "block"},
  };
  return v;
}

// What a run found, without what depends on the machine or echoes the configuration.
nlohmann::json findings(nlohmann::json j) {
  j.erase("config");
  j.erase("deadlock_check");
  j["run"].erase("sim_wall_s");
  j["run"].erase("router_cycles_per_s");
  j["run"].erase("memory");
  return j;
}

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST(InertKeys, UnusedMechanismKeysWarnAndKeepTheExitCode) {
  const ScflyRun v = run_scfly(tiny_config(), "routing=min val.policy=crg-gr warmup_cycles=200 measure_cycles=400 -q");
  EXPECT_EQ(v.code, 0);
  EXPECT_TRUE(has(v.err, "scfly: warning: config key 'val.policy' has no effect with routing min; it is read by val"))
      << v.err;
  const ScflyRun q = run_scfly(tiny_config(), "routing=min qcn.cpc=50 warmup_cycles=200 measure_cycles=400 -q");
  EXPECT_EQ(q.code, 0);
  EXPECT_TRUE(has(q.err, "config key 'qcn.cpc' has no effect with routing min; it is read by min-cond with "
                         "min_cond.trigger qcn"))
      << q.err;
  // A key the configuration reads, and a default nobody gave, say nothing.
  const ScflyRun u = run_scfly(tiny_config(), "routing=ugal-l val.policy=crg-gr warmup_cycles=200 measure_cycles=400 -q");
  EXPECT_EQ(u.code, 0);
  EXPECT_FALSE(has(u.err, "has no effect")) << u.err;
  // The same from the file, and in check-deadlock and table.
  const std::string f = tiny_with("routing: min\nacor:\n  hi: 20\n");
  EXPECT_TRUE(has(run_scfly(f, "-q").err, "config key 'acor.hi' has no effect with routing min"));
  EXPECT_TRUE(has(scfly_cmd("check-deadlock " + f).err, "config key 'acor.hi' has no effect with routing min"));
  EXPECT_TRUE(has(scfly_cmd("table " + f + " --switch 0").err, "config key 'acor.hi' has no effect with routing min"));
}

TEST(InertKeys, ASweepWarnsOnceAndOnlyOfKeysNoPointReads) {
  const std::string db = tmp("inert.sqlite");
  const std::string sweep =
      write_file("inert-sweep.yaml", "base: " + tiny_config() +
                                         "\nset: {warmup_cycles: 200, measure_cycles: 400, val.policy: crg-gr, "
                                         "qcn.cpc: 50}\n"
                                         "axes:\n  routing: [min, val]\n  load: [0.1, 0.2]\n");
  const Cmd c = scfly_cmd("sweep " + sweep + " --db " + db + " --jobs 2");
  EXPECT_EQ(c.code, 0) << c.err;
  // qcn.cpc: no point reads it (one line for the 4 points); val.policy: routing val does.
  EXPECT_EQ(count_of(c.err, "config key 'qcn.cpc' has no effect"), 1u) << c.err;
  EXPECT_TRUE(has(c.err, "(in every point of the sweep)")) << c.err;
  EXPECT_EQ(count_of(c.err, "'val.policy' has no effect"), 0u) << c.err;
  std::remove(db.c_str());
}

// The mapping's honesty: for every routing of dfly-tiny and a 4x4 torus, every key the
// warning calls inert, set away from its default, leaves the results identical. A key
// wrongly called inert changes them (at load 0.5 every mechanism's choices matter).
TEST(InertKeys, EveryKeyCalledInertLeavesTheResultsUnchanged) {
  using namespace scfly;
  // Every key with a rule has a test value here (tugal.paths: a path file of scfly tvlb,
  // the same rule as tugal.tau_*).
  for (const KeySpec& k : config_keys())
    if (k.inert_with && k.path != "tugal.paths") {
      const auto& v = inert_values();
      EXPECT_TRUE(std::any_of(v.begin(), v.end(), [&](const auto& kv) { return kv.first == k.path; }))
          << "no test value for " << k.path;
    }
  const std::string torus = std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/torus-8x8-1port.yaml";
  struct Net {
    std::string config;
    std::vector<std::string> base;
    bool dragonfly;
  };
  const std::vector<Net> nets = {
      {tiny_config(), {"warmup_cycles=100", "measure_cycles=600", "load=0.5"}, true},
      {torus, {"topology.k=4", "warmup_cycles=100", "measure_cycles=600", "load=0.5"}, false},
  };
  std::vector<std::string> all;
  for (const KeySpec& k : config_keys())
    if (k.inert_with) all.push_back(k.path);
  size_t checked = 0;
  for (const Net& net : nets)
    for (const RoutingMechanism* m : routing_mechanisms()) {
      if (m->plugin() || !m->routes_on(net.dragonfly, false)) continue;
      std::vector<std::string> base = net.base;
      base.push_back("routing=" + m->name);
      const SimConfig c0 = load_config(net.config, base);
      const std::vector<std::string> inert = inert_keys(c0, all);
      // Rounds: each adds every inert key it can (in table order) that keeps the config valid
      // and every added key inert; a key refused with those of its round waits for the next.
      std::vector<std::pair<std::string, std::string>> left;
      for (const auto& kv : inert_values())
        if (std::find(inert.begin(), inert.end(), kv.first) != inert.end()) left.push_back(kv);
      std::string args0;
      for (const std::string& b : base) args0 += " " + b;
      const ScflyRun r0 = run_scfly(net.config, args0 + " -q");
      ASSERT_EQ(r0.code, 0) << m->name << ": " << r0.err;
      while (!left.empty()) {
        std::vector<std::string> ov = base, keys;
        std::vector<std::pair<std::string, std::string>> later;
        for (const auto& kv : left) {
          std::vector<std::string> trial = ov;
          trial.push_back(kv.first + "=" + kv.second);
          std::vector<std::string> given;
          bool ok = true;
          try {
            const SimConfig c = load_config(net.config, trial, &given);
            std::vector<std::string> want = keys;
            want.push_back(kv.first);
            ok = inert_keys(c, given).size() == want.size();
          } catch (const ConfigError&) {
            ok = false;
          }
          if (ok) {
            ov.push_back(kv.first + "=" + kv.second);
            keys.push_back(kv.first);
          } else {
            later.push_back(kv);
          }
        }
        if (keys.empty()) break;  // the rest are refused for this routing (an error, not silence)
        left = later;
        std::string args;
        for (const std::string& o : ov) args += " " + o;
        const ScflyRun r = run_scfly(net.config, args + " -q");
        ASSERT_EQ(r.code, 0) << m->name << args << ": " << r.err;
        EXPECT_EQ(count_of(r.err, "has no effect"), keys.size()) << m->name << args << ": " << r.err;
        EXPECT_EQ(findings(r.json), findings(r0.json)) << "routing " << m->name << " on " << net.config
                                                       << ": a key called inert changed the results:" << args;
        checked += keys.size();
      }
    }
  EXPECT_GT(checked, 500u);  // ~20 routings x the keys each leaves unread
}

// Slurm options go into a job script: each is checked (exit 2 naming option, value, allowed).
TEST(Hostile, SlurmOptionsAreCheckedBeforeTheJobScript) {
  const std::string sw = write_file("slurm-sw.yaml", "base: " + tiny_config() +
                                                         "\nset: {warmup_cycles: 200, measure_cycles: 400}\n"
                                                         "axes:\n  routing: [min, val]\n  load: [0.1, 0.2]\n");
  const std::string db = tmp("slurm.sqlite");
  const std::string head = "sweep " + sw + " --db " + db + " --slurm --dry-run ";
  for (const auto& [opt, what] : std::vector<std::pair<std::string, std::string>>{
           {"--max-parallel 0", "--max-parallel: value '0' is not allowed"},
           {"--max-parallel -2", "--max-parallel: value '-2' is not allowed"},
           {"--time 2h", "--time: value '2h' is not allowed; expected a Slurm time limit"},
           {"--time 1:2:3:4", "--time: value '1:2:3:4' is not allowed"},
           {"--mem 4GB", "--mem: value '4GB' is not allowed"},
           {"--partition 'a;rm -rf x'", "--partition: value 'a;rm -rf x' is not allowed"},
           {"--sbatch-arg='--comment=$(id)'", "--sbatch-arg: value '--comment=$(id)' is not allowed"},
           {"--sbatch-arg='--a=b c'", "--sbatch-arg: value '--a=b c' is not allowed"}}) {
    const Cmd c = scfly_cmd(head + opt);
    EXPECT_EQ(c.code, 2) << opt << ": " << c.err;
    EXPECT_TRUE(has(c.err, what)) << opt << ": " << c.err;
  }
  for (const std::string ok : {"--time 90", "--time 1-12", "--time 2:00:00", "--time 1-0:30:00", "--mem 4G",
                               "--mem 2048", "--partition gpu,cpu", "--max-parallel 5", "--sbatch-arg=--account=arch"}) {
    const Cmd c = scfly_cmd(head + ok);
    EXPECT_EQ(c.code, 0) << ok << ": " << c.err;
  }
  std::system(("rm -rf " + db + "*").c_str());
}

// report-card --dry-run checks its outputs as the real run would.
TEST(Hostile, ReportCardDryRunChecksItsOutputs) {
  const std::string card = std::string(SCFLY_SOURCE_DIR) + "/sc_main/experiments/gal-report-card.yaml";
  const std::string db = tmp("card.sqlite");
  for (const std::string opt : {"--md /nonexistent-dir/x.md", "--json /nonexistent-dir/x.json", "--json /tmp"}) {
    const Cmd c = scfly_cmd("report-card " + card + " --db " + db + " --rows avg --dry-run " + opt);
    EXPECT_EQ(c.code, 2) << opt << ": " << c.err;
    EXPECT_TRUE(has(c.err, "scfly: error: " + opt.substr(0, opt.find(' ')) + ": ")) << c.err;
  }
  struct stat st;
  EXPECT_NE(::stat(db.c_str(), &st), 0);  // refused before any sweep
}
