// Experiment machinery without a simulation: traffic phases in the config, sweep files
// (ranges, axes, validation), configuration hashes, saturation analysis and early stop,
// and the results database.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>

#include "sc_main/config.h"
#include "sc_main/results_db.h"
#include "sc_main/saturation.h"
#include "sc_main/sweep.h"
#include "tests/test_tmp.h"

using namespace scfly;

namespace {

std::string config_error(const std::string& yaml) {
  try {
    parse_config_text(yaml, {});
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

std::string temp_path(const std::string& stem, const std::string& ext) {
  return tmp(stem + ext);
}

std::string write_file(const std::string& stem, const std::string& text) {
  const std::string p = temp_path(stem, ".yaml");
  std::ofstream(p) << text;
  return p;
}

std::string sweep_error(const std::string& text) {
  const std::string p = write_file("sweep", text);
  try {
    load_sweep(p);
  } catch (const ConfigError& e) {
    std::remove(p.c_str());
    return e.what();
  }
  std::remove(p.c_str());
  return "";
}

const std::string kBase = std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/dfly-tiny.yaml";

}  // namespace

// ---- phases -------------------------------------------------------------------------

TEST(Phases, AbsentMeansOnePhaseFromTheTopLevelKeys) {
  const SimConfig c = parse_config_text("traffic: adv+1\nload: 0.3", {});
  ASSERT_EQ(c.phases.size(), 1u);
  EXPECT_FALSE(c.phases_given);
  EXPECT_EQ(c.phases[0].start, 0u);
  EXPECT_EQ(to_string(c.phases[0].traffic), "adv+1");
  EXPECT_DOUBLE_EQ(c.phases[0].load, 0.3);
}

TEST(Phases, DefaultsComeFromTheTopLevelAndTheEchoRoundTrips) {
  const SimConfig c = parse_config_text(
      "traffic: un\nload: 0.2\nphases: [{start: 0}, {start: 5000, traffic: adv+1}, "
      "{start: 9000, load: 0}]",
      {});
  ASSERT_EQ(c.phases.size(), 3u);
  EXPECT_EQ(to_string(c.phases[1].traffic), "adv+1");
  EXPECT_DOUBLE_EQ(c.phases[1].load, 0.2);
  EXPECT_EQ(to_string(c.phases[2].traffic), "un");
  EXPECT_DOUBLE_EQ(c.phases[2].load, 0.0);  // a silent phase is allowed
  const auto j = config_to_json(c);
  EXPECT_EQ(config_to_json(parse_config_text(j.dump(), {})), j);
}

TEST(Phases, BadPhasesNameTheKey) {
  EXPECT_NE(config_error("phases: [{start: 10}]").find("phases[0].start"), std::string::npos);
  EXPECT_NE(config_error("phases: [{start: 0}, {load: 0.2}]").find("phases[1].start"), std::string::npos);
  EXPECT_NE(config_error("phases: [{start: 0}, {start: 500}, {start: 500}]").find("strictly increase"),
            std::string::npos);
  EXPECT_NE(config_error("phases: [{start: 0, load: 1.5}]").find("phases[0].load"), std::string::npos);
  EXPECT_NE(config_error("phases: [{start: 0, traffic: zig}]").find("phases[0].traffic"), std::string::npos);
  EXPECT_NE(config_error("phases: [{start: 0, speed: 3}]").find("phases[0].speed"), std::string::npos);
  EXPECT_NE(config_error("phases: 3").find("'phases'"), std::string::npos);
  EXPECT_NE(config_error("phases: [{start: 0, traffic: adv+9}]").find("phases[0].traffic"), std::string::npos);
}

TEST(Phases, MeanOfferedLoadIsTimeWeighted) {
  const SimConfig c = parse_config_text("phases: [{start: 0, load: 0.1}, {start: 6000, load: 0.4}]", {});
  EXPECT_NEAR(mean_offered_load(c, 3000, 13000), (3000 * 0.1 + 7000 * 0.4) / 10000, 1e-12);
  EXPECT_NEAR(mean_offered_load(c, 0, 6000), 0.1, 1e-12);
  EXPECT_NEAR(mean_offered_load(c, 6000, 7000), 0.4, 1e-12);
}

TEST(Timeseries, BinValidation) {
  EXPECT_EQ(config_error("timeseries: {bin_cycles: 1000, per_switch: true}"), "");
  EXPECT_NE(config_error("timeseries: {bin_cycles: -5}").find("timeseries.bin_cycles"), std::string::npos);
  EXPECT_NE(config_error("timeseries: {bin_cycles: 1}\nmeasure_cycles: 2000000").find("10^6 bins"),
            std::string::npos);
  EXPECT_NE(config_error("timeseries: {every: 5}").find("timeseries.every"), std::string::npos);
}

// ---- sweep files ----------------------------------------------------------------------

TEST(Sweep, RangesIncludeTheStopAndAvoidRoundingNoise) {
  const auto v = expand_range("load", "0.05:0.95:0.05");
  ASSERT_EQ(v.size(), 19u);
  EXPECT_EQ(v.front(), "0.05");
  EXPECT_EQ(v[5], "0.3");  // not 0.30000000000000004
  EXPECT_EQ(v.back(), "0.95");
  EXPECT_EQ(expand_range("load", "0.1:0.1:0.5").size(), 1u);
  EXPECT_THROW(expand_range("load", "0.5:0.1:0.1"), ConfigError);
  EXPECT_THROW(expand_range("load", "0.1:0.5:0"), ConfigError);
  EXPECT_THROW(expand_range("load", "0.1:x:0.1"), ConfigError);
}

TEST(Sweep, ExpandsTheCartesianProductOrderedBySeriesThenLoad) {
  const std::string p = write_file("sweep",
                                   "base: " + kBase +
                                       "\nset: {warmup_cycles: 100, switch: {speedup: 1}}\n"
                                       "axes:\n  load: [0.3, 0.1, 0.2]\n  routing: [min, val]\n"
                                       "  seed: [1, 2]\n");
  const SweepSpec s = load_sweep(p);
  std::remove(p.c_str());
  EXPECT_EQ(s.set, (std::vector<std::string>{"warmup_cycles=100", "switch.speedup=1"}));
  const auto pts = expand_sweep(s);
  ASSERT_EQ(pts.size(), 12u);
  // First series (routing=min) swept upward in load, seeds side by side.
  EXPECT_EQ(pts[0].series, "routing=min");
  EXPECT_DOUBLE_EQ(pts[0].load, 0.1);
  EXPECT_EQ(pts[0].cfg.seed, 1u);
  EXPECT_EQ(pts[1].cfg.seed, 2u);
  EXPECT_DOUBLE_EQ(pts[2].load, 0.2);
  EXPECT_EQ(pts[2].level, 1u);
  EXPECT_EQ(pts[6].series, "routing=val");
  for (const auto& pt : pts) {
    EXPECT_EQ(pt.cfg.sw.speedup, 1);
    EXPECT_EQ(pt.cfg.warmup_cycles, 100u);
  }
  std::set<std::string> hashes;
  for (const auto& pt : pts) hashes.insert(pt.hash);
  EXPECT_EQ(hashes.size(), 12u);
}

TEST(Sweep, VariantAxesBundleOverridesUnderOneName) {
  const std::string p = write_file(
      "sweep", "base: " + kBase +
                   "\naxes:\n  mechanism:\n    v-crg: {routing: val, val: {policy: crg-gr}}\n"
                   "    acor: {routing: acor-switch, acor: {sequence: 2lb}}\n  load: [0.1, 0.2]\n");
  const auto pts = expand_sweep(load_sweep(p));
  std::remove(p.c_str());
  ASSERT_EQ(pts.size(), 4u);
  EXPECT_EQ(pts[0].series, "mechanism=v-crg");
  EXPECT_EQ(pts[0].cfg.routing, RoutingAlgo::Val);
  EXPECT_EQ(pts[0].cfg.routing_prm.val.policy, Misroute::CrgGr);
  EXPECT_EQ(pts[0].labels["mechanism"], "v-crg");
  EXPECT_EQ(pts[2].cfg.routing, RoutingAlgo::AcorSwitch);
  EXPECT_EQ(pts[2].cfg.routing_prm.acor.sequence, AcorSequence::TwoLevelB);
  // A variant axis may not shadow a config key (its column would be ambiguous).
  const std::string q = write_file("sweep", "base: " + kBase + "\naxes: {routing: {a: {load: 0.1}}}\n");
  EXPECT_THROW(expand_sweep(load_sweep(q)), ConfigError);
  std::remove(q.c_str());
}

TEST(Sweep, EquivalentPointsShareOneHash) {
  // 'auto' VCs resolve to the same numbers as writing them out: one configuration.
  const std::string p = write_file(
      "sweep", "base: " + kBase + "\naxes:\n  switch.vcs.local: [auto, 2]\n");
  const auto pts = expand_sweep(load_sweep(p));
  std::remove(p.c_str());
  EXPECT_EQ(pts.size(), 1u);
  EXPECT_EQ(config_hash(nlohmann::json{{"a", 1}}), config_hash(nlohmann::json{{"a", 1}}));
  EXPECT_NE(config_hash(nlohmann::json{{"a", 1}}), config_hash(nlohmann::json{{"a", 2}}));
}

TEST(Sweep, BadSweepFilesNameTheKey) {
  EXPECT_NE(sweep_error("axes: {load: [0.1]}").find("'base'"), std::string::npos);
  EXPECT_NE(sweep_error("base: /nonexistent.yaml\naxes: {load: [0.1]}").find("'base'"), std::string::npos);
  EXPECT_NE(sweep_error("base: " + kBase + "\n").find("'axes'"), std::string::npos);
  EXPECT_NE(sweep_error("base: " + kBase + "\naxes: {load: '0.1:0.2'}").find("axes.load"), std::string::npos);
  EXPECT_NE(sweep_error("base: " + kBase + "\naxes: {load: [0.1]}\nsets: {}").find("'sets'"),
            std::string::npos);
  EXPECT_NE(sweep_error("base: " + kBase + "\naxes: {load: [0.1]}\nsaturation: {latency_factor: 0.5}")
                .find("saturation.latency_factor"),
            std::string::npos);
  EXPECT_NE(sweep_error("base: " + kBase + "\naxes: {load: [0.1]}\nstop_after_saturation: maybe")
                .find("stop_after_saturation"),
            std::string::npos);
  // A point whose configuration is invalid is reported with its axis values.
  const std::string p = write_file("sweep", "base: " + kBase + "\naxes: {load: [0.1, 2.0]}\n");
  try {
    expand_sweep(load_sweep(p));
    ADD_FAILURE() << "load 2.0 accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("load=2.0"), std::string::npos) << e.what();
  }
  std::remove(p.c_str());
}

// ---- saturation analysis ----------------------------------------------------------------

TEST(Saturation, LevelsAverageSeedsAndCountFailures) {
  const auto lv = load_levels({{0.2, true, 0.2, 100}, {0.1, true, 0.1, 80}, {0.2, true, 0.18, 120},
                               {0.3, false, 0, 0}, {0.3, true, 0.2, 900}});
  ASSERT_EQ(lv.size(), 3u);
  EXPECT_DOUBLE_EQ(lv[0].load, 0.1);
  EXPECT_DOUBLE_EQ(lv[1].accepted, 0.19);
  EXPECT_DOUBLE_EQ(lv[1].latency, 110);
  EXPECT_EQ(lv[2].runs, 2);
  EXPECT_EQ(lv[2].ok, 1);
}

TEST(Saturation, ThroughputIsTheHighestAcceptedAndTheKneeTheFirstLatencyBeyondTheFactor) {
  const std::vector<SeriesSample> s = {{0.1, true, 0.1, 100}, {0.2, true, 0.2, 250},
                                       {0.3, true, 0.29, 300}, {0.4, true, 0.31, 301},
                                       {0.5, true, 0.30, 2000}};
  SaturationCriteria c3;
  const SaturationSummary a = summarize_saturation(s, c3);
  EXPECT_DOUBLE_EQ(a.zero_load_latency, 100);
  EXPECT_DOUBLE_EQ(a.saturation_throughput, 0.31);
  EXPECT_DOUBLE_EQ(a.saturation_load, 0.4);
  EXPECT_DOUBLE_EQ(a.knee_load, 0.4);  // 300 is not above 3 x 100; 301 is
  SaturationCriteria c2{2.0, 0.9}, lax{100.0, 0.7};
  EXPECT_DOUBLE_EQ(summarize_saturation(s, c2).knee_load, 0.2);
  EXPECT_DOUBLE_EQ(summarize_saturation(s, lax).knee_load, 0.5);  // only 0.30 < 0.7 x 0.5
  // A failed point marks the knee too.
  EXPECT_DOUBLE_EQ(summarize_saturation({{0.1, true, 0.1, 100}, {0.2, false, 0, 0}}, c3).knee_load, 0.2);
  // A series saturated from its lowest load (MIN under ADV+1): the accepted load gives it away.
  EXPECT_DOUBLE_EQ(
      summarize_saturation({{0.05, true, 0.031, 4800}, {0.1, true, 0.031, 5200}}, c3).knee_load, 0.05);
  SaturationCriteria never{100.0, 0.01};
  EXPECT_DOUBLE_EQ(summarize_saturation(s, never).knee_load, -1);
}

TEST(Saturation, EarlyStopWaitsForTheKneeThenAllowsExtraLevels) {
  auto lv = [](double load, double lat, bool ok = true) {
    LoadLevel l;
    l.load = load;
    l.runs = 1;
    l.ok = ok ? 1 : 0;
    l.latency = lat;
    l.accepted = load;  // keeping up with the offered load
    return l;
  };
  const SaturationCriteria c;
  EXPECT_EQ(last_useful_level({}, c, 1), SIZE_MAX);
  EXPECT_EQ(last_useful_level({lv(0.1, 100), lv(0.2, 200)}, c, 1), SIZE_MAX);
  EXPECT_EQ(last_useful_level({lv(0.1, 100), lv(0.2, 200), lv(0.3, 400)}, c, 1), 3u);
  EXPECT_EQ(last_useful_level({lv(0.1, 100), lv(0.2, 200), lv(0.3, 400)}, c, 0), 2u);
  EXPECT_EQ(last_useful_level({lv(0.1, 100), lv(0.2, 0, false)}, c, 2), 3u);
}

// ---- results database ---------------------------------------------------------------------

TEST(ResultsDb, FlattensConfigKeysIntoColumns) {
  const auto cols = flatten_columns(nlohmann::json{{"topology", {{"p", 2}, {"g", 9}}},
                                                   {"load", 0.3},
                                                   {"phases", nlohmann::json::array()}});
  std::map<std::string, nlohmann::json> m(cols.begin(), cols.end());
  EXPECT_EQ(m.at("topology_p"), 2);
  EXPECT_EQ(m.at("topology_g"), 9);
  EXPECT_EQ(m.at("load"), 0.3);
  EXPECT_TRUE(m.at("phases").is_array());
}

TEST(ResultsDb, InsertsPointsWithSeriesAndReplacesOnlyOnRetry) {
  const std::string path = temp_path("db", ".sqlite");
  {
    ResultsDb db(path);
    PointRecord r;
    r.hash = "h1";
    r.sweep = "t";
    r.status = "ok";
    r.config = {{"load", 0.2}, {"topology", {{"p", 2}}}};
    r.metrics = {{"accepted_load", 0.19}, {"latency_avg", 80.5}, {"offered_load", 0.2},
                 {"switch_accepted", {0.1, 0.2}}};
    r.timeseries = {{"bin_cycles", 100},
                    {"t_start", {0, 100}},
                    {"t_end", {100, 200}},
                    {"latency_avg", {nullptr, 3.5}},
                    {"latency_inj_avg", {1.0, 2.0}},
                    {"network_latency_avg", {1.0, 2.0}},
                    {"accepted_load", {0.1, 0.2}},
                    {"generated_load", {0.1, 0.2}},
                    {"nonminimal_fraction", {0.0, 0.5}},
                    {"packets", {0, 3}},
                    {"per_switch", {{"buffered_phits", {{1.0, 2.0}, {3.0, 4.0}}}}}};
    db.insert(r);
    PointRecord bad = r;
    bad.hash = "h2";
    bad.status = "error";
    bad.error = "exit 3: watchdog";
    bad.metrics = nullptr;
    bad.timeseries = nullptr;
    db.insert(bad);
    EXPECT_EQ(db.count("points"), 2);
    EXPECT_EQ(db.count("timeseries"), 2);
    EXPECT_EQ(db.count("switch_series"), 4);
    EXPECT_EQ(db.hashes(true), (std::set<std::string>{"h1", "h2"}));
    EXPECT_EQ(db.hashes(false), (std::set<std::string>{"h1"}));
    // Retrying the failed point replaces its row.
    bad.status = "ok";
    bad.metrics = r.metrics;
    db.insert(bad);
    EXPECT_EQ(db.count("points"), 2);
    EXPECT_EQ(db.hashes(false), (std::set<std::string>{"h1", "h2"}));
    const auto pts = db.points_with_hashes({"h1"});
    ASSERT_EQ(pts.size(), 1u);
    EXPECT_TRUE(pts[0].has_metrics);
    EXPECT_DOUBLE_EQ(pts[0].accepted_load, 0.19);
    EXPECT_EQ(pts[0].config["topology"]["p"], 2);
  }
  const std::string csv = temp_path("db", ".csv");
  {
    ResultsDb db(path);  // reopening keeps everything
    EXPECT_EQ(db.export_csv("points", csv), 2);
    EXPECT_THROW(db.export_csv("nosuchtable", csv), DbError);
  }
  std::ifstream in(csv);
  std::string header;
  std::getline(in, header);
  EXPECT_NE(header.find("topology_p"), std::string::npos) << header;
  EXPECT_NE(header.find("accepted_load"), std::string::npos) << header;
  std::remove(csv.c_str());
  std::remove(path.c_str());
}

TEST(ResultsDb, UnopenablePathIsAClearError) {
  try {
    ResultsDb db("/nonexistent-dir/x.sqlite");
    ADD_FAILURE();
  } catch (const DbError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-dir/x.sqlite"), std::string::npos);
  }
}
