// threshold-val's RTL variant: the decision of threshold_val.sv, Verilated by this
// example's CMakeLists.txt (PREFIX Vthreshold_val), one model per switch.
#include <memory>
#include <string>
#include <vector>

#include "Vthreshold_val.h"
#include "threshold_val.h"

namespace threshold_val {

// A context of its own per model too: no state is shared between the threads that route
// different switches.
struct RtlDecider::Models {
  std::vector<std::unique_ptr<VerilatedContext>> contexts;
  std::vector<std::unique_ptr<Vthreshold_val>> per_switch;
};

RtlDecider::RtlDecider(int switches) : m_models(std::make_unique<Models>()) {
  for (int s = 0; s < switches; ++s) {
    m_models->contexts.push_back(std::make_unique<VerilatedContext>());
    m_models->per_switch.push_back(std::make_unique<Vthreshold_val>(m_models->contexts.back().get(),
                                                                    ("threshold_val_sw" + std::to_string(s)).c_str()));
  }
}

RtlDecider::~RtlDecider() = default;

bool RtlDecider::operator()(int sw, bool at_source, bool ejects, uint32_t queued, uint32_t threshold,
                            bool on_valiant) const {
  Vthreshold_val& m = *m_models->per_switch.at(static_cast<size_t>(sw));
  m.at_source = at_source;
  m.ejects = ejects;
  m.queued = queued;
  m.threshold = threshold;
  m.on_valiant = on_valiant;
  m.eval();
  return m.valiant != 0;
}

}  // namespace threshold_val
