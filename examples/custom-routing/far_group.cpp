// far-group: a Dragonfly traffic pattern written as an scfly plug-in (its own file and its
// registration; nothing in scfly is edited). Every node of group G sends to a uniformly
// random node of group (G + floor(g/2) + K) mod g, K the optional argument (far-group or
// far-group(K)): each group's traffic crosses to the group "opposite" it, an adversarial
// pattern in the family of ADV+i (Kim, Dally, Towles, Gupta, "Technology-Driven,
// Highly-Scalable Dragonfly Topology", ISCA 2008, sec. 4.2) with the offset set by g.
#include <scfly/tb/traffic.h>
#include <scfly/topologies/dragonfly.h>

#include <memory>
#include <string>
#include <vector>

namespace {

class FarGroup : public scfly::TrafficPolicy {
 public:
  FarGroup(const scfly::Dragonfly& d, int extra) : m_d(d), m_offset(d.g() / 2 + extra) {}
  int dest(int src, scfly::Rng& rng) const override {
    const int per_group = m_d.a() * m_d.p();
    return first_of_target(src) + static_cast<int>(rng.below(static_cast<uint32_t>(per_group)));
  }
  bool weights(int src, std::vector<std::pair<int, double>>& out) const override {
    const int per_group = m_d.a() * m_d.p();
    out.clear();
    for (int k = 0; k < per_group; ++k) out.push_back({first_of_target(src) + k, 1.0 / per_group});
    return true;
  }

 private:
  int first_of_target(int src) const {
    const int per_group = m_d.a() * m_d.p();
    const int group = (src / per_group + m_offset) % m_d.g();
    return group * per_group;
  }
  const scfly::Dragonfly& m_d;
  int m_offset;
};

scfly::TrafficPlugin far_group() {
  scfly::TrafficPlugin p;
  p.name = "far-group";
  p.doc = "every node of group G to a random node of group (G + floor(g/2) + K) mod g";
  p.dragonfly = true;
  p.torus = false;
  p.min_args = 0;
  p.max_args = 1;
  p.check = [](const scfly::Topology& t, const std::vector<int>& args) -> std::string {
    const auto& d = static_cast<const scfly::Dragonfly&>(t);
    const int offset = d.g() / 2 + (args.empty() ? 0 : args[0]);
    if (offset % d.g() == 0) return "far-group: the offset " + std::to_string(offset) + " maps every group onto itself";
    return "";
  };
  p.make = [](const scfly::Topology& t, const std::vector<int>& args,
              scfly::Rng&) -> std::unique_ptr<const scfly::TrafficPolicy> {
    return std::make_unique<FarGroup>(static_cast<const scfly::Dragonfly&>(t), args.empty() ? 0 : args[0]);
  };
  return p;
}

}  // namespace

SCFLY_REGISTER_TRAFFIC(far_group_id, far_group());
