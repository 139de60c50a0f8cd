#include "fwi/conditioning.hpp"

#include "fwi/error.hpp"

#include <algorithm>
#include <cmath>

namespace fwi {
namespace {

/// Smooths `lines` lines of `len` samples (consecutive samples `stride` apart, lines `line_step` apart) with
/// a Gaussian of sigma_cells, zero outside the line.
void smooth_lines(std::span<double> f, std::int64_t lines, std::int64_t len, std::int64_t stride,
                  std::int64_t line_step, double sigma_cells) {
    if (!(sigma_cells > 0) || len < 2) return;
    const auto half = std::int64_t(std::ceil(3 * sigma_cells));
    std::vector<double> k(std::size_t(2 * half + 1));
    double sum = 0;
    for (std::int64_t i = -half; i <= half; ++i) {
        const double v = std::exp(-0.5 * double(i * i) / (sigma_cells * sigma_cells));
        k[std::size_t(i + half)] = v;
        sum += v;
    }
    for (double& v : k)
        v /= sum;
#pragma omp parallel
    {
        std::vector<double> line(static_cast<std::size_t>(len));
#pragma omp for schedule(static)
        for (std::int64_t l = 0; l < lines; ++l) {
            double* base = f.data() + l * line_step;
            for (std::int64_t i = 0; i < len; ++i)
                line[std::size_t(i)] = base[i * stride];
            for (std::int64_t i = 0; i < len; ++i) {
                double s = 0;
                const std::int64_t j0 = std::max<std::int64_t>(0, i - half), j1 = std::min(len - 1, i + half);
                for (std::int64_t j = j0; j <= j1; ++j)
                    s += k[std::size_t(j - i + half)] * line[std::size_t(j)];
                base[i * stride] = s;
            }
        }
    }
}

} // namespace

std::vector<float> build_mask(const Model& start, const Acquisition& acquisition, const MaskOptions& o) {
    if (!(o.water_depth_m >= 0) || !(o.water_velocity_mps >= 0) || !(o.source_radius_m >= 0))
        throw ConfigError("gradient mask: water depth, water velocity and source radius must be >= 0");
    const Grid& g = start.grid;
    if (start.vp_mps.size() != std::size_t(g.cells()))
        throw ConfigError("gradient mask: the starting model is empty");
    // In 2D ny == 1 and the y distance is 0, so the loop and the distance are the 2D ones.
    const bool three_d = g.rank == 3;
    std::vector<float> mask(std::size_t(g.cells()), 1.0f);
    for (std::int64_t iz = 0; iz < g.nz(); ++iz)
        for (std::int64_t iy = 0; iy < g.ny(); ++iy)
            for (std::int64_t ix = 0; ix < g.nx(); ++ix) {
                const std::size_t cell = g.index(iz, iy, ix);
                const double z = double(iz) * g.dz(), y = double(iy) * g.dy(), x = double(ix) * g.dx();
                bool fixed = z < o.water_depth_m;
                if (o.water_velocity_mps > 0 && start.vp_mps[cell] <= o.water_velocity_mps) fixed = true;
                if (o.source_radius_m > 0)
                    for (const Shot& s : acquisition.shots) {
                        const double r =
                            three_d ? std::hypot(x - s.source.x_m, y - s.source.y_m, z - s.source.z_m)
                                    : std::hypot(x - s.source.x_m, z - s.source.z_m);
                        if (r < o.source_radius_m) fixed = true;
                    }
                if (fixed) mask[cell] = 0.0f;
            }
    if (std::find(mask.begin(), mask.end(), 1.0f) == mask.end())
        throw ConfigError(
            "gradient mask: the water depth, water velocity and source radius fix every cell of "
            "the model; nothing would be updated");
    return mask;
}

void symmetric_gaussian_smooth(std::span<double> field, const Grid& grid, double sigma_z_m,
                               double sigma_x_m) {
    if (grid.rank == 3)
        throw ConfigError(
            "smoothing: a 3D grid needs a y smoothing length too (symmetric_gaussian_smooth with "
            "sigma_y_m)");
    symmetric_gaussian_smooth(field, grid, sigma_z_m, 0, sigma_x_m);
}

void symmetric_gaussian_smooth(std::span<double> field, const Grid& grid, double sigma_z_m, double sigma_y_m,
                               double sigma_x_m) {
    if (field.size() != std::size_t(grid.cells()))
        throw ConfigError("smoothing: " + std::to_string(field.size()) + " values for a grid of " +
                          std::to_string(grid.cells()) + " cells");
    if (!(sigma_z_m >= 0) || !(sigma_x_m >= 0) || !(sigma_y_m >= 0))
        throw ConfigError("smoothing lengths must be >= 0 m");
    const std::int64_t nz = grid.nz(), ny = grid.ny(), nx = grid.nx(), plane = ny * nx;
    // x, y, z in that order; in 2D (ny == 1) exactly the former x then z passes.
    smooth_lines(field, nz * ny, nx, 1, nx, sigma_x_m / grid.dx());
    if (grid.rank == 3 && sigma_y_m > 0)
        for (std::int64_t iz = 0; iz < nz; ++iz)
            smooth_lines(field.subspan(std::size_t(iz * plane), std::size_t(plane)), nx, ny, nx, 1,
                         sigma_y_m / grid.dy());
    smooth_lines(field, plane, nz, plane, 1, sigma_z_m / grid.dz());
}

GradientPreconditioner::GradientPreconditioner(const Grid& grid, std::vector<float> mask,
                                               const std::vector<double>& illumination,
                                               const PreconditionerOptions& options)
    : grid_(grid), mask_(std::move(mask)), options_(options) {
    const auto cells = std::size_t(grid.cells());
    if (!mask_.empty() && mask_.size() != cells)
        throw ConfigError("preconditioner: mask size differs from the grid");
    if (!(options.illumination_epsilon > 0))
        throw ConfigError("preconditioner: illumination epsilon must be > 0");
    if (!(options.smoothing_z_m >= 0) || !(options.smoothing_x_m >= 0) ||
        !(options.smoothing_y_m.value_or(0) >= 0))
        throw ConfigError("preconditioner: smoothing lengths must be >= 0 m");
    if (!illumination.empty()) {
        if (illumination.size() != cells)
            throw ConfigError("preconditioner: illumination size differs from the grid");
        // The scale is the largest illumination among the cells that can move: the cells around the
        // sources, usually masked (water), are illuminated orders of magnitude more than anything below
        // them and would otherwise flatten D to 1/epsilon everywhere else.
        double emax = 0;
        for (std::size_t i = 0; i < cells; ++i)
            if (mask_.empty() || mask_[i] != 0.0f) emax = std::max(emax, illumination[i]);
        if (emax == 0) emax = *std::max_element(illumination.begin(), illumination.end());
        if (!(emax > 0) || !std::isfinite(emax))
            throw ConfigError("preconditioner: the illumination is zero or not finite");
        sqrt_d_.resize(cells);
        for (std::size_t i = 0; i < cells; ++i)
            sqrt_d_[i] = 1.0 / std::sqrt(illumination[i] / emax + options.illumination_epsilon);
    }
}

void GradientPreconditioner::apply(std::vector<double>& v) const {
    auto scale = [&](const auto& w) {
        if (!w.empty())
            for (std::size_t i = 0; i < v.size(); ++i)
                v[i] *= double(w[i]);
    };
    scale(mask_);
    scale(sqrt_d_);
    // K K with K of sigma / sqrt(2) along each axis.
    const double sz = options_.smoothing_z_m / std::sqrt(2.0), sx = options_.smoothing_x_m / std::sqrt(2.0);
    const double sy =
        grid_.rank == 3 ? options_.smoothing_y_m.value_or(options_.smoothing_x_m) / std::sqrt(2.0) : 0;
    if (sz > 0 || sx > 0 || sy > 0) {
        symmetric_gaussian_smooth(v, grid_, sz, sy, sx);
        symmetric_gaussian_smooth(v, grid_, sz, sy, sx);
    }
    scale(sqrt_d_);
    scale(mask_);
}

} // namespace fwi
