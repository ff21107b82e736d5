#!/usr/bin/env bash
# Speed of the named configurations, each in its own process (router-cycles/s, peak RSS).
# Usage: tests/bench/run_benchmarks.sh [BUILD_DIR [NAME_REGEX]]   (default: build, every row)
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${1:-build}
ONLY=${2:-}
cmake --build "$B" -j2 --target scfly_bench >/dev/null
run() {  # name, config, overrides...
  local name=$1; shift
  if [ -n "$ONLY" ] && ! [[ $name =~ $ONLY ]]; then return; fi
  local out
  out=$("$B"/tests/bench/scfly_bench "$@" --benchmark_min_time=5 --benchmark_format=json 2>/dev/null)
  python3 - "$name" "$out" <<'PY'
import json, sys
name, doc = sys.argv[1], json.loads(sys.argv[2])
b = doc["benchmarks"][0]
print(f"{name:<34} {b['router_cycles_per_s']:>14,.0f} {b['peak_rss_mb']:>10.1f}")
PY
}
printf '%-34s %14s %10s\n' "configuration" "router-cyc/s" "peak MB"
run "medium MIN UN 0.1 1-phit"   sc_main/configs/dfly-medium.yaml packet_phits=1 load=0.1 warmup_cycles=2000
run "medium MIN UN 0.4 1-phit"   sc_main/configs/dfly-medium.yaml packet_phits=1 load=0.4 warmup_cycles=2000
run "medium MIN UN 0.4 8-phit"   sc_main/configs/dfly-medium.yaml load=0.4 warmup_cycles=2000
run "medium VAL ADV+1 0.4 8-phit" sc_main/configs/dfly-medium.yaml routing=val traffic=adv+1 load=0.4 warmup_cycles=2000
run "medium ACOR-Switch 3L ADV+1 0.4" sc_main/configs/dfly-medium.yaml routing=acor-switch traffic=adv+1 load=0.4 warmup_cycles=2000
run "medium UGAL-L ADV+1 0.4"    sc_main/configs/dfly-medium.yaml routing=ugal-l traffic=adv+1 load=0.4 warmup_cycles=2000
run "medium PB ADV+1 0.4"        sc_main/configs/dfly-medium.yaml routing=pb traffic=adv+1 load=0.4 warmup_cycles=2000
run "medium UGAL-G UN 0.4"       sc_main/configs/dfly-medium.yaml routing=ugal-g load=0.4 warmup_cycles=2000
run "tugal g9 UGAL-L UN 0.4"     sc_main/configs/tugal-dfly-4-8-4-9.yaml load=0.4 warmup_cycles=2000
run "tugal g9 UGAL-L i5src shift 0.3" sc_main/configs/tugal-dfly-4-8-4-9.yaml routing=ugal-l ugal.vlb_set=i5src 'traffic=shift(2,0)' load=0.3 warmup_cycles=2000
run "tugal g9 T-PAR shift 0.3"   sc_main/configs/tugal-dfly-4-8-4-9.yaml routing=t-par 'traffic=shift(2,0)' load=0.3 warmup_cycles=2000
# The ACOR paper's network (876 switches, 5,256 hosts, 10-phit packets, 90-cycle pipeline;
# issue 18's four points), its idle cost, and dfly(8,16,8) (2,064 switches, 16,512 hosts).
run "table3 MIN UN 0.4"          sc_main/configs/acor-table3.yaml load=0.4 warmup_cycles=3000 bench_chunk=200
run "table3 MIN ADV+1 0.4"       sc_main/configs/acor-table3.yaml traffic=adv+1 load=0.4 warmup_cycles=3000 bench_chunk=200
run "table3 ACOR-Sw 3L UN 0.4"   sc_main/configs/acor-table3.yaml routing=acor-switch load=0.4 warmup_cycles=3000 bench_chunk=200
run "table3 ACOR-Sw 3L ADV+1 0.4" sc_main/configs/acor-table3.yaml routing=acor-switch traffic=adv+1 load=0.4 warmup_cycles=3000 bench_chunk=200
run "table3 MIN UN 0.01 (idle)"  sc_main/configs/acor-table3.yaml load=0.01 warmup_cycles=3000 bench_chunk=1000
run "table3 MIN UN 0.4 kernel"   sc_main/configs/acor-table3.yaml load=0.4 warmup_cycles=3000 bench_chunk=200 sim.scheduler=kernel
run "dfly(8,16,8) MIN UN 0.4"    sc_main/configs/acor-table3.yaml topology.p=8 topology.a=16 topology.h=8 topology.g=129 load=0.4 warmup_cycles=2000 bench_chunk=100
run "tiny MIN UN 0.3 8-phit"     sc_main/configs/dfly-tiny.yaml load=0.3 warmup_cycles=2000
run "torus 8x8 DOR UN 0.4 1-phit" sc_main/configs/torus-8x8-1port.yaml load=0.4 warmup_cycles=2000
run "torus 8x8 MIN AD UN 0.4 1-phit" sc_main/configs/torus-8x8-1port.yaml routing=min-ad load=0.4 warmup_cycles=2000
run "torus 8x8 GAL UN 0.4 1-phit" sc_main/configs/torus-8x8-1port.yaml routing=gal load=0.4 warmup_cycles=2000
run "torus 8x8 CHAOS perm 0.8 1-phit" sc_main/configs/torus-8x8-1port.yaml routing=chaos traffic=perm load=0.8 topology.terminal_ports=2 warmup_cycles=2000
# RTL co-simulation (SCFLY_RTL builds): the same points with the Verilated blocks.
run "medium MIN UN 0.4 rtl min_route" sc_main/configs/dfly-medium.yaml load=0.4 warmup_cycles=2000 'rtl=[min_route]'
run "medium ACOR-Sw ADV+1 0.4 rtl acor" sc_main/configs/dfly-medium.yaml routing=acor-switch traffic=adv+1 load=0.4 warmup_cycles=2000 'rtl=[acor]'
run "medium UGAL-L ADV+1 0.4 rtl ugal" sc_main/configs/dfly-medium.yaml routing=ugal-l traffic=adv+1 load=0.4 warmup_cycles=2000 'rtl=[ugal]'
run "medium PB ADV+1 0.4 rtl pb"      sc_main/configs/dfly-medium.yaml routing=pb traffic=adv+1 load=0.4 warmup_cycles=2000 'rtl=[pb]'
run "medium MIN UN 0.4 rtl allocator" sc_main/configs/dfly-medium.yaml load=0.4 warmup_cycles=2000 'rtl=[allocator]'
run "medium PB-ACOR ADV+1 0.4"        sc_main/configs/dfly-medium.yaml routing=pb-acor traffic=adv+1 load=0.4 warmup_cycles=2000
run "medium PB-ACOR ADV+1 0.4 rtl all" sc_main/configs/dfly-medium.yaml routing=pb-acor traffic=adv+1 load=0.4 warmup_cycles=2000 'rtl=[min_route,acor,ugal,pb]'
run "qcn-tiny MIN-COND ADV+1 0.4"     sc_main/configs/qcn-tiny.yaml traffic=adv+1 load=0.4
run "qcn-tiny MIN-COND ADV+1 0.4 rtl qcn,qcn_cp" sc_main/configs/qcn-tiny.yaml traffic=adv+1 load=0.4 'rtl=[qcn,qcn_cp]'
run "qcn-tiny MIN-COND ADV+1 0.4 rtl all" sc_main/configs/qcn-tiny.yaml traffic=adv+1 load=0.4 'rtl=[table,qcn,qcn_cp]'
run "tiny MIN-TABLE UN 0.4"         sc_main/configs/dfly-tiny.yaml routing=min-table load=0.4 warmup_cycles=2000
run "tiny MIN-TABLE UN 0.4 rtl table" sc_main/configs/dfly-tiny.yaml routing=min-table load=0.4 warmup_cycles=2000 'rtl=[table]'
run "torus 8x8 MIN AD UN 0.4 rtl quadrant" sc_main/configs/torus-8x8-1port.yaml routing=min-ad load=0.4 warmup_cycles=2000 'rtl=[quadrant]'
run "torus 8x8 GAL UN 0.4 rtl gal_threshold" sc_main/configs/torus-8x8-1port.yaml routing=gal load=0.4 warmup_cycles=2000 'rtl=[gal_threshold]'
run "torus 8x8 GAL UN 0.4 rtl both"  sc_main/configs/torus-8x8-1port.yaml routing=gal load=0.4 warmup_cycles=2000 'rtl=[quadrant,gal_threshold]'
