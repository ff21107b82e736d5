#!/bin/bash
# Builds bin/fogsim-bins: FOGSim's Makefile command (make -j1, -O2, asserts kept) with the
# read-only per-bin instrumentation of CHANGES.md switched on (-DFOGSIM_WORK_BINS=500).
cd "${FOGSIM_WORK:-/work/fogsim-work}/src" || exit 1
rm -f fogsim
nice -n 19 make -j1 RFLAGS="-O2 -std=c++11 -DFOGSIM_WORK_BINS=500" > ../build-bins.log 2>&1
rc=$?
echo "rc=$rc" >> ../build-bins.log
[ $rc -eq 0 ] && mv fogsim ../bin/fogsim-bins
