#pragma once
// The checks every built model shares (private to core): a usable grid of at most 2e8 cells, positive finite
// velocities.
#include "fwi/model.hpp"

namespace fwi::detail {

inline constexpr double max_model_cells = 2e8;

/// A model of `grid` (rank 2 or 3) filled with zeros. ConfigError naming `what` when a size or spacing is not
/// positive and finite or the grid has more than max_model_cells cells.
Model blank_model(const Grid& grid, const char* what);

/// ConfigError "what: field = v m/s must be positive and finite" unless v is.
void check_velocity(double v, const char* what, const char* field);

} // namespace fwi::detail
