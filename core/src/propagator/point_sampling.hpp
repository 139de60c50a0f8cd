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
// are injected by dealing bands of grid rows round the team: a thread adds only the taps in its rows, going
// through the receivers in order, so every cell gets its contributions in the serial order and the sums are
// the serial ones bit for bit.
// DENSE SURVEYS: a receiver's trace is a row of its own (traces[r * trace_length + n]), so a forward call's
// samples and an adjoint sweep's residual samples pass through step-major blocks (forward_recording,
// residual_amounts): one page touched per receiver per block rather than per step.
#include "fwi/propagator.hpp"
#include "propagator/denormals.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace fwi {
namespace detail {

constexpr std::int64_t parallel_taps = 1 << 14; // about 10 us on one core: more than a team's wake-up
// Surveys of this many receivers or more pass their samples through step-major blocks of at most
// stage_floats floats (16 MiB) or two steps (forward_recording, residual_amounts).
constexpr std::int64_t staged_receivers = 64;
constexpr std::int64_t stage_floats = std::int64_t(1) << 22;

/// to[r * to_receiver + k * to_step] = from[r * from_receiver + k * from_step] for `receivers` x `steps`
/// samples: a block between the traces' receiver-major rows and a stage's step-major ones, over the team
/// for large blocks, one receiver's samples after another.
inline void copy_samples(const float* from, std::int64_t from_receiver, std::int64_t from_step, float* to,
                         std::int64_t to_receiver, std::int64_t to_step, std::int64_t receivers,
                         std::int64_t steps) {
#pragma omp parallel for schedule(static) if (receivers * steps >= parallel_taps)
    for (std::int64_t r = 0; r < receivers; ++r)
        for (std::int64_t k = 0; k < steps; ++k)
            to[r * to_receiver + k * to_step] = from[r * from_receiver + k * from_step];
}

/// The lanes' sums sum_a wz[a] * (sum_b wy[b] * field[a, b, c]) for c < width, then weighted by wx.
inline float sample_point_narrow(const PointStencil& p, const float* field, int width) {
    float acc_z[PointStencil::max_axis_taps] = {};
    for (int a = 0; a < p.z_taps; ++a) {
        float acc_y[PointStencil::max_axis_taps] = {};
        const float* plane = field + p.corner + a * p.z_stride;
        for (int b = 0; b < p.y_taps; ++b) {
            const float w = p.wy[std::size_t(b)];
            const float* row = plane + b * p.y_stride;
            for (int c = 0; c < width; ++c)
                acc_y[c] += w * row[c];
        }
        const float w = p.wz[std::size_t(a)];
        for (int c = 0; c < width; ++c)
            acc_z[c] += w * acc_y[c];
    }
    float sum = 0;
    for (int c = 0; c < p.x_taps; ++c)
        sum += p.wx[std::size_t(c)] * acc_z[c];
    return sum;
}

/// The same sums where eight cells from the corner's x stay in its row: each box row is one vector load and
/// one multiply-add of eight lanes (GCC kept the array form above as eight scalar multiply-adds). Lane by
/// lane the operations are those of sample_point_narrow, so the two give the same bits.
inline float sample_point_wide(const PointStencil& p, const float* field) {
    using Lanes = float __attribute__((vector_size(PointStencil::max_axis_taps * sizeof(float))));
    Lanes acc_z = {};
    for (int a = 0; a < p.z_taps; ++a) {
        Lanes acc_y = {};
        const float* plane = field + p.corner + a * p.z_stride;
        for (int b = 0; b < p.y_taps; ++b) {
            Lanes row;
            std::memcpy(&row, plane + b * p.y_stride, sizeof row); // unaligned load
            acc_y += p.wy[std::size_t(b)] * row;
        }
        acc_z += p.wz[std::size_t(a)] * acc_y;
    }
    float sum = 0;
    for (int c = 0; c < p.x_taps; ++c)
        sum += p.wx[std::size_t(c)] * acc_z[c];
    return sum;
}

/// The first box that has taps (points in the halo have none): a survey's boxes are alike, so that its
/// taps times the count is the work, and its strides are every box's. Summing every box's taps read each
/// stencil once more per step, 13% of a 10^5-receiver run. nullptr when no box has taps.
inline const PointStencil* typical_box(const std::vector<PointStencil>& points) {
    for (const PointStencil& p : points)
        if (p.taps() > 0) return &p;
    return nullptr;
}

} // namespace detail

/// out[r * receiver_stride] = receiver r's sample of `field`, the padded array the stencils index (a trace
/// sample: out = traces + step, receiver_stride = trace_length; a row of a step-major block: stride 1).
inline void record_points(const std::vector<PointStencil>& points, const float* field, float* out,
                          std::int64_t receiver_stride) {
    constexpr int lanes = PointStencil::max_axis_taps;
    const auto count = std::int64_t(points.size());
    const PointStencil* typical = detail::typical_box(points);
    const std::int64_t taps = typical ? count * typical->taps() : 0;
#pragma omp parallel if (taps >= detail::parallel_taps)
    {
        flush_denormals(); // as in the kernels: every thread treats tiny values alike
#pragma omp for schedule(static)
        for (std::int64_t r = 0; r < count; ++r) {
            const PointStencil& p = points[std::size_t(r)];
            float sample = 0;
            if (p.taps() > 0)
                sample = p.row_cells_from_corner >= lanes ? detail::sample_point_wide(p, field)
                                                          : detail::sample_point_narrow(p, field, p.x_taps);
            out[r * receiver_stride] = sample;
        }
    }
}

/// A forward call of `count` steps from `first_step`: advance() makes one step without recording, and before
/// each, the samples of field_now() (the state's u) at steps below trace_length go to
/// traces[r * trace_length + step]. Each receiver's trace is a row of its own, so a sample per receiver and
/// step written there straight touched a cache line and a page per receiver: with 10^5 receivers that took
/// half a forward run's time. Dense surveys therefore record each step into one contiguous row of a
/// step-major block (at most `stage_floats` floats or two steps, reused through `stage`) and copy the block
/// into the traces once per block: a receiver's samples of the block together. The samples are the same bits
/// either way.
template <class FieldNow, class Advance>
void forward_recording(const std::vector<PointStencil>& receivers, float* traces, std::int64_t trace_length,
                       std::int64_t first_step, std::int64_t count, std::vector<float>& stage,
                       FieldNow&& field_now, Advance&& advance,
                       std::int64_t stage_floats = detail::stage_floats) {
    const auto nrec = std::int64_t(receivers.size());
    const std::int64_t recorded = traces ? std::clamp<std::int64_t>(trace_length - first_step, 0, count) : 0;
    if (recorded < 2 || nrec < detail::staged_receivers) {
        for (std::int64_t k = 0; k < count; ++k) {
            if (k < recorded) record_points(receivers, field_now(), traces + first_step + k, trace_length);
            advance();
        }
        return;
    }
    const std::int64_t block = std::max<std::int64_t>(2, stage_floats / nrec);
    stage.resize(std::size_t(std::min(block, recorded) * nrec));
    for (std::int64_t k0 = 0; k0 < count; k0 += block) {
        const std::int64_t k1 = std::min(count, k0 + block),
                           rows = std::max<std::int64_t>(0, std::min(k1, recorded) - k0);
        for (std::int64_t k = k0; k < k1; ++k) {
            if (k < recorded) record_points(receivers, field_now(), stage.data() + (k - k0) * nrec, 1);
            advance();
        }
        detail::copy_samples(stage.data(), 1, nrec, traces + first_step + k0, trace_length, 1, nrec, rows);
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

/// field[cell] += scale[cell] * (w * amounts[r * amount_stride]) over every receiver r's taps.
inline void inject_residuals(const std::vector<PointStencil>& points, const float* amounts,
                             std::int64_t amount_stride, float* field, const float* scale) {
    const auto count = std::int64_t(points.size());
    const PointStencil* typical = detail::typical_box(points);
    if (!typical) return;
    const std::int64_t taps = count * typical->taps();
    // Bands of four rows dealt round the team (a power of two of its threads, so that no division is made per
    // row): every cell has one thread, which adds its receivers' taps in order. Box row (a, b) is grid row
    // p.row + a * plane_rows + b.
    const std::int64_t plane_rows = typical->z_stride / typical->y_stride;
#pragma omp parallel if (taps >= detail::parallel_taps)
    {
        flush_denormals();
        std::int64_t owners = 1;
        while (owners * 2 <= omp_get_num_threads())
            owners *= 2;
        const std::int64_t t = omp_get_thread_num(), mask = owners - 1;
        for (std::int64_t r = 0; t < owners && r < count; ++r) {
            const PointStencil& p = points[std::size_t(r)];
            if (p.taps() == 0) continue;
            const float amount = amounts[r * amount_stride];
            for (int a = 0; a < p.z_taps; ++a)
                for (int b = 0; b < p.y_taps; ++b) {
                    if (owners > 1 && (((p.row + a * plane_rows + b) >> 2) & mask) != t) continue;
                    const std::int64_t start = p.cell(a, b, 0);
                    for (int c = 0; c < p.x_taps; ++c) {
                        const auto i = std::size_t(start + c);
                        field[i] += scale[i] * (p.weight(a, b, c) * amount);
                    }
                }
        }
    }
}

/// An adjoint sweep's residual samples, step-major. The residual is receiver-major (residual[r * trace_length
/// + n]), and the sweep takes one step n per call, descending: read straight, every receiver's sample was a
/// cache line and a page of its own per step (a strided read, 20% of a 10^5-receiver gradient). A stage
/// holds a block of steps for every receiver, filled once per block, one receiver's samples of the block
/// together; it lives in the adjoint state and is refilled whenever a call is not the sweep's next step or
/// names another residual.
struct ResidualStage {
    const float* residual = nullptr;
    std::size_t residual_size = 0;
    std::int64_t trace_length = 0, first = 0, steps = 0, last_n = -1;
    std::vector<float> rows; ///< rows[(n - first) * receivers + r]
};

/// Receiver r's residual sample n at amounts[r * stride] (stride is set): the stage's row for dense surveys,
/// else the residual itself.
inline const float* residual_amounts(ResidualStage& stage, std::span<const float> residual,
                                     std::int64_t trace_length, std::int64_t n, std::int64_t receivers,
                                     std::int64_t& stride, std::int64_t stage_floats = detail::stage_floats) {
    if (receivers < detail::staged_receivers) {
        stride = trace_length;
        return residual.data() + n;
    }
    const bool same = stage.residual == residual.data() && stage.residual_size == residual.size() &&
                      stage.trace_length == trace_length && n == stage.last_n - 1 && n >= stage.first &&
                      n < stage.first + stage.steps;
    if (!same) {
        const std::int64_t block = std::max<std::int64_t>(2, stage_floats / receivers);
        stage.first = std::max<std::int64_t>(0, n - block + 1);
        stage.steps = n + 1 - stage.first;
        stage.rows.resize(std::size_t(stage.steps * receivers));
        detail::copy_samples(residual.data() + stage.first, trace_length, 1, stage.rows.data(), 1, receivers,
                             receivers, stage.steps);
        stage.residual = residual.data();
        stage.residual_size = residual.size();
        stage.trace_length = trace_length;
    }
    stage.last_n = n;
    stride = 1;
    return stage.rows.data() + (n - stage.first) * receivers;
}

} // namespace fwi
