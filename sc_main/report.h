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

// --fault (r.fault.kind not None): the summary's line "fault  KIND at switch S port P VC V
// from cycle C: injected N events"; the run's error when the fault injected nothing (it
// never fired: what would have had to cross the channel, and why it may not have); and
// a warning when it fired and no check stopped the run ("" otherwise).
std::string fault_summary(const RunOutcome& r);
std::string fault_never_fired(const SimConfig& cfg, const RunOutcome& r);
std::string fault_undetected(const SimConfig& cfg, const RunOutcome& r);

}  // namespace scfly
