#pragma once
// The time axis of a run, computed ONCE per experiment: the user's sampling (dt_s, nt) and the inner step the
// CFL condition needs. Sources are upsampled and receivers downsampled over the WHOLE trace (never per
// segment), so checkpointing cannot change the result.
#include "fwi/grid.hpp"
#include "fwi/settings.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace fwi {

struct TimeAxis {
    double dt_s = 0;           ///< user (data) sample interval
    std::int64_t nt = 0;       ///< user samples
    int step_ratio = 1;        ///< inner steps per user sample
    double inner_dt_s = 0;     ///< dt_s / step_ratio
    std::int64_t inner_nt = 0; ///< nt * step_ratio
};

/// Largest stable dt for the leapfrog scheme: cfl_number / (v_max sqrt(1/dx^2 + 1/dz^2)) in 2D,
/// cfl_number / (v_max sqrt(1/dx^2 + 1/dz^2 + 1/dy^2)) in 3D. A user step above it runs ceil(dt / stable_dt)
/// inner steps per sample (make_time_axis), in either rank.
double stable_dt(const Grid& grid, double max_velocity_mps, double cfl_number);
/// Throws ConfigError for non-positive or non-finite dt/nt, or an absurd inner step count (> 10^8).
TimeAxis make_time_axis(const Grid& grid, double max_velocity_mps, const PropagationSettings& s);

/// Band-limited resampling of each row of a (rows x n_in) array to n_out samples (FFT; the Nyquist bin is
/// dropped so that up- and down-sampling are exact transposes up to the factor n_out / n_in). n_in == n_out
/// copies.
std::vector<float> resample_rows(std::span<const float> in, std::int64_t rows, std::int64_t n_in,
                                 std::int64_t n_out);
/// The same into `out` (rows x n_out floats, overwritten): a caller that resamples every shot keeps one
/// buffer, since the fresh pages of a large new one cost more than the resampling. ConfigError for a wrong
/// size.
void resample_rows(std::span<const float> in, std::int64_t rows, std::int64_t n_in, std::int64_t n_out,
                   std::span<float> out);

/// A warning when the minimum wavelength at the source's peak frequency spans fewer than `min_cells` cells of
/// the coarsest axis; empty when fine.
std::string dispersion_warning(const Grid& grid, double min_velocity_mps, double freq_hz,
                               double min_cells = 6.0);

/// ConfigError when the grid cannot carry the source at all: the shortest wavelength at the source's peak
/// frequency spans fewer than 2 cells of the coarsest axis, below the grid's Nyquist limit (a spacing given
/// in the wrong unit does this). dispersion_warning warns from 6 cells.
void check_grid_resolves_source(const Grid& grid, double min_velocity_mps, double freq_hz);

/// Warnings about the data's sampling of the built-in Ricker source (none for a user wavelet): a sample
/// interval whose Nyquist frequency is below 2.5x the peak frequency (the wavelet, sampled at dt_s, is
/// aliased there), and a record that ends before the wavelet peaks (at 1.5 / freq_hz), so it holds almost
/// nothing. Empty when fine.
std::vector<std::string> source_sampling_warnings(const PropagationSettings& s);

/// Every warning about a run's discretisation, in this order: dispersion_warning (at `min_velocity_mps`),
/// then source_sampling_warnings.
std::vector<std::string> propagation_warnings(const Grid& grid, double min_velocity_mps,
                                              const PropagationSettings& s);

} // namespace fwi
