#!/usr/bin/env bash
# Lint every refined block with Verilator (-Wall; waivers only in lint.vlt, with a reason
# per line) and synthesize it with Yosys, reporting its cell count. Exit non-zero on any
# lint warning or synthesis error. Used by ctest (rtl_lint_synth) and by hand.
set -euo pipefail
cd "$(dirname "$0")"
vlt=""
[ -f lint.vlt ] && vlt="lint.vlt"
status=0
printf "%-24s %8s  %s\n" "module" "cells" "lint"
for f in *.sv; do
  top="${f%.sv}"
  if out=$(verilator --lint-only -Wall $vlt "$f" 2>&1); then lint="clean"; else lint="FAILED"; status=1; echo "$out"; fi
  if log=$(yosys -q -p "read_verilog -sv $f; synth -top $top; tee -o /dev/stdout stat" 2>&1); then
    cells=$(echo "$log" | awk '/Number of cells:/ {n=$4} END {print n}')
  else
    cells="ERROR"; status=1; echo "$log"
  fi
  printf "%-24s %8s  %s\n" "$top" "$cells" "$lint"
done
exit $status
