// A user's switch allocator as a plug-in: `switch.allocator: <name>` beside scfly's own
// (separable-input, separable-output, wavefront, islip), with nothing in scfly edited
// (docs/guide-switch-tb.md, "Your own allocator"; examples/switch-tb/pim.cpp).
//
// A plug-in is an AllocatorPolicy (one request-grant pass: which of the pass's requests
// to connect) and a descriptor (AllocatorPlugin: name, one line of documentation, a
// factory) registered from the plug-in's own .cpp file with SCFLY_REGISTER_ALLOCATOR. Every
// switch builds its own policy from its AllocatorConfig (its ports, VCs per port, data VCs,
// host inputs, connections per port, passes, output-arbiter options), so a policy may keep
// state (round-robin pointers, a matrix of priorities) without locks: with `sim.threads`
// > 1 two switches' policies run at once, one switch's never.
//
// What scfly does around the policy, per cycle (PluginAllocator below):
//  - Requests. Up to `switch.allocator_iterations` passes; a pass collects, for every busy
//    input port with room for another connection, every input VC whose routed head has a
//    free output VC (the first of its routing candidates with room for the whole packet
//    and, where the credit loop says so, downstream credits), in the input order every
//    scfly allocator shares: control VCs first by index, then data VCs round-robin from the
//    port's VC pointer (parts/allocator_variant_base.h). The cycle stops at the first pass
//    with no request.
//  - The policy's pass sees those requests (AllocPass::requests(), in that input order,
//    each with its rank in its port's order, whether it is from a control VC or a host's
//    injection port, and its packet's injection cycle) and asks for connections with
//    AllocPass::grant(i).
//  - grant(i) refuses (returns false, nothing changes) a request already granted, an input
//    port with no connection left this pass (input_budget), an output port with none left
//    (output_slots), and whatever the switch refuses: an output VC another input took this
//    cycle, a shared output buffer without room, the host-idle ejection rule. So no policy
//    can break the switch's invariants; a refused grant leaves its slot unused.
//  - On a grant the input port's VC pointer moves past a granted data VC (the round-robin
//    of the input order above); any other arbitration state is the policy's.
// A policy that never grants starves the network: the run's watchdog reports it. An
// exception thrown by a policy stops the run with its message (the switch's name and the
// allocator's). `--rtl allocator` co-simulates scfly's own allocators only.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "rtl_models/switch/parts/allocator_variant_base.h"

namespace scfly {

// One request of a pass: input VC (in_port, in_vc) asks for output VC (out_port, out_vc).
struct PluginRequest {
  uint16_t in_port, out_port;
  uint8_t in_vc, out_vc;
  uint16_t rank;       // its position in its input port's order (0: first)
  bool control;        // from a control VC (scfly's own allocators give these strict priority)
  bool injection;      // from a host's injection port (AllocatorConfig::injection)
  uint64_t injected;   // the head packet's injection cycle (an age: smaller is older)
};

// One pass, as the policy sees it.
class AllocPass {
 public:
  // The pass's requests, input ports ascending, each port's in its input order.
  const std::vector<PluginRequest>& requests() const { return *m_reqs; }
  // Connections input port `ip` / output port `op` may still take in this pass.
  int input_budget(int ip) const { return m_budget[static_cast<size_t>(ip)]; }
  int output_slots(int op) const { return m_cap - m_out_active[op]; }
  // 0: the cycle's first pass; 1, 2, ...: the later passes of switch.allocator_iterations.
  int index() const { return m_index; }
  // Connects request i if the switch can (see the header): true if it did.
  bool grant(size_t i) { return m_grant(m_self, i); }

 private:
  friend class PluginAllocator;
  const std::vector<PluginRequest>* m_reqs = nullptr;
  const int* m_budget = nullptr;
  const uint8_t* m_out_active = nullptr;
  int m_cap = 1, m_index = 0;
  bool (*m_grant)(void*, size_t) = nullptr;
  void* m_self = nullptr;
};

// A plug-in allocator's decision, one instance per switch.
class AllocatorPolicy {
 public:
  virtual ~AllocatorPolicy() = default;
  virtual void pass(AllocPass& p) = 0;
};

struct AllocatorPlugin {
  std::string name;  // the `switch.allocator` value: lowercase letters, digits and '-'
  std::string doc;   // one line: the rule (a citation where it comes from a paper)
  // Builds one switch's policy from its configuration; throws std::invalid_argument when it
  // cannot arbitrate such a switch (the network reports it with the switch's name).
  std::function<std::unique_ptr<AllocatorPolicy>(const AllocatorConfig&)> make;
};

// Registers a plug-in; returns its AllocatorKind value (past scfly's own). Throws
// std::logic_error on a name that is empty, not lowercase letters, digits and '-', one of
// scfly's allocators or already registered, and on a missing factory.
AllocatorKind register_allocator(AllocatorPlugin p);
// Every plug-in allocator, in registration order.
const std::vector<const AllocatorPlugin*>& allocator_plugins();
// The plug-in behind `k`, or null for scfly's own kinds.
const AllocatorPlugin* allocator_plugin(AllocatorKind k);
AllocatorKind kind_of(const AllocatorPlugin& p);

// Registers a plug-in allocator from its own .cpp file at static initialization: the file
// only has to be linked into the executable (an object file, not an unreferenced archive
// member).
#define SCFLY_REGISTER_ALLOCATOR(ident, ...) \
  static const ::scfly::AllocatorKind ident = ::scfly::register_allocator(__VA_ARGS__)

// The switch's side of a plug-in: the requests, the checks around grant(i) and the passes,
// with the same `want` / `age` / `grant` callables as scfly's other allocators.
class PluginAllocator : public VariantAllocatorBase {
 public:
  PluginAllocator(AllocatorConfig cfg, std::unique_ptr<AllocatorPolicy> policy)
      : VariantAllocatorBase(std::move(cfg)), m_policy(std::move(policy)) {
    if (!m_policy) throw std::invalid_argument("allocator plug-in: its factory returned no policy");
  }

  AllocatorPolicy& policy() { return *m_policy; }
  // Grants the policy asked for that were refused, since construction.
  uint64_t refused() const { return m_refused; }

  // One cycle: up to iterations passes, stopping at the first with no request. Returns the
  // grants of the later passes.
  template <typename Want, typename Age, typename Grant>
  uint64_t allocate(const PortMask& busy, const uint8_t* in_active, const uint8_t* out_active, Want&& want, Age&& age,
                    Grant&& grant) {
    uint64_t late = 0;
    for (int p = 0; p < m_cfg.iterations; ++p) {
      const int g = pass(p, busy, in_active, out_active, want, age, grant);
      if (g < 0) break;
      if (p > 0) late += static_cast<uint64_t>(g);
    }
    return late;
  }

  // One pass (`index`: its place in the cycle): the grants made, -1 if no input requested.
  template <typename Want, typename Age, typename Grant>
  int pass(int index, const PortMask& busy, const uint8_t* in_active, const uint8_t* out_active, Want&& want,
           Age&& age, Grant&& grant) {
    if (!collect(busy, in_active, want)) return -1;
    m_view.clear();
    for (const VarRequest& q : m_reqs)
      m_view.push_back(PluginRequest{q.r.in_port, q.r.out_port, q.r.in_vc, q.r.out_vc, q.rank,
                                     !is_data(q.r.in_port, q.r.in_vc), m_cfg.injection[q.r.in_port] != 0,
                                     static_cast<uint64_t>(age(static_cast<int>(q.r.in_port), static_cast<int>(q.r.in_vc)))});
    struct Ctx {
      PluginAllocator* self;
      std::remove_reference_t<Grant>* grant;
      const uint8_t* out_active;
      int granted;
    } ctx{this, &grant, out_active, 0};
    AllocPass ap;
    ap.m_reqs = &m_view;
    ap.m_budget = m_budget.data();
    ap.m_out_active = out_active;
    ap.m_cap = m_cfg.conn_cap;
    ap.m_index = index;
    ap.m_self = &ctx;
    ap.m_grant = [](void* c, size_t i) -> bool {
      Ctx& x = *static_cast<Ctx*>(c);
      PluginAllocator& a = *x.self;
      if (i >= a.m_reqs.size()) throw std::out_of_range("allocator plug-in: grant of request " + std::to_string(i) +
                                                        " of " + std::to_string(a.m_reqs.size()));
      VarRequest& q = a.m_reqs[i];
      int& b = a.m_budget[q.r.in_port];
      if (q.accepted || b <= 0 || a.m_cfg.conn_cap - x.out_active[q.r.out_port] <= 0 || !(*x.grant)(q.r)) {
        ++a.m_refused;
        return false;
      }
      --b;
      q.granted = q.accepted = true;
      a.advance_vc(q.r);
      ++x.granted;
      return true;
    };
    m_policy->pass(ap);
    return ctx.granted;
  }

 private:
  std::unique_ptr<AllocatorPolicy> m_policy;
  std::vector<PluginRequest> m_view;
  uint64_t m_refused = 0;
};

}  // namespace scfly
