#pragma once
// The untimed steps before a measurement: on the 2-core VM a process's first ~0.1 s of steps ran 3-5x slower
// (run_plan.hpp, probe_warm_up_seconds), so the calibration's probes and `fwi bench` both run steps this long
// before their timers start.
#include "fwi/run_plan.hpp"

#include <chrono>

namespace fwi {

/// Calls `step` until probe_warm_up_seconds have passed (at least once).
template <class Step> void warm_up(Step&& step) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    do {
        step();
    } while (std::chrono::duration<double>(Clock::now() - start).count() < probe_warm_up_seconds);
}

} // namespace fwi
