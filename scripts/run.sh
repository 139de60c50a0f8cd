#!/usr/bin/env bash
# README command one: install the Debian packages, build, and run the main job: the desktop application when a display
# is present, otherwise the Marmousi-II demo on the CPU (results in ./fwi-demo). `scripts/run.sh --3d` runs
# the 3D demo instead, display or not (results in ./fwi-demo-3d).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup-debian.sh"
"$root/scripts/build.sh"
if [ -n "${DISPLAY:-}" ] && [ -x "$root/build/app/fwi-studio" ] && [ "${FWI_HEADLESS:-0}" != 1 ] &&
  [ "${1:-}" != --3d ]; then
  exec "$root/build/app/fwi-studio" "$@"
fi
default_out=fwi-demo
[ "${1:-}" = --3d ] && default_out=fwi-demo-3d
exec "$root/build/app/fwi" demo --out "${FWI_DEMO_OUT:-$default_out}" "$@"
