#!/usr/bin/env bash
# Runs the torus rows of docs/validation.md ("BookSim2: the 8-ary 2-cube") on BookSim2 and on
# scfly and prints them as a Markdown table: accepted load (flits = phits/node/cycle), average
# packet latency (generation to delivery, cycles; BookSim's "Packet latency average" with its
# source queue) and average hops (links; BookSim's "Hops average" counts routers, one more).
#
# Usage: tests/peers/compare_booksim_torus.sh BOOKSIM_BINARY [SCFLY_BINARY] [ROW_REGEX]
#   BOOKSIM_BINARY  BookSim2 built outside this repository (github.com/booksim/booksim2 at
#                   28f4329, `cd src && make`; for the VAL rows with the one-line fix of
#                   valiant_torus that docs/validation.md gives: unpatched it aborts)
#   SCFLY_BINARY    default build/scfly
#   ROW_REGEX       only the rows of tests/peers/booksim-torus-rows.txt whose name matches
# Peer: tests/peers/booksim-torus-k8.cfg; scfly: sc_main/configs/torus-8x8-booksim.yaml. A
# load marked `*` runs past saturation: BookSim in `sim_type=throughput` (no drain of its
# unbounded source queues), and only accepted load is compared. Both sides: 5,000 warm-up +
# 15,000 measured cycles, seed 1 (SEEDS="1 2 3" runs each point with every seed on both
# sides and prints the means). ROWS_FILE=F reads the rows from F. A few seconds per point.
#
# A row's `self` field is the number of nodes that BookSim's pattern maps onto themselves
# (transpose: the 8 of the diagonal) out of the network's N nodes; scfly's nodes there
# generate nothing. Under DOR and MIN AD BookSim sends their packets through the router to
# the node itself (5 cycles, 1 router, no link), and the table compares the other nodes:
# BookSim's averages with those packets taken out, exactly (latency (N L - 5 s)/(N - s), hops
# (N H - s)/(N - s) - 1, accepted (N A - s load)/(N - s)), and scfly's accepted load per
# sending node (A N/(N - s)). `all` instead: BookSim's VAL sends those packets out to a random
# intermediate and back, so its network carries N nodes' traffic against scfly's N - s; such
# a row (past saturation only) compares the network's throughput, both sides' accepted load
# averaged over all N nodes. BookSim's uniform pattern also sends 1/N of its packets to the
# node itself; those are left in (docs/validation.md gives their effect).
set -euo pipefail
cd "$(dirname "$0")/../.."
BOOKSIM=${1:?usage: $0 BOOKSIM_BINARY [SCFLY_BINARY] [ROW_REGEX]}
SCFLY=${2:-build/scfly}
ONLY=${3:-}
SEEDS=${SEEDS:-1}
ROWS_FILE=${ROWS_FILE:-tests/peers/booksim-torus-rows.txt}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
echo "| row | load | BookSim accepted / latency / hops | scfly accepted / latency / hops | diff accepted / latency |"
echo "|---|---|---|---|---|"
grep -v '^#' "$ROWS_FILE" | while IFS='|' read -r name bs sc self loads; do
  name=$(echo $name)
  self=$(echo $self)
  if [ -n "$ONLY" ] && ! [[ $name =~ $ONLY ]]; then continue; fi
  for lp in $loads; do
    load=${lp%\*}
    mode=latency
    [ "$load" != "$lp" ] && mode=throughput
    outs=()
    for seed in $SEEDS; do
      # shellcheck disable=SC2086
      "$BOOKSIM" tests/peers/booksim-torus-k8.cfg $bs injection_rate=$load seed=$seed sim_type=$mode \
        >"$W/b$seed.txt" 2>&1 || [ $? -eq 255 ]
      # shellcheck disable=SC2086
      "$SCFLY" run sc_main/configs/torus-8x8-booksim.yaml $sc load=$load seed=$seed --json "$W/s$seed.json" >/dev/null
      outs+=("$W/b$seed.txt" "$W/s$seed.json")
    done
    python3 - "$name" "$load" "$mode" "$self" "${outs[@]}" <<'PY'
import json, re, sys
name, load, mode, self_ = sys.argv[1:5]
load = float(load)
total = self_ == "all"  # compare the network's throughput over all N nodes (see above)
s = 0 if total else int(self_)
pairs = list(zip(sys.argv[5::2], sys.argv[6::2]))
mean = lambda xs: sum(xs) / len(xs)
def booksim(path):
    text = open(path).read()
    # The overall statistics follow the last "Overall Traffic Statistics" line.
    text = text[text.rindex("Overall Traffic Statistics"):]
    get = lambda k: float(re.search(r"^" + k + r" = ([0-9.e+-]+)", text, re.M).group(1))
    return get("Accepted flit rate average"), get("Packet latency average"), get("Hops average")
bs = [booksim(b) for b, _ in pairs]
ms = [json.load(open(j))["metrics"] for _, j in pairs]
cfg = json.load(open(pairs[0][1]))["config"]["topology"]
N = cfg["k"] ** cfg["n"] * cfg.get("p", 1)
ba = mean([(N * a - s * load) / (N - s) for a, _, _ in bs])
bl = mean([(N * l - 5 * s) / (N - s) for _, l, _ in bs])
bh = mean([(N * h - s) / (N - s) - 1 for _, _, h in bs])
sa = mean([m["accepted_load"] * N / (N - s) for m in ms])
sl = mean([m["latency_avg"] for m in ms])
sh = mean([m["hops_avg"] for m in ms])
if mode == "latency":
    print(f"| {name} | {load:g} | {ba:.4f} / {bl:.2f} / {bh:.3f} | {sa:.4f} / {sl:.2f} / {sh:.3f} | "
          f"{100*(sa/ba-1):+.1f} % / {100*(sl/bl-1):+.1f} % |")
else:
    what = ", past saturation" + (", all nodes" if total else "")
    print(f"| {name} | {load:g}{what} | {ba:.4f} | {sa:.4f} | {100*(sa/ba-1):+.1f} % |")
PY
  done
done
