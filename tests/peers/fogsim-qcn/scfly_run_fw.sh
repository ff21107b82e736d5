#!/bin/bash
# scfly_run_fw.sh SET SEED : the same run as scfly_run.sh SET SEED (2,000-cycle bins) with the summary
# window moved to the last 40,000 cycles (warm-up = total - 40,000), for the per-switch
# accepted load of the final window (metrics.switch_accepted). The time series is unchanged.
set -u
S=$1; N=$2
REPO=$(cd "$(dirname "$0")/../../.." && pwd); CFG=$REPO/sc_main/configs/qcn-tiny.yaml; SCFLY=${SCFLY:-$REPO/build/scfly}
FOG="switch.allocator_iterations=2 switch.output_arbiter=transit-priority"
case $S in
  tinyrr_un2adv) A=(warmup_cycles=100000 measure_cycles=40000 'phases=[{start: 0, traffic: un}, {start: 20000, traffic: adv+1}]');;
  tinyrr_adv2un) A=(warmup_cycles=100000 measure_cycles=40000 'phases=[{start: 0, traffic: adv+1}, {start: 20000, traffic: un}]');;
  tiny_un2adv) A=(warmup_cycles=100000 measure_cycles=40000 'phases=[{start: 0, traffic: un}, {start: 20000, traffic: adv+1}]' $FOG);;
  tiny_adv2un) A=(warmup_cycles=100000 measure_cycles=40000 'phases=[{start: 0, traffic: adv+1}, {start: 20000, traffic: un}]' $FOG);;
  tinylong_adv2un) A=(warmup_cycles=180000 measure_cycles=40000 'phases=[{start: 0, traffic: adv+1}, {start: 100000, traffic: un}]' $FOG);;
esac
mkdir -p out
nice -n 5 "$SCFLY" run -q $CFG timeseries.bin_cycles=2000 timeseries.per_switch=true "${A[@]}" seed=$N --json out/${S}_s${N}_fw.json > out/${S}_s${N}_fw.log 2>&1
echo "rc=$? $S s$N fw"
