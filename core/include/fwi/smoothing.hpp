#pragma once
// Separable Gaussian smoothing of fields on a model grid (edges handled by renormalising the truncated
// kernel, so a constant field stays constant). Used for starting models and for gradient smoothing.
#include "fwi/grid.hpp"
#include "fwi/model.hpp"

#include <span>
#include <vector>

namespace fwi {

/// Smooths a 2D field in place with standard deviations sigma_z_m, sigma_x_m (metres; 0 = no smoothing along
/// that axis). Layout (z, x) as grid.hpp. ConfigError for a 3D grid (use the overload with sigma_y_m).
void gaussian_smooth(std::span<float> field, const Grid& grid, double sigma_z_m, double sigma_x_m);
/// The same in 3D ((z, y, x), x fast), along x, then y, then z; a 2D grid ignores sigma_y_m. A field that
/// does not vary along y gives, slice by slice, the 2D result bit for bit.
void gaussian_smooth(std::span<float> field, const Grid& grid, double sigma_z_m, double sigma_y_m,
                     double sigma_x_m);
/// The model smoothed with the same sigma_m along every axis (2D or 3D).
Model smoothed_model(const Model& model, double sigma_m);

} // namespace fwi
