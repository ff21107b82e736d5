#!/bin/bash
# (Re)starts the FOGSim transient pieces that have not finished, one at a time, at nice 19.
# A piece is one whole FOGSim run (FOGSim cannot checkpoint); it is done when its directory
# holds DONE (written only after FOGSim exits 0 and prints "Simulation finished"). An
# unfinished piece is started again from scratch (its directory is cleared first).
#
#   ./run_all.sh            run every missing piece, in the order of PIECES below
#   ./run_all.sh status     list every piece: done (wall seconds, simulated cycles/s) / missing
#   ./run_all.sh PATTERN    run only the missing pieces whose name matches the grep PATTERN
#
# Start it detached so it survives the calling shell:
#   setsid nohup ./run_all.sh > runs/run_all.log 2>&1 < /dev/null &
# Only one instance runs at a time (flock on runs/.lock); a second one exits at once.
set -u
W=${FOGSIM_WORK:-/work/fogsim-work}  # the work directory (outside the repository)
BIN=$W/bin/fogsim-bins
STOCK=$W/bin/fogsim-stock
CONF=$W/configs/qcn-tiny-base.conf
mkdir -p "$W/runs"

# name | binary | extra FOGSim key=value overrides (on configs/qcn-tiny-base.conf)
UN2ADV="transientTrafficFirstPattern=UN transientTrafficSecondPattern=ADV_RANDOM_NODE"
ADV2UN="transientTrafficFirstPattern=ADV_RANDOM_NODE transientTrafficSecondPattern=UN"
# dfly(4,8,4), scfly's qcn-dfly-4-8-4.yaml (same timing). FOGSim runs it at ~90 simulated
# cycles per CPU second, so a piece is cut to stay under ~12 CPU-minutes (~20 wall-minutes
# at nice 19 beside the other engineer's jobs):
#  UN -> ADV+1: change at 5,000 (0.05 ms; UN is steady after a few thousand cycles), record
#  0 - 55,000 (0.5 ms after the change), run to 60,000 (0.05 ms drain tail).
#  ADV+1 -> UN: ADV+1 from cold for 0.2 ms (not settled: compare with scfly run the same
#  way), change at 20,000, record 0 - 40,000 (0.2 ms after), run to 45,000.
D484U="P=4 A=8 H=4 WarmupCycles=2500 transientTrafficCycle=2500 transientRecordPrevCycles=5000 transientRecordCycles=50000 MaxCycles=57500"
D484A="P=4 A=8 H=4 WarmupCycles=10000 transientTrafficCycle=10000 transientRecordPrevCycles=20000 transientRecordCycles=20000 MaxCycles=35000"
PIECES=()
# tier 1: qcn-tiny, seeds 1-3 (the comparison the issue asks for)
for s in 1 2 3; do
  PIECES+=("tiny_un2adv_s$s|$BIN|$UN2ADV Seed=$s")
  PIECES+=("tiny_adv2un_s$s|$BIN|$ADV2UN Seed=$s")
done
# check: the stock binary on one piece must give byte-identical .transient to tiny_un2adv_s1
PIECES+=("check_stock_tiny_un2adv_s1|$STOCK|$UN2ADV Seed=1")
# tier 1b: qcn-tiny, seeds 1-3, FOGSim's allocator set as scfly's qcn-tiny defaults: one
# allocator pass (switch.allocator_iterations 1), round-robin output arbiter (scfly's
# round-robin instead of FOGSim's transit-priority PrioLRS) and round-robin input arbiter
RRSW="ArbiterIterations=1 OutputArbiter=RR InputArbiter=RR"
for s in 1 2 3; do
  PIECES+=("tinyrr_un2adv_s$s|$BIN|$RRSW $UN2ADV Seed=$s")
  PIECES+=("tinyrr_adv2un_s$s|$BIN|$RRSW $ADV2UN Seed=$s")
done
# tier 1c: qcn-tiny ADV+1 -> UN from a longer ADV+1 phase (FOGSim's ADV+1 from cold is not
# settled at 0.2 ms: latency ~5,000 cycles, accepted ~0.3): change at 1.0 ms, record from 0 to
# 2.0 ms, run to 2.2 ms
LONG="WarmupCycles=50000 transientTrafficCycle=50000 transientRecordPrevCycles=100000 transientRecordCycles=100000 MaxCycles=170000"
for s in 1 2 3; do
  PIECES+=("tinylong_adv2un_s$s|$BIN|$LONG $ADV2UN Seed=$s")
done
# tier 2: qcn-tiny, seeds 4-10 (the paper averages 10 runs)
for s in 4 5 6 7 8 9 10; do
  PIECES+=("tiny_un2adv_s$s|$BIN|$UN2ADV Seed=$s")
  PIECES+=("tiny_adv2un_s$s|$BIN|$ADV2UN Seed=$s")
done
# tier 2b: qcn-tiny ADV+1 -> UN after 1 ms of ADV+1, seeds 4-10 (~46 CPU-s each)
for s in 4 5 6 7 8 9 10; do
  PIECES+=("tinylong_adv2un_s$s|$BIN|$LONG $ADV2UN Seed=$s")
done
# tier 3: dfly(4,8,4), seeds 1-3
for s in 1 2 3; do
  PIECES+=("d484_un2adv_s$s|$BIN|$D484U $UN2ADV Seed=$s")
  PIECES+=("d484_adv2un_s$s|$BIN|$D484A $ADV2UN Seed=$s")
done

status() {
  for p in "${PIECES[@]}"; do
    name=${p%%|*}
    d=$W/runs/$name
    if [ -f "$d/DONE" ]; then
      echo "done     $name  $(cat "$d/DONE")"
    elif [ -f "$d/RUNNING" ] && [ -n "$(cat "$d/RUNNING" 2>/dev/null)" ] && kill -0 "$(cat "$d/RUNNING")" 2>/dev/null; then
      echo "running  $name  (pid $(cat "$d/RUNNING"), since $(stat -c %y "$d/RUNNING" | cut -d. -f1))"
    else
      echo "missing  $name"
    fi
  done
}

if [ "${1:-}" = status ]; then status; exit 0; fi
ONLY=${1:-}

exec 9>"$W/runs/.lock"
if ! flock -n 9; then echo "run_all.sh: another instance is running"; exit 1; fi

for p in "${PIECES[@]}"; do
  name=${p%%|*}; rest=${p#*|}; bin=${rest%%|*}; args=${rest#*|}
  if [ -n "$ONLY" ] && ! echo "$name" | grep -q -- "$ONLY"; then continue; fi
  d=$W/runs/$name
  [ -f "$d/DONE" ] && continue
  rm -rf "$d"; mkdir -p "$d"
  echo "$bin $CONF $args OutputFileName=out" > "$d/CMD"
  echo "$(date -Is) start $name"
  # shellcheck disable=SC2086
  (cd "$d" && exec /usr/bin/time -f "%U %S %e" -o time nice -n 19 "$bin" "$CONF" $args OutputFileName=out \
      > out.log 2> out.err) &
  pid=$!
  echo $pid > "$d/RUNNING"
  wait $pid; rc=$?
  rm -f "$d/RUNNING"
  if [ $rc -eq 0 ] && grep -q "Simulation finished" "$d/out.log"; then
    cycles=$(awk '/^Total Number Of Cycles:/{print $5}' "$d/out")
    read -r usr sys wall < "$d/time"
    echo "$cycles cycles, CPU ${usr}s, wall ${wall}s, $(python3 -c "print(round($cycles / max($usr + $sys, 0.01)))") cycles/CPU-s, finished $(date -Is)" > "$d/DONE"
    echo "$(date -Is) done  $name ($(cat "$d/DONE"))"
  else
    echo "$(date -Is) FAILED $name rc=$rc (see $d/out.err)"
  fi
done
echo "$(date -Is) run_all.sh: nothing left to run"
