// scfly's own host of a Network: it owns SystemC time for `scfly run`, `scfly table --at`
// and the benchmarks. The model never calls sc_start or sc_stop (tb/network.h); this is
// where the command line does, the same way a user's sc_main can.
#pragma once

#include <cstdint>

#include "tb/network.h"

namespace scfly {

// Runs the network `cycles` further, with the block scheduler's horizon at the end of the
// call. Returns false if the network has failed (now or before).
bool advance(Network& net, uint64_t cycles);

// The whole run of the network's configuration: warm-up and measurement window, then the
// drain when `drain` is set (generation stops, and the network runs until it is empty or
// drain_timeout_cycles have passed). A model error stops the simulation at once (this host
// adds SC_STOP to the model's error reports) and is in the outcome's `error`.
RunOutcome run(Network& net, const SimConfig& cfg);

}  // namespace scfly
