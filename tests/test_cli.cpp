// The command line: bad configurations exit 2 with a message naming the key, the value and
// what is allowed; good ones print a readable summary.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "scfly_run.h"

namespace {
void expect_config_error(const std::string& args, const std::string& must_mention) {
  const ScflyRun r = run_scfly(tiny_config(), args, false);
  EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
  EXPECT_NE(r.err.find(must_mention), std::string::npos) << args << "\n" << r.err;
  EXPECT_EQ(r.err.find("Segmentation"), std::string::npos);
}
}  // namespace

TEST(Cli, UnknownKeyExits2) { expect_config_error("topology.q=3", "topology.q"); }
TEST(Cli, NegativeLoadExits2) { expect_config_error("load=-0.2", "'load'"); }
TEST(Cli, TooManyGroupsExits2) { expect_config_error("topology.g=10", "topology.g"); }
TEST(Cli, TooFewVcsExits2) { expect_config_error("routing=val switch.vcs.local=2", "switch.vcs.local"); }
TEST(Cli, UnknownRoutingExits2) { expect_config_error("routing=zigzag", "min, val"); }
TEST(Cli, BadTrafficExits2) { expect_config_error("traffic=adv+18", "traffic"); }
TEST(Cli, MalformedOverrideExits2) { expect_config_error("load", "key=value"); }
TEST(Cli, MissingConfigFileExits2) {
  const ScflyRun r = run_scfly("/nonexistent.yaml", "", false);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("/nonexistent.yaml"), std::string::npos);
}
TEST(Cli, BadTraceSwitchExits2) {
  expect_config_error("--vcd /tmp/x.vcd --trace-switches 0,99", "--trace-switches");
}

TEST(Cli, UnwritableVcdExits2) {
  expect_config_error("--vcd /nonexistent-dir/x.vcd", "--vcd");
}

// Found before the run (which may take hours), not after it.
TEST(Cli, UnwritableJsonExits2BeforeRunning) {
  const ScflyRun r = run_scfly(tiny_config(), "--json /nonexistent-dir/x.json", false);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("--json: cannot write '/nonexistent-dir/x.json'"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("accepted load"), std::string::npos) << "the run happened first";
}

TEST(Cli, EmptyOverrideValueExits2) { expect_config_error("routing=", "empty value for key 'routing'"); }

TEST(Cli, DirectoryAsConfigExits2) {
  const ScflyRun r = run_scfly("/tmp", "", false);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("'/tmp' is not a regular file"), std::string::npos) << r.err;
}

// yaml-cpp would answer with the first of two equal keys; scfly names the duplicate and its
// line, at any depth, in configs, sweep files and report cards.
TEST(Cli, DuplicateYamlKeyExits2) {
  const std::string cfg = tmp("dup.yaml"), sweep = tmp("dup-sweep.yaml");
  std::ofstream(cfg) << "routing: min\nswitch:\n  speedup: 2\n  pipeline_cycles: 3\n  speedup: 1\n";
  const ScflyRun r = run_scfly(cfg, "", false);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("key 'switch.speedup' is given twice (line 5)"), std::string::npos) << r.err;
  std::ofstream(sweep) << "base: " << tiny_config() << "\naxes: {load: [0.1]}\naxes: {load: [0.2]}\n";
  const Cmd s = scfly_cmd("sweep " + sweep + " --dry-run");
  EXPECT_EQ(s.code, 2);
  EXPECT_NE(s.err.find("key 'axes' is given twice"), std::string::npos) << s.err;
  std::remove(cfg.c_str());
  std::remove(sweep.c_str());
}

// Every experiment file shipped in sc_main/experiments (the docs cite their results) still
// loads, and every point it would run is a valid configuration: a renamed key or a tightened
// range elsewhere must not leave a shipped file that fails only when someone runs it. Run from
// the source tree, as the files' own command lines say (some bases are relative to it).
TEST(Cli, EveryShippedExperimentFileIsValid) {
  namespace fs = std::filesystem;
  const std::string src = SCFLY_SOURCE_DIR, err = tmp("err");
  int files = 0;
  for (const auto& e : fs::directory_iterator(fs::path(src) / "sc_main" / "experiments")) {
    if (e.path().extension() != ".yaml") continue;
    ++files;
    const bool card = slurp(e.path().string()).find("\ncolumns:") != std::string::npos;
    // A card's permutation rows are capped: 1,000 seeds differ only in the seed.
    const std::string cmd = "cd '" + src + "' && " + SCFLY_BIN + (card ? " report-card '" : " sweep '") +
                            e.path().string() + (card ? "' --permutations 2" : "'") + " --dry-run >/dev/null 2>" + err;
    const int st = std::system(cmd.c_str());
    EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << e.path() << "\n" << slurp(err);
  }
  std::remove(err.c_str());
  EXPECT_GE(files, 30);  // the directory was found and read
}

TEST(Cli, SummaryNamesTheNetworkAndTheMetrics) {
  const ScflyRun r = run_scfly(tiny_config(), "warmup_cycles=100 measure_cycles=1000");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("dfly(2,4,2,9) palmtree"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("accepted load"), std::string::npos);
  EXPECT_NE(r.out.find("latency (total)"), std::string::npos);
  EXPECT_EQ(r.out.find("Copyright"), std::string::npos) << "SystemC banner leaks into the summary";
  for (const char* k : {"offered_load", "accepted_load", "latency_avg", "latency_p99", "hops_avg",
                        "nonminimal_fraction", "jain_fairness"})
    EXPECT_TRUE(r.json["metrics"].contains(k)) << k;
  EXPECT_EQ(r.json["config"]["topology"]["p"], 2);
}

// scfly check-deadlock: exit 0 and "deadlock-free" at the configured VCs, exit 4 and the
// cycle with a VC too few, exit 2 naming the problem for a bad --vcs, JSON on request.
TEST(Cli, CheckDeadlockExitCodesAndCycle) {
  const std::string json = tmp("dl.json");
  const Cmd ok = scfly_cmd("check-deadlock " + tiny_config() + " routing=val --json " + json + " --min-vcs");
  ASSERT_EQ(ok.code, 0) << ok.out << ok.err;
  EXPECT_NE(ok.out.find("deadlock-free: the channel dependency graph is acyclic"), std::string::npos) << ok.out;
  EXPECT_NE(ok.out.find("local 4 global 2"), std::string::npos) << ok.out;
  std::ifstream in(json);
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j.at("verdict"), "acyclic");
  EXPECT_EQ(j.at("min_vcs").at("local"), 4);
  EXPECT_EQ(j.at("max_hops"), 6);
  std::remove(json.c_str());

  const Cmd bad = scfly_cmd("check-deadlock " + tiny_config() + " routing=val --vcs local=3");
  EXPECT_EQ(bad.code, 4) << bad.out << bad.err;
  EXPECT_NE(bad.out.find("local: VC 3 folded onto VC 2"), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("DEADLOCK POSSIBLE"), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("=>"), std::string::npos) << bad.out;

  const Cmd err = scfly_cmd("check-deadlock " + tiny_config() + " --vcs link=3");
  EXPECT_EQ(err.code, 2);
  EXPECT_NE(err.err.find("--vcs 'link=3'"), std::string::npos) << err.err;
  EXPECT_NE(err.err.find("local, global"), std::string::npos) << err.err;
  const Cmd torus = scfly_cmd("check-deadlock " + std::string(SCFLY_SOURCE_DIR) +
                              "/sc_main/configs/torus-ring-8.yaml routing=min-ad");
  EXPECT_EQ(torus.code, 0) << torus.out << torus.err;
  EXPECT_NE(torus.out.find("Duato"), std::string::npos) << torus.out;
}

// scfly tvlb (T-VLB Step 1, sc_main/tvlb_model.h): a quick run writes every point with its
// per-pattern values and names the best; one link per group pair skips the LP (T-VLB = all,
// paper sec. 4.2); a torus, a bad point and an unwritable -o are exit 2 naming the problem.
TEST(Cli, TvlbStepOne) {
  const std::string json = tmp("tvlb.json");
  const Cmd ok = scfly_cmd("tvlb " + tiny_config() + " topology.g=5 topology.arrangement=absolute --quick --point min "
                           "--point '<=4' --point all -j 2 -o " + json);
  ASSERT_EQ(ok.code, 0) << ok.out << ok.err;
  EXPECT_NE(ok.out.find("dfly(2,4,2,5)"), std::string::npos) << ok.out;
  EXPECT_NE(ok.out.find("best (Table 1 points): all"), std::string::npos) << ok.out;
  std::ifstream in(json);
  const nlohmann::json j = nlohmann::json::parse(in);
  std::remove(json.c_str());
  ASSERT_EQ(j.at("points").size(), 3u);
  EXPECT_EQ(j["points"][0]["name"], "min");
  EXPECT_NEAR(j["points"][0]["mean"].get<double>(), 0.25, 1e-7);  // k / (a p)
  EXPECT_NEAR(j["points"][2]["mean"].get<double>(), 0.625, 1e-7);  // (1 + k / (a p)) / 2
  EXPECT_EQ(j["points"][1]["x"].size(), j["patterns"].size());
  EXPECT_EQ(j["patterns"].size(), 3u * 2u + 3u);  // DG in {1, 2, 4}, DS in {0, 2}, 3 permutations

  const Cmd k1 = scfly_cmd("tvlb " + tiny_config() + " topology.arrangement=absolute");
  EXPECT_EQ(k1.code, 0) << k1.err;
  EXPECT_NE(k1.out.find("T-VLB = all VLB paths"), std::string::npos) << k1.out;

  const Cmd torus = scfly_cmd("tvlb " + std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/torus-ring-8.yaml");
  EXPECT_EQ(torus.code, 2);
  EXPECT_NE(torus.err.find("topology.kind"), std::string::npos) << torus.err;
  const Cmd bad = scfly_cmd("tvlb " + tiny_config() + " --point '<=7'");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("'<=7' is not a T-VLB point"), std::string::npos) << bad.err;
  const Cmd out = scfly_cmd("tvlb " + tiny_config() + " -o /nonexistent/dir/t.json");
  EXPECT_EQ(out.code, 2);
  EXPECT_NE(out.err.find("/nonexistent/dir/t.json"), std::string::npos) << out.err;
}

// Step 2 as a sweep: scfly tvlb --step2 writes the candidates (the vicinity, i5src, i5dst and
// both after the load-balance removals) x
// group permutations as saturation searches, scfly sweep runs them, scfly tvlb --select
// ranks the candidates by their mean saturation load and names the best per routing.
TEST(Cli, TvlbStepTwoSweepAndSelection) {
  const std::string sw = tmp("step2.yaml"), db = tmp("step2.sqlite"), json = tmp("sel.json");
  const std::string shape = " topology.g=5 topology.arrangement=absolute warmup_cycles=300 measure_cycles=600";
  const Cmd gen = scfly_cmd("tvlb " + tiny_config() + shape + " --quick --point '<=4' --point all --step2 " + sw +
                            " --patterns 2 --resolution 0.1 --routing ugal-l,par");
  ASSERT_EQ(gen.code, 0) << gen.err << gen.out;
  EXPECT_NE(gen.out.find("6 candidates x 2 patterns x 2 routing(s)"), std::string::npos) << gen.out;
  const std::string text = slurp(sw);
  for (const char* c : {"i6: {ugal: {vlb_set: i6}}", "i4: {ugal: {vlb_set: i4}}", "i5src:", "i5dst:", "gp2: {seed: 2}",
                        "i5src-bal: {ugal: {vlb_set: i5src}, tugal: {tau_global: 1.25, tau_local: 2}}",
                        "traffic: group-perm", "max_latency: 500"})
    EXPECT_NE(text.find(c), std::string::npos) << c << "\n" << text;
  const Cmd run = scfly_cmd("sweep " + sw + " --db " + db + " --jobs 2");
  ASSERT_EQ(run.code, 0) << run.err << run.out;
  const Cmd sel = scfly_cmd("tvlb --select " + sw + " --db " + db + " -o " + json);
  ASSERT_EQ(sel.code, 0) << sel.err << sel.out;
  std::ifstream in(json);
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j.at("missing"), 0);
  ASSERT_EQ(j.at("rows").size(), 12u);  // 2 routings x 6 candidates
  ASSERT_EQ(j.at("best").size(), 2u);
  for (const auto& best : j["best"]) {
    EXPECT_EQ(best["patterns"], 2);
    for (const auto& row : j["rows"])
      if (row["routing"] == best["routing"]) {
        EXPECT_LE(row["mean"].get<double>(), best["mean"].get<double>());
      }
    EXPECT_GT(best["mean"].get<double>(), 0.3);  // all of them sustain group permutations far above that
  }
  EXPECT_NE(sel.out.find("best for par: "), std::string::npos) << sel.out;

  const Cmd notstep2 = scfly_cmd("tvlb --select " + std::string(SCFLY_SOURCE_DIR) +
                                 "/sc_main/experiments/tugal-baseline-g9.yaml --db " + db);
  EXPECT_EQ(notstep2.code, 2);
  EXPECT_NE(notstep2.err.find("is not a T-VLB Step 2 sweep"), std::string::npos) << notstep2.err;
  const Cmd nodb = scfly_cmd("tvlb --select " + sw + " --db /nonexistent.sqlite");
  EXPECT_EQ(nodb.code, 2);
  EXPECT_NE(nodb.err.find("does not exist"), std::string::npos) << nodb.err;
  const Cmd traffic = scfly_cmd("tvlb " + tiny_config() + " traffic=un --quick --point all --step2 " + sw);
  EXPECT_EQ(traffic.code, 2);
  EXPECT_NE(traffic.err.find("'traffic=un' would be replaced"), std::string::npos) << traffic.err;
  const Cmd routing = scfly_cmd("tvlb " + tiny_config() + " --quick --point all --step2 " + sw + " --routing val");
  EXPECT_EQ(routing.code, 2);
  EXPECT_NE(routing.err.find("--routing: 'val'"), std::string::npos) << routing.err;
  for (const auto& x : {sw, db, json}) std::remove(x.c_str());
}

// scfly plot --recipe tvlb draws Step 1's curve (the T-UGAL paper's Fig. 4) from tvlb -o;
// a file that is not one is exit 2 naming it.
TEST(Cli, TvlbPlot) {
  if (std::system("/usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "python3-matplotlib is not installed; .ci/setup-deps installs it";
  const std::string json = tmp("tvlb.json"), png = tmp("tvlb.png");
  ASSERT_EQ(scfly_cmd("tvlb " + tiny_config() + " topology.g=5 topology.arrangement=absolute --quick --step 50 -o " +
                      json).code, 0);
  const Cmd p = scfly_cmd("plot " + json + " --recipe tvlb -o " + png);
  ASSERT_EQ(p.code, 0) << p.err << p.out;
  expect_png(png, 2000);
  const Cmd bad = scfly_cmd("plot " + tiny_config() + " --recipe tvlb -o " + png);
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("not the JSON of scfly tvlb -o"), std::string::npos) << bad.err;
  for (const auto& x : {json, png}) std::remove(x.c_str());
}

// Every run is validated for deadlock freedom by the checker (sc_main/deadlock_validation.h):
// the summary and the JSON say so, and the second run of the same shape reads the cache.
TEST(Cli, RunsCarryTheDeadlockCheckersVerdict) {
  const std::string cache = tmp("dl_cache");
  ::setenv("SCFLY_CACHE_DIR", cache.c_str(), 1);
  const ScflyRun a = run_scfly(tiny_config(), "routing=val measure_cycles=500 warmup_cycles=100");
  const ScflyRun b = run_scfly(tiny_config(), "routing=val measure_cycles=500 warmup_cycles=100 load=0.2");
  ::unsetenv("SCFLY_CACHE_DIR");
  std::system(("rm -rf " + cache).c_str());
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_NE(a.out.find("deadlock freedom: checked, the channel dependency graph is acyclic"), std::string::npos) << a.out;
  EXPECT_EQ(a.json["deadlock_check"]["verdict"], "acyclic");
  EXPECT_EQ(a.json["deadlock_check"]["cached"], false);
  EXPECT_EQ(b.json["deadlock_check"]["cached"], true);
  EXPECT_EQ(b.json["deadlock_check"]["states"], a.json["deadlock_check"]["states"]);
}
