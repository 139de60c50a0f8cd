#pragma once
// The performance model's calibration, kept between processes. Measuring step and codec costs takes a few
// tenths of a second per grid; a desktop session or a script runs the same grids again and again, so the
// measurements are kept in a small JSON file per (backend, padded grid, order, PML, codec, threads, the
// probed shot's receivers, the inner steps, CPU, build of the running program: its size and modification
// time) under the user's cache directory (FWI_CALIBRATION_CACHE=DIR, else $XDG_CACHE_HOME/fwi-studio, else
// ~/.cache/fwi-studio; FWI_CALIBRATION_CACHE=off disables it). Entries expire after a day. The cache is an
// optimisation only: an unreadable, corrupt, foreign or stale file is a miss, and a failed write is ignored.
#include "fwi/performance_model.hpp"
#include "fwi/run_plan.hpp" // Calibration

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace fwi {

struct CalibrationKey {
    std::string backend;
    std::int64_t nz = 0, nx = 0; ///< padded grid
    int order = 0, pml = 0;
    std::string codec;
    int threads = 0;
    std::int64_t ny = 1; ///< padded grid along y (1 in 2D); last, so that 2D keys are written {.., threads}
    /// The probed shot's receivers and the run's inner steps: the probe records and injects at the receivers,
    /// and a shot's set-up (resampling its traces) grows with both.
    std::int64_t receivers = 0, inner_steps = 0;
    /// A free surface's top layer is not computed: its steps cost less (a fifth less in a 3D forward here).
    bool free_surface = false;
    std::string text() const; ///< every field, the CPU's model name and the running program's build
};

/// The cache directory, or empty when FWI_CALIBRATION_CACHE=off (or no home directory is known).
std::filesystem::path calibration_cache_directory();
std::optional<Calibration> load_cached_calibration(const CalibrationKey& key);
void store_cached_calibration(const CalibrationKey& key, const Calibration& c);

} // namespace fwi
