// Whole-network behaviour on dfly(2,4,2) (9 groups, 72 nodes): delivery and conservation,
// invariants under saturation, determinism, analytic throughput bounds, exact zero-load
// timing, waveform output. Each simulation is a child `scfly run` process.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "tests/mechanisms.h"
#include "scfly_run.h"

namespace {



}  // namespace

// Credits are range-checked on every update inside the switch and any overflow of an input
// buffer is a fatal error (exit 3), so a clean exit here also means the invariants held.
TEST(Network, EveryPacketIsDeliveredAfterDrainBelowAndAboveSaturation) {
  for (const std::string args : {"routing=min traffic=un load=0.3", "routing=min traffic=adv+1 load=0.4",
                                 "routing=val traffic=un load=0.6", "routing=val traffic=adv+1 load=0.7",
                                 "routing=val traffic=adv+4 load=0.9 packet_phits=1"}) {
    SCOPED_TRACE(args);
    const ScflyRun r =
        run_scfly(tiny_config(), args + " warmup_cycles=1000 measure_cycles=4000 drain=true");
    expect_drained(r);
    EXPECT_GT(metrics(r)["packets_delivered"].get<int>(), 1000);
  }
}

TEST(Network, SameSeedSameMetricsOtherSeedOtherMetrics) {
  const std::string args = "routing=val traffic=un load=0.4 warmup_cycles=1000 measure_cycles=3000";
  const ScflyRun a = run_scfly(tiny_config(), args + " seed=11");
  const ScflyRun b = run_scfly(tiny_config(), args + " seed=11");
  const ScflyRun c = run_scfly(tiny_config(), args + " seed=12");
  expect_ok(a);
  expect_ok(b);
  expect_ok(c);
  EXPECT_EQ(a.json["metrics"], b.json["metrics"]);
  EXPECT_EQ(a.json["config"], b.json["config"]);
  EXPECT_NE(a.json["metrics"]["latency_avg"], c.json["metrics"]["latency_avg"]);
}

// docs/model.md promises that the order in which SystemC evaluates blocks within a cycle
// cannot change a result. `--shuffle-construction SEED` builds the switches and NICs in a
// shuffled order (SystemC creates, and first runs, their processes in that order): every
// mechanism's metrics and per-switch time series must equal the natural order's, under
// credits and under PFC, on the Dragonfly and on a torus. (Kernel mode: under the block
// scheduler the option shuffles the groups' order, BlockSchedulerEqualsTheKernel.)
TEST(Network, ConstructionOrderDoesNotChangeResults) {
  const std::string src = SCFLY_SOURCE_DIR;
  const std::string w = " warmup_cycles=500 measure_cycles=2000 timeseries.bin_cycles=250 timeseries.per_switch=true"
                        " sim.scheduler=kernel";
  std::vector<std::pair<std::string, std::string>> cases;
  // Every registered Dragonfly mechanism; MIN-COND runs on its Ethernet network just below,
  // T-UGAL's sets need the T-UGAL shapes (test_tvlb_balance.cpp).
  for (const std::string& r : scfly_test::registered_routings(true, false, {"min-cond", "t-ugal-l", "t-ugal-g", "t-par"}))
    cases.push_back({tiny_config(), "routing=" + r + " traffic=adv+1 load=0.45"});
  cases.push_back({src + "/sc_main/configs/qcn-tiny.yaml", "routing=min-cond traffic=adv+1 load=0.6"});
  cases.push_back({src + "/sc_main/configs/qcn-tiny.yaml", "routing=min-cond min_cond.trigger=pause traffic=un load=0.9"});
  // Every registered torus mechanism (CHAOS's multiqueue: ChaosIsDeterministic... in test_torus_network.cpp).
  for (const std::string& r : scfly_test::registered_routings(false, false, {"chaos"}))
    cases.push_back({src + "/sc_main/configs/torus-8x8-1port.yaml", "routing=" + r + " traffic=un load=0.6"});
  for (const auto& [config, args] : cases) {
    SCOPED_TRACE(config + " " + args);
    const ScflyRun a = run_scfly(config, args + w);
    const ScflyRun b = run_scfly(config, args + w + " --shuffle-construction 7");
    expect_ok(a);
    expect_ok(b);
    EXPECT_EQ(a.json["metrics"], b.json["metrics"]);
    EXPECT_EQ(a.json["timeseries"], b.json["timeseries"]);
    EXPECT_GT(metrics(a)["packets_delivered"].get<int>(), 100);
    // The order really changed: the natural one starts sw0 sw1 sw2.
    const size_t at = b.err.find("construction order (--shuffle-construction 7):");
    ASSERT_NE(at, std::string::npos) << b.err;
    EXPECT_EQ(b.err.find(": sw0 sw1 sw2", at), std::string::npos) << b.err;
  }
}

// Streaming (switch.cpp, receive()): a switch files a run of phits into its input VC, and
// takes a run of credits, when the first lands and hides the rest until they land; a
// traced switch (--vcd) files each phit and credit as it lands. Tracing every switch must
// change no metric and no per-switch series (buffered_phits counts only landed phits), for
// every mechanism, under credits and PFC. (Fails if the link stage reads unlanded credits
// or the series counts unlanded phits.)
TEST(Network, StreamingInputBuffersEqualFilingEachPhit) {
  const std::string src = SCFLY_SOURCE_DIR;
  const std::string w = " warmup_cycles=500 measure_cycles=1500 timeseries.bin_cycles=250 timeseries.per_switch=true";
  std::vector<std::tuple<std::string, std::string, int>> cases;
  for (const char* r : {"min", "val", "acor-switch", "ugal-g", "par", "pb"})
    cases.push_back({tiny_config(), std::string("routing=") + r + " traffic=adv+1 load=0.45", 36});
  cases.push_back({tiny_config(), "routing=ugal-l traffic=un load=0.9 packet_phits=3", 36});
  cases.push_back({tiny_config(), "routing=ugal-g traffic=adv+1 load=0.45 ugal.occupancy=both", 36});
  cases.push_back({src + "/sc_main/configs/qcn-tiny.yaml", "routing=min-cond traffic=adv+1 load=0.6", 36});
  cases.push_back({src + "/sc_main/configs/qcn-tiny.yaml", "routing=min-cond min_cond.trigger=pause traffic=un load=0.9", 36});
  for (const char* r : {"gal", "chaos"})
    cases.push_back({src + "/sc_main/configs/torus-8x8-1port.yaml", std::string("routing=") + r + " traffic=un load=0.6", 64});
  for (const auto& [config, args, n] : cases) {
    SCOPED_TRACE(config + " " + args);
    std::string all;
    for (int s = 0; s < n; ++s) all += (s ? "," : "") + std::to_string(s);
    const std::string vcd = tmp("stream.vcd");
    const ScflyRun a = run_scfly(config, args + w);
    const ScflyRun b =
        run_scfly(config, args + w + " --vcd " + vcd + " --trace-switches " + all + " --trace-from 0 --trace-to 1");
    std::remove(vcd.c_str());
    expect_ok(a);
    expect_ok(b);
    EXPECT_EQ(a.json["metrics"], b.json["metrics"]);
    EXPECT_EQ(a.json["timeseries"], b.json["timeseries"]);
    EXPECT_GT(metrics(a)["packets_delivered"].get<int>(), 100);
  }
}

// The block scheduler (sim.scheduler: blocks, tb/network.h) runs each switch with its NICs
// for a block of cycles as long as the shortest switch-to-switch link, instead of clocking
// every block each cycle as SystemC processes. It must change no metric, no time series
// and no per-switch series, for every mechanism it drives (credits and PFC, control
// frames, the multiqueue, GAL's injection queues, several terminal ports, drain), whatever
// the order of the groups (--shuffle-construction), and hand to the kernel the runs that
// need it. (Fails if a block is longer than the shortest link, or if a cut at the bin ends
// or at the advance() ends is missing.)
TEST(Network, BlockSchedulerEqualsTheKernel) {
  const std::string src = SCFLY_SOURCE_DIR;
  const std::string w = " warmup_cycles=500 measure_cycles=1500 timeseries.bin_cycles=250 timeseries.per_switch=true";
  std::vector<std::tuple<std::string, std::string, std::string>> cases;  // config, args, block
  for (const char* r : {"min", "val", "acor-switch", "acor-packet", "par", "ugal-l"})
    cases.push_back({tiny_config(), std::string("routing=") + r + " traffic=adv+1 load=0.45", "blocks of 10 cycles"});
  cases.push_back({tiny_config(), "routing=min traffic=un load=0.9 packet_phits=3 links.local_latency=7 drain=true",
                   "blocks of 7 cycles"});
  cases.push_back({tiny_config(), "routing=val traffic=un load=0.3 timeseries.bin_cycles=33", "blocks of 10 cycles"});
  cases.push_back({src + "/sc_main/configs/qcn-tiny.yaml", "routing=min-cond traffic=adv+1 load=0.6", "blocks of 4 cycles"});
  cases.push_back({src + "/sc_main/configs/qcn-tiny.yaml", "routing=min-cond min_cond.trigger=pause traffic=un load=0.9",
                   "blocks of 4 cycles"});
  for (const char* r : {"gal", "chaos", "min-ad"})
    cases.push_back({src + "/sc_main/configs/torus-8x8-1port.yaml", std::string("routing=") + r + " traffic=un load=0.6",
                     "blocks of 1 cycle"});
  cases.push_back({src + "/sc_main/configs/torus-8x8-1port.yaml", "routing=gal traffic=tor load=0.8 links.link_latency=5",
                   "blocks of 5 cycles"});
  cases.push_back({src + "/sc_main/configs/torus-8x8-1port.yaml",
                   "routing=min-ad traffic=nn load=1.5 topology.terminal_ports=4 links.link_latency=3",
                   "blocks of 3 cycles"});
  // Piggyback's flags (PB, PB-ACOR), seen after pb.delay >= the block: the scheduler, each
  // window's reads from the flags committed at its start (SatFlagTable); a window of 7
  // cycles with flags seen 25 cycles late (a longer history) under ugal.occupancy=both; and
  // pb.delay=3, shorter than the block, on the kernel.
  cases.push_back({tiny_config(), "routing=pb traffic=adv+1 load=0.45", "blocks of 10 cycles"});
  cases.push_back({tiny_config(), "routing=pb-acor traffic=adv+1 load=0.45", "blocks of 10 cycles"});
  cases.push_back({tiny_config(), "routing=pb traffic=un load=0.9 pb.delay=25 links.local_latency=7 ugal.occupancy=both",
                   "blocks of 7 cycles"});
  // UGAL-G with ugal_g.view block: the view committed every 10 cycles on either scheduler.
  cases.push_back({tiny_config(), "routing=ugal-g traffic=adv+1 load=0.45 ugal_g.view=block", "blocks of 10 cycles"});
  cases.push_back({tiny_config(), "routing=t-ugal-g traffic=un load=0.8 ugal_g.view=block links.local_latency=7",
                   "blocks of 7 cycles"});
  // Shared every cycle, or sooner than a block: the kernel drives these whatever
  // sim.scheduler says.
  cases.push_back({tiny_config(), "routing=ugal-g traffic=adv+1 load=0.45",
                   "kernel (UGAL-G's network view is shared every cycle)"});
  cases.push_back({tiny_config(), "routing=pb traffic=adv+1 load=0.45 pb.delay=3",
                   "kernel (Piggyback's flags are seen after pb.delay = 3 cycles, less than the block of 10)"});
  for (const auto& [config, args, block] : cases) {
    SCOPED_TRACE(config + " " + args);
    const ScflyRun a = run_scfly(config, args + w + " sim.threads=1");
    const ScflyRun b = run_scfly(config, args + w + " sim.scheduler=kernel");
    const ScflyRun c = run_scfly(config, args + w + " sim.threads=1 --shuffle-construction 7");
    // Threads (sim.threads): the groups split over 2 or 3 threads, each with its own
    // shard of counters and statistics, messages between shards filed at the window's end.
    const ScflyRun d = run_scfly(config, args + w + " sim.threads=2");
    const ScflyRun e = run_scfly(config, args + w + " sim.threads=3 --shuffle-construction 7");
    expect_ok(a);
    expect_ok(b);
    expect_ok(c);
    expect_ok(d);
    expect_ok(e);
    EXPECT_EQ(a.json["run"]["scheduler"], block);
    EXPECT_EQ(b.json["run"]["scheduler"], "kernel (sim.scheduler: kernel)");
    EXPECT_EQ(a.json["metrics"], b.json["metrics"]);
    EXPECT_EQ(a.json["timeseries"], b.json["timeseries"]);
    EXPECT_EQ(a.json["metrics"], c.json["metrics"]);
    EXPECT_EQ(a.json["timeseries"], c.json["timeseries"]);
    for (const ScflyRun* t : {&d, &e}) {
      EXPECT_EQ(a.json["metrics"], t->json["metrics"]);
      EXPECT_EQ(a.json["timeseries"], t->json["timeseries"]);
      EXPECT_EQ(a.json["run"]["conservation"], t->json["run"]["conservation"]);
    }
    if (block.rfind("kernel", 0) == 0) {
      EXPECT_EQ(d.json["run"]["scheduler"], block);  // one thread on the kernel
    } else {
      EXPECT_EQ(d.json["run"]["scheduler"], block + " on 2 threads");
      EXPECT_EQ(e.json["run"]["scheduler"], block + " on 3 threads");
    }
    EXPECT_GT(metrics(a)["packets_delivered"].get<int>(), 100);
  }
}

// Threads (sim.threads, tb/network.h), a short case per kind of shared state, for the
// sanitizer half too (BlockSchedulerEqualsTheKernel, which runs its fifteen cases on 2 and
// 3 threads, is left to the Release half): the counters and statistics of the shards, the
// packet pool's free lists across shards, credits and phits filed from outboxes, control
// frames (QCN's CNMs) crossing shards, GAL's injection queues on a torus. Identical metrics,
// time series and conservation line for 1 and 3 threads.
// `scfly run --profile` (WindowProfile, tb/network.h) times the block scheduler's windows
// and changes no result. Its parts add up: one window per 10 cycles on dfly-tiny (its local
// links' latency, the shortest between switches), the groups' work within
// the wall time, the busiest thread's between the work / threads and the work, the largest
// group's below it; the work's floor on P cores is the work on 1, never rises with P, and
// stays at or above both the work / P and the largest group. On the kernel there are no
// windows, and the summary says so.
TEST(Network, ProfileAddsUpAndChangesNothing) {
  const std::string a = "load=0.5 warmup_cycles=500 measure_cycles=1500";
  const ScflyRun plain = run_scfly(tiny_config(), a);
  expect_ok(plain);
  for (int threads : {1, 2}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    const ScflyRun r = run_scfly(tiny_config(), a + " sim.threads=" + std::to_string(threads) + " --profile");
    expect_ok(r);
    EXPECT_EQ(metrics(plain), metrics(r));
    const nlohmann::json& p = r.json.at("run").at("profile");
    EXPECT_EQ(p.at("windows").get<int>(), 200);
    EXPECT_EQ(p.at("threads").get<int>(), threads);
    const double wall = p.at("wall_s"), work = p.at("work_s"), busiest = p.at("busiest_thread_s"),
                 largest = p.at("largest_group_s"), eps = 1e-9;
    EXPECT_GT(work, 0);
    if (threads == 1) {
      EXPECT_LE(work, wall + eps);
    }
    EXPECT_LE(busiest, work + eps);
    EXPECT_GE(busiest, work / threads - eps);
    EXPECT_LE(largest, busiest + eps);
    EXPECT_GT(largest, 0);
    EXPECT_EQ(p.at("exchange_bytes").get<int>(), 0);
    const nlohmann::json& b = p.at("work_bound_s");
    ASSERT_EQ(b.size(), 7u);
    EXPECT_NEAR(b.at("1").get<double>(), work, 1e-4 * work);  // summed from floats
    double prev = b.at("1").get<double>();
    for (int cores = 2; cores <= 64; cores *= 2) {
      const double f = b.at(std::to_string(cores)).get<double>();
      EXPECT_LE(f, prev + eps) << cores;
      EXPECT_GE(f, work / cores * (1 - 1e-4)) << cores;
      EXPECT_GE(f, largest * (1 - 1e-4)) << cores;
      prev = f;
    }
    EXPECT_NE(r.out.find("  windows           200: "), std::string::npos) << r.out;
  }
  const ScflyRun k = run_scfly(tiny_config(), a + " sim.scheduler=kernel --profile");
  expect_ok(k);
  EXPECT_FALSE(k.json.at("run").contains("profile"));
  EXPECT_NE(k.out.find("windows           none: this run is on the SystemC kernel"), std::string::npos) << k.out;
}

TEST(Network, ThreadsGiveTheOneThreadResults) {
  const std::string src = SCFLY_SOURCE_DIR;
  const std::string w = " warmup_cycles=300 measure_cycles=900 timeseries.bin_cycles=200";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {tiny_config(), "routing=val traffic=adv+1 load=0.45"},
      {src + "/sc_main/configs/qcn-tiny.yaml", "routing=min-cond traffic=adv+1 load=0.6"},
      {src + "/sc_main/configs/torus-8x8-1port.yaml", "routing=gal traffic=un load=0.6 links.link_latency=3"}};
  for (const auto& [config, args] : cases) {
    SCOPED_TRACE(config + " " + args);
    const ScflyRun a = run_scfly(config, args + w + " sim.threads=1");
    const ScflyRun b = run_scfly(config, args + w + " sim.threads=3");
    expect_ok(a);
    expect_ok(b);
    EXPECT_EQ(a.json["metrics"], b.json["metrics"]);
    EXPECT_EQ(a.json["timeseries"], b.json["timeseries"]);
    EXPECT_EQ(a.json["run"]["conservation"], b.json["run"]["conservation"]);
    EXPECT_NE(b.json["run"]["scheduler"].get<std::string>().find("on 3 threads"), std::string::npos);
    EXPECT_GT(metrics(a)["packets_delivered"].get<int>(), 100);
  }
}

// switch.allocator_iterations: a later request-grant pass may only add connections the first
// left possible. With speedup 1 an input requests one VC per pass, so a second pass grants
// the inputs whose one request lost (counter allocator_late_grants > 0). With speedup 2 on
// dfly-tiny under MIN every input already requests all its routed VCs (at most 2, each with
// one candidate) in the first pass, and whatever lost is still taken: a second pass can
// grant nothing, and the run is the one-pass run. One pass is the default (no counter).
TEST(Network, AllocatorIterationsGrantOnlyWhatTheFirstPassLeft) {
  const std::string args = "routing=min traffic=un load=0.55";
  const ScflyRun one = run_scfly(tiny_config(), args + " switch.speedup=1");
  const ScflyRun two = run_scfly(tiny_config(), args + " switch.speedup=1 switch.allocator_iterations=2");
  const ScflyRun one2 = run_scfly(tiny_config(), args);
  const ScflyRun two2 = run_scfly(tiny_config(), args + " switch.allocator_iterations=2");
  for (const ScflyRun* r : {&one, &two, &one2, &two2}) expect_ok(*r);
  EXPECT_FALSE(metrics(one).contains("counters") && metrics(one)["counters"].contains("allocator_late_grants"));
  EXPECT_GT(static_cast<uint64_t>(counter(metrics(two), "allocator_late_grants")), 100u);
  EXPECT_NEAR(metrics(two)["accepted_load"].get<double>(), 0.55, 0.01);
  EXPECT_EQ(two.json["config"]["switch"]["allocator_iterations"], 2);
  EXPECT_EQ(static_cast<uint64_t>(counter(metrics(two2), "allocator_late_grants")), 0u);
  nlohmann::json a = metrics(one2), b = metrics(two2);
  b.erase("counters");
  if (a.contains("counters") && a["counters"].empty()) a.erase("counters");
  EXPECT_EQ(a, b);
}

// switch.allocator: every variant (parts/allocator_*.h) delivers every packet after a
// drain, below and past saturation, with control traffic (probes) and with several passes,
// keeps the conservation of phits and credits (exit 3 otherwise), and is deterministic (the
// same seed twice, the same metrics). The default's name echoes nothing (stored sweep
// hashes), another's is echoed.
TEST(Network, EveryAllocatorVariantDeliversEveryPacketDeterministically) {
  for (const std::string alloc : {"separable-output", "wavefront", "islip"}) {
    for (const std::string args :
         {"routing=min traffic=un load=0.5", "routing=val traffic=adv+1 load=0.8 switch.allocator_iterations=3",
          "routing=min traffic=un load=0.9 switch.speedup=1 switch.allocator_iterations=2",
          "routing=min traffic=un load=0.6 control.probe_interval=50 switch.output_arbiter=age"}) {
      SCOPED_TRACE(alloc + " " + args);
      const std::string a = args + " switch.allocator=" + alloc + " warmup_cycles=500 measure_cycles=2000 drain=true";
      const ScflyRun r = run_scfly(tiny_config(), a);
      expect_drained(r);
      EXPECT_GT(metrics(r)["packets_delivered"].get<int>(), 500);
      EXPECT_EQ(r.json["config"]["switch"]["allocator"], alloc);
      const ScflyRun again = run_scfly(tiny_config(), a);
      expect_ok(again);
      EXPECT_EQ(r.json["metrics"], again.json["metrics"]);
    }
  }
  const ScflyRun d = run_scfly(tiny_config(), "load=0.2 switch.allocator=separable-input");
  expect_ok(d);
  EXPECT_FALSE(d.json["config"]["switch"].contains("allocator"));
}

// source.when_full: skip (FOGSim's hosts): a generation that finds no room for its packet in
// the injection buffer creates no packet. Below saturation no generation is ever skipped and
// the run is the queue run; past it the generated load falls to the accepted one and the
// latency loses the source queue's unbounded wait. Not with GAL (exit 2); under PFC see
// SkippingSourcesUnderPfcCheckTheHostBuffer.
TEST(Network, SkippingSourcesGenerateOnlyWhatTheInjectionBufferTakes) {
  const ScflyRun q3 = run_scfly(tiny_config(), "load=0.3");
  const ScflyRun s3 = run_scfly(tiny_config(), "load=0.3 source.when_full=skip");
  const ScflyRun q9 = run_scfly(tiny_config(), "load=0.9");
  const ScflyRun s9 = run_scfly(tiny_config(), "load=0.9 source.when_full=skip");
  for (const ScflyRun* r : {&q3, &s3, &q9, &s9}) expect_ok(*r);
  EXPECT_EQ(s3.json["config"]["source"]["when_full"], "skip");
  EXPECT_EQ(static_cast<uint64_t>(counter(metrics(s3), "source_skipped_generations")), 0u);
  nlohmann::json a = metrics(q3), b = metrics(s3);
  b.erase("counters");
  if (a.contains("counters") && a["counters"].empty()) a.erase("counters");
  EXPECT_EQ(a, b);
  const auto& m = metrics(s9);
  EXPECT_GT(static_cast<uint64_t>(counter(m, "source_skipped_generations")), 1000u);
  EXPECT_NEAR(m["generated_load"].get<double>(), m["accepted_load"].get<double>(), 0.01);
  EXPECT_GT(metrics(q9)["generated_load"].get<double>(), metrics(q9)["accepted_load"].get<double>() + 0.1);
  EXPECT_LT(m["latency_avg"].get<double>(), metrics(q9)["latency_avg"].get<double>() / 3);
  EXPECT_LT(m["packets_queued"].get<uint64_t>(), 2u * 72u);  // at most a packet or two per node
}

// source.when_full: skip under PFC (qcn-tiny: Ethernet, 4,000-phit injection buffers): the
// switch returns credits from its host input buffers for the NIC's room check only. Below
// saturation nothing is skipped and the run is the queue run (those credits change nothing
// else); under ADV+1 past MIN's saturation the generated load falls to the accepted one and
// nothing waits at the node beyond a packet or two.
TEST(Network, SkippingSourcesUnderPfcCheckTheHostBuffer) {
  const std::string cfg = std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/qcn-tiny.yaml";
  const std::string un = "-q load=0.3 warmup_cycles=5000 measure_cycles=10000";
  const std::string adv = "-q routing=min traffic=adv+1 load=0.4 warmup_cycles=20000 measure_cycles=20000";
  const ScflyRun q3 = run_scfly(cfg, un), s3 = run_scfly(cfg, un + " source.when_full=skip");
  const ScflyRun qa = run_scfly(cfg, adv), sa = run_scfly(cfg, adv + " source.when_full=skip");
  for (const ScflyRun* r : {&q3, &s3, &qa, &sa}) expect_ok(*r);
  if (s3.json.is_null() || sa.json.is_null() || q3.json.is_null() || qa.json.is_null()) return;
  EXPECT_EQ(s3.json["config"]["source"]["when_full"], "skip");
  EXPECT_EQ(static_cast<uint64_t>(counter(metrics(s3), "source_skipped_generations")), 0u);
  nlohmann::json a = metrics(q3), b = metrics(s3);
  a.erase("counters");
  b.erase("counters");
  EXPECT_EQ(a, b);
  const auto& m = metrics(sa);
  EXPECT_GT(static_cast<uint64_t>(counter(m, "source_skipped_generations")), 1000u);
  EXPECT_NEAR(m["generated_load"].get<double>(), m["accepted_load"].get<double>(), 0.01);
  EXPECT_GT(metrics(qa)["generated_load"].get<double>(), metrics(qa)["accepted_load"].get<double>() + 0.1);
  // What waits at the node is bounded by the host buffer's room above PFC's pause threshold
  // (a packet or two per node); the queue run's backlog grows with the run.
  EXPECT_LT(m["packets_queued"].get<uint64_t>(), 3u * 72u);
  EXPECT_GT(metrics(qa)["packets_queued"].get<uint64_t>(), 50 * m["packets_queued"].get<uint64_t>());
}

// source.injection_vc: dest (FOGSim's VcInjectionPolicy=DEST): VC floor(dst * V / N), one
// queue per VC at the node. With one injection VC it is rr exactly (the destinations are the
// same draws, generated in the same order); with three it keeps every packet of the run and
// drains; under adv+1 every node's packets take one VC (dfly-tiny's groups of 8 nodes never
// straddle the VC boundaries 24 and 48), so with skipping sources and 2-packet VC buffers
// fewer packets wait in the injection buffer: more generations are skipped and the latency
// falls, at the same accepted load (the global links bound it). Not with GAL (exit 2).
TEST(Network, DestinationInjectionVcsKeepTheRunAndFillOneVcUnderAdv) {
  const ScflyRun rr1 = run_scfly(tiny_config(), "load=0.5");
  const ScflyRun dest1 = run_scfly(tiny_config(), "load=0.5 source.injection_vc=dest");
  const ScflyRun drain = run_scfly(tiny_config(), "load=0.9 switch.vcs.injection=3 source.injection_vc=dest drain=true");
  const std::string adv = "load=0.9 traffic=adv+1 switch.vcs.injection=3 switch.input_buffer.injection=16 "
                          "source.when_full=skip source.injection_vc=";
  const ScflyRun rr = run_scfly(tiny_config(), adv + "rr");
  const ScflyRun dest = run_scfly(tiny_config(), adv + "dest");
  for (const ScflyRun* r : {&rr1, &dest1, &drain, &rr, &dest}) expect_ok(*r);
  EXPECT_EQ(metrics(rr1), metrics(dest1));
  EXPECT_EQ(dest1.json.at("config").at("source").at("injection_vc"), "dest");
  // Echoed only when dest (a const json's operator[] on a missing key is undefined: at()).
  const nlohmann::json& echo = rr1.json.at("config");
  EXPECT_FALSE(echo.contains("source") && echo.at("source").contains("injection_vc"));
  const auto& d = metrics(drain);
  EXPECT_EQ(d["packets_generated"], d["packets_delivered"]);
  EXPECT_GT(d["packets_generated"].get<uint64_t>(), 100000u);
  const auto &a = metrics(rr), &b = metrics(dest);
  EXPECT_GT(static_cast<uint64_t>(counter(b, "source_skipped_generations")),
            static_cast<uint64_t>(counter(a, "source_skipped_generations")));
  EXPECT_NEAR(b["accepted_load"].get<double>(), a["accepted_load"].get<double>(), 0.002);
  EXPECT_LT(b["latency_avg"].get<double>(), 0.85 * a["latency_avg"].get<double>());
  const ScflyRun gal = run_scfly(std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/torus-8x8-1port.yaml",
                                 "routing=gal source.injection_vc=dest");
  EXPECT_EQ(gal.code, 2);
  EXPECT_NE(gal.err.find("source.injection_vc"), std::string::npos) << gal.err;
}

// Issue 19, docs/validation.md: scfly configured as FOGSim's IOQ switch
// (sc_main/configs/fogsim-dfly-4-8-4.yaml) on a test-sized dfly(2,4,2), MIN, UN at 0.05
// (zero load): FOGSim at dcdd75f, tests/peers/fogsim-dfly484.conf with P=2 A=4 H=2
// Probability=5, measured 123.59 cycles average total latency (2,000 + 5,000 cycles, seed
// 1). The matched pipeline (3 cycles) must keep scfly within 1 % of it.
TEST(Validation, FogsimZeroLoadLatencyOnDfly242) {
  const ScflyRun r = run_scfly(std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/fogsim-dfly-4-8-4.yaml",
                               "topology.p=2 topology.a=4 topology.h=2 topology.g=9 load=0.05");
  expect_ok(r);
  EXPECT_NEAR(metrics(r)["latency_avg"].get<double>(), 123.59, 0.01 * 123.59);
  EXPECT_NEAR(metrics(r)["accepted_load"].get<double>(), 0.05, 0.002);
}

// Issue 19: scfly configured as BookSim2's dragonflynew (sc_main/configs/booksim-dfly-k4.yaml)
// on a test-sized dfly(2,4,2) (BookSim k=2), MIN, UN at 0.05 (zero load): BookSim at 28f4329,
// tests/peers/booksim-dfly-k4.cfg with k=2 injection_rate=0.05, measured 112.744 cycles
// average packet latency (its uniform traffic also sends 1/72 of the packets to their own
// node, 5 cycles each, which scfly's un never does: about 1.5 cycles off BookSim's mean).
// The matched 2-cycle pipeline must keep scfly within 1 % of it.
TEST(Validation, BooksimZeroLoadLatencyOnDfly242) {
  const ScflyRun r = run_scfly(std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/booksim-dfly-k4.yaml",
                               "topology.p=2 topology.a=4 topology.h=2 topology.g=9 load=0.05");
  expect_ok(r);
  EXPECT_NEAR(metrics(r)["latency_avg"].get<double>(), 112.744, 0.01 * 112.744);
  EXPECT_NEAR(metrics(r)["accepted_load"].get<double>(), 0.05, 0.002);
}

// Issue 52: scfly configured as BookSim2's 8-ary 2-cube (sc_main/configs/torus-8x8-booksim
// .yaml; BookSim at 28f4329 with the fixes docs/validation.md gives, tests/peers/
// booksim-torus-k8.cfg). DOR under transpose past saturation (offered 0.3): BookSim accepted
// 0.2831 flits per sending node per cycle (its 8 diagonal nodes' packets taken out), scfly
// must stay within 2 % (it gives 0.2829 over 15,000 cycles, 0.2821 over this test's 4,000).
// DOR under tornado on the 8-node ring at 0.1: BookSim 14.31 cycles; scfly is a constant
// 1.0 cycle below BookSim on every row of every hop count (docs/validation.md), so it must
// stay within 1 % of 13.31.
TEST(Validation, BooksimTorusTransposeSaturationAndRingLatency) {
  const std::string cfg = std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/torus-8x8-booksim.yaml";
  const ScflyRun tp = run_scfly(cfg, "routing=dor traffic=tp load=0.3 warmup_cycles=2000 measure_cycles=4000");
  const ScflyRun ring = run_scfly(cfg, "topology.n=1 routing=dor traffic=tor load=0.1 warmup_cycles=2000 measure_cycles=4000");
  expect_ok(tp);
  expect_ok(ring);
  EXPECT_NEAR(metrics(tp)["accepted_load"].get<double>() * 64 / 56, 0.2831, 0.02 * 0.2831);
  EXPECT_NEAR(metrics(ring)["latency_avg"].get<double>(), 14.31 - 1.0, 0.01 * 13.31);
  EXPECT_NEAR(metrics(ring)["accepted_load"].get<double>(), 0.1, 0.005);
}

// Issue 19, the analytic row: MIN under adversarial traffic puts a group's whole load on its
// one global link to group G+1, so it carries 1/(a p) = 1/8 phit/node/cycle on dfly(2,4,2)
// whatever the offered load. Both peers measured it at offered 0.5: FOGSim (ADV, scfly
// advs+1) 0.124956, BookSim (bad_dragon, scfly adv+1) 0.125009. Both presets within 0.5 %.
TEST(Validation, MinUnderAdvCarriesOneGlobalLinkPerGroupOnBothPresets) {
  const std::string small = "topology.p=2 topology.a=4 topology.h=2 topology.g=9 load=0.5 ";
  const ScflyRun f = run_scfly(std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/fogsim-dfly-4-8-4.yaml",
                               small + "traffic=advs+1");
  const ScflyRun b = run_scfly(std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/booksim-dfly-k4.yaml",
                               small + "traffic=adv+1");
  for (const ScflyRun* r : {&f, &b}) {
    expect_ok(*r);
    EXPECT_NEAR(metrics(*r)["accepted_load"].get<double>(), 0.125, 0.005 * 0.125);
  }
}

// switch.pipeline_position: output (FOGSim's XbarDelay): the pipeline's cycles move from
// "landing to routable" to "crossing to leaving the output buffer". A head that never
// waits pays them once either way, so at low load the runs are identical; a head that
// waits for the crossbar pays them in full only at the output, so at 0.9 the latency rises.
// Drained, every packet delivered.
TEST(Network, PipelineAtTheOutputKeepsZeroLoadAndChargesEveryWait) {
  for (const std::string& a : {std::string("load=0.05"), std::string("routing=val traffic=adv+1 load=0.02")}) {
    const ScflyRun in = run_scfly(tiny_config(), a);
    const ScflyRun out = run_scfly(tiny_config(), a + " switch.pipeline_position=output");
    expect_ok(in);
    expect_ok(out);
    EXPECT_EQ(metrics(in), metrics(out)) << a;
    EXPECT_EQ(out.json["config"]["switch"]["pipeline_position"], "output");
    EXPECT_FALSE(in.json["config"]["switch"].contains("pipeline_position"));  // echoed only when output
  }
  const std::string sat = "load=0.9 warmup_cycles=1000 measure_cycles=3000 drain=true";
  const ScflyRun in = run_scfly(tiny_config(), sat);
  const ScflyRun out = run_scfly(tiny_config(), sat + " switch.pipeline_position=output");
  for (const ScflyRun* r : {&in, &out}) {
    expect_ok(*r);
    EXPECT_EQ(metrics(*r)["packets_generated"], metrics(*r)["packets_delivered"]);
  }
  EXPECT_GT(metrics(out)["network_latency_avg"].get<double>(), metrics(in)["network_latency_avg"].get<double>() + 2);
}

// switch.output_credits: inside (FOGSim's and BookSim's output queues): a packet enters an
// output VC only with downstream credits for all of it, so an output VC never holds more
// than its downstream input VC can take, and any output buffer at least that deep binds
// nothing: 64/128 phits (dfly-tiny's local/global input buffers) and 1,000 are the same run.
// switch.output_sharing: port: the VCs of a port share one buffer; with credits inside, V
// VCs hold at most V downstream buffers, so a shared buffer of V x 64 / V x 128 binds nothing
// either, while 16 shared phits do bind (outside the credit loop 1,000 phits per VC add
// buffering and change the run). VAL under ADV+1 at 0.45 (4 local, 2 global VCs), UGAL-L
// reading output + credits, MIN at 0.9 with the transfer crossbar; drained, every packet
// delivered. Inside is not for PFC (exit 2).
TEST(Network, OutputBuffersInsideTheCreditLoopBindOnlyBelowTheDownstreamBuffer) {
  struct Case {
    std::string args, shared;  // base args; the shared buffer equal to V x downstream
  };
  const std::string drain = " warmup_cycles=1000 measure_cycles=3000 drain=true";
  for (const Case& c : {Case{"routing=val traffic=adv+1 load=0.45", "local=256 switch.output_buffer.global=256"},
                        Case{"routing=ugal-l traffic=adv+1 load=0.45 ugal.occupancy=both",
                             "local=256 switch.output_buffer.global=256"},
                        Case{"routing=min load=0.9 switch.crossbar=transfer", "local=128 switch.output_buffer.global=128"}}) {
    SCOPED_TRACE(c.args);
    const std::string in = c.args + drain + " switch.output_credits=inside";
    const ScflyRun exact = run_scfly(tiny_config(), in + " switch.output_buffer.local=64 switch.output_buffer.global=128");
    const ScflyRun deep = run_scfly(tiny_config(), in + " switch.output_buffer.local=1000 switch.output_buffer.global=1000");
    const ScflyRun shared = run_scfly(tiny_config(), in + " switch.output_sharing=port switch.output_buffer." + c.shared);
    const ScflyRun small = run_scfly(tiny_config(), in + " switch.output_sharing=port switch.output_buffer.local=16 "
                                                          "switch.output_buffer.global=16");
    const ScflyRun out = run_scfly(tiny_config(), c.args + drain + " switch.output_buffer.local=64 switch.output_buffer.global=128");
    const ScflyRun out_deep = run_scfly(tiny_config(), c.args + drain + " switch.output_buffer.local=1000 switch.output_buffer.global=1000");
    for (const ScflyRun* r : {&exact, &deep, &shared, &small, &out, &out_deep}) {
      expect_ok(*r);
      EXPECT_EQ(metrics(*r)["packets_generated"], metrics(*r)["packets_delivered"]);
    }
    EXPECT_EQ(metrics(exact), metrics(deep));
    EXPECT_EQ(metrics(exact), metrics(shared));
    EXPECT_NE(metrics(exact)["latency_avg"], metrics(small)["latency_avg"]);
    EXPECT_NE(metrics(out)["latency_avg"], metrics(out_deep)["latency_avg"]);
    EXPECT_NE(metrics(exact)["latency_avg"], metrics(out)["latency_avg"]);
    EXPECT_EQ(shared.json["config"]["switch"]["output_credits"], "inside");
    EXPECT_EQ(shared.json["config"]["switch"]["output_sharing"], "port");
    EXPECT_FALSE(out.json["config"]["switch"].contains("output_credits"));  // echoed only away from the default
  }
  const ScflyRun pfc = run_scfly(std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/qcn-tiny.yaml",
                                 "switch.output_credits=inside");
  EXPECT_EQ(pfc.code, 2);
  EXPECT_NE(pfc.err.find("switch.output_credits"), std::string::npos) << pfc.err;
}

// switch.credit_return: packet (FOGSim's input buffer removes a packet whole at its grant):
// the credits of a whole packet go upstream the cycle its head is granted. While no buffer
// fills, credits never bind and the run is the per-phit one exactly; at saturation the run
// changes, and every phit still fits its buffer (the buffer holds one packet beyond its
// credited depth while the granted one leaves; an overflow is a run error) and every packet
// is delivered, with the connections crossbar and the transfer one. It needs the output
// buffer inside the credit loop (every sender spends a packet's credits at its start).
TEST(Network, CreditsReturnedAtTheGrantKeepEveryPhitInItsBuffer) {
  const std::string inside = " switch.output_credits=inside";
  const ScflyRun low = run_scfly(tiny_config(), "load=0.05" + inside);
  const ScflyRun low_pkt = run_scfly(tiny_config(), "load=0.05 switch.credit_return=packet" + inside);
  expect_ok(low);
  expect_ok(low_pkt);
  EXPECT_EQ(metrics(low), metrics(low_pkt));
  EXPECT_EQ(low_pkt.json["config"]["switch"]["credit_return"], "packet");
  EXPECT_FALSE(low.json["config"]["switch"].contains("credit_return"));  // echoed only when packet
  const std::string drain = " warmup_cycles=1000 measure_cycles=3000 drain=true" + inside;
  for (const std::string args : {"routing=min load=0.9", "routing=min load=0.9 switch.crossbar=transfer",
                                 "routing=val traffic=adv+1 load=0.5 switch.input_buffer.local=16"}) {
    SCOPED_TRACE(args);
    const ScflyRun phit = run_scfly(tiny_config(), args + drain);
    const ScflyRun pkt = run_scfly(tiny_config(), args + drain + " switch.credit_return=packet");
    for (const ScflyRun* r : {&phit, &pkt}) {
      expect_ok(*r);
      EXPECT_EQ(metrics(*r)["packets_generated"], metrics(*r)["packets_delivered"]);
    }
    EXPECT_NE(metrics(phit)["latency_avg"], metrics(pkt)["latency_avg"]);
  }
  const ScflyRun outside = run_scfly(tiny_config(), "switch.credit_return=packet");
  EXPECT_EQ(outside.code, 2);
  EXPECT_NE(outside.err.find("switch.credit_return"), std::string::npos) << outside.err;
  EXPECT_NE(outside.err.find("switch.output_credits inside"), std::string::npos) << outside.err;
}

// ugal.reevaluate (FOGSim's UGAL and PB route a waiting head again every cycle): a head
// blocked at the injection buffer makes the minimal/Valiant choice again, against the same
// candidates. While no head waits (UGAL-L at 0.01 under ADV+1, all minimal) the run is the
// `once` run exactly; past saturation re-evaluation moves blocked minimal heads onto
// Valiant paths (more non-minimal packets, more accepted load than `once`, for UGAL-L and
// PB), every packet is delivered (drain) and the deadlock check still passes; `blocked`
// and `minimal` differ (a Valiant choice stands only under `minimal`). Not with PB's
// val.recompute (it redraws the intermediate): exit 2.
TEST(Network, ReevaluatingBlockedHeadsMovesThemOntoValiantPathsPastSaturation) {
  const std::string drain = " warmup_cycles=1000 measure_cycles=3000 drain=true";
  const ScflyRun low = run_scfly(tiny_config(), "routing=ugal-l traffic=adv+1 load=0.01" + drain);
  for (const std::string mode : {"blocked", "minimal"}) {
    const ScflyRun r = run_scfly(tiny_config(), "routing=ugal-l traffic=adv+1 load=0.01 ugal.reevaluate=" + mode + drain);
    expect_ok(r);
    EXPECT_EQ(metrics(low), metrics(r)) << mode;
    EXPECT_EQ(r.json["config"]["ugal"]["reevaluate"], mode);
  }
  EXPECT_FALSE(low.json["config"]["ugal"].contains("reevaluate"));  // echoed only away from once
  for (const std::string routing : {"ugal-l", "pb"}) {
    SCOPED_TRACE(routing);
    const std::string args = "routing=" + routing + " traffic=adv+1 load=0.45" + drain;
    const ScflyRun once = run_scfly(tiny_config(), args);
    const ScflyRun blocked = run_scfly(tiny_config(), args + " ugal.reevaluate=blocked");
    const ScflyRun minimal = run_scfly(tiny_config(), args + " ugal.reevaluate=minimal");
    for (const ScflyRun* r : {&once, &blocked, &minimal}) {
      expect_ok(*r);
      EXPECT_EQ(metrics(*r)["packets_generated"], metrics(*r)["packets_delivered"]);
      EXPECT_NE((r->out + r->err).find("deadlock freedom: checked"), std::string::npos) << r->out << r->err;
    }
    for (const ScflyRun* r : {&blocked, &minimal}) {
      EXPECT_GT(metrics(*r)["nonminimal_fraction"].get<double>(), metrics(once)["nonminimal_fraction"].get<double>());
      EXPECT_GT(metrics(*r)["accepted_load"].get<double>(), metrics(once)["accepted_load"].get<double>());
    }
    EXPECT_NE(metrics(blocked)["latency_avg"], metrics(minimal)["latency_avg"]);
  }
  const ScflyRun both = run_scfly(tiny_config(), "routing=pb val.recompute=true ugal.reevaluate=blocked");
  EXPECT_EQ(both.code, 2);
  EXPECT_NE(both.err.find("ugal.reevaluate"), std::string::npos) << both.err;
}

// Switch residence (<class>_residence_avg): the time a packet's head spends in each switch,
// landing to leaving, by the class of the input it entered through. With the time before
// injection and on the wires it is the whole latency: total = (generation to injection) +
// residence + link latencies (injection, every hop, ejection) + the tail's phits - 1, per
// packet exactly, so on average up to the window's edges (1 %). Below saturation and past
// it, with the pipeline at the input and at the output (where the residence is counted in
// two parts), under VAL too.
TEST(Network, SwitchResidenceAndTheWiresMakeUpTheWholeLatency) {
  for (const std::string args : {"load=0.3", "load=0.9 switch.pipeline_position=output",
                                 "routing=val traffic=adv+1 load=0.3 switch.pipeline_position=output",
                                 "routing=val traffic=adv+1 load=0.6"}) {
    SCOPED_TRACE(args);
    const ScflyRun r = run_scfly(tiny_config(), args);
    expect_ok(r);
    const nlohmann::json& m = metrics(r);
    const double res = m["host_residence_avg"].get<double>() + m["local_residence_avg"].get<double>() +
                       m["global_residence_avg"].get<double>();
    // dfly-tiny: links 1 (injection, ejection) / 10 (local) / 40 (global), 8-phit packets.
    const double wires = 1 + 10 * m["local_hops_avg"].get<double>() + 40 * m["global_hops_avg"].get<double>() + 1;
    const double before = m["latency_avg"].get<double>() - m["network_latency_avg"].get<double>();
    EXPECT_NEAR(m["latency_avg"].get<double>(), before + res + wires + 7, 0.01 * m["latency_avg"].get<double>());
    EXPECT_GT(m["host_residence_avg"].get<double>(), 5.0);  // at least the 5-cycle pipeline at the source switch
  }
}

// switch.crossbar: transfer (FOGSim's IOQ speedup): one connection per port moving up to S
// phits per cycle instead of S connections moving one each. With S = 1 the two are the same
// switch; with S = 2 one input VC drains at twice the link rate, so head-of-line blocking
// eases and MIN under UN carries more past saturation; every phit and credit still adds up
// (drain, conservation) with one credit message per phit.
TEST(Network, TransferCrossbarIsConnectionsAtSpeedupOne) {
  for (const std::string args : {"routing=min traffic=un load=0.6 switch.speedup=1",
                                 "routing=val traffic=adv+1 load=0.5 switch.speedup=1"}) {
    SCOPED_TRACE(args);
    const ScflyRun a = run_scfly(tiny_config(), args);
    const ScflyRun b = run_scfly(tiny_config(), args + " switch.crossbar=transfer");
    expect_ok(a);
    expect_ok(b);
    EXPECT_EQ(b.json["config"]["switch"]["crossbar"], "transfer");
    EXPECT_FALSE(a.json["config"]["switch"].contains("crossbar"));
    EXPECT_EQ(a.json["metrics"], b.json["metrics"]);
  }
  const ScflyRun c = run_scfly(tiny_config(), "load=0.9 drain=true");
  const ScflyRun t = run_scfly(tiny_config(), "load=0.9 drain=true switch.crossbar=transfer");
  expect_ok(c);
  expect_ok(t);
  EXPECT_TRUE(t.json["run"]["drained"].get<bool>());
  EXPECT_GT(metrics(t)["accepted_load"].get<double>(), metrics(c)["accepted_load"].get<double>() + 0.05);
  // Zero load: the link, not the crossbar, paces a packet; latency within a cycle.
  const ScflyRun z = run_scfly(tiny_config(), "load=0.05 switch.crossbar=transfer");
  const ScflyRun zc = run_scfly(tiny_config(), "load=0.05");
  EXPECT_NEAR(metrics(z)["latency_avg"].get<double>(), metrics(zc)["latency_avg"].get<double>(), 1.0);
}

// switch.ejection_grant: host-idle (FOGSim's consume port): a packet for a host is granted
// only while the host link is idle, one per allocator pass, and packets granted toward one
// host cross into its buffer one after another. On dfly-tiny with the transfer crossbar
// (S = 2) and the 5-cycle pipeline at the output, a packet granted at cycle c leaves at
// c + 5 and its tail at c + 12: were each grant to wait for the previous packet's tail, a
// host would receive at most 8 phits per 13 cycles (0.615), and MIN under UN at 0.9 would
// accept no more. The packets granted while a host waits for its pipeline, crossing behind
// one another, keep it above that bound, yet below the `room` rule, which grants whenever
// the buffer has room; a second allocator pass lets an idle host take a second packet in
// the cycle. Every packet is delivered (drain), on both crossbars and under Valiant too.
TEST(Network, EjectionGrantWhileTheHostIsIdleQueuesPacketsBehindItsPipeline) {
  const std::string sat = "routing=min traffic=un load=0.9 switch.crossbar=transfer switch.pipeline_position=output";
  const ScflyRun room = run_scfly(tiny_config(), sat);
  const ScflyRun idle = run_scfly(tiny_config(), sat + " switch.ejection_grant=host-idle");
  const ScflyRun idle2 = run_scfly(tiny_config(), sat + " switch.ejection_grant=host-idle switch.allocator_iterations=2");
  for (const ScflyRun* r : {&room, &idle, &idle2}) expect_ok(*r);
  EXPECT_EQ(idle.json["config"]["switch"]["ejection_grant"], "host-idle");
  EXPECT_FALSE(room.json["config"]["switch"].contains("ejection_grant"));  // echoed only when host-idle
  const double a_room = metrics(room)["accepted_load"].get<double>();
  const double a_idle = metrics(idle)["accepted_load"].get<double>();
  const double a_idle2 = metrics(idle2)["accepted_load"].get<double>();
  EXPECT_GT(a_idle, 8.0 / 13.0 + 0.1);
  EXPECT_LT(a_idle, a_room - 0.02);
  EXPECT_GT(a_idle2, a_idle + 0.02);
  const std::string drain = " warmup_cycles=1000 measure_cycles=3000 drain=true switch.ejection_grant=host-idle";
  for (const std::string& args : {sat, std::string("routing=min traffic=un load=0.9"),
                                 std::string("routing=val traffic=adv+1 load=0.5 switch.crossbar=transfer")}) {
    SCOPED_TRACE(args);
    const ScflyRun r = run_scfly(tiny_config(), args + drain);
    expect_ok(r);
    EXPECT_TRUE(r.json["run"]["drained"].get<bool>());
    EXPECT_EQ(metrics(r)["packets_generated"], metrics(r)["packets_delivered"]);
  }
}

// MIN under ADV+1: all a*p nodes of a group share the single global link to the next
// group, so accepted load saturates at 1/(a*p) = 1/8 phits/node/cycle.
TEST(Network, MinUnderAdvPlus1SaturatesAtOneOverAP) {
  const ScflyRun r = run_scfly(tiny_config(), "routing=min traffic=adv+1 load=0.4");
  expect_ok(r);
  EXPECT_NEAR(metrics(r)["accepted_load"].get<double>(), 0.125, 0.0125);
  EXPECT_EQ(metrics(r)["nonminimal_fraction"], 0.0);
}

// Who gets the bottleneck link under MIN ADV+1: S_out's global output is requested by its
// a-1 = 3 local inputs and its p = 2 injection inputs. Round-robin gives each input 1/5 of
// the link: S_out's hosts 0.2 each, every other switch's two hosts share 0.2 (0.1 each).
// Transit priority (switch.output_arbiter, FOGSim's PrioLRS) serves the saturated local
// inputs first: S_out's hosts starve and the others share the link by thirds (1/6 each).
// Group totals are 1/(a*p) = 0.125 either way.
TEST(Network, OutputArbiterDecidesWhoSharesTheAdvBottleneck) {
  for (const std::string arb : {"round-robin", "transit-priority"}) {
    const ScflyRun r = run_scfly(tiny_config(), "routing=min traffic=adv+1 load=0.5 switch.output_arbiter=" + arb);
    expect_ok(r);
    EXPECT_EQ(r.json["config"]["switch"]["output_arbiter"], arb);
    const auto sa = metrics(r)["switch_accepted"].get<std::vector<double>>();
    ASSERT_EQ(sa.size(), 36u);
    std::vector<double> g0(sa.begin(), sa.begin() + 4);
    std::sort(g0.begin(), g0.end());
    const bool prio = arb == "transit-priority";
    EXPECT_NEAR(g0[0], prio ? 0.0 : 0.1, 0.01) << arb;   // S_out under transit priority
    EXPECT_NEAR(g0[1], prio ? 1.0 / 6 : 0.1, 0.01) << arb;
    EXPECT_NEAR(g0[3], prio ? 1.0 / 6 : 0.2, 0.01) << arb;  // S_out under round-robin
    EXPECT_NEAR(metrics(r)["accepted_load"].get<double>(), 0.125, 0.005) << arb;
  }
}

TEST(Network, MinUnderUniformAcceptsTheOfferedLoad) {
  const ScflyRun r = run_scfly(tiny_config(), "routing=min traffic=un load=0.3");
  expect_ok(r);
  EXPECT_NEAR(metrics(r)["accepted_load"].get<double>(), 0.3, 0.01);
  EXPECT_LE(metrics(r)["hops_avg"].get<double>(), 3.0);
  EXPECT_GT(metrics(r)["jain_fairness"].get<double>(), 0.98);
}

// VAL spreads ADV+1 over all global links: about half the global bandwidth per node.
TEST(Network, ValUnderAdvPlus1SustainsWellAboveMin) {
  const ScflyRun r = run_scfly(tiny_config(), "routing=val traffic=adv+1 load=0.5");
  expect_ok(r);
  EXPECT_GE(metrics(r)["accepted_load"].get<double>(), 0.35);
  EXPECT_EQ(metrics(r)["nonminimal_fraction"], 1.0);
  EXPECT_GT(metrics(r)["global_hops_avg"].get<double>(), 1.5);  // two global hops mostly
}

// At (near) zero load a packet's network latency is exactly: injection link + per switch
// pipeline + per hop link latency + ejection link + serialization of the remaining phits.
// Averaged over the measured hop mix this must match to within a cycle.
TEST(Network, ZeroLoadLatencyMatchesThePipelineArithmetic) {
  const ScflyRun r = run_scfly(tiny_config(),
                               "routing=min traffic=un load=0.002 measure_cycles=60000 "
                               "switch.pipeline_cycles=7 links.local_latency=12 "
                               "links.global_latency=33 links.injection_latency=2");
  expect_ok(r);
  const auto& m = metrics(r);
  const double lh = m["local_hops_avg"], gh = m["global_hops_avg"];
  const double expected = 2 + 7 + lh * (12 + 7) + gh * (33 + 7) + 2 + (8 - 1);
  EXPECT_NEAR(m["network_latency_avg"].get<double>(), expected, 1.0);
  EXPECT_GT(m["packets_measured"].get<int>(), 50);
}

TEST(Network, SpeedupOneIsSlowerUnderContentionThanSpeedupTwo) {
  const std::string args = "routing=val traffic=un load=0.7 warmup_cycles=1000 measure_cycles=4000";
  const ScflyRun s1 = run_scfly(tiny_config(), args + " switch.speedup=1");
  const ScflyRun s2 = run_scfly(tiny_config(), args + " switch.speedup=2");
  expect_ok(s1);
  expect_ok(s2);
  EXPECT_LT(metrics(s1)["accepted_load"].get<double>(), metrics(s2)["accepted_load"].get<double>());
}

TEST(Network, AbsoluteArrangementWithSeveralLinksPerGroupPairRuns) {
  const ScflyRun r = run_scfly(tiny_config(),
                               "topology.g=5 topology.arrangement=absolute routing=min traffic=adv+1 "
                               "load=0.4 drain=true");
  expect_ok(r);
  // 2 global links join each group pair: MIN under ADV+1 saturates at 2/(a*p) = 0.25.
  EXPECT_NEAR(metrics(r)["accepted_load"].get<double>(), 0.25, 0.025);
}

TEST(Network, VcdHoldsTheTracedSwitchesInsideTheWindow) {
  const std::string vcd = tmp("net.vcd");
  const ScflyRun r = run_scfly(tiny_config(),
                               "load=0.3 warmup_cycles=0 measure_cycles=3000 --vcd " + vcd +
                                   " --trace-switches 0,3 --trace-from 1000 --trace-to 2000");
  expect_ok(r);
  const std::string text = slurp(vcd);
  std::remove(vcd.c_str());
  ASSERT_NE(text.find("$enddefinitions"), std::string::npos);
  EXPECT_NE(text.find("$scope module sw0 $end"), std::string::npos);
  EXPECT_NE(text.find("$scope module sw3 $end"), std::string::npos);
  EXPECT_EQ(text.find("$scope module sw1 $end"), std::string::npos);
  EXPECT_NE(text.find("in0_host_vc0_occ"), std::string::npos);
  EXPECT_NE(text.find("out4_local_vc1_credits"), std::string::npos);
  EXPECT_NE(text.find("in2_local_vc0_xbar_out"), std::string::npos);
  // time stamps in ps: first at cycle 1000 (+ half a cycle), none after cycle 2000
  uint64_t first = UINT64_MAX, last = 0;
  std::istringstream is(text);
  int changes = 0;
  for (std::string line; std::getline(is, line);) {
    if (!line.empty() && line[0] == '#') {
      const uint64_t t = std::stoull(line.substr(1));
      first = std::min(first, t);
      last = std::max(last, t);
    } else if (!line.empty() && line[0] == 'b') {
      ++changes;
    }
  }
  EXPECT_EQ(first, 1000u * 1000u);
  EXPECT_EQ(last, 2000u * 1000u);  // the dump always closes at the end of the window
  EXPECT_NE(text.find("$dumpvars"), std::string::npos);
  EXPECT_GT(changes, 100);
}

// --packet-trace: one line per delivered packet, consistent with the metrics (count, mean
// latency and hops over the window) and with itself (latencies from the cycles; a Valiant
// packet's intermediate drawn at its source switch, a minimal one's none).
TEST(Network, PacketTraceHasOneLinePerDeliveredPacket) {
  const std::string all = tmp("all.csv"), win = tmp("win.csv");
  const std::string args = "routing=val traffic=adv+1 load=0.2 warmup_cycles=500 measure_cycles=1000";
  const ScflyRun r = run_scfly(tiny_config(), args + " --packet-trace " + all);
  const ScflyRun w = run_scfly(tiny_config(), args + " --packet-trace " + win + " --trace-from 500 --trace-to 1499");
  expect_ok(r);
  expect_ok(w);
  EXPECT_EQ(r.json["metrics"], w.json["metrics"]);  // tracing changes nothing
  const PacketTraceCsv t = read_packet_trace(all);
  ASSERT_EQ(t.rows.size(), metrics(r)["packets_delivered"].get<size_t>());
  size_t vlb = 0;
  for (size_t i = 0; i < t.rows.size(); ++i) {
    EXPECT_EQ(t.num(i, "latency"), t.num(i, "deliver_cycle") - t.num(i, "gen_cycle"));
    EXPECT_EQ(t.num(i, "network_latency"), t.num(i, "deliver_cycle") - t.num(i, "inject_cycle"));
    EXPECT_GE(t.num(i, "inject_cycle"), t.num(i, "gen_cycle"));
    EXPECT_EQ(t.num(i, "src_switch"), t.num(i, "src_node") / 2);  // p = 2
    EXPECT_EQ(t.num(i, "dst_switch"), t.num(i, "dst_node") / 2);
    EXPECT_EQ(t.num(i, "phits"), 8);
    const bool nonmin = t.num(i, "nonminimal") == 1;
    EXPECT_EQ(nonmin, t.num(i, "inter_switch") >= 0);
    EXPECT_EQ(t.num(i, "vlb_at"), nonmin ? t.num(i, "src_switch") : -1);
    EXPECT_LE(t.num(i, "hops_local") + t.num(i, "hops_global"), nonmin ? 6 : 3);
    vlb += nonmin;
  }
  EXPECT_GT(vlb, t.rows.size() / 2);
  const PacketTraceCsv m = read_packet_trace(win);
  ASSERT_EQ(m.rows.size(), metrics(w)["packets_measured"].get<size_t>());
  double lat = 0, hops = 0;
  for (size_t i = 0; i < m.rows.size(); ++i) {
    EXPECT_GE(m.num(i, "deliver_cycle"), 500);
    EXPECT_LE(m.num(i, "deliver_cycle"), 1499);
    lat += static_cast<double>(m.num(i, "latency"));
    hops += static_cast<double>(m.num(i, "hops_local") + m.num(i, "hops_global"));
  }
  const double n = static_cast<double>(m.rows.size());
  EXPECT_NEAR(lat / n, metrics(w)["latency_avg"].get<double>(), 1e-9);
  EXPECT_NEAR(hops / n, metrics(w)["hops_avg"].get<double>(), 1e-9);
  // A torus: its one switch-to-switch class, VAL's intermediate drawn at the source.
  const std::string tor = tmp("torus.csv");
  const ScflyRun tr = run_scfly(std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/torus-ring-8.yaml",
                                "routing=val load=0.2 warmup_cycles=200 measure_cycles=500 --packet-trace " + tor);
  expect_ok(tr);
  const PacketTraceCsv tt = read_packet_trace(tor);
  ASSERT_FALSE(tt.rows.empty());
  EXPECT_EQ(tt.cols.size(), t.cols.size() - 1);  // hops_link for hops_local and hops_global
  for (size_t i = 0; i < tt.rows.size(); ++i) {
    EXPECT_GE(tt.num(i, "inter_switch"), 0);
    EXPECT_EQ(tt.num(i, "vlb_at"), tt.num(i, "src_switch"));
    EXPECT_GE(tt.num(i, "hops_link"), 0);
  }
  // The file does not depend on the order SystemC runs the NICs in: byte-identical when the
  // blocks are built (and evaluated) in another order.
  const std::string shuffled = tmp("shuffled.csv");
  const ScflyRun sh = run_scfly(tiny_config(), args + " --shuffle-construction 7 --packet-trace " + shuffled);
  expect_ok(sh);
  EXPECT_EQ(slurp(all), slurp(shuffled));
  // A file that cannot be written is found before the run (exit 2, naming the option and file).
  const ScflyRun bad = run_scfly(tiny_config(), "--packet-trace /nonexistent/dir/t.csv", false);
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--packet-trace: cannot write '/nonexistent/dir/t.csv'"), std::string::npos) << bad.err;
  for (const auto& f : {all, win, tor}) std::remove(f.c_str());
}

// "" if the two texts are equal, else their first differing line (with its number): what a
// failed comparison of two large files reports (gtest's diff of strings of megabytes
// exhausts the memory).
static std::string first_difference(const std::string& a, const std::string& b) {
  std::istringstream sa(a), sb(b);
  std::string la, lb;
  for (int n = 1;; ++n) {
    const bool ea = !std::getline(sa, la), eb = !std::getline(sb, lb);
    if (ea && eb) return "";
    if (ea || eb || la != lb)
      return "line " + std::to_string(n) + ": '" + (ea ? "<end>" : la) + "' against '" + (eb ? "<end>" : lb) + "'";
  }
}

// One run per case on the kernel, and on the scheduler with one thread and with two, each
// writing the trace `option` (--vcd or --packet-trace) to a file: the same metrics, and the
// same file as `text` reads it, with at least `min_marks` of `mark` in it.
static void expect_trace_is_the_kernels(const std::vector<std::pair<std::string, std::string>>& cases,
                                        const std::string& option, std::string (*text)(const std::string&),
                                        char mark, long min_marks) {
  for (const auto& [config, args] : cases) {
    SCOPED_TRACE(args);
    const std::string k = tmp("k.trace"), b1 = tmp("b1.trace"), b2 = tmp("b2.trace");
    const ScflyRun rk = run_scfly(config, args + " sim.scheduler=kernel " + option + " " + k);
    const ScflyRun r1 = run_scfly(config, args + " sim.threads=1 " + option + " " + b1);
    const ScflyRun r2 = run_scfly(config, args + " sim.threads=2 " + option + " " + b2);
    expect_ok(rk);
    expect_ok(r1);
    expect_ok(r2);
    EXPECT_EQ(rk.json["run"]["scheduler"].get<std::string>().rfind("kernel", 0), 0u);
    EXPECT_EQ(r1.json["run"]["scheduler"].get<std::string>().rfind("blocks", 0), 0u);
    EXPECT_NE(r2.json["run"]["scheduler"].get<std::string>().find("on 2 threads"), std::string::npos);
    EXPECT_EQ(rk.json["metrics"], r1.json["metrics"]);
    EXPECT_EQ(rk.json["metrics"], r2.json["metrics"]);
    const std::string kt = text(k);
    EXPECT_GT(std::count(kt.begin(), kt.end(), mark), min_marks);
    EXPECT_EQ(first_difference(kt, text(b1)), "");
    EXPECT_EQ(first_difference(kt, text(b2)), "");
    for (const auto& f : {k, b1, b2}) std::remove(f.c_str());
  }
}

// A VCD without its $date line (the only one that differs between two runs).
static std::string vcd_body(const std::string& f) {
  std::string t = slurp(f);
  const size_t a = t.find("$date"), b = t.find("$end", a);
  if (a != std::string::npos && b != std::string::npos) t.erase(a, b - a);
  return t;
}

static std::string whole_file(const std::string& f) { return slurp(f); }

// The block scheduler writes the VCD the kernel writes, byte for byte but for the $date
// line, on one thread and on two (each traced switch's group samples its variables after
// each cycle; the writer merges a window's changes in cycle order): Dragonfly UGAL-L with
// the blocked-injection signal, ACOR-Switch's level register under PFC (xoff and paused
// instead of credits), a trace window that starts and ends inside block windows, and a torus.
TEST(Network, VcdOnTheBlockSchedulerIsTheKernels) {
  const std::string tor = std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/torus-8x8-1port.yaml";
  expect_trace_is_the_kernels(
      {{tiny_config(), "routing=ugal-l traffic=adv+1 load=0.4 warmup_cycles=200 measure_cycles=1500 "
                       "--trace-switches 0,3,17,35"},
       {tiny_config(), "routing=acor-switch switch.flow_control=pfc traffic=adv+1 load=0.5 warmup_cycles=200 "
                       "measure_cycles=1500 --trace-switches 35,4 --trace-from 333 --trace-to 1201"},
       {tor, "routing=gal traffic=un load=0.5 warmup_cycles=200 measure_cycles=800 --trace-switches 0,9,63"}},
      "--vcd", vcd_body, '#', 100);
}

// The block scheduler writes the packet trace the kernel writes, byte for byte, on one
// thread and on two (each shard collects its rows, merged in cycle order at the window's
// end), within a --trace-from/--trace-to window too: Dragonfly VAL under ADV+1 (deliveries
// from several groups in the same cycles) and a 4x4 torus under MIN AD with two terminal
// ports (two deliveries per host and cycle).
TEST(Network, PacketTraceOnTheBlockSchedulerIsTheKernels) {
  const std::string tor = std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/torus-ring-8.yaml";
  expect_trace_is_the_kernels(
      {{tiny_config(), "routing=val traffic=adv+1 load=0.3 warmup_cycles=300 measure_cycles=1200"},
       {tiny_config(), "routing=ugal-l traffic=un load=0.5 warmup_cycles=300 measure_cycles=1200 "
                       "--trace-from 700 --trace-to 1100"},
       {tor, "topology.n=2 topology.k=4 topology.terminal_ports=2 routing=min-ad traffic=un load=0.6 "
             "warmup_cycles=300 measure_cycles=1200"}},
      "--packet-trace", whole_file, '\n', 100);
}

TEST(Network, UndersizedBuffersWarnAboutTheCreditRoundTrip) {
  const ScflyRun r = run_scfly(tiny_config(),
                               "links.global_latency=100 switch.input_buffer.global=32 "
                               "warmup_cycles=100 measure_cycles=500");
  expect_ok(r);
  EXPECT_NE(r.err.find("credit round trip"), std::string::npos) << r.err;
  EXPECT_EQ(r.json["run"]["warnings"].size(), 1u);
}
