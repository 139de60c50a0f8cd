#pragma once
// Linearised (Born) modelling: the data perturbation of a velocity perturbation, to first order. Its adjoint
// is the gradient engine run with the data perturbation as adjoint source, which is what the dot-product test
// checks.
#include "fwi/gather.hpp"
#include "fwi/simulation.hpp"

#include <span>

namespace fwi {

/// d(data)/d(v) applied to dv_mps (model cells) for one shot, at the user's sampling (receivers x nt).
/// The background model must already be set with sim.set_model().
std::vector<float> born_forward(Simulation& sim, int shot, std::span<const float> dv_mps);

} // namespace fwi
