#pragma once
// Small 3D experiments for the 3D propagator tests (CpuPropagator3D is internal: these tests include
// core/src).
#include "fwi/acquisition.hpp"
#include "propagator/cpu_propagator_3d.hpp"

#include <cmath>
#include <memory>
#include <vector>

namespace fwi::test {

struct Point3D {
    double x_m = 0, y_m = 0, z_m = 0;
};

/// A homogeneous 3D model on cubic cells of size h.
inline std::vector<float> constant_model_3d(const Grid3D& g, float v) {
    return std::vector<float>(std::size_t(g.cells()), v);
}

/// A smooth heterogeneous 3D model: a gradient in z plus a Gaussian blob off the centre (no grid symmetry).
inline std::vector<float> blob_model_3d(const Grid3D& g) {
    std::vector<float> v(std::size_t(g.cells()));
    const auto nz = g.shape[0], ny = g.shape[1], nx = g.shape[2];
    for (std::int64_t iz = 0; iz < nz; ++iz)
        for (std::int64_t iy = 0; iy < ny; ++iy)
            for (std::int64_t ix = 0; ix < nx; ++ix) {
                const double z = double(iz) / double(nz), y = double(iy) / double(ny),
                             x = double(ix) / double(nx);
                const double d2 = (x - 0.55) * (x - 0.55) + (y - 0.45) * (y - 0.45) + (z - 0.6) * (z - 0.6);
                v[std::size_t((iz * ny + iy) * nx + ix)] = float(1800 + 600 * z + 300 * std::exp(-d2 / 0.03));
            }
    return v;
}

struct Experiment3D {
    std::unique_ptr<CpuPropagator3D> propagator;
    ShotGeometry geometry;
    std::vector<float> source; ///< inner-rate wavelet
    std::int64_t nt = 0;
};

/// A propagator on `grid` with model `vp`, one source and some receivers, a Ricker of `freq_hz` over nt
/// steps.
inline Experiment3D experiment_3d(const Grid3D& grid, const std::vector<float>& vp, int order, int pml,
                                  double dt_s, std::int64_t nt, double freq_hz, Point3D src,
                                  const std::vector<Point3D>& receivers, double v_ref = 3000) {
    PropagatorSetup3D s;
    s.grid = grid;
    s.order = order;
    s.pml_width = pml;
    s.dt_s = dt_s;
    s.pml_velocity_mps = v_ref;
    s.freq_hz = freq_hz;
    Experiment3D e;
    e.propagator = std::make_unique<CpuPropagator3D>(s);
    e.propagator->set_model(vp);
    const PaddedGrid3D& p = e.propagator->padded();
    e.geometry.source = hicks_stencil_3d(p, src.x_m, src.y_m, src.z_m, "source");
    for (const auto& r : receivers)
        e.geometry.receivers.push_back(hicks_stencil_3d(p, r.x_m, r.y_m, r.z_m, "receiver"));
    e.source = ricker(freq_hz, dt_s, nt);
    e.nt = nt;
    return e;
}

/// Forward modelling of all nt steps: traces (receivers x nt).
inline std::vector<float> forward_traces(Experiment3D& e, std::span<const float> source) {
    std::vector<float> traces(e.geometry.receivers.size() * std::size_t(e.nt));
    auto state = e.propagator->new_state();
    e.propagator->forward(*state, e.nt, e.geometry, source, traces.data(), e.nt);
    return traces;
}

} // namespace fwi::test
