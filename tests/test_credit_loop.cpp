// The credit-loop and pipeline parts (rtl_models/switch/parts/credit_loop.h, pipeline.h)
// alone.
//
// CreditLoop, in its three kinds (switch.output_credits outside/inside x
// switch.credit_return phit/packet, packet only inside): one channel, a sender's output VC
// and its credit counter, a link of latency L each way, and the receiver's input VC, driven
// with random packets, random crossbar grants at the receiver and random stalls, as two
// switches make them. A reference recounts the channel after every cycle:
//  - conservation: the sender's credits plus every phit that holds one (in the output
//    buffer when inside, on the link, in the receiver's buffer and not yet credited back,
//    credits on their way back) equal the receiver's buffer depth;
//  - the receiver's buffer never holds more than its depth plus the part's slack;
//  - inside, a packet in the output buffer can always start (its credits were spent at its
//    grant), and the counter never goes below zero;
//  - a congestion measure's "downstream" and "both" readings are the phits the reference
//    counts there;
//  - every packet is delivered, whole and in order.
// SwitchPipeline: the cycles it gives for both positions, and a head's residence summed
// over its crossing and its departure equals its time in the switch.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <random>
#include <stdexcept>
#include <string>

#include "rtl_models/switch/parts/credit_loop.h"
#include "rtl_models/switch/parts/pipeline.h"

namespace {

using scfly::CreditCounter;
using scfly::CreditLoop;
using scfly::CreditReturn;
using scfly::GrantReturn;
using scfly::OutputCredits;
using scfly::PipelinePosition;
using scfly::SwitchPipeline;

constexpr uint32_t kDepth = 24;   // the receiver's input VC (credits)
constexpr uint32_t kOutBuf = 16;  // the sender's output VC
constexpr uint32_t kMaxPkt = 8;   // packets of 1..8 phits
constexpr uint64_t kLat = 3;      // link latency each way

struct Phit {
  uint32_t pkt;
  uint32_t seq, len;
  uint64_t at;  // landing cycle
};

void channel_run(OutputCredits out, CreditReturn ret, uint64_t seed) {
  SCOPED_TRACE(std::string(out == OutputCredits::Inside ? "inside" : "outside") + " / " +
               (ret == CreditReturn::Packet ? "packet" : "phit"));
  std::mt19937_64 rng(seed);
  const CreditLoop loop(out, ret, false, false);
  CreditCounter cr;
  cr.reset(static_cast<int32_t>(kDepth));
  std::deque<uint32_t> out_buf;       // phits (packet lengths per phit kept in `lens`)
  std::deque<uint32_t> out_pkts;      // lengths of the packets in the output buffer, in order
  std::deque<Phit> link;              // phits on the link, landing in order
  std::deque<uint64_t> credits_back;  // landing cycles of credits on their way back
  std::deque<Phit> in_buf;            // the receiver's input VC
  uint32_t in_uncredited = 0;         // phits in in_buf still holding a credit
  uint32_t pre_credited = 0;          // phits on the link credited back at their packet's grant
  uint32_t next_pkt = 0, delivered = 0, sent_pkts = 0, expect_pkt = 0;
  uint32_t sending_left = 0, sending_len = 0, sending_seq = 0;
  uint32_t draining_left = 0;  // phits of the granted packet at the receiver still to leave
  const uint32_t total = 400;
  for (uint64_t t = 0; t < 200000 && delivered < total; ++t) {
    // Credits landing now.
    while (!credits_back.empty() && credits_back.front() <= t) {
      credits_back.pop_front();
      cr.land(t, t, 1, 1, false);
    }
    ASSERT_FALSE(cr.overflow()) << "cycle " << t;
    // Sender: a new packet offered to the output VC (the switch's grant).
    if (next_pkt < total && rng() % 3 != 0) {
      const uint32_t len = 1 + static_cast<uint32_t>(rng() % kMaxPkt);
      const uint32_t room = kOutBuf - static_cast<uint32_t>(out_buf.size());
      if (room >= len && loop.admits(cr, t, len)) {
        loop.granted(cr, len);
        for (uint32_t i = 0; i < len; ++i) out_buf.push_back(len);
        out_pkts.push_back(len);
        ++next_pkt;
      } else if (room >= len) {
        EXPECT_EQ(out, OutputCredits::Inside) << "outside, only the output buffer's room gates a grant";
      }
    }
    // Sender: the link, one phit per cycle, a packet only with the part's consent.
    if (sending_left == 0 && !out_pkts.empty() && rng() % 5 != 0) {
      const bool may = loop.may_start(cr, t, out_pkts.front());
      if (out == OutputCredits::Inside) {
        EXPECT_TRUE(may) << "inside, a buffered packet's credits are spent";
      }
      if (may) {
        sending_len = sending_left = out_pkts.front();
        sending_seq = 0;
        out_pkts.pop_front();
      }
    }
    if (sending_left > 0) {
      out_buf.pop_front();
      loop.sent(cr);
      link.push_back(Phit{sent_pkts, sending_seq++, sending_len, t + kLat});
      if (--sending_left == 0) ++sent_pkts;
    }
    ASSERT_GE(cr.credits, 0) << "cycle " << t;
    // Receiver: phits landing.
    while (!link.empty() && link.front().at <= t) {
      in_buf.push_back(link.front());
      link.pop_front();
      if (pre_credited > 0) {
        --pre_credited;
      } else {
        ++in_uncredited;
      }
    }
    ASSERT_LE(in_buf.size(), kDepth + loop.input_slack(kMaxPkt)) << "cycle " << t;
    // Receiver: its crossbar grants the packet at the front (whole packet landed or not:
    // cut-through), then drains a phit per cycle; stalls at random.
    if (draining_left == 0 && !in_buf.empty() && rng() % 4 == 0) {
      ASSERT_EQ(in_buf.front().seq, 0u);
      draining_left = in_buf.front().len;
      if (loop.at_grant(false) == GrantReturn::Packet) {
        for (uint32_t i = 0; i < draining_left; ++i) credits_back.push_back(t + kLat);
        const uint32_t landed = std::min(static_cast<uint32_t>(in_buf.size()), draining_left);
        in_uncredited -= landed;
        pre_credited = draining_left - landed;  // the rest, on the link
      }
    }
    if (draining_left > 0 && !in_buf.empty()) {
      const Phit p = in_buf.front();
      in_buf.pop_front();
      ASSERT_EQ(p.pkt, expect_pkt) << "in order";
      if (loop.at_grant(false) != GrantReturn::Packet) {
        credits_back.push_back(t + kLat);
        --in_uncredited;
      }
      if (--draining_left == 0) {
        ASSERT_EQ(p.seq + 1, p.len) << "whole";
        ++delivered;
        ++expect_pkt;
      }
    }
    // The reference's recount (with packet return, the phits of a granted packet still on
    // the link were credited at its grant).
    const uint32_t downstream =
        static_cast<uint32_t>(link.size()) - pre_credited + in_uncredited + static_cast<uint32_t>(credits_back.size());
    const uint32_t in_out = out == OutputCredits::Inside ? static_cast<uint32_t>(out_buf.size()) : 0u;
    ASSERT_EQ(static_cast<uint32_t>(cr.credits) + in_out + downstream, kDepth) << "credit conservation, cycle " << t;
    const int32_t spent = cr.cap - cr.at(t);
    const uint32_t committed = spent > 0 ? static_cast<uint32_t>(spent) : 0u;
    const uint32_t ob = static_cast<uint32_t>(out_buf.size());
    ASSERT_EQ(loop.committed_downstream(ob, committed), downstream) << "cycle " << t;
    ASSERT_EQ(loop.committed_with_output(ob, committed), downstream + ob) << "cycle " << t;
  }
  EXPECT_EQ(delivered, total) << "every packet delivered";
}

TEST(CreditLoop, EveryKindConservesCreditsAndDeliversEveryPacket) {
  for (uint64_t seed : {1u, 2u, 3u}) {
    channel_run(OutputCredits::Outside, CreditReturn::Phit, seed);
    channel_run(OutputCredits::Inside, CreditReturn::Phit, seed);
    channel_run(OutputCredits::Inside, CreditReturn::Packet, seed);
  }
}

TEST(CreditLoop, RefusesWhatCannotCloseAndReturnsAtGrantWhatItsKindSays) {
  EXPECT_THROW(CreditLoop(OutputCredits::Outside, CreditReturn::Packet, false, false), std::invalid_argument);
  EXPECT_THROW(CreditLoop(OutputCredits::Inside, CreditReturn::Phit, true, false), std::invalid_argument);
  const CreditLoop phit(OutputCredits::Outside, CreditReturn::Phit, false, false);
  EXPECT_FALSE(phit.returns_at_grant());
  EXPECT_EQ(phit.at_grant(true), GrantReturn::None);
  EXPECT_EQ(phit.input_slack(10), 0u);
  const CreditLoop packet(OutputCredits::Inside, CreditReturn::Packet, false, false);
  EXPECT_TRUE(packet.returns_at_grant());
  EXPECT_EQ(packet.at_grant(false), GrantReturn::Packet);
  EXPECT_EQ(packet.at_grant(true), GrantReturn::Packet);
  EXPECT_EQ(packet.input_slack(10), 10u);
  // PFC, the NIC counting a host input's room (source.when_full: skip): host inputs only.
  const CreditLoop pfc(OutputCredits::Outside, CreditReturn::Phit, true, true);
  EXPECT_TRUE(pfc.returns_at_grant());
  EXPECT_EQ(pfc.at_grant(true), GrantReturn::HostRoom);
  EXPECT_EQ(pfc.at_grant(false), GrantReturn::None);
  // A counter toward a host (no credits) never holds a grant back.
  CreditCounter host;
  host.reset(0);
  EXPECT_TRUE(packet.admits(host, 5, 100));
}

TEST(SwitchPipeline, PlacesTheCyclesAndCountsTheWholeResidence) {
  const SwitchPipeline in(5, PipelinePosition::Input), out(5, PipelinePosition::Output);
  EXPECT_EQ(in.input_delay(), 5u);
  EXPECT_EQ(in.output_delay(), 0u);
  EXPECT_EQ(out.input_delay(), 0u);
  EXPECT_EQ(out.output_delay(), 5u);
  EXPECT_EQ(in.routable_at(100), 105u);
  EXPECT_EQ(out.routable_at(100), 100u);
  EXPECT_FALSE(in.delays_output());
  EXPECT_TRUE(out.delays_output());
  EXPECT_TRUE(in.may_leave(100, 0));  // at the input nothing holds a crossed head
  // A head landing at `land`, crossing at `cross` and leaving at the first cycle it may:
  // the same zero-load time through the switch in both positions, and the residence the
  // switch counts (at the crossing, then at the departure) is its whole stay.
  std::mt19937_64 rng(11);
  for (int i = 0; i < 1000; ++i) {
    const uint64_t land = rng() % 1000, wait = rng() % 20, link_free = land + rng() % 40;
    // Input: routable at land + 5, crosses after its wait and leaves once the link is free.
    const uint64_t in_cross = in.routable_at(land) + wait;
    const uint64_t in_leave = std::max(in_cross, link_free);
    EXPECT_EQ(in.residence(land, in_leave), in_leave - land);
    // Output: crosses after its wait, leaves 5 cycles later or once the link is free.
    const uint64_t out_cross = out.routable_at(land) + wait;
    const uint64_t stamp = out.leaves_at(out_cross);
    uint64_t out_leave = out_cross;
    while (!out.may_leave(stamp, out_leave) || out_leave < link_free) ++out_leave;
    EXPECT_EQ(out_leave, std::max(out_cross + 5, link_free));
    EXPECT_EQ((out_cross - land) + out.residence(stamp, out_leave), out_leave - land);
    if (wait == 0 && link_free <= land + 5) {
      EXPECT_EQ(in_leave, out_leave) << "zero load: the same time through the switch";
    }
    EXPECT_GE(out_leave, in_leave) << "a wait overlaps the pipeline at the input only";
  }
}

}  // namespace
