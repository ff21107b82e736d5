// What `scfly run --fault` injects and where (rtl_models/switch/fault_link.h has the
// faults' meaning and the channel that injects them).
#pragma once

#include <cstdint>
#include <string>

namespace scfly {

enum class FaultKind : uint8_t { None, ExtraCredit, DoubleCredits, LoseCredits, WrongVc, DropPause, DupPhit, ClearGlobalDone };

struct FaultSpec {
  FaultKind kind = FaultKind::None;
  int sw = 0, port = 0, vc = 0;
  uint64_t cycle = 0;
};

// "KIND:SWITCH:PORT:VC:CYCLE", e.g. "lose-credits:3:5:0:1000"; throws std::invalid_argument
// naming what is wrong.
FaultSpec parse_fault(const std::string& s);
const char* fault_kinds();
// The kind's name as --fault spells it ("lose-credits"); "none" for FaultKind::None.
const char* to_string(FaultKind k);
// The spec as --fault spells it: "KIND:SWITCH:PORT:VC:CYCLE".
std::string to_string(const FaultSpec& f);

}  // namespace scfly
