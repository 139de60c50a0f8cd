#!/usr/bin/env bash
# The Marmousi checkpointing table of docs/benchmarks.md, in one run on this machine: the gradient of the middle
# of three shots on builtin:marmousi (1601 x 401 cells at 7.5 m, order 8, 8 Hz, 1.6 s: 2403 inner steps) with
# every schedule (store-all, uniform, Revolve, online, multi-level RAM + disk) and codec, then five rows again to
# show what the earlier runs taught the performance model: time against store-all, recomputed steps, peak RAM
# and disk, gradient error against store-all, compression ratio, predicted/measured, codec cost per state
# against one forward step. The process calibrates itself (FWI_CALIBRATION_CACHE=off).
# Usage: scripts/bench-marmousi.sh [OUT_DIR] (default ./bench-marmousi); the disk tier goes to OUT_DIR/scratch.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
fwi="$root/build/app/fwi"
out=${1:-bench-marmousi}
mkdir -p "$out/scratch"
project="$out/marmousi.fwi"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
"$fwi" -q new --force "$project" --model builtin:marmousi --shots 3 --receivers 200 --freq 8 --dt 0.002 --duration 1.6 \
  --order 8
"$fwi" -q forward "$project" --store-observed
configs="all/none;uniform:6/none;uniform:40/none;revolve:10/none;revolve:40/none;revolve:160/none;online:40/none"
configs+=";multilevel:10,200/none;revolve:40/zstd;revolve:40/lz4;revolve:40/blosc;revolve:40/zfp-reversible"
configs+=";revolve:40/zfp-accuracy:1e-5;revolve:40/zfp-rate:8;all/zfp-accuracy:1e-5;all/zfp-accuracy:1e-4"
configs+=";all/zfp-accuracy:1e-3"
# Again, priced by what the rows above measured.
configs+=";revolve:40/zstd;revolve:40/lz4;all/zfp-accuracy:1e-4;revolve:10/none;all/none"
FWI_CALIBRATION_CACHE=off "$fwi" --json bench-checkpoints "$project" --scratch "$out/scratch" \
  --configs "$configs" --markdown "$out/table.md" > "$out/bench.json"
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; load before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg)"
cat "$out/table.md"
