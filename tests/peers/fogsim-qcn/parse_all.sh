#!/bin/bash
# Writes csv/<piece>.csv (one run) and csv/<set>_<transient>_mean.csv (mean over the finished
# seeds of that set), 2,000-cycle (20 us) bins by default, plus the per-switch loads in
# csv/*_per_switch.csv. BIN=500 ./parse_all.sh for 5 us bins (suffix _b500).
# Sets: tiny (qcn-tiny, FOGSim's allocator), tinyrr (one pass, round-robin arbiters),
# tinylong (ADV+1 -> UN from a 1 ms ADV+1 phase), d484 (dfly(4,8,4)).
# Only pieces with DONE are parsed.
cd "${FOGSIM_WORK:-/work/fogsim-work}" || exit 1
BIN=${BIN:-2000}
sfx=""; [ "$BIN" != 2000 ] && sfx="_b$BIN"
mkdir -p csv
for d in runs/*/; do
  name=$(basename "$d")
  [ -f "$d/DONE" ] || continue
  case $name in check_*) continue;; esac
  python3 parse.py --bin "$BIN" "$d/out" --per-switch "csv/${name}_per_switch$sfx.csv" > "csv/$name$sfx.csv"
done
for set in tiny tinyrr tinylong d484; do
  for tr in un2adv adv2un; do
    runs=()
    for d in runs/${set}_${tr}_s*/; do [ -f "$d/DONE" ] && runs+=("$d/out"); done
    [ ${#runs[@]} -eq 0 ] && continue
    python3 parse.py --bin "$BIN" "${runs[@]}" --per-switch "csv/${set}_${tr}_mean_per_switch$sfx.csv" \
      > "csv/${set}_${tr}_mean$sfx.csv"
    echo "csv/${set}_${tr}_mean$sfx.csv: ${#runs[@]} seeds"
  done
done
