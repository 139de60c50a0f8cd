#include "fwi/frequency_filter.hpp"

#include "fwi/error.hpp"
#include "runtime/fft_rows.hpp"

#include <cmath>
#include <complex>

namespace fwi {
namespace {

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
    const std::int64_t len = fast_length(2 * n); // zero-padded: the filter's circular wrap-around stays off
    std::vector<double> gain(std::size_t(len / 2 + 1));
    for (std::size_t k = 0; k < gain.size(); ++k)
        gain[k] = lowpass_gain(double(k) / (double(len) * dt_s), cutoff_hz, order) / double(len);
    std::vector<float> out(in.size());
    fft_rows(
        in, rows, n, len, len, n, 1.0,
        [&gain](std::span<const std::complex<double>> from, std::span<std::complex<double>> to) {
            for (std::size_t k = 0; k < gain.size(); ++k)
                to[k] = from[k] * gain[k];
        },
        out);
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
