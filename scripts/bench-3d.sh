#!/usr/bin/env bash
# The 3D rows of docs/benchmarks.md, in one run on this machine: a 3D Marmousi-II gradient (builtin:marmousi2-3d,
# 88 x 48 x 251 cells at 40 m, order 8, 3 Hz, 2 s, one shot, snapshots every other step) that fits in memory,
# run with store-all (the reference), with `auto` under a RAM budget (default 1G), and with each ZFP mode and
# lossless codec keeping every snapshot: time against store-all, recomputed steps, peak memory, gradient error
# against store-all, compression ratio, predicted/measured, and codec cost per state against one forward step.
# Usage: scripts/bench-3d.sh [OUT_DIR] (default ./bench-3d); FWI_BUDGET=2G to change the budget.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
fwi="$root/build/app/fwi"
out=${1:-bench-3d}
mkdir -p "$out"
# OpenMP waits as the product does by default (passive after a short spin, fwi/threading.hpp).
project="$out/marmousi2-3d.fwi"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
"$fwi" -q new --force "$project" --model builtin:marmousi2-3d --freq 3 --dt 0.004 --duration 2 --order 8 --pml 15 \
  --shots-x 1 --shots-y 1 --receivers-x 50 --receivers-y 20
"$fwi" -q forward "$project" --store-observed
configs="all/none;auto/none;auto/lz4;all/lz4;all/zstd;all/zfp-reversible;all/zfp-accuracy:1e-6"
configs+=";all/zfp-accuracy:1e-5;all/zfp-accuracy:1e-4;all/zfp-precision:16;all/zfp-rate:16;all/zfp-rate:8"
"$fwi" --json bench-checkpoints "$project" --sampling-interval 2 --budget "${FWI_BUDGET:-1G}" \
  --configs "$configs" --markdown "$out/table.md" > "$out/bench.json"
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; load before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg)"
cat "$out/table.md"
