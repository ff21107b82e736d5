#include "routing_units/min_cond.h"

namespace scfly {

const char* to_string(MinCondTrigger t) { return t == MinCondTrigger::Pause ? "pause" : "qcn"; }

std::vector<int> min_cond_misroute_ports(const Dragonfly& t, int host) {
  const int p = t.p(), h = t.h(), g0 = t.first_global_port();
  std::vector<int> out;
  if (p > h) {
    out.push_back(g0 + host * h / p);
    return out;
  }
  for (int j = 0; j < h; ++j)
    if (j * p / h == host) out.push_back(g0 + j);
  return out;
}

ForwardingTable build_min_cond_table(const Dragonfly& t, int sw) {
  MinTableOptions o;
  o.vc_rule = VcRule::GlobalCount;
  o.conditional = true;
  ForwardingTable ft = build_min_table(t, sw, o);
  for (int i = 0; i < t.p(); ++i) {
    FlowMatch m;
    m.in_port = static_cast<int16_t>(i);
    std::vector<FlowAction> members;
    for (int port : min_cond_misroute_ports(t, i)) {
      FlowAction a = FlowAction::to_port(port, VcRule::GlobalCount);
      a.op = HeaderOp::Misroute;
      members.push_back(a);
    }
    if (members.size() == 1) ft.add(m, kPrioMinCondMisroute, members[0]);
    else ft.add_equal_cost(m, kPrioMinCondMisroute, members, TieDraw::IfSeveral);
  }
  return ft;
}

}  // namespace scfly
