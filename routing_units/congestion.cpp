#include "routing_units/congestion.h"

namespace scfly {

const char* to_string(QueueMeasure m) {
  switch (m) {
    case QueueMeasure::Output: return "output";
    case QueueMeasure::Credits: return "credits";
    case QueueMeasure::Both: return "both";
  }
  return "?";
}

bool parse_measure(const std::string& s, QueueMeasure& out) {
  for (QueueMeasure m : {QueueMeasure::Output, QueueMeasure::Credits, QueueMeasure::Both})
    if (s == to_string(m)) {
      out = m;
      return true;
    }
  return false;
}

}  // namespace scfly
