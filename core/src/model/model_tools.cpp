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

// One separable pass: `in` is (outer, n, inner) row-major, the result (outer, taps.size(), inner). The sum
// runs over the taps in order, so a pass whose taps are {1, 0} copies exactly.
std::vector<double> resample_axis(const std::vector<double>& in, std::int64_t outer, std::int64_t n,
                                  std::int64_t inner, const std::vector<AxisTaps>& taps) {
    const auto n_new = std::int64_t(taps.size());
    std::vector<double> out(std::size_t(outer * n_new * inner));
    for (std::int64_t o = 0; o < outer; ++o)
        for (std::int64_t i = 0; i < n_new; ++i) {
            const AxisTaps& t = taps[std::size_t(i)];
            double* dst = out.data() + (o * n_new + i) * inner;
            for (std::int64_t j = 0; j < inner; ++j) {
                double v = 0;
                for (std::size_t k = 0; k < t.index.size(); ++k)
                    v += t.weight[k] * in[std::size_t((o * n + t.index[k]) * inner + j)];
                dst[j] = v;
            }
        }
    return out;
}

void check_spacing(double dz_m, double dy_m, double dx_m, bool three_d) {
    const auto bad = [](double d) { return !(d > 0) || !std::isfinite(d); };
    if (!bad(dz_m) && !bad(dx_m) && !(three_d && bad(dy_m))) return;
    std::ostringstream msg;
    msg << "resample: new spacing (dz=" << dz_m << " m, ";
    if (three_d) msg << "dy=" << dy_m << " m, ";
    msg << "dx=" << dx_m << " m) must be positive and finite";
    throw ConfigError(msg.str());
}

// Along x, then y (3D), then z; the 2D result is that of the former 2D-only code bit for bit (same taps, same
// order of the sums, double until the last pass).
Model resample(const Model& model, double dz_m, double dy_m, double dx_m) {
    const Grid& g = model.grid;
    const bool three_d = g.rank == 3;
    const double nz_new = std::round(double(g.nz() - 1) * g.dz() / dz_m) + 1;
    const double ny_new = three_d ? std::round(double(g.ny() - 1) * g.dy() / dy_m) + 1 : 1;
    const double nx_new = std::round(double(g.nx() - 1) * g.dx() / dx_m) + 1;
    if (nz_new * ny_new * nx_new > max_resampled_cells) {
        std::ostringstream msg;
        msg << "resample: spacing (dz=" << dz_m << " m, ";
        if (three_d) msg << "dy=" << dy_m << " m, ";
        msg << "dx=" << dx_m << " m) would give " << nz_new << " x ";
        if (three_d) msg << ny_new << " x ";
        msg << nx_new << " cells (limit " << max_resampled_cells << ")";
        throw ConfigError(msg.str());
    }
    // A spacing coarser than the model leaves one cell, which later checks would report as a source outside
    // a model of size 0.
    if (nz_new < 2 || ny_new < (three_d ? 2 : 1) || nx_new < 2) {
        std::ostringstream msg;
        msg << "resample: spacing (dz=" << dz_m << " m, ";
        if (three_d) msg << "dy=" << dy_m << " m, ";
        msg << "dx=" << dx_m << " m) is coarser than the model and leaves " << nz_new << " x ";
        if (three_d) msg << ny_new << " x ";
        msg << nx_new << " cells";
        throw ConfigError(msg.str());
    }
    Model out;
    const std::int64_t nz = resampled_count(g.nz(), g.dz(), dz_m), nx = resampled_count(g.nx(), g.dx(), dx_m);
    out.grid = three_d ? Grid(nz, resampled_count(g.ny(), g.dy(), dy_m), nx, dz_m, dy_m, dx_m)
                       : Grid(nz, nx, dz_m, dx_m);
    const std::int64_t ny_old = g.ny(), ny = out.grid.ny();
    std::vector<double> v(model.vp_mps.begin(), model.vp_mps.end());
    v = resample_axis(v, g.nz() * ny_old, g.nx(), 1, axis_taps(g.nx(), g.dx(), nx, dx_m));
    if (three_d) v = resample_axis(v, g.nz(), ny_old, nx, axis_taps(ny_old, g.dy(), ny, dy_m));
    v = resample_axis(v, 1, g.nz(), ny * nx, axis_taps(g.nz(), g.dz(), nz, dz_m));
    out.vp_mps.resize(v.size());
    for (std::size_t i = 0; i < v.size(); ++i)
        out.vp_mps[i] = float(v[i]);
    return out;
}

} // namespace

Model resample_model(const Model& model, double dz_m, double dx_m) {
    validate_model(model, "model to resample");
    if (model.grid.rank == 3)
        throw ConfigError(
            "resample: a 3D model needs a new y spacing too (resample_model(model, dz, dy, dx))");
    check_spacing(dz_m, 0, dx_m, false);
    return resample(model, dz_m, 0, dx_m);
}

Model resample_model(const Model& model, double dz_m, double dy_m, double dx_m) {
    validate_model(model, "model to resample");
    if (model.grid.rank == 2) return resample_model(model, dz_m, dx_m);
    check_spacing(dz_m, dy_m, dx_m, true);
    return resample(model, dz_m, dy_m, dx_m);
}

} // namespace fwi
