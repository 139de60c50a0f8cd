#include "fwi/smoothing.hpp"

#include "fwi/error.hpp"

#include <algorithm>
#include <cmath>

namespace fwi {
namespace {

std::vector<double> kernel(double sigma_cells) {
    const int half = std::max(1, int(std::ceil(3 * sigma_cells)));
    std::vector<double> k(std::size_t(2 * half + 1));
    for (int i = -half; i <= half; ++i)
        k[std::size_t(i + half)] = std::exp(-0.5 * (i / sigma_cells) * (i / sigma_cells));
    return k;
}

/// Smooths `n` lines of `len` samples, consecutive samples `stride` apart, lines `line_step` apart.
void smooth_lines(std::span<float> f, std::int64_t n, std::int64_t len, std::int64_t stride,
                  std::int64_t line_step, double sigma_cells) {
    if (sigma_cells <= 0 || len < 2) return;
    const auto k = kernel(sigma_cells);
    const auto half = std::int64_t(k.size() / 2);
#pragma omp parallel
    {
        std::vector<double> line(static_cast<std::size_t>(len));
#pragma omp for
        for (std::int64_t l = 0; l < n; ++l) {
            float* base = f.data() + l * line_step;
            for (std::int64_t i = 0; i < len; ++i)
                line[std::size_t(i)] = base[i * stride];
            for (std::int64_t i = 0; i < len; ++i) {
                double sum = 0, weight = 0;
                for (std::int64_t j = std::max<std::int64_t>(0, i - half); j <= std::min(len - 1, i + half);
                     ++j) {
                    const double w = k[std::size_t(j - i + half)];
                    sum += w * line[std::size_t(j)];
                    weight += w;
                }
                base[i * stride] = float(sum / weight);
            }
        }
    }
}

} // namespace

void gaussian_smooth(std::span<float> field, const Grid& grid, double sigma_z_m, double sigma_x_m) {
    if (grid.rank == 3)
        throw ConfigError(
            "smoothing: a 3D grid needs a y smoothing length too (gaussian_smooth with sigma_y_m)");
    smooth_lines(field, grid.nz(), grid.nx(), 1, grid.nx(), sigma_x_m / grid.dx());
    smooth_lines(field, grid.nx(), grid.nz(), grid.nx(), 1, sigma_z_m / grid.dz());
}

void gaussian_smooth(std::span<float> field, const Grid& grid, double sigma_z_m, double sigma_y_m,
                     double sigma_x_m) {
    if (grid.rank != 3) return gaussian_smooth(field, grid, sigma_z_m, sigma_x_m);
    const std::int64_t nz = grid.nz(), ny = grid.ny(), nx = grid.nx(), plane = ny * nx;
    // x first and z last, as in 2D, so that a field that does not vary along y gives the 2D result.
    smooth_lines(field, nz * ny, nx, 1, nx, sigma_x_m / grid.dx());
    if (sigma_y_m > 0 && ny > 1)
        for (std::int64_t iz = 0; iz < nz; ++iz)
            smooth_lines(field.subspan(std::size_t(iz * plane), std::size_t(plane)), nx, ny, nx, 1,
                         sigma_y_m / grid.dy());
    smooth_lines(field, plane, nz, plane, 1, sigma_z_m / grid.dz());
}

Model smoothed_model(const Model& model, double sigma_m) {
    Model m = model;
    gaussian_smooth(m.vp_mps, m.grid, sigma_m, sigma_m, sigma_m);
    return m;
}

} // namespace fwi
