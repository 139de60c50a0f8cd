#!/usr/bin/env bash
# README command two: install the Debian packages, build with tests, and run the whole suite (GUI tests under Xvfb).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup-debian.sh"
"$root/scripts/build.sh" -DFWI_BUILD_TESTS=ON
cd "$root/build"
ctest --output-on-failure -j "${FWI_TEST_JOBS:-2}" "$@"
