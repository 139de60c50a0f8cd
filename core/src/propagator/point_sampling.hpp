#pragma once
// Recording and injecting at off-grid points (PointStencil, Hicks' weights per axis: hicks.cpp).
// RECORDING: receiver r's sample at `step` is sum_c wx[c] * (sum_a wz[a] * (sum_b wy[b] * field[a, b, c])):
// the box's rows of x taps are summed as eight lanes (contiguous cells, one vector FMA per row), then the
// lanes weighted by wx. A sum over the taps one after another was one chain of dependent additions, 512 of
// them for a 3D point off the grid on every axis, and with 6400 such receivers the forward run took twice as
// long as without them. Each lane's arithmetic is the same whether eight cells can be read from the row or
// fewer (a box at the padded grid's x end), and each receiver's sum is made by one thread, so traces do not
// depend on the thread count. The receivers are shared out over the OpenMP team when there are enough taps to
// pay for waking it.
// INJECTION: field[cell] += scale[cell] * (w * amount) for each tap, receiver after receiver and each box's
// taps in for_each_tap's order (z, y, x): the order the GPU's scatter tables keep per cell
// (gpu/geometry_tables.hpp). The boxes of nearby receivers share cells, so the residuals of many receivers
// are injected by splitting the grid rows the boxes touch into one contiguous range per thread: a thread adds
// only the taps in its rows, going through the receivers in order, so every cell gets its contributions in
// the serial order and the sums are the serial ones bit for bit.
#include "fwi/propagator.hpp"
#include "propagator/denormals.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace fwi {
namespace detail {

constexpr std::int64_t parallel_taps = 1 << 14; // about 10 us on one core: more than a team's wake-up

/// The lanes' sums sum_a wz[a] * (sum_b wy[b] * field[a, b, c]) for c < lanes, then weighted by wx.
template <int lanes> float sample_point(const PointStencil& p, const float* field, int width) {
    float acc_z[PointStencil::max_axis_taps] = {};
    for (int a = 0; a < p.z_taps; ++a) {
        float acc_y[PointStencil::max_axis_taps] = {};
        const float* plane = field + p.corner + a * p.z_stride;
        for (int b = 0; b < p.y_taps; ++b) {
            const float w = p.wy[std::size_t(b)];
            const float* row = plane + b * p.y_stride;
            for (int c = 0; c < (lanes > 0 ? lanes : width); ++c)
                acc_y[c] += w * row[c];
        }
        const float w = p.wz[std::size_t(a)];
        for (int c = 0; c < (lanes > 0 ? lanes : width); ++c)
            acc_z[c] += w * acc_y[c];
    }
    float sum = 0;
    for (int c = 0; c < p.x_taps; ++c)
        sum += p.wx[std::size_t(c)] * acc_z[c];
    return sum;
}

} // namespace detail

/// traces[r * trace_length + step] = receiver r's sample of `field`, a padded array whose rows hold
/// `row_cells` cells.
inline void record_points(const std::vector<PointStencil>& points, const float* field, std::int64_t row_cells,
                          float* traces, std::int64_t trace_length, std::int64_t step) {
    constexpr int lanes = PointStencil::max_axis_taps;
    std::int64_t taps = 0;
    for (const PointStencil& p : points)
        taps += p.taps();
    const auto count = std::int64_t(points.size());
#pragma omp parallel if (taps >= detail::parallel_taps)
    {
        flush_denormals(); // as in the kernels: every thread treats tiny values alike
#pragma omp for schedule(static)
        for (std::int64_t r = 0; r < count; ++r) {
            const PointStencil& p = points[std::size_t(r)];
            float sample = 0;
            if (p.taps() > 0) {
                // Eight cells from the corner's x stay in its row unless the box ends at the padded grid.
                const bool whole_lanes = p.corner % row_cells + lanes <= row_cells;
                sample = whole_lanes ? detail::sample_point<lanes>(p, field, lanes)
                                     : detail::sample_point<0>(p, field, p.x_taps);
            }
            traces[r * trace_length + step] = sample;
        }
    }
}

/// field[cell] += scale[cell] * (w * amount) over the point's taps, and also[cell] += w * amount where
/// `also` is given (a gradient snapshot's source term).
inline void inject_point(const PointStencil& p, float amount, float* field, const float* scale,
                         float* also = nullptr) {
    p.for_each_tap([&](std::int64_t cell, float w) {
        const auto i = std::size_t(cell);
        field[i] += scale[i] * (w * amount);
        if (also) also[i] += w * amount;
    });
}

/// field[cell] += scale[cell] * (w * residual[r * trace_length + n]) over every receiver r's taps, for a
/// padded array whose rows hold `row_cells` cells.
inline void inject_residuals(const std::vector<PointStencil>& points, std::span<const float> residual,
                             std::int64_t trace_length, std::int64_t n, float* field, const float* scale,
                             std::int64_t row_cells) {
    std::int64_t taps = 0, first_row = std::numeric_limits<std::int64_t>::max(), last_row = -1;
    for (const PointStencil& p : points) {
        if (p.taps() == 0) continue;
        taps += p.taps();
        first_row = std::min(first_row, p.corner / row_cells);
        last_row = std::max(last_row, p.cell(p.z_taps - 1, p.y_taps - 1, 0) / row_cells);
    }
    if (taps == 0) return;
    const auto count = std::int64_t(points.size());
#pragma omp parallel if (taps >= detail::parallel_taps)
    {
        flush_denormals();
        const std::int64_t threads = omp_get_num_threads(), t = omp_get_thread_num();
        const std::int64_t rows = last_row - first_row + 1;
        const std::int64_t mine_from = first_row + rows * t / threads,
                           mine_to = first_row + rows * (t + 1) / threads; // [mine_from, mine_to)
        for (std::int64_t r = 0; r < count; ++r) {
            const PointStencil& p = points[std::size_t(r)];
            const float amount = residual[std::size_t(r * trace_length + n)];
            for (int a = 0; a < p.z_taps; ++a)
                for (int b = 0; b < p.y_taps; ++b) {
                    const std::int64_t start = p.cell(a, b, 0), row = start / row_cells;
                    if (row < mine_from || row >= mine_to) continue;
                    for (int c = 0; c < p.x_taps; ++c) {
                        const auto i = std::size_t(start + c);
                        field[i] += scale[i] * (p.weight(a, b, c) * amount);
                    }
                }
        }
    }
}

} // namespace fwi
