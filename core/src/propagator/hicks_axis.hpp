#pragma once
// Hicks' 1D Kaiser-windowed sinc weights (hicks.cpp explains the choice and the normalisation), shared by the
// 2D and 3D point stencils, which are tensor products of them.
#include <cstdint>
#include <utility>
#include <vector>

namespace fwi::detail {

/// Weights along one axis for fractional model position p (in cells), normalised to sum to 1; an exact node
/// gives one weight.
std::vector<std::pair<std::int64_t, double>> hicks_axis_weights(double p);

} // namespace fwi::detail
