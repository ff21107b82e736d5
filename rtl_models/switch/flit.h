// Packets and flits. A packet's header and bookkeeping live once in a pool; what moves
// through buffers and links is a small flit (one per phit) naming its packet. The pool
// recycles packet slots through a free list, so no allocation happens per packet once the
// network has reached its working population.
#pragma once

#include <sys/mman.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <new>
#include <stdexcept>
#include <vector>

#include "routing_units/route_types.h"
#include "topologies/topology.h"

namespace scfly {

using PacketId = uint32_t;

// Traffic classes. Data frames come from NICs and count in every metric; control frames
// (e.g. QCN congestion notifications) are originated by a switch toward a host, travel on
// their own VCs above the data VCs with strict priority, and are intercepted by the switch
// of the host they are addressed to, never delivered to a NIC nor counted as data.
enum class TrafficClass : uint8_t { Data = 0, Control = 1 };

struct alignas(64) Packet {
  RouteHeader route;
  int32_t src_node = -1;
  int32_t dst_node = -1;
  uint64_t gen_cycle = 0;     // generated into the NIC's source queue
  uint64_t inject_cycle = 0;  // head phit left the NIC onto the injection link
  uint64_t head_arrival = 0;  // cycle the head landed in its current input buffer (with
                              // switch.pipeline_position output, once it crossed: the cycle
                              // it may leave the output buffer)
  uint16_t phits = 1;
  TrafficClass cls = TrafficClass::Data;
  uint8_t class_hops[kMaxPortClasses] = {};  // switch-to-switch hops per port class
  uint8_t in_class = 0;  // port class of the input it landed on at its current switch
  // (A Packet is one 64-byte cache line; keep it so: the pool is walked per phit. A control
  // frame's payload word lives beside the pool, PacketPool::payload().)
};
static_assert(sizeof(Packet) == 64, "a Packet is one 64-byte cache line: the pool is walked per phit");

struct Flit {
  PacketId pkt = 0;
  uint16_t seq = 0;  // phit index within the packet; 0 = head
  uint8_t vc = 0;    // VC on the link it travels (= input VC downstream)
  uint8_t tail = 0;  // 1 on the last phit
  bool head() const { return seq == 0; }
};

// Packets by id, in one array that never moves: its address range is reserved up front
// (kMaxPackets packets of virtual memory, backed by physical memory only as packets are
// first used), so a Packet& or Packet* stays valid across alloc() (until its packet is
// released) and a lookup costs what a vector's does. A mechanism that samples a packet and
// then originates a control frame, or a unit handed a packet while another is allocated,
// never reads through a dangling reference.
//
// Shards (sim.threads, tb/network.h): a pool built from another pool is a shard of it: the
// same packets (ids index the same array), its own free list and live count, so the blocks
// of one thread allocate and release without touching another thread's list. A packet
// released by a shard goes to that shard's list, whoever allocated it; new slots come from
// one counter shared by every shard. Which id a packet gets therefore depends on the
// threads, and nothing but identity may be read from an id (no result does).
class PacketPool {
 public:
  static constexpr uint64_t kMaxPackets = 1ULL << 27;  // alive at once; 8 GiB of address space
  PacketPool() : m_own(new Store), m_store(m_own.get()) {
    m_store->pkts = static_cast<Packet*>(reserve(kMaxPackets * sizeof(Packet)));
    m_store->payload = static_cast<uint32_t*>(reserve(kMaxPackets * sizeof(uint32_t)));
    m_store->arrival = static_cast<int16_t*>(reserve(kMaxPackets * sizeof(int16_t)));
    m_pkts = m_store->pkts;
    m_payload = m_store->payload;
    m_arrival = m_store->arrival;
  }
  // A shard of `shared` (which must outlive it).
  explicit PacketPool(PacketPool& shared)
      : m_store(shared.m_store), m_pkts(shared.m_pkts), m_payload(shared.m_payload), m_arrival(shared.m_arrival) {}
  ~PacketPool() {
    if (!m_own) return;
    ::munmap(m_store->pkts, kMaxPackets * sizeof(Packet));
    ::munmap(m_store->payload, kMaxPackets * sizeof(uint32_t));
    ::munmap(m_store->arrival, kMaxPackets * sizeof(int16_t));
    if (m_store->vc_seen) ::munmap(m_store->vc_seen, kMaxPackets * sizeof(VcSeen));
  }
  PacketPool(const PacketPool&) = delete;
  PacketPool& operator=(const PacketPool&) = delete;
  PacketId alloc() {
    ++m_live;
    if (!m_free.empty()) {
      PacketId id = m_free.back();
      m_free.pop_back();
      m_pkts[id] = Packet{};
      return id;
    }
    const uint64_t id = m_store->size.fetch_add(1, std::memory_order_relaxed);
    if (id >= kMaxPackets) throw std::length_error("packet pool: more than 2^27 packets alive at once");
    new (&m_pkts[id]) Packet{};
    return static_cast<PacketId>(id);
  }
  void release(PacketId id) {
    --m_live;
    m_free.push_back(id);
  }
  Packet& operator[](PacketId id) { return m_pkts[id]; }
  const Packet& operator[](PacketId id) const { return m_pkts[id]; }
  // Packets allocated minus released through this pool (or shard: negative when it released
  // more than it allocated; the shards' sum is the packets alive).
  int64_t live() const { return m_live; }
  // Control frames: the originating mechanism's word (e.g. a CNM's quantized feedback).
  uint32_t& payload(PacketId id) { return m_payload[id]; }
  uint32_t payload(PacketId id) const { return m_payload[id]; }
  // ... and the input port it arrived on at the switch that intercepts it.
  int16_t& arrival_port(PacketId id) { return m_arrival[id]; }
  // sim.check_vc_order: the last VC each packet used per port class, beside the pool (one
  // array for every shard: a packet is at one switch at a time). Reserved by
  // enable_vc_seen() on the pool that owns the packets, before the run.
  using VcSeen = std::array<int8_t, kMaxPortClasses>;
  void enable_vc_seen() {
    if (!m_store->vc_seen) m_store->vc_seen = static_cast<VcSeen*>(reserve(kMaxPackets * sizeof(VcSeen)));
  }
  VcSeen& vc_seen(PacketId id) { return m_store->vc_seen[id]; }

 private:
  struct Store {
    Packet* pkts = nullptr;
    uint32_t* payload = nullptr;
    int16_t* arrival = nullptr;
    VcSeen* vc_seen = nullptr;
    std::atomic<uint64_t> size{0};  // slots ever used
  };
  static void* reserve(uint64_t bytes) {
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    return p;
  }
  std::unique_ptr<Store> m_own;  // null in a shard
  Store* m_store;
  Packet* m_pkts;
  uint32_t* m_payload;
  int16_t* m_arrival;
  std::vector<PacketId> m_free;
  int64_t m_live = 0;
};

}  // namespace scfly
