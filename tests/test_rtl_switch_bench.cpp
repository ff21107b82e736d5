// One switch, twice, under one clock (issue 49, item 5): the C++ switch and the same switch
// with its Verilated allocator, flow-control and link-arbiter blocks (rtl: [allocator, flow_control, link_arbiter]),
// each in its own single-switch bench (tb/switch_bench.h), driven by the same random traffic
// for 10^5 cycles. Every port must receive the same packets on the same VCs in the same
// cycles from both, and both must drain clean (every packet whole, every credit home). At
// radix 4 (an 8-switch ring with two hosts per switch), 7 (dfly(2,4,2)) and 15
// (dfly(4,8,4): the largest allocator instance, 16 ports with the internal control port),
// and at the presets' largest radix, 63 (dfly(16,32,16): the radix-64 instances, 2 VCs);
// at 7, 15 and 63 again with each allocator variant of switch.allocator and 2 passes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sc_main/config.h"
#include "tb/switch_bench.h"

namespace scfly {
namespace {

SimConfig config(const std::string& preset, const std::vector<std::string>& overrides) {
  return load_config(std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/" + preset, overrides);
}

struct Twin {
  const char* name;
  const char* what;
  const char* preset;
  std::vector<std::string> overrides;
  int sw;         // the switch benched
  int per_cycle;  // random node pairs tried each cycle (those crossing the switch go in)
  // Pairs with one end at the switch's own hosts (source or destination, alternately): a
  // network so large that a random pair rarely crosses one switch.
  bool focus = false;
};

class RtlSwitchTwins : public ::testing::TestWithParam<Twin> {};

TEST_P(RtlSwitchTwins, CppAndRtlSwitchesAgreeEveryCycle) {
  const Twin& tw = GetParam();
  sc_core::sc_clock clk("clk", 1, sc_core::SC_NS);
  const SimConfig cpp_cfg = config(tw.preset, tw.overrides);
  std::vector<std::string> o = tw.overrides;
  o.push_back("rtl=[allocator,flow_control,link_arbiter]");
  const SimConfig rtl_cfg = config(tw.preset, o);
  ASSERT_TRUE(rtl_cfg.sw.rtl_allocator && rtl_cfg.sw.rtl_flow_control && rtl_cfg.sw.rtl_link_arbiter);
  SwitchBench cpp("cpp", cpp_cfg, tw.sw, clk), rtl("rtl", rtl_cfg, tw.sw, clk);
  ASSERT_EQ(cpp.radix(), rtl.radix());
  std::printf("[          ] %s: radix %d\n", tw.what, cpp.radix());

  // The same packets into both: pairs drawn once, each bench walking the path with its own
  // copy of one Rng (walk() draws), so both see the same headers.
  constexpr uint64_t kCycles = 100'000, kInject = 90'000;
  Rng pairs(7, StreamKind::Switch, 1), walk_cpp(11, StreamKind::Switch, 2), walk_rtl(11, StreamKind::Switch, 2);
  const int N = cpp.topology().num_nodes();
  uint64_t packets = 0, turn = 0;
  for (uint64_t t = 0; t < kInject; ++t)
    for (int k = 0; k < tw.per_cycle; ++k) {
      int src = static_cast<int>(pairs.below(static_cast<uint32_t>(N)));
      int dst = static_cast<int>(pairs.below(static_cast<uint32_t>(N - 1)));
      if (dst >= src) ++dst;
      if (tw.focus) {
        const Topology& topo = cpp.topology();
        const int own = topo.node_of(tw.sw, static_cast<int>(pairs.below(static_cast<uint32_t>(topo.hosts_per_switch()))));
        if (++turn % 2 == 0) src = own;  // 1.5 pairs per cycle each way at 3 a cycle: 0.75 of a host link
        else dst = own;
        if (src == dst) continue;
      }
      const auto a = cpp.inject(src, dst, walk_cpp, t);
      const auto b = rtl.inject(src, dst, walk_rtl, t);
      ASSERT_EQ(a.has_value(), b.has_value());
      if (!a) continue;
      ASSERT_EQ(a->in_port, b->in_port);
      ASSERT_EQ(a->vc, b->vc);
      ++packets;
    }
  sc_core::sc_start(clk.period() * static_cast<double>(kCycles));
  EXPECT_TRUE(cpp.drain(clk, 50'000));
  EXPECT_TRUE(rtl.drain(clk, 50'000));

  // Port by port: the same packets, VCs, lengths and landing cycles.
  uint64_t compared = 0, busy_ports = 0;
  for (int p = 0; p < cpp.radix(); ++p) {
    const auto& x = cpp.port(p).received();
    const auto& y = rtl.port(p).received();
    ASSERT_EQ(x.size(), y.size()) << "port " << p;
    for (size_t i = 0; i < x.size(); ++i) {
      SCOPED_TRACE("port " + std::to_string(p) + ", packet " + std::to_string(i));
      ASSERT_EQ(x[i].pkt, y[i].pkt);
      ASSERT_EQ(x[i].vc, y[i].vc);
      ASSERT_EQ(x[i].phits, y[i].phits);
      ASSERT_EQ(x[i].head_cycle, y[i].head_cycle);
      ASSERT_EQ(x[i].tail_cycle, y[i].tail_cycle);
    }
    compared += x.size();
    busy_ports += x.empty() ? 0 : 1;
  }
  for (const SwitchBench* b : {&cpp, &rtl}) {
    const auto bad = b->check();
    for (size_t i = 0; i < bad.size() && i < 10; ++i) ADD_FAILURE() << bad[i];
  }
  std::printf("[          ] %llu packets through %llu ports, every landing cycle equal\n",
              static_cast<unsigned long long>(compared), static_cast<unsigned long long>(busy_ports));
  // Every packet compared, every port carried some, and the outputs were loaded (over a
  // quarter of a phit per port per cycle on average, so packets met at the allocator).
  EXPECT_EQ(compared, packets);
  EXPECT_EQ(busy_ports, static_cast<uint64_t>(cpp.radix()));
  const double load = static_cast<double>(packets) * cpp_cfg.packet_phits / (static_cast<double>(kInject) * cpp.radix());
  std::printf("[          ] %.2f phits per port per cycle\n", load);
  EXPECT_GT(load, 0.25);
}

const std::vector<std::string> kDfly484 = {"topology.p=4", "topology.a=8", "topology.h=4", "topology.g=33"};
const std::vector<std::string> kDfly16 = {"topology.p=16", "topology.a=32", "topology.h=16", "topology.g=513"};
std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

INSTANTIATE_TEST_SUITE_P(
    Radix, RtlSwitchTwins,
    ::testing::Values(
        Twin{"Ring", "ring of 8, 2 hosts per switch, DOR", "torus-ring-8.yaml", {"topology.p=2"}, 3, 4},
        Twin{"DflyTiny", "dfly(2,4,2) MIN", "dfly-tiny.yaml", {"routing=min"}, 5, 4},
        Twin{"Dfly484", "dfly(4,8,4) MIN", "dfly-tiny.yaml", with(kDfly484, {"routing=min"}), 9, 40},
        // The allocator variants (switch.allocator) with 2 passes: the radix-8 and radix-16
        // instances of each.
        Twin{"DflyTinyOutputFirst", "dfly(2,4,2) MIN, separable output-first, 2 passes", "dfly-tiny.yaml",
             {"routing=min", "switch.allocator=separable-output", "switch.allocator_iterations=2"}, 5, 4},
        Twin{"DflyTinyWavefront", "dfly(2,4,2) MIN, wavefront, 2 passes", "dfly-tiny.yaml",
             {"routing=min", "switch.allocator=wavefront", "switch.allocator_iterations=2"}, 5, 4},
        Twin{"DflyTinyIslip", "dfly(2,4,2) MIN, iSLIP, 2 iterations", "dfly-tiny.yaml",
             {"routing=min", "switch.allocator=islip", "switch.allocator_iterations=2"}, 5, 4},
        Twin{"Dfly484OutputFirst", "dfly(4,8,4) MIN, separable output-first, 2 passes", "dfly-tiny.yaml",
             with(kDfly484, {"routing=min", "switch.allocator=separable-output", "switch.allocator_iterations=2"}), 9,
             40},
        Twin{"Dfly484Wavefront", "dfly(4,8,4) MIN, wavefront, 2 passes", "dfly-tiny.yaml",
             with(kDfly484, {"routing=min", "switch.allocator=wavefront", "switch.allocator_iterations=2"}), 9, 40},
        Twin{"Dfly484Islip", "dfly(4,8,4) MIN, iSLIP, 2 iterations", "dfly-tiny.yaml",
             with(kDfly484, {"routing=min", "switch.allocator=islip", "switch.allocator_iterations=2"}), 9, 40},
        Twin{"Dfly16_32_16", "dfly(16,32,16) MIN", "dfly-tiny.yaml", with(kDfly16, {"routing=min"}), 37, 3, true},
        Twin{"Dfly16_32_16OutputFirst", "dfly(16,32,16) MIN, separable output-first, 2 passes", "dfly-tiny.yaml",
             with(kDfly16, {"routing=min", "switch.allocator=separable-output", "switch.allocator_iterations=2"}), 37, 3,
             true},
        Twin{"Dfly16_32_16Wavefront", "dfly(16,32,16) MIN, wavefront, 2 passes", "dfly-tiny.yaml",
             with(kDfly16, {"routing=min", "switch.allocator=wavefront", "switch.allocator_iterations=2"}), 37, 3, true},
        Twin{"Dfly16_32_16Islip", "dfly(16,32,16) MIN, iSLIP, 2 iterations", "dfly-tiny.yaml",
             with(kDfly16, {"routing=min", "switch.allocator=islip", "switch.allocator_iterations=2"}), 37, 3, true}),
    [](const ::testing::TestParamInfo<Twin>& i) { return std::string(i.param.name); });

// The presets' largest radix, dfly(16,32,16)'s 63 ports (16,416 switches, 262,656 hosts),
// under MIN at speedup 2: the radix-64 instance (2 VCs, 2 connections per port). A random
// pair rarely crosses one switch of this network: one end of each pair is at the benched
// switch's hosts.
TEST(RtlSwitchTwinsLargest, Dfly16_32_16TakesTheRadix64Instance) {
  const SimConfig c = config("dfly-tiny.yaml", {"topology.p=16", "topology.a=32", "topology.h=16", "topology.g=513",
                                                "routing=min", "rtl=[allocator]"});
  EXPECT_TRUE(c.sw.rtl_allocator);
  // Beyond it: 3 VCs on a port at radix 63.
  try {
    (void)config("dfly-tiny.yaml", {"topology.p=16", "topology.a=32", "topology.h=16", "topology.g=513",
                                    "routing=val", "rtl=[allocator]"});
    FAIL() << "accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("block 'allocator'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("64 ports (internal ones included), 2 VCs per port"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace scfly
