// QCN-Switch: the 802.1Qau congestion point (CP) and the per-port "minimal port
// probability" table its notifications drive.
//
// Paper (the QCN-Switch paper): Benito, Vallejo, Izu, Beivide, "Non-minimal Adaptive Routing
// Based on Explicit Congestion Notifications" (Concurrency and Computation: Practice and
// Experience, 2019):
// sec. 2.3 (QCN congestion point, Fig. 2), 3.1.2 (AIMD port probabilities), 3.2 (feedback
// comparison, Fig. 5), 3.3 / 3.3.1 (input vs output sampling, source processing), Table I
// (every default below). Where the paper is silent (the quantization of Fb, the integer
// comparison with N, a floor for P) scfly follows FOGSim, the authors' simulator, and says
// so below; docs/model.md ("QCN-Switch on an Ethernet Dragonfly") states these choices.
// The routing that reads these probabilities is MIN-COND (min_cond.h); this file is the
// pure arithmetic and the two small state blocks, with no simulator in them.
//
// Fixed point. A probability is held in units of 2^-16 percent (kQcnOne = 1 %, kQcnMax =
// 100 % = 6,553,600 < 2^23), so every update is exact integer arithmetic that the RTL
// refinement can reproduce bit for bit: a decrease by the factor (1 - Lf*x), Lf = 1/D, is
// P' = floor(P * (D - min(x, D)) / D); an increase is P' = min(100 %, P + PI). The routing
// compares the draw N (1..100) with the integer percent floor(P) (FOGSim's rule).
//
// Feedback (sec. 2.3; FOGSim's quantization, the paper giving only its 6 bits and the
// saturation at 2 Qeq): with Q the sampled queue,
// Qeq the equilibrium point, Q_old the queue at the previous sample and weight w,
//   raw = clamp((Q - Qeq) + w (Q - Q_old), 0, Qeq (1 + 2w));  Fb = floor(63 raw / (Qeq (1 + 2w)))
// so Fb in 0..63 (6 bits), larger = more congested, saturating at Q = 2 Qeq when w = 0.
// (The standard's Fb is the negative of this; only its magnitude is ever used.)
//
// Port probabilities (sec. 3.1.2, 3.2), one per transit port, initially 100 %:
//   CNM with Fb through port r, base AIMD:  P[r] = max(Pmin, P[r] (1 - Lf Fb));
//   with feedback comparison (FbC): LastFb[r] = Fb, avg = floor(sum LastFb / #transit ports),
//     Fb <= avg - Th1  -> P[r] += PI (the increase);
//     Fb >= avg + Th2  -> P[r] = max(Pmin, P[r] (1 - Lf (Fb - avg)));
//     otherwise        -> unchanged (the window (avg - Th1, avg + Th2) of Fig. 5);
//   either way the port's packet counter restarts;
//   every PC_l packets through a port without a CNM: P += PI (capped at 100 %).
// Boundaries follow the paper's open window: increase at Fb = avg - Th1 and decrease at
// Fb = avg + Th2 (FOGSim increases at Fb <= avg + Th1 and decreases only at Fb > avg + Th2;
// with Table I's Th1 = 0 the two differ only when Fb = avg + Th2 exactly).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace scfly {

constexpr uint32_t kQcnOne = 1u << 16;      // 1 percent
constexpr uint32_t kQcnMax = 100 * kQcnOne;  // 100 percent
constexpr uint32_t kQcnFbMax = 63;           // 6-bit feedback

// Where the congestion point samples: the output buffers of transit ports (802.1Qau, the
// paper's final design) or their input buffers ([Neeser12], sec. 3.3).
enum class QcnSampling : uint8_t { Output, Input };
const char* to_string(QcnSampling s);
// What paces the samples: `packets`, one per CPC packets entering the sampled queue (the
// paper's sec. 2.3); `time`, one per CPC packet times (CPC x packet_phits cycles) whatever
// flows, so a paused, congested port is sampled too (FOGSim samples on a cycle counter).
enum class QcnClock : uint8_t { Packets, Time };
const char* to_string(QcnClock c);
// What an output-sampling congestion point reads as the port's queue Q, and where its
// culprit comes from. `waiting`: the port's output data VCs plus every input data VC whose
// routed head waits for the port (SwitchState::queued_for_output, the virtual output
// queue); the culprit is the packet whose arrival triggered the sample (time-paced: one of
// that queue drawn at random). `output`: the port's output data VCs only, and the culprit is
// the first data packet in them (FOGSim's IOQ congestion point reads the port's output FIFO,
// `switch/ioqSwitchModule.cc:498` of fuentesp/fogsim, and takes the first non-CNM packet
// from its head, `:512-516`); a sample of an empty output queue sends nothing.
enum class QcnCpQueue : uint8_t { Waiting, Output };
const char* to_string(QcnCpQueue q);
// Which port a local update (a culprit from one of this switch's own hosts) decreases.
// `sampled`: the port whose congestion point fired (the CNM would come back to it).
// `minimal`: the culprit's minimal output port at this switch, as FOGSim does
// (`routing->minOutputPort(culprit->destId)`, `switch/ioqSwitchModule.cc:546-550`), which
// differs from the sampled port when the culprit was misrouted through it.
enum class QcnLocalPort : uint8_t { Sampled, Minimal };
const char* to_string(QcnLocalPort p);

// Table I defaults. Queue sizes are in phits; qeq is a fraction of the sampled buffer.
struct QcnParams {
  QcnSampling sampling = QcnSampling::Output;
  QcnClock clock = QcnClock::Packets;
  bool feedback_comparison = true;  // sec. 3.2 (FbC)
  bool source_processing = false;   // sec. 3.3.1 (input sampling only)
  double qeq = 0.2;                 // Q_eq, fraction of one VC buffer of the sampled port
  uint32_t w = 0;                   // weight of Q_delta (QCN's own default is 2)
  uint32_t cpc = 100;               // congestion point cycle: packets between samples
  uint32_t cnm_percent = 30;        // % of congested samples that emit a CNM
  uint32_t lf_den = 64;             // L_f = 1 / lf_den
  uint32_t pc_limit = 100;          // PC_l, packets through a port per increase
  uint32_t pi = kQcnOne;            // PI, fixed point (1 %)
  uint32_t th1 = 0, th2 = 30;       // feedback-comparison thresholds
  uint32_t p_min = 0;               // probability floor, fixed point (not in the paper)
  uint16_t cnm_phits = 0;           // CNM frame size; 0 = one data packet (as FOGSim)
  QcnCpQueue cp_queue = QcnCpQueue::Waiting;        // output sampling: what Q reads (above)
  QcnLocalPort local_port = QcnLocalPort::Sampled;  // the port a local update decreases
};

// Quantized feedback 0..63 (formula above). qeq >= 1.
uint32_t qcn_feedback(uint32_t q, uint32_t q_old, uint32_t qeq, uint32_t w);
// P * (1 - x / den), floored, never below p_min (x >= den gives p_min).
uint32_t qcn_decrease(uint32_t p, uint32_t x, uint32_t den, uint32_t p_min);
// P + pi, capped at 100 %.
uint32_t qcn_increase(uint32_t p, uint32_t pi);
// Integer percent the routing compares N with: floor(P).
inline int qcn_percent(uint32_t p) { return static_cast<int>(p / kQcnOne); }

// A replacement for the table's update arithmetic: the co-simulated RTL
// (rtl_models/verilog/qcn_port_prob.sv, --rtl qcn), indexed by transit port (port - first).
// cnm() and packet() are one update each (a clock edge); read() returns a port's registers.
class QcnPortBlock {
 public:
  virtual ~QcnPortBlock() = default;
  virtual void cnm(int index, uint32_t fb) = 0;
  virtual void packet(int index) = 0;
  virtual void read(int index, uint32_t& p, uint32_t& last_fb, uint32_t& cnt) const = 0;
  virtual uint32_t fb_avg() const = 0;
};

// The QCN-Switch port-probability table of one switch: P, LastFb and the packet counter
// of each transit port [first, first + ports).
class QcnPortTable {
 public:
  QcnPortTable(int first_port, int ports, const QcnParams& prm);
  // From now on the updates are the block's (its registers start as this table's initial
  // state: P = 100 %, LastFb and counters 0); the getters read its registers back.
  void set_block(std::unique_ptr<QcnPortBlock> b) { m_block = std::move(b); }
  // A CNM carrying `fb` arrived through (or, for a local update, concerns) transit port
  // `port`: base AIMD or feedback comparison as configured; the port's counter restarts.
  void on_cnm(int port, uint32_t fb);
  // `n` packets went through transit port `port`: an increase every PC_l of them.
  void on_packets(int port, uint32_t n);
  uint32_t p(int port) const { return m_p[idx(port)]; }
  int percent(int port) const { return qcn_percent(m_p[idx(port)]); }
  uint32_t last_fb(int port) const { return m_last_fb[idx(port)]; }
  uint32_t counter(int port) const { return m_cnt[idx(port)]; }
  // floor(sum of LastFb / #transit ports), what FbC compares with.
  uint32_t fb_avg() const { return m_ports ? m_fb_sum / static_cast<uint32_t>(m_ports) : 0; }
  int first_port() const { return m_first; }
  int ports() const { return m_ports; }
  bool is_transit(int port) const { return port >= m_first && port < m_first + m_ports; }
  // Pointers for tracing ([ports], in port order).
  const uint32_t* p_data() const { return m_p.data(); }
  const uint32_t* last_fb_data() const { return m_last_fb.data(); }
  const uint32_t* fb_avg_ptr() const { return &m_fb_avg; }

 private:
  size_t idx(int port) const { return static_cast<size_t>(port - m_first); }
  int m_first, m_ports;
  QcnParams m_prm;
  std::vector<uint32_t> m_p, m_last_fb, m_cnt;
  uint32_t m_fb_sum = 0;
  uint32_t m_fb_avg = 0;  // traced copy of fb_avg()
  std::shared_ptr<QcnPortBlock> m_block;  // --rtl qcn (a copy of the table shares it)
  void mirror(size_t i);  // the block's registers of port i into m_p, m_last_fb, m_cnt
};

// A replacement for the congestion points of one switch: the co-simulated RTL
// (rtl_models/verilog/qcn_cp.sv, --rtl qcn_cp), indexed by transit port (port - first).
// Each call is one update (a clock edge); read() returns a port's registers.
class QcnCpBlock {
 public:
  virtual ~QcnCpBlock() = default;
  virtual bool count(int index, uint32_t n) = 0;
  virtual uint32_t sample(int index, uint32_t q) = 0;
  virtual void sample_empty(int index) = 0;
  // After sample(index, ...) with Fb > 0: whether it emits a CNM, given the draw word
  // Rng::below(100) would scale (1 + below(100) <= cnm_percent).
  virtual bool emits(int index, uint32_t draw) const = 0;
  virtual void read(int index, uint32_t& count, uint32_t& q_old, uint32_t& last_fb) const = 0;
};

// One congestion point (a sampled port): counts packets entering the sampled buffer and
// samples one in every CPC of them (time-paced sampling keeps one timer for all ports).
// Queues are sampled saturated to kQueueBits (the RTL's width; sat_queue in rtl_widths.h,
// applied by the caller).
class QcnCongestionPoint {
 public:
  // From now on this point's updates are the block's, at index `index` (--rtl qcn_cp).
  void attach(QcnCpBlock* b, int index) {
    m_block = b;
    m_index = index;
  }
  // `n` packets entered the sampled buffer: true if a sample is due (one per CPC packets;
  // several due at once count as one sample).
  bool count(uint32_t n, uint32_t cpc) {
    if (m_block) {
      const bool due = m_block->count(m_index, n);
      mirror();
      return due;
    }
    m_count += n;
    if (m_count < cpc) return false;
    m_count %= cpc;
    return true;
  }
  // A sample of an empty queue (a time-paced sample while the switch slept): feedback 0,
  // no CNM, no draw; only Q_old := 0 remains of it.
  void sample_empty() {
    if (m_block) {
      m_block->sample_empty(m_index);
      mirror();
      return;
    }
    m_q_old = m_last_fb = 0;
  }
  // Takes the sample of queue `q` (phits): its feedback, and Q_old := q.
  uint32_t sample(uint32_t q, uint32_t qeq, uint32_t w) {
    if (m_block) {
      const uint32_t fb = m_block->sample(m_index, q);
      mirror();
      return fb;
    }
    const uint32_t fb = qcn_feedback(q, m_q_old, qeq, w);
    m_q_old = q;
    m_last_fb = fb;
    return fb;
  }
  // Whether the last sample (Fb > 0) emits a CNM: 1 + below(100) <= pct, drawn from `rng`
  // (a template so this header needs no Rng).
  template <class R>
  bool emits(R& rng, uint32_t pct) const {
    if (m_block) return m_block->emits(m_index, rng.next32());
    return 1 + rng.below(100) <= pct;
  }
  const uint32_t* count_ptr() const { return &m_count; }
  const uint32_t* last_q_ptr() const { return &m_q_old; }  // Q_old is the last sample's Q
  const uint32_t* last_fb_ptr() const { return &m_last_fb; }

 private:
  void mirror() { m_block->read(m_index, m_count, m_q_old, m_last_fb); }
  uint32_t m_count = 0, m_q_old = 0, m_last_fb = 0;
  QcnCpBlock* m_block = nullptr;
  int m_index = 0;
};

}  // namespace scfly
