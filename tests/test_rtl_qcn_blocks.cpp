// RTL == C++ for QCN-Switch's port-probability unit: qcn_port_prob.sv (the Verilated model
// a switch drives with --rtl qcn, one clock edge per update) inside a QcnPortTable against
// a plain QcnPortTable, in lockstep over random CNMs and packet streams, on a grid of
// port counts, L_f, PC_l, PI, P_min and thresholds, with and without feedback comparison:
// every port's P, LastFb and counter and the average must agree after every update.
// And qcn_cp.sv (the congestion points, --rtl qcn_cp) attached to QcnCongestionPoints
// against plain ones: sample due, feedback, the %CNM decision (same draws) and the traced
// registers after every update, over queues around Q_eq and at the 16-bit edge.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "routing_units/qcn.h"
#include "routing_units/rtl_widths.h"
#include "rtl_models/verilog/rtl_blocks.h"
#include "topologies/common/rng.h"

namespace scfly {

namespace {

::testing::AssertionResult same(const QcnPortTable& a, const QcnPortTable& b, int first, int ports, int step) {
  for (int port = first; port < first + ports; ++port)
    if (a.p(port) != b.p(port) || a.last_fb(port) != b.last_fb(port) || a.counter(port) != b.counter(port))
      return ::testing::AssertionFailure()
             << "update " << step << ", port " << port << ": C++ P " << a.p(port) << " LastFb " << a.last_fb(port)
             << " counter " << a.counter(port) << "; RTL P " << b.p(port) << " LastFb " << b.last_fb(port)
             << " counter " << b.counter(port);
  if (a.fb_avg() != b.fb_avg() || *a.fb_avg_ptr() != *b.fb_avg_ptr())
    return ::testing::AssertionFailure() << "update " << step << ": average " << a.fb_avg() << "/" << *a.fb_avg_ptr()
                                         << " vs " << b.fb_avg() << "/" << *b.fb_avg_ptr();
  return ::testing::AssertionSuccess();
}

}  // namespace

TEST(RtlQcnPortProb, MatchesTheCppTableInLockstep) {
  Rng rng(5, StreamKind::Qcn, 77);
  int runs = 0;
  uint64_t decreases = 0, increases = 0;
  for (int ports : {1, 5, 11, 32})
    for (bool fbc : {true, false})
      for (int v = 0; v < 6; ++v) {
        QcnParams q;
        q.feedback_comparison = fbc;
        // Table I, then variations: L_f 1/1 and 1/3, 1/65536; PC_l 1 and 5; PI 0.37 % and
        // 100 %; P_min 10 %; Th1 5, Th2 0 or 63.
        if (v == 1) q.lf_den = 1, q.pc_limit = 5, q.th2 = 0;
        if (v == 2) q.lf_den = 3, q.pi = 24248, q.p_min = 10 * kQcnOne;
        if (v == 3) q.lf_den = 65536, q.pc_limit = 1, q.pi = kQcnMax, q.th1 = 5;
        if (v == 4) q.lf_den = 100, q.th1 = 5, q.th2 = 63;
        if (v == 5) q.pc_limit = 1000000, q.th2 = 3;
        const int first = 3;
        QcnPortTable cpp(first, ports, q), rtl(first, ports, q);
        rtl.set_block(make_rtl_qcn_port_prob(q, ports, "qcn_rtl_lockstep"));
        for (int step = 0; step < 3000; ++step) {
          const int port = first + static_cast<int>(rng.below(static_cast<uint32_t>(ports)));
          if (rng.below(3) == 0) {
            // Feedback: mostly small, often 0 or 63 (the ends of the 6-bit range).
            const uint32_t r = rng.below(6);
            const uint32_t fb = r == 0 ? 0 : r == 1 ? kQcnFbMax : rng.below(r < 4 ? 16 : 64);
            const uint32_t before = cpp.p(port);
            cpp.on_cnm(port, fb);
            rtl.on_cnm(port, fb);
            decreases += cpp.p(port) < before;
            increases += cpp.p(port) > before;
          } else {
            const uint32_t n = 1 + rng.below(3);
            cpp.on_packets(port, n);
            rtl.on_packets(port, n);
          }
          ASSERT_TRUE(same(cpp, rtl, first, ports, step)) << ports << " ports, variant " << v << (fbc ? ", FbC" : "");
        }
        ++runs;
      }
  EXPECT_EQ(runs, 48);
  EXPECT_GT(decreases, 10000U);  // both directions were exercised (CNM-driven increases)
  EXPECT_GT(increases, 3000U);
}

TEST(RtlQcnCp, MatchesTheCppCongestionPointsInLockstep) {
  Rng rng(9, StreamKind::Qcn, 78);
  int runs = 0;
  uint64_t due = 0, fb_nonzero = 0, emitted = 0, fb_max = 0;
  for (uint32_t w : {0u, 2u, 64u})
    for (uint32_t cpc : {1u, 3u, 100u})
      for (uint32_t pct : {0u, 30u, 100u}) {
        QcnParams q;
        q.w = w;
        q.cpc = cpc;
        q.cnm_percent = pct;
        const int ports = 1 + static_cast<int>(rng.below(kQcnPortsMax));
        std::vector<uint32_t> qeq(static_cast<size_t>(ports));
        for (auto& e : qeq) {
          const uint32_t r = rng.below(4);
          e = r == 0 ? 1 : r == 1 ? kQueueMax : 1 + rng.below(2000);
        }
        std::vector<QcnCongestionPoint> cpp(static_cast<size_t>(ports)), rtl(static_cast<size_t>(ports));
        const std::unique_ptr<QcnCpBlock> blk = make_rtl_qcn_cp(q, qeq, "qcn_cp_rtl_lockstep");
        for (int i = 0; i < ports; ++i) rtl[static_cast<size_t>(i)].attach(blk.get(), i);
        Rng da(3, StreamKind::Qcn, static_cast<uint64_t>(runs)), db(3, StreamKind::Qcn, static_cast<uint64_t>(runs));
        for (int step = 0; step < 2000; ++step) {
          const size_t k = rng.below(static_cast<uint32_t>(ports));
          QcnCongestionPoint &a = cpp[k], &b = rtl[k];
          const uint32_t op = rng.below(10);
          const auto where = [&] {
            return "w " + std::to_string(w) + " cpc " + std::to_string(cpc) + " pct " + std::to_string(pct) +
                   ", update " + std::to_string(step) + ", port " + std::to_string(k);
          };
          if (op < 5) {
            const uint32_t n = 1 + rng.below(4);
            const bool x = a.count(n, cpc), y = b.count(n, cpc);
            ASSERT_EQ(x, y) << where();
            due += x;
          } else if (op < 9) {
            // Queues near Q_eq (every slope of the feedback), empty, and saturated.
            const uint32_t e = qeq[k], r = rng.below(6);
            const uint32_t qv = r == 0 ? 0 : r == 1 ? 100000 : sat_queue(rng.below(3 * e + 2));
            const uint32_t qs = sat_queue(qv);
            const uint32_t fa = a.sample(qs, e, w), fb = b.sample(qs, e, w);
            ASSERT_EQ(fa, fb) << where() << ", Q " << qs << " Q_eq " << e;
            fb_max = std::max<uint64_t>(fb_max, fa);
            if (fa > 0) {
              ++fb_nonzero;
              const bool ea = a.emits(da, pct), eb = b.emits(db, pct);
              ASSERT_EQ(ea, eb) << where();
              emitted += ea;
            }
          } else {
            a.sample_empty();
            b.sample_empty();
          }
          ASSERT_EQ(*a.count_ptr(), *b.count_ptr()) << where();
          ASSERT_EQ(*a.last_q_ptr(), *b.last_q_ptr()) << where();
          ASSERT_EQ(*a.last_fb_ptr(), *b.last_fb_ptr()) << where();
        }
        ASSERT_EQ(da.next(), db.next());  // the same draws on both sides
        ++runs;
      }
  EXPECT_EQ(runs, 27);
  EXPECT_GT(due, 1000U);
  EXPECT_GT(fb_nonzero, 1000U);
  EXPECT_GT(emitted, 100U);
  EXPECT_EQ(fb_max, kQcnFbMax);
}

TEST(RtlQcnPortProb, RefusesWhatItCannotHold) {
  QcnParams q;
  EXPECT_THROW(make_rtl_qcn_port_prob(q, kQcnPortsMax + 1, "x"), std::invalid_argument);
  EXPECT_THROW(make_rtl_qcn_port_prob(q, 0, "x"), std::invalid_argument);
  EXPECT_THROW(make_rtl_qcn_cp(q, std::vector<uint32_t>{1, kQueueMax + 1}, "x"), std::invalid_argument);
  EXPECT_THROW(make_rtl_qcn_cp(q, std::vector<uint32_t>(static_cast<size_t>(kQcnPortsMax) + 1, 1), "x"),
               std::invalid_argument);
}

}  // namespace scfly
