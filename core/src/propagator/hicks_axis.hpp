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

/// The z weights under a free surface at index 0: weight at i < 0 added, negated, to -i; the one at 0
/// dropped; sorted by index (consecutive from the first). Empty for a point on the surface.
std::vector<std::pair<std::int64_t, double>>
fold_about_free_surface(const std::vector<std::pair<std::int64_t, double>>& w);

} // namespace fwi::detail
