#!/bin/bash
# The hostile and careless inputs of docs/reliability.md (part 2), run against a scfly
# binary: prints one Markdown row per case (kind, input, exit code, first line of the
# message) and the count of cases per kind. tests/test_hostile.cpp asserts the same cases.
#   tests/hostile/cases.sh build/scfly > /tmp/rows.md     (from the source tree)
set -u
SCFLY=$(realpath "${1:-build/scfly}")
W=$(mktemp -d /tmp/scfly-hostile-XXXXXX)
trap 'rm -rf "$W"' EXIT
TINY=sc_main/configs/dfly-tiny.yaml
SHAPE='topology: {p: 2, a: 4, h: 2, g: 9, arrangement: palmtree}'
declare -A COUNT
row() {  # KIND "INPUT" "BEFORE" COMMAND...
  local kind=$1 input=$2 before=$3; shift 3
  "$@" >"$W/out" 2>"$W/err"
  local rc=$?
  local msg
  msg=$(grep -v '^$' "$W/err" | head -1)
  [ -z "$msg" ] && msg="(stdout) $(grep -m1 -E 'n/a|NOT CHECKED|scfly [0-9]|wrote|latency \(total\)' "$W/out")"
  msg=${msg//$W\//}
  msg=${msg//|/\\|}
  [ ${#msg} -gt 160 ] && msg="${msg:0:157}..."
  printf '| %s | %s | %s | %s | %s |\n' "$kind" "$input" "$before" "$rc" "$msg"
  COUNT[$kind]=$(( ${COUNT[$kind]:-0} + 1 ))
}
y() { printf '%s' "$2" > "$W/$1"; echo "$W/$1"; }

echo "| kind | input | before (79bed65) | exit | message |"
echo "|---|---|---|---|---|"
# --- hostile YAML
K="hostile YAML"
row "$K" 'config `a: &a [*a]`' "139 (stack overflow)" "$SCFLY" run "$(y rec.yaml 'a: &a [*a]
')" -q
row "$K" 'recursive alias in `phases`' "139" "$SCFLY" run "$(y rec2.yaml "$SHAPE
phases: &p [{start: 0}, *p]
")" -q
row "$K" 'recursive alias as a sweep file' "139" "$SCFLY" sweep "$W/rec.yaml" --dry-run
row "$K" "recursive alias in an override \`'phases=&p [*p]'\`" "-" "$SCFLY" run $TINY 'phases=&p [*p]' -q
laughs='l0: &l0 [x, x, x, x, x, x, x, x, x]'
for i in 1 2 3 4 5 6 7 8 9 10; do p="*l$((i-1))"; laughs+=$'\n'"l$i: &l$i [$p, $p, $p, $p, $p, $p, $p, $p, $p]"; done
row "$K" 'billion laughs (9^10 nodes), config' "hang (killed at 150 s)" "$SCFLY" run "$(y laughs.yaml "$laughs
")" -q
row "$K" 'billion laughs, sweep file' "hang" "$SCFLY" sweep "$W/laughs.yaml" --dry-run
row "$K" 'nesting 100 levels' "-" "$SCFLY" run "$(y deep.yaml "a: $(printf '[%.0s' $(seq 100))$(printf ']%.0s' $(seq 100))
")" -q
row "$K" 'nesting 20,000 levels' "2" "$SCFLY" run "$(y deep2.yaml "a: $(printf '[%.0s' $(seq 20000))$(printf ']%.0s' $(seq 20000))
")" -q
row "$K" '100,000-character value' "-" "$SCFLY" run "$(y big.yaml "$SHAPE
traffic: $(head -c 100000 /dev/zero | tr '\0' u)
")" -q
head -c $((9 << 20)) /dev/zero | tr '\0' '#' > "$W/huge.yaml"
row "$K" '9 MiB file' "-" "$SCFLY" run "$W/huge.yaml" -q
head -c 4096 /dev/urandom > "$W/garbage.yaml"
row "$K" 'binary garbage' "2" "$SCFLY" run "$W/garbage.yaml" -q
row "$K" 'duplicate key' "2" "$SCFLY" run "$(y dup.yaml "$SHAPE
load: 0.1
load: 0.2
")" -q
# --- failed writes
K="failed writes"
Q="warmup_cycles=200 measure_cycles=400 -q"
row "$K" '`run --json /dev/full`' "0 (0-byte file)" "$SCFLY" run $TINY $Q --json /dev/full
row "$K" '`run --vcd /dev/full`' "0" "$SCFLY" run $TINY $Q --vcd /dev/full --trace-switches 0,1,2,3
row "$K" '`run --packet-trace /dev/full`' "3" "$SCFLY" run $TINY $Q --packet-trace /dev/full
row "$K" '`ideal --json /dev/full`' "0" "$SCFLY" ideal $TINY --no-lp --json /dev/full
row "$K" '`check-deadlock --json /dev/full`' "0" "$SCFLY" check-deadlock $TINY --json /dev/full
printf 'base: %s\nset: {warmup_cycles: 200, measure_cycles: 400}\naxes:\n  load: [0.1]\n' "$(realpath $TINY)" > "$W/sw.yaml"
"$SCFLY" sweep "$W/sw.yaml" --db "$W/db.sqlite" --jobs 1 >/dev/null 2>&1
row "$K" '`export -o /dev/full`' "0 (\"wrote 25 rows\")" "$SCFLY" export "$W/db.sqlite" -o /dev/full
row "$K" '`export -o` into a missing directory' "2" "$SCFLY" export "$W/db.sqlite" -o /nonexistent-dir/x.csv
echo precious > "$W/keep.yaml"
row "$K" '`tvlb ... routing=ugal-l --step2 keep.yaml` (keep.yaml kept)' "2, keep.yaml emptied" "$SCFLY" tvlb $TINY topology.g=5 \
  topology.arrangement=absolute routing=ugal-l --quick --step2 "$W/keep.yaml"
[ "$(cat "$W/keep.yaml")" = precious ] || echo "| $K | keep.yaml was changed | - | FAILED |"
row "$K" '`run --json` into a missing directory' "2" "$SCFLY" run $TINY $Q --json /nonexistent-dir/x.json
printf 'base: %s\nset: {warmup_cycles: 200, measure_cycles: 500}\naxes:\n  routing: [min, val]\n  load: "0.05:0.95:0.05"\n' \
  "$(realpath $TINY)" > "$W/full.yaml"
row "$K" 'a sweep whose database fills the disk (a 100 KiB file-size limit)' "2" bash -c "trap '' XFSZ; ulimit -f 100; exec \"\$0\" \"\$@\"" \
  "$SCFLY" sweep "$W/full.yaml" --db "$W/full.sqlite" --jobs 2
# --- silent defaults and wraps
K="silent defaults and wraps"
row "$K" '`--trace-from -5`' "0 (wrapped, empty VCD)" "$SCFLY" run $TINY $Q --vcd "$W/x.vcd" --trace-from -5
row "$K" '`--trace-to 1e3`' "-" "$SCFLY" run $TINY $Q --packet-trace "$W/x.csv" --trace-to 1e3
row "$K" '`--shuffle-construction -1`' "0 (wrapped)" "$SCFLY" run $TINY $Q --shuffle-construction -1
row "$K" '`clock_ghz=1e-12 measure_cycles=20000` (past 2^63 ps)' "0 (ended at cycle 9223)" "$SCFLY" run $TINY clock_ghz=1e-12 \
  warmup_cycles=100 measure_cycles=20000 -q
row "$K" '`table --at -1`' "0 (as no --at)" "$SCFLY" table sc_main/configs/qcn-tiny.yaml --at -1
row "$K" 'YAML `load: ~`' "0 (load 0.1)" "$SCFLY" run "$(y null1.yaml "$SHAPE
load: ~
")" -q
row "$K" 'YAML `load:`' "0 (load 0.1)" "$SCFLY" run "$(y null2.yaml "$SHAPE
load:
")" -q
row "$K" 'YAML `phases: [{start: 0, load: ~}]`' "-" "$SCFLY" run "$(y null3.yaml "$SHAPE
phases: [{start: 0, load: ~}]
")" -q
row "$K" "override \`switch.speedup=~\`" "-" "$SCFLY" run $TINY 'switch.speedup=~' -q
row "$K" 'empty config file' "0 (all defaults)" "$SCFLY" run "$(y empty.yaml '')" -q
row "$K" 'config of comments only' "0" "$SCFLY" run "$(y comments.yaml '# nothing
')" -q
row "$K" '`--trace-switches` without `--vcd`' "0 (no effect)" "$SCFLY" run $TINY $Q --trace-switches 3
row "$K" '`--trace-from` without a trace' "-" "$SCFLY" run $TINY $Q --trace-from 100
row "$K" '0 packets measured (`measure_cycles=1`)' "0, latency 0.0, Jain 0.0000" "$SCFLY" run $TINY warmup_cycles=0 measure_cycles=1
row "$K" 'X13: `routing=min val.policy=crg-gr` (a key no mechanism in use reads)' "0, no word" "$SCFLY" run $TINY $Q routing=min val.policy=crg-gr
row "$K" 'X14: `routing=min qcn.cpc=50`' "0, no word" "$SCFLY" run $TINY $Q routing=min qcn.cpc=50
# --- exit codes
K="exit codes"
row "$K" '`check-deadlock` too large (`--max-states 100`)' "3 (dfly-medium VAL, 74 s)" "$SCFLY" check-deadlock $TINY routing=val --max-states 100
row "$K" '`scfly foo`' "1, \"A subcommand is required\"" "$SCFLY" foo
row "$K" '`scfly` alone' "1" "$SCFLY"
row "$K" '`scfly --version`' "1, \"A subcommand is required\"" "$SCFLY" --version
row "$K" '`tvlb --jobs 0` (CLI11 range check)' "1" "$SCFLY" tvlb $TINY --quick --jobs 0
row "$K" '`sweep --jobs 0`' "1" "$SCFLY" sweep "$W/sw.yaml" --jobs 0 --dry-run
EX=sc_main/experiments/example.yaml
row "$K" '`sweep --slurm --max-parallel 0`' "0 (no throttle)" "$SCFLY" sweep $EX --db "$W/s.sqlite" --slurm --dry-run --max-parallel 0
row "$K" '`sweep --slurm --time 2h`' "0 (into the job script)" "$SCFLY" sweep $EX --db "$W/s.sqlite" --slurm --dry-run --time 2h
row "$K" '`sweep --slurm --mem 4GB`' "0" "$SCFLY" sweep $EX --db "$W/s.sqlite" --slurm --dry-run --mem 4GB
row "$K" "\`sweep --slurm --partition 'a;rm -rf x'\`" "0" "$SCFLY" sweep $EX --db "$W/s.sqlite" --slurm --dry-run --partition 'a;rm -rf x'
row "$K" "\`sweep --slurm --sbatch-arg='--comment=\$(id)'\`" "0" "$SCFLY" sweep $EX --db "$W/s.sqlite" --slurm --dry-run '--sbatch-arg=--comment=$(id)'
row "$K" '`report-card --dry-run --md /nonexistent-dir/x.md`' "0 (checked only by the real run)" "$SCFLY" report-card sc_main/experiments/gal-report-card.yaml --db "$W/c.sqlite" --rows avg --dry-run --md /nonexistent-dir/x.md
# --- README examples
K="README examples"
row "$K" '`--rtl min_route,acor,ugal,pb,table,qcn,qcn_cp` (routing min)' "2 (README example)" "$SCFLY" run $TINY $Q --rtl min_route,acor,ugal,pb,table,qcn,qcn_cp
printf 'base: %s\nset: {warmup_cycles: 200, measure_cycles: 400}\naxes:\n  traffic: [un, adv+1]\n  load: [0.1, 0.2]\n' "$(realpath $TINY)" > "$W/sw2.yaml"
"$SCFLY" sweep "$W/sw2.yaml" --db "$W/db2.sqlite" --jobs 2 >/dev/null 2>&1
"$SCFLY" ideal $TINY --no-lp --json "$W/ideal.json" >/dev/null 2>&1
row "$K" '`plot --recipe throughput --ideal B.json`, two traffic patterns' "2, TypeError" "$SCFLY" plot "$W/db2.sqlite" --recipe throughput --ideal "$W/ideal.json" -o "$W/t.png"
row "$K" '`run --help` lists the 7 fault kinds and 10 RTL blocks' "0, 5 kinds and 6 blocks" bash -c "'$SCFLY' run --help | grep -o -w -e extra-credit -e double-credits -e lose-credits -e wrong-vc -e drop-pause -e dup-phit -e clear-global-done -e min_route -e acor -e ugal -e pb -e table -e qcn -e qcn_cp -e quadrant -e gal_threshold -e allocator | sort -u | tr '\n' ' ' >&2"
echo
echo "| kind | cases |"
echo "|---|---|"
for k in "hostile YAML" "failed writes" "silent defaults and wraps" "exit codes" "README examples"; do
  echo "| $k | ${COUNT[$k]:-0} |"
done
