#!/usr/bin/env bash
# The Marmousi-II inversion of docs/inversion.md, with the product itself: a project on a 40 m grid (the shipped
# true model and the usual smoothed start, averaged onto the coarser grid), observed data modelled from the true
# model, then 3 -> 10 Hz frequency continuation with L-BFGS. Writes OUT/marmousi2.fwi, OUT/invert.json,
# OUT/invert.log and OUT/{models,history}.png.
# Usage: scripts/inversion-demo.sh [OUT] (FWI=path/to/fwi to choose the binary; default build/app/fwi)
set -euo pipefail
FWI=${FWI:-build/app/fwi}
OUT=${1:-inversion-demo}
mkdir -p "$OUT"
P="$OUT/marmousi2.fwi"
"$FWI" new --force "$P" --model builtin:marmousi2 --initial builtin:marmousi2-smooth --resample 40 \
    --shots 24 --receivers 250 --source-z 40 --receiver-z 40 --freq 6 --dt 0.0035 --duration 4 --order 8 --pml 20 \
    --max-velocity 4800
"$FWI" forward "$P" --store-observed
"$FWI" --json invert "$P" --stages 3,5,7,10 --iterations 5,8,10,50 --vmin 1450 --vmax 4800 --water-velocity 1510 \
    --illumination --illumination-epsilon 0.001 --memory 20 --report "$OUT" \
    > "$OUT/invert.json" 2> >(tee "$OUT/invert.log" >&2)
echo "results in $OUT/ (models.png, history.png, invert.json, invert.log, marmousi2.fwi)"
