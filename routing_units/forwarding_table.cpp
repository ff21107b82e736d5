#include "routing_units/forwarding_table.h"

#include "routing_units/misrouting.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

namespace scfly {

FlowAction FlowAction::to_port(int port, VcRule rule, int vc) {
  FlowAction a;
  a.out = OutPort::Fixed;
  a.port = static_cast<int16_t>(port);
  a.vc_rule = rule;
  a.vc = static_cast<uint8_t>(vc);
  return a;
}

FlowAction FlowAction::eject() {
  FlowAction a;
  a.out = OutPort::DstHost;
  a.vc_rule = VcRule::Fixed;
  a.vc = 0;
  return a;
}

FlowAction FlowAction::take_pinned_exit() {
  FlowAction a;
  a.out = OutPort::PinnedExit;
  a.op = HeaderOp::TakeGlobal;
  return a;
}

FlowAction FlowAction::toward_pinned_exit() {
  FlowAction a;
  a.out = OutPort::TowardPinnedExit;
  return a;
}

ForwardingTable::ForwardingTable(const Dragonfly& t, int sw)
    : m_sw(sw),
      m_p(t.p()),
      m_a(t.a()),
      m_radix(t.radix()),
      m_num_switches(t.num_switches()),
      m_num_groups(t.g()),
      m_by_switch(static_cast<size_t>(t.num_switches())),
      m_by_group(static_cast<size_t>(t.g())),
      m_prob(static_cast<size_t>(t.radix()), static_cast<uint8_t>(kMaxProbability)) {
  if (sw < 0 || sw >= t.num_switches())
    throw std::invalid_argument("forwarding table: switch " + std::to_string(sw) +
                                " not in the topology");
}

void ForwardingTable::check_action(const FlowAction& a) const {
  auto bad = [](const std::string& why) {
    throw std::invalid_argument("forwarding table: " + why);
  };
  if (a.out == OutPort::Fixed && (a.port < 0 || a.port >= m_radix))
    bad("output port " + std::to_string(a.port) + " not in [0, " + std::to_string(m_radix) + ")");
  if (a.op == HeaderOp::PinExit) {
    if (a.pin_switch < 0 || a.pin_switch >= m_num_switches || a.pin_switch / m_a != m_sw / m_a)
      bad("pinned exit switch " + std::to_string(a.pin_switch) + " not in this switch's group");
    if (a.pin_port < m_p + m_a - 1 || a.pin_port >= m_radix)
      bad("pinned exit port " + std::to_string(a.pin_port) + " is not a global port");
  }
}

int ForwardingTable::add_alt(const FlowMatch& m, int priority,
                             const std::vector<FlowAction>& members, TieDraw draw,
                             FlowCondition c, bool set) {
  auto bad = [](const std::string& why) {
    throw std::invalid_argument("forwarding table: " + why);
  };
  if (members.empty()) bad("an equal-cost set needs at least one member");
  if (m.dst_switch != FlowMatch::kAny && (m.dst_switch < 0 || m.dst_switch >= m_num_switches))
    bad("dst_switch " + std::to_string(m.dst_switch) + " not in the topology");
  if (m.dst_group != FlowMatch::kAny && (m.dst_group < 0 || m.dst_group >= m_num_groups))
    bad("dst_group " + std::to_string(m.dst_group) + " not in the topology");
  if (m.dst_switch != FlowMatch::kAny && m.dst_group != FlowMatch::kAny &&
      m.dst_switch / m_a != m.dst_group)
    bad("dst_switch " + std::to_string(m.dst_switch) + " is not in dst_group " +
        std::to_string(m.dst_group));
  if (m.dst_host != FlowMatch::kAny && (m.dst_host < 0 || m.dst_host >= m_p))
    bad("dst_host " + std::to_string(m.dst_host) + " not in [0, p)");
  if (m.in_port != FlowMatch::kAny && (m.in_port < 0 || m.in_port >= m_radix))
    bad("in_port " + std::to_string(m.in_port) + " not a port");
  for (const FlowAction& a : members) check_action(a);

  const int alt = static_cast<int>(m_alts.size());
  const int set_id = set ? alt : -1;
  const int first = static_cast<int>(m_entries.size());
  for (const FlowAction& a : members) m_entries.push_back(FlowEntry{m, priority, a, c, set_id});
  m_alts.push_back(Alt{m, priority, c, draw, first, static_cast<int>(members.size())});

  std::vector<Ref>& bucket = m.dst_switch != FlowMatch::kAny
                                 ? m_by_switch[static_cast<size_t>(m.dst_switch)]
                                 : (m.dst_group != FlowMatch::kAny
                                        ? m_by_group[static_cast<size_t>(m.dst_group)]
                                        : m_any);
  // A new alternative has the largest index, so it goes after every equal priority.
  const Ref r{priority, alt};
  auto before = [](const Ref& x, const Ref& y) {
    return x.priority > y.priority || (x.priority == y.priority && x.alt < y.alt);
  };
  const auto pos = std::upper_bound(bucket.begin(), bucket.end(), r, before);
  bucket.insert(pos, r);
  return first;
}

int ForwardingTable::add(const FlowMatch& m, int priority, const FlowAction& a, FlowCondition c) {
  return add_alt(m, priority, {a}, TieDraw::IfSeveral, c, false);
}

int ForwardingTable::add_equal_cost(const FlowMatch& m, int priority,
                                    const std::vector<FlowAction>& members, TieDraw draw,
                                    FlowCondition c) {
  const int first = add_alt(m, priority, members, draw, c, true);
  return m_entries[static_cast<size_t>(first)].equal_cost_set;
}

void ForwardingTable::set_probability(int port, int pct) {
  if (port < 0 || port >= m_radix)
    throw std::out_of_range("forwarding table: port " + std::to_string(port) + " not a port");
  if (pct < 0 || pct > kMaxProbability)
    throw std::invalid_argument("forwarding table: probability " + std::to_string(pct) +
                                " not in [0, 100]");
  m_prob[static_cast<size_t>(port)] = static_cast<uint8_t>(pct);
  if (m_block) m_block->set_probability(port, pct);
}

std::vector<ForwardingTable::AltView> ForwardingTable::lookup_order() const {
  std::vector<int> idx(m_alts.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<int>(i);
  std::stable_sort(idx.begin(), idx.end(), [&](int x, int y) {
    return m_alts[static_cast<size_t>(x)].priority > m_alts[static_cast<size_t>(y)].priority;
  });
  std::vector<AltView> out;
  out.reserve(idx.size());
  for (int i : idx) {
    const Alt& a = m_alts[static_cast<size_t>(i)];
    out.push_back(AltView{a.first, a.count, a.draw, a.condition});
  }
  return out;
}

int ForwardingTable::probability(int port) const {
  if (port < 0 || port >= m_radix)
    throw std::out_of_range("forwarding table: port " + std::to_string(port) + " not a port");
  return m_prob[static_cast<size_t>(port)];
}

int ForwardingTable::resolve_port(const FlowAction& a, const RouteHeader& h) const {
  switch (a.out) {
    case OutPort::Fixed: return a.port;
    case OutPort::DstHost: return h.dst_host;
    case OutPort::PinnedExit: return h.exit_port;
    case OutPort::TowardPinnedExit: {
      const int from = m_sw % m_a, to = h.exit_switch % m_a;
      return m_p + (to < from ? to : to - 1);
    }
  }
  return -1;
}

RouteDecision ForwardingTable::lookup(int in_port, RouteHeader& h, Rng& rng,
                                      LookupInfo* info) const {
  if (m_block) return m_block->lookup(in_port, h, rng, info);
  LookupInfo scratch;
  LookupInfo& inf = info ? *info : scratch;
  inf = LookupInfo{};

  // Candidate lists: the destination switch's bucket, its group's, and the wildcard list.
  const Ref* cur[3] = {nullptr, nullptr, m_any.data()};
  const Ref* end[3] = {nullptr, nullptr, m_any.data() + m_any.size()};
  if (h.dst_switch >= 0 && h.dst_switch < m_num_switches) {
    const std::vector<Ref>& s = m_by_switch[static_cast<size_t>(h.dst_switch)];
    const std::vector<Ref>& g = m_by_group[static_cast<size_t>(h.dst_switch / m_a)];
    cur[0] = s.data();
    end[0] = s.data() + s.size();
    cur[1] = g.data();
    end[1] = g.data() + g.size();
  }
  int in_cls = -1;  // unknown input port: matches no class
  if (in_port >= 0 && in_port < m_radix)
    in_cls = static_cast<int>(in_port < m_p ? PortClass::Host
                                            : (in_port < m_p + m_a - 1 ? PortClass::Local
                                                                       : PortClass::Global));
  const ExitPin pin = h.exit_switch < 0    ? ExitPin::Unpinned
                      : h.exit_switch == m_sw ? ExitPin::Here
                                              : ExitPin::Elsewhere;
  // The destination fields are implied by the bucket; the rest is checked here.
  auto matches = [&](const FlowMatch& m) {
    return (m.dst_host == FlowMatch::kAny || m.dst_host == h.dst_host) &&
           (m.in_port == FlowMatch::kAny || m.in_port == in_port) &&
           (!m.in_class || static_cast<int>(*m.in_class) == in_cls) &&
           (m.exit == ExitPin::Any || m.exit == pin);
  };
  // Next matching alternative in priority order (ties: insertion order), or null.
  auto next = [&]() -> const Alt* {
    for (;;) {
      int best = -1;
      for (int i = 0; i < 3; ++i) {
        if (cur[i] == end[i]) continue;
        if (best < 0 || cur[i]->priority > cur[best]->priority ||
            (cur[i]->priority == cur[best]->priority && cur[i]->alt < cur[best]->alt))
          best = i;
      }
      if (best < 0) return nullptr;
      const Alt& a = m_alts[static_cast<size_t>((cur[best]++)->alt)];
      if (matches(a.match)) {
        ++inf.alternatives;
        return &a;
      }
    }
  };

  // The lookup rule: an unconditional alternative applies at once; a conditional one is
  // tested only if another matching alternative follows it (else it applies regardless),
  // with N drawn at the first such test; a failed test moves on to the next alternative.
  const Alt* alt = next();
  if (!alt) return RouteDecision{};  // table miss
  int entry = -1, port = -1;
  for (;;) {
    int nth = 0;
    if (alt->count > 1 || alt->draw == TieDraw::Always) {
      const uint32_t word = rng.next32();
      ++inf.tie_draws;
      nth = static_cast<int>(Rng::scale(word, static_cast<uint32_t>(alt->count)));
    }
    entry = alt->first + nth;
    port = resolve_port(m_entries[static_cast<size_t>(entry)].action, h);
    if (alt->condition == FlowCondition::None) break;
    const Alt* following = next();
    if (!following) break;  // the last alternative: its condition is ignored
    if (!inf.drew_n) {
      inf.drew_n = true;
      inf.n = 1 + static_cast<int>(rng.below(kMaxProbability));
    }
    const int pct =
        port >= 0 && port < m_radix ? m_prob[static_cast<size_t>(port)] : kMaxProbability;
    if (inf.n <= pct) break;
    if (!inf.skipped) {
      inf.skipped = true;
      inf.skipped_entry = entry;
      inf.skipped_port = port;
    }
    alt = following;
  }
  inf.entry = entry;

  // The VC from the header as it arrived, then the header update.
  const FlowAction& a = m_entries[static_cast<size_t>(entry)].action;
  RouteDecision d;
  d.port = static_cast<int16_t>(port);
  if (a.vc_rule == VcRule::Fixed) {
    d.vc = a.vc;
  } else if (port < m_p) {
    d.vc = 0;
  } else if (a.vc_rule == VcRule::GlobalCount) {
    d.vc = static_cast<uint8_t>(h.segment + h.global_done);
  } else if (port < m_p + m_a - 1) {
    d.vc = static_cast<uint8_t>(2 * h.segment + h.global_done + h.vc_shift);
  } else {
    d.vc = h.segment;
  }
  if (a.op == HeaderOp::TakeGlobal) {
    h.global_done = 1;
    h.exit_switch = -1;
    h.exit_port = -1;
  } else if (a.op == HeaderOp::PinExit) {
    h.exit_switch = a.pin_switch;
    h.exit_port = a.pin_port;
  } else if (a.op == HeaderOp::Misroute) {
    h.segment = 1;
    h.global_done = 0;
    h.exit_switch = -1;
    h.exit_port = -1;
    h.nonminimal = true;
    h.policy = static_cast<uint8_t>(Misroute::CrgGr);
  }
  return d;
}

namespace {

std::string port_name(const Dragonfly& t, int sw, int port) {
  std::ostringstream os;
  os << port << " (" << to_string(t.port_class(port)) << ' ';
  switch (t.port_class(port)) {
    case PortClass::Host: os << port; break;
    case PortClass::Local:
      os << port - t.first_local_port() << " -> sw"
         << t.switch_id(t.group_of(sw), t.local_neighbor(t.index_of(sw), port));
      break;
    case PortClass::Global:
      os << port - t.first_global_port() << " -> g" << t.global_target_group(sw, port);
      break;
  }
  os << ')';
  return os.str();
}

std::string field(int v) { return v == FlowMatch::kAny ? "*" : std::to_string(v); }

const char* exit_name(ExitPin e) {
  switch (e) {
    case ExitPin::Any: return "*";
    case ExitPin::Unpinned: return "unpinned";
    case ExitPin::Here: return "here";
    case ExitPin::Elsewhere: return "elsewhere";
  }
  return "?";
}

}  // namespace

std::string ForwardingTable::format(const Dragonfly& t) const {
  const DragonflyShape& s = t.shape();
  std::ostringstream head;
  head << "forwarding table of switch " << m_sw << " (group " << t.group_of(m_sw) << ", index "
       << t.index_of(m_sw) << ") of dfly(" << s.p << ',' << s.a << ',' << s.h << ',' << s.g << ") "
       << to_string(s.arrangement) << ": " << m_entries.size() << " entries, " << m_alts.size()
       << " alternatives\n";

  // Lookup order: priority descending, insertion order among equals.
  std::vector<int> order(m_alts.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(), [this](int x, int y) {
    return m_alts[static_cast<size_t>(x)].priority > m_alts[static_cast<size_t>(y)].priority;
  });

  std::vector<std::vector<std::string>> rows;
  rows.push_back({"#", "prio", "dst_group", "dst_switch", "dst_host", "in_port", "in_class", "exit",
                  "", "out_port", "vc", "header", "condition", "set"});
  for (int ai : order) {
    const Alt& alt = m_alts[static_cast<size_t>(ai)];
    for (int k = 0; k < alt.count; ++k) {
      const int e = alt.first + k;
      const FlowEntry& en = m_entries[static_cast<size_t>(e)];
      const FlowMatch& m = en.match;
      const FlowAction& a = en.action;
      std::string out;
      switch (a.out) {
        case OutPort::Fixed: out = port_name(t, m_sw, a.port); break;
        case OutPort::DstHost: out = "dst_host"; break;
        case OutPort::PinnedExit: out = "pinned exit port"; break;
        case OutPort::TowardPinnedExit: out = "local -> pinned exit's switch"; break;
      }
      std::string hdr = "-";
      if (a.op == HeaderOp::TakeGlobal) hdr = "take global";
      if (a.op == HeaderOp::PinExit)
        hdr = "pin exit sw" + std::to_string(a.pin_switch) + ":" + std::to_string(a.pin_port);
      if (a.op == HeaderOp::Misroute) hdr = "misroute (segment 1)";
      std::string cond = "-";
      if (en.condition == FlowCondition::PortProbability) {
        cond = "N <= P[out]";
        if (a.out == OutPort::Fixed) cond += " = " + std::to_string(m_prob[static_cast<size_t>(a.port)]);
      }
      std::string set = "-";
      if (en.equal_cost_set >= 0) {
        set = "ecmp#" + std::to_string(en.equal_cost_set) + " " + std::to_string(k + 1) + "/" +
              std::to_string(alt.count);
        if (alt.draw == TieDraw::Always || alt.count > 1) set += " draws";
      }
      rows.push_back({std::to_string(e), std::to_string(en.priority), field(m.dst_group),
                      field(m.dst_switch), field(m.dst_host), field(m.in_port),
                      m.in_class ? to_string(*m.in_class) : "*", exit_name(m.exit), "->", out,
                      a.vc_rule == VcRule::Fixed        ? "fixed " + std::to_string(a.vc)
                      : a.vc_rule == VcRule::GlobalCount ? "global-count"
                                                         : "hop-slot",
                      hdr, cond, set});
    }
  }
  std::vector<size_t> width(rows[0].size(), 0);
  for (const auto& r : rows)
    for (size_t c = 0; c < r.size(); ++c) width[c] = std::max(width[c], r[c].size());
  std::ostringstream os;
  os << head.str();
  for (const auto& r : rows) {
    std::string line;
    for (size_t c = 0; c < r.size(); ++c) {
      std::string cell = r[c];
      if (c + 1 < r.size()) cell.resize(width[c], ' ');
      line += (c ? "  " : "") + cell;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    os << line << '\n';
  }

  // The register: transit ports always, host ports only where a mechanism changed them.
  os << "port probability (%):";
  for (int port = 0; port < m_radix; ++port) {
    const int pct = m_prob[static_cast<size_t>(port)];
    if (t.port_class(port) == PortClass::Host && pct == kMaxProbability) continue;
    os << "  " << port_name(t, m_sw, port) << ' ' << pct;
  }
  os << '\n';
  return os.str();
}

ForwardingTable build_min_table(const Dragonfly& t, int sw, const MinTableOptions& o) {
  ForwardingTable ft(t, sw);
  const VcRule rule = o.vc_rule;
  const FlowCondition cond = o.conditional ? FlowCondition::PortProbability : FlowCondition::None;
  const int G = t.group_of(sw), r = t.index_of(sw);

  FlowMatch m;
  m.dst_switch = sw;
  ft.add(m, kPrioMinDeliver, FlowAction::eject());
  for (int i = 0; i < t.a(); ++i) {
    if (i == r) continue;
    m.dst_switch = t.switch_id(G, i);
    ft.add(m, kPrioMinDeliver, FlowAction::to_port(t.local_port(r, i), rule));
  }

  m = FlowMatch{};
  m.exit = ExitPin::Here;
  FlowAction take = FlowAction::take_pinned_exit();
  take.vc_rule = rule;
  ft.add(m, kPrioMinPinned, take);
  m.exit = ExitPin::Elsewhere;
  FlowAction toward = FlowAction::toward_pinned_exit();
  toward.vc_rule = rule;
  ft.add(m, kPrioMinPinned, toward);

  // The exit link k toward a group, as the action route_min takes at this switch.
  auto exit_action = [&](const GlobalLinkEnd& link) {
    if (link.sw == sw) {
      FlowAction a = FlowAction::to_port(link.port, rule);
      a.op = HeaderOp::TakeGlobal;
      return a;
    }
    FlowAction a = FlowAction::to_port(t.local_port(r, t.index_of(link.sw)), rule);
    a.op = HeaderOp::PinExit;
    a.pin_switch = link.sw;
    a.pin_port = link.port;
    return a;
  };

  const int n = t.links_per_group_pair();
  for (int G2 = 0; G2 < t.g(); ++G2) {
    if (G2 == G) continue;
    const GlobalLinkEnd* links = t.links_between(G, G2);
    // The fewest-hop links (indices in links_between order) for each destination switch.
    std::vector<std::vector<int>> best(static_cast<size_t>(t.a()));
    for (int i = 0; i < t.a(); ++i) {
      const int d = t.switch_id(G2, i);
      int fewest = 4;
      for (int k = 0; k < n; ++k) {
        const int landing = t.global_peer(links[k].sw, links[k].port).sw;
        const int hops = (links[k].sw != sw) + 1 + (landing != d);
        if (hops < fewest) {
          fewest = hops;
          best[static_cast<size_t>(i)].clear();
        }
        if (hops == fewest) best[static_cast<size_t>(i)].push_back(k);
      }
    }
    // The set most destination switches share goes in the dst_group entry (ties: the
    // first switch's); the others get a dst_switch entry.
    std::map<std::vector<int>, int> freq;
    for (const auto& b : best) ++freq[b];
    int common = 0;
    for (int i = 1; i < t.a(); ++i)
      if (freq[best[static_cast<size_t>(i)]] > freq[best[static_cast<size_t>(common)]]) common = i;

    auto add_set = [&](const FlowMatch& fm, int prio, const std::vector<int>& set) {
      if (n == 1) {  // a single link joins the pair: route_min draws nothing
        ft.add(fm, prio, exit_action(links[set[0]]), cond);
        return;
      }
      std::vector<FlowAction> members;
      for (int k : set) members.push_back(exit_action(links[k]));
      ft.add_equal_cost(fm, prio, members, TieDraw::Always, cond);
    };
    if (o.conditional && n > 1) {  // one conditional entry per destination switch
      for (int i = 0; i < t.a(); ++i) {
        FlowMatch sm;
        sm.dst_switch = t.switch_id(G2, i);
        sm.exit = ExitPin::Unpinned;
        add_set(sm, kPrioMinSwitch, best[static_cast<size_t>(i)]);
      }
      continue;
    }
    FlowMatch gm;
    gm.dst_group = G2;
    gm.exit = ExitPin::Unpinned;
    add_set(gm, kPrioMinGroup, best[static_cast<size_t>(common)]);
    for (int i = 0; i < t.a(); ++i) {
      if (best[static_cast<size_t>(i)] == best[static_cast<size_t>(common)]) continue;
      FlowMatch sm;
      sm.dst_switch = t.switch_id(G2, i);
      sm.exit = ExitPin::Unpinned;
      add_set(sm, kPrioMinSwitch, best[static_cast<size_t>(i)]);
    }
  }
  return ft;
}

}  // namespace scfly
