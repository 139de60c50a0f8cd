#!/usr/bin/env bash
# Configures and builds FWI Studio into build/ (Release). Extra arguments go to the CMake configure step.
# ccache is used when it is installed (it is optional; nothing needs it).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=${FWI_JOBS:-$(nproc)}
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
fi
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "$@" >/dev/null
cmake --build "$root/build" -j "$jobs"
