#!/usr/bin/env bash
# README command two: install the Debian packages, build with tests, and run the whole suite (GUI tests under Xvfb).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup-debian.sh"
"$root/scripts/build.sh" -DFWI_BUILD_TESTS=ON
cd "$root/build"
ctest --output-on-failure -j "${FWI_TEST_JOBS:-2}" "$@"
# Then every fuzz target for FWI_FUZZ_SECONDS (default 30; 0 skips) when clang's libFuzzer runtime is installed
# (setup-debian.sh installs it): two targets at a time, about two minutes plus the clang build of the engine.
seconds=${FWI_FUZZ_SECONDS:-30}
if [ "$seconds" -gt 0 ] && command -v clang++-14 >/dev/null &&
   compgen -G "/usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a" >/dev/null; then
  # Targets with inputs in tests/fuzz/open-findings/<target>/ (none today; `if`, so that none is not a failure).
  open=$(cd "$root/tests/fuzz/open-findings" 2>/dev/null && for d in */; do
    if [ -d "$d" ] && [ -n "$(ls -A "$d")" ]; then echo "${d%/}"; fi
  done)
  FWI_FUZZ_KNOWN_OPEN="$(echo $open)" FWI_FUZZ_PARALLEL=2 "$root/scripts/fuzz.sh" "$seconds"
fi
