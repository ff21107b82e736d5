// One switch alone (tb/switch_bench.h), every port driven through its TLM sockets by a
// port agent: the packets of whole-network paths that cross it go in where their path
// enters and must come out where it leaves, whole, in order, with every credit home.
// Each TEST elaborates its own bench: ctest runs each in its own process.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "sc_main/config.h"
#include "tb/switch_bench.h"

namespace scfly {
namespace {

SimConfig config(const std::string& preset, const std::vector<std::string>& overrides) {
  return load_config(std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/" + preset, overrides);
}

void run_cycles(const sc_core::sc_clock& clk, uint64_t n) { sc_core::sc_start(clk.period() * static_cast<double>(n)); }

// Random pairs of nodes anywhere in the network; those whose path crosses the bench's
// switch are injected, `per_cycle` attempts each cycle for `cycles` cycles. Returns how many
// entered through each port and left through each port (expected).
struct Coverage {
  std::set<int> in_ports, out_ports;
  uint64_t packets = 0;
};
Coverage drive_random(SwitchBench& b, const sc_core::sc_clock& clk, uint64_t cycles, int per_cycle, uint64_t seed) {
  Rng rng(seed, StreamKind::Switch, 99);
  Coverage cov;
  const int N = b.topology().num_nodes();
  for (uint64_t t = 0; t < cycles; ++t) {
    for (int k = 0; k < per_cycle; ++k) {
      const int src = static_cast<int>(rng.below(static_cast<uint32_t>(N)));
      int dst = static_cast<int>(rng.below(static_cast<uint32_t>(N - 1)));
      if (dst >= src) ++dst;
      if (const auto e = b.inject(src, dst, rng, t)) {
        cov.in_ports.insert(e->in_port);
        cov.out_ports.insert(e->out_port);
        ++cov.packets;
      }
    }
  }
  run_cycles(clk, cycles);
  EXPECT_TRUE(b.drain(clk, 50000)) << b.packets_delivered() << " of " << b.packets_injected() << " delivered";
  return cov;
}

void expect_clean(const SwitchBench& b) {
  const auto bad = b.check();
  for (size_t i = 0; i < bad.size() && i < 10; ++i) ADD_FAILURE() << bad[i];
  EXPECT_TRUE(bad.empty()) << bad.size() << " violations";
}

// Zero load: a packet from one host of the switch to another lands at the far agent
// injection latency + pipeline + ejection latency after it left the near one (routed,
// granted, crossed and sent in one cycle), its tail phits - 1 cycles later.
void zero_load(const std::vector<std::string>& overrides) {
  sc_core::sc_clock clk("clk", 1, sc_core::SC_NS);
  const SimConfig cfg = config("dfly-tiny.yaml", overrides);
  SwitchBench b("bench", cfg, 0, clk);
  Rng rng(1, StreamKind::Switch, 1);
  const int src = b.topology().node_of(0, 0), dst = b.topology().node_of(0, 1);
  const auto e = b.inject(src, dst, rng, 10);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->in_port, b.topology().host_port(0));
  EXPECT_EQ(e->out_port, b.topology().host_port(1));
  run_cycles(clk, 200);
  const auto& got = b.port(e->out_port).received();
  ASSERT_EQ(got.size(), 1u);
  const uint64_t L = cfg.sw.latency[kHostClass], P = static_cast<uint64_t>(cfg.sw.pipeline);
  EXPECT_EQ(got[0].head_cycle, 10 + L + P + L);
  EXPECT_EQ(got[0].tail_cycle, got[0].head_cycle + static_cast<uint64_t>(cfg.packet_phits) - 1);
  expect_clean(b);
}

TEST(SwitchBench, ZeroLoadLatencyIsLinkPlusPipelinePlusLink) { zero_load({}); }

// The pipeline after the crossbar (switch.pipeline_position output, parts/pipeline.h):
// routed, granted and crossed on landing, held P cycles in the output buffer: the same.
TEST(SwitchBench, ZeroLoadLatencyIsTheSameWithThePipelineAtTheOutput) {
  zero_load({"switch.pipeline_position=output"});
}

// Every port in and out under random whole-network traffic, for the switch's modes: credit
// and PFC flow control, and the peer-compatible variants (FOGSim's output buffer inside the
// credit loop, shared per port, credits returned at the grant, a transfer crossbar, the
// pipeline after the crossbar, transit-priority output arbitration, two allocator passes).
class SwitchBenchModes : public ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(SwitchBenchModes, EveryPacketLeavesWhereItsPathGoesWholeAndInOrder) {
  sc_core::sc_clock clk("clk", 1, sc_core::SC_NS);
  const SimConfig cfg = config("dfly-tiny.yaml", GetParam());
  SwitchBench b("bench", cfg, 5, clk);
  const Coverage cov = drive_random(b, clk, 3000, 6, 7);
  EXPECT_EQ(static_cast<int>(cov.in_ports.size()), b.radix()) << "every port drives the switch";
  EXPECT_EQ(static_cast<int>(cov.out_ports.size()), b.radix()) << "every port receives from it";
  EXPECT_GT(cov.packets, 1500u);
  EXPECT_EQ(b.packets_delivered(), cov.packets);
  for (int p = 0; p < b.radix(); ++p) EXPECT_LE(b.port(p).max_phits_per_cycle(), 1u) << "a link carries a phit per cycle";
  expect_clean(b);
}

INSTANTIATE_TEST_SUITE_P(
    Modes, SwitchBenchModes,
    ::testing::Values(std::vector<std::string>{},
                      std::vector<std::string>{"switch.flow_control=pfc"},
                      std::vector<std::string>{"switch.output_credits=inside", "switch.output_sharing=port",
                                               "switch.credit_return=packet"},
                      std::vector<std::string>{"switch.crossbar=transfer", "switch.pipeline_position=output",
                                               "switch.output_arbiter=transit-priority"},
                      std::vector<std::string>{"switch.allocator_iterations=2", "switch.output_arbiter=age"}));

// A torus switch (DOR), every port.
TEST(SwitchBench, TorusSwitchUnderDimensionOrderRouting) {
  sc_core::sc_clock clk("clk", 1, sc_core::SC_NS);
  const SimConfig cfg = config("torus-8x8-1port.yaml", {"routing=dor"});
  SwitchBench b("bench", cfg, 9, clk);
  const Coverage cov = drive_random(b, clk, 3000, 4, 11);
  EXPECT_EQ(static_cast<int>(cov.in_ports.size()), b.radix());
  EXPECT_EQ(static_cast<int>(cov.out_ports.size()), b.radix());
  EXPECT_GT(cov.packets, 500u);
  expect_clean(b);
}

// Line rate: every host sending to another host of the same switch (a permutation), as fast
// as its link allows: each ejection link carries one phit per cycle from the first head to
// the last tail, without a gap (virtual cut-through, one connection per output).
TEST(SwitchBench, APermutationOfHostsRunsAtLineRate) {
  sc_core::sc_clock clk("clk", 1, sc_core::SC_NS);
  const SimConfig cfg = config("dfly-tiny.yaml", {"topology.p=4", "topology.a=8", "topology.h=4", "topology.g=33"});
  SwitchBench b("bench", cfg, 0, clk);
  const Topology& t = b.topology();
  const int H = t.hosts_per_switch();
  ASSERT_GE(H, 2);
  Rng rng(3, StreamKind::Switch, 3);
  const int packets = 200;
  for (int h = 0; h < H; ++h)
    for (int k = 0; k < packets; ++k) ASSERT_TRUE(b.inject(t.node_of(0, h), t.node_of(0, (h + 1) % H), rng, 0));
  const uint64_t phits = static_cast<uint64_t>(packets) * static_cast<uint64_t>(cfg.packet_phits);
  run_cycles(clk, phits + 500);
  for (int h = 0; h < H; ++h) {
    const auto& got = b.port(t.host_port(h)).received();
    ASSERT_EQ(got.size(), static_cast<size_t>(packets));
    // From the first head to the last tail: one phit per cycle, no gap.
    EXPECT_EQ(got.back().tail_cycle - got.front().head_cycle + 1, phits) << "host port " << h;
  }
  expect_clean(b);
}

TEST(SwitchBench, RefusesWhatItCannotModel) {
  sc_core::sc_clock clk("clk", 1, sc_core::SC_NS);
  EXPECT_THROW(SwitchBench("b1", config("dfly-tiny.yaml", {}), 36, clk), std::invalid_argument);
  EXPECT_THROW(SwitchBench("b2", config("dfly-tiny.yaml", {"routing=ugal-g"}), 0, clk), std::invalid_argument);
  SwitchBench b("b3", config("dfly-tiny.yaml", {}), 0, clk);
  Rng rng(1, StreamKind::Switch, 1);
  EXPECT_THROW(b.walk(0, 0, rng), std::invalid_argument);
  EXPECT_THROW(b.port(0).send(b.context().pool.alloc(), 7), std::invalid_argument);
}

}  // namespace
}  // namespace scfly
