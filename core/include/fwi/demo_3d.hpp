#pragma once
// The 3D demo's experiment, shared by `fwi demo --3d` and the GUI's "3D Marmousi-II" demo, so that both run
// the same problem: Marmousi-II extruded along y at 40 m (88 x ny x 251 cells; marmousi2_3d), the true and
// the smooth starting model, `shots` sources 80 m deep (one in the middle, several along x at mid-y), a
// 50 x 20 receiver grid over the whole surface at the same depth, order 8, C-PML 15 cells, a `freq_hz`
// Ricker wavelet, `duration_s` sampled at 4 ms, schedule "auto" without a budget (the caller sets one), and
// a gradient snapshot every inner step per data sample (the data hold nothing above their Nyquist frequency,
// so the snapshots in between add nothing the misfit can see).
#include "fwi/project.hpp"

#include <cstdint>

namespace fwi {

struct Demo3DShape {
    std::int64_t ny = 64; ///< cells across (40 m each); 64 keeps every snapshot over 10 GB at 3.5 s
    int shots = 1;        ///< >= 1
    double freq_hz = 3;   ///< peak frequency
    double duration_s = 3.5;
};

/// Throws ConfigError for ny < 8, shots < 1, or a non-positive frequency or duration.
Experiment demo_3d_experiment(const Demo3DShape& shape = {});

} // namespace fwi
