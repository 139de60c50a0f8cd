#include "fwi/time_axis.hpp"

#include "fwi/error.hpp"
#include "runtime/fft_rows.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <sstream>
#include <string>

namespace fwi {

double stable_dt(const Grid& grid, double max_velocity_mps, double cfl_number) {
    double sum = 1.0 / (grid.dx() * grid.dx()) + 1.0 / (grid.dz() * grid.dz());
    if (grid.rank == 3) sum += 1.0 / (grid.dy() * grid.dy());
    return cfl_number / (max_velocity_mps * std::sqrt(sum));
}

TimeAxis make_time_axis(const Grid& grid, double max_velocity_mps, const PropagationSettings& s) {
    if (!(s.dt_s > 0) || !std::isfinite(s.dt_s))
        throw ConfigError("time step dt_s = " + std::to_string(s.dt_s) + " must be positive and finite");
    if (s.nt < 2)
        throw ConfigError("number of time samples nt = " + std::to_string(s.nt) + " must be at least 2");
    if (s.nt > 10'000'000)
        throw ConfigError("number of time samples nt = " + std::to_string(s.nt) + " is absurd (> 1e7)");
    if (!(max_velocity_mps > 0) || !std::isfinite(max_velocity_mps))
        throw ConfigError("maximum velocity " + std::to_string(max_velocity_mps) +
                          " m/s must be positive and finite");
    if (!(s.cfl_number > 0) || s.cfl_number > 1)
        throw ConfigError("CFL number " + std::to_string(s.cfl_number) + " must be in (0, 1]");
    const double limit = stable_dt(grid, max_velocity_mps, s.cfl_number);
    const double ratio = std::ceil(s.dt_s / limit * (1 - 1e-12));
    if (ratio * double(s.nt) > 1e8) {
        std::ostringstream m;
        m << "CFL: dt = " << s.dt_s << " s needs " << ratio << " inner steps per sample (stable dt " << limit
          << " s at v_max " << max_velocity_mps << " m/s); " << ratio * double(s.nt)
          << " steps in all is impossible here";
        throw ConfigError(m.str());
    }
    TimeAxis t;
    t.dt_s = s.dt_s;
    t.nt = s.nt;
    t.step_ratio = std::max(1, int(ratio));
    t.inner_dt_s = s.dt_s / t.step_ratio;
    t.inner_nt = s.nt * t.step_ratio;
    return t;
}

std::vector<float> resample_rows(std::span<const float> in, std::int64_t rows, std::int64_t n_in,
                                 std::int64_t n_out) {
    std::vector<float> out(std::size_t(rows * n_out));
    resample_rows(in, rows, n_in, n_out, out);
    return out;
}

void resample_rows(std::span<const float> in, std::int64_t rows, std::int64_t n_in, std::int64_t n_out,
                   std::span<float> out) {
    if (n_in == n_out) { // a copy (the filter below would drop an even length's Nyquist bin)
        if (in.size() != out.size() || std::int64_t(in.size()) != rows * n_in)
            throw ConfigError("resample_rows: " + std::to_string(in.size()) + " -> " +
                              std::to_string(out.size()) + " samples for " + std::to_string(rows) +
                              " rows of " + std::to_string(n_in));
        std::copy(in.begin(), in.end(), out.begin());
        return;
    }
    // Keep the bins strictly below the Nyquist frequency of the shorter length.
    const std::int64_t keep = (std::min(n_in, n_out) - 1) / 2 + 1;
    fft_rows(
        in, rows, n_in, n_in, n_out, n_out, 1.0 / double(n_in),
        [keep](std::span<const std::complex<double>> from, std::span<std::complex<double>> to) {
            std::copy_n(from.begin(), keep, to.begin());
        },
        out);
}

namespace {

/// The slowest wavelength at the peak frequency, measured in cells of the grid's coarsest axis: what the
/// dispersion warning and the Nyquist refusal both judge.
struct WavelengthInCells {
    double wavelength_m, coarsest_m, cells;
};
WavelengthInCells wavelength_in_cells(const Grid& grid, double min_velocity_mps, double freq_hz) {
    const double wavelength = min_velocity_mps / freq_hz;
    const double coarsest = std::max(std::max(grid.dx(), grid.dz()), grid.rank == 3 ? grid.dy() : 0.0);
    return {wavelength, coarsest, wavelength / coarsest};
}

} // namespace

std::string dispersion_warning(const Grid& grid, double min_velocity_mps, double freq_hz, double min_cells) {
    const WavelengthInCells w = wavelength_in_cells(grid, min_velocity_mps, freq_hz);
    if (w.cells >= min_cells) return {};
    std::ostringstream m;
    m.precision(3);
    m << "dispersion: the shortest wavelength (" << w.wavelength_m << " m at " << freq_hz << " Hz, "
      << min_velocity_mps << " m/s) spans only " << w.cells << " cells (< " << min_cells
      << "); reduce the frequency or the spacing";
    return m.str();
}

void check_grid_resolves_source(const Grid& grid, double min_velocity_mps, double freq_hz) {
    const WavelengthInCells w = wavelength_in_cells(grid, min_velocity_mps, freq_hz);
    if (!(w.cells < 2)) return; // NaN velocities are refused where models are read
    std::ostringstream m;
    m.precision(3);
    m << "the grid cannot carry the source: the shortest wavelength (" << w.wavelength_m << " m at "
      << freq_hz << " Hz, " << min_velocity_mps << " m/s) spans " << w.cells << " cells of " << w.coarsest_m
      << " m, fewer than the 2 per wavelength of the grid's Nyquist limit; check the spacing (in metres) or "
         "lower the frequency";
    throw ConfigError(m.str());
}

std::vector<std::string> source_sampling_warnings(const PropagationSettings& s) {
    std::vector<std::string> warnings;
    if (!s.wavelet.empty() || !(s.freq_hz > 0) || !(s.dt_s > 0) || s.nt < 1) return warnings;
    const double nyquist_hz = 0.5 / s.dt_s;
    if (nyquist_hz < 2.5 * s.freq_hz) {
        std::ostringstream m;
        m.precision(3);
        m << "sampling: dt " << s.dt_s << " s has its Nyquist frequency (" << nyquist_hz
          << " Hz) below 2.5x the source's peak frequency (" << s.freq_hz
          << " Hz): the Ricker wavelet is aliased; use dt <= " << 1 / (5 * s.freq_hz) << " s";
        warnings.push_back(m.str());
    }
    const double record_s = double(s.nt - 1) * s.dt_s, peak_s = 1.5 / s.freq_hz;
    if (record_s < peak_s) {
        std::ostringstream m;
        m.precision(3);
        m << "record length: " << s.nt << " samples at " << s.dt_s << " s end at " << record_s
          << " s, before the Ricker wavelet peaks (" << peak_s << " s): the data will hold almost nothing";
        warnings.push_back(m.str());
    }
    return warnings;
}

std::vector<std::string> propagation_warnings(const Grid& grid, double min_velocity_mps,
                                              const PropagationSettings& s) {
    std::vector<std::string> warnings = source_sampling_warnings(s);
    if (std::string w = dispersion_warning(grid, min_velocity_mps, s.freq_hz); !w.empty())
        warnings.insert(warnings.begin(), std::move(w));
    return warnings;
}

} // namespace fwi
