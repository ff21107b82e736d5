// Ranks (tb/ranks.h): when another rank fails, this one stops in the same window with that
// rank's error, reported once through SystemC's report handler. The other rank is played
// by a Ranks implementation in this process (rank 1 of 2 beside a rank 0 that fails in its
// third window), so no MPI is needed. One elaboration per process: its own executable.
#include <gtest/gtest.h>

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
