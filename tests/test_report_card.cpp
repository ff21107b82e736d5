// The report card end to end on the 8-node ring (fast): every row kind, the Markdown and
// JSON it writes, the analytic bound DOR cannot pass (TOR at 1/3), a permutation row whose
// prefix run is reused by the full one, resume with nothing rerun, the figures drawn from
// its JSON, blocks of seeds (--permutations A-B, --rows) run in separate databases that
// merge to the full row, and clear errors for a bad card or option.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "scfly_run.h"

namespace {

std::string write_card(const std::string& body) {
  const std::string p = tmp("card.yaml");
  std::ofstream(p) << "base: " << SCFLY_SOURCE_DIR << "/sc_main/configs/torus-ring-8.yaml\n" << body;
  return p;
}

const char* kCard = R"(name: ringcard
set: {switch: {vcs: {link: 4}}, warmup_cycles: 1000, measure_cycles: 3000}
columns:
  DOR: {routing: dor}
  MIN AD: {routing: min-ad}
normalize_to: DOR
search: {low: 0.05, high: 1.0, resolution: 0.02}
saturation: {latency_factor: 1000, accept_ratio: 0.98}
rows:
  - {name: TOR, label: "Θ_TOR", kind: saturation, set: {traffic: tor}}
  - {name: avg, kind: saturation, set: {traffic: perm}, permutations: 3}
  - {name: Lat, kind: latency, set: {traffic: un, load: 0.1}}
  - {name: Stab, kind: stability, reference: TOR, bin_cycles: 500, set: {traffic: tor, load: 0.9}}
)";

}  // namespace

TEST(ReportCard, EveryRowKindOnTheRingResumesAndPlots) {
  const std::string card = write_card(kCard), db = tmp("card.sqlite"), md = tmp("card.md"), js = tmp("card.json");
  // A first look with two of the three permutations.
  const Cmd first = scfly_cmd("report-card " + card + " --db " + db + " --jobs 2 --permutations 2");
  ASSERT_EQ(first.code, 0) << first.err;
  EXPECT_NE(first.out.find("2 of 3"), std::string::npos) << first.out;
  // The full card reuses every point of the first look: only the third permutation runs.
  const Cmd full = scfly_cmd("report-card " + card + " --db " + db + " --jobs 2 --md " + md + " --json " + js);
  ASSERT_EQ(full.code, 0) << full.err;
  EXPECT_NE(full.err.find("sweep ringcard-TOR: 0 run (0 failed)"), std::string::npos) << full.err;
  EXPECT_EQ(full.out.find(" of 3"), std::string::npos) << full.out;
  const std::string table = slurp(md);
  EXPECT_NE(table.find("| ringcard | DOR | MIN AD |"), std::string::npos) << table;
  EXPECT_NE(table.find("| Θ_TOR |"), std::string::npos) << table;
  EXPECT_NE(full.out.find(table), std::string::npos);

  const nlohmann::json j = nlohmann::json::parse(slurp(js));
  ASSERT_EQ(j["rows"].size(), 4u);
  const nlohmann::json& tor = j["rows"][0]["values"];
  // Minimal routing on TOR (i -> i+3 on a ring of 8) is bounded by 1/3.
  for (const char* col : {"DOR", "MIN AD"}) {
    EXPECT_LE(tor[col]["value"].get<double>(), 1.0 / 3 + 0.005) << col;
    EXPECT_GE(tor[col]["value"].get<double>(), 0.2) << col;
  }
  const nlohmann::json& avg = j["rows"][1]["values"]["DOR"];
  ASSERT_EQ(avg["permutations"].size(), 3u);
  double sum = 0;
  for (const auto& v : avg["permutations"]) sum += v.get<double>();
  EXPECT_NEAR(avg["value"].get<double>(), sum / 3, 1e-12);
  EXPECT_LE(avg["min"].get<double>(), avg["max"].get<double>());
  // Latency row: DOR on a ring is minimal: mean hops = mean ring distance (16/7 over 7 others).
  const nlohmann::json& lat = j["rows"][2]["values"]["DOR"];
  EXPECT_NEAR(lat["hops_avg"].get<double>(), 16.0 / 7, 0.05);
  double hsum = 0;
  for (const auto& h : lat["hops_histogram"]) hsum += h.get<double>();
  EXPECT_NEAR(hsum, 1.0, 1e-9);
  EXPECT_EQ(lat["hops_histogram"].size(), 5u);  // 0..4 hops, 0 never
  EXPECT_EQ(lat["hops_histogram"][0].get<double>(), 0.0);
  // Stability: DOR past TOR's bound holds its throughput under oldest-first arbitration.
  const nlohmann::json& stab = j["rows"][3]["values"]["DOR"];
  EXPECT_NEAR(stab["ratio"].get<double>(), stab["accepted_load"].get<double>() / tor["DOR"]["value"].get<double>(),
              1e-12);
  EXPECT_GE(stab["series"].size(), 8u);
  EXPECT_TRUE(stab["stable"].is_boolean());

  // Resume: nothing runs again.
  const Cmd again = scfly_cmd("report-card " + card + " --db " + db + " --jobs 2");
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(again.err.find("[1/"), std::string::npos) << again.err;
  // A subset of the rows is the same rows: same points (nothing runs), same table lines.
  const Cmd some = scfly_cmd("report-card " + card + " --db " + db + " --jobs 2 --rows TOR,Lat,Stab");
  ASSERT_EQ(some.code, 0) << some.err;
  EXPECT_EQ(some.err.find("[1/"), std::string::npos) << some.err;
  for (const char* label : {"| Θ_TOR |", "| Lat |", "| Stab |"}) {
    const size_t at = table.find(label);
    ASSERT_NE(at, std::string::npos) << label;
    EXPECT_NE(some.out.find(table.substr(at, table.find('\n', at) - at)), std::string::npos) << label << some.out;
  }
  EXPECT_EQ(some.out.find("| avg |"), std::string::npos) << some.out;

  for (const std::string recipe : {"card-permutations", "card-stability", "card-hops"}) {
    const std::string png = tmp(recipe + ".png");
    const Cmd p = scfly_cmd("plot " + js + " --recipe " + recipe + " -o " + png);
    EXPECT_EQ(p.code, 0) << recipe << p.err;
    EXPECT_GT(slurp(png).size(), 1000u) << recipe;
    std::remove(png.c_str());
  }
  for (const std::string& f : {card, db, md, js}) std::remove(f.c_str());
}

TEST(ReportCard, PermutationBlocksInSeparateDatabasesMergeToTheFullRow) {
  const std::string card = write_card(kCard);
  const std::string full_db = tmp("full.sqlite"), a_db = tmp("blockA.sqlite"), b_db = tmp("blockB.sqlite");
  const std::string full_js = tmp("full.json"), a_js = tmp("blockA.json"), b_js = tmp("blockB.json");
  const Cmd full = scfly_cmd("report-card " + card + " --db " + full_db + " --jobs 2 --rows avg --json " + full_js);
  ASSERT_EQ(full.code, 0) << full.err;
  // --rows avg: only that row ran and is reported.
  EXPECT_EQ(full.err.find("ringcard-TOR"), std::string::npos) << full.err;
  EXPECT_EQ(full.out.find("Θ_TOR"), std::string::npos) << full.out;
  const Cmd a = scfly_cmd("report-card " + card + " --db " + a_db + " --jobs 2 --rows avg --permutations 2-3 --json " + a_js);
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_NE(a.out.find("seeds 2-3 of 3"), std::string::npos) << a.out;
  const Cmd b = scfly_cmd("report-card " + card + " --db " + b_db + " --jobs 2 --rows avg --permutations 1 --json " + b_js);
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_NE(b.out.find("1 of 3"), std::string::npos) << b.out;

  const nlohmann::json f = nlohmann::json::parse(slurp(full_js)), ja = nlohmann::json::parse(slurp(a_js)),
                       jb = nlohmann::json::parse(slurp(b_js));
  ASSERT_EQ(f["rows"].size(), 1u);
  for (const char* col : {"DOR", "MIN AD"}) {
    const nlohmann::json& fc = f["rows"][0]["values"][col];
    EXPECT_EQ(fc["seeds"], nlohmann::json({1, 2, 3})) << col;
    EXPECT_EQ(ja["rows"][0]["values"][col]["seeds"], nlohmann::json({2, 3})) << col;
    EXPECT_EQ(jb["rows"][0]["values"][col]["seeds"], nlohmann::json({1})) << col;
    // Each seed's value is the same whichever database and block it ran in (deterministic).
    EXPECT_EQ(fc["permutations"][0], jb["rows"][0]["values"][col]["permutations"][0]) << col;
    EXPECT_EQ(fc["permutations"][1], ja["rows"][0]["values"][col]["permutations"][0]) << col;
    EXPECT_EQ(fc["permutations"][2], ja["rows"][0]["values"][col]["permutations"][1]) << col;
  }
  // The plot merges the blocks by seed: its summary is the full row's.
  const std::string png = tmp("merged.png");
  const Cmd merged = scfly_cmd("plot " + a_js + " " + b_js + " --recipe card-permutations -o " + png);
  ASSERT_EQ(merged.code, 0) << merged.err;
  const Cmd whole = scfly_cmd("plot " + full_js + " --recipe card-permutations -o " + png);
  ASSERT_EQ(whole.code, 0) << whole.err;
  EXPECT_NE(merged.out.find(" 1-3 "), std::string::npos) << merged.out;
  EXPECT_EQ(merged.out.substr(0, merged.out.find("wrote")), whole.out.substr(0, whole.out.find("wrote")));
  // A seed with two different values (blocks of different cards) is refused.
  nlohmann::json other = ja;
  other["rows"][0]["values"]["DOR"]["permutations"][0] = 0.123;
  const std::string other_js = tmp("other.json");
  std::ofstream(other_js) << other.dump();
  const Cmd clash = scfly_cmd("plot " + a_js + " " + other_js + " --recipe card-permutations -o " + png);
  EXPECT_EQ(clash.code, 2);
  EXPECT_NE(clash.err.find("seed 2 of column DOR has two values"), std::string::npos) << clash.err;
  for (const std::string& x : {card, full_db, a_db, b_db, full_js, a_js, b_js, png, other_js}) std::remove(x.c_str());
}

TEST(ReportCard, BadOptionsNameTheOption) {
  const std::string card = write_card(kCard);
  struct Case {
    const char* args;
    const char* says;
  };
  for (const Case& c : {
           Case{"--permutations 2-4", "'2-4' is not allowed for row 'avg', which has 3 permutations"},
           Case{"--permutations 3-2", "--permutations: value '3-2' is not allowed; expected N (seeds 1..N) or A-B"},
           Case{"--permutations 0", "--permutations: value '0' is not allowed"},
           Case{"--permutations x", "--permutations: value 'x' is not allowed"},
           Case{"--rows nope", "--rows: value 'nope' is not a row of the card; rows: TOR, avg, Lat, Stab"},
           Case{"--rows avg,Stab", "--rows: row 'Stab' compares with row 'TOR'; add 'TOR' to --rows"},
       }) {
    const Cmd r = scfly_cmd("report-card " + card + " --db " + tmp("bad.sqlite") + " " + c.args + " --dry-run");
    EXPECT_EQ(r.code, 2) << c.args << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << c.args << r.err;
  }
  std::remove(card.c_str());
}

TEST(ReportCard, BadCardsNameTheKey) {
  struct Case {
    const char* body;
    const char* says;
  };
  for (const Case& c : {
           Case{"columns: {A: {routing: dor}}\nrows: [{name: x, kind: fast}]\n", "rows[0].kind"},
           Case{"columns: {A: {routing: dor}}\nrows: [{name: x, kind: saturation, colour: red}]\n", "rows[0].colour"},
           Case{"columns: {A: {routing: dor}}\nrows: [{name: s, kind: stability, reference: nope}]\n", "rows.s.reference"},
           Case{"columns: {A: {routing: dor}}\nrows: [{name: x, kind: latency, permutations: 3}]\n", "permutations"},
           Case{"columns: {A: {routing: dor}}\nnormalize_to: B\nrows: [{name: x, kind: latency}]\n", "normalize_to"},
           Case{"columns: {A: {routing: min}}\nrows: [{name: x, kind: latency}]\n", "'routing'"},
           Case{"rows: [{name: x, kind: latency}]\n", "columns"},
           Case{"columns: {A: {routing: dor}}\nrows: [{name: a b, kind: latency}]\n", "rows[0].name"},
       }) {
    const Cmd r = scfly_cmd("report-card " + write_card(c.body) + " --dry-run");
    EXPECT_EQ(r.code, 2) << c.body << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << c.body << r.err;
  }
}
