#pragma once
// Model-grid <-> padded-grid maps, for both ranks (a 2D grid is one unpadded y plane). pad_model is E (edge
// values extended into the PML, the halo too so that c and 1/c stay finite); fold_padded adds E^T of a padded
// array to a model array (every non-halo padded cell onto the model cell it copies); extract_model_region
// copies the model region. wave_coefficients turns padded velocities into the kernels' c = v^2 dt^2 and 1/c.
#include "fwi/propagator.hpp"

#include <span>
#include <vector>

namespace fwi {

std::vector<float> pad_model(const PaddedGrid& g, std::span<const float> model_cells);
void fold_padded(const PaddedGrid& g, std::span<const float> padded, std::span<float> model_cells);
void extract_model_region(const PaddedGrid& g, const float* padded, std::span<float> model_cells);
/// dJ/dv added to the model cells from a padded dJ/dc: E^T (dJ/dc * 2 v dt^2), each cell's product in double
/// rounded once. Under a free surface the planes at and above it are not state (their c changes nothing
/// below: free_surface.hpp) and add nothing.
void fold_velocity_gradient(const PaddedGrid& g, std::span<const float> grad_c,
                            std::span<const float> velocity, double dt_s, std::span<float> gradient_mps);
/// c = v^2 dt^2 (in double, rounded once) and 1/c (the float division the kernels repeat where they divide),
/// on an OpenMP team. c and inv_c have velocity's size.
void wave_coefficients(std::span<const float> velocity, double dt_s, std::span<float> c,
                       std::span<float> inv_c);

} // namespace fwi
