// threshold-val's decision rule, shared by its C++ policy, its RTL variant and the lockstep
// test (threshold_val.cpp, threshold_val.sv, lockstep.cpp).
#pragma once

#include <cstdint>
#include <memory>

namespace threshold_val {

// At the source (the head arrived on a host port): Valiant when the packet does not eject
// here and the minimal port's queue holds more than `threshold` phits. In transit: the path
// chosen at the source (`on_valiant`).
inline bool goes_valiant(bool at_source, bool ejects, uint32_t queued, uint32_t threshold, bool on_valiant) {
  return at_source ? !ejects && queued > threshold : on_valiant;
}

}  // namespace threshold_val

namespace threshold_val {

// The RTL variant of the rule: threshold_val.sv Verilated, one model per switch (the network
// routes switches on several threads at once, never one switch on two), in
// threshold_val_rtl.cpp. operator() sets the model's inputs, evaluates it and returns its
// output.
class RtlDecider {
 public:
  explicit RtlDecider(int switches);
  ~RtlDecider();
  RtlDecider(const RtlDecider&) = delete;
  RtlDecider& operator=(const RtlDecider&) = delete;
  bool operator()(int sw, bool at_source, bool ejects, uint32_t queued, uint32_t threshold, bool on_valiant) const;

 private:
  struct Models;
  std::unique_ptr<Models> m_models;
};

}  // namespace threshold_val
