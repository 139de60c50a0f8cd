#!/usr/bin/env bash
# Builds the libFuzzer targets (CMake preset `fuzz`: clang-14, ASan + UBSan, build-fuzz/) and runs each for
# SECONDS (default 60) from the committed seed corpus. New interesting inputs go to build-fuzz/corpus/<target>/
# (not committed); a crash leaves build-fuzz/findings/<target>/crash-* and makes the script exit 1: copy it to
# tests/fuzz/regressions/<target>/, fix the reader, and ctest replays it in every build from then on.
# Usage: scripts/fuzz.sh [seconds] [target...]     FWI_FUZZ_PARALLEL=N runs N targets at a time (default 1).
# FWI_FUZZ_KNOWN_OPEN="t1 t2": a finding in these targets is reported but does not fail the script (CI sets it to
# the targets with inputs in tests/fuzz/open-findings/, libhdf5 bugs that no check of ours can avoid yet).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(npy wavelet raw segy_model segy_gathers hdf5_model hdf5_gathers project codec)
build="$root/build-fuzz"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
cd "$root"
cmake --preset fuzz "${launcher[@]}" >/dev/null
cmake --build "$build" --target fuzz_all -j "${FWI_JOBS:-$(nproc)}"

export OMP_WAIT_POLICY=passive OMP_NUM_THREADS=1
# Leak checks on; tests/fuzz/lsan.supp says why blocks kept inside libhdf5 are not findings. A malloc over 2 GiB
# returns NULL as glibc's would for an impossible size: libhdf5 sizes metadata buffers from the file and handles
# the NULL (regressions/hdf5_model/libhdf5-metadata-cache-*). Our own code allocates with `new`, which ASan does
# not let return NULL: over 2 GiB it is an "out of memory" report, a finding (clang-14 behaviour, checked).
# libhdf5's own over-reads, seen through ASan's interceptors, are not findings (tests/fuzz/asan.supp says why).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1:max_allocation_size_mb=2048:suppressions=$root/tests/fuzz/asan.supp}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/tests/fuzz/lsan.supp}

run_one() {
    local t=$1 corpus="$build/corpus/$1" findings="$build/findings/$1"
    mkdir -p "$corpus" "$findings"
    # A single allocation is capped by ASan (max_allocation_size_mb above), not by libFuzzer's -malloc_limit_mb
    # (which defaults to -rss_limit_mb): libFuzzer's malloc hook also runs in the child that the HDF5 targets
    # read in first (tests/fuzz/fuzz_isolated.hpp) and would save a libhdf5 allocation there as an oom-* finding.
    # -timeout stays above that child's own 10 s limit.
    if "$build/tests/fuzz/fuzz_$t" "$corpus" "$root/tests/fuzz/corpus/$t" -max_total_time="$seconds" \
        -rss_limit_mb=2048 -malloc_limit_mb=4096 -timeout=20 -max_len=65536 -artifact_prefix="$findings/" \
        -print_final_stats=1 \
        >"$build/findings/$t.log" 2>&1; then
        echo "fuzz $t: ok ($(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$build/findings/$t.log" \
            | grep -o '[0-9]*$') runs in ${seconds} s)"
    elif [[ " ${FWI_FUZZ_KNOWN_OPEN:-} " == *" $t "* ]]; then
        echo "fuzz $t: finding(s) in a target with open findings (tests/fuzz/open-findings/$t), not counted: see $findings/"
    else
        echo "fuzz $t: FAILED, see $build/findings/$t.log and $findings/" >&2
        tail -n 30 "$build/findings/$t.log" >&2
        return 1
    fi
}

status=0
parallel=${FWI_FUZZ_PARALLEL:-1}
pids=()
for t in "${targets[@]}"; do
    run_one "$t" &
    pids+=($!)
    if [ ${#pids[@]} -ge "$parallel" ]; then
        wait "${pids[0]}" || status=1
        pids=("${pids[@]:1}")
    fi
done
for p in "${pids[@]}"; do wait "$p" || status=1; done
exit $status
