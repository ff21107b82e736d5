// Config parsing and validation: typed defaults, dotted overrides, unit conversion, and
// errors that name the key, the value and what is allowed; the documents derived from the
// schema; and the source tree's references (none outside the repository).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "routing_units/tvlb_balance.h"
#include "rtl_models/verilog/rtl_blocks.h"
#include "sc_main/config.h"
#include "sc_main/config_schema.h"
#include "tests/config_error.h"
#include "tests/test_tmp.h"

using namespace scfly;

namespace {
std::string error_of(const std::string& yaml, const std::vector<std::string>& ov = {}) {
  return config_error_of(yaml, ov);
}
}  // namespace

TEST(Config, DefaultsAreTheTinyDragonflyWithAutoVcs) {
  const SimConfig c = parse_config_text("{}", {});
  EXPECT_EQ(c.topology.p, 2);
  EXPECT_EQ(c.topology.a, 4);
  EXPECT_EQ(c.topology.h, 2);
  EXPECT_EQ(c.topology.g, 9);  // derived a*h+1
  EXPECT_EQ(c.routing, RoutingAlgo::Min);
  EXPECT_EQ(c.sw.vcs[1], 2);
  EXPECT_EQ(c.sw.vcs[2], 1);
}

TEST(Config, AutoVcsFollowTheRouting) {
  const SimConfig c = parse_config_text("routing: val", {});
  EXPECT_EQ(c.sw.vcs[1], 4);
  EXPECT_EQ(c.sw.vcs[2], 2);
}

TEST(Config, DottedOverridesCreateAndReplaceKeys) {
  const SimConfig c = parse_config_text("topology: {p: 2, a: 4, h: 2}\nload: 0.2",
                                        {"topology.p=4", "load=0.35", "switch.vcs.local=6",
                                         "links.global_latency=100", "traffic=adv+3"});
  EXPECT_EQ(c.topology.p, 4);
  EXPECT_DOUBLE_EQ(c.load, 0.35);
  EXPECT_EQ(c.sw.vcs[1], 6);
  EXPECT_EQ(c.sw.latency[2], 100u);
  EXPECT_EQ(c.traffic.kind, TrafficKind::Adversarial);
  EXPECT_EQ(c.traffic.offset, 3);
}

TEST(Config, BufferSizesAcceptBytesAndRoundUpToPhits) {
  const SimConfig c = parse_config_text(
      "phit_bytes: 25\nswitch: {input_buffer: {local: 18KB, global: '4500B', injection: 100 phits}}",
      {});
  EXPECT_EQ(c.sw.in_buf[1], 738u);  // ceil(18*1024/25)
  EXPECT_EQ(c.sw.in_buf[2], 180u);
  EXPECT_EQ(c.sw.in_buf[0], 100u);
}

TEST(Config, UnknownKeysAreRejectedWithTheAllowedList) {
  const std::string e = error_of("topology: {p: 2, q: 3}");
  EXPECT_NE(e.find("unknown config key 'topology.q'"), std::string::npos) << e;
  EXPECT_NE(e.find("arrangement"), std::string::npos) << e;
  EXPECT_NE(error_of("lod: 0.3").find("'lod'"), std::string::npos);
}

TEST(Config, OutOfRangeValuesNameKeyValueAndRange) {
  std::string e = error_of("load: -0.1");
  EXPECT_NE(e.find("'load'"), std::string::npos) << e;
  EXPECT_NE(e.find("-0.1"), std::string::npos) << e;
  EXPECT_NE(e.find("(0, 1]"), std::string::npos) << e;
  e = error_of("load: 1.5");
  EXPECT_NE(e.find("'load'"), std::string::npos) << e;
  e = error_of("switch: {speedup: 0}");
  EXPECT_NE(e.find("switch.speedup"), std::string::npos) << e;
  e = error_of("packet_phits: many");
  EXPECT_NE(e.find("packet_phits"), std::string::npos) << e;
  EXPECT_NE(e.find("many"), std::string::npos) << e;
  e = error_of("drain: maybe");
  EXPECT_NE(e.find("true or false"), std::string::npos) << e;
  // [0, 100] and [0, 1]: zero is allowed, anything below it is not
  e = error_of("routing: min-cond\nqcn: {p_min: -0.000001}");
  EXPECT_NE(e.find("qcn.p_min"), std::string::npos) << e;
  EXPECT_NE(e.find("[0, 100]"), std::string::npos) << e;
  EXPECT_EQ(error_of("routing: min-cond\nqcn: {p_min: 0}"), "");
  e = error_of("phases: [{start: 0, load: -1e-301}]");
  EXPECT_NE(e.find("load"), std::string::npos) << e;
  EXPECT_EQ(error_of("phases: [{start: 0, load: 0}]"), "");
  e = error_of("switch: {output_arbiter: lrs}");
  EXPECT_NE(e.find("switch.output_arbiter"), std::string::npos) << e;
  EXPECT_NE(e.find("'lrs'"), std::string::npos) << e;
  EXPECT_NE(e.find("transit-priority"), std::string::npos) << e;
  e = error_of("switch: {allocator: pim}");
  EXPECT_NE(e.find("switch.allocator"), std::string::npos) << e;
  EXPECT_NE(e.find("'pim'"), std::string::npos) << e;
  EXPECT_NE(e.find("separable-output"), std::string::npos) << e;
  EXPECT_NE(e.find("islip"), std::string::npos) << e;
}

TEST(Config, ImpossibleTopologiesAreRejected) {
  EXPECT_NE(error_of("topology: {p: 2, a: 4, h: 2, g: 10}").find("topology.g"), std::string::npos);
  EXPECT_NE(error_of("topology: {p: 2, a: 4, h: 2, g: 5}").find("palmtree"), std::string::npos);
  EXPECT_NE(error_of("topology: {p: 2, a: 4, h: 2, g: 4, arrangement: absolute}").find("divide"),
            std::string::npos);
  EXPECT_EQ(error_of("topology: {p: 2, a: 4, h: 2, g: 5, arrangement: absolute}"), "");
  EXPECT_NE(error_of("topology: {arrangement: spiral}").find("palmtree, absolute or absolute-fsu"),
            std::string::npos);
}

TEST(Config, TooFewVcsForTheRoutingIsAnError) {
  const std::string e = error_of("routing: val\nswitch: {vcs: {local: 3}}");
  EXPECT_NE(e.find("switch.vcs.local"), std::string::npos) << e;
  EXPECT_NE(e.find("at least 4"), std::string::npos) << e;
  EXPECT_NE(error_of("routing: val\nswitch: {vcs: {global: 1}}").find("switch.vcs.global"),
            std::string::npos);
  EXPECT_NE(error_of("routing: min\nswitch: {vcs: {local: 1}}").find("at least 2"),
            std::string::npos);
}

TEST(Config, BuffersMustHoldAWholePacket) {
  const std::string e = error_of("packet_phits: 10\nswitch: {input_buffer: {local: 8}}");
  EXPECT_NE(e.find("switch.input_buffer.local"), std::string::npos) << e;
}

TEST(Config, TrafficMustFitTheTopology) {
  EXPECT_NE(error_of("traffic: adv+9").find("traffic"), std::string::npos);  // g = 9
  EXPECT_NE(error_of("traffic: adv+0").find("traffic"), std::string::npos);
  EXPECT_NE(error_of("traffic: hotspot").find("un, adv+N"), std::string::npos);
  EXPECT_NE(error_of("routing: ugal").find("min, val"), std::string::npos);
}

TEST(Config, MalformedOverridesAreErrors) {
  EXPECT_NE(error_of("{}", {"topology.p"}).find("key=value"), std::string::npos);
  EXPECT_NE(error_of("{}", {"load=0.1", "load.x=3"}).find("holds a value"), std::string::npos);
}

TEST(Config, JsonEchoRoundTripsThroughTheParser) {
  const SimConfig c = parse_config_text("routing: val\ntraffic: adv+2\nload: 0.25", {"seed=7"});
  const auto j = config_to_json(c);
  const SimConfig c2 = parse_config_text(j.dump(), {});
  EXPECT_EQ(config_to_json(c2), j);
  EXPECT_EQ(j["routing"], "val");
  EXPECT_EQ(j["traffic"], "adv+2");
  EXPECT_EQ(j["switch"]["vcs"]["local"], 4);  // auto resolved in the echo
}

TEST(Config, SizingWarningFiresBelowTheCreditRoundTrip) {
  const SimConfig ok = parse_config_text("{}", {});
  EXPECT_TRUE(sizing_warnings(ok).empty());
  const SimConfig bad = parse_config_text(
      "links: {global_latency: 100}\nswitch: {pipeline_cycles: 5, input_buffer: {global: 32}}", {});
  const auto w = sizing_warnings(bad);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("205"), std::string::npos) << w[0];    // 2*100 + 5
  EXPECT_NE(w[0].find("0.156"), std::string::npos) << w[0];  // 32/205 phits/cycle per VC
}

TEST(Config, WatchdogMustOutlastTheLongestCreditRoundTrip) {
  const std::string e = error_of("watchdog_cycles: 150\nlinks: {global_latency: 100}");
  EXPECT_NE(e.find("watchdog_cycles"), std::string::npos) << e;
  EXPECT_EQ(error_of("watchdog_cycles: 300\nlinks: {global_latency: 100}"), "");
}

// The config schema (issue 16 sec. 2, sc_main/config_schema.h): every key is defined once,
// and parsing, error messages, the echo (the sweep's resume key) and the keys table of
// docs/config.md are derived from it. These tests hold the derived parts to the table.
namespace {
void flatten(const nlohmann::json& j, const std::string& prefix, std::set<std::string>& out) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string k = prefix + it.key();
    if (it->is_object() && !it->empty()) flatten(*it, k + ".", out);
    else out.insert(k);
  }
}

// Configurations that between them take every conditional echo path.
// A T-VLB path file for dfly-tiny.yaml's network (i6, its t-* default there), no removals.
std::string tiny_paths_file() {
  static const std::string path = tmp("paths.json");
  const Dragonfly t(DragonflyShape{2, 4, 2, 9, Arrangement::Palmtree});
  TvlbRemovals none;
  none.switches = t.num_switches();
  std::ofstream(path) << tvlb_paths_json(t, TvlbRule{TvlbClass::I6, 0, 1}, none, nullptr).dump();
  return path;
}

std::vector<SimConfig> echo_samples() {
  const std::string cfg = std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/";
  std::vector<SimConfig> out;
  for (const auto& [file, ov] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"dfly-tiny.yaml", {"sim.check_vc_order=true", "sim.scheduler=kernel", "sim.threads=2", "sim.max_memory=4096", "switch.allocator_iterations=2", "switch.crossbar=transfer",
                               "source.when_full=skip", "source.injection_vc=dest",
                               "switch.output_credits=inside", "switch.output_sharing=port", "switch.credit_return=packet",
                               "switch.pipeline_position=output", "switch.ejection_grant=host-idle"}},
           {"dfly-tiny.yaml", {"routing=ugal-l", "ugal.occupancy_scope=vc", "ugal.reevaluate=minimal"}},
           {"dfly-tiny.yaml", {"switch.allocator=islip"}},
           {"dfly-tiny.yaml", {"phases=[{start: 0, load: 0.2}, {start: 500, traffic: adv+1}]"}},
           {"qcn-tiny.yaml", {}},
           {"qcn-tiny.yaml", {"qcn.cp_queue=output", "qcn.local_update_port=minimal", "source.when_full=skip"}},
           {"dfly-tiny.yaml",
            {"routing=ugal-l", "ugal.intermediate=other-groups", "ugal.segment_link=random", "ugal.multiplier=one-vs-two"}},
           {"dfly-tiny.yaml", {"routing=ugal-g", "ugal.vlb_set=i5src", "ugal_g.view=block"}},
           {"dfly-tiny.yaml", {"routing=par", "ugal.vlb_set=i4", "ugal.vlb_percent=60", "ugal.vlb_seed=3"}},
           {"dfly-tiny.yaml", {"routing=t-ugal-g", "tugal.tau_global=1.25", "tugal.tau_local=2"}},
           {"dfly-tiny.yaml", {"routing=t-par", "tugal.paths=" + tiny_paths_file()}},
           {"dfly-tiny.yaml", {"routing=t-par", "tugal.par_set=source"}},
           {"torus-8x8-1port.yaml", {"routing=gal", "topology.terminal_ports=2"}},
           {"torus-8x8-1port.yaml", {"routing=chaos", "chaos.multiqueue=8"}},
           {"torus-8x8-1port.yaml", {"routing=gal", "gal.tie=raise"}},
           {"torus-8x8-1port.yaml", {}},
           {"torus-8x8-1port.yaml", {"routing=min-ad", "torus.dateline=traversal"}},
           {"torus-8x8-1port.yaml", {"topology.kind=mesh"}}})
    out.push_back(load_config(cfg + file, ov));
  // rtl_switches needs an RTL block: sampled where the build has them (the sanitizer build has none).
  if (rtl_available()) out.push_back(load_config(cfg + "dfly-tiny.yaml", {"rtl=[link_arbiter]", "rtl_switches=[4, 1]"}));
  return out;
}
}  // namespace

TEST(ConfigSchema, DocsKeysTableIsTheGeneratedOne) {
  std::ifstream in(std::string(SCFLY_SOURCE_DIR) + "/docs/config.md");
  ASSERT_TRUE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string doc = ss.str();
  const std::string begin = "<!-- keys table: generated by `scfly keys`", end = "<!-- end of keys table -->";
  const size_t b = doc.find(begin), e = doc.find(end);
  ASSERT_NE(b, std::string::npos) << "docs/config.md lost its keys-table markers";
  ASSERT_NE(e, std::string::npos) << "docs/config.md lost its keys-table markers";
  const size_t first = doc.find('\n', b) + 1;
  EXPECT_EQ(doc.substr(first, e - first), keys_markdown())
      << "docs/config.md is stale: replace the table between the markers with the output of `scfly keys`";
  const std::string rbegin = "<!-- routings table: generated by `scfly keys --routings`",
                    rend = "<!-- end of routings table -->";
  const size_t rb = doc.find(rbegin), re = doc.find(rend);
  ASSERT_NE(rb, std::string::npos) << "docs/config.md lost its routings-table markers";
  ASSERT_NE(re, std::string::npos) << "docs/config.md lost its routings-table markers";
  const size_t rfirst = doc.find('\n', rb) + 1;
  EXPECT_EQ(doc.substr(rfirst, re - rfirst), routings_markdown())
      << "docs/config.md is stale: replace the routings table with the output of `scfly keys --routings`";
}

TEST(ConfigSchema, EveryKeyIsEchoedAndNothingElse) {
  std::set<std::string> echoed, defined;
  for (const SimConfig& c : echo_samples()) flatten(config_to_json(c), "", echoed);
  for (const KeySpec& k : config_keys()) defined.insert(k.path);
  if (!rtl_available()) defined.erase("rtl_switches");  // (echo_samples)
  // A key parsed but not echoed would let a resumed sweep merge two different points.
  for (const std::string& k : defined) EXPECT_TRUE(echoed.count(k)) << "defined, never echoed: " << k;
  for (const std::string& k : echoed) EXPECT_TRUE(defined.count(k)) << "echoed, not a key: " << k;
  EXPECT_GT(defined.size(), 80u);
}

TEST(ConfigSchema, TheEchoParsesBackToTheSameConfiguration) {
  for (const SimConfig& c : echo_samples()) {
    const nlohmann::json j = config_to_json(c);
    // JSON is YAML: the echo read as a config file.
    const SimConfig back = parse_config_text(j.dump(), {});
    EXPECT_EQ(config_to_json(back), j) << j.dump();
  }
}

TEST(ConfigSchema, EveryKeyRejectsAWrongTypeNamingKeyAndValue) {
  const std::string cfg = std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/";
  int checked = 0;
  for (const KeySpec& k : config_keys()) {
    const std::string base = k.scope == KeyScope::Torus ? "torus-8x8-1port.yaml" : "dfly-tiny.yaml";
    std::string e;
    try {
      load_config(cfg + base, {k.path + "={x: 1}"});
    } catch (const ConfigError& err) {
      e = err.what();
    }
    EXPECT_NE(e.find("config key '" + k.path + "': value {x: 1} is not allowed; expected "), std::string::npos)
        << k.path << ": " << e;
    ++checked;
  }
  EXPECT_EQ(checked, static_cast<int>(config_keys().size()));
}

// The docs' default column against the value a configuration without the key resolves to,
// for every key whose documented default is a plain value.
TEST(ConfigSchema, DocumentedDefaultsAreTheParsedOnes) {
  int compared = 0;
  for (const char* yaml : {"{}", "topology: {kind: torus}"}) {
    const SimConfig c = parse_config_text(yaml, {});
    const nlohmann::json j = config_to_json(c);
    for (const KeySpec& k : config_keys()) {
      if (!k.applies(c.topo_kind) || (k.echo_if && !k.echo_if(c))) continue;
      if (k.path == "topology.kind") continue;  // given in the second configuration
      const std::string& d = k.default_doc;
      if (d.empty() || d.find(' ') != std::string::npos || d == "auto" || d.find("·") != std::string::npos ||
          d == "packet_phits" || d == "queue_depth" || d == "t_min")
        continue;  // a rule, not a value (e.g. "a·h+1", "auto", "2 (torus/mesh 1)")
      nlohmann::json v = j;
      std::stringstream parts(k.path);
      for (std::string p; std::getline(parts, p, '.');) v = v.at(p);
      const std::string shown = v.is_string() ? v.get<std::string>() : v.dump();
      // numbers: compare as numbers (1 vs 1.0)
      if (v.is_number())
        EXPECT_DOUBLE_EQ(v.get<double>(), std::stod(d)) << k.path << " documented " << d;
      else
        EXPECT_EQ(shown, d) << k.path;
      ++compared;
    }
  }
  EXPECT_GT(compared, 60);
}

// Users have the repository, not the folder beside it where the papers and the notes on them
// were kept while scfly was written: a comment, preset or page that points there (a paper,
// a spec, a review) points at nothing. Cite the paper instead (docs/model.md, References).
// The files are the tracked ones (`git ls-files`); outside a git checkout, the source tree
// without .git and build*.
namespace {
std::vector<std::string> tracked_files(const std::string& root) {
  std::vector<std::string> out;
  std::string quoted = "'";
  for (char ch : root) quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  quoted += "'";
  if (FILE* p = ::popen(("git -C " + quoted + " ls-files -z 2>/dev/null").c_str(), "r")) {
    std::string name;
    for (int ch; (ch = std::fgetc(p)) != EOF;) {
      if (ch != 0) {
        name += static_cast<char>(ch);
      } else if (!name.empty()) {
        out.push_back(name);
        name.clear();
      }
    }
    if (::pclose(p) == 0 && !out.empty()) return out;
    out.clear();
  }
  namespace fs = std::filesystem;
  const fs::path base(root);
  const auto opts = fs::directory_options::skip_permission_denied;
  for (auto it = fs::recursive_directory_iterator(base, opts); it != fs::recursive_directory_iterator();
       ++it) {
    const std::string leaf = it->path().filename().string();
    if (leaf == ".git" || (it.depth() == 0 && leaf.rfind("build", 0) == 0)) {
      it.disable_recursion_pending();
    } else if (it->is_regular_file()) {
      out.push_back(it->path().lexically_relative(base).generic_string());
    }
  }
  return out;
}
}  // namespace

TEST(SourceTree, NoFilePointsIntoTheSharedFolder) {
  const std::set<std::string> exempt = {};
  const std::string needle = std::string("..") + "/shared";  // split: this file is searched too
  const std::vector<std::string> files = tracked_files(SCFLY_SOURCE_DIR);
  ASSERT_GT(files.size(), 100u) << "the source tree " << SCFLY_SOURCE_DIR << " was not listed";
  std::vector<std::string> hits;
  for (const std::string& f : files) {
    if (exempt.count(f)) continue;
    std::ifstream in(std::string(SCFLY_SOURCE_DIR) + "/" + f, std::ios::binary);
    int n = 0;
    for (std::string line; std::getline(in, line);) {
      ++n;
      if (line.find(needle) != std::string::npos)
        hits.push_back(f + ":" + std::to_string(n) + ": " + line);
    }
  }
  std::string list;
  for (const std::string& h : hits) list += "\n  " + h.substr(0, 160);
  EXPECT_TRUE(hits.empty()) << hits.size() << " line(s) point into " << needle
                            << ", which users do not have; cite the paper by authors, title "
                               "and venue (docs/model.md, References) or state the choice in "
                               "words:"
                            << list;
}
