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
// `given`, when not null, receives the keys the file or an override set (dotted paths, in
// schema order; defaults are not given), for inert_keys (config_schema.h).
SimConfig load_config(const std::string& path, const std::vector<std::string>& overrides,
                      std::vector<std::string>* given = nullptr);
// Same from YAML text (tests).
SimConfig parse_config_text(const std::string& yaml, const std::vector<std::string>& overrides,
                            std::vector<std::string>* given = nullptr);
// The warning lines (without "scfly: warning: ") of the keys among `given` that `c` never
// reads: one per key (config_schema.h, inert_keys).
std::vector<std::string> inert_key_warnings(const SimConfig& c, const std::vector<std::string>& given);

// Limits on every YAML document scfly reads (configs, overrides, sweep files, report cards):
// far above any real file, low enough that a hostile one is refused at once.
inline constexpr uint64_t kYamlMaxFileBytes = 8u << 20;  // 8 MiB
inline constexpr size_t kYamlMaxNodes = 100000;          // counting each use of an alias
inline constexpr size_t kYamlMaxDepth = 64;              // nesting levels
inline constexpr size_t kYamlMaxScalar = 65536;          // characters in one value

// Throws ConfigError naming the first mapping key given twice in `n` (yaml-cpp would keep
// both and answer lookups with the first), a recursive alias, or a document beyond the limits
// above; `origin` names the file in the message.
void reject_duplicate_keys(const YAML::Node& n, const std::string& origin, const std::string& where = "");

// The text of a YAML file of at most kYamlMaxFileBytes; ConfigError names `what` ("sweep
// file") and the path when it is missing, not a regular file, too large or unreadable.
std::string read_yaml_file(const std::string& path, const std::string& what);

// A Verilated block the `rtl` key (--rtl) accepts: its name, the networks it belongs to
// and the routings it co-simulates with (a routing block replaces one routing's unit, so
// it needs that routing; the switch's blocks, RtlNet::Any, serve every network and
// routing, and `routings` then says what the block is). scfly's own blocks, then one per
// routing plug-in with an RTL variant (RoutingMechanism::make_rtl), named as the mechanism:
// its own Verilated decision, which needs no SCFLY_RTL build.
enum class RtlNet : uint8_t { Dragonfly, Torus, Any };  // Torus: torus and mesh
struct RtlBlockInfo {
  std::string name;
  RtlNet net;
  std::string routings;
  bool plugin = false;  // a routing plug-in's RTL variant
};
std::vector<RtlBlockInfo> rtl_blocks();
// "min_route, acor, ..." : the blocks a Dragonfly (1) or torus/mesh (0) network accepts, or
// all (-1).
std::string rtl_block_names(int dragonfly);

// The resolved configuration, with the same keys the YAML uses.
nlohmann::json config_to_json(const SimConfig& c);

// Buffer-sizing sanity: one message per port class whose VC buffer is shorter than the
// credit round trip of its link, with the throughput cap this implies.
std::vector<std::string> sizing_warnings(const SimConfig& c);

}  // namespace scfly
