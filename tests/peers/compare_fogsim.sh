#!/usr/bin/env bash
# Runs the FOGSim rows of docs/validation.md on FOGSim and on scfly and prints them as a
# Markdown table (accepted load, phits/node/cycle, and average total latency, cycles: FOGSim's
# "Accepted Load" and "Average Total Latency"; scfly's accepted_load and latency_avg).
#
# Usage: tests/peers/compare_fogsim.sh FOGSIM_BINARY [SCFLY_BINARY] [ROW_REGEX]
#   FOGSIM_BINARY  FOGSim built outside this repository (github.com/fuentesp/fogsim at
#                  dcdd75f, `make`; keep its asserts: it reads required keys inside them)
#   SCFLY_BINARY   default build/scfly
#   ROW_REGEX      only the rows of tests/peers/fogsim-rows.txt whose name matches
# FOGSim takes 30-60 s per point on dfly(4,8,4), scfly a few seconds; the whole file is
# about 30 points. Both sides: 2,000 warm-up + 5,000 measured cycles, seed 1.
# With SPLIT=1 in the environment it prints where the time goes instead (docs/validation.md,
# "Where the time goes"): FOGSim's "Average Inj Latency" / "Average Local Contention" /
# "Average Global Contention" beside scfly's source part (generation to injection +
# injection link + host_residence_avg) / local_residence_avg / global_residence_avg.
set -euo pipefail
cd "$(dirname "$0")/../.."
FOGSIM=${1:?usage: $0 FOGSIM_BINARY [SCFLY_BINARY] [ROW_REGEX]}
SCFLY=${2:-build/scfly}
ONLY=${3:-}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cp tests/peers/fogsim-dfly484.conf "$W/"
if [ -n "${SPLIT:-}" ]; then
  echo "| row | load | FOGSim source / local-in / global-in | scfly source / local-in / global-in |"
  echo "|---|---|---|---|"
else
  echo "| row | load | FOGSim accepted / latency | scfly accepted / latency | diff accepted / latency |"
  echo "|---|---|---|---|---|"
fi
grep -v '^#' tests/peers/fogsim-rows.txt | while IFS='|' read -r name fog sc loads; do
  name=$(echo $name)
  if [ -n "$ONLY" ] && ! [[ $name =~ $ONLY ]]; then continue; fi
  for load in $loads; do
    p=$(python3 -c "print(round($load * 100))")
    # shellcheck disable=SC2086
    (cd "$W" && "$FOGSIM" fogsim-dfly484.conf $fog Probability=$p OutputFileName=f.out >f.log 2>&1)
    # shellcheck disable=SC2086
    "$SCFLY" run sc_main/configs/fogsim-dfly-4-8-4.yaml $sc load=$load --json "$W/s.json" >/dev/null
    python3 - "$name" "$load" "$W/f.out" "$W/s.json" "${SPLIT:-}" <<'PY'
import json, re, sys
name, load, fout, sjson, split = sys.argv[1:]
text = open(fout).read()
f = lambda key: float(re.search(r"^" + key + r": ([0-9.e+-]+)", text, re.M).group(1))
fa, fl = f("Accepted Load"), f("Average Total Latency")
m = json.load(open(sjson))["metrics"]
sa, sl = m["accepted_load"], m["latency_avg"]
if split:
    # FOGSim writes a packet into the injection buffer at generation; scfly's NIC sends it
    # over the injection link (1 cycle in both presets) after its source-queue wait.
    src = m["latency_avg"] - m["network_latency_avg"] + 1 + m["host_residence_avg"]
    print(f"| {name} | {load} | {f('Average Inj Latency'):.1f} / {f('Average Local Contention'):.1f} / "
          f"{f('Average Global Contention'):.1f} | {src:.1f} / {m['local_residence_avg']:.1f} / "
          f"{m['global_residence_avg']:.1f} |")
else:
    print(f"| {name} | {load} | {fa:.4f} / {fl:.1f} | {sa:.4f} / {sl:.1f} | {100*(sa/fa-1):+.1f} % / {100*(sl/fl-1):+.1f} % |")
PY
  done
done
