// The model inside a user's SystemC design: a Network elaborated as a sub-module beside the
// user's own module, time owned by the host's sc_start, and a fatal model error reported
// through SystemC's report handler without stopping or throwing into the host. One
// elaboration per process: this executable holds this one test.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include <systemc>

#include "rtl_models/switch/fault_spec.h"
#include "sc_main/config.h"
#include "tb/network.h"

namespace {

struct Host : sc_core::sc_module {
  sc_core::sc_clock clk;
  uint64_t ticks = 0;  // the host's own process, counting its clock
  std::unique_ptr<scfly::Network> net;

  Host(sc_core::sc_module_name n, const scfly::SimConfig& cfg, const scfly::TraceRequest& tr)
      : sc_core::sc_module(n), clk("clk", 1, sc_core::SC_NS) {
    net = std::make_unique<scfly::Network>("net", cfg, tr);
    SC_HAS_PROCESS(Host);
    SC_METHOD(tick);
    sensitive << clk.posedge_event();
    dont_initialize();
  }
  void tick() { ++ticks; }
};

}  // namespace

TEST(Embed, ModelErrorIsReportedAndTheHostRunsOn) {
  const scfly::SimConfig cfg = scfly::load_config(std::string(SCFLY_SOURCE_DIR) + "/sc_main/configs/dfly-tiny.yaml",
                                                  {"load=0.3", "warmup_cycles=500", "measure_cycles=3000"});
  scfly::TraceRequest tr;
  tr.fault = scfly::parse_fault("wrong-vc:0:5:0:100");  // a phit naming a VC the port lacks, at cycle 100
  Host host("host", cfg, tr);
  EXPECT_EQ(std::string(host.net->name()), "host.net");  // a sub-module of the user's design
  // The host's choice: its own actions for the model's errors (here: count and cache only).
  sc_core::sc_report_handler::set_actions(scfly::kReportType, sc_core::SC_ERROR, sc_core::SC_CACHE_REPORT);

  EXPECT_NO_THROW(sc_core::sc_start(2000, sc_core::SC_NS));  // the host owns time: nothing stops it
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::sc_time(2000, sc_core::SC_NS));
  EXPECT_EQ(host.ticks, 2000u);
  ASSERT_TRUE(host.net->failed());
  EXPECT_NE(host.net->error().find("names VC"), std::string::npos) << host.net->error();
  EXPECT_EQ(sc_core::sc_report_handler::get_count(scfly::kReportType), 1);  // reported once

  // The network has halted; the host's module runs on.
  const uint64_t moves = host.net->phit_moves();
  EXPECT_NO_THROW(sc_core::sc_start(500, sc_core::SC_NS));
  EXPECT_EQ(host.net->phit_moves(), moves);
  EXPECT_EQ(host.ticks, 2500u);
  EXPECT_EQ(sc_core::sc_report_handler::get_count(scfly::kReportType), 1);
  // Its outcome says so.
  const scfly::RunOutcome out = host.net->outcome(0, false);
  EXPECT_EQ(out.error, host.net->error());
}
