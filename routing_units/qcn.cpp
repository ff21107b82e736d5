#include "routing_units/qcn.h"

#include <algorithm>

namespace scfly {

const char* to_string(QcnSampling s) { return s == QcnSampling::Input ? "input" : "output"; }
const char* to_string(QcnClock c) { return c == QcnClock::Time ? "time" : "packets"; }
const char* to_string(QcnCpQueue q) { return q == QcnCpQueue::Output ? "output" : "waiting"; }
const char* to_string(QcnLocalPort p) { return p == QcnLocalPort::Minimal ? "minimal" : "sampled"; }

uint32_t qcn_feedback(uint32_t q, uint32_t q_old, uint32_t qeq, uint32_t w) {
  const int64_t raw = (static_cast<int64_t>(q) - qeq) + static_cast<int64_t>(w) * (static_cast<int64_t>(q) - q_old);
  const int64_t span = static_cast<int64_t>(qeq) * (1 + 2 * static_cast<int64_t>(w));
  const int64_t c = std::clamp<int64_t>(raw, 0, span);
  return static_cast<uint32_t>(kQcnFbMax * c / span);
}

uint32_t qcn_decrease(uint32_t p, uint32_t x, uint32_t den, uint32_t p_min) {
  const uint64_t keep = x >= den ? 0 : den - x;
  const uint32_t v = static_cast<uint32_t>(static_cast<uint64_t>(p) * keep / den);
  return std::max(v, p_min);
}

uint32_t qcn_increase(uint32_t p, uint32_t pi) { return std::min<uint64_t>(static_cast<uint64_t>(p) + pi, kQcnMax); }

QcnPortTable::QcnPortTable(int first_port, int ports, const QcnParams& prm)
    : m_first(first_port), m_ports(ports), m_prm(prm),
      m_p(static_cast<size_t>(ports), kQcnMax), m_last_fb(static_cast<size_t>(ports), 0),
      m_cnt(static_cast<size_t>(ports), 0) {}

void QcnPortTable::mirror(size_t i) {
  const uint32_t old_fb = m_last_fb[i];
  m_block->read(static_cast<int>(i), m_p[i], m_last_fb[i], m_cnt[i]);
  m_fb_sum = m_fb_sum - old_fb + m_last_fb[i];
  m_fb_avg = m_block->fb_avg();
}

void QcnPortTable::on_cnm(int port, uint32_t fb) {
  const size_t i = idx(port);
  if (m_block) {
    m_block->cnm(static_cast<int>(i), fb);
    mirror(i);
    return;
  }
  m_cnt[i] = 0;
  uint32_t& p = m_p[i];
  if (!m_prm.feedback_comparison) {
    p = qcn_decrease(p, fb, m_prm.lf_den, m_prm.p_min);
    return;
  }
  m_fb_sum = m_fb_sum - m_last_fb[i] + fb;
  m_last_fb[i] = fb;
  const uint32_t avg = fb_avg();
  m_fb_avg = avg;
  if (fb + m_prm.th1 <= avg) p = qcn_increase(p, m_prm.pi);
  else if (fb >= avg + m_prm.th2) p = qcn_decrease(p, fb - avg, m_prm.lf_den, m_prm.p_min);
}

void QcnPortTable::on_packets(int port, uint32_t n) {
  const size_t i = idx(port);
  if (m_block) {
    for (uint32_t k = 0; k < n; ++k) m_block->packet(static_cast<int>(i));
    mirror(i);
    return;
  }
  m_cnt[i] += n;
  while (m_cnt[i] >= m_prm.pc_limit) {
    m_cnt[i] -= m_prm.pc_limit;
    m_p[i] = qcn_increase(m_p[i], m_prm.pi);
  }
}

}  // namespace scfly
