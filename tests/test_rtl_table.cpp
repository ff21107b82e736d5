// RTL == C++ for the conditional forwarding table: ft_lookup.sv (the Verilated table a
// switch consults with --rtl table, loaded through its write port with the C++ builder's
// entries in lookup order) against ForwardingTable::lookup, on the MIN tables of palmtree
// and absolute Dragonflies, MIN-COND tables under random port probabilities (0 and 100
// included), and a hand-built table with equal-cost sets of both draw policies,
// conditional sets, input-port and input-class matches, fixed VCs and misroute entries:
// same decision (port, VC), same header update, same Rng draws, for every switch and
// destination with random headers and input ports. Each Verilated instance (16, 64, 128 and
// 256 rows: the smallest that holds the table is taken) is checked with the tables that
// take it, and with hand-built tables at both sides of each instance's size.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "routing_units/forwarding_table.h"
#include "routing_units/min_cond.h"
#include "routing_units/rtl_widths.h"
#include "rtl_models/verilog/rtl_blocks.h"
#include "topologies/common/rng.h"
#include "topologies/dragonfly.h"

namespace scfly {

namespace {

long g_ties = 0, g_ns = 0, g_misses = 0;  // draws and misses the lookups made (C++ side)

// Random header toward switch `dst` as it may arrive at `sw`: segment, global hop taken,
// VC shift, and a pinned exit (none, one of sw's own global ports, or another switch's).
RouteHeader random_header(const Dragonfly& t, int sw, int dst, Rng& r) {
  RouteHeader h;
  h.dst_switch = dst;
  h.dst_host = static_cast<int16_t>(r.below(static_cast<uint32_t>(t.p())));
  h.segment = r.below(2);
  h.global_done = r.below(2);
  h.vc_shift = r.below(4) == 0;
  const uint32_t pin = r.below(3);
  if (pin == 1) {
    h.exit_switch = sw;
    h.exit_port = static_cast<int16_t>(t.first_global_port() + static_cast<int>(r.below(static_cast<uint32_t>(t.h()))));
  } else if (pin == 2) {
    const int g = t.group_of(sw), other = static_cast<int>(r.below(static_cast<uint32_t>(t.a())));
    h.exit_switch = t.switch_id(g, other);
    h.exit_port = static_cast<int16_t>(t.first_global_port() + static_cast<int>(r.below(static_cast<uint32_t>(t.h()))));
  }
  return h;
}

::testing::AssertionResult same_lookup(const ForwardingTable& cpp, const ForwardingTable& rtl, int in_port,
                                       const RouteHeader& h0, uint64_t seed) {
  RouteHeader a = h0, b = h0;
  Rng ra(seed, StreamKind::Switch, 4), rb(seed, StreamKind::Switch, 4);
  LookupInfo ia, ib;
  const RouteDecision da = cpp.lookup(in_port, a, ra, &ia), db = rtl.lookup(in_port, b, rb, &ib);
  g_ties += ia.tie_draws;
  g_ns += ia.drew_n;
  g_misses += da.port < 0;
  const auto where = [&] {
    return "switch " + std::to_string(cpp.sw()) + " in_port " + std::to_string(in_port) + " dst " +
           std::to_string(h0.dst_switch) + " host " + std::to_string(h0.dst_host) + " seg " +
           std::to_string(h0.segment) + " gd " + std::to_string(h0.global_done) + " exit " +
           std::to_string(h0.exit_switch) + ":" + std::to_string(h0.exit_port);
  };
  if (da.port != db.port || da.vc != db.vc)
    return ::testing::AssertionFailure() << where() << ": C++ " << da.port << "/vc" << int(da.vc) << ", RTL "
                                         << db.port << "/vc" << int(db.vc);
  if (a.segment != b.segment || a.global_done != b.global_done || a.exit_switch != b.exit_switch ||
      a.exit_port != b.exit_port || a.nonminimal != b.nonminimal || a.policy != b.policy)
    return ::testing::AssertionFailure() << where() << ": header differs (exit " << a.exit_switch << ":" << a.exit_port
                                         << " vs " << b.exit_switch << ":" << b.exit_port << ")";
  if (ra.next() != rb.next()) return ::testing::AssertionFailure() << where() << ": Rng draws differ";
  if (ia.entry != ib.entry || ia.drew_n != ib.drew_n || ia.n != ib.n || ia.tie_draws != ib.tie_draws)
    return ::testing::AssertionFailure() << where() << ": lookup info differs (entry " << ia.entry << " vs "
                                         << ib.entry << ", N " << ia.n << " vs " << ib.n << ")";
  return ::testing::AssertionSuccess();
}

// Every switch (or every sw_step-th), every destination, several headers and input ports each.
void check_tables(const Dragonfly& t, ForwardingTable (*build)(const Dragonfly&, int), bool random_prob,
                  long& lookups, int sw_step = 1) {
  Rng r(17, StreamKind::Traffic, static_cast<uint64_t>(t.num_switches()));
  for (int sw = 0; sw < t.num_switches(); sw += sw_step) {
    ForwardingTable cpp = build(t, sw), rtl = build(t, sw);
    rtl.set_block(make_rtl_ft_lookup(rtl, t, "ft_rtl_lockstep"));
    for (int dst = 0; dst < t.num_switches(); ++dst)
      for (int k = 0; k < 6; ++k) {
        if (random_prob && k % 2 == 0)
          for (int port = t.p(); port < t.radix(); ++port) {
            const uint32_t x = r.below(5);
            const int pct = x == 0 ? 0 : x == 1 ? 100 : static_cast<int>(r.below(101));
            cpp.set_probability(port, pct);
            rtl.set_probability(port, pct);
          }
        const RouteHeader h = random_header(t, sw, dst, r);
        const int in_port = k == 5 ? -1 : static_cast<int>(r.below(static_cast<uint32_t>(t.radix())));
        ASSERT_TRUE(same_lookup(cpp, rtl, in_port, h, static_cast<uint64_t>(lookups)));
        ++lookups;
      }
  }
}

ForwardingTable min_table(const Dragonfly& t, int sw) { return build_min_table(t, sw); }

}  // namespace

TEST(RtlForwardingTable, MinTablesMatchTheCppLookup) {
  long lookups = 0;
  for (const DragonflyShape& s :
       {DragonflyShape{2, 4, 2, 9, Arrangement::Palmtree}, DragonflyShape{2, 4, 2, 5, Arrangement::Absolute},
        DragonflyShape{2, 4, 2, 3, Arrangement::Absolute}, DragonflyShape{4, 8, 4, 9, Arrangement::Absolute}}) {
    const Dragonfly t(s);
    SCOPED_TRACE(t.describe());
    check_tables(t, min_table, false, lookups);
  }
  EXPECT_GT(lookups, 40000);
  EXPECT_GT(g_ties, 1000);  // the absolute tables' equal-cost sets drew
}

TEST(RtlForwardingTable, MinCondTablesMatchUnderRandomProbabilities) {
  long lookups = 0;
  for (const DragonflyShape& s :
       {DragonflyShape{2, 4, 2, 9, Arrangement::Palmtree}, DragonflyShape{2, 4, 2, 5, Arrangement::Absolute},
        DragonflyShape{4, 8, 4, 9, Arrangement::Absolute}}) {
    const Dragonfly t(s);
    SCOPED_TRACE(t.describe());
    g_ns = 0;
    check_tables(t, build_min_cond_table, true, lookups);
    EXPECT_GT(g_ns, 100);  // conditional entries were tested
  }
  EXPECT_GT(lookups, 40000);
}

// Equal-cost sets (IfSeveral and Always, conditional and not), input-port and class
// matches, a fixed VC, a misroute entry, host-only matches, and an unknown input port.
TEST(RtlForwardingTable, HandBuiltTableMatches) {
  const Dragonfly t(DragonflyShape{2, 4, 2, 9, Arrangement::Palmtree});
  auto build = [&](int sw) {
    ForwardingTable f(t, sw);
    FlowMatch g3;
    g3.dst_group = 3;
    f.add_equal_cost(g3, 20, {FlowAction::to_port(5), FlowAction::to_port(6), FlowAction::to_port(2)},
                     TieDraw::IfSeveral, FlowCondition::PortProbability);
    FlowMatch g3local = g3;
    g3local.in_class = PortClass::Local;
    f.add(g3local, 30, FlowAction::to_port(3, VcRule::Fixed, 2), FlowCondition::PortProbability);
    FlowMatch g3host = g3;
    g3host.dst_host = 1;
    f.add_equal_cost(g3host, 25, {FlowAction::to_port(4)}, TieDraw::Always, FlowCondition::PortProbability);
    FlowAction mis = FlowAction::to_port(6, VcRule::GlobalCount);
    mis.op = HeaderOp::Misroute;
    f.add(g3, 10, mis);
    FlowMatch port2;
    port2.in_port = 2;
    f.add(port2, 5, FlowAction::to_port(5), FlowCondition::PortProbability);
    FlowMatch host0;  // the last resort, for host 0 only: other headers may miss
    host0.dst_host = 0;
    f.add(host0, 0, FlowAction::to_port(6, VcRule::Fixed, 1));
    FlowMatch pinned;
    pinned.exit = ExitPin::Here;
    f.add(pinned, 40, FlowAction::take_pinned_exit(), FlowCondition::PortProbability);
    FlowMatch elsewhere;
    elsewhere.exit = ExitPin::Elsewhere;
    elsewhere.dst_group = 4;
    f.add(elsewhere, 40, FlowAction::toward_pinned_exit());
    return f;
  };
  Rng r(23, StreamKind::Traffic, 1);
  long lookups = 0;
  for (int sw = 0; sw < t.num_switches(); sw += 3) {
    ForwardingTable cpp = build(sw), rtl = build(sw);
    rtl.set_block(make_rtl_ft_lookup(rtl, t, "ft_rtl_hand"));
    for (int k = 0; k < 400; ++k) {
      for (int port = 0; port < t.radix(); ++port) {
        const int pct = static_cast<int>(r.below(101));
        cpp.set_probability(port, pct);
        rtl.set_probability(port, pct);
      }
      const int dst = static_cast<int>(r.below(static_cast<uint32_t>(t.num_switches())));
      const RouteHeader h = random_header(t, sw, dst, r);
      const int in_port = static_cast<int>(r.below(static_cast<uint32_t>(t.radix() + 1))) - 1;
      ASSERT_TRUE(same_lookup(cpp, rtl, in_port, h, static_cast<uint64_t>(lookups)));
      ++lookups;
    }
  }
  EXPECT_GT(lookups, 4000);
  EXPECT_GT(g_ties, 100);
  EXPECT_GT(g_ns, 100);
  EXPECT_GT(g_misses, 0);  // table misses (no entry matches) agree too
}

// The instance a table takes: the smallest whose rows hold its entries.
TEST(RtlForwardingTable, TakesTheSmallestInstanceThatHoldsTheTable) {
  EXPECT_EQ(rtl_ft_lookup_rows(1), 16);
  EXPECT_EQ(rtl_ft_lookup_rows(16), 16);
  EXPECT_EQ(rtl_ft_lookup_rows(17), 64);
  EXPECT_EQ(rtl_ft_lookup_rows(64), 64);
  EXPECT_EQ(rtl_ft_lookup_rows(65), 128);
  EXPECT_EQ(rtl_ft_lookup_rows(128), 128);
  EXPECT_EQ(rtl_ft_lookup_rows(129), 256);
  EXPECT_EQ(rtl_ft_lookup_rows(kFtEntriesMax), kFtEntriesMax);
  EXPECT_EQ(rtl_ft_lookup_rows(kFtEntriesMax + 1), 0);
  // The presets' tables (switch 0; a palmtree's tables are alike in size).
  struct Case {
    DragonflyShape s;
    bool cond;
    int entries, rows;
  };
  for (const Case& c : {Case{{2, 4, 2, 9, Arrangement::Palmtree}, false, 14, 16},
                        Case{{2, 4, 2, 9, Arrangement::Palmtree}, true, 16, 16},
                        Case{{4, 8, 4, 33, Arrangement::Palmtree}, false, 42, 64},
                        Case{{4, 8, 4, 33, Arrangement::Palmtree}, true, 46, 64},
                        Case{{6, 12, 6, 73, Arrangement::Palmtree}, false, 86, 128},
                        Case{{6, 12, 6, 73, Arrangement::Palmtree}, true, 92, 128},
                        Case{{4, 8, 4, 9, Arrangement::Absolute}, false, 70, 128},
                        Case{{4, 8, 4, 9, Arrangement::Absolute}, true, 138, 256},
                        Case{{4, 8, 4, 17, Arrangement::Absolute}, true, 218, 256}}) {
    const Dragonfly t(c.s);
    SCOPED_TRACE(t.describe());
    const ForwardingTable f = c.cond ? build_min_cond_table(t, 0) : build_min_table(t, 0);
    EXPECT_EQ(f.size(), c.entries);
    EXPECT_EQ(rtl_ft_lookup_rows(f.size()), c.rows);
  }
}

// The tables of dfly(4,8,4) (64-row instance) and dfly(6,12,6) (128 rows), MIN and MIN-COND,
// for a sample of switches; with the tests above (dfly(2,4,2): 16 rows; absolute
// dfly(4,8,4,9): 128 rows MIN, 256 MIN-COND) every instance is checked on the tables that
// take it.
TEST(RtlForwardingTable, PresetSizedTablesMatchInTheirInstances) {
  long lookups = 0;
  for (const DragonflyShape& s :
       {DragonflyShape{4, 8, 4, 33, Arrangement::Palmtree}, DragonflyShape{6, 12, 6, 73, Arrangement::Palmtree}}) {
    const Dragonfly t(s);
    SCOPED_TRACE(t.describe());
    const int step = t.num_switches() / 6 + 1;  // 6 switches, in different groups
    check_tables(t, min_table, false, lookups, step);
    g_ns = 0;
    check_tables(t, build_min_cond_table, true, lookups, step);
    EXPECT_GT(g_ns, 100);  // conditional entries were tested
  }
  EXPECT_GT(lookups, 70000);
}

// Hand-built tables of n entries for n at both sides of each instance's size (16/17,
// 64/65, 128/129, 256): entry k (descending priority) sends destination switch k to a port
// of its own, so a lookup for destination n - 1 takes the instance's last used row, and
// destinations n and above miss. Every destination, every input port.
TEST(RtlForwardingTable, TablesAtEachInstanceBoundaryMatch) {
  const Dragonfly t(DragonflyShape{4, 8, 4, 33, Arrangement::Palmtree});  // 264 switches
  Rng r(29, StreamKind::Traffic, 2);
  long lookups = 0;
  for (int n : {16, 17, 64, 65, 128, 129, kFtEntriesMax}) {
    SCOPED_TRACE("entries " + std::to_string(n));
    auto build = [&] {
      ForwardingTable f(t, 3);
      for (int k = 0; k < n; ++k) {
        FlowMatch m;
        m.dst_switch = k;
        f.add(m, kFtEntriesMax - k, FlowAction::to_port(k % t.radix(), VcRule::Fixed, k % 4));
      }
      return f;
    };
    ForwardingTable cpp = build(), rtl = build();
    ASSERT_EQ(rtl.size(), n);
    EXPECT_EQ(rtl_ft_lookup_rows(n), n <= 16 ? 16 : n <= 64 ? 64 : n <= 128 ? 128 : 256);
    rtl.set_block(make_rtl_ft_lookup(rtl, t, "ft_rtl_bound"));
    long hits = 0;
    for (int dst = 0; dst < t.num_switches(); ++dst)
      for (int in_port = -1; in_port < t.radix(); ++in_port) {
        const RouteHeader h = random_header(t, 3, dst, r);
        ASSERT_TRUE(same_lookup(cpp, rtl, in_port, h, static_cast<uint64_t>(lookups)));
        ++lookups;
        RouteHeader c = h;
        Rng rc(1, StreamKind::Switch, 0);
        hits += cpp.lookup(in_port, c, rc).port >= 0;
      }
    EXPECT_EQ(hits, static_cast<long>(n) * (t.radix() + 1));  // destinations 0..n-1 hit, the rest miss
  }
  EXPECT_GT(lookups, 25000);
}

TEST(RtlForwardingTable, RefusesATableLargerThanItsRows) {
  const Dragonfly t(DragonflyShape{2, 4, 2, 9, Arrangement::Palmtree});
  ForwardingTable f(t, 0);
  for (int k = 0; k <= kFtEntriesMax; ++k) f.add(FlowMatch{}, k, FlowAction::to_port(5));
  EXPECT_THROW(make_rtl_ft_lookup(f, t, "x"), std::invalid_argument);
}

}  // namespace scfly
