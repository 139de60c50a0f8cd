#pragma once
// The 3D project of the GUI's volume tests (tst_volume_slices, tst_volume_runs): a small block model with
// one shot and five receivers off every axis, so that slices, points and runs have known values.
#include "fwi/project.hpp"

#include <cstdint>

namespace fwi::ui::test {

// 24 x 20 x 28 cells (x, y, z) at 10 m. vp grows with depth, 1500 + 20 iz m/s, except a fast 3000 m/s block
// over ix 6..9, iy 12..15, iz 18..21.
constexpr std::int64_t nx = 24, ny = 20, nz = 28;
constexpr double h = 10.0;
inline bool in_block(std::int64_t iz, std::int64_t iy, std::int64_t ix) {
    return ix >= 6 && ix <= 9 && iy >= 12 && iy <= 15 && iz >= 18 && iz <= 21;
}
inline float background(std::int64_t iz) {
    return float(1500 + 20 * iz);
}
inline Model block_model() {
    Model m;
    m.grid = Grid(nz, ny, nx, h, h, h);
    m.vp_mps.resize(std::size_t(m.grid.cells()));
    for (std::int64_t iz = 0; iz < nz; ++iz)
        for (std::int64_t iy = 0; iy < ny; ++iy)
            for (std::int64_t ix = 0; ix < nx; ++ix)
                m.vp_mps[m.grid.index(iz, iy, ix)] = in_block(iz, iy, ix) ? 3000.0f : background(iz);
    return m;
}

inline Project block_project() {
    Project p;
    Experiment& e = p.experiment;
    e.true_model = block_model();
    e.initial_model = e.true_model;
    for (float& v : e.initial_model.vp_mps)
        v = 1500.0f;
    Shot shot;
    shot.source = {115, 20, 95}; // x, z, y
    for (int i = 0; i < 5; ++i)
        shot.receivers.push_back({20.0 + 45.0 * i, 20, 60.0 + 20.0 * i});
    e.acquisition.shots = {shot};
    e.propagation.order = 4;
    e.propagation.pml_width = 6;
    e.propagation.freq_hz = 20;
    e.propagation.dt_s = 0.002;
    e.propagation.nt = 2000;
    return p;
}

} // namespace fwi::ui::test
