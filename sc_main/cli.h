// The scfly command line as a function: `scfly run|sweep|keys|check-deadlock|...` with the
// arguments of main. The scfly executable is sc_main calling it (scfly_main.cpp); a user's
// executable that links plug-in mechanisms (routing_units/registry.h) calls it the same way
// and is the whole of scfly with the plug-ins in (examples/custom-routing/).
#pragma once

#include "tb/ranks.h"

namespace scfly {

// `ranks`: the processes one simulation runs over (`mpirun -np R scfly run`, tb/ranks.h),
// null for one process. Only `run` takes more than one rank; rank 0 prints and writes the
// outputs, the others print nothing. `mpi_build`: this executable was built with MPI, so
// `scfly sweep --ranks R` may start its points over R ranks.
int cli_main(int argc, char* argv[], Ranks* ranks = nullptr, bool mpi_build = false);

}  // namespace scfly
