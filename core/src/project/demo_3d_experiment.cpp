#include "fwi/demo_3d.hpp"

#include "fwi/error.hpp"
#include "fwi/model_tools.hpp"
#include "fwi/project_tools.hpp"
#include "fwi/time_axis.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace fwi {

namespace {
constexpr double demo_spacing_m = 40;
constexpr double demo_dt_s = 0.004;
} // namespace

Experiment demo_3d_experiment(const Demo3DShape& shape) {
    if (shape.ny < 8)
        throw ConfigError("3D demo: ny must be at least 8 cells, not " + std::to_string(shape.ny));
    if (shape.shots < 1) throw ConfigError("3D demo: at least one shot");
    if (!(shape.freq_hz > 0) || !(shape.duration_s > 0) || !std::isfinite(shape.freq_hz) ||
        !std::isfinite(shape.duration_s))
        throw ConfigError("3D demo: frequency and duration must be positive");
    Experiment e;
    e.true_model = marmousi2_3d(shape.ny, demo_spacing_m, "true");
    e.initial_model = marmousi2_3d(shape.ny, demo_spacing_m, "smooth");
    e.current_model = e.initial_model;
    const Grid& g = e.true_model.grid;
    const double surface = 2 * g.dz();
    // One shot in the middle, or a line of them along x at mid-y.
    const bool line = shape.shots > 1;
    PointGrid sources;
    sources.count_x = shape.shots;
    sources.x0_m = (line ? 0.2 : 0.5) * g.width_m();
    sources.x1_m = (line ? 0.8 : 0.5) * g.width_m();
    sources.y0_m = sources.y1_m = 0.5 * g.breadth_m();
    sources.z_m = surface;
    e.acquisition = fixed_spread(grid_of_points(sources),
                                 grid_of_points({50, 20, 0, g.width_m(), 0, g.breadth_m(), surface}));
    e.propagation.order = 8;
    e.propagation.pml_width = 15;
    e.propagation.freq_hz = shape.freq_hz;
    e.propagation.dt_s = demo_dt_s;
    e.propagation.nt = std::int64_t(shape.duration_s / demo_dt_s) + 1;
    e.gradient.schedule = "auto";
    e.gradient.compression = "none";
    // The simulation's own time axis (make_simulation uses the same reference velocity).
    e.gradient.sampling_interval = make_time_axis(g, reference_velocity(e), e.propagation).step_ratio;
    const auto [lo, hi] = std::minmax_element(e.true_model.vp_mps.begin(), e.true_model.vp_mps.end());
    e.inversion.min_velocity_mps = std::floor(double(*lo));
    e.inversion.max_velocity_mps = std::ceil(double(*hi));
    return e;
}

} // namespace fwi
