#pragma once
// Model-grid <-> padded-grid maps. pad_model is E (edge values extended into the PML; zero halo); fold_padded
// adds E^T of a padded array to a model array (every non-halo padded cell onto the model cell it copies).
#include "fwi/propagator.hpp"

#include <span>
#include <vector>

namespace fwi {

std::vector<float> pad_model(const PaddedGrid& g, std::span<const float> model_cells);
void fold_padded(const PaddedGrid& g, std::span<const float> padded, std::span<float> model_cells);
void extract_model_region(const PaddedGrid& g, const float* padded, std::span<float> model_cells);

} // namespace fwi
