// MPI for the scfly executable (built with SCFLY_MPI): `mpirun -np R scfly run CONFIG`
// simulates one network over R processes (tb/ranks.h, tb/network.h). The model library
// holds no MPI; this file is compiled into the executable only.
#pragma once

#include <memory>

#include "tb/ranks.h"

namespace scfly {

// The communicator of the processes an MPI launcher started, or null when the process was
// not started by one (or the build has no MPI): MPI is initialized only then, so that a
// plain `scfly run` needs no MPI runtime. Call once, first thing in main. Throws
// std::runtime_error when several processes were started and the build has no MPI.
std::unique_ptr<Ranks> mpi_ranks_init(int* argc, char*** argv);
// Ends MPI if mpi_ranks_init started it (before the process exits).
void mpi_ranks_finalize();
// Whether this executable was built with MPI (SCFLY_MPI), so that `mpirun -np R` of it runs
// one simulation over R ranks.
bool mpi_built();

}  // namespace scfly
