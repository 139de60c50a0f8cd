#pragma once
// Model-grid <-> padded-grid maps in 3D (padding.hpp's twins). pad_model_3d is E (edge values extended into
// the PML, the halo too so that c and 1/c stay finite); fold_padded_3d adds E^T of a padded array to a model
// array (every non-halo padded cell onto the model cell it copies); extract_model_region_3d copies the model
// region.
#include "propagator/padded_grid_3d.hpp"

#include <span>
#include <vector>

namespace fwi {

std::vector<float> pad_model_3d(const PaddedGrid3D& g, std::span<const float> model_cells);
void fold_padded_3d(const PaddedGrid3D& g, std::span<const float> padded, std::span<float> model_cells);
void extract_model_region_3d(const PaddedGrid3D& g, const float* padded, std::span<float> model_cells);

} // namespace fwi
