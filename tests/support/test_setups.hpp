#pragma once
// Small experiments shared by the engine tests.
#include "fwi/acquisition.hpp"
#include "fwi/model.hpp"
#include "fwi/settings.hpp"

#include <cmath>
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
