// The output-room part (rtl_models/switch/parts/output_room.h) alone, in its four kinds
// (switch.output_sharing vc/port x switch.ejection_grant room/host-idle): driven with random
// grants, crossings and departures as a switch makes them, against a reference model that
// recounts every buffer from scratch after each step. Checked: the room of every output VC
// is what the reference computes (its free phits, 0 while a connection writes into it, a
// shared data VC the port's free phits less those granted and not yet in), a shared buffer
// never holds more than its phits, and host-idle grants at most one packet per port per
// pass, none while the host link is busy, and never more than the buffer's room less what
// it is owed.
#include <gtest/gtest.h>

#include <deque>
#include <random>
#include <utility>
#include <vector>

#include "rtl_models/switch/parts/output_room.h"

namespace {

using scfly::EjectionGrant;
using scfly::OutputRoom;
using scfly::OutputSharing;

// Ports 0-1: switch-to-switch, 2 data VCs and 1 control VC of 16 phits each (shared: one
// buffer of 16 for the data VCs); port 2: a host, 1 data VC of 12 phits.
constexpr int kPorts = 3;
constexpr size_t kStride = 3;
const std::vector<uint8_t> kData = {2, 2, 1};
const std::vector<uint8_t> kHost = {0, 0, 1};
const std::vector<uint32_t> kCap = {16, 16, 12};  // per VC (and the shared buffer of 0, 1)

struct Vc {
  uint32_t occ = 0;      // phits in the buffer
  bool writing = false;  // a connection writes into it
};

struct Conn {
  int op, v;
  uint32_t left;  // phits still to cross
};

void random_run(OutputSharing sharing, EjectionGrant eject, uint64_t seed) {
  SCOPED_TRACE(std::string(sharing == OutputSharing::Port ? "port" : "vc") + " / " +
               (eject == EjectionGrant::HostIdle ? "host-idle" : "room"));
  std::mt19937_64 rng(seed);
  OutputRoom room(kPorts, kStride, kData, kHost, kCap, sharing, eject);
  std::vector<std::vector<Vc>> vc(kPorts);
  for (int p = 0; p < kPorts; ++p) vc[static_cast<size_t>(p)].resize(kHost[static_cast<size_t>(p)] ? 1 : 3);
  const auto nvcs = [&](int op) { return static_cast<int>(vc[static_cast<size_t>(op)].size()); };
  const auto free_of = [&](int op, int v) { return kCap[static_cast<size_t>(op)] - vc[static_cast<size_t>(op)][static_cast<size_t>(v)].occ; };
  const auto state = [&](int op) {
    return [&, op](int c) {
      const Vc& x = vc[static_cast<size_t>(op)][static_cast<size_t>(c)];
      return std::pair<bool, uint32_t>(x.writing, kCap[static_cast<size_t>(op)] - x.occ);
    };
  };
  for (int p = 0; p < kPorts; ++p)
    for (int v = 0; v < nvcs(p); ++v) room.set(p, v, room.room_of(p, v, false, kCap[static_cast<size_t>(p)]));
  std::vector<Conn> conns;        // connections filling non-queued VCs
  std::deque<Conn> eject_queue;   // host-idle: packets granted toward the host, in order
  uint32_t pass = 0, last_pass = 0;  // the allocator pass now, and the last that granted the host
  bool link_busy = false;
  uint64_t grants = 0, refused_pass = 0, refused_busy = 0, shared_full = 0;
  for (int step = 0; step < 40000; ++step) {
    if (step % 7 == 0) {
      ++pass;  // a new allocator pass
      link_busy = rng() % 4 == 0;
    }
    const int what = static_cast<int>(rng() % 3);
    if (what == 0) {  // a grant request: (op, v) for a packet of 1-6 phits
      const int op = static_cast<int>(rng() % kPorts), v = static_cast<int>(rng() % static_cast<uint64_t>(nvcs(op)));
      const uint32_t phits = 1 + static_cast<uint32_t>(rng() % 6);
      Vc& x = vc[static_cast<size_t>(op)][static_cast<size_t>(v)];
      if (room.queued(op, v)) {
        uint32_t owed = 0;
        for (const Conn& c : eject_queue) owed += c.left;
        const uint32_t expect_room = free_of(op, v) > owed ? free_of(op, v) - owed : 0;
        ASSERT_EQ(room.eject_room(op, free_of(op, v)), expect_room);
        const bool ok = room.grant_eject(op, pass, link_busy, free_of(op, v), phits);
        const bool expect = last_pass != pass && !link_busy && expect_room >= phits;
        ASSERT_EQ(ok, expect) << "step " << step;
        if (ok) {
          last_pass = pass;
          eject_queue.push_back({op, v, phits});
          x.writing = true;
          room.set(op, v, 0);
          ++grants;
        } else if (link_busy) {
          ++refused_busy;
        } else if (last_pass == pass) {
          ++refused_pass;
        }
        continue;
      }
      if (x.writing || room.room(op, v) < phits) continue;  // the allocator's test
      const bool shared = room.shared(op, v);
      if (shared) {
        ASSERT_TRUE(room.take_shared(op, phits));  // one grant at a time here: the room was there
      }
      x.writing = true;
      if (shared) {
        room.refresh(op, v, state(op));
      } else {
        room.set(op, v, 0);
      }
      conns.push_back({op, v, phits});
      ++grants;
    } else if (what == 1) {  // one phit of a connection crosses
      if (!eject_queue.empty() && rng() % 2 == 0) {
        Conn& c = eject_queue.front();
        ++vc[static_cast<size_t>(c.op)][static_cast<size_t>(c.v)].occ;
        room.crossed_eject(c.op);
        if (--c.left == 0) eject_queue.pop_front();
      } else if (!conns.empty()) {
        const size_t i = rng() % conns.size();
        Conn& c = conns[i];
        Vc& x = vc[static_cast<size_t>(c.op)][static_cast<size_t>(c.v)];
        ++x.occ;
        if (--c.left == 0) {
          x.writing = false;
          room.refresh(c.op, c.v, state(c.op));
          conns[i] = conns.back();
          conns.pop_back();
        }
      }
    } else {  // one phit leaves an output buffer
      const int op = static_cast<int>(rng() % kPorts), v = static_cast<int>(rng() % static_cast<uint64_t>(nvcs(op)));
      Vc& x = vc[static_cast<size_t>(op)][static_cast<size_t>(v)];
      if (x.occ == 0) continue;
      --x.occ;
      if (room.shared(op, v)) {
        room.left_shared(op);
        room.refresh(op, v, state(op));
      } else if (!x.writing) {
        room.set(op, v, free_of(op, v));
      }
    }
    // The reference: every room recounted.
    for (int op = 0; op < kPorts; ++op) {
      uint32_t in_shared = 0;  // the shared buffer: phits in its data VCs and granted toward them
      for (int v = 0; v < kData[static_cast<size_t>(op)]; ++v) in_shared += vc[static_cast<size_t>(op)][static_cast<size_t>(v)].occ;
      for (const Conn& c : conns)
        if (c.op == op && c.v < kData[static_cast<size_t>(op)]) in_shared += c.left;
      for (int v = 0; v < nvcs(op); ++v) {
        const Vc& x = vc[static_cast<size_t>(op)][static_cast<size_t>(v)];
        if (room.queued(op, v)) continue;  // host-idle: eject_room is its room (checked above)
        uint32_t expect = x.writing ? 0 : free_of(op, v);
        if (room.shared(op, v)) {
          ASSERT_LE(in_shared, kCap[static_cast<size_t>(op)]) << "the shared buffer overfilled";
          ASSERT_EQ(room.port_free(op), kCap[static_cast<size_t>(op)] - in_shared) << "step " << step;
          expect = x.writing ? 0 : kCap[static_cast<size_t>(op)] - in_shared;
          shared_full += expect == 0 && !x.writing;
        }
        ASSERT_EQ(room.room(op, v), expect) << "port " << op << " VC " << v << " step " << step;
      }
    }
  }
  EXPECT_GT(grants, 1000u);
  if (sharing == OutputSharing::Port) {
    EXPECT_GT(shared_full, 0u);  // the shared buffer did fill
  }
  if (eject == EjectionGrant::HostIdle) {
    EXPECT_GT(refused_pass + refused_busy, 0u);  // the rule refused some
  }
}

TEST(OutputRoom, EveryKindKeepsTheRoomTheReferenceComputes) {
  uint64_t seed = 1;
  for (OutputSharing s : {OutputSharing::PerVc, OutputSharing::Port}) {
    for (EjectionGrant e : {EjectionGrant::Room, EjectionGrant::HostIdle}) random_run(s, e, seed++);
  }
}

// The modes' predicates: which VCs share the port's buffer, which queue toward a host.
TEST(OutputRoom, SharedAndQueuedVcsAreTheDataVcsOfTheirPorts) {
  const OutputRoom per_vc(kPorts, kStride, kData, kHost, kCap, OutputSharing::PerVc, EjectionGrant::Room);
  const OutputRoom port(kPorts, kStride, kData, kHost, kCap, OutputSharing::Port, EjectionGrant::HostIdle);
  for (int op = 0; op < kPorts; ++op) {
    for (int v = 0; v < 3; ++v) {
      EXPECT_FALSE(per_vc.shared(op, v));
      EXPECT_FALSE(per_vc.queued(op, v));
      const bool data = v < kData[static_cast<size_t>(op)];
      EXPECT_EQ(port.shared(op, v), data && !kHost[static_cast<size_t>(op)]) << op << " " << v;
      EXPECT_EQ(port.queued(op, v), data && kHost[static_cast<size_t>(op)]) << op << " " << v;
    }
  }
  EXPECT_EQ(port.port_free(0), 16u);
}

}  // namespace
