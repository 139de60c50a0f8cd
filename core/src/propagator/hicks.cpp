// Hicks (2002), "Arbitrary source and receiver positioning in finite-difference schemes using Kaiser windowed
// sinc functions": a point at fractional grid position p is represented by sinc(i - p) * Kaiser(i - p) on the
// 2r nearest cells per axis (r = 4, b = 6.31, Hicks' table value for r = 4). On a grid node it reduces to
// that single node. Sources and receivers use the same weights, so injection and recording are exact
// transposes (reciprocity).
// Each axis's weights are divided by their sum (in double), so a point's weights sum to 1 and a source
// injects, and a receiver records, exactly the amplitude of an on-grid one: the truncated windowed sinc alone
// sums to 1 + O(1e-3) depending on the fractional position (1.00067 measured), which was an amplitude bias of
// the same size. Under a free surface (free_surface.hpp) the taps above z = 0 fold onto their images below
// with opposite sign and the tap on the surface is dropped: a point near the surface records and injects
// what its image makes of it, and recording and injection stay transposes. The 2D weights are the tensor
// product of the two normalised axes, the 3D ones of the three (kept as the axes' float weights,
// PointStencil); the shape, and so the interpolation accuracy of the windowed sinc, is unchanged.
#include "fwi/error.hpp"
#include "fwi/propagator.hpp"
#include "propagator/hicks_axis.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <sstream>

namespace fwi {
namespace {

constexpr int kHalfWidth = 4;
constexpr double kKaiserB = 6.31;

double bessel_i0(double x) {
    double sum = 1, term = 1;
    for (int k = 1; k < 50; ++k) {
        term *= (x / (2 * k)) * (x / (2 * k));
        sum += term;
        if (term < 1e-17 * sum) break;
    }
    return sum;
}

double windowed_sinc(double x) {
    if (std::abs(x) > kHalfWidth) return 0;
    const double sinc = x == 0 ? 1.0 : std::sin(std::numbers::pi * x) / (std::numbers::pi * x);
    const double q = x / kHalfWidth;
    return sinc * bessel_i0(kKaiserB * std::sqrt(std::max(0.0, 1 - q * q))) / bessel_i0(kKaiserB);
}

} // namespace

namespace detail {

std::vector<std::pair<std::int64_t, double>> hicks_axis_weights(double p) {
    std::vector<std::pair<std::int64_t, double>> w;
    const double nearest = std::round(p);
    if (std::abs(p - nearest) < 1e-6) {
        w.emplace_back(std::int64_t(nearest), 1.0);
        return w;
    }
    const auto base = std::int64_t(std::floor(p));
    double sum = 0;
    for (std::int64_t i = base - kHalfWidth + 1; i <= base + kHalfWidth; ++i) {
        w.emplace_back(i, windowed_sinc(double(i) - p));
        sum += w.back().second;
    }
    for (auto& [i, weight] : w)
        weight /= sum;
    return w;
}

std::vector<std::pair<std::int64_t, double>>
fold_about_free_surface(const std::vector<std::pair<std::int64_t, double>>& w) {
    // Index i < 0 is the image of -i: its weight goes there with opposite sign; the surface (0) holds 0.
    std::vector<std::pair<std::int64_t, double>> folded;
    for (auto [i, weight] : w) {
        if (i == 0) continue;
        const std::int64_t at = i < 0 ? -i : i;
        const double signed_weight = i < 0 ? -weight : weight;
        auto hit = std::find_if(folded.begin(), folded.end(), [&](const auto& f) { return f.first == at; });
        if (hit == folded.end())
            folded.emplace_back(at, signed_weight);
        else
            hit->second += signed_weight;
    }
    std::sort(folded.begin(), folded.end());
    return folded;
}

} // namespace detail

namespace {

[[noreturn]] void throw_outside(const Grid& m, const Point& p, const std::string& what) {
    std::ostringstream msg;
    if (m.rank == 3)
        msg << what << " at (x=" << p.x_m << " m, y=" << p.y_m << " m, z=" << p.z_m
            << " m) is outside the model [0, " << m.width_m() << "] x [0, " << m.breadth_m() << "] x [0, "
            << m.depth_m() << "] m";
    else
        msg << what << " at (x=" << p.x_m << " m, z=" << p.z_m << " m) is outside the model [0, "
            << m.width_m() << "] x [0, " << m.depth_m() << "] m";
    throw ConfigError(msg.str());
}

bool within(double v, double extent_m) {
    return std::isfinite(v) && v >= -1e-9 && v <= extent_m + 1e-9;
}

} // namespace

PointStencil hicks_stencil(const PaddedGrid& grid, const Point& point, const std::string& what) {
    const Grid& m = grid.model;
    const bool three_d = grid.three_d();
    if (!within(point.x_m, m.width_m()) || !within(point.z_m, m.depth_m()) ||
        (three_d && !within(point.y_m, m.breadth_m())))
        throw_outside(m, point, what);
    const auto wx = detail::hicks_axis_weights(point.x_m / m.dx());
    auto wz = detail::hicks_axis_weights(point.z_m / m.dz());
    if (grid.free_surface) {
        wz = detail::fold_about_free_surface(wz);
        if (wz.empty()) // Simulation refuses such points first (validate_points_below_free_surface)
            throw ConfigError(what +
                              " lies on the free surface (z = 0 m), where the pressure is held at zero");
    }
    // 2D: one y "axis weight" of 1 on the only plane.
    const auto wy = three_d ? detail::hicks_axis_weights(point.y_m / m.dy())
                            : std::vector<std::pair<std::int64_t, double>>{{0, 1.0}};
    const std::int64_t o = grid.origin(), oy = grid.origin_y(), h = grid.halo, hy = grid.halo_y();
    // One axis's taps: weights that would fall into the zero halo (tiny PML) are dropped, since the halo is
    // never updated. Being inside is a condition on each axis alone, so the box of kept taps is the product
    // of the kept taps per axis.
    auto keep = [](const std::vector<std::pair<std::int64_t, double>>& w, std::int64_t origin,
                   std::int64_t halo, std::int64_t n, std::array<float, PointStencil::max_axis_taps>& out,
                   std::int32_t& taps) {
        std::int64_t first = -1;
        taps = 0;
        for (auto [i, weight] : w) {
            const std::int64_t padded = i + origin;
            if (padded < halo || padded >= n - halo) continue;
            if (taps == 0) first = padded;
            out[std::size_t(taps++)] = float(weight);
        }
        return first;
    };
    PointStencil s;
    const std::int64_t pz = keep(wz, o, h, grid.nz(), s.wz, s.z_taps);
    const std::int64_t py = keep(wy, oy, hy, grid.ny(), s.wy, s.y_taps);
    const std::int64_t px = keep(wx, o, h, grid.nx(), s.wx, s.x_taps);
    if (s.taps() == 0) return PointStencil{}; // every weight in the halo: nothing to inject or record
    s.corner = grid.index(pz, py, px);
    s.z_stride = grid.ny() * grid.nx();
    s.y_stride = grid.nx();
    s.row = s.corner / s.y_stride;
    s.row_cells_from_corner =
        std::int32_t(std::min<std::int64_t>(PointStencil::max_axis_taps, grid.nx() - px));
    return s;
}

} // namespace fwi
