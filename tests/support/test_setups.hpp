#pragma once
// Small experiments shared by the engine tests.
#include "fwi/acquisition.hpp"
#include "fwi/model.hpp"
#include "fwi/propagator.hpp"
#include "fwi/settings.hpp"

#include <cmath>
#include <random>
#include <span>
#include <vector>

namespace fwi::test {

inline Model constant_model(std::int64_t nz, std::int64_t nx, double h, float v) {
    Model m;
    m.grid = Grid(nz, nx, h, h);
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

/// A homogeneous 3D model's velocities.
inline std::vector<float> constant_model_3d(const Grid& g, float v) {
    return std::vector<float>(std::size_t(g.cells()), v);
}

/// A smooth heterogeneous 3D model's velocities: a gradient in z plus a Gaussian blob off the centre (no grid
/// symmetry).
inline std::vector<float> blob_model_3d(const Grid& g) {
    std::vector<float> v(std::size_t(g.cells()));
    const auto nz = g.nz(), ny = g.ny(), nx = g.nx();
    for (std::int64_t iz = 0; iz < nz; ++iz)
        for (std::int64_t iy = 0; iy < ny; ++iy)
            for (std::int64_t ix = 0; ix < nx; ++ix) {
                const double z = double(iz) / double(nz), y = double(iy) / double(ny),
                             x = double(ix) / double(nx);
                const double d2 = (x - 0.55) * (x - 0.55) + (y - 0.45) * (y - 0.45) + (z - 0.6) * (z - 0.6);
                v[g.index(iz, iy, ix)] = float(1800 + 600 * z + 300 * std::exp(-d2 / 0.03));
            }
    return v;
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

inline Acquisition one_shot(Point source, std::vector<Point> receivers) {
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

/// The gradient of <d(m), residual> with respect to v (the residual, receivers x nt, is the adjoint source),
/// every snapshot kept: the plain reference the checkpointing engine must reproduce.
inline std::vector<float> direct_gradient(Propagator& p, const ShotGeometry& geometry,
                                          std::span<const float> source, std::int64_t nt,
                                          std::span<const float> residual) {
    const auto cells = std::size_t(p.padded().cells());
    std::vector<std::vector<float>> snapshots(static_cast<std::size_t>(nt), std::vector<float>(cells));
    auto state = p.new_state();
    for (std::int64_t n = 0; n < nt; ++n)
        p.forward_with_snapshot(*state, geometry, source, nullptr, nt, snapshots[std::size_t(n)].data());
    auto adj = p.new_adjoint_state();
    adj->step = nt;
    for (std::int64_t n = nt - 1; n >= 0; --n)
        p.adjoint(*adj, geometry, residual, nt, snapshots[std::size_t(n)].data(), 1.0f);
    std::vector<float> g(std::size_t(p.padded().model.cells()), 0.0f);
    p.take_velocity_gradient(g);
    return g;
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
