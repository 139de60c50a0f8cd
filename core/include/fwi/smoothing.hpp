#pragma once
// Separable Gaussian smoothing of fields on a model grid (edges handled by renormalising the truncated
// kernel, so a constant field stays constant). Used for starting models and for gradient smoothing.
#include "fwi/grid.hpp"
#include "fwi/model.hpp"

#include <span>
#include <vector>

namespace fwi {

/// Smooths in place with standard deviations sigma_z_m, sigma_x_m (metres; 0 = no smoothing along that axis).
void gaussian_smooth(std::span<float> field, const Grid& grid, double sigma_z_m, double sigma_x_m);
Model smoothed_model(const Model& model, double sigma_m);

} // namespace fwi
