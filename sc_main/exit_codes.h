// scfly's exit codes: the one table, docs/reliability.md, explains each with examples.
#pragma once

namespace scfly {

inline constexpr int kExitOk = 0;
// The command line cannot be parsed: no or an unknown subcommand, an unknown option, a
// missing argument.
inline constexpr int kExitUsage = 1;
// Bad input, refused before anything is allocated or written: a config key, a sweep file, an
// option's value, an output that cannot be written, a network that can deadlock, a --fault
// that cannot apply or cannot fire within the run.
inline constexpr int kExitBadInput = 2;
// The simulation failed (watchdog, invariant violation, conservation failure, drain
// incomplete, an injected fault detected, a --fault that never fired); for a sweep, some
// point failed.
inline constexpr int kExitSimError = 3;
// The answer is "no": check-deadlock found a dependency cycle or a routing error; sweep
// --gather: points are still missing.
inline constexpr int kExitNegative = 4;
// An output file could not be written (disk full, I/O error); the message names the file.
inline constexpr int kExitWriteFailed = 5;
// check-deadlock: the network is too large to enumerate, so nothing was checked.
inline constexpr int kExitNotChecked = 6;
// A sweep was interrupted (SIGINT/SIGTERM); run it again to resume.
inline constexpr int kExitInterrupted = 130;

}  // namespace scfly
