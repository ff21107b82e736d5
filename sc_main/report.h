// Results: the JSON document (config echo + metrics + run facts) and the human summary.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sc_main/config.h"
#include "tb/network.h"

namespace scfly {

nlohmann::json metrics_to_json(const Metrics& m);
nlohmann::json timeseries_to_json(const TimeSeries& t);
nlohmann::json result_json(const SimConfig& cfg, const RunOutcome& r,
                           const std::vector<std::string>& warnings);
std::string human_summary(const SimConfig& cfg, const RunOutcome& r);

}  // namespace scfly
