#!/bin/bash
# scfly_run_variant.sh VARIANT SET SEED [BIN]: scfly's counterpart of a FOGSim qcn-tiny piece
# (README.md) under one of the FOGSim-matching variants of TRACE.md; BIN-cycle bins (default
# 2000), per-switch series; writes out/<VARIANT>_<SET>_sN[_bBIN].json (+ .log, .time) in the
# current directory. SCFLY= the binary (default build/scfly). Runs under nice -n 10.
#   VARIANT  pfc:    qcn-tiny.yaml + FOGSim's allocator (scfly_run.sh's tiny sets)
#            credit: pfc + switch.flow_control=credit (source queue kept)
#            skip:   credit + source.when_full=skip (FOGSim's generator)
#            fog:    skip + switch.output_credits=inside (FOGSim's IOQ output FIFO in the loop)
#            fogq:   fog + qcn.cp_queue=output (the congestion point reads the output FIFO only,
#                    culprit its first packet, as FOGSim)
#            fogql:  fogq + qcn.local_update_port=minimal (FOGSim's local update: the culprit's
#                    minimal port)
#            fogioq: fogq + FOGSim's remaining IOQ structure (scfly_run_d484.sh's fogio keys)
#            fogioql: fogioq + qcn.local_update_port=minimal
#            fogioqlt: fogioql + qcn.sampling_clock=time (FOGSim samples on a cycle timer);
#                    = sc_main/configs/qcn-fogsim-tiny.yaml
#            pfcskip: pfc + source.when_full=skip (FOGSim's generator under PFC)
#   SET      tiny_un2adv, tiny_adv2un (change at 20,000, run 140,000), tinylong_adv2un (change
#            at 100,000, run 220,000), tiny_un2adv_short (the first 0.1 ms after the change:
#            run 30,000, for the run counters of that window, e.g. qcn_local_updates)
set -u
V=$1; S=$2; N=$3; B=${4:-2000}; SFX=""; [ "$B" != 2000 ] && SFX="_b$B"
REPO=$(cd "$(dirname "$0")/../../.." && pwd); CFG=$REPO/sc_main/configs/qcn-tiny.yaml; SCFLY=${SCFLY:-$REPO/build/scfly}
K=(switch.allocator_iterations=2 switch.output_arbiter=transit-priority)
case $V in
  pfc) ;;
  credit) K+=(switch.flow_control=credit);;
  skip) K+=(switch.flow_control=credit source.when_full=skip);;
  fog) K+=(switch.flow_control=credit source.when_full=skip switch.output_credits=inside);;
  fogq) K+=(switch.flow_control=credit source.when_full=skip switch.output_credits=inside qcn.cp_queue=output);;
  fogql) K+=(switch.flow_control=credit source.when_full=skip switch.output_credits=inside qcn.cp_queue=output
             qcn.local_update_port=minimal);;
  fogioq) K+=(switch.flow_control=credit source.when_full=skip switch.output_credits=inside qcn.cp_queue=output
             switch.output_sharing=port switch.credit_return=packet switch.pipeline_position=output
             switch.crossbar=transfer switch.ejection_grant=host-idle switch.output_buffer.ejection=2000);;
  fogioql) K+=(switch.flow_control=credit source.when_full=skip switch.output_credits=inside qcn.cp_queue=output
             qcn.local_update_port=minimal switch.output_sharing=port switch.credit_return=packet switch.pipeline_position=output
             switch.crossbar=transfer switch.ejection_grant=host-idle switch.output_buffer.ejection=2000);;
  fogioqlt) K+=(switch.flow_control=credit source.when_full=skip switch.output_credits=inside qcn.cp_queue=output
             qcn.local_update_port=minimal qcn.sampling_clock=time switch.output_sharing=port switch.credit_return=packet
             switch.pipeline_position=output switch.crossbar=transfer switch.ejection_grant=host-idle
             switch.output_buffer.ejection=2000);;
  pfcskip) K+=(source.when_full=skip);;
  *) echo "unknown variant $V (pfc, credit, skip, fog, fogq, fogql, fogioq, fogioql, fogioqlt, pfcskip)"; exit 2;;
esac
UA='phases=[{start: 0, traffic: un}, {start: 20000, traffic: adv+1}]'
AU='phases=[{start: 0, traffic: adv+1}, {start: 20000, traffic: un}]'
case $S in
  tiny_un2adv) A=(measure_cycles=140000 "$UA");;
  tiny_adv2un) A=(measure_cycles=140000 "$AU");;
  tinylong_adv2un) A=(measure_cycles=220000 'phases=[{start: 0, traffic: adv+1}, {start: 100000, traffic: un}]');;
  tiny_un2adv_short) A=(measure_cycles=30000 "$UA");;
  *) echo "unknown set $S"; exit 2;;
esac
mkdir -p out
O=out/${V}_${S}_s$N$SFX
/usr/bin/time -f "%U %S %e" -o $O.time nice -n 10 "$SCFLY" run -q $CFG warmup_cycles=0 timeseries.bin_cycles=$B \
  timeseries.per_switch=true "${A[@]}" "${K[@]}" seed=$N --json $O.json > $O.log 2>&1
echo "rc=$? $V $S s$N $(cat $O.time)"
