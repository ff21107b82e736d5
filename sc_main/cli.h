// The scfly command line as a function: `scfly run|sweep|keys|check-deadlock|...` with the
// arguments of main. The scfly executable is sc_main calling it (scfly_main.cpp); a user's
// executable that links plug-in mechanisms (routing_units/registry.h) calls it the same way
// and is the whole of scfly with the plug-ins in (examples/custom-routing/).
#pragma once

namespace scfly {

int cli_main(int argc, char* argv[]);

}  // namespace scfly
