// The route-stage part (rtl_models/switch/parts/route_stage.h) alone: a stand-in routing
// unit that draws from the stream it is given and writes its choice into the header, routed
// again attempt after attempt as a blocked head is, against what each re-routing kind must
// do:
//  - every attempt of a re-routing input starts from the header as the head arrived;
//  - with replay (ugal.reevaluate blocked) every attempt draws what the first drew, while
//    the switch's own stream moves on only through first attempts;
//  - without it each attempt draws anew from the switch's stream;
//  - inputs past the re-routing ones keep their header and the switch's stream;
//  - keep_valiant (ugal.reevaluate minimal) routes a minimal head again, not a Valiant one;
// and that check() refuses candidates naming a port or VC the switch does not have.
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "rtl_models/switch/parts/route_stage.h"

namespace {

using scfly::RouteCandidates;
using scfly::RouteHeader;
using scfly::RouteStage;
using scfly::Rng;
using scfly::StreamKind;

// The stand-in unit: draws an intermediate and writes it into the header (as Valiant-type
// routing does), failing the test if it is handed a header already routed by it.
int32_t route(RouteHeader& h, Rng& rng) {
  EXPECT_EQ(h.inter_switch, -1) << "routed from the header as it arrived";
  h.inter_switch = static_cast<int32_t>(rng.below(1000));
  return h.inter_switch;
}

TEST(RouteStage, EveryAttemptStartsFromTheArrivedHeaderAndReplaysTheFirstDrawsWhenAsked) {
  for (const bool replay : {false, true}) {
    SCOPED_TRACE(replay ? "replay" : "fresh draws");
    RouteStage stage(/*reroute_ports=*/2, /*vcs=*/8, replay, false);
    Rng sw(7, StreamKind::Switch, 3), shadow = sw;  // the switch's stream, and a copy to predict it
    RouteHeader h, arrived;
    int32_t first_choice = -1;
    for (uint16_t attempt = 0; attempt < 6; ++attempt) {
      std::optional<Rng> tmp;
      Rng* r = stage.begin(1, 5, attempt, h, arrived, sw, tmp);
      const int32_t got = route(h, *r);
      if (attempt == 0) {
        first_choice = got;
        EXPECT_EQ(r, &sw) << "a first attempt draws from the switch's stream";
        EXPECT_EQ(got, static_cast<int32_t>(shadow.below(1000)));
      } else if (replay) {
        EXPECT_NE(r, &sw);
        EXPECT_EQ(got, first_choice) << "attempt " << attempt << " meets the first attempt's draws";
      } else {
        EXPECT_EQ(r, &sw);
        EXPECT_EQ(got, static_cast<int32_t>(shadow.below(1000))) << "attempt " << attempt << " draws anew";
      }
    }
    // The switch's stream moved on by the first attempt's draw only (replay), or by all six.
    Rng expect(7, StreamKind::Switch, 3);
    for (int i = 0; i < (replay ? 1 : 6); ++i) expect.below(1000);
    EXPECT_EQ(sw.next(), expect.next());
  }
}

TEST(RouteStage, OtherInputsKeepTheirHeaderAndTheSwitchStream) {
  RouteStage stage(2, 8, true, false);
  Rng sw(1, StreamKind::Switch, 0);
  RouteHeader h, arrived;
  h.inter_switch = 42;  // a transit head, routed upstream
  std::optional<Rng> tmp;
  EXPECT_FALSE(stage.reroutes(2));
  EXPECT_EQ(stage.begin(2, 6, 3, h, arrived, sw, tmp), &sw);
  EXPECT_EQ(h.inter_switch, 42);
  EXPECT_FALSE(tmp.has_value());
  // No re-routing at all: nothing kept for replay, every input passes through.
  RouteStage none(0, 8, true, false);
  EXPECT_EQ(none.reroute_ports(), 0);
  EXPECT_EQ(none.begin(0, 0, 1, h, arrived, sw, tmp), &sw);
  EXPECT_EQ(h.inter_switch, 42);
}

TEST(RouteStage, KeepValiantRoutesOnlyMinimalHeadsAgain) {
  const RouteStage blocked(1, 4, true, false), minimal(1, 4, true, true);
  EXPECT_TRUE(blocked.routes_again(false));
  EXPECT_TRUE(blocked.routes_again(true));
  EXPECT_TRUE(minimal.routes_again(false));
  EXPECT_FALSE(minimal.routes_again(true));
}

TEST(RouteStage, CheckRefusesPortsAndVcsTheSwitchDoesNotHave) {
  const std::vector<size_t> vcs = {1, 2, 3};  // output VCs of ports 0-2
  const auto out_vcs = [&](int p) { return vcs[static_cast<size_t>(p)]; };
  RouteCandidates ok;
  ok.add(1, 0, 1);
  ok.add(2, 2, 2);
  EXPECT_EQ(RouteStage::check(ok, 3, out_vcs), "");
  EXPECT_EQ(RouteStage::check(RouteCandidates{}, 3, out_vcs), "no candidate");
  RouteCandidates port;
  port.add(3, 0, 0);
  EXPECT_EQ(RouteStage::check(port, 3, out_vcs), "port 3 VCs 0-0");
  RouteCandidates neg;
  neg.add(-1, 0, 0);
  EXPECT_NE(RouteStage::check(neg, 3, out_vcs), "");
  RouteCandidates vc;
  vc.add(1, 0, 0);
  vc.add(0, 0, 1);  // port 0 has one VC
  EXPECT_EQ(RouteStage::check(vc, 3, out_vcs), "port 1 VCs 0-0, port 0 VCs 0-1");
  RouteCandidates order;
  order.add(2, 2, 1);  // an empty range
  EXPECT_NE(RouteStage::check(order, 3, out_vcs), "");
}

}  // namespace
