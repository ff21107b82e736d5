#!/bin/bash
# scfly_run_d484.sh VARIANT SET SEED: scfly's counterpart of one FOGSim dfly(4,8,4) piece
# (docs/data/qcn-fogsim/fogsim-d484/COMMANDS.txt), 2,000-cycle bins, per-switch series;
# writes out/<VARIANT>_<SET>_sN.json (+ .log, .time) in the current directory. SCFLY= the
# binary (default build/scfly). Runs under nice -n 10.
#   SET      d484_un2adv: UN, ADV+1 from cycle 5,000, to 60,000 (0.55 ms after the change)
#            d484_adv2un: ADV+1 from cold, UN from cycle 20,000, to 45,000
#   VARIANT  pfc: sc_main/configs/qcn-dfly-4-8-4.yaml (= qcn-tiny's settings on dfly(4,8,4):
#                 PFC, unbounded source queue) + FOGSim's allocator (2 passes, transit priority)
#            fog: pfc + the FOGSim-matching keys of tests/peers/fogsim-qcn/TRACE.md: credit flow
#                 control, source.when_full=skip (FOGSim's generator), output buffers inside the
#                 credit loop (FOGSim's IOQ output FIFO)
#            fogio: fog + FOGSim's remaining IOQ structure (sc_main/configs/fogsim-dfly-4-8-4.yaml's
#                 switch keys): one shared output FIFO per port, credits returned at the grant,
#                 XbarDelay at the output, packet-transfer crossbar, consume port on idle host
#            fogq: fog + qcn.cp_queue=output (the congestion point reads the output FIFO only,
#                 culprit its first packet, as FOGSim)
#            fogql: fogq + qcn.local_update_port=minimal (FOGSim's local update on the culprit's
#                 minimal port)
#            fogioq, fogioql: fogio + the same keys (fogq's, fogql's)
#            fogioqlt: fogioql + qcn.sampling_clock=time (FOGSim samples on a cycle timer)
set -u
V=$1; S=$2; N=$3
REPO=$(cd "$(dirname "$0")/../../.." && pwd); CFG=$REPO/sc_main/configs/qcn-dfly-4-8-4.yaml; SCFLY=${SCFLY:-$REPO/build/scfly}
FOG=(switch.allocator_iterations=2 switch.output_arbiter=transit-priority)
case $V in
  pfc) ;;
  fog) FOG+=(switch.flow_control=credit source.when_full=skip switch.output_credits=inside);;
  fogio) FOG+=(switch.flow_control=credit source.when_full=skip switch.output_credits=inside
               switch.output_sharing=port switch.credit_return=packet switch.pipeline_position=output
               switch.crossbar=transfer switch.ejection_grant=host-idle switch.output_buffer.ejection=2000);;
  fogq) FOG+=(switch.flow_control=credit source.when_full=skip switch.output_credits=inside qcn.cp_queue=output);;
  fogql) FOG+=(switch.flow_control=credit source.when_full=skip switch.output_credits=inside qcn.cp_queue=output
               qcn.local_update_port=minimal);;
  fogioq) FOG+=(switch.flow_control=credit source.when_full=skip switch.output_credits=inside qcn.cp_queue=output
               switch.output_sharing=port switch.credit_return=packet switch.pipeline_position=output
             switch.crossbar=transfer switch.ejection_grant=host-idle switch.output_buffer.ejection=2000);;
  fogioql) FOG+=(switch.flow_control=credit source.when_full=skip switch.output_credits=inside qcn.cp_queue=output
               qcn.local_update_port=minimal switch.output_sharing=port switch.credit_return=packet switch.pipeline_position=output
             switch.crossbar=transfer switch.ejection_grant=host-idle switch.output_buffer.ejection=2000);;
  fogioqlt) FOG+=(switch.flow_control=credit source.when_full=skip switch.output_credits=inside qcn.cp_queue=output
               qcn.local_update_port=minimal qcn.sampling_clock=time switch.output_sharing=port
               switch.credit_return=packet switch.pipeline_position=output switch.crossbar=transfer
               switch.ejection_grant=host-idle switch.output_buffer.ejection=2000);;
  *) echo "unknown variant $V (pfc, fog, fogio, fogq, fogql, fogioq, fogioql, fogioqlt)"; exit 2;;
esac
case $S in
  d484_un2adv) A=(measure_cycles=60000 'phases=[{start: 0, traffic: un}, {start: 5000, traffic: adv+1}]');;
  d484_adv2un) A=(measure_cycles=45000 'phases=[{start: 0, traffic: adv+1}, {start: 20000, traffic: un}]');;
  *) echo "unknown set $S (d484_un2adv, d484_adv2un)"; exit 2;;
esac
mkdir -p out
O=out/${V}_${S}_s$N
/usr/bin/time -f "%U %S %e" -o $O.time nice -n 10 "$SCFLY" run -q $CFG warmup_cycles=0 timeseries.bin_cycles=2000 \
  timeseries.per_switch=true "${A[@]}" "${FOG[@]}" seed=$N --json $O.json > $O.log 2>&1
echo "rc=$? $V $S s$N $(cat $O.time)"
