// Hostile and careless input (issue 50, docs/reliability.md): each case gets the exit code
// of sc_main/exit_codes.h and a message naming the file or option, the value and what is
// allowed; nothing crashes, hangs, wraps, silently defaults or reports a failed write as
// success.
#include <gtest/gtest.h>

#include <fstream>

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
