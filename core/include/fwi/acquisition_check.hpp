#pragma once
// Checks that an acquisition fits a model grid, before anything is propagated.
#include "fwi/acquisition.hpp"
#include "fwi/grid.hpp"

namespace fwi {

/// Throws ConfigError for an empty acquisition, a shot without receivers, or a source/receiver that is not
/// finite or lies outside [0, width_m] x [0, depth_m] (x [0, breadth_m] in 3D), or off the plane y = 0 of a
/// 2D model. Messages name the shot index, the receiver index and the position.
void validate_acquisition(const Acquisition& acquisition, const Grid& grid);

} // namespace fwi
