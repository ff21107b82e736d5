// The config schema: every configuration key defined once (issue 16 sec. 2). A key's entry
// holds its dotted name, its type, its range or choices with a unit, its default, the
// topologies it exists on, its documentation line, where its value goes in SimConfig and
// how it is echoed. Everything else is derived from this one table:
//  - parsing and the error messages naming key, value and what is allowed (config.cpp);
//  - unknown-key errors with the keys allowed at that level;
//  - the JSON `config` echo, which is also the sweep's resume key (its hash names a point);
//  - the keys table of docs/config.md (`scfly keys --markdown`; a test fails when the file
//    differs from it).
// Rules that relate several keys (t_min <= t_max, PFC headroom, a frame that must fit every
// buffer, ...) are checked after every key is read (config.cpp, validate()); they are rules
// about a configuration, not definitions of a key.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "tb/sim_config.h"

namespace scfly {

enum class KeyKind {
  Integer,  // a whole number in [lo, hi]
  Real,     // a finite number in (lo, hi], or [lo, hi]
  Boolean,  // true or false
  Choice,   // one of `choices`
  Text,     // a string checked by the key's own rule (traffic patterns, 1/D)
  Buffer,   // a depth per VC in phits, or bytes ("18KB", "4500B") rounded up to phits
  VcCount,  // 1-16 VCs or "auto" (the routing's minimum; read as 0)
  Custom    // a structured value (phases, rtl) read by the key's own parser
};

// Which topologies have the key; on the others it is an unknown key.
// Plugin: the plug-in topology KeySpec::plugin_kind (topologies/registry.h).
enum class KeyScope { Any, Dragonfly, Torus /* torus and mesh */, Plugin };

struct KeyChoice {
  std::string value;
  std::string note;  // short gloss in error messages ("" = none)
};

// A parsed value of any kind but Custom.
struct KeyValue {
  int64_t i = 0;     // Integer, Buffer (phits), VcCount (0 = auto)
  double r = 0;      // Real
  bool b = false;    // Boolean
  std::string s;     // Choice, Text
};

// The configuration being built, in key order.
struct ParseState {
  SimConfig c;
  std::unique_ptr<Topology> topo;  // from the topology.* keys on
  int64_t pb_delay = -1;           // -1: the local link latency (resolved at the end)
};

struct KeySpec {
  std::string path;
  KeyKind kind = KeyKind::Integer;
  KeyScope scope = KeyScope::Any;
  TopologyKind plugin_kind = TopologyKind::Dragonfly;  // scope Plugin: which
  int64_t lo = 0, hi = 0;           // Integer
  double rlo = 0, rhi = 0;          // Real
  bool rlo_included = false;        // Real: [rlo, rhi] instead of (rlo, rhi]
  std::string unit;                 // after the range in messages and docs, e.g. "cycles"
  std::vector<KeyChoice> choices;   // Choice
  std::string expected;             // the "expected ..." text when the derived one will not do
  // Docs (the keys table): default, allowed (derived from range/choices when empty), meaning.
  std::string default_doc, allowed_doc, doc;

  // The value when the key is absent (may depend on keys read before it).
  std::function<KeyValue(const ParseState&)> def;
  // Kind-specific upper bound that depends on keys read before (Real; e.g. the load).
  std::function<double(const ParseState&)> rhi_of;
  std::function<std::string(const ParseState&)> expected_of;
  // An extra rule on a value of the right type: "" or the whole error message.
  std::function<std::string(const ParseState&, const KeyValue&)> check;
  // Stores the value; Custom keys read their node instead (throwing ConfigError).
  std::function<void(ParseState&, const KeyValue&)> set;
  std::function<void(ParseState&, const YAML::Node&)> custom;
  // The echo of the resolved value; echo_if, when given, says whether the key is echoed
  // (keys added after sweep databases existed are echoed only away from their old behaviour,
  // so that every stored point keeps its hash).
  std::function<nlohmann::json(const SimConfig&)> echo;
  std::function<bool(const SimConfig&)> echo_if;
  std::string echo_note;  // docs: when the key is not always echoed
  // Changes no route and no VC (load, windows, latencies, ...): left out of the shape that
  // keys the cached deadlock verdict (sc_main/deadlock_validation.h). Conservative: a key
  // not marked is part of the shape.
  bool run_only = false;
  // Whether this configuration reads the key at all: "" when it does, else what makes it
  // inert ("routing min", "routing min-cond with min_cond.trigger pause"); null: every
  // configuration reads it. A key the user gives that this configuration never reads is
  // named in a warning (inert_key_warning), never an error: one base file serves a sweep
  // over routings. used_by: who reads it ("min-cond with min_cond.trigger qcn"), for that
  // warning and the docs. Kept honest by tests/test_hostile.cpp (InertKeys): every key
  // called inert, set away from its default, leaves a run's results unchanged.
  std::function<std::string(const SimConfig&)> inert_with;
  std::string used_by;

  bool applies(TopologyKind k) const {
    switch (scope) {
      case KeyScope::Any: return true;
      case KeyScope::Dragonfly: return k == TopologyKind::Dragonfly;
      case KeyScope::Torus: return k == TopologyKind::Torus || k == TopologyKind::Mesh;
      case KeyScope::Plugin: return k == plugin_kind;
    }
    return false;
  }
};

// Every key, in the order they are read (which is also the docs' order).
const std::vector<KeySpec>& config_keys();

// The "allowed" text of a key (docs) and the "expected ..." text of its error message.
std::string allowed_text(const KeySpec& k);
std::string expected_text(const KeySpec& k, const ParseState& s);

// The echo of the keys that shape routes and VCs (every key not run_only, and not inert in
// this configuration: inert_with): what a deadlock verdict depends on.
nlohmann::json routing_shape_json(const SimConfig& c);

// The keys among `given` (dotted paths) that configuration `c` never reads (KeySpec::inert_with),
// in schema order.
std::vector<std::string> inert_keys(const SimConfig& c, const std::vector<std::string>& given);
// "config key 'val.policy' has no effect with routing min; it is read by val (Dragonfly), ..."
std::string inert_key_warning(const SimConfig& c, const std::string& key);

// The keys table of docs/config.md, generated (Markdown).
std::string keys_markdown();
// The registered routing mechanisms (routing_units/registry.h) as a Markdown table: name,
// topologies, minimum VCs, what the switch must provide, plug-in or built-in, its line of doc.
std::string routings_markdown();

// The readers of the structured keys (config.cpp).
void parse_phases(ParseState& s, const YAML::Node& n);
void parse_rtl(ParseState& s, const YAML::Node& n);
void parse_rtl_switches(ParseState& s, const YAML::Node& n);

}  // namespace scfly
