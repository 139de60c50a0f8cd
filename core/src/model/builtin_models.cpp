// The synthetic 2D teaching models and the name table that also reaches the shipped benchmark models and the
// 3D models (builtin_models_3d.cpp).
#include "fwi/error.hpp"
#include "fwi/model_tools.hpp"
#include "fwi/resources.hpp"
#include "model/blank_model.hpp"
#include "model/builtin_models_3d.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>

namespace fwi {
namespace {

Model empty_model(std::int64_t nz, std::int64_t nx, double dz_m, double dx_m, const char* what) {
    return detail::blank_model(Grid(nz, nx, dz_m, dx_m), what);
}

using detail::check_velocity;

// Teaching defaults: 2 km x 1 km at 10 m, small enough to run a full inversion in seconds.
constexpr std::int64_t teach_nz = 101, teach_nx = 201;
constexpr double teach_spacing_m = 10.0;

} // namespace

Model layered_model(std::int64_t nz, std::int64_t nx, double dz_m, double dx_m,
                    const std::vector<double>& velocities_mps,
                    const std::vector<double>& interface_depths_m) {
    Model m = empty_model(nz, nx, dz_m, dx_m, "layered model");
    if (velocities_mps.size() != interface_depths_m.size() + 1) {
        std::ostringstream msg;
        msg << "layered model: " << velocities_mps.size() << " velocities for " << interface_depths_m.size()
            << " interfaces (need one more velocity than interfaces)";
        throw ConfigError(msg.str());
    }
    for (double v : velocities_mps)
        check_velocity(v, "layered model", "layer velocity");
    for (std::size_t k = 0; k < interface_depths_m.size(); ++k) {
        if (!std::isfinite(interface_depths_m[k]) ||
            (k > 0 && !(interface_depths_m[k] > interface_depths_m[k - 1]))) {
            std::ostringstream msg;
            msg << "layered model: interface " << k << " at " << interface_depths_m[k]
                << " m must be finite and deeper than the one above";
            throw ConfigError(msg.str());
        }
    }
    for (std::int64_t iz = 0; iz < nz; ++iz) {
        const double z = double(iz) * dz_m;
        std::size_t layer = 0;
        while (layer < interface_depths_m.size() && z >= interface_depths_m[layer])
            ++layer;
        const float v = float(velocities_mps[layer]);
        for (std::int64_t ix = 0; ix < nx; ++ix)
            m.vp_mps[m.grid.index(iz, ix)] = v;
    }
    return m;
}

Model circle_anomaly_model(std::int64_t nz, std::int64_t nx, double dz_m, double dx_m, double background_mps,
                           double anomaly_mps, double centre_x_m, double centre_z_m, double radius_m,
                           double smooth_edge_m) {
    Model m = empty_model(nz, nx, dz_m, dx_m, "circle model");
    check_velocity(background_mps, "circle model", "background");
    check_velocity(anomaly_mps, "circle model", "anomaly");
    if (!(radius_m > 0) || !std::isfinite(radius_m) || !(smooth_edge_m >= 0) ||
        !std::isfinite(smooth_edge_m) || !std::isfinite(centre_x_m) || !std::isfinite(centre_z_m)) {
        std::ostringstream msg;
        msg << "circle model: centre (" << centre_x_m << ", " << centre_z_m << ") m, radius " << radius_m
            << " m and edge " << smooth_edge_m
            << " m must be finite, the radius positive, the edge non-negative";
        throw ConfigError(msg.str());
    }
    for (std::int64_t iz = 0; iz < nz; ++iz) {
        for (std::int64_t ix = 0; ix < nx; ++ix) {
            const double r = std::hypot(double(ix) * dx_m - centre_x_m, double(iz) * dz_m - centre_z_m);
            double inside = r <= radius_m ? 1.0 : 0.0; // fraction of the anomaly at this cell
            if (smooth_edge_m > 0) {
                const double t = std::clamp((r - (radius_m - smooth_edge_m / 2)) / smooth_edge_m, 0.0, 1.0);
                inside = 0.5 * (1.0 + std::cos(std::numbers::pi * t));
            }
            m.vp_mps[m.grid.index(iz, ix)] = float(background_mps + inside * (anomaly_mps - background_mps));
        }
    }
    return m;
}

Model gradient_model(std::int64_t nz, std::int64_t nx, double dz_m, double dx_m, double v_top_mps,
                     double v_bottom_mps) {
    Model m = empty_model(nz, nx, dz_m, dx_m, "gradient model");
    check_velocity(v_top_mps, "gradient model", "top velocity");
    check_velocity(v_bottom_mps, "gradient model", "bottom velocity");
    const double depth_m = m.grid.depth_m();
    for (std::int64_t iz = 0; iz < nz; ++iz) {
        const double frac = depth_m > 0 ? double(iz) * dz_m / depth_m : 0.0;
        const float v = float(v_top_mps + frac * (v_bottom_mps - v_top_mps));
        for (std::int64_t ix = 0; ix < nx; ++ix)
            m.vp_mps[m.grid.index(iz, ix)] = v;
    }
    return m;
}

std::vector<std::string> builtin_model_names() {
    return {"homogeneous",       "layered",  "circle",    "gradient", "marmousi2",   "marmousi2-smooth",
            "marmousi2-start1d", "marmousi", "layered3d", "salt3d",   "marmousi2-3d"};
}

Model builtin_model(const std::string& name) {
    const auto n = teach_nz, x = teach_nx;
    const double d = teach_spacing_m;
    if (name == "homogeneous") return gradient_model(n, x, d, d, 2000, 2000);
    if (name == "layered") return layered_model(n, x, d, d, {1500, 2000, 2500, 3000}, {200, 450, 700});
    if (name == "circle") return circle_anomaly_model(n, x, d, d, 2000, 2400, 1000, 500, 150, 40);
    if (name == "gradient") return gradient_model(n, x, d, d, 1500, 3500);
    if (name == "marmousi2") return load_marmousi2("true");
    if (name == "marmousi2-smooth") return load_marmousi2("smooth");
    if (name == "marmousi2-start1d") return load_marmousi2("start1d");
    if (name == "marmousi") return load_marmousi();
    if (Model m = detail::builtin_model_3d(name); !m.vp_mps.empty()) return m;
    std::ostringstream msg;
    msg << "unknown built-in model '" << name << "' (known:";
    for (const auto& known : builtin_model_names())
        msg << ' ' << known;
    msg << ')';
    throw ConfigError(msg.str());
}

} // namespace fwi
