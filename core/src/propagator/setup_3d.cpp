// The 3D set-up checks, the 3D CFL limit and the 3D Hicks point stencil (padded_grid_3d.hpp).
#include "fwi/error.hpp"
#include "propagator/hicks_axis.hpp"
#include "propagator/padded_grid_3d.hpp"
#include "propagator/scheme_checks.hpp"

#include <cmath>
#include <sstream>

namespace fwi {
namespace {
const char* const kAxis[3] = {"z", "y", "x"};
double extent_m(const Grid3D& g, int axis) {
    return double(g.shape[std::size_t(axis)] - 1) * g.spacing_m[std::size_t(axis)];
}
} // namespace

void validate_propagator_setup_3d(const PropagatorSetup3D& setup) {
    validate_scheme_settings(setup.order, setup.pml_width, setup.dt_s, setup.pml_velocity_mps);
    for (int a = 0; a < 3; ++a) {
        const auto n = setup.grid.shape[std::size_t(a)];
        if (n < 1 || !(setup.grid.spacing_m[std::size_t(a)] > 0))
            throw ConfigError(std::string("grid must have positive shape and spacing (axis ") + kAxis[a] +
                              ")");
        if (n < setup.order)
            throw ConfigError("the model has " + std::to_string(n) + " cells along " + kAxis[a] +
                              ": it must have at least " + std::to_string(setup.order) + " for order " +
                              std::to_string(setup.order));
    }
    const double limit = stable_dt_3d(setup.grid, setup.pml_velocity_mps, 1.0);
    if (setup.dt_s > limit) {
        std::ostringstream m;
        m << "CFL: the inner time step " << setup.dt_s << " s exceeds the 3D stability limit " << limit
          << " s at " << setup.pml_velocity_mps << " m/s";
        throw ConfigError(m.str());
    }
}

double stable_dt_3d(const Grid3D& grid, double max_velocity_mps, double cfl_number) {
    double s = 0;
    for (double h : grid.spacing_m)
        s += 1.0 / (h * h);
    return cfl_number / (max_velocity_mps * std::sqrt(s));
}

PointStencil hicks_stencil_3d(const PaddedGrid3D& grid, double x_m, double y_m, double z_m,
                              const std::string& what) {
    const Grid3D& m = grid.model;
    const double pos[3] = {z_m, y_m, x_m};
    for (int a = 0; a < 3; ++a)
        if (!std::isfinite(pos[a]) || pos[a] < -1e-9 || pos[a] > extent_m(m, a) + 1e-9) {
            std::ostringstream msg;
            msg << what << " at (x=" << x_m << " m, y=" << y_m << " m, z=" << z_m
                << " m) is outside the model [0, " << extent_m(m, 2) << "] x [0, " << extent_m(m, 1)
                << "] x [0, " << extent_m(m, 0) << "] m";
            throw ConfigError(msg.str());
        }
    const auto wz = detail::hicks_axis_weights(z_m / m.spacing_m[0]);
    const auto wy = detail::hicks_axis_weights(y_m / m.spacing_m[1]);
    const auto wx = detail::hicks_axis_weights(x_m / m.spacing_m[2]);
    const std::int64_t o = grid.origin(), h = grid.halo;
    auto inside = [h](std::int64_t p, std::int64_t n) { return p >= h && p < n - h; };
    PointStencil s;
    for (auto [iz, az] : wz)
        for (auto [iy, ay] : wy)
            for (auto [ix, ax] : wx) {
                const std::int64_t pz = iz + o, py = iy + o, px = ix + o;
                // Weights that would fall into the zero halo (tiny PML) are dropped: the halo is never
                // updated.
                if (!inside(pz, grid.nz()) || !inside(py, grid.ny()) || !inside(px, grid.nx())) continue;
                s.cell.push_back(grid.index(pz, py, px));
                s.weight.push_back(float(az * ay * ax));
            }
    return s;
}

} // namespace fwi
