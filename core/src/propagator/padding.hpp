#pragma once
// Model-grid <-> padded-grid maps, for both ranks (a 2D grid is one unpadded y plane). pad_model is E (edge
// values extended into the PML, the halo too so that c and 1/c stay finite); fold_padded adds E^T of a padded
// array to a model array (every non-halo padded cell onto the model cell it copies); extract_model_region
// copies the model region.
#include "fwi/propagator.hpp"

#include <span>
#include <vector>

namespace fwi {

std::vector<float> pad_model(const PaddedGrid& g, std::span<const float> model_cells);
void fold_padded(const PaddedGrid& g, std::span<const float> padded, std::span<float> model_cells);
void extract_model_region(const PaddedGrid& g, const float* padded, std::span<float> model_cells);

} // namespace fwi
