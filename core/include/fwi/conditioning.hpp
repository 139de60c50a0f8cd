#pragma once
// Gradient conditioning for inversion, as the optimiser's preconditioner C (optimizer.hpp) rather than as
// edits of the gradient, so that the line search still sees the true gradient and its Wolfe conditions stay
// meaningful:
//
//     C = M D^1/2 K K D^1/2 M
//
//   M   the mask (0/1 per cell): cells fixed by the user (water layer, around sources) never move;
//   D   illumination: 1 / (E / max E + epsilon), E = sum over shots and time of the source wavefield squared,
//       max E taken over the cells the mask leaves free
//       (the diagonal pseudo-Hessian approximation of Shin et al., 2001);
//   K   separable Gaussian smoothing with standard deviation sigma / sqrt(2), so that K K smooths with sigma.
//   The
//       truncated kernel is normalised by its full sum (not renormalised at the edges), which keeps K
//       symmetric and C symmetric positive semi-definite (cells near the model's edges are smoothed with less
//       weight).
// Arrays are on the model grid, layout (z, x) or (z, y, x) as in grid.hpp; everything here works in 2D and
// 3D.
#include "fwi/acquisition.hpp"
#include "fwi/model.hpp"

#include <optional>
#include <span>
#include <vector>

namespace fwi {

struct MaskOptions {
    double water_depth_m = 0; ///< cells shallower than this (z < water_depth_m) are fixed
    double water_velocity_mps =
        0;                      ///< cells of the starting model at or below this velocity are fixed (0 = off)
    double source_radius_m = 0; ///< cells closer than this to any source are fixed
    bool operator==(const MaskOptions&) const = default;
};

/// 1 for cells the inversion may change, 0 for fixed ones (in 3D the source radius is a 3D distance).
/// ConfigError for negative options.
std::vector<float> build_mask(const Model& start_model, const Acquisition& acquisition,
                              const MaskOptions& options);

/// K applied in place: separable Gaussian with standard deviations (sigma_z_m, sigma_x_m) in metres, kernel
/// truncated at 3 sigma and normalised by its full sum (symmetric; see above). 0 leaves that axis alone.
/// 2D grids only (ConfigError for a 3D one).
void symmetric_gaussian_smooth(std::span<double> field, const Grid& grid, double sigma_z_m, double sigma_x_m);
/// The same with sigma_y_m along y in 3D (a 2D grid ignores it); passes along x, y, then z.
void symmetric_gaussian_smooth(std::span<double> field, const Grid& grid, double sigma_z_m, double sigma_y_m,
                               double sigma_x_m);

struct PreconditionerOptions {
    double smoothing_z_m = 0;           ///< sigma of K K along z (0 = none)
    double smoothing_x_m = 0;           ///< sigma of K K along x (0 = none)
    double illumination_epsilon = 0.01; ///< stabilisation relative to max E
    /// sigma of K K along y, 3D only; unset = smoothing_x_m (lateral smoothing is usually isotropic).
    std::optional<double> smoothing_y_m;
    bool operator==(const PreconditionerOptions&) const = default;
};

/// C as above. `illumination` may be empty (D = identity); `mask` may be empty (M = identity).
class GradientPreconditioner {
  public:
    GradientPreconditioner(const Grid& grid, std::vector<float> mask, const std::vector<double>& illumination,
                           const PreconditionerOptions& options);
    void apply(std::vector<double>& v) const;

  private:
    Grid grid_;
    std::vector<float> mask_;
    std::vector<double> sqrt_d_;
    PreconditionerOptions options_;
};

} // namespace fwi
