// Every preset in sc_main/configs/ is what its header comment says: each runs briefly
// (scaled down: fewer cycles) and one number its header or its reproduction page claims is
// checked. The large networks (876 switches) only print their structure here -- switch and
// host counts, packet length, pipeline, link latencies, VC counts -- which is what their
// headers claim; a run long enough for a behavioural number would not fit a test.
// A preset added without a case here fails PresetsHaveACase.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "scfly_run.h"

namespace {

std::string preset(const std::string& name) { return std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/" + name; }

double num(const ScflyRun& r, const char* key) { return r.json["metrics"][key].get<double>(); }

// The printed summary contains `text`.
void expect_line(const ScflyRun& r, const std::string& text) {
  EXPECT_NE(r.out.find(text), std::string::npos) << "expected '" << text << "' in\n" << r.out;
}

struct Case {
  std::string args;                               // after "scfly run PRESET"
  std::function<void(const ScflyRun&)> check;     // the claim
};

// preset file -> its runs. Every claim is quoted with where it is made.
const std::map<std::string, std::vector<Case>>& cases() {
  static const std::map<std::string, std::vector<Case>> c = {
      // Header: dfly(2,4,2), 9 groups, 36 switches, 72 nodes, palmtree. Getting started:
      // MIN under ADV+1 carries 1/(a*p) = 0.125 (all of a group's traffic on one global link).
      {"dfly-tiny.yaml",
       {{"traffic=adv+1 load=0.3 warmup_cycles=2000 measure_cycles=3000",
         [](const ScflyRun& r) {
           expect_line(r, "dfly(2,4,2,9) palmtree, 36 switches, 72 nodes");
           EXPECT_NEAR(num(r, "accepted_load"), 0.125, 0.002);
         }}}},
      // Header: input buffers deeper than the credit round trip, so one VC streams at full
      // link rate: MIN under ADV+1 then carries one global link per group, 1/(a*p) = 1/32.
      // (switch.input_buffer.global=128, under the 205-cycle round trip, carries 0.0187.)
      {"dfly-medium.yaml",
       {{"traffic=adv+1 load=0.1 warmup_cycles=2000 measure_cycles=2000",
         [](const ScflyRun& r) {
           expect_line(r, "dfly(4,8,4,33) palmtree, 264 switches, 1056 nodes");
           EXPECT_NEAR(num(r, "accepted_load"), 1.0 / 32, 0.0005);
         }}}},
      // Structural (5,256 hosts): the ACOR paper's Table 3 network, 250-byte packets of
      // 25-byte phits = 10 phits, 90-cycle switch, 15/150-cycle links, and VCs "local/global/
      // injection 2/1/1 for MIN and 4/2/1 for the others ('auto' picks these)".
      {"acor-table3.yaml",
       {{"warmup_cycles=0 measure_cycles=1",
         [](const ScflyRun& r) {
           expect_line(r, "dfly(6,12,6,73) palmtree, 876 switches, 5256 nodes");
           expect_line(r, "packets 10 phits, speedup 2, pipeline 90 cycles, VCs inj/local/global 1/2/1, "
                          "links inj/local/global 1/15/150 cycles");
         }},
        {"routing=val warmup_cycles=0 measure_cycles=1",
         [](const ScflyRun& r) { expect_line(r, "VCs inj/local/global 1/4/2"); }}}},
      // docs/validation.md, BookSim2 dragonflynew k=4: MIN UN 0.4, BookSim's latency 125.97
      // (scfly 125.07 over the full window); the header: the 2-cycle pipeline is the one
      // that matches zero-load latency.
      {"booksim-dfly-k4.yaml",
       {{"load=0.4 warmup_cycles=500 measure_cycles=800",
         [](const ScflyRun& r) {
           expect_line(r, "dfly(4,8,4,33) absolute, 264 switches, 1056 nodes");
           EXPECT_NEAR(num(r, "latency_avg"), 125.97, 0.02 * 125.97);
         }}}},
      // docs/validation.md, FOGSim: zero-load latency at 0.1, FOGSim 136.3 (scfly 136.46);
      // the header: the 3-cycle pipeline at the output is the one that makes it match.
      {"fogsim-dfly-4-8-4.yaml",
       {{"load=0.1 warmup_cycles=1000 measure_cycles=2000",
         [](const ScflyRun& r) { EXPECT_NEAR(num(r, "latency_avg"), 136.3, 0.02 * 136.3); }}}},
      // docs/repro-qcn.md, UN table: QCN-Switch (output + FbC) at 0.2 is MIN to the cycle,
      // 152 cycles (no CNM up to 0.4, at most one at 0.6).
      {"qcn-dfly-4-8-4.yaml",
       {{"load=0.2 warmup_cycles=2000 measure_cycles=2000",
         [](const ScflyRun& r) {
           EXPECT_NEAR(num(r, "latency_avg"), 152, 0.03 * 152);
           EXPECT_EQ(num(r, "control_frames_originated"), 0);
         }}}},
      // docs/validation.md: QCN-Switch on qcn-tiny under ADV+1 at 0.4 carries far more than
      // MIN's 1/(a*p) = 0.125 (0.397 after 1 ms, 82 % non-minimal).
      {"qcn-tiny.yaml",
       {{"traffic=adv+1 load=0.4",
         [](const ScflyRun& r) {
           EXPECT_GT(num(r, "accepted_load"), 2 * 0.125);
           EXPECT_GT(num(r, "nonminimal_fraction"), 0.5);
         }}}},
      // Header: with FOGSim's transfer crossbar the output-FIFO congestion point fires under
      // ADV+1 (with switch.crossbar: connections none does): CNMs, and traffic off MIN.
      {"qcn-fogsim-tiny.yaml",
       {{"traffic=adv+1 load=0.4 warmup_cycles=10000 measure_cycles=10000",
         [](const ScflyRun& r) {
           EXPECT_GT(num(r, "control_frames_originated"), 0);
           EXPECT_GT(num(r, "nonminimal_fraction"), 0.3);
           EXPECT_GT(num(r, "accepted_load"), 1.5 * 0.125);
         }}}},
      // Structural (5,256 hosts): Table I in ns and bytes on 50-byte phits: 20-phit
      // packets, 20-cycle switch, links 4/40 cycles, data VCs 3 local / 2 global.
      {"qcn-scaled.yaml",
       {{"warmup_cycles=0 measure_cycles=1",
         [](const ScflyRun& r) {
           expect_line(r, "dfly(6,12,6,73) palmtree, 876 switches, 5256 nodes");
           expect_line(r, "packets 20 phits, speedup 2, pipeline 20 cycles, VCs inj/local/global 1/3/2, "
                          "links inj/local/global 1/4/40 cycles");
         }}}},
      // Structural (5,256 hosts): Table I exactly: 5-byte phits at 1 GHz, 200-phit packets,
      // 200-cycle switch, links 40/400 cycles.
      {"qcn-table1.yaml",
       {{"warmup_cycles=0 measure_cycles=1",
         [](const ScflyRun& r) {
           expect_line(r, "dfly(6,12,6,73) palmtree, 876 switches, 5256 nodes");
           expect_line(r, "packets 200 phits, speedup 2, pipeline 200 cycles, VCs inj/local/global 1/3/2, "
                          "links inj/local/global 1/40/400 cycles");
         }}}},
      // Header: the GAL reproduction's router; docs/repro-gal.md: GOAL's Θ_TOR is 0.521 on it.
      {"torus-8x8-gal.yaml",
       {{"routing=goal traffic=tor load=0.55",
         [](const ScflyRun& r) { EXPECT_NEAR(num(r, "accepted_load"), 0.521, 0.01); }}}},
      // Header: one terminal port; GOAL under TOR saturates at 0.45 (not the card's 0.52).
      // docs/validation.md, BookSim2's 8-ary 2-cube: DOR UR at 0.4, BookSim 18.01 cycles, scfly
      // 17.31 over 15,000 cycles (a constant cycle below BookSim at every hop count); the
      // header: 4 VCs of 8 flits on the BookSim router.
      {"torus-8x8-booksim.yaml",
       {{"load=0.4 warmup_cycles=1000 measure_cycles=2000",
         [](const ScflyRun& r) {
           expect_line(r, "VCs inj/link 4/4");
           EXPECT_NEAR(num(r, "latency_avg"), 17.31, 0.02 * 17.31);
         }}}},
      {"torus-8x8-1port.yaml",
       {{"routing=goal traffic=tor load=0.55 warmup_cycles=3000 measure_cycles=6000",
         [](const ScflyRun& r) { EXPECT_NEAR(num(r, "accepted_load"), 0.45, 0.01); }}}},
      // Header: TOR on the ring: minimal routing saturates at 1/3; GAL reaches the paper's
      // 0.53 (Fig. 4; the optimum 8/15).
      {"torus-ring-8.yaml",
       {{"routing=dor traffic=tor load=0.6 warmup_cycles=2000 measure_cycles=4000",
         [](const ScflyRun& r) { EXPECT_NEAR(num(r, "accepted_load"), 1.0 / 3, 0.012); }},
        {"routing=gal traffic=tor load=0.6 warmup_cycles=2000 measure_cycles=4000",
         [](const ScflyRun& r) { EXPECT_GT(num(r, "accepted_load"), 0.52); }}}},
  };
  return c;
}

// The T-UGAL presets, header: absolute arrangement, k = 4, 2, 1 global links per group
// pair. MIN under ADV+1 sends all of a group's traffic to the next group over those k links:
// k/(a*p) = k/32, times 32/33 since a 32-flit VC behind the 33-cycle global credit round
// trip carries 0.97 flits/cycle (the run warns so).
void tugal_case(std::map<std::string, std::vector<Case>>& m, int g, int k) {
  m["tugal-dfly-4-8-4-" + std::to_string(g) + ".yaml"] = {
      {"routing=min traffic=adv+1 load=0.3 warmup_cycles=2000 measure_cycles=2000", [g, k](const ScflyRun& r) {
         expect_line(r, "dfly(4,8,4," + std::to_string(g) + ") absolute");
         const double bound = k / 32.0 * 32.0 / 33.0;
         EXPECT_NEAR(num(r, "accepted_load"), bound, 0.02 * bound);
       }}};
}

std::map<std::string, std::vector<Case>> all_cases() {
  std::map<std::string, std::vector<Case>> m = cases();
  tugal_case(m, 9, 4);
  tugal_case(m, 17, 2);
  tugal_case(m, 33, 1);
  return m;
}

}  // namespace

TEST(Presets, PresetsHaveACase) {
  const auto m = all_cases();
  std::set<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs"))
    if (e.path().extension() == ".yaml") files.insert(e.path().filename().string());
  for (const auto& f : files) EXPECT_TRUE(m.count(f)) << f << " has no case in tests/test_presets.cpp";
  for (const auto& [f, c] : m) EXPECT_TRUE(files.count(f)) << f << " is not a preset";
}

TEST(Presets, EachPresetIsWhatItsHeaderSays) {
  for (const auto& [file, runs] : all_cases()) {
    for (const Case& c : runs) {
      SCOPED_TRACE(file + " " + c.args);
      const ScflyRun r = run_scfly(preset(file), c.args);
      expect_ok(r);
      if (r.json.is_null()) continue;
      c.check(r);
    }
  }
}
