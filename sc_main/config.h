// The run configuration: one typed struct per area, parsed from YAML and validated once,
// here at the edge. Nothing deeper in the simulator reads YAML or string keys.
//
// Errors name the key, the offending value and what is allowed (ConfigError); the CLI
// turns them into exit code 2.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tb/sim_config.h"

#include <yaml-cpp/yaml.h>

namespace scfly {

struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// "val rrg-sw restricted recompute", "acor-switch 3l (HI 500, IT 15/500, DT 5/15)", "min".
std::string routing_summary(const SimConfig& c);
// "un" or "un@0 -> adv+1@200000" for summaries.
std::string traffic_summary(const SimConfig& c);

// Loads a YAML file, applies `key=value` overrides (dotted paths), parses and validates.
SimConfig load_config(const std::string& path, const std::vector<std::string>& overrides);
// Same from YAML text (tests).
SimConfig parse_config_text(const std::string& yaml, const std::vector<std::string>& overrides);

// Throws ConfigError naming the first mapping key given twice in `n` (yaml-cpp would keep
// both and answer lookups with the first); `origin` names the file in the message.
void reject_duplicate_keys(const YAML::Node& n, const std::string& origin, const std::string& where = "");

// The resolved configuration, with the same keys the YAML uses.
nlohmann::json config_to_json(const SimConfig& c);

// Buffer-sizing sanity: one message per port class whose VC buffer is shorter than the
// credit round trip of its link, with the throughput cap this implies.
std::vector<std::string> sizing_warnings(const SimConfig& c);

}  // namespace scfly
