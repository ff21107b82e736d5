#!/usr/bin/env bash
# Lint every refined block with Verilator (-Wall; waivers only in lint.vlt, with a reason
# per line) and synthesize it with Yosys, reporting its cell count. Exit non-zero on any
# lint warning or synthesis error. Used by ctest (rtl_lint_and_synthesis) and by hand.
# Each block is linted and synthesized with its default parameters. The blocks Verilated
# with other parameters are also linted as those instances (listed in `variants`: the
# ones CMakeLists.txt Verilates), and synthesized as them only with `--all`, as are the
# design-space variants (`study`: the allocator's cell count against radix and VCs): minutes
# of Yosys that CI does without (the same modules are synthesized at their defaults; the
# counts are in docs/model.md).
# Usage: check.sh [--all] [NAME]: with NAME, only the blocks and instances whose name begins
# with it (check.sh flow_control: the block at its defaults and its Verilated instance).
set -euo pipefail
all=0
only=""
for arg in "$@"; do
  case "$arg" in
    --all) all=1 ;;
    -*) echo "usage: $0 [--all] [NAME]" >&2; exit 2 ;;
    *) only="$arg" ;;
  esac
done
cd "$(dirname "$0")"
vlt=""
[ -f lint.vlt ] && vlt="lint.vlt"
# The blocks take their widths from the package scfly_pkg, generated from the one definition
# (../interface/widths.def) as the build does.
gen=$(mktemp -d)
trap 'rm -rf "$gen"' EXIT
cmake -DDEF=../interface/widths.def -DOUT_H="$gen/scfly_widths.h" -DOUT_SV="$gen/scfly_pkg.sv" \
  -P ../interface/gen_widths.cmake
pkg="$gen/scfly_pkg.sv"
# name  file  parameters (NAME=VALUE ...)
variants=(
  "quadrant_sel_n1        quadrant_sel.sv N=1"
  "quadrant_sel_n3        quadrant_sel.sv N=3"
  "quadrant_sel_n4        quadrant_sel.sv N=4"
  "quadrant_sel_n6        quadrant_sel.sv N=6"
  "sep_allocator_r4v2_i1  sep_allocator.sv P=4 V=2 ITERS=1"
  "alloc_wavefront_r4v2_i3    alloc_wavefront.sv P=4 V=2 ITERS=3"
  "alloc_islip_r4v2_i3        alloc_islip.sv P=4 V=2 ITERS=3"
  "alloc_output_first_r4v2_i3 alloc_output_first.sv P=4 V=2 ITERS=3"
  "flow_control_v4        flow_control.sv V=4"
  "flow_control_v16       flow_control.sv V=16"
  "link_arbiter_v16       link_arbiter.sv V=16"
)
# The allocators' cell counts against radix and VCs, one pass (sep_allocator's default
# instance: radix 4, 2 VCs, 2 passes; the variants' (alloc_*.sv): radix 4, 2 VCs, 1 pass; the
# Verilated radix-16 x 4-VC instances are linted as they build).
study=(
  "sep_allocator_r4v4_i1  sep_allocator.sv P=4 V=4 ITERS=1"
  "sep_allocator_r8v2_i1  sep_allocator.sv P=8 V=2 ITERS=1"
  "sep_allocator_r16v2_i1 sep_allocator.sv P=16 V=2 ITERS=1"
  "alloc_wavefront_r8v2_i1     alloc_wavefront.sv P=8 V=2"
  "alloc_wavefront_r16v2_i1    alloc_wavefront.sv P=16 V=2"
  "alloc_islip_r8v2_i1         alloc_islip.sv P=8 V=2"
  "alloc_islip_r16v2_i1        alloc_islip.sv P=16 V=2"
  "alloc_output_first_r8v2_i1  alloc_output_first.sv P=8 V=2"
  "alloc_output_first_r16v2_i1 alloc_output_first.sv P=16 V=2"
)
status=0
# check NAME FILE [PARAM=VALUE ...]; with synth=0, lint only
synth=1
check() {
  local name="$1" f="$2" top="${2%.sv}"
  shift 2
  [ -n "$only" ] && [ "${name#"$only"}" = "$name" ] && return 0
  local gflags=() chparam=""
  for kv in "$@"; do
    gflags+=("-G$kv")
    chparam+=" -set ${kv%%=*} ${kv#*=}"
  done
  local lint out log cells
  if out=$(verilator --lint-only -Wall $vlt "${gflags[@]}" "$pkg" "$f" 2>&1); then lint="clean"; else lint="FAILED"; status=1; echo "$out"; fi
  local cmd="read_verilog -sv $pkg $f;"
  [ -n "$chparam" ] && cmd+=" chparam$chparam $top;"
  if [ "$synth" = 0 ]; then
    cells="(--all)"
  elif log=$(yosys -q -p "$cmd synth -top $top; tee -o /dev/stdout stat" 2>&1); then
    cells=$(echo "$log" | awk '/Number of cells:/ {n=$4} END {print n}')
  else
    cells="ERROR"; status=1; echo "$log"
  fi
  printf "%-28s %8s  %s\n" "$name" "$cells" "$lint"
}
printf "%-28s %8s  %s\n" "module" "cells" "lint"
for f in *.sv; do
  case "$f" in
    # Verilated with 256 entries (linted by Verilator as it builds); synthesized with 32.
    ft_lookup.sv) check ft_lookup_32 "$f" NE=32 ;;
    *) check "${f%.sv}" "$f" ;;
  esac
done
synth=$all
for v in "${variants[@]}"; do
  # shellcheck disable=SC2086
  check $v
done
for v in "${study[@]}"; do
  # shellcheck disable=SC2086
  check $v
done
exit $status
