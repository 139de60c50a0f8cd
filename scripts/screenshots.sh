#!/usr/bin/env bash
# Takes the screenshots of docs/gui.md: runs `fwi-studio --screenshots DIR` (a scripted tour of the real GUI on the
# demo projects) under Xvfb. VTK needs an X server with OpenGL; Mesa's software renderer is enough.
# Usage: scripts/screenshots.sh [build-dir] [output-dir]     (defaults: build, docs/gui)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
out=${2:-$root/docs/gui}
exe=$build/app/fwi-studio
if [ ! -x "$exe" ]; then
  echo "screenshots: building fwi-studio in $build"
  cmake --build "$build" -j2 --target fwi-studio
fi
command -v xvfb-run >/dev/null || { echo "screenshots: xvfb-run is missing (apt-get install xvfb xauth)" >&2; exit 1; }
mkdir -p "$out"
# A fixed screen and DPI so that the pictures do not depend on the machine.
QT_FONT_DPI=96 xvfb-run -a -s "-screen 0 1600x1000x24 -dpi 96" "$exe" --screenshots "$out"
echo "screenshots: written to $out"
