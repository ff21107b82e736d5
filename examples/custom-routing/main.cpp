// The whole scfly command line with the plug-ins of this directory linked in:
// `scfly-custom run|sweep|keys|check-deadlock ...` as `scfly ...`.
#include <systemc>

#include <scfly/sc_main/cli.h>

int sc_main(int argc, char* argv[]) { return scfly::cli_main(argc, argv); }
