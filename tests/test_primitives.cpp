// Building blocks without a clock: ring buffer, random streams, traffic patterns, stats.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <set>
#include <thread>
#include <vector>

#include "rtl_models/switch/flit.h"
#include "rtl_models/switch/ring_buffer.h"
#include "topologies/common/rng.h"
#include "tb/sim_config.h"
#include "tb/stats.h"
#include "tb/traffic.h"
#include "tb/worker_pool.h"

using namespace scfly;

TEST(RingBuffer, FifoOrderAcrossGrowthAndWrap) {
  RingBuffer<int> rb(100);
  int next_out = 0;
  for (int i = 0; i < 1000; ++i) {
    rb.push(i);
    if (i % 3 == 2) {  // drain slower than we fill so storage grows and wraps
      EXPECT_EQ(rb.front(), next_out++);
      rb.pop();
    }
    if (rb.full()) break;
  }
  EXPECT_TRUE(rb.full());
  EXPECT_EQ(rb.free(), 0u);
  while (!rb.empty()) {
    EXPECT_EQ(rb.front(), next_out++);
    rb.pop();
  }
}

TEST(Rng, SameSeedAndIdSameStreamDifferentIdsDiffer) {
  Rng a(42, StreamKind::Nic, 7), b(42, StreamKind::Nic, 7), c(42, StreamKind::Nic, 8),
      d(42, StreamKind::Switch, 7), e(43, StreamKind::Nic, 7);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(a.next(), b.next());
  const uint64_t x = a.next();
  EXPECT_NE(x, c.next());
  EXPECT_NE(x, d.next());
  EXPECT_NE(x, e.next());
}

TEST(Rng, BelowIsInRangeAndCoversIt) {
  Rng r(1, StreamKind::Traffic, 0);
  std::vector<int> hits(37, 0);
  for (int i = 0; i < 37000; ++i) {
    const uint32_t v = r.below(37);
    ASSERT_LT(v, 37u);
    ++hits[v];
  }
  for (int h : hits) EXPECT_GT(h, 800);  // expected 1000 each
  for (int i = 0; i < 1000; ++i) {
    const double u = r.uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
  }
}

TEST(Traffic, UniformNeverPicksTheSourceAndCoversAllOthers) {
  const Dragonfly t(DragonflyShape{2, 4, 2, 9, Arrangement::Palmtree});
  TrafficPattern un(TrafficSpec{TrafficKind::Uniform, 0}, t);
  Rng r(3, StreamKind::Traffic, 0);
  std::set<int> seen;
  for (int i = 0; i < 20000; ++i) {
    const int d = un.dest(5, r);
    ASSERT_NE(d, 5);
    ASSERT_GE(d, 0);
    ASSERT_LT(d, t.num_nodes());
    seen.insert(d);
  }
  EXPECT_EQ(static_cast<int>(seen.size()), t.num_nodes() - 1);
}

TEST(Traffic, AdversarialTargetsEveryNodeOfGroupPlusI) {
  const Dragonfly t(DragonflyShape{2, 4, 2, 9, Arrangement::Palmtree});
  for (int i : {1, 2, 8, 10}) {
    TrafficPattern adv(TrafficSpec{TrafficKind::Adversarial, i}, t);
    Rng r(4, StreamKind::Traffic, 0);
    for (int src : {0, 17, 71}) {
      std::set<int> seen;
      const int want = (src / 8 + i) % 9;
      for (int k = 0; k < 2000; ++k) {
        const int d = adv.dest(src, r);
        ASSERT_EQ(d / 8, want) << "adv+" << i << " from node " << src;
        seen.insert(d);
      }
      EXPECT_EQ(seen.size(), 8u);  // a*p nodes in the group
    }
  }
}

TEST(Traffic, ParsingAcceptsOnlyKnownPatterns) {
  TrafficSpec s;
  EXPECT_EQ(parse_traffic("un", s), "");
  EXPECT_EQ(parse_traffic("adv+4", s), "");
  EXPECT_EQ(s.offset, 4);
  EXPECT_NE(parse_traffic("adv+", s), "");
  EXPECT_NE(parse_traffic("adv+x", s), "");
  EXPECT_NE(parse_traffic("adv-1", s), "");
  EXPECT_NE(parse_traffic("UN", s), "");
}

TEST(Stats, WindowPercentilesHopsAndFairness) {
  NetStats st(4, 2, 100, 200, {"host", "local", "global"});  // 4 nodes, 2 per switch, window [100, 200)
  Packet p;
  p.phits = 2;
  p.src_node = 0;
  p.class_hops[static_cast<int>(PortClass::Local)] = 2;
  p.class_hops[static_cast<int>(PortClass::Global)] = 1;
  for (int i = 0; i < 100; ++i) {
    p.gen_cycle = 0;
    p.inject_cycle = 10;
    st.injected();
    st.delivered(p, 100 + static_cast<uint64_t>(i));  // latencies 100..199
  }
  p.src_node = 3;
  st.injected();
  st.delivered(p, 50);  // before the window: not measured
  const Metrics m = st.compute(0.5);
  EXPECT_EQ(m.packets_measured, 100u);
  EXPECT_DOUBLE_EQ(m.latency_avg, 149.5);
  EXPECT_DOUBLE_EQ(m.latency_p50, 149);
  EXPECT_DOUBLE_EQ(m.latency_p99, 198);
  EXPECT_DOUBLE_EQ(m.latency_max, 199);
  EXPECT_DOUBLE_EQ(m.network_latency_avg, 139.5);
  EXPECT_DOUBLE_EQ(m.hops_avg, 3.0);
  ASSERT_EQ(m.class_hops_avg.size(), 2u);  // per class the topology names, hosts excluded
  EXPECT_EQ(m.class_hops_avg[0].first, "local");
  EXPECT_DOUBLE_EQ(m.class_hops_avg[0].second, 2.0);
  EXPECT_EQ(m.class_hops_avg[1].first, "global");
  EXPECT_DOUBLE_EQ(m.class_hops_avg[1].second, 1.0);
  EXPECT_DOUBLE_EQ(m.accepted_load, 200.0 / (100.0 * 4));
  // all measured traffic came from switch 0: Jain over 2 switches = 1/2
  EXPECT_DOUBLE_EQ(m.jain_fairness, 0.5);
  EXPECT_DOUBLE_EQ(m.switch_accepted_max, 1.0);
  EXPECT_DOUBLE_EQ(m.switch_accepted_min, 0.0);
  EXPECT_EQ(m.packets_in_network, 0u);
}

// The allocator's candidate rule (route_types.h): first candidate in order with a free VC in
// its range, lowest VC first; none free -> -1; a one-VC candidate behaves as a RouteDecision.
TEST(Candidates, FirstFreeInOrderLowestVcFirst) {
  RouteCandidates s;
  ASSERT_TRUE(s.add(5, 1, 3));  // adaptive: port 5, VCs 1..3
  ASSERT_TRUE(s.add(7, 0, 0));  // escape: port 7, VC 0
  std::set<std::pair<int, int>> free_vcs;
  auto is_free = [&](int p, int v) { return free_vcs.count({p, v}) != 0; };
  RouteDecision d;
  EXPECT_EQ(first_free_candidate(s, is_free, d), -1);  // nothing free
  free_vcs = {{7, 0}};
  EXPECT_EQ(first_free_candidate(s, is_free, d), 1);  // only the escape
  EXPECT_EQ(d.port, 7);
  EXPECT_EQ(d.vc, 0);
  free_vcs = {{7, 0}, {5, 3}, {5, 2}};
  EXPECT_EQ(first_free_candidate(s, is_free, d), 0);  // the adaptive one wins, its lowest free VC
  EXPECT_EQ(d.port, 5);
  EXPECT_EQ(d.vc, 2);
  free_vcs = {{5, 0}, {5, 4}};  // outside the range [1, 3]
  EXPECT_EQ(first_free_candidate(s, is_free, d), -1);
  const RouteCandidates one = RouteCandidates::one(RouteDecision{3, 2});
  ASSERT_EQ(one.n, 1);
  free_vcs = {{3, 1}, {3, 3}};
  EXPECT_EQ(first_free_candidate(one, is_free, d), -1);  // exactly its VC, no other
  free_vcs = {{3, 2}};
  EXPECT_EQ(first_free_candidate(one, is_free, d), 0);
  RouteCandidates full;
  for (int i = 0; i < kMaxCandidates; ++i) EXPECT_TRUE(full.add(i, 0, 0));
  EXPECT_FALSE(full.add(9, 0, 0));
  EXPECT_EQ(full.n, kMaxCandidates);
}

// A reference into the packet pool outlives any number of allocations: a unit may hold a
// packet while a control frame is originated (flit.h).
TEST(PacketPool, ReferencesSurviveAllocations) {
  scfly::PacketPool pool;
  const scfly::PacketId first = pool.alloc();
  scfly::Packet& p = pool[first];
  p.src_node = 1234;
  const scfly::Packet* addr = &p;
  for (int i = 0; i < 200000; ++i) pool[pool.alloc()].src_node = i;
  EXPECT_EQ(&pool[first], addr);
  EXPECT_EQ(p.src_node, 1234);
  EXPECT_EQ(pool.live(), 200001);
  // Released slots are reused, reset.
  pool.release(first);
  const scfly::PacketId again = pool.alloc();
  EXPECT_EQ(again, first);
  EXPECT_EQ(pool[again].src_node, -1);
}

// Shards of a pool (sim.threads): the same packets, distinct new ids from every shard, a
// packet released by another shard than the one that allocated it reused by the releaser,
// and the shards' live counts adding up to the packets alive.
TEST(PacketPool, ShardsShareThePacketsAndKeepTheirOwnFreeLists) {
  scfly::PacketPool main;
  scfly::PacketPool a(main), b(main);
  std::vector<scfly::PacketId> ids;
  for (int i = 0; i < 100; ++i) {
    ids.push_back(main.alloc());
    ids.push_back(a.alloc());
    ids.push_back(b.alloc());
  }
  std::vector<scfly::PacketId> sorted = ids;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end());  // no id twice
  a[ids[0]].src_node = 77;  // allocated by main, written through shard a
  EXPECT_EQ(main[ids[0]].src_node, 77);
  EXPECT_EQ(&b[ids[0]], &main[ids[0]]);
  b.release(ids[0]);  // main's packet, released by b: b's to reuse
  EXPECT_EQ(b.alloc(), ids[0]);
  EXPECT_EQ(b[ids[0]].src_node, -1);
  b.release(ids[1]);
  EXPECT_EQ(main.live() + a.live() + b.live(), 299);
  EXPECT_EQ(b.live(), 99);  // 101 allocated, 2 released
  EXPECT_NE(main.alloc(), ids[1]);  // b's free slot is not main's
}

// The block scheduler's worker pool: every thread's task runs once per round, the caller's
// as task 0, and run() returns only when all are done; many rounds back to back (the
// workers spinning) and after a pause (the workers asleep).
TEST(WorkerPool, RunsEveryTaskOncePerRound) {
  for (int threads : {1, 2, 3}) {
    scfly::WorkerPool pool(threads);
    EXPECT_EQ(pool.threads(), threads);
    struct Ctx {
      std::vector<std::atomic<int>> hits;
      std::thread::id caller;
      bool caller_ran_0 = false;
    } ctx{std::vector<std::atomic<int>>(static_cast<size_t>(threads)), std::this_thread::get_id(), false};
    auto task = [](void* p, int t) {
      Ctx& c = *static_cast<Ctx*>(p);
      c.hits[static_cast<size_t>(t)].fetch_add(1);
      if (t == 0) c.caller_ran_0 = std::this_thread::get_id() == c.caller;
    };
    for (int r = 0; r < 2000; ++r) {
      pool.run(task, &ctx);
      for (int t = 0; t < threads; ++t) ASSERT_EQ(ctx.hits[static_cast<size_t>(t)].load(), r + 1);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // long enough for the workers to sleep
    pool.run(task, &ctx);
    for (int t = 0; t < threads; ++t) EXPECT_EQ(ctx.hits[static_cast<size_t>(t)].load(), 2001);
    EXPECT_TRUE(ctx.caller_ran_0);
  }
}

// NetStats::merge: the statistics of deliveries split over shards (sim.threads), merged,
// equal those of one NetStats that saw them all, metrics and time series.
TEST(NetStats, MergedShardsEqualOneStatistics) {
  const std::vector<std::string> classes{"host", "local", "global"};
  scfly::NetStats one(16, 4, 100, 900, classes), a(16, 4, 100, 900, classes), b(16, 4, 100, 900, classes);
  for (scfly::NetStats* s : {&one, &a, &b}) s->enable_timeseries(50);
  scfly::Rng rng(3, scfly::StreamKind::Traffic, 0);
  for (int i = 0; i < 5000; ++i) {
    scfly::Packet p;
    p.src_node = static_cast<int32_t>(rng.below(16));
    p.gen_cycle = rng.below(1000);
    p.inject_cycle = p.gen_cycle + rng.below(20);
    p.phits = static_cast<uint16_t>(1 + rng.below(8));
    p.class_hops[1] = static_cast<uint8_t>(rng.below(3));
    p.class_hops[2] = static_cast<uint8_t>(rng.below(2));
    p.route.nonminimal = rng.below(2) != 0;
    const uint64_t at = p.inject_cycle + 1 + rng.below(i % 7 == 0 ? 3000 : 60);
    scfly::NetStats& shard = (i % 3 == 0) ? a : b;
    one.generated(p.gen_cycle, p.phits);
    shard.generated(p.gen_cycle, p.phits);
    one.injected();
    shard.injected();
    one.delivered(p, at);
    shard.delivered(p, at);
  }
  // Ranks merge another process's statistics from a flat array (NetStats::pack): the same
  // sum. `c` is b through the array; a truncated or overlong array is refused.
  scfly::NetStats c(16, 4, 100, 900, classes);
  c.enable_timeseries(50);
  c.merge_packed(b.pack());
  EXPECT_EQ(c.pack(), b.pack());
  std::vector<uint64_t> cut = b.pack();
  cut.pop_back();
  EXPECT_THROW(c.merge_packed(cut), std::length_error);
  cut.push_back(0);
  cut.push_back(0);
  EXPECT_THROW(c.merge_packed(cut), std::length_error);
  a.merge(b);
  const scfly::Metrics m1 = one.compute(0.5), m2 = a.compute(0.5);
  EXPECT_GT(m1.packets_measured, 1000u);
  EXPECT_EQ(m1.packets_measured, m2.packets_measured);
  EXPECT_EQ(m1.latency_avg, m2.latency_avg);
  EXPECT_EQ(m1.latency_p99, m2.latency_p99);
  EXPECT_EQ(m1.latency_max, m2.latency_max);
  EXPECT_EQ(m1.network_latency_p50, m2.network_latency_p50);
  EXPECT_EQ(m1.hops_histogram, m2.hops_histogram);
  EXPECT_EQ(m1.switch_accepted, m2.switch_accepted);
  EXPECT_EQ(m1.accepted_load, m2.accepted_load);
  EXPECT_EQ(m1.generated_load, m2.generated_load);
  EXPECT_EQ(m1.nonminimal_fraction, m2.nonminimal_fraction);
  const scfly::TimeSeries t1 = one.timeseries(4000), t2 = a.timeseries(4000);
  EXPECT_EQ(t1.packets, t2.packets);
  EXPECT_EQ(t1.accepted_load, t2.accepted_load);
  EXPECT_EQ(t1.generated_load, t2.generated_load);
  EXPECT_EQ(t1.t_end, t2.t_end);
  for (size_t i = 0; i < t1.latency_avg.size(); ++i) {
    if (std::isnan(t1.latency_avg[i])) EXPECT_TRUE(std::isnan(t2.latency_avg[i]));
    else EXPECT_EQ(t1.latency_avg[i], t2.latency_avg[i]);
  }
}

// sim.threads: 0 (resolve_threads): the cores available (CPU affinity, capped by
// SCFLY_CORES, which a sweep sets to each job's share), at most one thread per
// kMinWindowWork switch-cycles of a window, at least 1; a given value capped by the switches.
TEST(Threads, AutomaticCountFollowsCoresAndWindowWork) {
  const char* saved = std::getenv("SCFLY_CORES");
  const std::string keep = saved ? saved : "";
  ::unsetenv("SCFLY_CORES");
  const int cores = scfly::available_cores();
  EXPECT_GE(cores, 1);
  EXPECT_EQ(scfly::resolve_threads(0, 36, 10), 1);                      // dfly-tiny: 360 switch-cycles
  EXPECT_EQ(scfly::resolve_threads(0, 64, 1), 1);                       // 8x8 torus, one-cycle links
  EXPECT_EQ(scfly::resolve_threads(0, 264, 10), std::min(cores, 5));    // dfly(4,8,4)
  EXPECT_EQ(scfly::resolve_threads(0, 876, 15), std::min(cores, 25));   // acor-table3
  EXPECT_EQ(scfly::resolve_threads(3, 2, 1), 2);                        // never more than the switches
  EXPECT_EQ(scfly::resolve_threads(2, 36, 10), 2);                      // a given value is taken
  ::setenv("SCFLY_CORES", "1", 1);
  EXPECT_EQ(scfly::available_cores(), 1);
  EXPECT_EQ(scfly::resolve_threads(0, 876, 15), 1);
  EXPECT_EQ(scfly::resolve_threads(2, 876, 15), 2);  // the cap is for the automatic count only
  for (const char* bad : {"0", "-2", "two", "", "3x"}) {
    ::setenv("SCFLY_CORES", bad, 1);
    EXPECT_EQ(scfly::available_cores(), cores) << bad;  // not a whole number >= 1: ignored
  }
  ::setenv("SCFLY_CORES", "1000", 1);
  EXPECT_EQ(scfly::available_cores(), cores);  // never more than the affinity allows
  if (saved) ::setenv("SCFLY_CORES", keep.c_str(), 1);
  else ::unsetenv("SCFLY_CORES");
}
