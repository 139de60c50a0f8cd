#pragma once
// Small experiments shared by the engine tests.
#include "fwi/acquisition.hpp"
#include "fwi/model.hpp"
#include "fwi/settings.hpp"

#include <cmath>
#include <random>
#include <vector>

namespace fwi::test {

inline Model constant_model(std::int64_t nz, std::int64_t nx, double h, float v) {
    Model m;
    m.grid = Grid2D(nz, nx, h, h);
    m.vp_mps.assign(std::size_t(nz * nx), v);
    return m;
}

/// A smooth heterogeneous model: a linear gradient plus a Gaussian blob (no grid-aligned symmetry).
inline Model blob_model(std::int64_t nz, std::int64_t nx, double h) {
    Model m = constant_model(nz, nx, h, 0);
    for (std::int64_t iz = 0; iz < nz; ++iz)
        for (std::int64_t ix = 0; ix < nx; ++ix) {
            const double x = double(ix) / double(nx), z = double(iz) / double(nz);
            const double blob = std::exp(-((x - 0.55) * (x - 0.55) + (z - 0.6) * (z - 0.6)) / 0.02);
            m.vp_mps[m.grid.index(iz, ix)] = float(1800 + 600 * z + 300 * blob);
        }
    return m;
}

inline PropagationSettings settings(int order, double freq_hz, double dt_s, std::int64_t nt, int pml = 20) {
    PropagationSettings s;
    s.order = order;
    s.freq_hz = freq_hz;
    s.dt_s = dt_s;
    s.nt = nt;
    s.pml_width = pml;
    return s;
}

inline Acquisition one_shot(Point2D source, std::vector<Point2D> receivers) {
    Acquisition a;
    a.shots.push_back({source, std::move(receivers)});
    return a;
}

/// n samples of N(0, 1) from mt19937(seed).
inline std::vector<float> normal_noise(std::size_t n, unsigned seed) {
    std::mt19937 gen(seed);
    std::normal_distribution<float> d(0, 1);
    std::vector<float> v(n);
    for (auto& x : v)
        x = d(gen);
    return v;
}

/// rows x cols of normal noise smoothed by a [1 2 1]/4 filter applied `passes` times along the rows
/// (band-limited noise: adjoint tests then probe the operator where the physics lives, not float32
/// cancellation at the grid Nyquist).
inline std::vector<float> smoothed_noise(std::int64_t rows, std::int64_t cols, unsigned seed, int passes) {
    auto v = normal_noise(std::size_t(rows * cols), seed);
    for (int p = 0; p < passes; ++p)
        for (std::int64_t r = 0; r < rows; ++r) {
            float* row = v.data() + r * cols;
            float prev = 0, cur = row[0];
            for (std::int64_t c = 0; c < cols; ++c) {
                const float next = c + 1 < cols ? row[c + 1] : 0.0f;
                row[c] = 0.25f * prev + 0.5f * cur + 0.25f * next;
                prev = cur;
                cur = next;
            }
        }
    return v;
}

inline double dot(const std::vector<float>& a, const std::vector<float>& b) {
    double s = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        s += double(a[i]) * double(b[i]);
    return s;
}

inline double relative_l2(const std::vector<float>& a, const std::vector<float>& b) {
    double num = 0, den = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        num += (double(a[i]) - b[i]) * (double(a[i]) - b[i]);
        den += double(b[i]) * b[i];
    }
    return std::sqrt(num / den);
}

} // namespace fwi::test
