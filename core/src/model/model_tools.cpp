#include "fwi/model_tools.hpp"

#include "fwi/error.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace fwi {
namespace {

constexpr double max_resampled_cells = 2e8;

// The taps of one new node along one axis: old indices and normalised weights.
struct AxisTaps {
    std::vector<std::int64_t> index;
    std::vector<double> weight;
};

// Integral over [a, b] of a function that is quadratic there (Simpson's rule is exact for it).
template <class F> double integrate_quadratic_piece(F&& f, double a, double b) {
    return (b - a) / 6.0 * (f(a) + 4.0 * f(0.5 * (a + b)) + f(b));
}

// Taps for new nodes at spacing d_new over an old axis of n_old nodes at d_old (positions in old-node units).
// Refining (d_new <= d_old): linear interpolation. Coarsening: the tent of half-width h = d_new / d_old
// (the adjoint of linear interpolation back onto the old grid) convolved with the old samples' linear
// interpolant, integrated exactly, so that the new model is an average over the new cell instead of a point
// sample that aliases layers thinner than the new spacing. Near the edges h shrinks to the distance to the
// edge, which keeps the kernel symmetric: linear models are reproduced exactly everywhere.
std::vector<AxisTaps> axis_taps(std::int64_t n_old, double d_old, std::int64_t n_new, double d_new) {
    std::vector<AxisTaps> taps(static_cast<std::size_t>(n_new));
    const double last = double(n_old - 1);
    for (std::int64_t i = 0; i < n_new; ++i) {
        AxisTaps& t = taps[std::size_t(i)];
        const double x = std::clamp(double(i) * d_new / d_old, 0.0, last);
        const double h = std::min({d_new > d_old ? d_new / d_old : 0.0, x, last - x});
        if (h < 1e-9) { // linear interpolation
            const auto i0 = std::min(std::int64_t(std::floor(x)), n_old - 1);
            const auto i1 = std::min(i0 + 1, n_old - 1);
            t.index = {i0, i1};
            t.weight = {1.0 - (x - double(i0)), x - double(i0)};
            continue;
        }
        const auto tent = [&](double y) { return std::max(0.0, 1.0 - std::abs(y - x) / h); };
        double total = 0;
        const auto k0 = std::max<std::int64_t>(0, std::int64_t(std::floor(x - h)));
        const auto k1 = std::min<std::int64_t>(n_old - 1, std::int64_t(std::ceil(x + h)));
        for (std::int64_t k = k0; k <= k1; ++k) {
            const double kk = double(k);
            const auto product = [&](double y) { return tent(y) * std::max(0.0, 1.0 - std::abs(y - kk)); };
            // Pieces between the kinks of both hats, inside the support of their product.
            double cuts[] = {kk - 1, kk, kk + 1, x - h, x, x + h};
            std::sort(std::begin(cuts), std::end(cuts));
            const double lo = std::max(kk - 1, x - h), hi = std::min(kk + 1, x + h);
            double w = 0;
            for (int c = 0; c + 1 < 6; ++c) {
                const double a = std::max(cuts[c], lo), b = std::min(cuts[c + 1], hi);
                if (b > a) w += integrate_quadratic_piece(product, a, b);
            }
            if (w > 0) {
                t.index.push_back(k);
                t.weight.push_back(w);
                total += w;
            }
        }
        for (double& w : t.weight)
            w /= total;
    }
    return taps;
}

std::int64_t resampled_count(std::int64_t n_old, double d_old, double d_new) {
    return std::int64_t(std::llround(double(n_old - 1) * d_old / d_new)) + 1;
}

} // namespace

Model resample_model(const Model& model, double dz_m, double dx_m) {
    validate_model(model, "model to resample");
    if (model.grid.rank != 2) throw ConfigError("resample: 3D models are not supported yet");
    if (!(dz_m > 0) || !(dx_m > 0) || !std::isfinite(dz_m) || !std::isfinite(dx_m)) {
        std::ostringstream msg;
        msg << "resample: new spacing (dz=" << dz_m << " m, dx=" << dx_m << " m) must be positive and finite";
        throw ConfigError(msg.str());
    }
    const Grid& g = model.grid;
    const double nz_new = std::round(double(g.nz() - 1) * g.dz() / dz_m) + 1;
    const double nx_new = std::round(double(g.nx() - 1) * g.dx() / dx_m) + 1;
    if (nz_new * nx_new > max_resampled_cells) {
        std::ostringstream msg;
        msg << "resample: spacing (dz=" << dz_m << " m, dx=" << dx_m << " m) would give " << nz_new << " x "
            << nx_new << " cells (limit " << max_resampled_cells << ")";
        throw ConfigError(msg.str());
    }
    Model out;
    out.grid = Grid(resampled_count(g.nz(), g.dz(), dz_m), resampled_count(g.nx(), g.dx(), dx_m), dz_m, dx_m);
    const auto tz = axis_taps(g.nz(), g.dz(), out.grid.nz(), dz_m);
    const auto tx = axis_taps(g.nx(), g.dx(), out.grid.nx(), dx_m);
    // Separable: along x into (old nz) x (new nx), then along z.
    const std::int64_t nx_out = out.grid.nx();
    std::vector<double> rows(std::size_t(g.nz() * nx_out));
    for (std::int64_t iz = 0; iz < g.nz(); ++iz)
        for (std::int64_t ix = 0; ix < nx_out; ++ix) {
            const AxisTaps& t = tx[std::size_t(ix)];
            double v = 0;
            for (std::size_t k = 0; k < t.index.size(); ++k)
                v += t.weight[k] * double(model.at(iz, t.index[k]));
            rows[std::size_t(iz * nx_out + ix)] = v;
        }
    out.vp_mps.resize(std::size_t(out.grid.cells()));
    for (std::int64_t iz = 0; iz < out.grid.nz(); ++iz) {
        const AxisTaps& t = tz[std::size_t(iz)];
        for (std::int64_t ix = 0; ix < nx_out; ++ix) {
            double v = 0;
            for (std::size_t k = 0; k < t.index.size(); ++k)
                v += t.weight[k] * rows[std::size_t(t.index[k] * nx_out + ix)];
            out.vp_mps[out.grid.index(iz, ix)] = float(v);
        }
    }
    return out;
}

} // namespace fwi
