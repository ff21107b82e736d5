// A user's switch allocator as a scfly plug-in: Parallel Iterative Matching (T. E. Anderson,
// S. S. Owicki, J. B. Saxe and C. P. Thacker, "High-speed switch scheduling for local-area
// networks", ACM Transactions on Computer Systems 11(4), 1993, section 3).
//
// The rule, per request-grant pass (scfly runs switch.allocator_iterations of them; PIM's
// iterations are those passes):
//  1. Request: every input VC with a routed head and a free output VC requests it (scfly
//     collects the requests, parts/allocator_plugin.h).
//  2. Grant: every output port grants requests chosen uniformly at random among those it
//     received, up to the connections it may still take (one per output VC).
//  3. Accept: every input port accepts grants chosen uniformly at random among those it
//     received, up to the connections it may still take.
// Control VCs keep their strict priority: a control request is granted and accepted before
// any data request at its output and input. PIM keeps no pointers; its randomness comes
// from the switch's own seed (AllocatorConfig::seed), so a run is reproducible.
//
// Selected with `switch.allocator: pim` in any executable this file is linked into.
#include <algorithm>
#include <memory>
#include <random>
#include <vector>

#include <scfly/rtl_models/switch/parts/allocator_plugin.h>

namespace {

class Pim : public scfly::AllocatorPolicy {
 public:
  explicit Pim(const scfly::AllocatorConfig& c) : m_rng(c.seed) {}

  void pass(scfly::AllocPass& p) override {
    const std::vector<scfly::PluginRequest>& rq = p.requests();
    // Grant: per output port, its requests in random order (control first), up to its slots,
    // one per output VC.
    m_order.resize(rq.size());
    for (size_t i = 0; i < rq.size(); ++i) m_order[i] = {rq[i].out_port, !rq[i].control, m_rng(), i};
    std::sort(m_order.begin(), m_order.end());
    m_granted.assign(rq.size(), false);
    for (size_t k = 0; k < m_order.size();) {
      const int op = m_order[k].port;
      int slots = p.output_slots(op);
      m_vcs.clear();
      for (; k < m_order.size() && m_order[k].port == op; ++k) {
        const scfly::PluginRequest& r = rq[m_order[k].index];
        if (slots <= 0 || std::find(m_vcs.begin(), m_vcs.end(), r.out_vc) != m_vcs.end()) continue;
        m_granted[m_order[k].index] = true;
        m_vcs.push_back(r.out_vc);
        --slots;
      }
    }
    // Accept: per input port, its grants in random order (control first), up to its budget.
    m_order.clear();
    for (size_t i = 0; i < rq.size(); ++i)
      if (m_granted[i]) m_order.push_back({rq[i].in_port, !rq[i].control, m_rng(), i});
    std::sort(m_order.begin(), m_order.end());
    for (const Choice& c : m_order)
      if (p.input_budget(c.port) > 0) p.grant(c.index);  // the switch may still refuse it
  }

 private:
  struct Choice {
    int port;
    bool data;
    uint64_t draw;
    size_t index;
    bool operator<(const Choice& o) const {
      if (port != o.port) return port < o.port;
      if (data != o.data) return data < o.data;
      return draw < o.draw;
    }
  };
  std::mt19937_64 m_rng;
  std::vector<Choice> m_order;
  std::vector<bool> m_granted;
  std::vector<uint8_t> m_vcs;
};

}  // namespace

SCFLY_REGISTER_ALLOCATOR(pim_allocator,
                         scfly::AllocatorPlugin{"pim",
                                                "Parallel Iterative Matching (Anderson et al., ACM TOCS 1993): "
                                                "random grant, random accept",
                                                [](const scfly::AllocatorConfig& c) {
                                                  return std::unique_ptr<scfly::AllocatorPolicy>(
                                                      std::make_unique<Pim>(c));
                                                }});
