#include "sc_main/report_card.h"
#include "sc_main/exit_codes.h"
#include "sc_main/output_file.h"

#include <algorithm>
#include <tuple>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "sc_main/config.h"
#include "sc_main/results_db.h"
#include "sc_main/sweep.h"

namespace scfly {

namespace {

using nlohmann::json;

enum class RowKind { Saturation, Latency, Stability };

struct Row {
  std::string name, label;
  RowKind kind = RowKind::Saturation;
  YAML::Node set, search;
  int permutations = 0;
  std::string reference;   // stability
  double ratio = 0.95;     // stability
  uint64_t bin_cycles = 1000;  // stability
};

struct Card {
  std::string path, name;
  YAML::Node base, set, columns, search, saturation;
  std::vector<std::string> column_names;
  std::string normalize_to;
  std::vector<Row> rows;
};

[[noreturn]] void bad(const std::string& key, const std::string& why) {
  throw ConfigError("report card key '" + key + "': " + why);
}

void only_keys(const YAML::Node& n, const std::string& where, const std::set<std::string>& allowed) {
  for (const auto& kv : n)
    if (!allowed.count(kv.first.Scalar())) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      throw ConfigError("unknown report card key '" + (where.empty() ? "" : where + ".") + kv.first.Scalar() +
                        "'; allowed: " + list);
    }
}

// A copy of `a` with the keys of `b` merged in (maps recursively; `b` wins).
YAML::Node merged(const YAML::Node& a, const YAML::Node& b) {
  YAML::Node out = YAML::Clone(a && a.IsMap() ? a : YAML::Node(YAML::NodeType::Map));
  if (!b || !b.IsMap()) return out;
  for (const auto& kv : b) {
    const std::string k = kv.first.Scalar();
    if (kv.second.IsMap() && out[k] && out[k].IsMap()) out[k] = merged(out[k], kv.second);
    else out[k] = YAML::Clone(kv.second);
  }
  return out;
}

Card load_card(const std::string& path) {
  const std::string text = read_yaml_file(path, "report card");
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ConfigError("report card '" + path + "': not valid YAML: " + e.what());
  }
  if (!root.IsMap()) throw ConfigError("report card '" + path + "': the top level must be a mapping");
  reject_duplicate_keys(root, "report card '" + path + "'");
  only_keys(root, "", {"name", "base", "set", "columns", "normalize_to", "search", "saturation", "rows"});
  Card c;
  c.path = path;
  c.name = root["name"] && root["name"].IsScalar() ? root["name"].Scalar() : stem_of(path);
  if (!root["base"]) bad("base", "missing; it names the base configuration file");
  c.base = root["base"];
  if (root["set"]) c.set = root["set"];
  if (c.set && !c.set.IsNull() && !c.set.IsMap()) bad("set", "expected a mapping of config keys to values");
  if (root["search"]) c.search = root["search"];
  if (root["saturation"]) c.saturation = root["saturation"];
  const YAML::Node cols = root["columns"];
  if (!cols || !cols.IsMap() || cols.size() == 0)
    bad("columns", "expected a non-empty mapping of column names to config overrides, e.g. {VAL: {routing: val}}");
  c.columns = cols;
  for (const auto& kv : cols) {
    if (!kv.second.IsMap()) bad("columns." + kv.first.Scalar(), "expected a mapping of config overrides");
    c.column_names.push_back(kv.first.Scalar());
  }
  if (root["normalize_to"]) {
    c.normalize_to = root["normalize_to"].Scalar();
    if (std::find(c.column_names.begin(), c.column_names.end(), c.normalize_to) == c.column_names.end())
      bad("normalize_to", "value '" + c.normalize_to + "' is not one of the columns");
  }
  const YAML::Node rows = root["rows"];
  if (!rows || !rows.IsSequence() || rows.size() == 0) bad("rows", "expected a non-empty list of rows");
  std::set<std::string> names;
  for (size_t i = 0; i < rows.size(); ++i) {
    const YAML::Node r = rows[i];
    const std::string where = "rows[" + std::to_string(i) + "]";
    if (!r.IsMap()) bad(where, "expected a mapping {name, kind, set, ...}");
    only_keys(r, where, {"name", "label", "kind", "set", "search", "permutations", "reference", "ratio", "bin_cycles"});
    Row row;
    if (!r["name"] || !r["name"].IsScalar() || r["name"].Scalar().empty()) bad(where + ".name", "missing");
    row.name = r["name"].Scalar();
    for (char ch : row.name)
      if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '-' && ch != '_')
        bad(where + ".name", "value '" + row.name + "' is not allowed; use letters, digits, - and _ (it names a sweep)");
    if (!names.insert(row.name).second) bad(where + ".name", "value '" + row.name + "' is used twice");
    row.label = r["label"] ? r["label"].Scalar() : row.name;
    const std::string kind = r["kind"] ? r["kind"].Scalar() : "";
    if (kind == "saturation") row.kind = RowKind::Saturation;
    else if (kind == "latency") row.kind = RowKind::Latency;
    else if (kind == "stability") row.kind = RowKind::Stability;
    else bad(where + ".kind", "value '" + kind + "' is not allowed; expected saturation, latency or stability");
    if (r["set"]) row.set = r["set"];
    if (r["search"]) row.search = r["search"];
    if (r["search"] && row.kind != RowKind::Saturation) bad(where + ".search", "only a saturation row searches");
    if (r["permutations"]) {
      if (row.kind != RowKind::Saturation) bad(where + ".permutations", "only a saturation row averages permutations");
      int n = 0;
      if (!YAML::convert<int>::decode(r["permutations"], n) || n < 1 || n > 100000)
        bad(where + ".permutations", "value '" + r["permutations"].Scalar() + "' is not allowed; expected 1-100000");
      row.permutations = n;
    }
    if (row.kind == RowKind::Stability) {
      if (!r["reference"]) bad(where + ".reference", "missing; a stability row names the saturation row it compares with");
      row.reference = r["reference"].Scalar();
      if (r["ratio"] && (!YAML::convert<double>::decode(r["ratio"], row.ratio) || !(row.ratio > 0) || row.ratio > 1))
        bad(where + ".ratio", "value '" + r["ratio"].Scalar() + "' is not allowed; expected a number in (0, 1]");
      if (r["bin_cycles"]) {
        int64_t b = 0;
        if (!YAML::convert<int64_t>::decode(r["bin_cycles"], b) || b < 1)
          bad(where + ".bin_cycles", "value '" + r["bin_cycles"].Scalar() + "' is not allowed; expected cycles >= 1");
        row.bin_cycles = static_cast<uint64_t>(b);
      }
    } else if (r["reference"] || r["ratio"] || r["bin_cycles"]) {
      bad(where, "reference, ratio and bin_cycles belong to a stability row");
    }
    c.rows.push_back(row);
  }
  for (auto it = c.rows.begin(); it != c.rows.end(); ++it) {
    if (it->kind != RowKind::Stability) continue;
    const auto ref = std::find_if(c.rows.begin(), it, [&](const Row& x) { return x.name == it->reference; });
    if (ref == it || ref->kind != RowKind::Saturation || ref->permutations)
      bad("rows." + it->name + ".reference",
          "value '" + it->reference + "' is not a saturation row without permutations above this row");
  }
  return c;
}

// Which permutation seeds to run: all, a prefix 1..N, or a range A..B (--permutations).
struct PermSelection {
  int first = 1, last = 0;  // last 0: up to the row's count
  bool range = false;       // A-B (strict: B must not pass the row's count)
};

PermSelection parse_permutations(const std::string& text) {
  PermSelection sel;
  if (text.empty()) return sel;
  const auto bad_value = [&]() -> ConfigError {
    return ConfigError("--permutations: value '" + text +
                       "' is not allowed; expected N (seeds 1..N) or A-B (seeds A..B) with 1 <= A <= B <= 100000");
  };
  const auto number = [&](const std::string& t) {
    if (t.empty() || t.size() > 6 || !std::all_of(t.begin(), t.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
      throw bad_value();
    const int v = std::stoi(t);
    if (v < 1 || v > 100000) throw bad_value();
    return v;
  };
  const size_t dash = text.find('-');
  if (dash == std::string::npos) {
    sel.last = number(text);
  } else {
    sel.range = true;
    sel.first = number(text.substr(0, dash));
    sel.last = number(text.substr(dash + 1));
    if (sel.first > sel.last) throw bad_value();
  }
  return sel;
}

// The seeds [first, last] of a permutation row under `sel`.
std::pair<int, int> row_seeds(const Row& row, const PermSelection& sel) {
  if (!row.permutations) return {0, 0};
  if (sel.last == 0) return {1, row.permutations};
  if (!sel.range) return {1, std::min(sel.last, row.permutations)};
  if (sel.last > row.permutations)
    throw ConfigError("--permutations: value '" + std::to_string(sel.first) + "-" + std::to_string(sel.last) +
                      "' is not allowed for row '" + row.name + "', which has " +
                      std::to_string(row.permutations) + " permutations; expected A-B with B <= " +
                      std::to_string(row.permutations));
  return {sel.first, sel.last};
}

// Keeps only the rows named in `names` (in the card's order); a stability row needs its
// reference row too.
void select_rows(Card& c, const std::vector<std::string>& names) {
  if (names.empty()) return;
  std::string all;
  for (const Row& r : c.rows) all += (all.empty() ? "" : ", ") + r.name;
  std::set<std::string> want;
  for (const std::string& n : names) {
    if (std::none_of(c.rows.begin(), c.rows.end(), [&](const Row& r) { return r.name == n; }))
      throw ConfigError("--rows: value '" + n + "' is not a row of the card; rows: " + all);
    want.insert(n);
  }
  for (const Row& r : c.rows)
    if (want.count(r.name) && r.kind == RowKind::Stability && !want.count(r.reference))
      throw ConfigError("--rows: row '" + r.name + "' compares with row '" + r.reference +
                        "'; add '" + r.reference + "' to --rows");
  std::vector<Row> kept;
  for (const Row& r : c.rows)
    if (want.count(r.name)) kept.push_back(r);
  // Swap, never assign: assigning a YAML::Node writes through to the node it refers to, so
  // element-wise assignment would overwrite one row's settings with another's.
  c.rows.swap(kept);
}

// The sweep of one row, built as a sweep document and parsed by the sweep parser (so every
// key is checked there). Permutation `pI` has seed I.
SweepSpec row_sweep(const Card& c, const Row& row, std::pair<int, int> seeds) {
  YAML::Node doc(YAML::NodeType::Map);
  doc["name"] = c.name + "-" + row.name;
  doc["base"] = c.base;
  YAML::Node set = merged(c.set, row.set);
  if (row.kind == RowKind::Stability) set = merged(set, YAML::Load("{timeseries: {bin_cycles: " + std::to_string(row.bin_cycles) + "}}"));
  if (set.size()) doc["set"] = set;
  YAML::Node axes(YAML::NodeType::Map);
  axes["column"] = YAML::Clone(c.columns);
  if (row.permutations) {
    YAML::Node perms(YAML::NodeType::Map);
    for (int i = seeds.first; i <= seeds.second; ++i) perms["p" + std::to_string(i)]["seed"] = i;
    axes["perm"] = perms;
  }
  doc["axes"] = axes;
  if (row.kind == RowKind::Saturation) {
    YAML::Node s = merged(YAML::Load("{low: 0.05, high: 1.0, resolution: 0.01}"), c.search);
    doc["saturation_search"] = merged(s, row.search);
  }
  if (c.saturation && !c.saturation.IsNull()) doc["saturation"] = c.saturation;
  return parse_sweep(doc, c.path);
}

std::string fmt(double x, int digits = 3) {
  char b[32];
  std::snprintf(b, sizeof b, "%.*f", digits, x);
  return b;
}

}  // namespace

int run_report_card(const std::string& path, const ReportCardOptions& opt) {
  Card card;
  std::vector<SweepSpec> specs;
  std::vector<std::vector<SweepPoint>> points;
  std::vector<std::pair<int, int>> seeds;  // per row: the permutation seeds run
  try {
    card = load_card(path);
    // The outputs as the real run would write them, before any sweep (also with --dry-run).
    for (const auto& [option, out] : {std::pair<std::string, std::string>{"--md", opt.md_path}, {"--json", opt.json_path}})
      if (!out.empty())
        if (const std::string why = output_problem(out); !why.empty()) throw ConfigError(option + ": " + why);
    select_rows(card, opt.rows);
    const PermSelection sel = parse_permutations(opt.permutations);
    for (const Row& row : card.rows) {
      seeds.push_back(row_seeds(row, sel));
      specs.push_back(row_sweep(card, row, seeds.back()));
      points.push_back(expand_sweep(specs.back()));
    }
  } catch (const ConfigError& e) {
    std::cerr << "scfly: error: " << e.what() << "\n";
    return 2;
  }
  SweepOptions so;
  so.db_path = opt.db_path.empty() ? card.name + ".sqlite" : opt.db_path;
  so.jobs = opt.jobs;
  so.dry_run = opt.dry_run;
  so.progress_bar = opt.progress_bar;
  int worst = 0;
  for (size_t i = 0; i < specs.size(); ++i) {
    std::cerr << "report card " << card.name << ": row " << card.rows[i].name << " (sweep " << specs[i].name << ")\n";
    const int rc = run_sweep(specs[i], so);
    if (rc == 130 || rc == 2) return rc;
    worst = std::max(worst, rc);
  }
  if (opt.dry_run) return 0;

  // Gather every cell from the database.
  json out = {{"name", card.name}, {"columns", card.column_names}, {"normalize_to", card.normalize_to},
              {"rows", json::array()}};
  std::map<std::string, std::map<std::string, double>> sat;  // row -> column -> throughput
  try {
    ResultsDb db(so.db_path);
    for (size_t i = 0; i < specs.size(); ++i) {
      const Row& row = card.rows[i];
      json r = {{"name", row.name}, {"label", row.label}, {"values", json::object()}};
      // The column (and permutation seed) of every series and point.
      std::map<std::string, std::pair<std::string, int>> series_of;  // series -> (column, seed)
      for (const SweepPoint& p : points[i]) {
        const std::string perm = p.labels.value("perm", "");
        series_of[p.series] = {p.labels.value("column", ""), perm.size() > 1 ? std::stoi(perm.substr(1)) : 0};
      }
      if (row.kind == RowKind::Saturation) {
        r["kind"] = "saturation";
        if (row.permutations) r["seed_range"] = {seeds[i].first, seeds[i].second};
        std::map<std::string, std::vector<std::pair<int, json>>> per_col;  // column -> (seed, value)
        for (const json& s : db.saturation_rows(specs[i].name)) {
          const auto it = series_of.find(s.value("series", ""));
          if (it == series_of.end()) continue;
          per_col[it->second.first].emplace_back(it->second.second, s["saturation_throughput"]);
        }
        const size_t want = row.permutations ? static_cast<size_t>(seeds[i].second - seeds[i].first + 1) : 1;
        for (const std::string& col : card.column_names) {
          auto& v = per_col[col];
          std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
          json cell;
          std::vector<double> vals;
          for (const auto& x : v)
            if (x.second.is_number()) vals.push_back(x.second.get<double>());
          if (row.permutations) {
            cell["permutations"] = json::array();
            cell["seeds"] = json::array();
            for (const auto& x : v) {
              cell["permutations"].push_back(x.second);
              cell["seeds"].push_back(x.first);
            }
            cell["of"] = row.permutations;
          }
          if (!vals.empty() && vals.size() == v.size() && v.size() == want) {
            double sum = 0;
            for (double x : vals) sum += x;
            cell["value"] = sum / static_cast<double>(vals.size());
            cell["min"] = *std::min_element(vals.begin(), vals.end());
            cell["max"] = *std::max_element(vals.begin(), vals.end());
            sat[row.name][col] = cell["value"].get<double>();
          } else {
            cell["value"] = nullptr;  // not (fully) searched, or below the search's low load
          }
          r["values"][col] = cell;
        }
      } else {
        r["kind"] = row.kind == RowKind::Latency ? "latency" : "stability";
        for (const SweepPoint& p : points[i]) {
          const std::string col = p.labels.value("column", "");
          const json v = db.point_values(p.hash, {"status", "accepted_load", "latency_avg", "network_latency_avg",
                                                  "hops_avg", "hops_histogram"});
          json cell;
          if (v.empty() || v.value("status", json()) != "ok") {
            cell["value"] = nullptr;
          } else if (row.kind == RowKind::Latency) {
            cell = {{"value", v["latency_avg"]}, {"network_latency_avg", v["network_latency_avg"]},
                    {"hops_avg", v["hops_avg"]}, {"hops_histogram", v["hops_histogram"]},
                    {"accepted_load", v["accepted_load"]}};
          } else {
            const std::vector<json> acc = db.timeseries_column(v["id"].get<int64_t>(), "accepted_load");
            const std::vector<json> t0 = db.timeseries_column(v["id"].get<int64_t>(), "t_start");
            std::vector<double> window;
            for (size_t b = 0; b < acc.size() && b < t0.size(); ++b)
              if (acc[b].is_number() && t0[b].get<double>() >= static_cast<double>(p.cfg.warmup_cycles))
                window.push_back(acc[b].get<double>());
            double first = 0, last = 0;
            const size_t q = std::max<size_t>(1, window.size() / 4);
            for (size_t b = 0; b < q && b < window.size(); ++b) first += window[b] / static_cast<double>(q);
            for (size_t b = window.size() >= q ? window.size() - q : 0; b < window.size(); ++b)
              last += window[b] / static_cast<double>(q);
            const double accepted = v["accepted_load"].get<double>();
            const auto ref = sat[row.reference].find(col);
            cell = {{"accepted_load", accepted}, {"first_quarter", first}, {"last_quarter", last},
                    {"series", acc}, {"bin_cycles", row.bin_cycles}, {"offered_load", p.cfg.load}};
            if (ref != sat[row.reference].end() && ref->second > 0) {
              const double ratio = accepted / ref->second;
              cell["reference"] = ref->second;
              cell["ratio"] = ratio;
              cell["stable"] = ratio >= row.ratio && last >= row.ratio * first;
              cell["value"] = ratio;
            } else {
              cell["value"] = nullptr;
            }
          }
          r["values"][col] = cell;
        }
      }
      out["rows"].push_back(r);
    }
  } catch (const DbError& e) {
    std::cerr << "scfly: error: " << e.what() << "\n";
    return e.exit_code();
  }

  // The Markdown table: absolute values, and ratios to normalize_to.
  std::ostringstream md;
  md << "| " << card.name << " |";
  for (const auto& c : card.column_names) md << " " << c << " |";
  md << "\n|---|";
  for (size_t k = 0; k < card.column_names.size(); ++k) md << "---|";
  md << "\n";
  for (const json& r : out["rows"]) {
    md << "| " << r["label"].get<std::string>() << " |";
    const json& vals = r["values"];
    const json norm = card.normalize_to.empty() ? json() : vals[card.normalize_to].value("value", json());
    for (const auto& col : card.column_names) {
      const json& cell = vals[col];
      const json v = cell.value("value", json());
      std::string text;
      if (!v.is_number()) {
        text = "-";
      } else if (r["kind"] == "stability") {
        text = std::string(cell.value("stable", false) ? "Yes" : "No") + " (" + fmt(cell["accepted_load"].get<double>()) +
               " = " + fmt(v.get<double>(), 2) + " x sat.)";
      } else {
        text = fmt(v.get<double>(), r["kind"] == "latency" ? 2 : 3);
        if (norm.is_number() && norm.get<double>() > 0)
          text += " (" + fmt(v.get<double>() / norm.get<double>(), 2) + ")";
        if (cell.contains("min") && cell.contains("permutations")) {
          text += " [" + fmt(cell["min"].get<double>()) + "-" + fmt(cell["max"].get<double>()) + "]";
          const size_t n = cell["permutations"].size(), of = cell["of"].get<size_t>();
          const int first = r["seed_range"][0].get<int>();
          if (first > 1)
            text += " seeds " + std::to_string(first) + "-" + std::to_string(r["seed_range"][1].get<int>()) + " of " +
                    std::to_string(of);
          else if (n < of)
            text += " " + std::to_string(n) + " of " + std::to_string(of);
        }
      }
      md << " " << text << " |";
    }
    md << "\n";
  }
  std::cout << "\nreport card " << card.name;
  if (!card.normalize_to.empty()) std::cout << " (in brackets: ratio to " << card.normalize_to << ")";
  std::cout << "\n\n" << md.str();
  bool written = true;
  for (const auto& [option, file, text] : {std::tuple<std::string, std::string, std::string>{"--md", opt.md_path, md.str()},
                                           {"--json", opt.json_path, out.dump(1) + "\n"}})
    if (!file.empty())
      if (const std::string why = write_output(file, text); !why.empty()) {
        std::cerr << "scfly: error: " << option << ": " << why << "\n";
        written = false;
      }
  if (!written) return kExitWriteFailed;
  return worst;
}

}  // namespace scfly
