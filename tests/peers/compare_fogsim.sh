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
# about 30 points. Both sides: 2,000 warm-up + 5,000 measured cycles, seed 1 (see SEEDS).
# With SEEDS="1 2 3" in the environment every point runs with each seed on both sides (FOGSim's
# Seed, scfly's seed) and the table shows the means, with each side's latency range over the
# seeds: near saturation one seed's latency moves by several per cent.
# ROWS_FILE=F reads the rows (and loads) from F instead of tests/peers/fogsim-rows.txt.
# With SPLIT=1 in the environment it prints where the time goes instead (docs/validation.md,
# "Where the time goes"): FOGSim's "Average Inj Latency" / "Average Local Contention" /
# "Average Global Contention" beside scfly's source part (generation to injection +
# injection link + host_residence_avg) / local_residence_avg / global_residence_avg.
set -euo pipefail
cd "$(dirname "$0")/../.."
FOGSIM=${1:?usage: $0 FOGSIM_BINARY [SCFLY_BINARY] [ROW_REGEX]}
SCFLY=${2:-build/scfly}
ONLY=${3:-}
SEEDS=${SEEDS:-1}
ROWS_FILE=${ROWS_FILE:-tests/peers/fogsim-rows.txt}
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
grep -v '^#' "$ROWS_FILE" | while IFS='|' read -r name fog sc loads; do
  name=$(echo $name)
  if [ -n "$ONLY" ] && ! [[ $name =~ $ONLY ]]; then continue; fi
  for load in $loads; do
    p=$(python3 -c "print(round($load * 100))")
    outs=()
    for seed in $SEEDS; do
      # shellcheck disable=SC2086
      (cd "$W" && "$FOGSIM" fogsim-dfly484.conf $fog Probability=$p Seed=$seed OutputFileName=f$seed.out >f.log 2>&1)
      # shellcheck disable=SC2086
      "$SCFLY" run sc_main/configs/fogsim-dfly-4-8-4.yaml $sc load=$load seed=$seed --json "$W/s$seed.json" >/dev/null
      outs+=("$W/f$seed.out" "$W/s$seed.json")
    done
    python3 - "$name" "$load" "${SPLIT:-}" "${outs[@]}" <<'PY'
import json, re, sys
name, load, split = sys.argv[1:4]
pairs = list(zip(sys.argv[4::2], sys.argv[5::2]))
def fog(path):
    text = open(path).read()
    return lambda key: float(re.search(r"^" + key + r": ([0-9.e+-]+)", text, re.M).group(1))
mean = lambda xs: sum(xs) / len(xs)
fs = [fog(f) for f, _ in pairs]
ms = [json.load(open(s))["metrics"] for _, s in pairs]
if split:
    # FOGSim writes a packet into the injection buffer at generation; scfly's NIC sends it
    # over the injection link (1 cycle in both presets) after its source-queue wait.
    src = mean([m["latency_avg"] - m["network_latency_avg"] + 1 + m["host_residence_avg"] for m in ms])
    fk = lambda k: mean([f(k) for f in fs])
    sk = lambda k: mean([m[k] for m in ms])
    print(f"| {name} | {load} | {fk('Average Inj Latency'):.1f} / {fk('Average Local Contention'):.1f} / "
          f"{fk('Average Global Contention'):.1f} | {src:.1f} / {sk('local_residence_avg'):.1f} / "
          f"{sk('global_residence_avg'):.1f} |")
else:
    fa = [f("Accepted Load") for f in fs]; fl = [f("Average Total Latency") for f in fs]
    sa = [m["accepted_load"] for m in ms]; sl = [m["latency_avg"] for m in ms]
    # With several seeds: the means, and each side's latency range over the seeds.
    rng = lambda xs: f" [{min(xs):.1f}-{max(xs):.1f}]" if len(xs) > 1 else ""
    print(f"| {name} | {load} | {mean(fa):.4f} / {mean(fl):.1f}{rng(fl)} | {mean(sa):.4f} / {mean(sl):.1f}{rng(sl)} | "
          f"{100*(mean(sa)/mean(fa)-1):+.1f} % / {100*(mean(sl)/mean(fl)-1):+.1f} % |")
PY
  done
done
