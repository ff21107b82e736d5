// One simulation over several processes (ranks): what a Network needs from the
// communicator that joins them. The model library holds no MPI: the scfly executable built
// with SCFLY_MPI provides an MPI implementation (sc_main/mpi_ranks.h), and a user's host may
// provide its own. A Network given none (TraceRequest::ranks null) is the whole simulation.
//
// Every call is collective: every rank makes it, in the same order, with the same sizes
// where a size is given. The Network makes them at points every rank reaches at the same
// simulated cycle (the block windows' ends, the watchdog's checks, the run's end), so the
// ranks never wait on a call another rank does not make.
#pragma once

#include <cstdint>
#include <vector>

namespace scfly {

class Ranks {
 public:
  virtual ~Ranks() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Ranks on this machine (they share its cores): sim.threads 0 gives each its share.
  virtual int local_size() const = 0;
  // All to all: every rank sends send[r] to rank r (send[rank()] is not sent) and receives
  // into recv[r] what rank r sent it (recv[rank()] left empty). send.size() == size().
  virtual void exchange(const std::vector<std::vector<uint8_t>>& send, std::vector<std::vector<uint8_t>>& recv) = 0;
  // Element-wise sum over the ranks, in place on every rank (v has the same size on each).
  virtual void sum(std::vector<uint64_t>& v) = 0;
  // Rank 0 receives every rank's `mine` in rank order (its own first); the others get nothing.
  virtual std::vector<std::vector<uint8_t>> gather(const std::vector<uint8_t>& mine) = 0;
  // `bytes` of rank `root` to every rank.
  virtual void broadcast(std::vector<uint8_t>& bytes, int root) = 0;
};

}  // namespace scfly
