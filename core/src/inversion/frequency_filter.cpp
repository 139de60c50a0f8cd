#include "fwi/frequency_filter.hpp"

#include "fwi/error.hpp"

#include <cmath>
#include <complex>
#include <fftw3.h>
#include <mutex>

namespace fwi {
namespace {

std::mutex& planner_mutex() { // FFTW's planner is not thread-safe; execution of a plan on private arrays is
    static std::mutex m;
    return m;
}

/// Smallest 2^a 3^b 5^c >= n (lengths FFTW handles fast).
std::int64_t fast_length(std::int64_t n) {
    for (std::int64_t m = n;; ++m) {
        std::int64_t r = m;
        for (int p : {2, 3, 5})
            while (r % p == 0)
                r /= p;
        if (r == 1) return m;
    }
}

} // namespace

double lowpass_gain(double freq_hz, double cutoff_hz, int order) {
    return 1.0 / (1.0 + std::pow(std::abs(freq_hz) / cutoff_hz, 2.0 * order));
}

std::vector<float> lowpass_rows(std::span<const float> in, std::int64_t rows, std::int64_t n, double dt_s,
                                double cutoff_hz, int order) {
    if (!(cutoff_hz > 0) || !std::isfinite(cutoff_hz))
        throw ConfigError("low-pass cut-off " + std::to_string(cutoff_hz) + " Hz must be positive");
    if (!(dt_s > 0) || !std::isfinite(dt_s)) throw ConfigError("low-pass: sample interval must be positive");
    if (order < 1 || order > 32)
        throw ConfigError("low-pass order " + std::to_string(order) + " not in 1..32");
    if (rows < 0 || n < 1 || std::int64_t(in.size()) != rows * n)
        throw ConfigError("low-pass: " + std::to_string(in.size()) + " samples are not " +
                          std::to_string(rows) + " rows of " + std::to_string(n));
    const std::int64_t len = fast_length(2 * n);
    std::vector<double> x(static_cast<std::size_t>(len));
    std::vector<std::complex<double>> spec(std::size_t(len / 2 + 1));
    fftw_plan forward, backward;
    {
        std::lock_guard lock(planner_mutex());
        forward = fftw_plan_dft_r2c_1d(int(len), x.data(), reinterpret_cast<fftw_complex*>(spec.data()),
                                       FFTW_ESTIMATE);
        backward = fftw_plan_dft_c2r_1d(int(len), reinterpret_cast<fftw_complex*>(spec.data()), x.data(),
                                        FFTW_ESTIMATE);
    }
    std::vector<double> gain(spec.size());
    for (std::size_t k = 0; k < gain.size(); ++k)
        gain[k] = lowpass_gain(double(k) / (double(len) * dt_s), cutoff_hz, order) / double(len);
    std::vector<float> out(in.size());
    for (std::int64_t r = 0; r < rows; ++r) {
        std::fill(x.begin(), x.end(), 0.0);
        for (std::int64_t i = 0; i < n; ++i)
            x[std::size_t(i)] = in[std::size_t(r * n + i)];
        fftw_execute(forward);
        for (std::size_t k = 0; k < spec.size(); ++k)
            spec[k] *= gain[k];
        fftw_execute(backward);
        for (std::int64_t i = 0; i < n; ++i)
            out[std::size_t(r * n + i)] = float(x[std::size_t(i)]);
    }
    {
        std::lock_guard lock(planner_mutex());
        fftw_destroy_plan(forward);
        fftw_destroy_plan(backward);
    }
    return out;
}

std::vector<Gather> lowpass_gathers(const std::vector<Gather>& gathers, double cutoff_hz, int order) {
    std::vector<Gather> out = gathers;
    for (Gather& g : out)
        g.traces =
            lowpass_rows(g.traces, std::int64_t(g.receivers.size()), g.samples, g.dt_s, cutoff_hz, order);
    return out;
}

} // namespace fwi
