// The ConfigError message a configuration gives ("" when it parses), for the unit tests.
#pragma once

#include <string>
#include <vector>

#include "sc_main/config.h"

namespace scfly {

inline std::string config_error_of(const std::string& yaml, const std::vector<std::string>& ov = {}) {
  try {
    parse_config_text(yaml, ov);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace scfly
