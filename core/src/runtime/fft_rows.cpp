#include "runtime/fft_rows.hpp"

#include "fwi/error.hpp"

#include <algorithm>
#include <fftw3.h>
#include <string>
#include <vector>

namespace fwi {
namespace {

/// One thread's r2c plan of fft_in samples and c2r plan of fft_out samples, on buffers of its own.
class FftPair {
  public:
    FftPair(std::int64_t fft_in, std::int64_t fft_out)
        : x_(std::size_t(fft_in)), y_(std::size_t(fft_out)), spec_in_(std::size_t(fft_in / 2 + 1)),
          spec_out_(std::size_t(fft_out / 2 + 1)) {
        std::lock_guard lock(fftw_planner_mutex());
        forward_ = fftw_plan_dft_r2c_1d(int(fft_in), x_.data(),
                                        reinterpret_cast<fftw_complex*>(spec_in_.data()), FFTW_ESTIMATE);
        backward_ = fftw_plan_dft_c2r_1d(int(fft_out), reinterpret_cast<fftw_complex*>(spec_out_.data()),
                                         y_.data(), FFTW_ESTIMATE);
    }
    ~FftPair() {
        std::lock_guard lock(fftw_planner_mutex());
        fftw_destroy_plan(forward_);
        fftw_destroy_plan(backward_);
    }
    FftPair(const FftPair&) = delete;
    FftPair& operator=(const FftPair&) = delete;

    void row(const float* in, std::int64_t n_in, std::int64_t n_out, double scale, const SpectrumMap& map,
             float* out) {
        std::copy(in, in + n_in, x_.begin());
        std::fill(x_.begin() + n_in, x_.end(), 0.0);
        fftw_execute(forward_);
        std::fill(spec_out_.begin(), spec_out_.end(), std::complex<double>(0));
        map(spec_in_, spec_out_);
        fftw_execute(backward_); // c2r overwrites its input: spec_out_ is refilled for every row
        for (std::int64_t i = 0; i < n_out; ++i)
            out[i] = float(y_[std::size_t(i)] * scale);
    }

  private:
    std::vector<double> x_, y_;
    std::vector<std::complex<double>> spec_in_, spec_out_;
    fftw_plan forward_ = nullptr, backward_ = nullptr;
};

} // namespace

std::mutex& fftw_planner_mutex() {
    static std::mutex m;
    return m;
}

void fft_rows(std::span<const float> in, std::int64_t rows, std::int64_t n_in, std::int64_t fft_in,
              std::int64_t fft_out, std::int64_t n_out, double scale, const SpectrumMap& map,
              std::span<float> out) {
    if (rows < 0 || n_in < 0 || n_out < 0 || n_in > fft_in || n_out > fft_out || fft_in < 1 || fft_out < 1 ||
        std::int64_t(in.size()) != rows * n_in || std::int64_t(out.size()) != rows * n_out)
        throw ConfigError("fft_rows: " + std::to_string(rows) + " rows of " + std::to_string(n_in) + " -> " +
                          std::to_string(n_out) + " samples do not fit " + std::to_string(in.size()) +
                          " -> " + std::to_string(out.size()));
    if (rows == 0) return;
    // A thread's plans cost about one row's transforms: the team pays off from a few dozen rows.
    const bool team = rows >= 64 && rows * std::max(fft_in, fft_out) >= (std::int64_t(1) << 16);
#pragma omp parallel if (team)
    {
        FftPair pair(fft_in, fft_out);
#pragma omp for schedule(static)
        for (std::int64_t r = 0; r < rows; ++r)
            pair.row(in.data() + r * n_in, n_in, n_out, scale, map, out.data() + r * n_out);
    }
}

} // namespace fwi
