#include "sc_main/mpi_ranks.h"

#include <cstdlib>
#include <stdexcept>
#include <string>

#ifdef SCFLY_MPI
#include <mpi.h>
#endif

namespace scfly {

#ifdef SCFLY_MPI
namespace {

bool g_started = false;

void check(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw std::runtime_error(std::string("MPI: ") + what + ": " + std::string(text, static_cast<size_t>(len)));
}

class MpiRanks : public Ranks {
 public:
  MpiRanks() {
    MPI_Comm_rank(MPI_COMM_WORLD, &m_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m_size);
    MPI_Comm local;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, m_rank, MPI_INFO_NULL, &local);
    MPI_Comm_size(local, &m_local);
    MPI_Comm_free(&local);
  }
  int rank() const override { return m_rank; }
  int size() const override { return m_size; }
  int local_size() const override { return m_local; }

  void exchange(const std::vector<std::vector<uint8_t>>& send, std::vector<std::vector<uint8_t>>& recv) override {
    const auto n = static_cast<size_t>(m_size);
    std::vector<int> scount(n), rcount(n), sdispl(n), rdispl(n);
    for (size_t r = 0; r < n; ++r)
      scount[r] = static_cast<int>(static_cast<int>(r) == m_rank ? 0 : send[r].size());
    check(MPI_Alltoall(scount.data(), 1, MPI_INT, rcount.data(), 1, MPI_INT, MPI_COMM_WORLD), "exchange (sizes)");
    std::vector<uint8_t> sbuf, rbuf;
    int so = 0, ro = 0;
    for (size_t r = 0; r < n; ++r) {
      sdispl[r] = so;
      rdispl[r] = ro;
      so += scount[r];
      ro += rcount[r];
      if (scount[r]) sbuf.insert(sbuf.end(), send[r].begin(), send[r].end());
    }
    rbuf.resize(static_cast<size_t>(ro));
    check(MPI_Alltoallv(sbuf.data(), scount.data(), sdispl.data(), MPI_BYTE, rbuf.data(), rcount.data(), rdispl.data(),
                        MPI_BYTE, MPI_COMM_WORLD),
          "exchange");
    recv.assign(n, {});
    for (size_t r = 0; r < n; ++r)
      recv[r].assign(rbuf.begin() + rdispl[r], rbuf.begin() + rdispl[r] + rcount[r]);
  }

  void sum(std::vector<uint64_t>& v) override {
    check(MPI_Allreduce(MPI_IN_PLACE, v.data(), static_cast<int>(v.size()), MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD),
          "sum");
  }

  std::vector<std::vector<uint8_t>> gather(const std::vector<uint8_t>& mine) override {
    const auto n = static_cast<size_t>(m_size);
    int len = static_cast<int>(mine.size());
    std::vector<int> lens(n), displ(n);
    check(MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, MPI_COMM_WORLD), "gather (sizes)");
    int total = 0;
    for (size_t r = 0; r < n; ++r) {
      displ[r] = total;
      total += lens[r];
    }
    std::vector<uint8_t> all(m_rank == 0 ? static_cast<size_t>(total) : 0);
    check(MPI_Gatherv(mine.data(), len, MPI_BYTE, all.data(), lens.data(), displ.data(), MPI_BYTE, 0, MPI_COMM_WORLD),
          "gather");
    std::vector<std::vector<uint8_t>> out;
    if (m_rank != 0) return out;
    for (size_t r = 0; r < n; ++r) out.emplace_back(all.begin() + displ[r], all.begin() + displ[r] + lens[r]);
    return out;
  }

  void broadcast(std::vector<uint8_t>& bytes, int root) override {
    uint64_t len = bytes.size();
    check(MPI_Bcast(&len, 1, MPI_UINT64_T, root, MPI_COMM_WORLD), "broadcast (size)");
    bytes.resize(static_cast<size_t>(len));
    check(MPI_Bcast(bytes.data(), static_cast<int>(len), MPI_BYTE, root, MPI_COMM_WORLD), "broadcast");
  }

 private:
  int m_rank = 0, m_size = 1, m_local = 1;
};

// Started by an MPI launcher: Open MPI's mpirun, or another MPI's / Slurm's PMI.
bool under_launcher() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(v)) return true;
  return false;
}

}  // namespace

std::unique_ptr<Ranks> mpi_ranks_init(int* argc, char*** argv) {
  if (!under_launcher()) return nullptr;
  MPI_Init(argc, argv);
  g_started = true;
  // Errors come back as codes (check() turns them into exceptions with MPI's text).
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  return std::make_unique<MpiRanks>();
}

void mpi_ranks_finalize() {
  if (g_started) MPI_Finalize();
  g_started = false;
}

bool mpi_built() { return true; }

#else

std::unique_ptr<Ranks> mpi_ranks_init(int*, char***) {
  // Started as one of several processes by an MPI launcher: each would simulate the whole
  // network and write the same outputs.
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
    if (const char* n = std::getenv(v); n && std::atoi(n) > 1)
      throw std::runtime_error(std::string("started as one of ") + n + " MPI processes (" + v +
                               "), and this scfly was built without MPI (SCFLY_MPI OFF: cmake found no MPI); "
                               "build with -DSCFLY_MPI=ON (Debian: libopenmpi-dev), or run it as one process");
  return nullptr;
}
void mpi_ranks_finalize() {}
bool mpi_built() { return false; }

#endif

}  // namespace scfly
