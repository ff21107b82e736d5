// The scfly executable: SystemC's sc_main running the command line (sc_main/cli.h).
#include <systemc>

#include "sc_main/cli.h"

int sc_main(int argc, char* argv[]) { return scfly::cli_main(argc, argv); }
