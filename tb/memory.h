// What a network will cost in memory, and what the machine has: the estimate printed with
// a run and checked against `sim.max_memory` before most of the network is allocated.
//
// The estimate is measured, not modelled: the network measures the heap its first switch
// and its first NIC take as it builds them (every switch of a Dragonfly or torus has the
// same ports, VCs and tables; a mesh's edge switches have fewer), and scales them by the
// counts. Added to that: the packets alive at once, by Little's law at the offered load
// (packets per node per cycle times a zero-load latency bound), which holds below
// saturation; past it, the source queues grow with the run (PacketPool::set_limit stops a
// run whose packets outgrow the limit). Under a sanitizer, whose allocator does not report
// its heap, the measured parts are 0 and nothing is refused.
#pragma once

#include <cstdint>
#include <string>

namespace scfly {

// Bytes of heap in use now (glibc's mallinfo2: small blocks and mmap'd ones).
uint64_t heap_in_use();
// The process's peak resident set so far, bytes (getrusage).
uint64_t peak_rss();
// The process's resident set now, bytes (/proc/self/statm; 0 if unreadable).
uint64_t resident_now();
// What a new allocation can use: MemAvailable from /proc/meminfo, lowered to the cgroup's
// memory.max minus its use when one is set; 0 when neither can be read.
uint64_t available_memory();

struct MemoryEstimate {
  uint64_t per_switch = 0;   // bytes, measured on the first switch built
  uint64_t per_host = 0;     // bytes, measured on the first NIC built
  uint64_t switches = 0, hosts = 0;
  uint64_t packets = 0;      // bytes of packets alive at once at the offered load
  uint64_t base = 0;         // resident before the network (program, libraries, config, topology)
  uint64_t limit = 0;        // bytes allowed (sim.max_memory, or the available memory)
  bool measured = false;
  int ranks = 1;             // with MPI ranks: the switches and hosts are one rank's part
  // The modules as measured, plus what binding their sockets and elaborating them adds
  // (10 %: 5 % binding and 3 to 7 % of registry and name-table growth measured on
  // dfly(6,12,6), 876 switches), plus the packets.
  uint64_t modules() const { return per_switch * switches + per_host * hosts; }
  uint64_t total() const { return base + modules() + modules() / 10 + packets; }
  // "2.31 GiB (16,416 switches x 140 KiB, 262,656 hosts x 9.1 KiB, packets 12 MiB)"
  std::string describe() const;
};

// "1.5 GiB", "312 MiB", "20 KiB", "512 B".
std::string format_bytes(uint64_t bytes);

}  // namespace scfly
