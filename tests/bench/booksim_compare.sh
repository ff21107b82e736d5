#!/usr/bin/env bash
# Speed of BookSim2 and scfly on the same Dragonfly, run back to back on this machine.
#
# Usage: tests/bench/booksim_compare.sh [BOOKSIM [SCFLY]]
#   BOOKSIM  a built BookSim2 binary (booksim2/src/booksim); default $BOOKSIM
#   SCFLY    default $SCFLY, else build/scfly
#   PERIOD   environment, default 2500: BookSim's sample period in cycles
#
# The network: dfly(4,8,4), 33 groups, 264 routers, 1,056 nodes, local links 10 cycles,
# global links 100 cycles. BookSim: topology = dragonflynew, k = 4, n = 1, which gives
# p = 4 hosts, a = 2p = 8 routers per group, h = p = 4, g = a*p + 1 = 33 groups; router j
# of a group links to groups j*h .. j*h + h - 1 counted without its own (scfly's
# "absolute" arrangement). scfly: sc_main/configs/dfly-medium.yaml with
# topology.arrangement=absolute. Minimal routing, uniform traffic at 0.4 flits
# (phits)/node/cycle, 8-flit packets, seed 1. The routers are not the same model (BookSim:
# input-queued, 2 VCs per port of 256 flits, 3-cycle allocation and traversal; scfly: as
# dfly-medium.yaml, 5-cycle pipeline, output buffers): same network and traffic, not
# identical results.
#
# Cycles: BookSim runs one warm-up period and then exactly three sample periods (its
# convergence thresholds are set so high that every period counts as converged, so it
# stops after the third), then drains the packets generated during the samples; the
# cycles counted are those it prints ("Time taken is N cycles"), drain included. scfly
# runs warm-up PERIOD + measurement 3 x PERIOD cycles (no drain); the cycles counted are
# its metrics.cycles.
#
# router-cycles/s = 264 x simulated cycles / wall seconds of the whole process
# (/usr/bin/time -v, set-up included); "loop" uses each simulator's own timing of its
# simulation loop (BookSim's "Total run time", scfly's run.sim_wall_s).
# BookSim's main() returns -1 after a successful run, so its exit status 255 is success.
set -euo pipefail
cd "$(dirname "$0")/../.."
BOOKSIM=${1:-${BOOKSIM:-}}
SCFLY=${2:-${SCFLY:-build/scfly}}
PERIOD=${PERIOD:-2500}
ROUTERS=264
if [ -z "$BOOKSIM" ] || [ ! -x "$BOOKSIM" ]; then
  echo "usage: $0 BOOKSIM_BINARY [SCFLY_BINARY]   (or set \$BOOKSIM)" >&2
  exit 1
fi
if [ ! -x "$SCFLY" ]; then
  echo "$0: no scfly binary at $SCFLY" >&2
  exit 1
fi
if [ ! -x /usr/bin/time ]; then
  echo "$0: needs /usr/bin/time (Debian package 'time')" >&2
  exit 1
fi
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

cat >"$W/dfly.cfg" <<EOF
// dfly(4,8,4) as BookSim's dragonflynew builds it for k = 4 (see booksim_compare.sh)
topology = dragonflynew;
k = 4;
n = 1;
routing_function = min;
num_vcs = 2;
vc_buf_size = 256;
wait_for_tail_credit = 0;
vc_allocator = separable_input_first;
sw_allocator = separable_input_first;
alloc_iters = 1;
credit_delay = 2;
routing_delay = 0;
vc_alloc_delay = 1;
sw_alloc_delay = 1;
st_final_delay = 1;
input_speedup = 1;
output_speedup = 1;
internal_speedup = 2.0;
priority = none;
traffic = uniform;
injection_rate = 0.4;
injection_rate_uses_flits = 1;
packet_size = 8;
seed = 1;
sim_type = latency;
sim_count = 1;
warmup_periods = 1;
sample_period = $PERIOD;
max_samples = 10;
latency_thres = 1000000.0;
stopping_thres = 1000000.0;
acc_stopping_thres = 1000000.0;
EOF

set +e
/usr/bin/time -v "$BOOKSIM" "$W/dfly.cfg" >"$W/booksim.out" 2>"$W/booksim.time"
rc=$?
set -e
if [ "$rc" -ne 0 ] && [ "$rc" -ne 255 ]; then
  echo "$0: BookSim exited with $rc" >&2
  tail -20 "$W/booksim.out" "$W/booksim.time" >&2
  exit 3
fi

set +e
/usr/bin/time -v "$SCFLY" run sc_main/configs/dfly-medium.yaml topology.arrangement=absolute \
  routing=min traffic=un load=0.4 packet_phits=8 seed=1 warmup_cycles="$PERIOD" measure_cycles=$((3 * PERIOD)) \
  -q --json "$W/scfly.json" >"$W/scfly.out" 2>"$W/scfly.time"
rc=$?
set -e
if [ "$rc" -ne 0 ]; then
  echo "$0: scfly exited with $rc" >&2
  tail -20 "$W/scfly.out" "$W/scfly.time" >&2
  exit 3
fi

python3 - "$W" "$ROUTERS" "$PERIOD" <<'PY'
import json, re, sys
w, routers, period = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

def timev(path):
    t = open(path).read()
    m = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", t)
    parts = [float(x) for x in m.group(1).split(":")]
    wall = 0.0
    for p in parts:
        wall = wall * 60 + p
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1))
    return wall, rss / 1024.0

def one(pattern, text, what):
    m = re.search(pattern, text)
    if not m:
        sys.exit(f"booksim_compare: BookSim's output has no {what}")
    return m.group(1)

bo = open(f"{w}/booksim.out").read()
if int(one(r"# of switches = (\d+)", bo, "switch count")) != routers or \
   int(one(r"# of nodes \( size of network \) = (\d+)", bo, "node count")) != 1056:
    sys.exit("booksim_compare: BookSim did not build the 264-router, 1,056-node Dragonfly")
b_cycles = int(one(r"Time taken is (\d+) cycles", bo, "'Time taken' line"))
b_loop = float(one(r"Total run time ([0-9.eE+-]+)", bo, "'Total run time' line"))
overall = bo[bo.rfind("Overall Traffic Statistics"):] if "Overall Traffic Statistics" in bo else bo
b_lat = float(one(r"Packet latency average = ([0-9.]+)", overall, "packet latency"))
b_acc = float(one(r"Accepted flit rate average ?= ?([0-9.]+)", overall, "accepted rate"))
b_wall, b_rss = timev(f"{w}/booksim.time")

sj = json.load(open(f"{w}/scfly.json"))
s_cycles = int(sj["metrics"]["cycles"])
s_loop = float(sj["run"]["sim_wall_s"])
s_lat = float(sj["metrics"]["latency_avg"])
s_acc = float(sj["metrics"]["accepted_load"])
s_wall, s_rss = timev(f"{w}/scfly.time")

rows = [("BookSim2", b_cycles, b_wall, b_rss, b_loop, b_acc, b_lat),
        ("scfly", s_cycles, s_wall, s_rss, s_loop, s_acc, s_lat)]
print(f"dfly(4,8,4) absolute, 264 routers, 1,056 nodes, MIN, uniform 0.4 flits/node/cycle, "
      f"8-flit packets, period {period} cycles")
print(f"{'simulator':<10} {'cycles':>8} {'wall s':>8} {'max RSS MB':>11} {'router-cyc/s':>13} "
      f"{'loop r-c/s':>11} {'accepted':>9} {'latency':>8}")
rate = {}
for name, cyc, wall, rss, loop, acc, lat in rows:
    rate[name] = routers * cyc / wall
    print(f"{name:<10} {cyc:>8} {wall:>8.2f} {rss:>11.1f} {rate[name]:>13,.0f} "
          f"{routers * cyc / loop:>11,.0f} {acc:>9.4f} {lat:>8.1f}")
print(f"scfly / BookSim2 (router-cycles/s, whole process): {rate['scfly'] / rate['BookSim2']:.2f}")
PY
