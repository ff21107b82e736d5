// Ranks (tb/ranks.h): when another rank fails, this one stops in the same window with that
// rank's error, reported once through SystemC's report handler. The other rank is played
// by a Ranks implementation in this process (rank 1 of 2 beside a rank 0 that fails in its
// third window), so no MPI is needed. One elaboration per process: its own executable.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include <systemc>

#include "sc_main/config.h"
#include "sc_main/run_driver.h"
#include "tb/network.h"

namespace {

const std::string kError = "rank 0: an invariant failed in switch 3";

class OtherRankFails : public scfly::Ranks {
 public:
  int rank() const override { return 1; }
  int size() const override { return 2; }
  int local_size() const override { return 2; }
  void exchange(const std::vector<std::vector<uint8_t>>& send, std::vector<std::vector<uint8_t>>& recv) override {
    ++windows;
    sent += send.at(0).size();
    recv.assign(2, {});
    recv[0] = {static_cast<uint8_t>(windows >= 3 ? 1 : 0)};  // rank 0's "failed" flag, nothing sent
  }
  void sum(std::vector<uint64_t>&) override {}  // rank 0 adds nothing to the watchdog's sums
  std::vector<std::vector<uint8_t>> gather(const std::vector<uint8_t>& mine) override {
    gathered = mine.size();
    return {};  // rank 1 receives nothing
  }
  void broadcast(std::vector<uint8_t>& bytes, int root) override {
    if (bytes.size() == sizeof(uint64_t)) return;  // the driver's chunk (Network::rank0_value): rank 0's is ours
    roots.push_back(root);
    // The window's failure: rank 0's error; the outcome's verdict: conservation held, that error.
    const std::string text = roots.size() == 1 ? kError : std::string(1, '\1') + kError;
    bytes.assign(text.begin(), text.end());
  }
  int windows = 0;
  size_t sent = 0, gathered = 0;
  std::vector<int> roots;
};

}  // namespace

TEST(RanksFail, AnotherRanksErrorStopsThisRankInTheSameWindow) {
  const scfly::SimConfig cfg = scfly::load_config(std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/dfly-tiny.yaml",
                                                  {"load=0.5", "warmup_cycles=0", "measure_cycles=1000"});
  OtherRankFails other;
  scfly::TraceRequest tr;
  tr.ranks = &other;
  scfly::Network net("net", cfg, tr);
  EXPECT_EQ(net.ranks(), 2);
  EXPECT_EQ(net.rank(), 1);
  EXPECT_EQ(net.scheduler_note(), "blocks of 10 cycles on 2 ranks");
  EXPECT_THROW(net.switch_at(0), std::out_of_range);  // rank 0's: not built here
  EXPECT_NO_THROW(net.switch_at(35));
  const scfly::RunOutcome out = scfly::run(net, cfg);
  EXPECT_EQ(other.windows, 3);  // the third window's exchange said rank 0 failed
  EXPECT_GT(other.sent, 0u);    // this rank's switches sent phits or credits toward rank 0's
  ASSERT_TRUE(net.failed());
  EXPECT_EQ(net.error(), kError);
  EXPECT_EQ(net.cycle(), 20u);  // that window, [20, 30), ran at cycle 20: the simulation stopped there
  EXPECT_EQ(sc_core::sc_report_handler::get_count(scfly::kReportType), 1);
  ASSERT_EQ(other.roots, (std::vector<int>{0, 0}));  // the failing rank's message, then rank 0's verdict
  EXPECT_GT(other.gathered, 0u);                       // this rank's part went to rank 0
  EXPECT_EQ(out.error, kError);
  EXPECT_TRUE(out.conservation_ok);
}

namespace {

// Rank 0 of 2 at the end-of-run credit balance: it sends rank 1 the sender's side of every
// channel from its switches into rank 1's (`reply`), and keeps what rank 1 sent it.
class OtherRankSendsChannelSides : public scfly::Ranks {
 public:
  int rank() const override { return 1; }
  int size() const override { return 2; }
  int local_size() const override { return 2; }
  void exchange(const std::vector<std::vector<uint8_t>>& send, std::vector<std::vector<uint8_t>>& recv) override {
    received = send.at(0);
    recv.assign(2, {});
    for (const auto& x : reply) {
      const auto* p = reinterpret_cast<const uint8_t*>(&x);
      recv[0].insert(recv[0].end(), p, p + sizeof x);
    }
  }
  void sum(std::vector<uint64_t>&) override {}
  std::vector<std::vector<uint8_t>> gather(const std::vector<uint8_t>&) override { return {}; }
  void broadcast(std::vector<uint8_t>&, int) override {}
  std::vector<scfly::Network::ChannelSenderSide> reply;
  std::vector<uint8_t> received;
};

}  // namespace

// The credit balance of a channel between two ranks is checked by the receiving rank, with
// the sender's side from the sending rank: here at cycle 0 (every credit home, every
// buffer empty), with rank 0's side as it should be, one credit short, one too many, and
// naming a channel into one of its own switches.
TEST(RanksFail, TheCreditBalanceOfAChannelFromAnotherRankIsChecked) {
  const scfly::SimConfig cfg = scfly::load_config(std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/dfly-tiny.yaml", {});
  OtherRankSendsChannelSides other;
  scfly::TraceRequest tr;
  tr.ranks = &other;
  scfly::Network net("net", cfg, tr);
  const scfly::Topology& t = net.topology();
  auto local = [&](int s) {
    try {
      net.switch_at(s);
      return true;
    } catch (const std::out_of_range&) {
      return false;
    }
  };
  // Rank 0's side of every channel into this rank, as it stands at cycle 0.
  size_t into_here = 0, from_here = 0;
  for (int s = 0; s < t.num_switches(); ++s)
    for (int p = t.host_ports(); p < t.radix(); ++p) {
      if (!t.connected(s, p)) continue;
      const scfly::PortEnd d = t.neighbor(s, p);
      if (local(s) == local(d.sw)) continue;
      if (local(s)) {
        from_here += static_cast<size_t>(net.switch_at(s).out_vcs(p));
        continue;
      }
      const scfly::Switch& down = net.switch_at(d.sw);
      for (int v = 0; v < down.in_vcs(d.port); ++v) {
        const int64_t cap = down.in_depth(d.port);
        other.reply.push_back({static_cast<uint32_t>(s), static_cast<uint16_t>(p), static_cast<uint16_t>(v), cap, cap, 0});
        ++into_here;
      }
    }
  ASSERT_GT(into_here, 0u);
  EXPECT_EQ(net.credit_balance(), "");
  // This rank sent rank 0 its side of every channel from its switches into rank 0's.
  ASSERT_EQ(other.received.size(), from_here * sizeof(scfly::Network::ChannelSenderSide));
  for (size_t i = 0; i < from_here; ++i) {
    scfly::Network::ChannelSenderSide x;
    std::memcpy(&x, other.received.data() + i * sizeof x, sizeof x);
    EXPECT_FALSE(local(t.neighbor(static_cast<int>(x.sw), x.port).sw));
    EXPECT_EQ(x.credits, x.cap);
  }
  scfly::Network::ChannelSenderSide& last = other.reply.back();
  const scfly::PortEnd d = t.neighbor(static_cast<int>(last.sw), last.port);
  const std::string channel = "credit balance broken on the channel switch " + std::to_string(last.sw) +
                              " (rank 0) port " + std::to_string(last.port) + " -> net.sw" + std::to_string(d.sw) +
                              " port " + std::to_string(d.port) + ", VC " + std::to_string(last.vc) + ": ";
  --last.credits;
  EXPECT_EQ(net.credit_balance(), channel + std::to_string(last.cap - 1) +
                                      " credits at the sender + 0 phits holding one at the receiver != its buffer of " +
                                      std::to_string(last.cap) + " phits (credits lost)");
  last.credits += 2;
  EXPECT_NE(net.credit_balance().find("(credits duplicated)"), std::string::npos);
  last.credits = last.cap;
  EXPECT_EQ(net.credit_balance(), "");
  // A channel into one of rank 0's own switches is not this rank's to check.
  bool found = false;
  for (int s = 0; s < t.num_switches() && !found; ++s)
    for (int p = t.host_ports(); p < t.radix() && !found; ++p)
      if (local(s) && t.connected(s, p) && !local(t.neighbor(s, p).sw)) {
        other.reply.push_back({static_cast<uint32_t>(s), static_cast<uint16_t>(p), 0, 1, 1, 0});
        found = true;
      }
  ASSERT_TRUE(found);
  EXPECT_THROW(net.credit_balance(), std::logic_error);
}
