#!/bin/bash
# scfly_run.sh SET SEED [BIN]: one scfly counterpart run of a FOGSim set (tests/peers/fogsim-qcn/README.md), BIN-cycle bins (default 2000); writes out/ in the current directory. SCFLY= the binary (default build/scfly)
set -u
S=$1; N=$2; B=${3:-2000}; SFX=""; [ "$B" != 2000 ] && SFX="_b$B"
REPO=$(cd "$(dirname "$0")/../../.." && pwd); CFG=$REPO/sc_main/configs/qcn-tiny.yaml; SCFLY=${SCFLY:-$REPO/build/scfly}
FOG="switch.allocator_iterations=2 switch.output_arbiter=transit-priority"
case $S in
  tinyrr_un2adv) A=(measure_cycles=140000 'phases=[{start: 0, traffic: un}, {start: 20000, traffic: adv+1}]');;
  tinyrr_adv2un) A=(measure_cycles=140000 'phases=[{start: 0, traffic: adv+1}, {start: 20000, traffic: un}]');;
  tiny_un2adv) A=(measure_cycles=140000 'phases=[{start: 0, traffic: un}, {start: 20000, traffic: adv+1}]' $FOG);;
  tiny_adv2un) A=(measure_cycles=140000 'phases=[{start: 0, traffic: adv+1}, {start: 20000, traffic: un}]' $FOG);;
  tinylong_adv2un) A=(measure_cycles=220000 'phases=[{start: 0, traffic: adv+1}, {start: 100000, traffic: un}]' $FOG);;
esac
mkdir -p out
/usr/bin/time -f "%U %S %e" -o out/${S}_s$N$SFX.time nice -n 5 "$SCFLY" run -q $CFG warmup_cycles=0 timeseries.bin_cycles=$B timeseries.per_switch=true "${A[@]}" seed=$N --json out/${S}_s$N$SFX.json > out/${S}_s$N$SFX.log 2>&1
echo "rc=$? $S s$N $(cat out/${S}_s$N$SFX.time)"
