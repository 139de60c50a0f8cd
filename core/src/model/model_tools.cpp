#include "fwi/model_tools.hpp"

#include "fwi/error.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace fwi {
namespace {

constexpr double max_resampled_cells = 2e8;

// Linear interpolation weights for new node `i` at spacing `d_new` over an old axis of `n_old` nodes at
// `d_old`.
struct AxisWeight {
    std::int64_t i0, i1;
    double w1;
};

std::vector<AxisWeight> axis_weights(std::int64_t n_old, double d_old, std::int64_t n_new, double d_new) {
    std::vector<AxisWeight> weights(static_cast<std::size_t>(n_new));
    for (std::int64_t i = 0; i < n_new; ++i) {
        const double pos = double(i) * d_new / d_old;
        const double clamped = std::clamp(pos, 0.0, double(n_old - 1));
        std::int64_t i0 = std::int64_t(std::floor(clamped));
        i0 = std::min(i0, n_old - 1);
        const std::int64_t i1 = std::min(i0 + 1, n_old - 1);
        weights[std::size_t(i)] = {i0, i1, clamped - double(i0)};
    }
    return weights;
}

std::int64_t resampled_count(std::int64_t n_old, double d_old, double d_new) {
    return std::int64_t(std::llround(double(n_old - 1) * d_old / d_new)) + 1;
}

} // namespace

Model resample_model(const Model& model, double dz_m, double dx_m) {
    validate_model(model, "model to resample");
    if (!(dz_m > 0) || !(dx_m > 0) || !std::isfinite(dz_m) || !std::isfinite(dx_m)) {
        std::ostringstream msg;
        msg << "resample: new spacing (dz=" << dz_m << " m, dx=" << dx_m << " m) must be positive and finite";
        throw ConfigError(msg.str());
    }
    const Grid2D& g = model.grid;
    const double nz_new = std::round(double(g.nz() - 1) * g.dz() / dz_m) + 1;
    const double nx_new = std::round(double(g.nx() - 1) * g.dx() / dx_m) + 1;
    if (nz_new * nx_new > max_resampled_cells) {
        std::ostringstream msg;
        msg << "resample: spacing (dz=" << dz_m << " m, dx=" << dx_m << " m) would give " << nz_new << " x "
            << nx_new << " cells (limit " << max_resampled_cells << ")";
        throw ConfigError(msg.str());
    }
    Model out;
    out.grid =
        Grid2D(resampled_count(g.nz(), g.dz(), dz_m), resampled_count(g.nx(), g.dx(), dx_m), dz_m, dx_m);
    const auto wz = axis_weights(g.nz(), g.dz(), out.grid.nz(), dz_m);
    const auto wx = axis_weights(g.nx(), g.dx(), out.grid.nx(), dx_m);
    out.vp_mps.resize(std::size_t(out.grid.cells()));
    for (std::int64_t iz = 0; iz < out.grid.nz(); ++iz) {
        const AxisWeight& z = wz[std::size_t(iz)];
        for (std::int64_t ix = 0; ix < out.grid.nx(); ++ix) {
            const AxisWeight& x = wx[std::size_t(ix)];
            const double top =
                model.at(z.i0, x.i0) + x.w1 * (double(model.at(z.i0, x.i1)) - model.at(z.i0, x.i0));
            const double bottom =
                model.at(z.i1, x.i0) + x.w1 * (double(model.at(z.i1, x.i1)) - model.at(z.i1, x.i0));
            out.vp_mps[out.grid.index(iz, ix)] = float(top + z.w1 * (bottom - top));
        }
    }
    return out;
}

} // namespace fwi
