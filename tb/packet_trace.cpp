#include "tb/packet_trace.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <stdexcept>
#include <tuple>

#include "routing_units/misrouting.h"
#include "topologies/dragonfly.h"

namespace scfly {

namespace {

constexpr size_t kFlushBytes = 1 << 20;

// A row's longest text: 12 + kMaxPortClasses numbers (10 fixed, the hops per port class but
// the host's, nonminimal, inter_switch, vlb_at) of at most 20 characters each (an int64),
// the policy's name (at most 15), and their separators.
constexpr size_t kMaxRow = (12 + kMaxPortClasses) * 21 + 16;

char* put(char* e, int64_t v) {
  e = std::to_chars(e, e + 20, v).ptr;
  *e++ = ',';
  return e;
}

}  // namespace

PacketTrace::PacketTrace(const std::string& path, const Topology& topo, uint64_t from, uint64_t to)
    : m_path(path), m_topo(topo), m_classes(topo.num_port_classes()), m_from(from), m_to(to) {
  m_dfly = dynamic_cast<const Dragonfly*>(&topo);
  m_f = std::fopen(path.c_str(), "w");
  if (!m_f) throw std::runtime_error("--packet-trace: cannot write '" + path + "': " + std::strerror(errno));
  m_buf.reserve(kFlushBytes + 512);
  m_buf = "src_node,dst_node,src_switch,dst_switch,phits,gen_cycle,inject_cycle,deliver_cycle,latency,"
          "network_latency,";
  for (int c = 1; c < m_classes; ++c) m_buf += std::string("hops_") + topo.port_class_name(c) + ",";
  m_buf += "nonminimal,policy,inter_switch,vlb_at\n";
}

PacketTrace::PacketTrace(Shard, const PacketTrace& file)
    : m_path(file.m_path), m_topo(file.m_topo), m_dfly(file.m_dfly), m_classes(file.m_classes),
      m_from(file.m_from), m_to(file.m_to), m_windowed(true) {}

PacketTrace::~PacketTrace() { close(); }

void PacketTrace::delivered(const Packet& p, uint64_t at) {
  if (at < m_from || at > m_to) return;
  if (at != m_cycle && !m_windowed) {
    end_cycle();
    m_cycle = at;
  }
  char row[kMaxRow];
  char* e = row;
  const int src_sw = m_topo.switch_of_node(p.src_node);
  e = put(e, p.src_node);
  e = put(e, p.dst_node);
  e = put(e, src_sw);
  e = put(e, m_topo.switch_of_node(p.dst_node));
  e = put(e, p.phits);
  e = put(e, static_cast<int64_t>(p.gen_cycle));
  e = put(e, static_cast<int64_t>(p.inject_cycle));
  e = put(e, static_cast<int64_t>(at));
  e = put(e, static_cast<int64_t>(at - p.gen_cycle));
  e = put(e, static_cast<int64_t>(at - p.inject_cycle));
  for (int c = 1; c < m_classes; ++c) e = put(e, p.class_hops[c]);
  e = put(e, p.route.nonminimal ? 1 : 0);
  const char* policy = p.route.policy < kMisrouteKinds ? to_string(static_cast<Misroute>(p.route.policy)) : "?";
  const size_t n = std::strlen(policy);
  if (n > 15) throw std::logic_error("--packet-trace: a policy name longer than its field");
  std::memcpy(e, policy, n);
  e += n;
  *e++ = ',';
  const int inter = p.route.inter_switch;
  e = put(e, inter);
  int at_sw = -1;
  if (inter >= 0) {
    if (!m_dfly) at_sw = src_sw;  // a torus draws its intermediate at the source
    else if (p.route.vlb_from != RouteHeader::kNotDrawn) at_sw = m_dfly->switch_id(m_dfly->group_of(src_sw), p.route.vlb_from);
  }
  e = put(e, at_sw);
  e[-1] = '\n';
  const auto len = static_cast<uint32_t>(e - row);
  m_pending.push_back(Row{at, p.dst_node, p.src_node, p.gen_cycle, static_cast<uint32_t>(m_text.size()), len});
  m_text.append(row, len);
}

void PacketTrace::end_cycle() {
  if (!m_windowed) write_pending();
}

void PacketTrace::absorb(PacketTrace& shard) {
  const auto base = static_cast<uint32_t>(m_text.size());
  if (m_text.size() + shard.m_text.size() > UINT32_MAX) throw std::length_error("--packet-trace: a window's rows exceed 4 GiB");
  m_text += shard.m_text;
  for (Row r : shard.m_pending) {
    r.off += base;
    m_pending.push_back(r);
  }
  shard.m_pending.clear();
  shard.m_text.clear();
}

void PacketTrace::end_window() { write_pending(); }

// Stable: rows of one key keep their destination NIC's delivery order (one NIC delivers
// every row of a destination, in the same order on either scheduler).
void PacketTrace::write_pending() {
  std::stable_sort(m_pending.begin(), m_pending.end(), [](const Row& a, const Row& b) {
    return std::tie(a.at, a.dst, a.src, a.gen) < std::tie(b.at, b.dst, b.src, b.gen);
  });
  for (const Row& r : m_pending) m_buf.append(m_text, r.off, r.len);
  m_pending.clear();
  m_text.clear();
  if (m_buf.size() >= kFlushBytes) flush();
}

void PacketTrace::flush() {
  if (!m_f || m_buf.empty()) return;
  if (std::fwrite(m_buf.data(), 1, m_buf.size(), m_f) != m_buf.size() && m_error.empty())
    m_error = "--packet-trace: writing '" + m_path + "' failed: " + std::strerror(errno);
  m_buf.clear();
}

bool PacketTrace::close() {
  if (!m_f) return m_error.empty();
  write_pending();
  flush();
  if (std::fclose(m_f) != 0 && m_error.empty())
    m_error = "--packet-trace: closing '" + m_path + "' failed: " + std::strerror(errno);
  m_f = nullptr;
  return m_error.empty();
}

}  // namespace scfly
