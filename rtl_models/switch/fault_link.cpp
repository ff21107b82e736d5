#include "rtl_models/switch/fault_link.h"

#include <climits>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace scfly {

const char* fault_kinds() { return "extra-credit, double-credits, lose-credits, wrong-vc, drop-pause, dup-phit, clear-global-done"; }

const char* to_string(FaultKind k) {
  switch (k) {
    case FaultKind::None: return "none";
    case FaultKind::ExtraCredit: return "extra-credit";
    case FaultKind::DoubleCredits: return "double-credits";
    case FaultKind::LoseCredits: return "lose-credits";
    case FaultKind::WrongVc: return "wrong-vc";
    case FaultKind::DropPause: return "drop-pause";
    case FaultKind::DupPhit: return "dup-phit";
    case FaultKind::ClearGlobalDone: return "clear-global-done";
  }
  return "none";
}

std::string to_string(const FaultSpec& f) {
  return std::string(to_string(f.kind)) + ":" + std::to_string(f.sw) + ":" + std::to_string(f.port) + ":" +
         std::to_string(f.vc) + ":" + std::to_string(f.cycle);
}

FaultSpec parse_fault(const std::string& s) {
  std::vector<std::string> f;
  std::stringstream ss(s);
  for (std::string part; std::getline(ss, part, ':');) f.push_back(part);
  const std::string usage = "--fault '" + s + "': expected KIND:SWITCH:PORT:VC:CYCLE with KIND one of " +
                            fault_kinds() + " (e.g. lose-credits:0:5:0:1000)";
  if (f.size() != 5) throw std::invalid_argument(usage);
  FaultSpec out;
  if (f[0] == "extra-credit") out.kind = FaultKind::ExtraCredit;
  else if (f[0] == "double-credits") out.kind = FaultKind::DoubleCredits;
  else if (f[0] == "lose-credits") out.kind = FaultKind::LoseCredits;
  else if (f[0] == "wrong-vc") out.kind = FaultKind::WrongVc;
  else if (f[0] == "drop-pause") out.kind = FaultKind::DropPause;
  else if (f[0] == "dup-phit") out.kind = FaultKind::DupPhit;
  else if (f[0] == "clear-global-done") out.kind = FaultKind::ClearGlobalDone;
  else throw std::invalid_argument(usage);
  try {
    size_t used = 0;
    long long v[4];
    for (int i = 0; i < 4; ++i) {
      v[i] = std::stoll(f[static_cast<size_t>(i) + 1], &used);
      if (used != f[static_cast<size_t>(i) + 1].size() || v[i] < 0 || (i < 3 && v[i] > INT_MAX))
        throw std::invalid_argument("");
    }
    out.sw = static_cast<int>(v[0]);
    out.port = static_cast<int>(v[1]);
    out.vc = static_cast<int>(v[2]);
    out.cycle = static_cast<uint64_t>(v[3]);
  } catch (const std::exception&) {
    throw std::invalid_argument(usage + "; SWITCH, PORT, VC and CYCLE are non-negative integers");
  }
  return out;
}

}  // namespace scfly
