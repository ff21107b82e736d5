// Sweeps, transients and plots end to end, on dfly(2,4,2) with short windows: a sweep
// records one row per point and resumes after being killed; saturation detection finds
// MIN's ADV+1 bound; a two-phase run shows the change in its time series; a failing point
// is recorded and the sweep goes on; the plot command writes a picture.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>

#include "sc_main/results_db.h"
#include "scfly_run.h"

namespace {


std::string write_sweep(const std::string& body) {
  const std::string p = tmp("sweep.yaml");
  std::ofstream(p) << "base: " << tiny_config() << "\n" << body;
  return p;
}

// The first data row of a database's saturation table, as CSV fields: sweep, series,
// points, seeds, zero_load_latency, saturation_throughput, saturation_load,
// latency_knee_load, latency_factor.
std::vector<std::string> saturation_row(const std::string& db, std::string& text);

int64_t rows(const std::string& db, const std::string& table = "points") {
  scfly::ResultsDb d(db);
  return d.count(table);
}

std::vector<std::string> saturation_row(const std::string& db, std::string& text) {
  const std::string csv = tmp("sat.csv");
  EXPECT_EQ(scfly_cmd("export " + db + " --table saturation -o " + csv).code, 0);
  text = slurp(csv);
  std::remove(csv.c_str());
  std::vector<std::string> f;
  std::stringstream ss(text.substr(text.find('\n') + 1));
  for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
  return f;
}

// A sweep of `body` into a fresh database, and its saturation row (fields as above).
struct SatRun {
  std::string sw, db, text;
  Cmd c;
  std::vector<std::string> f;
};
SatRun sweep_saturation(const std::string& body) {
  SatRun r;
  r.sw = write_sweep(body);
  r.db = tmp("db.sqlite");
  r.c = scfly_cmd("sweep " + r.sw + " --db " + r.db + " --jobs 2");
  if (r.c.code == 0) r.f = saturation_row(r.db, r.text);
  return r;
}

const char* kSixPoints =
    "set: {warmup_cycles: 1000, measure_cycles: 3000}\n"
    "axes:\n  routing: [min, val]\n  load: [0.1, 0.2, 0.3]\n";

}  // namespace

TEST(Sweep, SixPointsSixRowsAndARerunAddsNone) {
  const std::string sw = write_sweep(kSixPoints), db = tmp("db.sqlite");
  const Cmd a = scfly_cmd("sweep " + sw + " --db " + db + " --jobs 2");
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_EQ(rows(db), 6);
  EXPECT_NE(a.out.find("saturation"), std::string::npos) << a.out;
  const Cmd b = scfly_cmd("sweep " + sw + " --db " + db + " --jobs 2");
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(rows(db), 6);
  EXPECT_NE(b.err.find("6 already in"), std::string::npos) << b.err;
  EXPECT_NE(b.err.find("0 run"), std::string::npos) << b.err;
  // Every point recorded its configuration, metrics and revision, and MIN accepts the
  // offered load below saturation.
  const std::string csv = tmp("points.csv");
  ASSERT_EQ(scfly_cmd("export " + db + " -o " + csv).code, 0);
  const std::string text = slurp(csv);
  for (const char* col : {"routing", "load", "topology_p", "accepted_load", "latency_avg", "git_rev",
                          "wall_s", "status"})
    EXPECT_NE(text.find(col), std::string::npos) << col;
  std::remove(csv.c_str());
  std::remove(db.c_str());
  std::remove(sw.c_str());
}

TEST(Sweep, KilledSweepResumesWithoutLosingPoints) {
  // The sweep is SIGKILLed from outside once its database holds 2 rows, with the other job's
  // point still running (each point takes about a second; the database is polled every 5 ms,
  // so the kill lands after the 2nd or, rarely, the 3rd row, never after the last).
  const std::string sw = write_sweep(
      "set: {warmup_cycles: 1000, measure_cycles: 40000}\n"
      "axes:\n  routing: [min, val]\n  load: [0.1, 0.2, 0.3]\n");
  const std::string db = tmp("db.sqlite");
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const std::string null = "/dev/null";
    freopen(null.c_str(), "w", stderr);
    freopen(null.c_str(), "w", stdout);
    setenv("TMPDIR", scfly_test::tmp_dir().c_str(), 1);  // its temporary directory goes with ours
    execl(SCFLY_BIN, SCFLY_BIN, "sweep", sw.c_str(), "--db", db.c_str(), "--jobs", "2",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  pid_t done = 0;
  while ((done = waitpid(pid, &status, WNOHANG)) == 0 && rows_now(db) < 2) usleep(5000);
  ASSERT_EQ(done, 0) << "the sweep ended before it was killed, status " << status;
  kill(pid, SIGKILL);
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "status " << status;
  const int64_t before = rows(db);
  ASSERT_GE(before, 2);
  ASSERT_LT(before, 6);
  std::set<std::string> kept;
  {
    scfly::ResultsDb d(db);
    kept = d.hashes(true);
  }
  const Cmd c = scfly_cmd("sweep " + sw + " --db " + db + " --jobs 2");
  ASSERT_EQ(c.code, 0) << c.err;
  EXPECT_EQ(rows(db), 6);
  EXPECT_NE(c.err.find(std::to_string(before) + " already in"), std::string::npos) << c.err;
  scfly::ResultsDb d(db);
  const auto all = d.hashes(true);
  for (const auto& h : kept) EXPECT_TRUE(all.count(h)) << h;
  std::remove(db.c_str());
  std::remove(sw.c_str());
}

// MIN under ADV+1: a*p = 8 nodes share one global link, 1/(a*p) = 0.125.
TEST(Sweep, SaturationOfMinUnderAdvPlus1IsOneOverAP) {
  const SatRun r = sweep_saturation(
      "set: {warmup_cycles: 2000, measure_cycles: 6000, traffic: adv+1, routing: min}\n"
      "axes:\n  load: \"0.05:0.5:0.05\"\n"
      "stop_after_saturation: true\nsaturation: {latency_factor: 3, extra_points: 2}\n");
  const std::string &sw = r.sw, &db = r.db, &text = r.text;
  const Cmd& c = r.c;
  const std::vector<std::string>& f = r.f;
  ASSERT_EQ(c.code, 0) << c.err;
  ASSERT_GE(f.size(), 8u) << text;
  const double thr = std::stod(f[5]), knee = std::stod(f[7]);
  EXPECT_NEAR(thr, 0.125, 0.0125) << text;
  EXPECT_GT(knee, 0.1) << text;   // latency stays low while the offered load fits
  EXPECT_LE(knee, 0.2) << text;   // and explodes once it does not
  // Early stop: the loads well past the knee were not run.
  EXPECT_LT(rows(db), 10);
  EXPECT_NE(c.err.find("skipped past saturation"), std::string::npos);
  std::remove(db.c_str());
  std::remove(sw.c_str());
}

// stop_after_saturation: a series' summary counts its loads up to the cut (the knee plus
// extra_points) whatever else the database holds, so it does not depend on which loads past
// the knee a run had already started when the knee became known (two jobs finish in either
// order). The same sweep over a database holding every load, and over an empty one, gives
// the same row.
TEST(Sweep, EarlyStopSummaryCountsTheLoadsUpToTheCutOnly) {
  const std::string grid =
      "name: cut\nset: {warmup_cycles: 500, measure_cycles: 1500, traffic: adv+1, routing: min}\n"
      "axes:\n  load: \"0.05:0.5:0.05\"\n";
  const std::string early = grid + "stop_after_saturation: true\nsaturation: {latency_factor: 3, extra_points: 1}\n";
  const std::string db = tmp("cut.sqlite");
  ASSERT_EQ(scfly_cmd("sweep " + write_sweep(grid) + " --db " + db + " --jobs 2").code, 0);
  ASSERT_EQ(rows(db), 10);
  std::string all_text;
  const std::vector<std::string> all = saturation_row(db, all_text);
  ASSERT_GE(all.size(), 8u) << all_text;
  EXPECT_EQ(all[2], "10") << all_text;
  const Cmd over_all = scfly_cmd("sweep " + write_sweep(early) + " --db " + db + " --jobs 2");
  ASSERT_EQ(over_all.code, 0) << over_all.err;
  EXPECT_NE(over_all.err.find("0 run (0 failed)"), std::string::npos) << over_all.err;
  std::string text;
  const std::vector<std::string> f = saturation_row(db, text);
  ASSERT_GE(f.size(), 8u) << text;
  const double knee = std::stod(f[7]);
  EXPECT_EQ(f[7], all[7]) << text;  // the knee is the same
  // Loads 0.05 .. the knee, and one more.
  EXPECT_EQ(std::stoi(f[2]), static_cast<int>(std::lround(knee / 0.05)) + 1) << text;
  EXPECT_LT(std::stoi(f[2]), 10) << text;
  const std::string db2 = tmp("cut2.sqlite");
  const Cmd fresh = scfly_cmd("sweep " + write_sweep(early) + " --db " + db2 + " --jobs 2");
  ASSERT_EQ(fresh.code, 0) << fresh.err;
  std::string text2;
  EXPECT_EQ(saturation_row(db2, text2), f) << text << "\n" << text2;
}

// Saturation search by bisection: MIN under ADV+1 on dfly(2,4,2) is bounded by 1/(a p) =
// 0.125; the search brackets it to one grid step, runs log2((high - low) / resolution) + 2
// loads, and a rerun replays the same decisions from the database without running any.
// max_latency (the T-UGAL paper's criterion: last load with mean latency under 500 cycles)
// is an absolute bound: under 1 cycle nothing is sustained, so the search stops at `low`.
TEST(Sweep, SaturationSearchMaxLatencyIsAnAbsoluteBound) {
  const SatRun r = sweep_saturation(
      "set: {warmup_cycles: 500, measure_cycles: 1500}\naxes:\n  routing: [min]\n"
      "saturation_search: {low: 0.05, high: 0.5, resolution: 0.05, max_latency: 1}\n");
  ASSERT_EQ(r.c.code, 0) << r.c.err;
  EXPECT_EQ(rows(r.db), 1) << r.c.out;  // `low` alone
  EXPECT_NE(r.c.out.find("below 1 cycles"), std::string::npos) << r.c.out;
  EXPECT_NE(r.c.out.find("< 0.05"), std::string::npos) << r.c.out;
  const Cmd bad = scfly_cmd("sweep " + write_sweep("axes: {routing: [min]}\nsaturation_search: {low: 0.1, high: 0.5, "
                                                   "resolution: 0.05, max_latency: -3}\n") +
                            " --db " + tmp("db4.sqlite"));
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("saturation_search.max_latency"), std::string::npos) << bad.err;
}

TEST(Sweep, SaturationSearchBracketsTheBoundAndResumes) {
  const SatRun r = sweep_saturation(
      "set: {warmup_cycles: 2000, measure_cycles: 6000, traffic: adv+1}\n"
      "axes:\n  routing: [min]\n  seed: [1, 2]\n"
      "saturation_search: {low: 0.02, high: 0.5, resolution: 0.01}\n"
      "saturation: {latency_factor: 1000, accept_ratio: 0.97}\n");
  const std::string &sw = r.sw, &db = r.db, &text = r.text;
  const Cmd& c = r.c;
  const std::vector<std::string>& f = r.f;
  ASSERT_EQ(c.code, 0) << c.err;
  ASSERT_GE(f.size(), 8u) << text;
  const double sat = std::stod(f[6]), bad = std::stod(f[7]);
  EXPECT_NEAR(bad - sat, 0.01, 1e-9) << text;  // bracketed to one step
  EXPECT_LE(sat, 0.125 + 1e-9) << text;        // never above the bound
  EXPECT_GE(sat, 0.10) << text;                // and close below it
  EXPECT_EQ(f[3], "2") << text;                // both seeds in every decision
  const int64_t n = rows(db);
  EXPECT_EQ(n % 2, 0);
  EXPECT_LE(n, 2 * 8);  // low, high and at most 6 bisection steps (0.48 / 2^6 < 0.01)
  const Cmd again = scfly_cmd("sweep " + sw + " --db " + db + " --jobs 2");
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(rows(db), n);
  EXPECT_NE(again.err.find("0 run (0 failed)"), std::string::npos) << again.err;
  EXPECT_EQ(again.out, c.out);
  // A load axis and the search do not mix.
  const Cmd bad_axis = scfly_cmd("sweep " + write_sweep("axes: {load: [0.1]}\nsaturation_search: {}\n") + " --db " +
                                 tmp("db2.sqlite"));
  EXPECT_EQ(bad_axis.code, 2);
  EXPECT_NE(bad_axis.err.find("axes.load"), std::string::npos) << bad_axis.err;
  const Cmd bad_range = scfly_cmd("sweep " + write_sweep("axes: {routing: [min]}\nsaturation_search: {low: 0.5, high: 0.2}\n") +
                                  " --db " + tmp("db3.sqlite"));
  EXPECT_EQ(bad_range.code, 2);
  EXPECT_NE(bad_range.err.find("saturation_search"), std::string::npos) << bad_range.err;
  std::remove(db.c_str());
  std::remove(sw.c_str());
}

TEST(Sweep, AFailingPointIsRecordedAndTheSweepGoesOn) {
  // drain with a 1-cycle timeout cannot deliver everything: exit 3 for every point.
  const std::string sw = write_sweep(
      "set: {warmup_cycles: 500, measure_cycles: 1000}\n"
      "axes:\n  drain: [false, true]\n  drain_timeout_cycles: [1]\n");
  const std::string db = tmp("db.sqlite");
  const Cmd c = scfly_cmd("sweep " + sw + " --db " + db + " --jobs 2");
  EXPECT_EQ(c.code, 3) << c.err;
  EXPECT_EQ(rows(db), 2);
  const std::string csv = tmp("p.csv");
  ASSERT_EQ(scfly_cmd("export " + db + " -o " + csv).code, 0);
  const std::string text = slurp(csv);
  EXPECT_NE(text.find("drain incomplete"), std::string::npos) << text;
  EXPECT_NE(text.find(",ok,"), std::string::npos);
  EXPECT_NE(text.find(",error,"), std::string::npos);
  // A re-run leaves recorded failures alone unless asked to retry them.
  EXPECT_NE(scfly_cmd("sweep " + sw + " --db " + db).err.find("2 already in"), std::string::npos);
  EXPECT_NE(scfly_cmd("sweep " + sw + " --db " + db + " --retry-failed").err.find("1 already in"),
            std::string::npos);
  std::remove(csv.c_str());
  std::remove(db.c_str());
  std::remove(sw.c_str());
}

TEST(Sweep, BadSweepOrDatabaseExits2) {
  const std::string sw = write_sweep("axes: {load: [0.1, 7]}\n");
  const Cmd c = scfly_cmd("sweep " + sw + " --db " + tmp("db.sqlite"));
  EXPECT_EQ(c.code, 2);
  EXPECT_NE(c.err.find("load=7"), std::string::npos) << c.err;
  const Cmd d = scfly_cmd("sweep " + write_sweep(kSixPoints) + " --db /nonexistent-dir/x.sqlite");
  EXPECT_EQ(d.code, 2);
  EXPECT_NE(d.err.find("/nonexistent-dir/x.sqlite"), std::string::npos) << d.err;
  EXPECT_EQ(scfly_cmd("sweep /nonexistent.yaml").code, 2);
  EXPECT_EQ(scfly_cmd("export /nonexistent.sqlite -o /tmp/x.csv").code, 2);
}

// UN at 0.1 then at 0.4 from cycle 6000 (MIN, far below saturation): the accepted load per
// 1000-cycle bin moves from 0.1 to 0.4 within two bins of the change, and the generated
// load changes exactly at the boundary.
TEST(Transient, PhaseChangeShowsInTheTimeSeries) {
  const ScflyRun r = run_scfly(
      tiny_config(),
      "'phases=[{start: 0, traffic: un, load: 0.1}, {start: 6000, traffic: un, load: 0.4}]' "
      "timeseries.bin_cycles=1000 timeseries.per_switch=true warmup_cycles=2000 measure_cycles=10000");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto& ts = r.json.at("timeseries");
  ASSERT_EQ(ts["t_start"].size(), 12u);
  EXPECT_EQ(ts["t_start"][6], 6000);
  for (int b = 1; b < 6; ++b) {
    EXPECT_NEAR(ts["accepted_load"][b].get<double>(), 0.1, 0.03) << b;
    EXPECT_NEAR(ts["generated_load"][b].get<double>(), 0.1, 0.03) << b;
  }
  EXPECT_NEAR(ts["generated_load"][6].get<double>(), 0.4, 0.05);
  for (int b = 7; b < 12; ++b) EXPECT_NEAR(ts["accepted_load"][b].get<double>(), 0.4, 0.05) << b;
  // Per-switch series: one value per switch per bin; the network holds more at 0.4.
  const auto& buf = ts["per_switch"]["buffered_phits"];
  ASSERT_EQ(buf.size(), 12u);
  ASSERT_EQ(buf[0].size(), 36u);
  double lo = 0, hi = 0;
  for (int s = 0; s < 36; ++s) {
    lo += buf[3][s].get<double>();
    hi += buf[9][s].get<double>();
  }
  EXPECT_GT(hi, lo);
  // The window's offered load is the time-weighted mean of the phases.
  EXPECT_NEAR(r.json["metrics"]["offered_load"].get<double>(), (4000 * 0.1 + 6000 * 0.4) / 10000, 1e-9);
  EXPECT_NE(r.out.find("un 0.1@0 -> un 0.4@6000"), std::string::npos) << r.out;
}

TEST(Transient, AdversarialPhaseDrivesMinToItsBoundAndBack) {
  // UN 0.3 -> ADV+1 0.3 (MIN saturates at 0.125) -> silence: accepted load drops to the
  // bound during ADV+1, and every packet is delivered once the sources stop.
  const ScflyRun r = run_scfly(
      tiny_config(),
      "'phases=[{start: 0, traffic: un, load: 0.3}, {start: 4000, traffic: adv+1}, "
      "{start: 8000, load: 0}]' timeseries.bin_cycles=1000 warmup_cycles=0 measure_cycles=30000");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto& ts = r.json.at("timeseries");
  EXPECT_NEAR(ts["accepted_load"][2].get<double>(), 0.3, 0.05);
  EXPECT_NEAR(ts["accepted_load"][6].get<double>(), 0.125, 0.02);
  EXPECT_NEAR(ts["nonminimal_fraction"][6].get<double>(), 0.0, 1e-12);
  EXPECT_EQ(r.json["metrics"]["packets_in_network"], 0);
  EXPECT_EQ(r.json["metrics"]["packets_queued"], 0);
  EXPECT_EQ(ts["generated_load"][9], 0.0);
}

TEST(Transient, SameSeedSameSeries) {
  const std::string args =
      "'phases=[{start: 0, load: 0.2}, {start: 3000, traffic: adv+1, load: 0.3}]' routing=val "
      "timeseries.bin_cycles=500 warmup_cycles=1000 measure_cycles=5000";
  const ScflyRun a = run_scfly(tiny_config(), args), b = run_scfly(tiny_config(), args);
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_EQ(a.json["timeseries"], b.json["timeseries"]);
  EXPECT_EQ(a.json["metrics"], b.json["metrics"]);
}

TEST(Plot, WritesAPngForATinyDatabase) {
  if (std::system("/usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "python3-matplotlib is not installed; .ci/setup-deps installs it";
  const std::string sw = write_sweep(
      "set: {warmup_cycles: 500, measure_cycles: 1500, timeseries: {bin_cycles: 500}}\n"
      "axes:\n  routing: [min, val]\n  load: [0.1, 0.3]\n");
  const std::string db = tmp("db.sqlite"), png = tmp("fig.png"), svg = tmp("fig.svg");
  ASSERT_EQ(scfly_cmd("sweep " + sw + " --db " + db + " --jobs 2").code, 0);
  const Cmd p = scfly_cmd("plot " + db + " --x load --y latency_avg --series routing -o " + png);
  ASSERT_EQ(p.code, 0) << p.err << p.out;
  expect_png(png, 2000);
  const Cmd q = scfly_cmd("plot " + db + " --recipe throughput -o " + svg);
  EXPECT_EQ(q.code, 0) << q.err;
  EXPECT_NE(slurp(svg).find("<svg"), std::string::npos);
  const Cmd t = scfly_cmd("plot " + db + " --recipe transient --point 1 -o " + png);
  EXPECT_EQ(t.code, 0) << t.err;
  // every point's transient on common axes, one line per point labelled by its routing
  const Cmd ts = scfly_cmd("plot " + db + " --recipe transients --series routing,load -o " + png);
  EXPECT_EQ(ts.code, 0) << ts.err;
  const Cmd ts_bad = scfly_cmd("plot " + db + " --recipe transients --switches 0 -o " + png);
  EXPECT_EQ(ts_bad.code, 2);
  EXPECT_NE(ts_bad.err.find("--switch-series"), std::string::npos) << ts_bad.err;
  // the switches of one group side by side for every point (QCN paper Figs. 7, 9)
  const Cmd gf = scfly_cmd("plot " + db + " --recipe group-fairness --where \"load=0.3\" -o " + png);
  EXPECT_EQ(gf.code, 0) << gf.err;
  const Cmd gf_bad = scfly_cmd("plot " + db + " --recipe group-fairness --group 9 -o " + png);
  EXPECT_EQ(gf_bad.code, 2);
  EXPECT_NE(gf_bad.err.find("--group 9"), std::string::npos) << gf_bad.err;
  const Cmd bad = scfly_cmd("plot " + db + " --x nosuchcolumn --y latency_avg -o " + png);
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("nosuchcolumn"), std::string::npos) << bad.err;
  for (const auto& x : {db, png, svg, sw}) std::remove(x.c_str());
}

#ifndef SCFLY_MPIEXEC
// A build without MPI (the sanitizer half of CI) refuses `--ranks` before running anything,
// naming the build option; with MPI, tests/test_ranks.cpp runs such a sweep.
TEST(Sweep, RanksNeedAnMpiBuild) {
  const std::string sw = write_sweep(kSixPoints), db = tmp("db.sqlite");
  const Cmd c = scfly_cmd("sweep " + sw + " --db " + db + " --ranks 2");
  EXPECT_EQ(c.code, 2);
  EXPECT_NE(c.err.find("--ranks 2: this scfly was built without MPI"), std::string::npos) << c.err;
  EXPECT_NE(c.err.find("-DSCFLY_MPI=ON"), std::string::npos) << c.err;
  EXPECT_EQ(rows_now(db), 0);
}
#endif
