#include "tb/switch_bench.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace scfly {

// ----- PortAgent

PortAgent::PortAgent(sc_core::sc_module_name name, const sc_core::sc_clock& clk, SimContext& ctx, const Params& prm)
    : sc_core::sc_module(name),
      Clocked(clk),
      tx("tx", *this, clk.period() * static_cast<double>(prm.latency), false),
      rx("rx", *this, clk.period() * static_cast<double>(prm.latency)),
      m_ctx(ctx),
      m_prm(prm) {
  if (prm.vcs < 1 || prm.vcs > kMaxPortVcs)
    throw std::invalid_argument("PortAgent: vcs must be in 1.." + std::to_string(kMaxPortVcs));
  if (prm.latency < 1) throw std::invalid_argument("PortAgent: a link latency is at least 1 cycle");
  m_queue.resize(static_cast<size_t>(prm.vcs));
  m_credits.assign(static_cast<size_t>(prm.vcs), static_cast<int64_t>(prm.credits));
  m_paused.assign(static_cast<size_t>(prm.vcs), 0);
  SC_HAS_PROCESS(PortAgent);
  SC_METHOD(tick);
  sensitive << clk.posedge_event();
}

void PortAgent::send(PacketId pkt, uint8_t vc, uint64_t not_before) {
  if (vc >= m_prm.vcs)
    throw std::invalid_argument("PortAgent " + std::string(name()) + ": VC " + std::to_string(vc) +
                                " but the port has " + std::to_string(m_prm.vcs));
  const uint16_t phits = m_ctx.pool[pkt].phits;
  if (!m_prm.pfc && phits > m_prm.credits)
    throw std::invalid_argument("PortAgent " + std::string(name()) + ": a packet of " + std::to_string(phits) +
                                " phits never fits the switch's input buffer of " + std::to_string(m_prm.credits));
  m_queue[vc].push_back(Queued{pkt, not_before});
}

size_t PortAgent::pending() const {
  size_t n = m_sending ? 1 : 0;
  for (const auto& q : m_queue) n += q.size();
  return n;
}

void PortAgent::tick() {
  const uint64_t now = cycle();
  if (!first_run_this_cycle(now)) return;
  // Flow control landed by now.
  tx.credits.take_due(now, [&](uint8_t vc, FlowMsg kind, uint32_t n) {
    if (vc >= m_prm.vcs) {
      m_errors.push_back(std::string(name()) + ": flow control for VC " + std::to_string(vc) + " at cycle " +
                         std::to_string(now));
      return;
    }
    if (kind == FlowMsg::Pause) m_paused[vc] = 1;
    else if (kind == FlowMsg::Resume) m_paused[vc] = 0;
    else if ((m_credits[vc] += n) > static_cast<int64_t>(m_prm.credits))
      m_errors.push_back(std::string(name()) + ": credits of VC " + std::to_string(vc) + " exceed the buffer (" +
                         std::to_string(m_credits[vc]) + " > " + std::to_string(m_prm.credits) + ") at cycle " +
                         std::to_string(now));
  });
  // Send: the packet on the link, else a new one (round-robin over the VCs that may start).
  if (!m_sending) {
    for (int n = 0, v = m_rr; n < m_prm.vcs; ++n, v = (v + 1) % m_prm.vcs) {
      auto& q = m_queue[static_cast<size_t>(v)];
      if (q.empty() || q.front().not_before > now) continue;
      const uint16_t phits = m_ctx.pool[q.front().pkt].phits;
      if (m_prm.pfc ? m_paused[static_cast<size_t>(v)] != 0 : m_credits[static_cast<size_t>(v)] < phits) continue;
      m_cur = q.front().pkt;
      q.pop_front();
      m_cur_seq = 0;
      m_cur_phits = phits;
      m_cur_vc = static_cast<uint8_t>(v);
      if (!m_prm.pfc) m_credits[static_cast<size_t>(v)] -= phits;
      m_sending = true;
      ++m_started;
      m_ctx.pool[m_cur].inject_cycle = now;
      m_rr = (v + 1) % m_prm.vcs;
      break;
    }
  }
  if (m_sending) {
    const bool tail = m_cur_seq + 1 == m_cur_phits;
    tx.send(Flit{m_cur, m_cur_seq, m_cur_vc, static_cast<uint8_t>(tail)}, now);
    ++m_phits_sent;
    ++m_cur_seq;
    if (tail) m_sending = false;
  }
  // Receive what has landed by now, returning each phit's credit at once.
  uint32_t landed = 0;
  while (!rx.line.empty() && rx.line.front_cycle() <= now) {
    const FlitArrival a = rx.line.pop();
    ++landed;
    const Flit& f = a.flit;
    if (a.cycle != now)
      m_errors.push_back(std::string(name()) + ": phit of packet #" + std::to_string(f.pkt) + " landed at " +
                         std::to_string(a.cycle) + " but was seen at " + std::to_string(now));
    if (m_prm.return_credits && !m_prm.pfc) rx.send_credit(f.vc, now);
    if (f.seq == 0) {
      if (m_in_pkt)
        m_errors.push_back(std::string(name()) + ": packet #" + std::to_string(f.pkt) + " starts inside packet #" +
                           std::to_string(m_rx_cur.pkt));
      m_in_pkt = true;
      m_rx_cur = Received{f.pkt, f.vc, m_ctx.pool[f.pkt].phits, now, 0};
      m_rx_next = 0;
    }
    if (!m_in_pkt || f.pkt != m_rx_cur.pkt || f.seq != m_rx_next || f.vc != m_rx_cur.vc) {
      m_errors.push_back(std::string(name()) + ": phit " + std::to_string(f.seq) + " of packet #" +
                         std::to_string(f.pkt) + " on VC " + std::to_string(f.vc) + " out of order at cycle " +
                         std::to_string(now));
      continue;
    }
    ++m_rx_next;
    const bool last = m_rx_next == m_rx_cur.phits;
    if (last != (f.tail != 0))
      m_errors.push_back(std::string(name()) + ": packet #" + std::to_string(f.pkt) + " tail flag on phit " +
                         std::to_string(f.seq) + " of " + std::to_string(m_rx_cur.phits));
    if (last) {
      m_rx_cur.tail_cycle = now;
      m_received.push_back(m_rx_cur);
      m_in_pkt = false;
    }
  }
  m_max_per_cycle = std::max(m_max_per_cycle, landed);
}

// ----- SwitchBench

SwitchBench::SwitchBench(sc_core::sc_module_name name, const SimConfig& cfg, int sw, const sc_core::sc_clock& clk)
    : sc_core::sc_module(name), m_topo(make_topology(cfg)), m_sw(sw) {
  if (sw < 0 || sw >= m_topo->num_switches())
    throw std::invalid_argument("SwitchBench: switch " + std::to_string(sw) + " but the network has switches 0.." +
                                std::to_string(m_topo->num_switches() - 1));
  m_routing = std::make_unique<RoutingUnit>(cfg.routing, *m_topo, cfg.routing_prm);
  if (m_routing->needs_global_load() || m_routing->needs_sat_flags())
    throw std::invalid_argument(std::string("SwitchBench: routing ") + to_string(cfg.routing) +
                                " reads state shared by every switch of the network; run it in a whole network");
  m_prm = cfg.sw;
  m_prm.scheduled = false;
  // Awake every cycle: a sleeping switch collects returning credits only when it next has
  // work, and check() reads its credit counters once the traffic has drained.
  m_prm.sleep = false;
  m_prm.packet_phits = static_cast<uint16_t>(cfg.packet_phits);
  m_switch = std::make_unique<Switch>("dut", sw, *m_topo, m_prm, *m_routing, m_ctx, cfg.seed, clk);
  const bool pfc = m_prm.flow_control == FlowControl::Pfc;
  for (int p = 0; p < m_switch->radix(); ++p) {
    const int c = m_topo->port_class_of(p);
    PortAgent::Params ap;
    ap.vcs = m_switch->in_vcs(p);
    ap.credits = m_prm.in_buf[c];
    ap.pfc = pfc;
    ap.return_credits = c != kHostClass;
    ap.latency = m_prm.latency[c];
    m_agents.push_back(std::make_unique<PortAgent>(("port" + std::to_string(p)).c_str(), clk, m_ctx, ap));
    m_agents.back()->tx.socket.bind(m_switch->in(p).socket);
    m_switch->out(p).socket.bind(m_agents.back()->rx.socket);
  }
}

SwitchBench::~SwitchBench() = default;

std::vector<SwitchBench::Hop> SwitchBench::walk(int src, int dst, Rng& rng) const {
  const Topology& t = *m_topo;
  if (src < 0 || dst < 0 || src >= t.num_nodes() || dst >= t.num_nodes() || src == dst)
    throw std::invalid_argument("SwitchBench::walk: nodes " + std::to_string(src) + " -> " + std::to_string(dst) +
                                " (the network has nodes 0.." + std::to_string(t.num_nodes() - 1) + ", distinct)");
  RouteHeader h;
  h.dst_switch = t.switch_of_node(dst);
  h.dst_host = static_cast<int16_t>(t.host_of_node(dst));
  std::vector<Hop> path;
  int sw = t.switch_of_node(src);
  int in = t.host_port(t.host_of_node(src));
  // A path longer than every switch visited twice is a routing loop.
  for (int guard = 0; guard < 2 * t.num_switches() + 4; ++guard) {
    const RouteCandidates c = m_routing->route_candidates(sw, in, h, rng);
    if (c.n < 1) throw std::logic_error("SwitchBench::walk: no route at switch " + std::to_string(sw));
    const int out = c.c[0].port;
    path.push_back(Hop{sw, in, out, c.c[0].vc_lo, h});
    if (t.is_host_port(out)) return path;
    const PortEnd next = t.neighbor(sw, out);
    sw = next.sw;
    in = next.port;
  }
  throw std::logic_error("SwitchBench::walk: no delivery within " + std::to_string(2 * t.num_switches() + 4) + " hops");
}

std::optional<SwitchBench::Entry> SwitchBench::enter(const std::vector<Hop>& path, int src, int dst, uint16_t phits) {
  for (size_t i = 0; i < path.size(); ++i) {
    if (path[i].sw != m_sw) continue;
    // The header as it reaches this switch: a NIC's at the source, else the previous hop's.
    RouteHeader h;
    uint8_t vc = 0;
    if (i == 0) {
      h.dst_switch = m_topo->switch_of_node(dst);
      h.dst_host = static_cast<int16_t>(m_topo->host_of_node(dst));
    } else {
      h = path[i - 1].header;
      vc = path[i - 1].vc;
    }
    std::vector<int> may;
    for (uint64_t k = 0; k < 16; ++k) {
      RouteHeader hh = h;
      Rng r(k + 1, StreamKind::Switch, 0xBE7C4);
      const RouteCandidates c = m_routing->route_candidates(m_sw, path[i].in_port, hh, r);
      for (int j = 0; j < c.n; ++j) may.push_back(c.c[j].port);
    }
    std::sort(may.begin(), may.end());
    may.erase(std::unique(may.begin(), may.end()), may.end());
    const PacketId id = m_ctx.pool.alloc();
    Packet& p = m_ctx.pool[id];
    p.route = h;
    p.src_node = src;
    p.dst_node = dst;
    p.phits = phits;
    return Entry{id, path[i].in_port, vc, path[i].out_port, std::move(may)};
  }
  return std::nullopt;
}

std::optional<SwitchBench::Entry> SwitchBench::inject(int src, int dst, Rng& rng, uint64_t not_before) {
  const auto path = walk(src, dst, rng);
  auto e = enter(path, src, dst, m_prm.packet_phits);
  if (!e) return e;
  m_ctx.pool[e->pkt].gen_cycle = not_before;
  port(e->in_port).send(e->pkt, e->vc, not_before);
  m_entries.push_back(*e);
  return e;
}

bool SwitchBench::drain(const sc_core::sc_clock& clk, uint64_t limit) {
  uint64_t t = 0;
  while (packets_delivered() < m_entries.size() && !m_ctx.failed() && t <= limit) {
    sc_core::sc_start(clk.period() * 100.0);
    t += 100;
  }
  // Then until the last credits are home: a link latency each way, and a margin.
  uint64_t lat = 0;
  for (int c = 0; c < m_topo->num_port_classes(); ++c) lat = std::max<uint64_t>(lat, m_prm.latency[c]);
  sc_core::sc_start(clk.period() * static_cast<double>(2 * lat + 16));
  return packets_delivered() == m_entries.size();
}

uint64_t SwitchBench::packets_delivered() const {
  uint64_t n = 0;
  for (const auto& a : m_agents) n += a->received().size();
  return n;
}

std::vector<std::string> SwitchBench::check() const {
  std::vector<std::string> bad;
  for (const auto& a : m_agents)
    for (const std::string& e : a->errors()) bad.push_back(e);
  if (m_ctx.failed()) bad.push_back("the switch failed: " + m_ctx.error);
  // Where each packet arrived, and in which order per output.
  std::map<PacketId, std::pair<int, size_t>> seen;  // packet -> (port, index in that port's list)
  for (int p = 0; p < radix(); ++p) {
    const auto& r = m_agents[static_cast<size_t>(p)]->received();
    for (size_t i = 0; i < r.size(); ++i)
      if (!seen.emplace(r[i].pkt, std::make_pair(p, i)).second)
        bad.push_back("packet #" + std::to_string(r[i].pkt) + " delivered twice");
  }
  // Order: packets of one input VC toward one output leave in the order they entered.
  std::map<std::tuple<int, int, int>, size_t> last;  // (in port, in VC, out port) -> index of the last one seen
  for (const Entry& e : m_entries) {
    const auto it = seen.find(e.pkt);
    if (it == seen.end()) {
      bad.push_back("packet #" + std::to_string(e.pkt) + " (in on port " + std::to_string(e.in_port) + " VC " +
                    std::to_string(e.vc) + ") never left the switch");
      continue;
    }
    if (!std::binary_search(e.may_leave.begin(), e.may_leave.end(), it->second.first)) {
      std::string ports;
      for (int q : e.may_leave) ports += (ports.empty() ? "" : ",") + std::to_string(q);
      bad.push_back("packet #" + std::to_string(e.pkt) + " left on port " + std::to_string(it->second.first) +
                    "; its routing sends it to port " + ports);
    }
    const auto key = std::make_tuple(e.in_port, static_cast<int>(e.vc), it->second.first);
    const auto l = last.find(key);
    if (l != last.end() && l->second > it->second.second)
      bad.push_back("packet #" + std::to_string(e.pkt) + " overtook an earlier packet of input port " +
                    std::to_string(e.in_port) + " VC " + std::to_string(e.vc) + " toward port " +
                    std::to_string(it->second.first));
    last[key] = it->second.second;
  }
  if (seen.size() != m_entries.size())
    bad.push_back(std::to_string(seen.size()) + " packets delivered, " + std::to_string(m_entries.size()) + " injected");
  // Empty, and every credit home.
  if (m_switch->buffered_phits() != 0)
    bad.push_back("the switch still buffers " + std::to_string(m_switch->buffered_phits()) + " phits");
  const bool pfc = m_prm.flow_control == FlowControl::Pfc;
  for (int p = 0; p < radix(); ++p) {
    const PortAgent& a = *m_agents[static_cast<size_t>(p)];
    const int c = m_topo->port_class_of(p);
    for (int v = 0; v < m_switch->in_vcs(p); ++v) {
      if (!pfc && a.credits(v) != static_cast<int64_t>(m_prm.in_buf[c]))
        bad.push_back("port " + std::to_string(p) + " VC " + std::to_string(v) + ": the sender holds " +
                      std::to_string(a.credits(v)) + " credits of " + std::to_string(m_prm.in_buf[c]));
      if (pfc && a.paused(v)) bad.push_back("port " + std::to_string(p) + " VC " + std::to_string(v) + " still paused");
    }
    if (c == kHostClass || pfc) continue;
    for (int v = 0; v < m_switch->out_vcs(p); ++v)
      if (*m_switch->out_credits(p, v) != static_cast<int32_t>(m_prm.in_buf[c]))
        bad.push_back("output port " + std::to_string(p) + " VC " + std::to_string(v) + ": the switch holds " +
                      std::to_string(*m_switch->out_credits(p, v)) + " credits of " + std::to_string(m_prm.in_buf[c]));
  }
  return bad;
}

}  // namespace scfly
