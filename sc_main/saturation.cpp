#include "sc_main/saturation.h"

#include <algorithm>
#include <cstdint>
#include <map>

namespace scfly {

std::vector<LoadLevel> load_levels(const std::vector<SeriesSample>& samples) {
  std::map<double, LoadLevel> by_load;
  for (const SeriesSample& s : samples) {
    LoadLevel& l = by_load[s.load];
    l.load = s.load;
    ++l.runs;
    if (!s.ok) continue;
    ++l.ok;
    l.accepted += s.accepted;
    l.latency += s.latency;
  }
  std::vector<LoadLevel> out;
  for (auto& [load, l] : by_load) {
    if (l.ok) {
      l.accepted /= l.ok;
      l.latency /= l.ok;
    }
    out.push_back(l);
  }
  return out;
}

bool past_saturation(const LoadLevel& l, double zero_load_latency, const SaturationCriteria& c) {
  return l.ok < l.runs || l.latency > c.latency_factor * zero_load_latency ||
         l.accepted < c.accept_ratio * l.load;
}

SaturationSummary summarize_saturation(const std::vector<SeriesSample>& samples,
                                       const SaturationCriteria& c) {
  SaturationSummary s;
  s.points = static_cast<int>(samples.size());
  const std::vector<LoadLevel> levels = load_levels(samples);
  s.levels = static_cast<int>(levels.size());
  if (levels.empty()) return s;
  s.zero_load_latency = levels.front().ok ? levels.front().latency : 0;
  for (const LoadLevel& l : levels) {
    if (l.ok && l.accepted > s.saturation_throughput) {
      s.saturation_throughput = l.accepted;
      s.saturation_load = l.load;
    }
    if (s.knee_load < 0 && past_saturation(l, s.zero_load_latency, c))
      s.knee_load = l.load;
  }
  return s;
}

size_t last_useful_level(const std::vector<LoadLevel>& complete_prefix,
                         const SaturationCriteria& c, int extra_levels) {
  if (complete_prefix.empty()) return SIZE_MAX;
  const double zero = complete_prefix.front().latency;
  for (size_t i = 0; i < complete_prefix.size(); ++i)
    if (past_saturation(complete_prefix[i], zero, c))
      return i + static_cast<size_t>(std::max(0, extra_levels));
  return SIZE_MAX;
}

}  // namespace scfly
