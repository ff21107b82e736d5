// The scfly executable: SystemC's sc_main running the command line (sc_main/cli.h), over
// MPI ranks when an MPI launcher started it (sc_main/mpi_ranks.h).
#include <iostream>
#include <stdexcept>

#include <systemc>

#include "sc_main/cli.h"
#include "sc_main/mpi_ranks.h"

int sc_main(int argc, char* argv[]) {
  std::unique_ptr<scfly::Ranks> ranks;
  try {
    ranks = scfly::mpi_ranks_init(&argc, &argv);
  } catch (const std::runtime_error& e) {
    std::cerr << "scfly: error: " << e.what() << "\n";
    return 2;
  }
  const int rc = scfly::cli_main(argc, argv, ranks.get(), scfly::mpi_built());
  ranks.reset();
  scfly::mpi_ranks_finalize();
  return rc;
}
