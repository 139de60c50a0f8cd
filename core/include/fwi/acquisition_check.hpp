#pragma once
// Checks that an acquisition fits a model grid, before anything is propagated.
#include "fwi/acquisition.hpp"
#include "fwi/grid.hpp"

#include <cstdint>
#include <string>

namespace fwi {

/// Throws ConfigError for an empty acquisition, a shot without receivers, or a source/receiver that is not
/// finite or lies outside [0, width_m] x [0, depth_m] (x [0, breadth_m] in 3D), or off the plane y = 0 of a
/// 2D model. Messages name the shot index, the receiver index and the position.
void validate_acquisition(const Acquisition& acquisition, const Grid& grid);

/// Under a free surface (PropagationSettings::free_surface) the pressure on z = 0 is held at zero, so a
/// source or receiver there would inject or record nothing: throws ConfigError naming the first such point
/// (the rule the propagators' point stencils apply, hicks.cpp).
void validate_points_below_free_surface(const Acquisition& acquisition, const Grid& grid);

/// A warning when the data of every shot (traces x nt floats) exceed half of `memory_bytes` (default: this
/// machine's memory, or FWI_MACHINE_MEMORY): `forward --store-observed`, gradients and inversions hold them
/// all in memory. Empty when they fit or the memory is not known.
std::string data_memory_warning(const Acquisition& acquisition, std::int64_t nt,
                                std::uint64_t memory_bytes = 0);

} // namespace fwi
