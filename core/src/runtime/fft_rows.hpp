#pragma once
// Row-by-row spectral filtering with real FFTs, shared by trace resampling (time_axis.cpp) and the low-pass
// filter (frequency_filter.cpp). Each row is zero-padded to the forward length, transformed, its spectrum
// mapped by the caller into the output spectrum, transformed back and cut to the output length. Rows are
// independent and each thread holds its own plans and buffers, so a large set of rows (a dense survey's
// traces) runs on the OpenMP team, and every row's arithmetic is the same at any thread count: results are
// bit for bit the same.
#include <complex>
#include <cstdint>
#include <functional>
#include <mutex>
#include <span>

namespace fwi {

/// FFTW's planner and plan destruction are not thread-safe: every FFTW plan of the process is made and
/// destroyed under this lock.
std::mutex& fftw_planner_mutex();

/// Maps the forward spectrum (fft_in / 2 + 1 bins) into the output spectrum (fft_out / 2 + 1 bins, zeroed).
using SpectrumMap =
    std::function<void(std::span<const std::complex<double>> in, std::span<std::complex<double>> out)>;

/// For each of `rows` rows of `in` (rows x n_in): x = the row zero-padded to fft_in samples, X = rfft(x),
/// Y = map(X), y = irfft(Y) of fft_out samples (unnormalised, FFTW's c2r), and row r of `out` (rows x n_out)
/// = y[0 .. n_out) * scale. Needs n_in <= fft_in and n_out <= fft_out.
void fft_rows(std::span<const float> in, std::int64_t rows, std::int64_t n_in, std::int64_t fft_in,
              std::int64_t fft_out, std::int64_t n_out, double scale, const SpectrumMap& map,
              std::span<float> out);

} // namespace fwi
