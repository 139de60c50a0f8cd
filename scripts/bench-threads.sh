#!/usr/bin/env bash
# OpenMP waiting on a quiet and on a busy machine: the same gradient (1 shot, Marmousi-II at 40 m, store-all) with
# FWI Studio's default (OMP_WAIT_POLICY=passive after a 2000-iteration spin), its earlier default (after a
# 300-iteration spin), purely passive waiting, and libgomp's own default (spin 300000 iterations at every barrier).
# Alternating, minimum and maximum of ROUNDS. Usage: scripts/bench-threads.sh [ROUNDS] [COMPETING_PROCESSES]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
fwi=${FWI:-$root/build/app/fwi}
rounds=${1:-5}
competitors=${2:-$(nproc)}
work=$(mktemp -d -t fwi-threads-XXXXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
"$fwi" -q new --force "$work/p.fwi" --model builtin:marmousi2 --resample 40 --shots 1 --receivers 200 --freq 5
"$fwi" -q forward "$work/p.fwi" --store-observed
# One gradient under the given environment; prints its seconds.
gradient() {
  env -u OMP_WAIT_POLICY -u GOMP_SPINCOUNT "$@" "$fwi" -q --json gradient "$work/p.fwi" --schedule all |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["seconds"])'
}
row() {
  local label=$1 d=() b=() p=() s=()
  for ((r = 0; r < rounds; r++)); do
    d+=("$(gradient)")
    b+=("$(gradient OMP_WAIT_POLICY=passive GOMP_SPINCOUNT=300)")
    p+=("$(gradient OMP_WAIT_POLICY=passive)")
    s+=("$(gradient GOMP_SPINCOUNT=300000)")
  done
  python3 - "$label" "${d[*]}" "${b[*]}" "${p[*]}" "${s[*]}" <<'PY'
import sys
label, *cols = sys.argv[1:]
cols = [[float(x) for x in c.split()] for c in cols]
cell = lambda c: f"{min(c):.2f} s (max {max(c):.2f})"
print(f"| {label} | " + " | ".join(cell(c) for c in cols) +
      f" | {min(cols[1]) / min(cols[0]):.2f}x / {max(cols[1]) / max(cols[0]):.1f}x |")
PY
}
echo "Machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores. Gradient of 1 shot, Marmousi-II at 40 m,"
echo "store-all; $rounds alternating rounds, minimum (and maximum) wall time reported by fwi."
echo
echo "| machine | default: passive after a 2000-spin | passive after a 300-spin (before) | purely passive | libgomp default: spin 300000 | before / default, min / max |"
echo "|---|---|---|---|---|---|"
row "quiet"
for ((i = 0; i < competitors; i++)); do (while :; do :; done) & pids+=($!); done
row "$competitors busy processes"
