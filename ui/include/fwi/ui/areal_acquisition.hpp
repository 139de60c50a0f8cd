#pragma once
// Areal acquisition for 3D projects (no Qt, testable): a regular grid of sources or receivers over a
// rectangle of the x-y plane at one depth, as the depth slice's rectangle drag places it.
#include "fwi/ui/acquisition_edit.hpp"

namespace fwi::ui {

/// Appends count_x * count_y points evenly spaced over the rectangle with opposite corners `a` and `b` (their
/// x and y, in either order; a single count puts that axis at the smaller coordinate), all at depth a.z_m,
/// x fast (fwi::grid_of_points), as sources (one new shot each, recorded by the shared receivers) or as
/// receivers (of every shot when shared, else of `shot`), like with_point_added. Throws ConfigError, naming
/// what is wrong, for a 2D grid, a count below 1 or a corner outside the model.
Acquisition with_areal_grid(const Acquisition& acq, const Grid& grid, PointKind kind, Point a, Point b,
                            int count_x, int count_y, int shot);

} // namespace fwi::ui
