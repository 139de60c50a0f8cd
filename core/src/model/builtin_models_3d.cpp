// The synthetic 3D models (dipping layers, a salt-like body) and Marmousi-II extruded along y.
#include "model/builtin_models_3d.hpp"
#include "fwi/error.hpp"
#include "fwi/model_tools.hpp"
#include "fwi/resources.hpp"
#include "model/blank_model.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>

namespace fwi {
namespace {

using detail::check_velocity;

// 3D teaching defaults: 0.6 km deep, 0.8 km x 0.8 km at 10 m (394k cells): a 3D gradient in seconds to
// minutes on a desktop.
constexpr std::int64_t teach3d_nz = 61, teach3d_ny = 81, teach3d_nx = 81;
constexpr double teach3d_spacing_m = 10.0;
// Marmousi-II in 3D: resampled to 40 m (88 x 251 cells in z, x) and extruded over 48 inlines (1.88 km):
// 1.06 M cells.
constexpr std::int64_t marmousi2_3d_ny = 48;
constexpr double marmousi2_3d_spacing_m = 40.0;

double radians(double degrees) {
    return degrees * std::numbers::pi / 180.0;
}

/// The raised-cosine fraction (1 inside, 0 outside) at signed distance `outside_m` past a boundary, over a
/// ramp of `edge_m` centred on it; a sharp step when edge_m is 0.
double inside_fraction(double outside_m, double edge_m) {
    if (edge_m <= 0) return outside_m <= 0 ? 1.0 : 0.0;
    const double t = std::clamp((outside_m + edge_m / 2) / edge_m, 0.0, 1.0);
    return 0.5 * (1.0 + std::cos(std::numbers::pi * t));
}

} // namespace

Model layered_model_3d(std::int64_t nz, std::int64_t ny, std::int64_t nx, double dz_m, double dy_m,
                       double dx_m, const std::vector<double>& velocities_mps,
                       const std::vector<double>& interface_depths_m, double dip_x_deg, double dip_y_deg) {
    const char* what = "layered 3D model";
    Model m = detail::blank_model(Grid(nz, ny, nx, dz_m, dy_m, dx_m), what);
    if (velocities_mps.size() != interface_depths_m.size() + 1) {
        std::ostringstream msg;
        msg << what << ": " << velocities_mps.size() << " velocities for " << interface_depths_m.size()
            << " interfaces (need one more velocity than interfaces)";
        throw ConfigError(msg.str());
    }
    for (double v : velocities_mps)
        check_velocity(v, what, "layer velocity");
    for (std::size_t k = 0; k < interface_depths_m.size(); ++k)
        if (!std::isfinite(interface_depths_m[k]) ||
            (k > 0 && !(interface_depths_m[k] > interface_depths_m[k - 1]))) {
            std::ostringstream msg;
            msg << what << ": interface " << k << " at " << interface_depths_m[k]
                << " m must be finite and deeper than the one above";
            throw ConfigError(msg.str());
        }
    if (!(std::abs(dip_x_deg) <= 60) || !(std::abs(dip_y_deg) <= 60)) {
        std::ostringstream msg;
        msg << what << ": dips (" << dip_x_deg << ", " << dip_y_deg << ") degrees must be within +-60";
        throw ConfigError(msg.str());
    }
    // Parallel planes: interface k lies at depth interface_depths_m[k] + shift(x, y), the shift being 0 at
    // the centre of the (x, y) extent, so the layers keep their given depths there and never cross.
    const double slope_x = std::tan(radians(dip_x_deg)), slope_y = std::tan(radians(dip_y_deg));
    const double xc = m.grid.width_m() / 2, yc = m.grid.breadth_m() / 2;
    for (std::int64_t iy = 0; iy < ny; ++iy)
        for (std::int64_t ix = 0; ix < nx; ++ix) {
            const double shift = slope_x * (double(ix) * dx_m - xc) + slope_y * (double(iy) * dy_m - yc);
            for (std::int64_t iz = 0; iz < nz; ++iz) {
                const double z = double(iz) * dz_m - shift;
                std::size_t layer = 0;
                while (layer < interface_depths_m.size() && z >= interface_depths_m[layer])
                    ++layer;
                m.vp_mps[m.grid.index(iz, iy, ix)] = float(velocities_mps[layer]);
            }
        }
    return m;
}

Model salt_model_3d(std::int64_t nz, std::int64_t ny, std::int64_t nx, double dz_m, double dy_m, double dx_m,
                    double v_top_mps, double v_bottom_mps, double salt_mps, double smooth_edge_m) {
    const char* what = "salt 3D model";
    Model m = detail::blank_model(Grid(nz, ny, nx, dz_m, dy_m, dx_m), what);
    check_velocity(v_top_mps, what, "top velocity");
    check_velocity(v_bottom_mps, what, "bottom velocity");
    check_velocity(salt_mps, what, "salt velocity");
    if (!(smooth_edge_m >= 0) || !std::isfinite(smooth_edge_m)) {
        std::ostringstream msg;
        msg << what << ": edge " << smooth_edge_m << " m must be finite and non-negative";
        throw ConfigError(msg.str());
    }
    const Grid& g = m.grid;
    // An ellipsoid about the volume's centre at 55% of the depth whose radius varies with direction: wider
    // above the centre than below (a cap over a stem, as a diapir) and with three lobes around the vertical
    // axis, turned so that the body is mirror-symmetric neither in x nor in y.
    const double xc = g.width_m() / 2, yc = g.breadth_m() / 2, zc = 0.55 * g.depth_m();
    const double ax = 0.28 * std::max(g.width_m(), dx_m), ay = 0.28 * std::max(g.breadth_m(), dy_m);
    const double az = 0.25 * std::max(g.depth_m(), dz_m);
    const double scale_m = std::cbrt(ax * ay * az); // turns the normalised radius into metres for the edge
    for (std::int64_t iz = 0; iz < nz; ++iz) {
        const double z = double(iz) * dz_m;
        const double background =
            v_top_mps + (g.depth_m() > 0 ? z / g.depth_m() : 0.0) * (v_bottom_mps - v_top_mps);
        for (std::int64_t iy = 0; iy < ny; ++iy)
            for (std::int64_t ix = 0; ix < nx; ++ix) {
                const double px = (double(ix) * dx_m - xc) / ax, py = (double(iy) * dy_m - yc) / ay;
                const double pz = (z - zc) / az;
                const double rho = std::sqrt(px * px + py * py + pz * pz);
                const double down = rho > 0 ? pz / rho : 0.0; // cosine of the angle from the downward axis
                const double boundary =
                    1.0 + 0.15 * std::sin(3.0 * std::atan2(py, px) + 0.7) * (1.0 - down * down) - 0.2 * down;
                const double inside = inside_fraction((rho - boundary) * scale_m, smooth_edge_m);
                m.vp_mps[g.index(iz, iy, ix)] = float(background + inside * (salt_mps - background));
            }
    }
    return m;
}

Model extrude_model_y(const Model& model, std::int64_t ny, double dy_m) {
    validate_model(model, "model to extrude");
    if (model.grid.rank != 2) throw ConfigError("extrude along y: the model is already 3D");
    const Grid& g = model.grid;
    Model m = detail::blank_model(Grid(g.nz(), ny, g.nx(), g.dz(), dy_m, g.dx()), "extruded 3D model");
    for (std::int64_t iz = 0; iz < g.nz(); ++iz)
        for (std::int64_t iy = 0; iy < ny; ++iy)
            std::copy_n(model.vp_mps.begin() + std::ptrdiff_t(g.index(iz, 0)), g.nx(),
                        m.vp_mps.begin() + std::ptrdiff_t(m.grid.index(iz, iy, 0)));
    return m;
}

Model marmousi2_3d(std::int64_t ny, double spacing_m, const std::string& which) {
    if (!(spacing_m > 0) || !std::isfinite(spacing_m)) {
        std::ostringstream msg;
        msg << "Marmousi-II 3D: spacing " << spacing_m << " m must be positive and finite";
        throw ConfigError(msg.str());
    }
    return extrude_model_y(resample_model(load_marmousi2(which), spacing_m, spacing_m), ny, spacing_m);
}

namespace detail {

Model builtin_model_3d(const std::string& name) {
    const auto n = teach3d_nz, y = teach3d_ny, x = teach3d_nx;
    const double d = teach3d_spacing_m;
    if (name == "layered3d")
        return layered_model_3d(n, y, x, d, d, d, {1500, 2000, 2500, 3000}, {150, 300, 450}, 8, 4);
    if (name == "salt3d") return salt_model_3d(n, y, x, d, d, d, 1800, 3200, 4500, 40);
    if (name == "marmousi2-3d") return marmousi2_3d(marmousi2_3d_ny, marmousi2_3d_spacing_m);
    return {};
}

} // namespace detail
} // namespace fwi
