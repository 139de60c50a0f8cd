#pragma once
// Small 3D experiments for the 3D propagator tests (they reach CpuPropagator3D's class through core/src).
#include "fwi/acquisition.hpp"
#include "propagator/cpu_propagator_3d.hpp"
#include "test_setups.hpp"

#include <cmath>
#include <memory>
#include <vector>

namespace fwi::test {

/// A point written (x, y, z), as these tests were; fwi::Point is {x, z, y} so that 2D points stay {x, z}.
struct Point3D {
    double x_m = 0, y_m = 0, z_m = 0;
    Point point() const { return Point{x_m, z_m, y_m}; }
};

struct Experiment3D {
    std::unique_ptr<CpuPropagator3D> propagator;
    ShotGeometry geometry;
    std::vector<float> source; ///< inner-rate wavelet
    std::int64_t nt = 0;
};

/// A propagator on `grid` with model `vp`, one source and some receivers, a Ricker of `freq_hz` over nt
/// steps.
inline Experiment3D experiment_3d(const Grid& grid, const std::vector<float>& vp, int order, int pml,
                                  double dt_s, std::int64_t nt, double freq_hz, Point3D src,
                                  const std::vector<Point3D>& receivers, double v_ref = 3000) {
    PropagatorSetup s;
    s.grid = grid;
    s.order = order;
    s.pml_width = pml;
    s.dt_s = dt_s;
    s.pml_velocity_mps = v_ref;
    s.freq_hz = freq_hz;
    Experiment3D e;
    e.propagator = std::make_unique<CpuPropagator3D>(s);
    e.propagator->set_model(Model{grid, vp});
    const PaddedGrid& p = e.propagator->padded();
    e.geometry.source = hicks_stencil(p, src.point(), "source");
    for (const auto& r : receivers)
        e.geometry.receivers.push_back(hicks_stencil(p, r.point(), "receiver"));
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
